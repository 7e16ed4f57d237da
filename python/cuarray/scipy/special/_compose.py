"""scipy.special's functions that are not ufuncs, as compositions of cuarray's
ufuncs and reductions: zeta (Riemann or Hurwitz), polygamma, logsumexp,
softmax, log_softmax, multigammaln; and the ufuncs of several results (sici,
shichi, ellipj), one internal row per result, returned as SciPy's tuple.
"""

import math as _math

import numpy as _np

import cuarray as _ca
from ... import _core

_ops = _core._ops


def _arr(x):
    return x if isinstance(x, _ca.ndarray) else _ca.asarray(x)


def zeta(x, q=None, out=None):
    """zeta(x, q=None, out=None)

    The Riemann zeta function (q None) or the Hurwitz zeta function
    sum_k (k + q)^-x (scipy.special.zeta); real arguments.
    """
    if q is None:
        return _ops["_special__riemann_zeta"](x, out=out)
    return _ops["_special__zeta"](x, q, out=out)


def polygamma(n, x):
    """polygamma(n, x)

    The n-th derivative of the digamma function (scipy.special.polygamma):
    psi(x) where n == 0, else (-1)^(n+1) n! zeta(n + 1, x).
    """
    n, x = _arr(n), _arr(x)
    nf = n.astype(_np.float64) if n.dtype.kind != "f" else n
    sign = _ca.where(_ca.remainder(nf, 2.0) == 0.0, -1.0, 1.0)
    fac = sign * _ops["_special_gamma"](nf + 1.0) * _ops["_special__zeta"](nf + 1.0, x)
    return _ca.where(n == 0, _ops["_special_psi"](x), fac)


def _shift(a, axis):
    """The finite maximum along axis (kept), 0 where it is +-inf or NaN."""
    m = _ca.max(a, axis=axis, keepdims=True)
    return _ca.where(_ca.isfinite(m), m, 0)


def _float(a):
    a = _arr(a)
    if a.dtype.kind in "biu":
        a = a.astype(_np.float64)
    return a


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False):
    """logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False)

    log(sum(b * exp(a))) along axis, computed as m + log(sum(b * exp(a - m)))
    with m the finite maximum (scipy.special.logsumexp). Terms with b == 0 do
    not count; a negative sum is NaN unless return_sign, which returns
    (log|sum|, sign).
    """
    a = _float(a)
    if b is not None:
        b = _float(b)
        a, b = _ca.broadcast_arrays(a, b)
        a = _ca.where(b != 0, a, -_np.inf)
    if a.size == 0:
        m = _ca.max(a, axis=axis, keepdims=True, initial=-_np.inf)
    else:
        m = _shift(a, axis)
    e = _ca.exp(a - m)
    if b is not None:
        e = e * b
    s = _ca.sum(e, axis=axis, keepdims=keepdims)
    if not keepdims:
        m = m.reshape(s.shape) if axis is not None or s.ndim else m.reshape(())
    if return_sign:
        sgn = _ca.sign(s)
        s = _ca.abs(s)
    out = _ca.log(s) + m
    if return_sign:
        return out, sgn
    return out


def softmax(x, axis=None):
    """softmax(x, axis=None)

    exp(x - max) / sum(exp(x - max)) along axis (scipy.special.softmax).
    """
    x = _float(x)
    e = _ca.exp(x - _shift(x, axis))
    return e / _ca.sum(e, axis=axis, keepdims=True)


def log_softmax(x, axis=None):
    """log_softmax(x, axis=None)

    x - max - log(sum(exp(x - max))) along axis (scipy.special.log_softmax).
    """
    x = _float(x)
    t = x - _shift(x, axis)
    return t - _ca.log(_ca.sum(_ca.exp(t), axis=axis, keepdims=True))


def multigammaln(a, d):
    """multigammaln(a, d)

    The log of the multivariate gamma function of dimension d
    (scipy.special.multigammaln): d (d - 1) / 4 log(pi) + sum_j gammaln(a - j/2),
    j = 0 .. d - 1. d must be a positive integer and every a > (d - 1) / 2
    (ValueError otherwise, as SciPy; the check reads the minimum back).
    """
    a = _arr(a)
    if not _np.isscalar(d) or _math.floor(d) != d:
        raise ValueError("d should be a positive integer (dimension)")
    if a.size and bool(_ca.any(a <= 0.5 * (d - 1))):
        raise ValueError(f"condition a ({a.get()}) > 0.5 * (d-1) ({0.5 * (d - 1)}) not met")
    res = (d * (d - 1) * 0.25) * _math.log(_math.pi)
    gl = _ops["_special_gammaln"]
    for j in range(d):
        res = res + gl(a - 0.5 * j)
    return res


def _tuple_out(name, out, n):
    if out is None:
        return (None,) * n
    if not isinstance(out, tuple) or len(out) != n:
        raise TypeError(f"{name}: out must be a tuple of {n} arrays")
    return out


def _several(name, rows, args, out):
    outs = _tuple_out(name, out, len(rows))
    return tuple(_ops[f"_special__{r}"](*args, out=o) for r, o in zip(rows, outs))


def sici(x, out=None):
    """sici(x, out=None)

    The sine and cosine integrals (Si(x), Ci(x)) (scipy.special.sici, a ufunc
    of two results there): two cuarray ufuncs, one per result. Ci of x < 0 is
    Ci(|x|), SciPy's real value.
    """
    return _several("sici", ("sici_si", "sici_ci"), (x,), out)


def shichi(x, out=None):
    """shichi(x, out=None)

    The hyperbolic sine and cosine integrals (Shi(x), Chi(x))
    (scipy.special.shichi).
    """
    return _several("shichi", ("shichi_shi", "shichi_chi"), (x,), out)


def ellipj(u, m, out=None):
    """ellipj(u, m, out=None)

    Jacobi's elliptic functions (sn, cn, dn, ph) of u, parameter 0 <= m <= 1
    (scipy.special.ellipj): four cuarray ufuncs, one per result.
    """
    return _several("ellipj", ("ellipj_sn", "ellipj_cn", "ellipj_dn", "ellipj_ph"),
                    (u, m), out)


def _ints(x, what):
    x = _arr(x)
    if x.dtype.kind == "b" or x.dtype.kind not in "iu":
        if x.dtype.kind == "f" and bool(_ca.all(x == _ca.floor(x))):
            return x.astype(_np.int64)
        raise TypeError(f"{what} must be integers, not {x.dtype}")
    return x.astype(_np.int64)


def lambertw(z, k=0, tol=1e-8):
    """lambertw(z, k=0, tol=1e-8)

    Branch k of the Lambert W function, w with w e^w = z (scipy.special.lambertw),
    complex; Halley's iteration stops once a step is below tol |w|.
    """
    z = _arr(z)
    k = _ca.asarray(k, device=z.device).astype(_np.int64)
    # tol is a real parameter: as an array it is not promoted to z's complex type
    tol = _ca.asarray(_np.float32(tol) if z.dtype == _np.complex64 else _np.float64(tol),
                      device=z.device)
    return _ops["_special__lambertw"](z, k, tol)


def spherical_yn(n, z, derivative=False):
    """spherical_yn(n, z, derivative=False)

    The spherical Bessel function of the second kind y_n(z), or its derivative
    (scipy.special.spherical_yn). Real z only: complex z raises TypeError.
    """
    n = _ints(n, "n")
    row = "_special__spherical_yn_d" if derivative else "_special__spherical_yn"
    return _ops[row](n, z)


def sph_harm_y(n, m, theta, phi, *, diff_n=0):
    """sph_harm_y(n, m, theta, phi, *, diff_n=0)

    The spherical harmonic Y_n^m(theta, phi) = sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!)
    P_n^m(cos theta) e^(i m phi) (scipy.special.sph_harm_y), complex128: the
    normalized Legendre function (a recurrence without factorials) times
    e^(i m phi). Only diff_n=0 (the derivatives SciPy returns for 1 and 2 are
    not built: NotImplementedError).
    """
    if diff_n != 0:
        raise NotImplementedError("sph_harm_y: only diff_n=0 is supported")
    n, m = _ints(n, "n"), _ints(m, "m")
    p = _ops["_special__sph_legendre"](n, m, theta)
    ph = m * _arr(phi).astype(_np.float64) if not isinstance(phi, (int, float)) else m * phi
    return p * (_ca.cos(ph) + 1j * _ca.sin(ph))

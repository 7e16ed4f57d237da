"""B-spline filters (SciPy's scipy.signal): cspline1d, qspline1d, cspline2d,
qspline2d, cspline1d_eval, qspline1d_eval, spline_filter, symiirorder1,
symiirorder2, sepfir2d, gauss_spline.

Choice: compositions on the recurrences of _lfilter (the blocked state-space
form, parallel over rows). The mirror-symmetric boundary starts are sums
sum_k w[k] x[k] of the signal with the filter's decaying weights: one matmul
of the data with the weight vector (host made), taken over the whole signal
where the weights are above the precision. SciPy stops its sums when a term
falls under the precision (a data-dependent length), so symiirorder1/2 (and
cspline2d, qspline2d, spline_filter through them) agree with SciPy to about
precision times the data's size; cspline1d and qspline1d take the full sums as
SciPy does. SciPy's 'did not converge' ValueError comes when the signal is
shorter than the weights' length above the precision. sepfir2d is two
shift-and-add convolutions over a half-sample symmetric extension. The evaluators
fold positions into range by mirror reflections and sum 4 (3) basis values. On
the cpu device (CPU_SCIPY) SciPy's routines run on zero-copy views.
"""

import math as _math

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, like, on_cpu, scipy_signal

__all__ = ["cspline1d", "cspline1d_eval", "cspline2d", "gauss_spline", "qspline1d",
           "qspline1d_eval", "qspline2d", "sepfir2d", "spline_filter", "symiirorder1",
           "symiirorder2"]

CPU_SCIPY = True


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _dev(v, x):
    return _ca.asarray(_np.asarray(v).astype(x.dtype), device=x.device)


def _float(x):
    return x if x.dtype.kind in "fc" and x.dtype.itemsize >= 4 else x.astype(_np.float64)


# ---- first- and second-order symmetric recurrences --------------------------

def _first_order(x, z, c0, y0):
    """The causal 1/(1 - z q^-1) pass from y[0] = y0, then the anticausal
    c0/(1 - z q) pass from the mirror-symmetric end c0/(1 - z) y[-1]
    (x (..., N), rows independent)."""
    from ._lfilter import lfilter
    a = _np.array([1, -z]).astype(x.dtype)
    yp, _ = lfilter(_np.ones(1, x.dtype), a, x[..., 1:], zi=(y0 * z)[..., None])
    yp = _ca.concatenate([y0[..., None], yp], axis=-1)
    last = yp[..., -1] * (-c0 / (z - 1.0))
    out, _ = lfilter(_np.array([c0]).astype(x.dtype), a, yp[..., -2::-1],
                     zi=(last * z)[..., None])
    return _ca.concatenate([out[..., ::-1], last[..., None]], axis=-1)


def _n_terms(mag, precision, N):
    """How many weights mag^k stay above precision; SciPy's ValueError when the
    signal is shorter."""
    n = int(_math.ceil(_math.log(precision) / _math.log(mag))) if mag > 0 else 1
    if n > N:
        raise ValueError("Sum to find symmetric boundary conditions did not converge.")
    return max(n, 1)


def _precision(precision, dtype):
    if precision <= 0.0 or precision >= 1.0:
        return 1e-3 if dtype in (_np.float32, _np.complex64) else 1e-6
    return precision


def symiirorder1(signal, c0, z1, precision=-1.0):
    """The smoothing filter c0 / ((1 - z1 q^-1)(1 - z1 q)) with mirror-symmetric
    boundaries, along the last axis of a 1-D or 2-D signal."""
    x = asarray(signal)
    if _route(x):
        return back(scipy_signal().symiirorder1(host(x), c0, z1, precision), "cpu")
    x = _float(x)
    if abs(z1) >= 1:
        raise ValueError("|z1| must be less than 1.0")
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    N = x.shape[-1]
    n = _n_terms(abs(z1), _precision(precision, x.dtype), N)
    # y[0] = x[0] + sum_k z1^(k+1) x[k]: the causal pass over the mirror image
    w = _np.asarray(z1, dtype=_np.result_type(z1, float)) ** _np.arange(1, n + 1)
    y0 = x[..., 0] + x[..., :n] @ _dev(w, x)
    return _first_order(x, z1, c0, y0)


def _hc(k, cs, r, omega):
    k = _np.asarray(k)
    return cs / _np.sin(omega) * r ** k * _np.sin(omega * (k + 1)) * (k > -1)


def _second_order_ic(x, cs, r, omega, n, smooth=False):
    """The causal pass's first two outputs under the half-sample symmetric
    extension: y0 = h0 x0 + sum h[k+1] x[k], y1 = h0 x1 + h1 x0 + sum h[k+2] x[k]
    (SciPy's smoothing cubic spline takes h0 x0 + h1 x1 in y1)."""
    k = _np.arange(n)
    w0 = _hc(k + 1, cs, r, omega)
    w0[0] += _hc(0, cs, r, omega)
    w1 = _hc(k + 2, cs, r, omega)
    w1[0] += _hc(0 if smooth else 1, cs, r, omega)
    w1[1] += _hc(1 if smooth else 0, cs, r, omega)
    W = _np.stack([w0, w1], axis=1)
    return x[..., :n] @ _dev(W, x)


def _hs(k, cs, r, omega):
    """The symmetric (forward-backward) filter's response at lag k."""
    c0 = (cs * cs * (1 + r * r) / (1 - r * r) /
          (1 - 2 * r * r * _math.cos(2 * omega) + r ** 4))
    gamma = (1 - r * r) / (1 + r * r) / _math.tan(omega)
    ak = _np.abs(k)
    return c0 * r ** ak * (_np.cos(omega * ak) + gamma * _np.sin(omega * ak))


def _symmetric_end(x, cs, r, omega, n):
    """The last two outputs (y[N-1], y[N-2]) of the symmetric filter under the
    half-sample symmetric extension: sums of the reversed signal."""
    k = _np.arange(n)
    W = _np.stack([_hs(k, cs, r, omega) + _hs(k + 1, cs, r, omega),
                   _hs(k - 1, cs, r, omega) + _hs(k + 2, cs, r, omega)], axis=1)
    return x[..., ::-1][..., :n] @ _dev(W, x)


def symiirorder2(input, r, omega, precision=-1.0):
    """The smoothing filter cs^2 / ((1 - a2 q^-1 - a3 q^-2)(1 - a2 q - a3 q^2))
    with mirror-symmetric boundaries, along the last axis of a 1-D or 2-D input."""
    x = asarray(input)
    if _route(x):
        return back(scipy_signal().symiirorder2(host(x), r, omega, precision), "cpu")
    x = _float(x)
    if r >= 1.0:
        raise ValueError("r must be less than 1.0")
    if x.ndim > 2:
        raise ValueError("Input must be 1D or 2D")
    from ._lfilter import sosfilt
    rsq = r * r
    a2, a3 = 2 * r * _math.cos(omega), -rsq
    cs = 1 - 2 * r * _math.cos(omega) + rsq
    sos = _np.array([[cs, 0, 0, 1, -a2, -a3]]).astype(x.dtype)
    # SciPy stops these sums at the first term under the precision (a data-
    # dependent error); they run here until the weights fall under 1e-18
    _n_terms(abs(r), _precision(precision, x.dtype), x.shape[-1])
    n = min(_n_terms(abs(r), 1e-18, 1 << 62) + 2, x.shape[-1])
    coef = _dev([[a3, a2], [0, a3]], x).T
    fwd = _second_order_ic(x, cs, r, omega, n)
    y, _ = sosfilt(sos, x[..., 2:], zi=(fwd @ coef)[None])
    y = _ca.concatenate([fwd, y], axis=-1)
    bwd = _symmetric_end(x, cs, r, omega, n)
    out, _ = sosfilt(sos, y[..., -3::-1], zi=(bwd @ coef)[None])
    return _ca.concatenate([out[..., ::-1], bwd[..., ::-1]], axis=-1)


def _along(fn, x, axis, *args):
    """fn over the last axis of x moved from axis (rows batched)."""
    xm = _ca.moveaxis(x, axis, -1)
    shape = xm.shape
    out = fn(xm.reshape((-1, shape[-1])), *args)
    return _ca.moveaxis(out.reshape(shape), -1, axis)


# ---- spline coefficients ----------------------------------------------------

def _direct_coeff(x, zi, gain):
    """The interpolating B-spline coefficients for the pole zi (cubic:
    -2 + sqrt 3, gain 6; quadratic: -3 + 2 sqrt 2, gain 8): full mirror sums."""
    N = x.shape[-1]
    s = x @ _dev(zi ** _np.arange(N), x)
    y0 = x[..., 0] + zi * s
    if N == 1:
        # (SciPy 1.17 leaves the gain out for a one-sample signal)
        return (zi / (zi - 1) * y0)[..., None]
    return _first_order(x, zi, -zi * gain, y0)


def _smooth_cubic(x, lamb):
    """cspline1d with smoothing lamb: the second-order symmetric filter of
    _coeff_smooth's pole pair (full sums, as SciPy's)."""
    xi = 1 - 96 * lamb + 24 * lamb * _math.sqrt(3 + 144 * lamb)
    omega = _math.atan2(_math.sqrt(144 * lamb - 1), _math.sqrt(xi))
    rho = (24 * lamb - 1 - _math.sqrt(xi)) / (24 * lamb)
    rho = rho * _math.sqrt((48 * lamb + 24 * lamb * _math.sqrt(3 + 144 * lamb)) / xi)
    N = x.shape[-1]
    r = rho
    cs = 1 - 2 * r * _math.cos(omega) + r * r
    from ._lfilter import sosfilt
    a2, a3 = 2 * r * _math.cos(omega), -r * r
    sos = _np.array([[cs, 0, 0, 1, -a2, -a3]]).astype(x.dtype)
    coef = _dev([[a3, a2], [0, a3]], x).T
    fwd = _second_order_ic(x, cs, r, omega, N, smooth=True)
    y, _ = sosfilt(sos, x[..., 2:], zi=(fwd @ coef)[None])
    y = _ca.concatenate([fwd, y], axis=-1)
    end = _symmetric_end(x, cs, r, omega, N)            # (y[N-1], y[N-2])
    zi = _lfiltic_2(cs, a2, a3, end[..., 1], end[..., 0])
    out, _ = sosfilt(sos, y[..., -3::-1], zi=zi[None])
    return _ca.concatenate([out[..., ::-1], end[..., 1:2], end[..., 0:1]], axis=-1)


def _lfiltic_2(cs, a2, a3, y1, y2):
    """lfiltic(cs, [1, -a2, -a3], [y1, y2]): the state (a2 y1 + a3 y2, a3 y1)."""
    return _ca.stack([a2 * y1 + a3 * y2, a3 * y1], axis=-1)


def cspline1d(signal, lamb=0.0):
    """The cubic B-spline coefficients of a rank-1 signal (mirror-symmetric
    boundaries; lamb > 0 smooths)."""
    x = asarray(signal)
    if _route(x):
        return back(scipy_signal().cspline1d(host(x), lamb), "cpu")
    x = x.astype(_np.result_type(x.dtype, _np.float64))     # SciPy's float64 steps
    if lamb != 0.0:
        return _smooth_cubic(x, lamb)
    return _direct_coeff(x, -2 + _math.sqrt(3), 6.0)


def qspline1d(signal, lamb=0.0):
    """The quadratic B-spline coefficients of a rank-1 signal."""
    x = asarray(signal)
    if _route(x):
        return back(scipy_signal().qspline1d(host(x), lamb), "cpu")
    if lamb != 0.0:
        raise ValueError("Smoothing quadratic splines not supported yet.")
    x = x.astype(_np.result_type(x.dtype, _np.float64))
    return _direct_coeff(x, -3 + 2 * _math.sqrt(2.0), 8.0)


def cspline2d(signal, lamb=0.0, precision=-1.0):
    """The 2-D cubic B-spline coefficients (mirror-symmetric boundaries)."""
    x = asarray(signal)
    if _route(x):
        return back(scipy_signal().cspline2d(host(x), lamb, precision), "cpu")
    x = _float(x)
    precision = _precision(precision, x.dtype)
    if lamb <= 1 / 144.0:
        r = -2 + _math.sqrt(3.0)
        out = _along(symiirorder1, x, -1, -r * 6.0, r, precision)
        return _along(symiirorder1, out, 0, -r * 6.0, r, precision)
    tmp = _math.sqrt(3 + 144 * lamb)
    xi = 1 - 96 * lamb + 24 * lamb * tmp
    omega = _math.atan(_math.sqrt((144 * lamb - 1.0) / xi))
    r = ((24 * lamb - 1 - _math.sqrt(xi)) / (24 * lamb) *
         _math.sqrt(48 * lamb + 24 * lamb * tmp) / _math.sqrt(xi))
    out = _along(symiirorder2, x, -1, r, omega, precision)
    return _along(symiirorder2, out, 0, r, omega, precision)


def qspline2d(signal, lamb=0.0, precision=-1.0):
    """The 2-D quadratic B-spline coefficients (mirror-symmetric boundaries)."""
    x = asarray(signal)
    if _route(x):
        return back(scipy_signal().qspline2d(host(x), lamb, precision), "cpu")
    precision = _precision(precision, x.dtype)
    if lamb > 0:
        raise ValueError("lambda must be negative or zero")
    x = _float(x)
    r = -3 + 2 * _math.sqrt(2.0)
    out = _along(symiirorder1, x, -1, -r * 8.0, r, precision)
    return _along(symiirorder1, out, 0, -r * 8.0, r, precision)


# ---- evaluation -------------------------------------------------------------

def _cubic(t):
    a = _ca.abs(t)
    inner = 2.0 / 3 - a * a + 0.5 * a * a * a
    outer = (2 - a) ** 3 / 6.0
    return _ca.where(a < 1, inner, _ca.where(a <= 2, outer, 0.0))


def _quadratic(t):
    a = _ca.abs(t)
    return _ca.where(a < 0.5, 0.75 - a * a, _ca.where(a <= 1.5, 0.5 * (a - 1.5) ** 2, 0.0))


def _spline_eval(cj, newx, dx, x0, basis, width, name):
    cj = asarray(cj)
    newx = like(newx, cj)
    if _route(cj, newx):
        return back(getattr(scipy_signal(), name)(host(cj), host(newx), dx, x0), "cpu")
    if cj.size == 0:
        raise ValueError("Spline coefficients 'cj' must not be empty.")
    t = (newx - x0) / float(dx)
    dt = cj.dtype if name == "cspline1d_eval" else t.dtype     # (SciPy's zeros_like)
    N = cj.shape[0]
    if t.size == 0:
        return _ca.zeros(t.shape, dtype=dt, device=cj.device)
    # SciPy's mirror reflections about 0 and N - 1, repeated until in range
    while True:
        lo, hi = t < 0, t > N - 1
        if not bool((lo | hi).any()):
            break
        t = _ca.where(lo, -t, _ca.where(hi, 2 * (N - 1) - t, t))
    jlower = _ca.floor(t - width / 2).astype(_np.int64) + 1
    res = None
    for i in range(int(width) + 1):
        j = jlower + i
        term = cj[_ca.clip(j, 0, N - 1)] * basis(t - j)
        res = term if res is None else res + term
    return res.astype(dt, copy=False)


def cspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The cubic spline with coefficients cj (knots x0 + k dx) at newx."""
    return _spline_eval(cj, newx, dx, x0, _cubic, 4, "cspline1d_eval")


def qspline1d_eval(cj, newx, dx=1.0, x0=0):
    """The quadratic spline with coefficients cj (knots x0 + k dx) at newx."""
    return _spline_eval(cj, newx, dx, x0, _quadratic, 3, "qspline1d_eval")


# ---- separable FIR and the smoothing filter ---------------------------------

def _fir_symmetric(x, h, axis):
    """ndimage.convolve1d(x, h, axis, mode='reflect') for odd len(h)."""
    K = h.size
    half = K // 2
    pads = [(0, 0)] * x.ndim
    pads[axis] = (half, half)
    xp = _ca.pad(x, pads, mode="symmetric")
    n = x.shape[axis]
    out = None
    for k, c in enumerate(h.tolist()):
        sl = [slice(None)] * x.ndim
        sl[axis] = slice(K - 1 - k, K - 1 - k + n)
        term = xp[tuple(sl)] * c
        out = term if out is None else out + term
    return out


def sepfir2d(input, hrow, hcol):
    """The 2-D convolution with the separable filter hrow (along rows, axis 1) and
    hcol (axis 0), mirror-symmetric boundaries; odd filter lengths."""
    x = asarray(input)
    if _route(x):
        return back(scipy_signal().sepfir2d(host(x), host(hrow), host(hcol)), "cpu")
    hr, hc = _np.asarray(host(hrow)), _np.asarray(host(hcol))
    if x.ndim != 2:
        raise ValueError("object of too small depth for desired array")
    x = _float(x)
    for h in (hr, hc):
        if not _np.can_cast(h.dtype, x.dtype, "safe"):
            raise TypeError(f"Cannot cast array data from dtype('{h.dtype}') to "
                            f"dtype('{x.dtype}') according to the rule 'safe'")
    if hr.size % 2 != 1 or hc.size % 2 != 1:
        raise ValueError("hrow and hcol must be odd length")
    out = _fir_symmetric(x, hr.astype(x.dtype), 1)
    return _fir_symmetric(out, hc.astype(x.dtype), 0)


def spline_filter(Iin, lmbda=5.0):
    """The smoothing spline filter of a 2-D image (cspline2d, then the [1 4 1]/6
    separable FIR)."""
    x = asarray(Iin)
    if _route(x):
        return back(scipy_signal().spline_filter(host(x), lmbda), "cpu")
    if x.dtype not in (_np.float32, _np.float64, _np.complex64, _np.complex128):
        raise TypeError(f"Invalid data type for Iin: Iin.dtype = {x.dtype}")
    intype = x.dtype
    if intype == _np.complex128:
        x = x.astype(_np.complex64)
    hcol = _np.array([1.0, 4.0, 1.0], _np.float32) / 6.0
    ck = cspline2d(x, lmbda)
    return sepfir2d(ck, hcol, hcol).astype(intype)


def gauss_spline(x, n):
    """The Gaussian approximation to the B-spline basis of order n."""
    x = asarray(x)
    signsq = (n + 1) / 12.0
    return 1 / _math.sqrt(2 * _math.pi * signsq) * _ca.exp(-x ** 2 / 2 / signsq)

"""expm: the matrix exponential by scaling and squaring with a Padé approximant
(Al-Mohy and Higham, SIAM J. Matrix Anal. Appl. 31(3), 2009, Algorithm 5.1, as
SciPy), on stacks.

The degree m in {3, 5, 7, 9, 13} and the scaling s come from the 1-norms of the
powers A^2, A^4, A^6 the approximant needs anyway (eta_p = max(|A^p|^(1/p),
|A^(p+2)|^(1/(p+2))), with the products' norm bounds where a power is not
formed) and the paper's correction ell(A, m) from the 1-norms of |A|^(2m+1),
exact here by vector-matrix products. One degree serves the whole stack (the
largest any matrix needs); each matrix gets its own s, and the squarings of a
matrix that needs fewer leave it unchanged. The Padé denominators are solved by
cuarray.linalg.solve (batched LU). The norms are read on the host twice.
On the cpu device (CPU_SCIPY) scipy.linalg.expm runs on a zero-copy view.
"""

import math

import numpy as _np

import cuarray as _ca
from cuarray import _linalg_factor as _lf
from cuarray._cpu_numpy import view as _view
from cuarray._cpu_numpy import wrap as _wrap

__all__ = ["expm"]

CPU_SCIPY = True

# Padé coefficients b_0..b_m of exp (Higham 2005, Table 10.x) and the theta_m
# below which degree m without scaling meets double precision's unit roundoff.
_B = {
    3: (120., 60., 12., 1.),
    5: (30240., 15120., 3360., 420., 30., 1.),
    7: (17297280., 8648640., 1995840., 277200., 25200., 1512., 56., 1.),
    9: (17643225600., 8821612800., 2075673600., 302702400., 30270240., 2162160.,
        110880., 3960., 90., 1.),
    13: (64764752532480000., 32382376266240000., 7771770303897600.,
         1187353796428800., 129060195264000., 10559470521600., 670442572800.,
         33522128640., 1323241920., 40840800., 960960., 16380., 182., 1.),
}
_THETA = {3: 1.495585217958292e-2, 5: 2.539398330063230e-1, 7: 9.504178996162932e-1,
          9: 2.097847961257068e0, 13: 5.371920351148152e0}


def _norm1(x):
    """The 1-norm of each matrix of the stack, on the host."""
    return _np.atleast_1d(_ca.abs(x).sum(axis=-2).max(axis=-1).get()).astype(float)


def _pade(A, powers, m, eye):
    """(U, V) of the degree-m approximant: exp(A) ~ (V - U)^-1 (V + U)."""
    b = _B[m]
    if m < 13:
        odd = b[1] * eye
        even = b[0] * eye
        for k in range(1, m // 2 + 1):
            odd = odd + b[2 * k + 1] * powers[2 * k]
            even = even + b[2 * k] * powers[2 * k]
        return A @ odd, even
    A2, A4, A6 = powers[2], powers[4], powers[6]
    u = A6 @ (b[13] * A6 + b[11] * A4 + b[9] * A2) + b[7] * A6 + b[5] * A4 + \
        b[3] * A2 + b[1] * eye
    v = A6 @ (b[12] * A6 + b[10] * A4 + b[8] * A2) + b[6] * A6 + b[4] * A4 + \
        b[2] * A2 + b[0] * eye
    return A @ u, v


# ell(A, m) (the paper's (5.1)): the extra squarings the backward error of degree
# m needs, from |c_(2m+1)| |||A|^(2m+1)||_1 / ||A||_1, c the Padé remainder's
# leading coefficient (m!)^2 / ((2m)! (2m+1)!). For |A| >= 0 that 1-norm is the
# largest entry of ones^T |A|^(2m+1): exact, by vector-matrix products.
_C = {m: 1.0 / (math.comb(2 * m, m) * math.factorial(2 * m + 1)) for m in _B}
_U = 2.0 ** -53


def _abs_power_norms(A):
    """{2m+1: log2 |||A|^(2m+1)||_1 per matrix} for every degree m, on the host;
    the vector is rescaled at each product (its logs summed), so no power
    overflows whatever A's precision."""
    absA = _ca.abs(A).astype(_np.float64)
    v = _ca.ones(A.shape[:-2] + (1, A.shape[-1]), dtype=_np.float64, device=A.device)
    logs = _ca.zeros(A.shape[:-2] + (1, 1), dtype=_np.float64, device=A.device)
    want = sorted(2 * m + 1 for m in _B)
    got = []
    with _np.errstate(divide="ignore"):
        for k in range(1, want[-1] + 1):
            v = v @ absA
            mx = v.max(axis=(-2, -1), keepdims=True)
            logs = logs + _ca.log2(mx)
            v = v / _ca.where(mx > 0, mx, 1.0)
            if k in want:
                got.append(logs)
    rows = _np.asarray(_ca.stack(got).get(), dtype=float).reshape(len(want), -1)
    return dict(zip(want, rows))


def _ell(m, p, norm_a, s):
    """ell(2^-s A, m) per matrix, from the log-norms p of _abs_power_norms."""
    with _np.errstate(divide="ignore", invalid="ignore"):
        log_alpha = math.log2(_C[m]) + p[2 * m + 1] - 2 * m * s - _np.log2(norm_a)
        e = _np.ceil((log_alpha - math.log2(_U)) / (2 * m))
    ok = (norm_a > 0) & _np.isfinite(e)
    return _np.where(ok, _np.maximum(e, 0), 0).astype(int)


def _degree(A, n4, n6):
    """(m, s per matrix) from the 1-norms of A^4 and A^6 (host arrays) and the
    ell corrections of |A|'s powers."""
    d4, d6 = n4 ** 0.25, n6 ** (1 / 6)
    eta1 = _np.maximum(d4, d6)   # eta_3 = max(d6, d8) <= eta_1, as d8 <= d4
    p = _abs_power_norms(A)
    norm_a = _norm1(A)
    zero = _np.zeros(eta1.shape, dtype=int)
    for m in (3, 5, 7, 9):
        if _np.all(eta1 <= _THETA[m]) and not _ell(m, p, norm_a, zero).any():
            return m, zero
    # degree 13: eta_5 <= max(d8, d10) <= max(d4, (|A^4| |A^6|)^(1/10))
    eta5 = _np.maximum(d4, (n4 * n6) ** 0.1)
    s = _np.ceil(_np.log2(_np.maximum(eta5, 1e-300) / _THETA[13]))
    s = _np.maximum(s, 0).astype(int)
    return 13, s + _ell(13, p, norm_a, s)


def expm(A):
    """expm(A)

    The matrix exponential of A (..., N, N) (scipy.linalg.expm): float32 and
    complex64 stay in their precision, integers compute in float64, float16 in
    float32; a 0-d A is a 1 x 1 matrix.
    """
    A = A if isinstance(A, _ca.ndarray) else _ca.asarray(A)
    if A.ndim == 0:
        A = A.reshape(1, 1)
    if A.ndim < 2:
        raise _lf.LinAlgError("The input array must be at least two-dimensional")
    if A.shape[-1] != A.shape[-2]:
        raise _lf.LinAlgError("Last 2 dimensions of the array must be square")
    if CPU_SCIPY and A.device.id < 0:
        import scipy.linalg as sl
        return _wrap(sl.expm(_view(A)), A.device)
    t = _lf._linalg_types(A.astype(_np.float32) if A.dtype == _np.float16 else A)[0]
    A = A.astype(t)
    n = A.shape[-1]
    if A.size == 0:
        return _ca.empty(A.shape, dtype=t, device=A.device)
    if n == 1:
        return _ca.exp(A)
    return _scaled_pade(A, n, t)


def _scaled_pade(A, n, t):
    eye = _ca.eye(n, dtype=t, device=A.device)
    powers = {2: A @ A}
    powers[4] = powers[2] @ powers[2]
    powers[6] = powers[4] @ powers[2]
    m, s = _degree(A, _norm1(powers[4]), _norm1(powers[6]))
    if m == 9:
        powers[8] = powers[4] @ powers[4]
    shape = A.shape[:-2] + (1, 1)
    if s.any():
        sc = _ca.asarray((0.5 ** s).reshape(shape), device=A.device).astype(_lf._real(t))
        A = A * sc
        powers = {p: powers[p] * sc ** p for p in powers}
    u, v = _pade(A, powers, m, eye)
    x = _ca.linalg.solve(v - u, v + u)
    if (s == s.flat[0]).all():   # one scaling for all: plain squarings
        for _ in range(int(s.flat[0])):
            x = x @ x
        return x
    steps = _ca.asarray(s.reshape(shape), device=A.device)
    for k in range(int(s.max())):
        x = _ca.where(steps > k, x @ x, x)
    return x

"""Linear systems of the spline fits, by composition on the device.

Tridiagonal systems (cubic splines) are solved by parallel cyclic reduction:
ceil(log2 n) steps, each one element-wise pass over all n equations eliminating
the neighbours at distance 2^step, so the work is n log n with no sequential
sweep (a GPU runs each step as a few fused passes). There is no pivoting, as in
LAPACK's gtsv-free banded solvers for diagonally dominant matrices: the spline
systems are (their boundary rows included, up to the not-a-knot rows, which the
tests check against SciPy's LU). Other banded systems (B-spline collocation)
go to cuarray.linalg.solve as dense matrices."""

import numpy as _np

import cuarray as _ca

__all__ = ["solve_tridiagonal", "solve_cyclic_tridiagonal"]


def _prev(v, s, fill):
    """v shifted down by s along axis 0 (v[i - s]), fill where i < s."""
    n = v.shape[0]
    pad = _ca.full((min(s, n),) + v.shape[1:], fill, dtype=v.dtype, device=v.device)
    return _ca.concatenate([pad, v[:n - s]], axis=0) if s < n else pad


def _next(v, s, fill):
    """v shifted up by s along axis 0 (v[i + s]), fill where i + s >= n."""
    n = v.shape[0]
    pad = _ca.full((min(s, n),) + v.shape[1:], fill, dtype=v.dtype, device=v.device)
    return _ca.concatenate([v[s:], pad], axis=0) if s < n else pad


def solve_tridiagonal(dl, d, du, b):
    """x with dl[i] x[i-1] + d[i] x[i] + du[i] x[i+1] = b[i] (dl[0], du[-1] unused).

    dl, d, du: (n,) on b's device; b: (n, ...) right-hand sides. Parallel cyclic
    reduction; the result has b's shape and the common dtype."""
    n = d.shape[0]
    dt = _np.result_type(d.dtype, b.dtype)
    col = (n,) + (1,) * (b.ndim - 1)
    a = dl.astype(dt).reshape(col)
    c = du.astype(dt).reshape(col)
    dd = d.astype(dt).reshape(col)
    r = b.astype(dt)
    zero = _ca.zeros((1,) + col[1:], dtype=dt, device=b.device)
    a = _ca.concatenate([zero, a[1:]])       # no x[-1] in the first equation
    c = _ca.concatenate([c[:-1], zero])      # nor x[n] in the last
    s = 1
    while s < n:
        alpha = -a / _prev(dd, s, 1)
        gamma = -c / _next(dd, s, 1)
        a, c, dd, r = (alpha * _prev(a, s, 0), gamma * _next(c, s, 0),
                       dd + alpha * _prev(c, s, 0) + gamma * _next(a, s, 0),
                       r + alpha * _prev(r, s, 0) + gamma * _next(r, s, 0))
        s *= 2
    return r / dd


def solve_cyclic_tridiagonal(dl, d, du, b):
    """The periodic system: solve_tridiagonal's with dl[0] = A[0, n-1] and
    du[-1] = A[n-1, 0] (the corners), by the bordering SciPy's CubicSpline uses:
    two solves of the leading (n-1) block in one call (b's and the last column's),
    then the last unknown from the last equation. n >= 3."""
    m = d.shape[0] - 1
    trail = (1,) * (b.ndim - 1)
    e = _ca.zeros((m,) + trail, dtype=b.dtype, device=b.device)
    e[0] = -dl[0]
    e[m - 1] = -du[m - 1]
    e = e + _ca.zeros_like(b[:-1])
    both = solve_tridiagonal(dl[:m], d[:m], du[:m], _ca.stack([b[:-1], e], axis=-1))
    s1, s2 = both[..., 0], both[..., 1]
    last = ((b[-1] - du[m] * s1[0] - dl[m] * s1[-1])
            / (d[m] + du[m] * s2[0] + dl[m] * s2[-1]))
    return _ca.concatenate([s1 + last * s2, last[None]], axis=0)

"""distance_matrix: SciPy's scipy.spatial.distance_matrix over cuarray arrays (any
device): the Minkowski p-distances of every pair of rows, computed from the
differences (not the |x|^2 + |y|^2 - 2 x.y expansion, whose cancellation loses
the digits of close points), in blocks of rows of at most `threshold` elements
of differences."""

import math

import numpy as _np

import cuarray as _ca

__all__ = ["distance_matrix", "minkowski_distance"]


def minkowski_distance(x, y, p=2.0):
    """minkowski_distance(x, y, p=2.0)

    The p-norm of x - y along the last axis (broadcasting), float64 as SciPy's
    for every input dtype."""
    x = x if isinstance(x, _ca.ndarray) else _ca.asarray(x)
    y = y if isinstance(y, _ca.ndarray) else _ca.asarray(y, device=x.device)
    d = _ca.abs(x.astype(_np.float64) - y.astype(_np.float64))
    if p == math.inf:
        return d.max(axis=-1) if d.shape[-1] else d.sum(axis=-1)
    if p == 1:
        return d.sum(axis=-1)
    if p == 2:
        return _ca.sqrt((d * d).sum(axis=-1))
    return ((d ** p).sum(axis=-1)) ** (1.0 / p)


def distance_matrix(x, y, p=2.0, threshold=1000000):
    """distance_matrix(x, y, p=2.0, threshold=1000000)

    The (M, N) matrix of Minkowski p-distances between the rows of x (M, K) and
    y (N, K), float64. Above `threshold` elements of differences (M * N * K) it
    works through blocks of rows, so the memory stays about `threshold`
    elements."""
    x = x if isinstance(x, _ca.ndarray) else _ca.asarray(x)
    y = y if isinstance(y, _ca.ndarray) else _ca.asarray(y, device=x.device)
    m, k = x.shape
    n, kk = y.shape
    if k != kk:
        raise ValueError(f"x contains {k}-dimensional vectors but y contains "
                         f"{kk}-dimensional vectors")
    if p != math.inf:
        1.0 / p   # SciPy's ZeroDivisionError for p == 0
    if m * n * k <= threshold or m == 0:
        return minkowski_distance(x[:, None, :], y[None, :, :], p)
    rows = max(1, threshold // max(n * k, 1))
    out = _ca.empty((m, n), dtype=_np.float64, device=x.device)
    for i in range(0, m, rows):
        out[i:i + rows] = minkowski_distance(x[i:i + rows, None, :], y[None, :, :], p)
    return out

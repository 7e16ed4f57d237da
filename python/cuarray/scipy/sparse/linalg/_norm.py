"""norm of a sparse matrix: SciPy 1.17's scipy.sparse.linalg.norm.

Matrix norms ('fro', 1, -1, inf, -inf, 2 by svds) and vector norms along an
axis are compositions of the sparse matrix's own operations (abs, power, sum,
max, min), so they run on any device; on the cpu device (CPU_SCIPY) SciPy's norm
runs on the SciPy form. Matrix norms are 0-d cuarray arrays (as cuarray.linalg's),
axis norms 1-D ones.
"""


import numpy as _np

import cuarray as _ca

from ._interface import _back, _issparse

__all__ = ["norm"]

CPU_SCIPY = True


def _dense(M):
    """A reduction's result as a 1-D dense cuarray array."""
    M = M.toarray() if hasattr(M, "toarray") else _ca.asarray(M)
    return M.ravel()


def _frobenius(x):
    c = x.tocsr(copy=True)
    c.sum_duplicates()
    return _ca.linalg.norm(c.data)


def _axes(x, axis):
    if axis is None:
        return (0, 1)
    if isinstance(axis, tuple):
        return axis
    msg = "'axis' must be None, an integer or a tuple of integers"
    try:
        a = int(axis)
    except TypeError as e:
        raise TypeError(msg) from e
    if a != axis:
        raise TypeError(msg)
    return (a,)


def _matrix_norm(x, ord, axis):
    rows, cols = axis
    if not (-2 <= rows < 2 and -2 <= cols < 2):
        raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape!r}")
    if rows % 2 == cols % 2:
        raise ValueError("Duplicate axes given.")
    if ord == 2:
        from ._eigen import svds
        return svds(x, k=1, return_singular_vectors=False)[0]
    if ord == -2:
        raise NotImplementedError
    if ord in (None, "f", "fro"):
        return _frobenius(x)
    pick = {1: (rows, "max"), _np.inf: (cols, "max"), -1: (rows, "min"),
            -_np.inf: (cols, "min")}
    if ord not in pick:
        raise ValueError("Invalid norm order for matrices.")
    ax, red = pick[ord]
    sums = _dense(abs(x).sum(axis=ax))
    return sums.max() if red == "max" else sums.min()


def _vector_norm(x, ord, a):
    if not -2 <= a < 2:
        raise ValueError(f"Invalid axis {(a,)!r} for an array with shape {x.shape!r}")
    ax = abs(x)
    if ord == _np.inf:
        return _dense(ax.max(axis=a))
    if ord == -_np.inf:
        return _dense(ax.min(axis=a))
    if ord == 0:
        return _dense((x != 0).sum(axis=a))
    if ord == 1:
        return _dense(ax.sum(axis=a))
    if ord in (2, None):
        return _ca.sqrt(_dense(ax.power(2).sum(axis=a)))
    try:
        ord + 1
    except TypeError as e:
        raise ValueError("Invalid norm order for vectors.") from e
    return _dense(ax.power(ord).sum(axis=a)) ** (1 / ord)


def norm(x, ord=None, axis=None):
    """norm(x, ord=None, axis=None)

    The norm of a sparse matrix (``axis`` None or a pair) or the vector norms of
    its rows or columns (``axis`` an integer), as SciPy's: 'fro', 1, -1, inf, -inf
    and 2 for matrices; any order for vectors. A dense input raises TypeError.
    """
    if not _issparse(x):
        raise TypeError("input is not sparse. use numpy.linalg.norm")
    if CPU_SCIPY and getattr(x, "device", None) == "cpu":
        import scipy.sparse.linalg as ssl
        r = _np.asarray(ssl.norm(x.get(), ord, axis))
        # SciPy 1.18 gives an spmatrix's norm along one axis for a general ord as
        # an (m, 1) matrix; 1.17, its other ords and the composition give (m,)
        return _back(r.ravel() if r.ndim == 2 else r)
    if axis is None and ord in (None, "fro", "f"):
        return _frobenius(x)
    axis = _axes(x, axis)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis)
    if len(axis) == 1:
        return _vector_norm(x, ord, axis[0])
    raise ValueError("Improper number of dimensions to norm.")



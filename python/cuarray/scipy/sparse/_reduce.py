"""Reductions over a sparse matrix's axes (sum, mean, max, min, count_nonzero)
and reshape, as compositions over its COO entries."""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import spmatrix


def _axis(axis):
    if axis is None:
        return None
    if isinstance(axis, tuple):
        if len(axis) == 2 and sorted(a % 2 for a in axis) == [0, 1]:
            return None
        if len(axis) != 1:
            raise ValueError("axis out of range")
        axis = axis[0]
    if not isinstance(axis, (int, np.integer)):
        raise TypeError(f"axis must be an integer, not {type(axis).__name__}")
    if not -2 <= axis <= 1:
        raise ValueError("axis out of range")
    return int(axis) % 2


def _shaped(A, vec, axis):
    """A reduction along `axis` in the matrix forms' 2-D shape, or 1-D."""
    if isinstance(A, spmatrix):
        return vec.reshape(1, -1) if axis == 0 else vec.reshape(-1, 1)
    return vec


def _into(out, r):
    if out is None:
        return r
    if out.shape != r.shape:
        raise ValueError("out dimensions do not match shape")
    out[...] = r
    return out


def sum(A, axis, dtype, out):
    axis = _axis(axis)
    res = np.dtype(dtype) if dtype is not None else su.sum_dtype(A.dtype)
    coo = A.tocoo(copy=False)
    if axis is None:
        # SciPy sums the duplicates in A's dtype first (bool: or; int8: wrapping)
        c = A.tocsr()
        if not c.has_canonical_format:
            c = c.copy()
            c.sum_duplicates()
        return _into(out, _ca.sum(c.data.astype(res, copy=False), dtype=res))
    data = coo.data.astype(res, copy=False)
    idx, n = (coo.col, A.shape[1]) if axis == 0 else (coo.row, A.shape[0])
    vec = _ca.zeros(n, dtype=res, device=A.device)
    _ca.add.at(vec, idx, data)
    return _into(out, _shaped(A, vec, axis))


def mean(A, axis, dtype, out):
    axis = _axis(axis)
    integral = A.dtype.kind in "iub"
    res = np.dtype(dtype) if dtype is not None else (
        np.dtype(np.float64) if integral else A.dtype)
    s = sum(A, axis, res, None)
    count = A.shape[0] * A.shape[1] if axis is None else A.shape[axis]
    return _into(out, (s / count).astype(res, copy=False))


def _extreme(dtype, op):
    """The identity of maximum (the lowest value) or minimum (the highest)."""
    lowest = op is _ca.maximum
    if dtype.kind == "f":
        return -np.inf if lowest else np.inf
    if dtype.kind == "b":
        return not lowest
    info = np.iinfo(dtype)
    return info.min if lowest else info.max


def max_min(A, axis, out, explicit, op):
    axis = _axis(axis)
    name = "maximum" if op is _ca.maximum else "minimum"
    if A.dtype.kind == "c":
        raise ValueError(f"{name} is not supported for complex dtypes")
    c = A.tocsr()
    if not c.has_canonical_format:
        c = c.copy()
        c.sum_duplicates()
    coo = c.tocoo(copy=False)
    m, n = A.shape
    if axis is None:
        if m * n == 0:
            raise ValueError(f"zero-size array to reduction operation {name} which "
                             "has no identity")
        if coo.nnz == 0:
            return _into(out, _ca.zeros((), dtype=A.dtype, device=A.device))
        r = op.reduce(coo.data)
        if not explicit and coo.nnz < m * n:
            r = op(r, _ca.zeros((), dtype=A.dtype, device=A.device))
        return _into(out, r)
    if A.shape[1 - axis] == 0:
        raise ValueError("zero-size array to reduction operation")
    idx, length, full = (coo.col, n, m) if axis == 0 else (coo.row, m, n)
    vec = _ca.full(length, _extreme(A.dtype, op), dtype=A.dtype, device=A.device)
    op.at(vec, idx, coo.data)
    counts = _ca.bincount(idx, minlength=length)
    zero = _ca.zeros((), dtype=A.dtype, device=A.device)
    if explicit:
        vec = _ca.where(counts == 0, zero, vec)
    else:
        vec = _ca.where(counts < full, op(vec, zero), vec)
    return _into(out, _reduced_sparse(A, vec, axis))


def _reduced_sparse(A, vec, axis):
    """max/min along an axis: a (1, n) / (m, 1) COO for the matrix forms (SciPy),
    a dense 1-D array for the array forms (SciPy's is a 1-D COO array, which
    cuarray does not have)."""
    if isinstance(A, spmatrix):
        from ._coo import coo_matrix
        return coo_matrix(_shaped(A, vec, axis))
    return vec


def count_nonzero(A, axis):
    axis = _axis(axis)
    c = A.tocsr()
    if not c.has_canonical_format:
        c = c.copy()
        c.sum_duplicates()
    coo = c.tocoo(copy=False)
    nz = coo.data != 0
    if axis is None:
        return int(_ca.count_nonzero(nz))
    idx, length = (coo.col, A.shape[1]) if axis == 0 else (coo.row, A.shape[0])
    return _ca.bincount(idx[nz], minlength=length).astype(np.intp)


def reshape(A, shape, order, copy):
    """A.reshape(shape): the same format, entries moved by their linear index."""
    shape = tuple(int(d) for d in shape)
    size = A.shape[0] * A.shape[1]
    if len(shape) != 2:
        raise ValueError("shape must have length 2 (cuarray.scipy.sparse is 2-D)")
    if shape.count(-1) == 1:
        known = -shape[0] * shape[1]
        if known == 0 or size % known:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = tuple(size // known if d == -1 else d for d in shape)
    if shape[0] * shape[1] != size or min(shape) < 0:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    if shape == A.shape:
        return A.copy() if copy else A
    coo = A.tocoo(copy=False)
    m, n = A.shape
    if order == "C":
        lin = coo.row.astype(np.int64) * n + coo.col
        row, col = lin // shape[1], lin % shape[1]
    elif order == "F":
        lin = coo.col.astype(np.int64) * m + coo.row
        col, row = lin // shape[0], lin % shape[0]
    else:
        raise ValueError("'order' must be 'C' or 'F'")
    idx = su.get_index_dtype(maxval=max(shape))
    r = coo._from_parts((coo.data.copy() if copy else coo.data, row.astype(idx),
                         col.astype(idx)), shape)
    return r.asformat(A.format)

"""Indexing of CSR/CSC matrices: integers, slices, integer and boolean arrays
on rows and columns (A[i, j], A[i], A[r, :], A[:, c], A[r, c] outer)."""

import operator

import numpy as np

import cuarray as _ca

from ._base import sparray
from ._compressed import ptr_from_counts


def _normalize(key):
    if not isinstance(key, tuple):
        key = (key, slice(None))
    key = tuple(k for k in key if k is not Ellipsis) if Ellipsis in [
        k if k is Ellipsis else None for k in key] else key
    if len(key) == 1:
        key = (key[0], slice(None))
    if len(key) != 2:
        raise IndexError("too many indices for sparse array")
    return key


def _index_array(k, n, device):
    """(indices as int64 cuarray, whether the axis drops) for one axis's key."""
    if isinstance(k, slice):
        return _ca.arange(*k.indices(n), dtype=np.int64, device=device), False
    if isinstance(k, (int, np.integer)) or (hasattr(k, "ndim") and k.ndim == 0
                                             and np.dtype(k.dtype).kind in "iu"):
        i = operator.index(int(k))
        if not -n <= i < n:
            raise IndexError(f"index ({i}) out of range")
        return _ca.asarray([i % n], dtype=np.int64, device=device), True
    a = _ca.asarray(k, device=device)
    if a.dtype == np.bool_:
        if a.shape != (n,):
            raise IndexError(f"boolean index did not match indexed array along axis; "
                             f"size is {n} but corresponding boolean size is "
                             f"{a.size}")
        return _ca.nonzero(a)[0].astype(np.int64), False
    if a.dtype.kind not in "iu":
        raise IndexError("only integers, slices, and integer or boolean arrays are "
                         "valid indices")
    a = a.astype(np.int64).reshape(-1)
    if a.size:
        lo, hi = int(a.min()), int(a.max())
        if lo < -n or hi >= n:
            raise IndexError(f"index ({hi if hi >= n else lo}) out of range")
    return _ca.where(a < 0, a + n, a), False


def take_major(ptr, ind, data, sel):
    """The rows `sel` of a CSR's buffers: (ptr, ind, data)."""
    counts = _ca.diff(ptr)[sel]
    new_ptr = ptr_from_counts(counts, ptr.dtype)
    total = int(new_ptr[-1]) if new_ptr.size else 0
    if total == 0:
        return new_ptr, ind[:0], data[:0]
    starts = ptr[sel].astype(np.int64) - new_ptr[:-1]
    src = _ca.repeat(starts, counts) + _ca.arange(total, device=data.device)
    return new_ptr, ind[src], data[src]


def getitem(A, key):
    r, c = _normalize(key)
    if A.format == "csc":
        t = A.transpose()
        res = _getitem_csr(t, c, r)
        return res if not hasattr(res, "format") else res.transpose()
    return _getitem_csr(A, r, c)


def _getitem_csr(A, r, c):
    """A[r, c] for a CSR A (the rows as major axis)."""
    m, n = A.shape
    rows, drop_r = _index_array(r, m, A.device)
    cols, drop_c = _index_array(c, n, A.device)
    if drop_r and drop_c:
        ptr, ind, data = take_major(A.indptr, A.indices, A.data, rows)
        return _ca.sum(_ca.where(ind == cols[0], data, 0), dtype=A.dtype)
    ptr, ind, data = take_major(A.indptr, A.indices, A.data, rows)
    B = A._from_parts((data, ind, ptr), (rows.size, n), sorted=A._sorted,
                      canonical=A._canonical)
    if not (isinstance(c, slice) and c == slice(None)):
        B = _select_cols(B, cols)
    if (drop_r or drop_c) and isinstance(A, sparray):
        # SciPy's result is a 1-D sparse array; cuarray's sparse forms are 2-D
        return B.toarray().reshape(-1)
    return B


def _select_cols(B, cols):
    """B[:, cols] of a CSR B, through its CSC form's rows."""
    csc = B.tocsc()
    ptr, ind, data = take_major(csc.indptr, csc.indices, csc.data, cols)
    out = csc._from_parts((data, ind, ptr), (B.shape[0], cols.size),
                          sorted=True, canonical=csc._canonical)
    return out.tocsr()

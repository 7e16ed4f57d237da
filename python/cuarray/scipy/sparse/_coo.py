"""COO: coo_array/coo_matrix (data, row, col), duplicates allowed until summed."""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import _spbase, _register, _scipy_first, sparray, sparse_input, spmatrix
from ._compressed import _dense_input, coo_to_csr


def coo_parts(arg1, shape, dtype, device):
    """(data, row, col, shape) from SciPy's (data, (row, col)) form."""
    try:
        obj, (row, col) = arg1
    except (TypeError, ValueError):
        raise TypeError("invalid input format: expected (data, (row, col))") from None
    dev = device if device is not None else su.device_of(obj, row, col)
    data = _ca.asarray(obj, device=dev)
    row = su.asindex(row, data.device)
    col = su.asindex(col, data.device)
    if data.ndim != 1 or row.ndim != 1 or col.ndim != 1:
        raise ValueError("row, column, and data arrays must be 1-D")
    if not (data.size == row.size == col.size):
        raise ValueError(f"row, column, and data array must all be the same length")
    data = data.astype(su.getdtype(dtype, data), copy=False)
    if shape is None:
        if row.size == 0:
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        shape = (int(row.max()) + 1, int(col.max()) + 1)
    else:
        shape = su.check_shape(shape)
        if row.size:
            if int(row.max()) >= shape[0]:
                raise ValueError("axis 0 index " + str(int(row.max())) +
                                 f" exceeds matrix dimension {shape[0]}")
            if int(col.max()) >= shape[1]:
                raise ValueError("axis 1 index " + str(int(col.max())) +
                                 f" exceeds matrix dimension {shape[1]}")
            if int(row.min()) < 0 or int(col.min()) < 0:
                raise ValueError("negative axis 0 index" if int(row.min()) < 0
                                 else "negative axis 1 index")
    idx = su.get_index_dtype((row, col), maxval=max(shape))
    return data, row.astype(idx, copy=False), col.astype(idx, copy=False), shape


class _coo_base(_spbase):
    _format = "coo"
    _canonical = False

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None,
                 device=None):
        A = sparse_input(arg1, device, lambda a, c: a.tocoo(copy=c), copy, dtype)
        if A is not None:
            self._set_parts(A._parts(), A.shape, canonical=A._canonical)
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            m, n = su.check_shape(arg1)
            idx = su.get_index_dtype(maxval=max(m, n))
            dt = su.getdtype(dtype, default=np.float64)
            z = _ca.zeros(0, dtype=idx, device=device)
            self._set_parts((_ca.zeros(0, dtype=dt, device=device), z, z.copy()),
                            (m, n), canonical=True)
            return
        if isinstance(arg1, tuple):
            data, row, col, shp = coo_parts(arg1, shape, dtype, device)
            if copy:
                data, row, col = data.copy(), row.copy(), col.copy()
            self._set_parts((data, row, col), shp)
            return
        a = _dense_input(arg1, device, dtype)
        if shape is not None and su.check_shape(shape) != a.shape:
            raise ValueError(f"inconsistent shapes: {shape} and {a.shape}")
        row, col = _ca.nonzero(a)
        idx = su.get_index_dtype(maxval=max(a.shape))
        self._set_parts((a[row, col], row.astype(idx), col.astype(idx)), a.shape,
                        canonical=True)

    def _set_parts(self, arrays, shape, canonical=False, **_):
        self.data, self.row, self.col = arrays
        self._shape = shape
        self._canonical = bool(canonical)

    def _parts(self):
        return (self.data, self.row, self.col)

    def _sp_buffers(self):
        return (self.data, self.row, self.col)

    def _sp_args(self, views):
        return (views[0], (views[1], views[2]))

    def _sp_flags(self, r):
        r.has_canonical_format = self._canonical

    @property
    def coords(self):
        return (self.row, self.col)

    @coords.setter
    def coords(self, value):
        self.row, self.col = value
        self._canonical = False

    @property
    def has_canonical_format(self):
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, val):
        self._canonical = bool(val)

    def _with_data(self, data, copy=True):
        row, col = (self.row.copy(), self.col.copy()) if copy else (self.row, self.col)
        return type(self)._from_parts((data, row, col), self.shape,
                                      canonical=self._canonical)

    def sum_duplicates(self):
        """Sum duplicate entries and sort them by (row, col), in place."""
        if self._canonical:
            return
        ptr, col, data = coo_to_csr(self.shape, self.row, self.col, self.data)
        from ._compressed import expand_ptr
        row = expand_ptr(ptr).astype(col.dtype)
        self._set_parts((data, row, col), self.shape, canonical=True)

    def eliminate_zeros(self):
        keep = self.data != 0
        self.data, self.row, self.col = self.data[keep], self.row[keep], self.col[keep]

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' "
                             "parameter because swapping dimensions is the only "
                             "logical permutation.")
        parts = (self.data, self.col, self.row)
        if copy:
            parts = tuple(a.copy() for a in parts)
        return type(self)._from_parts(parts, self.shape[::-1])

    def _csr_index_dtype(self):
        """SciPy's: the coordinates' dtype unless the sizes need int64."""
        return su.get_index_dtype((self.row, self.col),
                                  maxval=max(self.nnz, *self.shape))

    @_scipy_first
    def tocoo(self, copy=False):
        return self.copy() if copy else self

    @_scipy_first
    def tocsr(self, copy=False):
        """CSR with the duplicates summed (SciPy's rule), sorted."""
        ptr, ind, data = coo_to_csr(self.shape, self.row, self.col, self.data,
                                    idx=self._csr_index_dtype())
        return self._like("csr")._from_parts((data, ind, ptr), self.shape,
                                             canonical=True)

    @_scipy_first
    def tocsc(self, copy=False):
        ptr, ind, data = coo_to_csr(self.shape[::-1], self.col, self.row, self.data,
                                    idx=self._csr_index_dtype())
        return self._like("csc")._from_parts((data, ind, ptr), self.shape,
                                             canonical=True)

    @_scipy_first
    def todia(self, copy=False):
        from ._dia import coo_to_dia
        return coo_to_dia(self)

    @_scipy_first
    def toarray(self, order=None, out=None):
        m, n = self.shape
        dense = _ca.zeros((m, n), dtype=self.dtype, device=self.device)
        key = self.row.astype(np.int64) * n + self.col
        _ca.add.at(dense.reshape(-1), key, self.data)
        if out is not None:
            out[...] = dense
            return out
        return _ca.asfortranarray(dense) if order == "F" else dense

    def __getitem__(self, key):
        return self.tocsr()[key]


@_register
class coo_array(_coo_base, sparray):
    """coo_array(arg1, shape=None, dtype=None, copy=False, *, device=None)

    A sparse array in COOrdinate format (SciPy's coo_array, 2-D): from a dense
    array, a sparse array or matrix, (M, N) or (data, (row, col)).
    """


@_register
class coo_matrix(spmatrix, _coo_base):
    """coo_matrix(arg1, shape=None, dtype=None, copy=False, *, device=None)

    A sparse matrix in COOrdinate format (SciPy's coo_matrix).
    """


def isspmatrix_coo(x):
    """isspmatrix_coo(x): whether `x` is a coo_matrix (not a coo_array)."""
    return isinstance(x, coo_matrix)


def set_diagonal(A, values, k):
    """A's CSR with the k-th diagonal set to `values` (SciPy's setdiag: a scalar
    fills the diagonal, an array sets its first len(values) elements)."""
    m, n = A.shape
    if k <= -m or k >= n:
        raise ValueError("k exceeds array dimensions")
    coo = A.tocoo(copy=False)
    dev = A.device
    length = min(m + min(k, 0), n - max(k, 0))
    vals = _ca.asarray(values, device=dev)
    if vals.ndim == 0:
        vals = _ca.full(length, vals, dtype=A.dtype, device=dev)
    else:
        vals = vals.reshape(-1)[:length].astype(A.dtype)
    i = _ca.arange(vals.size, dtype=np.int64, device=dev)
    rows, cols = (i, i + k) if k >= 0 else (i - k, i)
    # entries on the part of the diagonal being set go; the new values replace them
    on = (coo.col.astype(np.int64) - coo.row == k)
    pos = coo.row.astype(np.int64) if k >= 0 else coo.col.astype(np.int64)
    drop = on & (pos < vals.size)
    keep = ~drop
    row = _ca.concatenate([coo.row[keep].astype(np.int64), rows])
    col = _ca.concatenate([coo.col[keep].astype(np.int64), cols])
    data = _ca.concatenate([coo.data[keep], vals])
    ptr, ind, data = coo_to_csr(A.shape, row, col, data)
    return A._like("csr")._from_parts((data, ind, ptr), A.shape, canonical=True)

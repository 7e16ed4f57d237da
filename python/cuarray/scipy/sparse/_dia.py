"""DIA: dia_array/dia_matrix (data of shape (n_diagonals, L), offsets).

Element data[d, j] is A[j - offsets[d], j] (SciPy's layout: column-aligned).
Everything but the conversions goes through CSR.
"""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import _spbase, _register, _scipy_first, sparray, sparse_input, spmatrix
from ._compressed import _dense_input


class _dia_base(_spbase):
    _format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None,
                 device=None):
        A = sparse_input(arg1, device, lambda a, c: a.todia(copy=c), copy, dtype)
        if A is not None:
            self._set_parts(A._parts(), A.shape)
            return
        if isinstance(arg1, tuple) and len(arg1) == 2 and all(
                isinstance(d, (int, np.integer)) for d in arg1):
            m, n = su.check_shape(arg1)
            dt = su.getdtype(dtype, default=np.float64)
            self._set_parts((_ca.zeros((0, 0), dtype=dt, device=device),
                             _ca.zeros(0, dtype=np.int32, device=device)), (m, n))
            return
        if isinstance(arg1, tuple) and len(arg1) == 2:
            if shape is None:
                raise ValueError("expected a shape argument")
            data, offsets = arg1
            dev = device if device is not None else su.device_of(data, offsets)
            data = _ca.atleast_2d(_ca.asarray(data, device=dev))
            data = data.astype(su.getdtype(dtype, data), copy=copy)
            offsets = _ca.atleast_1d(su.asindex(offsets, data.device))
            if offsets.ndim != 1:
                raise ValueError("offsets array must have rank 1")
            if data.ndim != 2:
                raise ValueError("data array must have rank 2")
            if data.shape[0] != offsets.size:
                raise ValueError(f"number of diagonals ({data.shape[0]}) does not "
                                 f"match the number of offsets ({offsets.size})")
            if _ca.unique(offsets).size != offsets.size:
                raise ValueError("offset array contains duplicate values")
            idx = su.get_index_dtype(maxval=max(shape))
            self._set_parts((data, offsets.astype(idx, copy=copy)),
                            su.check_shape(shape))
            return
        a = _dense_input(arg1, device, dtype)
        from ._coo import coo_array
        A = coo_to_dia(coo_array(a))
        self._set_parts(A._parts(), A.shape)

    def _set_parts(self, arrays, shape, **_):
        self.data, self.offsets = arrays
        self._shape = shape

    def _parts(self):
        return (self.data, self.offsets)

    def _sp_buffers(self):
        return (self.data, self.offsets)

    def _sp_args(self, views):
        return views

    @property
    def nnz(self):
        """Stored elements inside the matrix (SciPy's count, padding excluded)."""
        m, n = self.shape
        L = self.data.shape[1] if self.data.ndim == 2 else 0
        total = 0
        for k in self.offsets.tolist():
            total += max(0, min(m + k, n, L) - max(0, k))
        return total

    def _with_data(self, data, copy=True):
        off = self.offsets.copy() if copy else self.offsets
        return type(self)._from_parts((data, off), self.shape)

    @_scipy_first
    def tocoo(self, copy=False):
        m, n = self.shape
        dev = self.device
        nd, L = self.data.shape
        L = min(L, n)
        j = _ca.arange(L, dtype=np.int64, device=dev)
        row = j[None, :] - self.offsets.astype(np.int64)[:, None]
        col = _ca.broadcast_to(j[None, :], row.shape)
        data = self.data[:, :L]
        keep = (row >= 0) & (row < m)
        idx = su.get_index_dtype(maxval=max(m, n))
        return self._like("coo")._from_parts(
            (data[keep], row[keep].astype(idx), col[keep].astype(idx)), self.shape)

    @_scipy_first
    def tocsr(self, copy=False):
        return self.tocoo(copy=False).tocsr()

    @_scipy_first
    def todia(self, copy=False):
        return self.copy() if copy else self

    def transpose(self, axes=None, copy=False):
        return self.tocoo(copy=False).transpose().todia()

    def __getitem__(self, key):
        return self.tocsr()[key]


def coo_to_dia(coo):
    """The DIA form of a COO matrix (duplicates summed), SciPy's layout."""
    m, n = coo.shape
    coo = coo.copy()
    coo.sum_duplicates()
    ks = coo.col.astype(np.int64) - coo.row
    diags, inv = _ca.unique(ks, return_inverse=True)
    L = int(coo.col.max()) + 1 if coo.nnz else 0
    data = _ca.zeros((diags.size, L), dtype=coo.dtype, device=coo.device)
    data[inv.reshape(-1), coo.col] = coo.data
    idx = su.get_index_dtype(maxval=max(m, n))
    return coo._like("dia")._from_parts((data, diags.astype(idx)), coo.shape)


@_register
class dia_array(_dia_base, sparray):
    """dia_array(arg1, shape=None, dtype=None, copy=False, *, device=None)

    A sparse array with DIAgonal storage (SciPy's dia_array): from a dense
    array, a sparse array or matrix, (M, N), or (data, offsets) with a shape.
    """


@_register
class dia_matrix(spmatrix, _dia_base):
    """dia_matrix(arg1, shape=None, dtype=None, copy=False, *, device=None)

    A sparse matrix with DIAgonal storage (SciPy's dia_matrix).
    """


def isspmatrix_dia(x):
    """isspmatrix_dia(x): whether `x` is a dia_matrix (not a dia_array)."""
    return isinstance(x, dia_matrix)

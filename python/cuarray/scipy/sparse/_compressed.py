"""CSR and CSC: csr_array/csr_matrix, csc_array/csc_matrix.

A CSC matrix of shape (m, n) is the transpose of the CSR matrix of shape (n, m)
on the same three buffers, so CSC's operations are CSR's on that view (no copy)
with the axes swapped, and `A.T` of either is the other on the same buffers.
The compositions keep the buffers on the matrix's device; the cpu device hands
the public methods to SciPy (_base._scipy_first).
"""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import (_spbase, _register, _scipy_first, _wrap, sparray, sparse_input,
                    spmatrix)


def expand_ptr(indptr, nnz=None):
    """The major index of each stored entry (the row of each entry of a CSR)."""
    n = indptr.size - 1
    counts = _ca.diff(indptr)
    return _ca.repeat(_ca.arange(n, dtype=indptr.dtype, device=indptr.device), counts)


def ptr_from_counts(counts, dtype):
    """indptr from per-row counts: 0, then their running sum."""
    out = _ca.zeros(counts.size + 1, dtype=dtype, device=counts.device)
    if counts.size:
        out[1:] = _ca.cumsum(counts)
    return out


def coo_to_csr(shape, row, col, data, sum_duplicates=True, idx=None):
    """(indptr, indices, data) of the CSR matrix of COO entries, sorted by (row,
    col); duplicates summed unless sum_duplicates is False (then a stable sort).
    Index dtype `idx`, default the smallest the sizes allow."""
    m, n = shape
    dev = data.device
    nnz = int(data.size)
    if idx is None:
        idx = su.get_index_dtype(maxval=max(m, n, nnz))
    if nnz == 0:
        return (_ca.zeros(m + 1, dtype=idx, device=dev),
                _ca.zeros(0, dtype=idx, device=dev), data.copy())
    key = row.astype(np.int64) * n + col.astype(np.int64)
    order = _ca.argsort(key, kind="stable")
    key = key[order]
    data = data[order]
    if sum_duplicates:
        first = _ca.empty(nnz, dtype=np.bool_, device=dev)
        first[0] = True
        _ca.not_equal(key[1:], key[:-1], out=first[1:])
        seg = _ca.cumsum(first) - 1
        key = key[first]
        summed = _ca.zeros(key.size, dtype=data.dtype, device=dev)
        _ca.add.at(summed, seg, data)
        data = summed
    rows = key // n
    cols = (key - rows * n).astype(idx)
    counts = _ca.bincount(rows, minlength=m)
    return ptr_from_counts(counts, idx), cols, data


def dense_to_csr(a):
    """(indptr, indices, data) of a 2-D dense cuarray array's nonzeros."""
    m, n = a.shape
    row, col = _ca.nonzero(a)
    idx = su.get_index_dtype(maxval=max(m, n, row.size))
    data = a[row, col]
    counts = _ca.bincount(row, minlength=m)
    return ptr_from_counts(counts, idx), col.astype(idx), data


def _dense_input(arg, device, dtype, shape_2d=True):
    a = _ca.asarray(arg, device=device)
    if a.ndim == 1:
        a = a.reshape(1, -1)
    if a.ndim != 2:
        raise ValueError(f"expected a 2-D dense array, got {a.ndim}-D")
    dt = su.getdtype(dtype, a)
    return a.astype(dt, copy=False)


class _cs_base(_spbase):
    """What CSR and CSC share; CSC's methods run CSR's on its transpose view."""

    _sorted = False
    _canonical = False
    # A.H of a complex matrix: the source's values, conjugated on first use of
    # .data; products read them as they are with cuSPARSE's conjugate transpose.
    _conj_src = None

    @property
    def data(self):
        if self._conj_src is not None:
            self._data = self._conj_src.conj()
            self._conj_src = None
        return self._data

    @data.setter
    def data(self, value):
        self._conj_src = None
        self._data = value

    def _values(self):
        """(values, conjugated): the stored values without forcing a pending conj."""
        if self._conj_src is not None:
            return self._conj_src, True
        return self._data, False

    @property
    def dtype(self):
        return self._values()[0].dtype

    @property
    def device(self):
        return self._values()[0].device

    @property
    def nnz(self):
        return int(self._values()[0].size)

    @property
    def H(self):
        """The conjugate transpose: the other compressed format on the same index
        buffers; a complex matrix's values are conjugated only when read (its
        products use the conjugate-transpose operation on the stored values)."""
        if self.dtype.kind != "c" or self._conj_src is not None:
            return _spbase.H.fget(self)
        T = self.transpose()
        T._conj_src, T._data = T._data, None
        return T

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None,
                 device=None):
        parts, shp, flags = _parse_args(self, arg1, shape, dtype, copy, device)
        self._set_parts(parts, shp, **flags)

    def _set_parts(self, arrays, shape, sorted=False, canonical=False):
        self.data, self.indices, self.indptr = arrays
        self._shape = shape
        self._canonical = bool(canonical)
        self._sorted = bool(sorted or canonical)

    def _parts(self):
        return (self.data, self.indices, self.indptr)

    def _sp_buffers(self):
        return (self.data, self.indices, self.indptr)

    def _sp_args(self, views):
        return views

    def _sp_flags(self, r):
        if self._canonical:
            r.has_canonical_format = True
        elif self._sorted:
            r.has_sorted_indices = True

    def _with_data(self, data, copy=True):
        ind, ptr = self.indices, self.indptr
        if copy:
            ind, ptr = ind.copy(), ptr.copy()
        return type(self)._from_parts((data, ind, ptr), self.shape,
                                      sorted=self._sorted, canonical=self._canonical)

    # -- the CSR view of either ------------------------------------------------

    def _csr_view(self):
        """This matrix as CSR (CSR: itself; CSC: the CSR of its transpose)."""
        return self

    @property
    def _major(self):
        return self.shape[0] if self._format == "csr" else self.shape[1]

    # -- order flags ----------------------------------------------------------

    @property
    def has_sorted_indices(self):
        if not self._sorted:
            self._sorted = bool(_indices_sorted(self.indptr, self.indices,
                                                strict=False))
        return self._sorted

    @has_sorted_indices.setter
    def has_sorted_indices(self, val):
        self._sorted = bool(val)
        if not val:
            self._canonical = False

    @property
    def has_canonical_format(self):
        if not self._canonical:
            self._canonical = bool(_indices_sorted(self.indptr, self.indices,
                                                   strict=True))
            self._sorted = self._sorted or self._canonical
        return self._canonical

    @has_canonical_format.setter
    def has_canonical_format(self, val):
        self._canonical = bool(val)
        if val:
            self._sorted = True

    # -- in-place canonicalization -------------------------------------------

    def sum_duplicates(self):
        """Sum duplicate entries and sort the indices, in place."""
        if self._canonical:
            return
        major = expand_ptr(self.indptr)
        shp = (self._major, self.shape[1] if self._format == "csr" else self.shape[0])
        ptr, ind, data = coo_to_csr(shp, major, self.indices, self.data)
        self._set_parts((data, ind, ptr), self.shape, canonical=True)

    def sort_indices(self):
        """Sort the indices of each row (CSR) / column (CSC), in place."""
        if self._sorted:
            return
        major = expand_ptr(self.indptr)
        minor_n = self.shape[1] if self._format == "csr" else self.shape[0]
        key = major.astype(np.int64) * minor_n + self.indices
        order = _ca.argsort(key, kind="stable")
        self.data = self.data[order]
        self.indices = self.indices[order]
        self._sorted = True

    def sorted_indices(self):
        A = self.copy()
        A.sort_indices()
        return A

    def eliminate_zeros(self):
        """Remove explicitly stored zeros, in place."""
        keep = self.data != 0
        major = expand_ptr(self.indptr)[keep]
        counts = _ca.bincount(major, minlength=self._major)
        self.indptr = ptr_from_counts(counts, self.indptr.dtype)
        self.data = self.data[keep]
        self.indices = self.indices[keep]

    def prune(self):
        nnz = int(self.indptr[-1])
        self.data = self.data[:nnz]
        self.indices = self.indices[:nnz]

    def check_format(self, full_check=True):
        _check_compressed(self.data, self.indices, self.indptr, self._major,
                          self.shape[1] if self._format == "csr" else self.shape[0],
                          full_check)

    # -- conversions ----------------------------------------------------------

    def asformat(self, format, copy=False):
        return _spbase.asformat(self, format, copy)

    def copy(self):
        return self._with_data(self.data.copy(), copy=True)

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' "
                             "parameter because swapping dimensions is the only "
                             "logical permutation.")
        other = "csc" if self._format == "csr" else "csr"
        parts = self._parts()
        if copy:
            parts = tuple(a.copy() for a in parts)
        return self._like(other)._from_parts(parts, self.shape[::-1],
                                             sorted=self._sorted,
                                             canonical=self._canonical)

    @_scipy_first
    def tocoo(self, copy=False):
        major = expand_ptr(self.indptr)
        minor = self.indices.copy() if copy else self.indices
        data = self.data.copy() if copy else self.data
        row, col = (major, minor) if self._format == "csr" else (minor, major)
        row = row.astype(self.indices.dtype, copy=False)
        return self._like("coo")._from_parts((data, row, col), self.shape,
                                             canonical=self._canonical)

    @_scipy_first
    def toarray(self, order=None, out=None):
        t = self._format == "csc"
        m, n = self.shape[::-1] if t else self.shape
        major = expand_ptr(self.indptr).astype(np.int64)
        dense = _ca.zeros((m, n), dtype=self.dtype, device=self.device)
        flat = dense.reshape(-1)
        key = major * n + self.indices
        if self._canonical:
            flat[key] = self.data
        else:
            _ca.add.at(flat, key, self.data)
        if t:
            dense = dense.T
        if out is not None:
            out[...] = dense
            return out
        if order == "F":
            return _ca.asfortranarray(dense)
        return _ca.ascontiguousarray(dense)

    # -- diagonal ---------------------------------------------------------------

    @_scipy_first
    def diagonal(self, k=0):
        m, n = self.shape
        if k <= -m or k >= n:
            return _ca.zeros(0, dtype=self.dtype, device=self.device)
        length = min(m + min(k, 0), n - max(k, 0))
        coo = self.tocoo(copy=False)
        row, col = coo.row, coo.col
        hit = (col.astype(np.int64) - row) == k
        out = _ca.zeros(length, dtype=self.dtype, device=self.device)
        # the i-th element of diagonal k sits at (i, i + k), or (i - k, i) below
        pos = row[hit] if k >= 0 else col[hit]
        _ca.add.at(out, pos, coo.data[hit])
        return out

    def _setdiag(self, values, k):
        from ._coo import set_diagonal
        return set_diagonal(self, values, k)

    # -- conversions ------------------------------------------------------------

    @_scipy_first
    def tocsr(self, copy=False):
        if self._format == "csr":
            return self.copy() if copy else self
        return self.transpose().tocsc().transpose()

    @_scipy_first
    def tocsc(self, copy=False):
        """The same matrix in CSC, from CSR by a stable sort of the entries by column."""
        if self._format == "csc":
            return self.copy() if copy else self
        m, n = self.shape
        row = expand_ptr(self.indptr)
        col = self.indices
        ptr, ind, data = coo_to_csr((n, m), col, row, self.data,
                                    sum_duplicates=False)
        return self._like("csc")._from_parts(
            (data, ind.astype(self.indices.dtype), ptr.astype(self.indptr.dtype)),
            self.shape, canonical=self._canonical)

    # -- indexing ---------------------------------------------------------------

    def __getitem__(self, key):
        from ._index import getitem
        if su.is_host(self.device):
            return _wrap(self._sp()[_unwrap_key(key)])
        return getitem(self, key)

    def __setitem__(self, key, value):
        raise NotImplementedError("item assignment is not supported by "
                                  "cuarray.scipy.sparse; use setdiag or build a "
                                  "new matrix")


def _unwrap_key(key):
    if isinstance(key, tuple):
        return tuple(np.asarray(k) if isinstance(k, _ca.ndarray) else k for k in key)
    return np.asarray(key) if isinstance(key, _ca.ndarray) else key


def _indices_sorted(indptr, indices, strict):
    """Whether the indices rise within each row (strictly: no duplicates)."""
    if indices.size < 2:
        return True
    step = indices[1:] - indices[:-1].astype(np.int64)
    bad = (step <= 0) if strict else (step < 0)
    # a step across a row boundary does not count
    boundary = _ca.zeros(indices.size - 1, dtype=np.bool_, device=indices.device)
    inner = indptr[1:-1]
    inner = inner[(inner > 0) & (inner < indices.size)]
    boundary[inner - 1] = True
    return not bool(_ca.any(bad & ~boundary))


def _check_compressed(data, indices, indptr, major, minor, full):
    if indptr.ndim != 1 or indices.ndim != 1 or data.ndim != 1:
        raise ValueError("data, indices, and indptr should be 1-D")
    if indptr.size != major + 1:
        raise ValueError(f"index pointer size {indptr.size} should be {major + 1}")
    if indices.size != data.size:
        raise ValueError("indices and data should have the same size")
    if int(indptr[0]) != 0:
        raise ValueError("index pointer should start with 0")
    if int(indptr[-1]) > indices.size:
        raise ValueError("Last value of index pointer should be less than the size "
                         "of index and data arrays")
    if full and indices.size:
        if bool(_ca.any(_ca.diff(indptr) < 0)):
            raise ValueError("index pointer values must form a non-decreasing "
                             "sequence")
        if int(indices.max()) >= minor:
            raise ValueError(f"indices must be < {minor}")
        if int(indices.min()) < 0:
            raise ValueError("indices must be >= 0")


def _parse_args(self, arg1, shape, dtype, copy, device):
    """(parts, shape, flags) of a CSR/CSC from SciPy's constructor forms."""
    fmt = self._format
    if shape is not None:
        shape = su.check_shape(shape)
    A = sparse_input(arg1, device, lambda a, c: a.asformat(fmt, copy=c), copy, dtype)
    if A is not None:
        return A._parts(), A.shape, {"sorted": A._sorted, "canonical": A._canonical}
    foreign = _foreign_parts(arg1, fmt)
    if foreign is not None:
        # the foreign index dtype is kept (int64 from torch), so the buffers are shared
        return _from_triple(fmt, foreign[0], foreign[1], dtype, copy, device,
                            keep_index_dtype=True)
    if isinstance(arg1, tuple) and len(arg1) == 2 and all(
            isinstance(d, (int, np.integer)) for d in arg1):
        m, n = su.check_shape(arg1)
        major = m if fmt == "csr" else n
        idx = su.get_index_dtype(maxval=max(m, n))
        dt = su.getdtype(dtype, default=np.float64)
        dev = device
        parts = (_ca.zeros(0, dtype=dt, device=dev),
                 _ca.zeros(0, dtype=idx, device=dev),
                 _ca.zeros(major + 1, dtype=idx, device=dev))
        return parts, (m, n), {"canonical": True}
    if isinstance(arg1, tuple) and len(arg1) == 2:
        from ._coo import coo_parts
        data, row, col, shp = coo_parts(arg1, shape, dtype, device)
        if fmt == "csc":
            row, col = col, row
        idx = su.get_index_dtype((row, col), maxval=max(data.size, *shp))
        ptr, ind, data = coo_to_csr(shp if fmt == "csr" else shp[::-1], row, col, data,
                                    idx=idx)
        return (data, ind, ptr), shp, {"canonical": True}
    if isinstance(arg1, tuple) and len(arg1) == 3:
        return _from_triple(fmt, arg1, shape, dtype, copy, device)
    if isinstance(arg1, tuple):
        raise TypeError(f"unrecognized {fmt}_matrix constructor input: a tuple of "
                        f"length {len(arg1)}")
    a = _dense_input(arg1, device, dtype)
    if shape is not None and shape != a.shape:
        raise ValueError(f"inconsistent shapes: {shape} and {a.shape}")
    t = a.T if fmt == "csc" else a
    ptr, ind, data = dense_to_csr(t)
    return (data, ind, ptr), a.shape, {"canonical": True}


def _foreign_parts(x, fmt):
    """((data, indices, indptr), shape) of a torch sparse CSR/CSC tensor or a
    CuPy sparse matrix of format `fmt`, whose buffers cuarray.asarray then
    shares (through __cuda_array_interface__ / DLPack); None for other input."""
    mod = type(x).__module__ or ""
    if mod.startswith("cupyx.scipy.sparse") and getattr(x, "format", None) == fmt:
        return (x.data, x.indices, x.indptr), tuple(x.shape)
    layout = str(getattr(x, "layout", ""))
    if mod.startswith("torch") and layout == f"torch.sparse_{fmt}":
        if fmt == "csr":
            return ((x.values(), x.col_indices(), x.crow_indices()), tuple(x.shape))
        return ((x.values(), x.row_indices(), x.ccol_indices()), tuple(x.shape))
    return None


def _from_triple(fmt, arg1, shape, dtype, copy, device, keep_index_dtype=False):
    data, indices, indptr = arg1
    dev = device if device is not None else su.device_of(data, indices, indptr)
    data = _ca.asarray(data, device=dev)
    if copy:
        data = data.copy()
    dt = su.getdtype(dtype, data)
    data = data.astype(dt, copy=False)
    indices = su.asindex(indices, data.device)
    indptr = su.asindex(indptr, data.device)
    if shape is None:
        major = indptr.size - 1
        if major < 0:
            raise ValueError("index pointer should have at least one element")
        minor = int(indices.max()) + 1 if indices.size else 0
        shape = (major, minor) if fmt == "csr" else (minor, major)
    m, n = shape
    idx = su.get_index_dtype((indices, indptr), maxval=max(m, n, indices.size),
                             check_contents=True)
    if keep_index_dtype and indices.dtype == indptr.dtype:
        idx = indices.dtype
    indices = indices.astype(idx, copy=copy)
    indptr = indptr.astype(idx, copy=copy)
    major, minor = (m, n) if fmt == "csr" else (n, m)
    _check_compressed(data, indices, indptr, major, minor, full=False)
    nnz = int(indptr[-1])
    if nnz < indices.size:
        data, indices = data[:nnz], indices[:nnz]
    return (data, indices, indptr), (m, n), {}


# ---------------------------------------------------------------------------
# CSR
# ---------------------------------------------------------------------------

class _csr_base(_cs_base):
    _format = "csr"


class _csc_base(_cs_base):
    _format = "csc"


@_register
class csr_array(_csr_base, sparray):
    """csr_array(arg1, shape=None, dtype=None, copy=False, *, device=None)

    Compressed Sparse Row array (SciPy's csr_array): from a dense array, a
    sparse array or matrix (cuarray's or SciPy's), (M, N), (data, (row, col))
    or (data, indices, indptr). `device` places host input (default: the
    current device, or that of the cuarray arrays given).
    """


@_register
class csr_matrix(spmatrix, _csr_base):
    """csr_matrix(arg1, shape=None, dtype=None, copy=False, *, device=None)

    Compressed Sparse Row matrix (SciPy's csr_matrix): as csr_array, with the
    matrix forms' `*` (matrix product) and 2-D sums.
    """


@_register
class csc_array(_csc_base, sparray):
    """csc_array(arg1, shape=None, dtype=None, copy=False, *, device=None)

    Compressed Sparse Column array (SciPy's csc_array).
    """


@_register
class csc_matrix(spmatrix, _csc_base):
    """csc_matrix(arg1, shape=None, dtype=None, copy=False, *, device=None)

    Compressed Sparse Column matrix (SciPy's csc_matrix).
    """


def isspmatrix_csr(x):
    """isspmatrix_csr(x): whether `x` is a csr_matrix (not a csr_array)."""
    return isinstance(x, csr_matrix)


def isspmatrix_csc(x):
    """isspmatrix_csc(x): whether `x` is a csc_matrix (not a csc_array)."""
    return isinstance(x, csc_matrix)

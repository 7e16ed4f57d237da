"""Sparse products: A @ dense (SpMV, SpMM), A @ sparse (SpGEMM), dense @ A.

On a GPU they are cuSPARSE's generic API (csrc/ops/sparse.c,
csrc/runtime/launch_sparse.c): a CSR operand goes as it is, a CSC one as the CSR of its transpose with the
transpose operation, so `A.T @ x` never copies A. Elsewhere (the cpu device
with CPU_SCIPY off, dtypes cuSPARSE lacks) they are compositions: gathers, a
product and a scatter-add over the rows.
"""

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import _as_dense, issparse

# cuSPARSE's value types for SpMV / SpMM / SpGEMM
_CUSPARSE_TYPES = {np.dtype(t) for t in
                   (np.float32, np.float64, np.complex64, np.complex128)}


def _mismatch(N, other_shape):
    raise ValueError(f"matmul: dimension mismatch with signature (n,k={N}),"
                     f"(k={other_shape[0]},m)->(n,m)")


def matmul(A, other):
    """A @ other for a sparse A on the composition/cuSPARSE route."""
    M, N = A.shape
    if issparse(other):
        if other.shape[0] != N:
            _mismatch(N, other.shape)
        return spgemm(A, other)
    x = _as_dense(other, A.device)
    if x.ndim == 0:
        raise ValueError("Scalar operands are not allowed, use '*' instead")
    if x.ndim > 2:
        raise ValueError("could not interpret dimensions")
    if x.shape[0] != N:
        _mismatch(N, x.shape)
    dtype = su.upcast(A.dtype, x.dtype)
    return spmv(A, x, dtype)


def rmatmul(A, other):
    """other @ A: (A.T @ other.T).T, no transpose copy of A."""
    x = _as_dense(other, A.device)
    if x.ndim == 1:
        return matmul(A.transpose(), x)
    return matmul(A.transpose(), x.T).T


def _csr_operands(A):
    """(op, indptr, indices, data, rows_of_csr, cols_of_csr) with A = op(CSR):
    op 0 = A, 1 = A^T, 2 = A^H."""
    if A.format == "csc":
        # A (m, n) in CSC is the transpose of the CSR (n, m) on the same buffers
        vals, conj = A._values()
        return 2 if conj else 1, A.indptr, A.indices, vals, A.shape[1], A.shape[0]
    if A.format != "csr":
        A = A.tocsr()
    return 0, A.indptr, A.indices, A.data, A.shape[0], A.shape[1]


def spmv(A, x, dtype):
    """A @ x for a dense 1-D or 2-D x: cuSPARSE on a GPU, else a scatter-add."""
    op, ptr, ind, data, m, n = _csr_operands(A)
    out_rows = n if op else m
    shape = (out_rows,) + x.shape[1:]
    if data.dtype != dtype:
        data = data.astype(dtype)
    if x.dtype != dtype:
        x = x.astype(dtype)
    if data.size == 0 or x.size == 0:
        return _ca.zeros(shape, dtype=dtype, device=data.device)
    if str(A.device) != "cpu" and dtype in _CUSPARSE_TYPES:
        return _cusparse_mm(op, m, n, ptr, ind, data, x, shape)
    return _compose_mm(op, ptr, ind, data, x, shape)


def _cusparse_mm(op, m, n, ptr, ind, data, x, shape):
    from cuarray import _core
    if ptr.dtype != ind.dtype:
        ptr, ind = ptr.astype(np.int64), ind.astype(np.int64)
    x = _ca.ascontiguousarray(x)
    out = _ca.empty(shape, dtype=data.dtype, device=data.device)
    try:
        _core._sparse_spmm(op, m, n, ptr, ind, data, x, out)
    except _ca.cuda.CUDAError as e:
        # a cuSPARSE without the transposed SpMM on row-major blocks: the product
        # on the CSR of op(A) (one transpose copy) instead
        if op == 0 or x.ndim != 2 or "NOT_SUPPORTED" not in str(e):
            raise
        return _transposed_copy_mm(op, m, n, ptr, ind, data, x, shape)
    return out


def _transposed_copy_mm(op, m, n, ptr, ind, data, x, shape):
    from ._compressed import coo_to_csr, expand_ptr
    rows = expand_ptr(ptr)
    tptr, tind, tdata = coo_to_csr((n, m), ind, rows, data.conj() if op == 2 else data,
                                   sum_duplicates=False, idx=ptr.dtype)
    return _cusparse_mm(0, n, m, tptr, tind, tdata, x, shape)


def _compose_mm(op, ptr, ind, data, x, shape):
    from ._compressed import expand_ptr
    rows = expand_ptr(ptr)
    src, dst = (rows, ind) if op else (ind, rows)
    if op == 2:
        data = data.conj()
    out = _ca.zeros(shape, dtype=data.dtype, device=data.device)
    vals = x[src]
    vals *= data if x.ndim == 1 else data[:, None]
    _ca.add.at(out, dst, vals)
    return out


def spgemm(A, B):
    """A @ B of two sparse matrices, as CSR (canonical): cuSPARSE's SpGEMM on
    a GPU, else the expansion of every product a_ik * b_kj and a segment sum."""
    dtype = su.upcast(A.dtype, B.dtype)
    if str(B.device) != str(A.device):
        raise ValueError(f"operands on different devices: {A.device} and {B.device}")
    a = A.tocsr().astype(dtype, copy=False)
    b = B.tocsr().astype(dtype, copy=False)
    m, n = A.shape[0], B.shape[1]
    cls = A._like("csr")
    if str(A.device) != "cpu" and dtype in _CUSPARSE_TYPES and a.nnz and b.nnz:
        # SpGEMM's inputs with sorted column indices (cuSPARSE's documented case)
        a = a if a.has_sorted_indices else a.sorted_indices()
        b = b if b.has_sorted_indices else b.sorted_indices()
        parts = _cusparse_spgemm(a, b, m, n)
    else:
        parts = _compose_spgemm(a, b, m, n)
    C = cls._from_parts(parts, (m, n))
    if not C.has_canonical_format:
        C.sum_duplicates()
    return C


def _cusparse_spgemm(a, b, m, n):
    from cuarray import _core
    idx = su.get_index_dtype((a.indptr, b.indptr), maxval=max(m, n, a.nnz, b.nnz))
    arrays = [x.astype(idx, copy=False) for x in (a.indptr, a.indices,
                                                   b.indptr, b.indices)]
    ptr, ind, data = _core._sparse_spgemm(m, a.shape[1], n, arrays[0], arrays[1],
                                          a.data, arrays[2], arrays[3], b.data)
    return data, ind, ptr


def _compose_spgemm(a, b, m, n):
    from ._compressed import coo_to_csr, expand_ptr
    dev = a.device
    rows = expand_ptr(a.indptr)
    blen = _ca.diff(b.indptr)
    counts = blen[a.indices]
    total = int(counts.sum()) if counts.size else 0
    if total == 0:
        idx = su.get_index_dtype(maxval=max(m, n))
        return (_ca.zeros(0, dtype=a.dtype, device=dev),
                _ca.zeros(0, dtype=idx, device=dev),
                _ca.zeros(m + 1, dtype=idx, device=dev))
    src = _ca.repeat(_ca.arange(a.nnz, device=dev), counts)
    starts = _ca.cumsum(counts) - counts
    within = _ca.arange(total, device=dev) - starts[src]
    bpos = b.indptr[a.indices][src].astype(np.int64) + within
    vals = a.data[src] * b.data[bpos]
    ptr, ind, data = coo_to_csr((m, n), rows[src], b.indices[bpos], vals)
    return data, ind, ptr

"""Element-wise arithmetic of sparse matrices with scalars, dense arrays and
sparse matrices (the composition route; SciPy's results and errors)."""

import operator
import warnings

import numpy as np

import cuarray as _ca

from . import _sputils as su
from ._base import SparseEfficiencyWarning, _as_dense, issparse


def _coo_result(A, data, row, col, fmt):
    coo = A._like("coo")._from_parts((data, row, col), A.shape)
    return coo if fmt == "coo" else coo.asformat(fmt)


def _canonical_csr(A):
    c = A.tocsr()
    if not c.has_canonical_format:
        c = c.copy()
        c.sum_duplicates()
    return c


def _keys(c):
    """The sorted linear keys (row * n + col) of a canonical CSR's entries."""
    from ._compressed import expand_ptr
    return expand_ptr(c.indptr).astype(np.int64) * c.shape[1] + c.indices


def intersect(a, b):
    """(positions in a, positions in b) of the entries both canonical CSRs store."""
    ka, kb = _keys(a), _keys(b)
    if kb.size == 0 or ka.size == 0:
        z = _ca.zeros(0, dtype=np.int64, device=a.device)
        return z, z
    pos = _ca.searchsorted(kb, ka)
    pos_c = _ca.minimum(pos, kb.size - 1)
    hit = kb[pos_c] == ka
    return _ca.nonzero(hit)[0], pos_c[hit]


def multiply(A, other):
    """A.multiply(other): element-wise product (SciPy's result formats)."""
    if su.isscalarlike(other):
        return A._mul_scalar(other)
    if issparse(other):
        if other.shape != A.shape:
            raise ValueError(f"inconsistent shapes {A.shape} and {other.shape}")
        a, b = _canonical_csr(A), _canonical_csr(other)
        ia, ib = intersect(a, b)
        dtype = su.upcast(A.dtype, other.dtype)
        data = (a.data[ia] * b.data[ib]).astype(dtype, copy=False)
        from ._compressed import ptr_from_counts, expand_ptr
        rows = expand_ptr(a.indptr)[ia]
        ptr = ptr_from_counts(_ca.bincount(rows, minlength=A.shape[0]),
                              a.indptr.dtype)
        return a._like("csr")._from_parts((data, a.indices[ia], ptr), A.shape,
                                          canonical=True)
    x = _as_dense(other, A.device)
    if x.ndim > 2:
        return _ca.multiply(A.toarray(), x)
    if x.size == 1:
        return A._mul_scalar(x.reshape(-1)[0])
    coo = A.tocoo()
    x2 = x.reshape(1, -1) if x.ndim == 1 else x
    bshape = np.broadcast_shapes(A.shape, x2.shape)
    if bshape != A.shape:
        return _ca.multiply(A.toarray(), x)
    r = coo.row if x2.shape[0] != 1 else _ca.zeros_like(coo.row)
    c = coo.col if x2.shape[1] != 1 else _ca.zeros_like(coo.col)
    data = coo.data * x2[r, c]
    return _coo_result(A, data, coo.row, coo.col, "coo")


def max_min(A, other, op):
    """A.maximum(other) / A.minimum(other)."""
    if su.isscalarlike(other):
        if op(0, other):
            warnings.warn(f"Taking {op.__name__} with a nonzero number results in "
                          "a dense matrix.", SparseEfficiencyWarning, stacklevel=3)
            return A._like("csr")(op(A.toarray(), other))
        c = _canonical_csr(A)
        return c._with_data(op(c.data, other), copy=True)
    if issparse(other):
        if other.shape != A.shape:
            raise ValueError(f"inconsistent shapes self.shape={A.shape} "
                             f"other.shape={other.shape}")
        return _union_op(A, other, op)
    x = _as_dense(other, A.device)
    return op(A.toarray(), x)


def _union_op(A, B, op):
    """op on the union of two patterns (a missing entry is 0), as canonical CSR."""
    a, b = _canonical_csr(A), _canonical_csr(B)
    from ._compressed import coo_to_csr, expand_ptr
    dtype = su.upcast(A.dtype, B.dtype)
    ia, ib = intersect(a, b)
    # each entry of a paired with b's value there (0 where b has none), and back
    bv = _ca.zeros(a.nnz, dtype=dtype, device=a.device)
    bv[ia] = b.data[ib].astype(dtype)
    only_b = _ca.ones(b.nnz, dtype=np.bool_, device=b.device)
    only_b[ib] = False
    va = op(a.data.astype(dtype), bv)
    vb = op(_ca.zeros(1, dtype=dtype, device=b.device), b.data[only_b].astype(dtype))
    row = _ca.concatenate([expand_ptr(a.indptr), expand_ptr(b.indptr)[only_b]])
    col = _ca.concatenate([a.indices, b.indices[only_b]])
    ptr, ind, data = coo_to_csr(A.shape, row, col, _ca.concatenate([va, vb]))
    C = a._like("csr")._from_parts((data, ind, ptr), A.shape, canonical=True)
    C.eliminate_zeros()
    return C


def add(A, other, sign):
    """A + other (sign 1) or A - other (sign -1)."""
    word = "adding" if sign > 0 else "subtracting"
    if su.isscalarlike(other):
        if other == 0:
            return A.copy()
        what = "to" if sign > 0 else "from"
        raise NotImplementedError(f"{word} a nonzero scalar {what} a sparse array "
                                  "is not supported")
    if issparse(other):
        if other.shape != A.shape:
            raise ValueError("inconsistent shapes")
        from ._compressed import coo_to_csr
        a, b = A.tocoo(), other.tocoo()
        dtype = su.upcast(A.dtype, other.dtype)
        bd = b.data.astype(dtype)
        data = _ca.concatenate([a.data.astype(dtype), bd if sign > 0 else -bd])
        row = _ca.concatenate([a.row.astype(np.int64), b.row.astype(np.int64)])
        col = _ca.concatenate([a.col.astype(np.int64), b.col.astype(np.int64)])
        ptr, ind, data = coo_to_csr(A.shape, row, col, data)
        return A._like("csr")._from_parts((data, ind, ptr), A.shape, canonical=True)
    x = _as_dense(other, A.device)
    x = _ca.broadcast_to(x, A.shape)
    return A.toarray() + x if sign > 0 else A.toarray() - x


def rsub(A, other):
    """other - A."""
    if su.isscalarlike(other):
        if other == 0:
            return -A.copy()
        raise NotImplementedError("subtracting a sparse array from a nonzero scalar "
                                  "is not supported")
    x = _ca.broadcast_to(_as_dense(other, A.device), A.shape)
    return x - A.toarray()


def divide(A, other):
    """A / other."""
    if su.isscalarlike(other):
        if np.can_cast(A.dtype, np.float64):
            return A.astype(np.float64, copy=False)._mul_scalar(1 / other)
        r = A._mul_scalar(1 / other)
        sdt = np.asarray(other).dtype
        if A.dtype.kind in "iu" and sdt.kind in "iu":
            return r.astype(A.dtype, copy=False)
        return r
    if issparse(other):
        if other.shape != A.shape:
            raise ValueError("inconsistent shapes")
        a = A.astype(np.float64, copy=False) if np.can_cast(A.dtype, np.float64) else A
        return _ca.true_divide(a.toarray(), other.toarray())
    x = _as_dense(other, A.device)
    return multiply(A, _ca.true_divide(1, x))


def compare(A, other, op):
    """A op other for ==, !=, <, <=, >, >= (a sparse bool result, or dense)."""
    if su.isscalarlike(other):
        if op(0, other):
            warnings.warn("Comparing a sparse matrix with a scalar that makes zeros "
                          "True is inefficient.", SparseEfficiencyWarning,
                          stacklevel=3)
            return A._like("csr")(op(A.toarray(), other))
        c = _canonical_csr(A)
        C = c._with_data(op(c.data, other), copy=True)
        C.eliminate_zeros()
        return C
    if issparse(other):
        if other.shape != A.shape:
            raise ValueError("inconsistent shapes")
        if op(0, 0):
            warnings.warn("Comparing sparse matrices with an operator that makes "
                          "zeros True is inefficient.", SparseEfficiencyWarning,
                          stacklevel=3)
            return A._like("csr")(op(A.toarray(), other.toarray()))
        return _union_op(A, other, op).astype(np.bool_)
    x = _as_dense(other, A.device)
    if op in (operator.eq, operator.ne, operator.lt, operator.le, operator.gt,
              operator.ge):
        return op(A.toarray(), x)
    return NotImplemented

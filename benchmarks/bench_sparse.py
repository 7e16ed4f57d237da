"""Sparse matrices: cuarray.scipy.sparse beside cupyx.scipy.sparse and torch.sparse
on a GPU, beside scipy.sparse on the cpu device (the "numpy" column is SciPy's).

Device time per call (CUDA events, microseconds; issue 38's targets: the best of
CuPy and PyTorch on the GPU, >= SciPy on the cpu device): SpMV of a random CSR
matrix with 2^22 rows and 2^26 nonzeros (float32, float64), SpMM with 64 dense
columns, SpGEMM of a random matrix with itself, CSR -> dense, COO -> CSR with
duplicates. Sizes shrink in cpu mode so a 2-core host runs them in seconds. The
floor of SpMV is one read of the matrix (values + column indices + row pointers)
and of x.
"""

import numpy as np

from harness import Case, Skip, size, to_lib

ROWS = size(1 << 22, 1 << 16)
NNZ = size(1 << 26, 1 << 20)
SPMM_ROWS = size(1 << 18, 1 << 12)
SPMM_NNZ = size(1 << 22, 1 << 16)
GEMM_N = size(1 << 16, 1 << 12)
GEMM_NNZ = size(1 << 20, 1 << 15)
DENSE_N = size(1 << 13, 1 << 11)
COO_NNZ = size(1 << 24, 1 << 18)


def _host_coo(rows, cols, nnz, dtype, seed=0, duplicates=False):
    """Random (data, row, col) on the host; distinct entries unless duplicates."""
    rng = np.random.default_rng(seed)
    row = rng.integers(0, rows, nnz, dtype=np.int64)
    col = rng.integers(0, cols, nnz, dtype=np.int64)
    data = rng.standard_normal(nnz).astype(dtype)
    if not duplicates:
        # sort and drop repeats by hand: np.unique took 15 s for 2^24 keys here
        # (NumPy 2.4, 2 cores) where the sort takes 0.1 s
        key = np.sort(row * cols + col)
        key = key[np.concatenate(([True], key[1:] != key[:-1]))]
        row, col = key // cols, key % cols
        data = data[:key.size]
    return data, row, col


def _host_csr(rows, cols, nnz, dtype, seed=0):
    """A canonical CSR (sorted, distinct entries) built from its arrays: the rows
    come sorted out of _host_coo, so no COO conversion is needed."""
    import scipy.sparse as sp
    data, row, col = _host_coo(rows, cols, nnz, dtype, seed)
    indptr = np.zeros(rows + 1, np.int64)
    np.cumsum(np.bincount(row, minlength=rows), out=indptr[1:])
    return sp.csr_array((data, col.astype(np.int32), indptr.astype(np.int32)),
                        shape=(rows, cols))


def _matrix(mod, h):
    """The host CSR `h` as `mod`'s sparse matrix on its device."""
    name = mod.__name__
    if name == "numpy":
        return h
    if name == "cuarray":
        from cuarray.scipy import sparse
        return sparse.csr_matrix(h)
    if name == "cupy":
        import cupyx.scipy.sparse as cps
        return cps.csr_matrix(h)
    if name == "torch":
        return mod.sparse_csr_tensor(mod.as_tensor(h.indptr.astype(np.int64)),
                                     mod.as_tensor(h.indices.astype(np.int64)),
                                     mod.as_tensor(h.data), size=h.shape,
                                     device="cuda")
    raise Skip(name)


def _cache(fn):
    memo = {}

    def get(*args):
        if args not in memo:
            memo[args] = fn(*args)
        return memo[args]
    return get


_csr = _cache(_host_csr)


def _spmv_case(dtype, mode="gpu"):
    name = np.dtype(dtype).name
    nbytes = NNZ * (np.dtype(dtype).itemsize + 4) + (ROWS + 1) * 4 + \
        2 * ROWS * np.dtype(dtype).itemsize

    def setup(mod):
        h = _csr(ROWS, ROWS, NNZ, dtype)
        A = _matrix(mod, h)
        x = to_lib(mod, np.ones(ROWS, dtype))
        if mod.__name__ == "torch":
            return lambda: mod.mv(A, x)
        return lambda: A @ x
    libs = {lib: setup for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(f"SpMV {ROWS} rows {NNZ} nnz {name}", libs, mode=mode, unit="GB/s",
                work=nbytes, floor="one read of A and x", repeats=5)


def _csr_case(name, shape_nnz, seed, cuarray_call, torch_call, operand=None):
    """A case on one host CSR (rows, cols, nnz) as each library's matrix: the
    call(A, X) of cuarray/SciPy/CuPy, torch_call(torch, A, X) of PyTorch."""
    def setup(mod):
        A = _matrix(mod, _csr(*shape_nnz, np.float32, seed))
        X = None if operand is None else to_lib(mod, operand())
        if mod.__name__ == "torch":
            return lambda: torch_call(mod, A, X)
        return lambda: cuarray_call(A, X)
    libs = {lib: setup for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(name, libs, mode="gpu", unit="us", repeats=5)


def _spmm_case():
    return _csr_case(f"SpMM {SPMM_ROWS} rows {SPMM_NNZ} nnz x 64 columns float32",
                     (SPMM_ROWS, SPMM_ROWS, SPMM_NNZ), 0, lambda A, X: A @ X,
                     lambda t, A, X: t.mm(A, X),
                     lambda: np.ones((SPMM_ROWS, 64), np.float32))


def _spgemm_case():
    return _csr_case(f"SpGEMM A @ A, {GEMM_N}^2 with {GEMM_NNZ} nnz float32",
                     (GEMM_N, GEMM_N, GEMM_NNZ), 1, lambda A, X: A @ A,
                     lambda t, A, X: t.sparse.mm(A, A))


def _todense_case():
    return _csr_case(f"CSR -> dense {DENSE_N}^2 float32",
                     (DENSE_N, DENSE_N, DENSE_N * 16), 2, lambda A, X: A.toarray(),
                     lambda t, A, X: A.to_dense())


def _coo_csr_case():
    def setup(mod):
        data, row, col = _host_coo(ROWS, ROWS, COO_NNZ, np.float32, 3, duplicates=True)
        name = mod.__name__
        if name == "numpy":
            import scipy.sparse as sp
            A = sp.coo_array((data, (row.astype(np.int32), col.astype(np.int32))),
                             shape=(ROWS, ROWS))
            return lambda: A.copy().tocsr()
        if name == "torch":
            idx = mod.as_tensor(np.stack([row, col]), device="cuda")
            vals = mod.as_tensor(data, device="cuda")
            t = mod.sparse_coo_tensor(idx, vals, (ROWS, ROWS))
            return lambda: t.coalesce().to_sparse_csr()
        if name == "cupy":
            import cupyx.scipy.sparse as cps
            A = cps.coo_matrix((mod.asarray(data), (mod.asarray(row.astype(np.int32)),
                                                    mod.asarray(col.astype(np.int32)))),
                               shape=(ROWS, ROWS))
            return lambda: A.tocsr()
        from cuarray.scipy import sparse
        A = sparse.coo_matrix((mod.asarray(data), (mod.asarray(row.astype(np.int32)),
                                                   mod.asarray(col.astype(np.int32)))),
                              shape=(ROWS, ROWS))
        return lambda: A.tocsr()
    libs = {lib: setup for lib in ("cuarray", "numpy", "cupy", "torch")}
    return Case(f"COO -> CSR {COO_NNZ} entries with duplicates float32", libs,
                mode="gpu", unit="us", repeats=5)


CASES = [
    _spmv_case(np.float32),
    _spmv_case(np.float64),
    _spmm_case(),
    _spgemm_case(),
    _todense_case(),
    _coo_csr_case(),
]

"""cuarray.scipy.sparse against scipy.sparse: formats, conversions, products,
arithmetic, reductions, indexing, construction functions, errors.

Every test runs on three routes: the cpu device handing work to SciPy (the
default), the cpu device running the compositions the GPU runs (CPU_SCIPY
off), and a GPU (cuSPARSE products; skipped without one).
"""

import io

import numpy as np
import pytest

import cuarray as ca
from cuarray.scipy import sparse as cs
from cuarray.scipy.sparse import _sputils

from conftest import requires_gpu

sp = pytest.importorskip("scipy.sparse")

ROUTES = ["cpu-scipy", "cpu-compose", pytest.param("cuda:0", marks=requires_gpu)]
FLOATS = [np.float32, np.float64, np.complex64, np.complex128]
DTYPES = FLOATS + [np.bool_, np.int8, np.int32, np.int64, np.uint16]
FORMATS = ["csr", "csc", "coo", "dia"]


@pytest.fixture(params=ROUTES)
def dev(request, monkeypatch):
    """The device a test's matrices live on, CPU_SCIPY set for its route."""
    monkeypatch.setattr(_sputils, "CPU_SCIPY", request.param == "cpu-scipy")
    return "cpu" if request.param.startswith("cpu") else request.param


def rand_dense(shape, dtype, density=0.4, seed=0, empty_rows=True):
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        a = rng.random(shape) < density
    elif dtype.kind in "iu":
        a = rng.integers(1, 9, size=shape).astype(dtype)
    else:
        a = rng.standard_normal(shape).astype(dtype)
        if dtype.kind == "c":
            a = a + 1j * rng.standard_normal(shape).astype(dtype)
    a = np.where(rng.random(shape) < density, a, 0).astype(dtype)
    if empty_rows and shape[0] > 2:
        a[1] = 0
    return a


def cls(fmt, kind):
    return getattr(cs, f"{fmt}_{kind}")


def spcls(fmt, kind):
    return getattr(sp, f"{fmt}_{kind}")


def host(x):
    """A NumPy / SciPy copy of a cuarray result."""
    if cs.issparse(x):
        return x.get()
    if isinstance(x, ca.ndarray):
        return x.get()
    return x


def same(x, ref, rtol=1e-5, atol=1e-6):
    x = host(x)
    if sp.issparse(ref):
        assert sp.issparse(x), type(x)
        assert x.shape == ref.shape
        ref = ref.toarray()
        x = x.toarray()
    ref = np.asarray(ref)
    x = np.asarray(x)
    assert x.shape == ref.shape, (x.shape, ref.shape)
    if ref.dtype.kind in "fc":
        np.testing.assert_allclose(x, ref, rtol=rtol, atol=atol)
    else:
        np.testing.assert_array_equal(x, ref)


def dup_coo(dtype, shape=(6, 5), seed=3):
    """COO entries with duplicates, unsorted, and an empty row (row 2)."""
    rng = np.random.default_rng(seed)
    n = 20
    row = rng.integers(0, shape[0], n)
    row[row == 2] = 0
    col = rng.integers(0, shape[1], n)
    row[:3], col[:3] = 4, 1  # a triple duplicate
    data = rand_dense((n, 1), dtype, density=1.0, seed=seed, empty_rows=False)[:, 0]
    return data, row, col, shape


# ---------------------------------------------------------------------------
# construction and conversion
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", DTYPES)
def test_from_dense_round_trip(dev, fmt, kind, dtype):
    a = rand_dense((7, 5), dtype)
    A = cls(fmt, kind)(ca.asarray(a, device=dev))
    ref = spcls(fmt, kind)(a)
    assert A.shape == ref.shape and A.dtype == ref.dtype and A.ndim == 2
    assert A.format == fmt and A.nnz == ref.nnz
    assert isinstance(A, cs.sparray if kind == "array" else cs.spmatrix)
    same(A.toarray(), a)
    g = A.get()
    assert type(g) is type(ref)
    same(g.toarray(), a)
    for to in FORMATS:
        B = A.asformat(to)
        assert B.format == to
        same(B.toarray(), a)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
def test_from_triple_and_coo_tuple(dev, fmt, dtype):
    data, row, col, shape = dup_coo(dtype)
    ref_coo = sp.coo_array((data, (row, col)), shape=shape)
    A = cls(fmt, "array")((ca.asarray(data, device=dev),
                           (ca.asarray(row, device=dev), ca.asarray(col, device=dev))),
                          shape=shape)
    ref = spcls(fmt, "array")((data, (row, col)), shape=shape)
    same(A.toarray(), ref.toarray())
    assert A.nnz == ref.nnz and A.has_canonical_format
    B = cls(fmt, "matrix")((ca.asarray(ref.data, device=dev),
                            ca.asarray(ref.indices, device=dev),
                            ca.asarray(ref.indptr, device=dev)), shape=shape)
    same(B.toarray(), ref_coo.toarray())
    assert B.indices.dtype == spcls(fmt, "matrix")((ref.data, ref.indices, ref.indptr),
                                                   shape=shape).indices.dtype
    assert A.indices.dtype == ref.indices.dtype


@pytest.mark.parametrize("fmt", FORMATS)
def test_from_scipy_and_shape_only(dev, fmt):
    ref = sp.random(9, 6, density=0.3, format=fmt, random_state=2)
    A = cls(fmt, "matrix")(ref, device=dev)
    assert A.format == fmt
    same(A.toarray(), ref.toarray())
    Z = cls(fmt, "array")((4, 3), dtype=np.float32, device=dev)
    assert Z.shape == (4, 3) and Z.nnz == 0 and Z.dtype == np.float32
    same(Z.toarray(), np.zeros((4, 3), np.float32))


def test_coo_to_csr_sums_duplicates(dev):
    for dtype in DTYPES:
        data, row, col, shape = dup_coo(dtype)
        coords = (ca.asarray(row, device=dev), ca.asarray(col, device=dev))
        A = cs.coo_matrix((ca.asarray(data, device=dev), coords), shape=shape)
        ref = sp.coo_matrix((data, (row, col)), shape=shape)
        assert A.nnz == ref.nnz
        C, Cr = A.tocsr(), ref.tocsr()
        assert C.nnz == Cr.nnz, dtype
        same(C.indptr, Cr.indptr)
        same(C.indices, Cr.indices)
        same(C.data, Cr.data)
        same(A.toarray(), ref.toarray())
        A.sum_duplicates()
        ref.sum_duplicates()
        same(A.row, ref.row)
        same(A.col, ref.col)
        same(A.data, ref.data)


def test_unsorted_indices_sort_and_eliminate(dev):
    data = np.array([1.0, 0.0, 2.0, 3.0, 4.0])
    indices = np.array([3, 1, 0, 2, 2])
    indptr = np.array([0, 3, 3, 5])
    ref = sp.csr_array((data, indices, indptr), shape=(3, 4))
    A = cs.csr_array((ca.asarray(data, device=dev), ca.asarray(indices, device=dev),
                      ca.asarray(indptr, device=dev)), shape=(3, 4))
    assert A.has_sorted_indices == ref.has_sorted_indices
    assert A.has_canonical_format == ref.has_canonical_format
    same(A.toarray(), ref.toarray())
    B = A.sorted_indices()
    same(B.indices, ref.sorted_indices().indices)
    A.sum_duplicates()
    ref.sum_duplicates()
    same(A.indices, ref.indices)
    same(A.indptr, ref.indptr)
    A.eliminate_zeros()
    ref.eliminate_zeros()
    assert A.nnz == ref.nnz
    same(A.indptr, ref.indptr)
    same(A.data, ref.data)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_transpose_conj(dev, fmt):
    a = rand_dense((6, 4), np.complex128)
    A = cls(fmt, "array")(ca.asarray(a, device=dev))
    same(A.T.toarray(), a.T)
    same(A.H.toarray(), a.conj().T)
    same(A.conj().toarray(), a.conj())
    same(A.transpose().transpose().toarray(), a)
    same(A.real.toarray(), a.real)
    same(A.imag.toarray(), a.imag)
    if fmt in ("csr", "csc"):
        # the transpose of a CSR is a CSC on the same buffers (no copy)
        assert A.T.format == ("csc" if fmt == "csr" else "csr")
        assert A.T.indptr is A.indptr or dev == "cpu"


def test_get_and_zero_copy_on_cpu(monkeypatch):
    a = rand_dense((5, 5), np.float64)
    A = cs.csr_array(ca.asarray(a, device="cpu"))
    view = A._sp()
    assert np.shares_memory(view.data, np.asarray(A.data))
    assert np.shares_memory(view.indices, np.asarray(A.indices))
    g = A.get()
    assert isinstance(g, sp.csr_array)
    assert not np.shares_memory(g.data, np.asarray(A.data))


def test_scipy_missing_names_scipy(monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "scipy", None)
    monkeypatch.setitem(sys.modules, "scipy.sparse", None)
    with pytest.raises(ImportError, match="SciPy"):
        _sputils.scipy_sparse()


# ---------------------------------------------------------------------------
# products
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("dtype", FLOATS + [np.int32])
def test_matvec_matmat(dev, fmt, dtype):
    a = rand_dense((9, 7), dtype, seed=5)
    x = rand_dense((7,), dtype, density=1.0, seed=6, empty_rows=False)
    X = rand_dense((7, 4), dtype, density=1.0, seed=7, empty_rows=False)
    y = rand_dense((9,), dtype, density=1.0, seed=8, empty_rows=False)
    A = cls(fmt, "array")(ca.asarray(a, device=dev))
    tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10
    same(A @ ca.asarray(x, device=dev), a @ x, rtol=tol, atol=tol)
    same(A.dot(ca.asarray(X, device=dev)), a @ X, rtol=tol, atol=tol)
    same(A.T @ ca.asarray(y, device=dev), a.T @ y, rtol=tol, atol=tol)
    H = A.H
    same(H @ ca.asarray(y, device=dev), a.conj().T @ y, rtol=tol, atol=tol)
    if fmt == "csr" and np.dtype(dtype).kind == "c":
        # the product read the values as stored (conjugate-transpose operation;
        # a CSC's H is a conjugated CSR, which no operation reads as it is)
        assert H._conj_src is not None or _sputils.CPU_SCIPY
    same(H.toarray(), a.conj().T)
    same(ca.asarray(y, device=dev) @ A, y @ a, rtol=tol, atol=tol)
    same(ca.asarray(X.T, device=dev) @ A.T, X.T @ a.T, rtol=tol, atol=tol)
    same(A @ ca.asarray(x.reshape(-1, 1), device=dev), a @ x.reshape(-1, 1),
         rtol=tol, atol=tol)


def test_matmul_mixed_dtypes(dev):
    a = rand_dense((5, 4), np.float32)
    x = np.arange(4, dtype=np.complex128) + 1j
    A = cs.csr_matrix(ca.asarray(a, device=dev))
    r = A @ ca.asarray(x, device=dev)
    assert r.dtype == np.complex128
    same(r, a @ x)
    assert (A @ ca.asarray(np.ones(4, np.int64), device=dev)).dtype == np.float64


@pytest.mark.parametrize("dtype", FLOATS + [np.int64])
def test_spgemm(dev, dtype):
    a = rand_dense((8, 6), dtype, seed=1)
    b = rand_dense((6, 7), dtype, seed=2)
    for fa, fb in (("csr", "csr"), ("csc", "csr"), ("coo", "csc")):
        A = cls(fa, "array")(ca.asarray(a, device=dev))
        B = cls(fb, "array")(ca.asarray(b, device=dev))
        C = A @ B
        ref = sp.csr_array(a) @ sp.csr_array(b)
        assert cs.issparse(C)
        tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10
        same(C.toarray(), ref.toarray(), rtol=tol, atol=tol)
    Z = cs.csr_array((8, 6), dtype=dtype, device=dev) @ cs.csr_array(
        ca.asarray(b, device=dev))
    assert Z.nnz == 0 and Z.shape == (8, 7)


def test_matrix_star_is_matmul_array_star_is_multiply(dev):
    a = rand_dense((4, 4), np.float64)
    M = cs.csr_matrix(ca.asarray(a, device=dev))
    A = cs.csr_array(ca.asarray(a, device=dev))
    same((M * M).toarray(), a @ a)
    same((A * A).toarray(), a * a)
    same((M ** 3).toarray(), np.linalg.matrix_power(a, 3))
    same((A ** 2).toarray(), a ** 2)
    same((M * 2).toarray(), a * 2)
    same((2 * A).toarray(), 2 * a)


def test_product_errors(dev):
    A = cs.csr_array(ca.asarray(rand_dense((4, 3), np.float64), device=dev))
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ ca.ones(4, device=dev)
    with pytest.raises(ValueError, match="dimension mismatch"):
        A @ cs.csr_array((4, 4), device=dev)
    with pytest.raises(ValueError, match="Scalar operands"):
        A @ 2


# ---------------------------------------------------------------------------
# element-wise
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128, np.int32])
def test_elementwise(dev, dtype):
    a = rand_dense((6, 5), dtype, seed=1)
    b = rand_dense((6, 5), dtype, seed=2)
    ra, rb = sp.csr_array(a), sp.csr_array(b)
    A = cs.csr_array(ca.asarray(a, device=dev))
    B = cs.coo_array(ca.asarray(b, device=dev))
    same(A.multiply(B), ra.multiply(rb))
    same(A.multiply(ca.asarray(b, device=dev)), ra.multiply(b))
    same(A.multiply(ca.asarray(b[:1], device=dev)), ra.multiply(b[:1]))
    same(A.multiply(3), ra.multiply(3))
    same(A + B, ra + rb)
    same(A - B, ra - rb)
    same(A + ca.asarray(b, device=dev), ra + b)
    same(ca.asarray(b, device=dev) - A, b - ra)
    same(A / 2, ra / 2)
    same(-A, -ra)
    same(A.power(2), ra.power(2))
    if np.dtype(dtype).kind != "c":
        same(A.maximum(B), ra.maximum(rb))
        same(A.minimum(B), ra.minimum(rb))
        same(A.maximum(0), ra.maximum(0))
        same(A > 0, ra > 0)
        same(A != B, ra != rb)
    same(abs(A), abs(ra))


def test_elementwise_errors(dev):
    A = cs.csr_array(ca.asarray(rand_dense((3, 3), np.float64), device=dev))
    with pytest.raises(NotImplementedError):
        A + 1
    with pytest.raises(NotImplementedError):
        A - 1
    with pytest.raises(ValueError, match="inconsistent shapes"):
        A + cs.csr_array((3, 4), device=dev)
    with pytest.raises(NotImplementedError):
        A.power(0)
    same(A + 0, A.get())


# ---------------------------------------------------------------------------
# reductions, diagonal
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.int8,
                                   np.bool_, np.uint16])
def test_sum_mean(dev, kind, dtype):
    data, row, col, shape = dup_coo(dtype)
    ref = spcls("coo", kind)((data, (row, col)), shape=shape)
    A = cls("coo", kind)((ca.asarray(data, device=dev), (ca.asarray(row, device=dev),
                                                          ca.asarray(col, device=dev))),
                         shape=shape)
    for axis in (None, 0, 1, -1):
        # (SciPy's tocsr sums a COO's duplicates in place: a fresh one each time)
        ref = spcls("coo", kind)((data, (row, col)), shape=shape)
        r, e = A.sum(axis=axis), ref.sum(axis=axis)
        assert np.asarray(host(r)).dtype == np.asarray(e).dtype, (axis, dtype)
        same(r, np.asarray(e))
        r, e = A.tocsr().mean(axis=axis), ref.tocsr().mean(axis=axis)
        same(r, np.asarray(e))


@pytest.mark.parametrize("dtype", [np.float64, np.int32])
def test_max_min_count(dev, dtype):
    a = rand_dense((6, 5), dtype, seed=4)
    a[0, 0] = -3
    a[:, 4] = 5  # a full column
    ref = sp.csr_matrix(a)
    A = cs.csr_matrix(ca.asarray(a, device=dev))
    for axis in (None, 0, 1):
        for op in ("max", "min"):
            r, e = getattr(A, op)(axis=axis), getattr(ref, op)(axis=axis)
            same(r if axis is None else r.toarray(),
                 e if axis is None else e.toarray())
        assert int(host(A.count_nonzero())) == ref.count_nonzero()
    Aa = cs.csr_array(ca.asarray(a, device=dev))
    same(Aa.max(axis=0), sp.csr_array(a).max(axis=0).toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_diagonal_setdiag_trace(dev, fmt):
    a = rand_dense((6, 5), np.float64, seed=9)
    for k in (-5, -2, 0, 1, 4, 5):
        A = cls(fmt, "array")(ca.asarray(a, device=dev))
        same(A.diagonal(k), np.diagonal(a, k))
    A = cls(fmt, "matrix")(ca.asarray(a, device=dev))
    ref = spcls(fmt, "matrix")(a)
    assert np.isclose(float(host(A.trace())), ref.trace())
    for vals, k in ((7.0, 0), (np.arange(3.0) + 1, 1), (np.arange(9.0), -2)):
        A = cls(fmt, "matrix")(ca.asarray(a, device=dev))
        ref = spcls(fmt, "matrix")(a)
        A.setdiag(ca.asarray(vals, device=dev) if np.ndim(vals) else vals, k)
        ref.setdiag(vals, k)
        same(A.toarray(), ref.toarray())


@pytest.mark.parametrize("fmt", FORMATS)
def test_resize(dev, fmt):
    a = rand_dense((6, 5), np.float64, seed=13)
    for shape in ((4, 3), (8, 7), (6, 2)):
        A = cls(fmt, "matrix")(ca.asarray(a, device=dev))
        ref = spcls(fmt, "matrix")(a)
        A.resize(shape)
        ref.resize(shape)
        assert A.shape == shape and A.format == fmt
        same(A.toarray(), ref.toarray())


def test_reshape(dev):
    a = rand_dense((6, 4), np.float64)
    A = cs.coo_array(ca.asarray(a, device=dev))
    ref = sp.coo_array(a)
    same(A.reshape((3, 8)).toarray(), ref.reshape((3, 8)).toarray())
    same(A.reshape(8, -1).toarray(), a.reshape(8, -1))
    with pytest.raises(ValueError):
        A.reshape((5, 5))


# ---------------------------------------------------------------------------
# indexing
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_indexing(dev, fmt):
    a = rand_dense((7, 6), np.float64, seed=11)
    M = cls(fmt, "matrix")(ca.asarray(a, device=dev))
    ref = spcls(fmt, "matrix")(a)
    assert np.isclose(float(host(M[2, 3])), a[2, 3])
    assert np.isclose(float(host(M[-1, -2])), a[-1, -2])
    same(M[1:5], ref[1:5])
    same(M[1:5, 2:4], ref[1:5, 2:4])
    same(M[[0, 0, 3]], ref[[0, 0, 3]])
    same(M[:, [5, 1]], ref[:, [5, 1]])
    same(M[2], ref[2])
    same(M[::2, ::-1], ref[::2, ::-1])
    mask = np.array([True, False, True, False, False, True, True])
    same(M[ca.asarray(mask, device=dev)], ref[mask])
    A = cls(fmt, "array")(ca.asarray(a, device=dev))
    same(A[3], a[3])  # SciPy's 1-D sparse result comes back dense
    with pytest.raises(IndexError):
        M[7, 0]
    with pytest.raises(IndexError):
        M[0, -7]


# ---------------------------------------------------------------------------
# construction functions
# ---------------------------------------------------------------------------

def test_eye_identity_diags(dev):
    for m, n, k in ((4, 4, 0), (4, 6, 2), (5, 3, -1)):
        same(cs.eye(m, n, k=k, device=dev), sp.eye(m, n, k=k))
        same(cs.eye_array(m, n, k=k, dtype=np.float32, format="csr", device=dev),
             sp.eye_array(m, n, k=k, dtype=np.float32, format="csr"))
    E = cs.identity(3, format="csr", device=dev)
    assert isinstance(E, cs.csr_matrix)
    same(E, sp.identity(3))
    assert cs.eye(3, device=dev).format == "dia"
    d = [np.arange(1.0, 5), np.arange(1.0, 4) * 2, [9.0]]
    same(cs.diags(d, [0, 1, -1], shape=(4, 4), device=dev),
         sp.diags(d, [0, 1, -1], shape=(4, 4)))
    A = cs.diags_array([1.0, 2.0, 3.0], offsets=1, format="csr", device=dev)
    same(A, sp.diags_array([1.0, 2.0, 3.0], offsets=1, format="csr"))
    data = np.arange(12.0).reshape(3, 4)
    same(cs.spdiags(data, [0, -1, 2], 4, 4, device=dev),
         sp.spdiags(data, [0, -1, 2], 4, 4))
    with pytest.raises(ValueError, match="Different number"):
        cs.diags([[1.0, 2.0]], [0, 1], device=dev)


def test_random_rand(dev):
    for fmt in ("coo", "csr", "csc"):
        A = cs.random(30, 20, density=0.1, format=fmt, rng=5, device=dev)
        ref = sp.random(30, 20, density=0.1, format=fmt, rng=5)
        assert A.format == fmt and isinstance(A, cs.spmatrix)
        same(A, ref)
    B = cs.random_array((10, 40), density=0.25, dtype=np.complex64, rng=1, device=dev)
    assert isinstance(B, cs.sparray) and B.dtype == np.complex64 and B.nnz == 100
    same(B, sp.random_array((10, 40), density=0.25, dtype=np.complex64, rng=1))
    C = cs.rand(8, 8, density=0.5, rng=2, device=dev)
    same(C, sp.rand(8, 8, density=0.5, rng=2))
    with pytest.raises(ValueError, match="density"):
        cs.random(3, 3, density=1.5)


def test_kron_kronsum_stacks(dev):
    a = rand_dense((3, 2), np.float64, seed=1)
    b = rand_dense((2, 4), np.float64, seed=2)
    s = rand_dense((3, 3), np.float64, seed=3)
    t = rand_dense((2, 2), np.float64, seed=4)
    A, B = (cs.csr_matrix(ca.asarray(x, device=dev)) for x in (a, b))
    S, T = (cs.csr_array(ca.asarray(x, device=dev)) for x in (s, t))
    same(cs.kron(A, B), sp.kron(sp.csr_matrix(a), sp.csr_matrix(b)))
    same(cs.kronsum(S, T), sp.kronsum(sp.csr_array(s), sp.csr_array(t)))
    assert isinstance(cs.kron(S, T), cs.sparray)
    assert isinstance(cs.kron(A, B), cs.spmatrix)
    C = cs.csr_matrix(ca.asarray(rand_dense((3, 4), np.float64, seed=5), device=dev))
    same(cs.hstack([A, C.tocsc()[:, :2]]), sp.hstack([sp.csr_matrix(a),
                                                      C.get().tocsc()[:, :2]]))
    same(cs.vstack([C, B], format="csr"), sp.vstack([C.get(), sp.csr_matrix(b)]))
    blocks = [[A, None], [None, B]]
    same(cs.bmat(blocks), sp.bmat([[sp.csr_matrix(a), None], [None, sp.csr_matrix(b)]]))
    assert isinstance(cs.block_array(blocks), cs.sparray)
    same(cs.block_diag([A, B, S]),
         sp.block_diag([sp.csr_matrix(a), sp.csr_matrix(b), sp.csr_array(s)]))
    with pytest.raises(ValueError, match="incompatible row dimensions"):
        cs.hstack([A, B])
    with pytest.raises(ValueError, match="is not square"):
        cs.kronsum(A, T)


def test_tril_triu_find_axes(dev):
    a = rand_dense((5, 6), np.float64, seed=7)
    A = cs.csr_array(ca.asarray(a, device=dev))
    ref = sp.csr_array(a)
    for k in (-2, 0, 1):
        same(cs.tril(A, k), sp.tril(ref, k))
        same(cs.triu(A, k, format="csc"), sp.triu(ref, k, format="csc"))
    r, c, v = cs.find(A)
    er, ec, ev = sp.find(ref)
    order = np.lexsort((host(c), host(r)))
    eorder = np.lexsort((ec, er))
    same(host(r)[order], er[eorder])
    same(host(v)[order], ev[eorder])
    same(cs.permute_dims(A), sp.permute_dims(ref))
    same(cs.swapaxes(A, 0, 1), sp.swapaxes(ref, 0, 1))


def test_predicates_and_index_dtype(dev):
    a = rand_dense((3, 3), np.float64)
    M = cs.csr_matrix(ca.asarray(a, device=dev))
    A = cs.csr_array(ca.asarray(a, device=dev))
    assert cs.issparse(M) and cs.issparse(A) and not cs.issparse(ca.asarray(a))
    assert cs.isspmatrix(M) and not cs.isspmatrix(A)
    assert cs.isspmatrix_csr(M) and not cs.isspmatrix_csr(A)
    assert cs.isspmatrix_csc(M.tocsc()) and cs.isspmatrix_coo(M.tocoo())
    assert cs.isspmatrix_dia(M.todia()) and not cs.isspmatrix_csc(M)
    assert cs.get_index_dtype(maxval=10) == sp.get_index_dtype(maxval=10)
    assert cs.get_index_dtype(maxval=2 ** 40) == np.int64
    big = ca.asarray(np.array([1, 2], np.int64), device=dev)
    assert cs.get_index_dtype((big,)) == np.int64
    assert cs.get_index_dtype((big,), check_contents=True) == np.int32
    ind, ptr = cs.safely_cast_index_arrays(M, np.int64)
    assert ind.dtype == np.int64 and ptr.dtype == np.int64
    assert issubclass(cs.SparseEfficiencyWarning, cs.SparseWarning)


def test_save_load_npz(dev, tmp_path):
    for fmt in FORMATS:
        for kind in ("array", "matrix"):
            A = cls(fmt, kind)(ca.asarray(rand_dense((5, 4), np.float32), device=dev))
            f = tmp_path / f"{fmt}{kind}.npz"
            cs.save_npz(f, A)
            ref = sp.load_npz(f)
            assert ref.format == fmt
            assert isinstance(ref, sp.sparray) == (kind == "array")
            same(A.toarray(), ref.toarray())
            buf = io.BytesIO()
            sp.save_npz(buf, ref)
            buf.seek(0)
            B = cs.load_npz(buf, device=dev)
            assert type(B) is type(A)
            same(B.toarray(), ref.toarray())


# ---------------------------------------------------------------------------
# errors
# ---------------------------------------------------------------------------

def test_bad_input(dev):
    with pytest.raises(ValueError, match="does not support dtype float16"):
        cs.csr_array(ca.asarray(np.eye(2, dtype=np.float16), device=dev))
    with pytest.raises(ValueError, match="index pointer size"):
        cs.csr_array((ca.asarray([1.0], device=dev), ca.asarray([0], device=dev),
                      ca.asarray([0, 1], device=dev)), shape=(3, 3))
    with pytest.raises(ValueError, match="same size"):
        cs.csr_array((ca.asarray([1.0, 2.0], device=dev), ca.asarray([0], device=dev),
                      ca.asarray([0, 1], device=dev)), shape=(1, 3))
    with pytest.raises(ValueError, match="exceeds matrix dimension"):
        cs.coo_array((ca.asarray([1.0], device=dev), (ca.asarray([5], device=dev),
                                                       ca.asarray([0], device=dev))),
                     shape=(3, 3))
    with pytest.raises(ValueError, match="negative"):
        cs.csr_array((-1, 3))
    with pytest.raises(TypeError):
        len(cs.csr_array((2, 2), device=dev))
    with pytest.raises(ValueError, match="Format"):
        cs.csr_array((2, 2), device=dev).asformat("xyz")
    with pytest.raises(ValueError, match="axis"):
        cs.csr_array((2, 2), device=dev).sum(axis=2)


def test_numpy_array_on_gpu_refused():
    if not ca.cuda.is_available():
        pytest.skip("needs a GPU")
    A = cs.csr_array(ca.asarray(np.eye(3), device="cuda:0"))
    with pytest.raises(TypeError, match="NumPy array"):
        A @ np.ones(3)


def test_small_methods(dev):
    a = rand_dense((5, 4), np.float32, seed=12)
    M = cs.csr_matrix(ca.asarray(a, device=dev))
    ref = sp.csr_matrix(a)
    B = M.astype(np.complex128)
    assert B.dtype == np.complex128
    same(B.toarray(), a.astype(np.complex128))
    C = M.copy()
    C.data[...] = 0
    same(M.toarray(), a)  # the copy owns its buffers
    r, c = M.nonzero()
    er, ec = ref.nonzero()
    same(r, er)
    same(c, ec)
    for axis in (0, 1):
        same(M.count_nonzero(axis=axis), ref.count_nonzero(axis=axis))
    same(M.getrow(2), ref.getrow(2))
    same(M.getcol(1), ref.getcol(1))
    assert M.asfptype().dtype == ref.asfptype().dtype
    rows = [host(row.toarray()) for row in M]
    same(np.vstack(rows), a)
    assert cs.coo_array((2 ** 31, 5), device=dev).row.dtype == np.int64
    assert cs.coo_array((2 ** 31 - 1, 5), device=dev).row.dtype == np.int32
    assert "sparse matrix of shape (5, 4)" in repr(M)


# SciPy 1.17's and CuPy 14.2's shared scipy.sparse names (issue 38): SciPy's public
# names less the formats, submodules and helpers that CuPy does not have either
NOT_SHARED = {"base", "bsr", "bsr_array", "bsr_matrix", "compressed", "construct", "coo",
              "csc", "csgraph", "csr", "data", "dia", "dok", "dok_array", "dok_matrix",
              "expand_dims", "extract", "isspmatrix_bsr", "isspmatrix_dok",
              "isspmatrix_lil", "lil", "lil_array", "lil_matrix", "linalg",
              "sparsetools", "sputils", "save_npz", "load_npz"}
NAMES = sorted(set(sp.__all__) - NOT_SHARED)


@pytest.mark.parametrize("name", NAMES + ["save_npz", "load_npz"])
def test_names_and_signatures(name):
    import inspect
    ours, theirs = getattr(cs, name), getattr(sp, name)
    assert name in cs.__all__
    if inspect.isclass(theirs):
        assert inspect.isclass(ours)
        return
    mine = inspect.signature(ours).parameters
    for p in inspect.signature(theirs).parameters.values():
        assert p.name in mine, (name, p.name)
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            assert list(mine).index(p.name) == list(
                inspect.signature(theirs).parameters).index(p.name), (name, p.name)

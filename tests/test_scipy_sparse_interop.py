"""cuarray.scipy.sparse on a GPU: cuSPARSE takes the products, buffers shared
with torch.sparse and cupyx.scipy.sparse both ways; the C entry points' checks.

The GPU tests skip without a GPU (and without torch / CuPy for theirs).
"""

import numpy as np
import pytest

import cuarray as ca
from cuarray import _core
from cuarray.scipy import sparse as cs
from cuarray.scipy.sparse import _products

from conftest import requires_gpu

sp = pytest.importorskip("scipy.sparse")


def _host_csr(m=50, n=40, dtype=np.float64, seed=0):
    return sp.random(m, n, density=0.2, format="csr", rng=seed, dtype=dtype)


def _ptr(a):
    """The device address of a cuarray array's first element."""
    return a.__cuda_array_interface__["data"][0]


def test_entry_points_check_arguments():
    c = ca.asarray(np.zeros(3), device="cpu")
    i = ca.asarray(np.zeros(3, np.int32), device="cpu")
    with pytest.raises(ValueError, match="cpu device"):
        _core._sparse_spmm(0, 2, 2, i, i, c, c, c)
    with pytest.raises(TypeError, match="cuarray array"):
        _core._sparse_spmm(0, 2, 2, np.zeros(3), i, c, c, c)
    with pytest.raises(ValueError, match="bad op"):
        _core._sparse_spmm(3, 2, 2, i, i, c, c, c)
    with pytest.raises(ValueError, match="negative"):
        _core._sparse_spgemm(-1, 2, 2, i, i, c, i, i, c)


@requires_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("index", [np.int32, np.int64])
def test_cusparse_takes_the_products(monkeypatch, dtype, index):
    calls = []
    real = _products._cusparse_mm

    def counting(*args):
        calls.append(1)
        return real(*args)
    monkeypatch.setattr(_products, "_cusparse_mm", counting)
    h = _host_csr(dtype=dtype)
    h.indices, h.indptr = h.indices.astype(index), h.indptr.astype(index)
    A = cs.csr_matrix(h, device="cuda:0")
    x = np.arange(40, dtype=dtype) + 1
    X = np.ones((40, 3), dtype)
    tol = 1e-4 if dtype in (np.float32, np.complex64) else 1e-10
    np.testing.assert_allclose((A @ ca.asarray(x)).get(), h @ x, rtol=tol, atol=tol)
    np.testing.assert_allclose((A @ ca.asarray(X)).get(), h @ X, rtol=tol, atol=tol)
    y = np.ones(50, dtype)
    np.testing.assert_allclose((A.T @ ca.asarray(y)).get(), h.T @ y, rtol=tol, atol=tol)
    np.testing.assert_allclose((A.H @ ca.asarray(y)).get(), h.conj().T @ y, rtol=tol,
                               atol=tol)
    assert len(calls) == 4
    B = cs.csr_matrix(_host_csr(40, 30, dtype, seed=1), device="cuda:0")
    C = A @ B
    ref = h @ _host_csr(40, 30, dtype, seed=1)
    np.testing.assert_allclose(C.toarray().get(), ref.toarray(), rtol=tol, atol=tol)


@requires_gpu
def test_gpu_results_match_the_cpu_compositions():
    h = _host_csr(300, 200, np.float32, seed=4)
    A = cs.csr_array(h, device="cuda:0")
    x = np.random.default_rng(0).standard_normal((200, 64)).astype(np.float32)
    np.testing.assert_allclose((A @ ca.asarray(x)).get(), h @ x, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose((A @ A.T).toarray().get(), (h @ h.T).toarray(),
                               rtol=1e-4, atol=1e-4)


@requires_gpu
def test_torch_sparse_csr_in_and_out():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch without CUDA")
    h = _host_csr()
    t = torch.sparse_csr_tensor(torch.as_tensor(h.indptr, dtype=torch.int64),
                                torch.as_tensor(h.indices, dtype=torch.int64),
                                torch.as_tensor(h.data), size=h.shape, device="cuda")
    A = cs.csr_matrix(t)
    assert _ptr(A.data) == t.values().data_ptr()
    assert _ptr(A.indices) == t.col_indices().data_ptr()
    assert _ptr(A.indptr) == t.crow_indices().data_ptr()
    np.testing.assert_allclose(A.toarray().get(), h.toarray())
    back = torch.sparse_csr_tensor(torch.as_tensor(A.indptr, device="cuda"),
                                   torch.as_tensor(A.indices, device="cuda"),
                                   torch.as_tensor(A.data, device="cuda"), size=A.shape)
    assert back.values().data_ptr() == _ptr(A.data)
    np.testing.assert_allclose(back.to_dense().cpu().numpy(), h.toarray())


@requires_gpu
def test_cupy_sparse_in_and_out():
    cupy = pytest.importorskip("cupy")
    cps = pytest.importorskip("cupyx.scipy.sparse")
    h = _host_csr()
    c = cps.csr_matrix(h)
    A = cs.csr_matrix(c)
    assert _ptr(A.data) == c.data.data.ptr
    assert _ptr(A.indptr) == c.indptr.data.ptr
    np.testing.assert_allclose(A.toarray().get(), h.toarray())
    back = cps.csr_matrix((cupy.asarray(A.data), cupy.asarray(A.indices),
                           cupy.asarray(A.indptr)), shape=A.shape, copy=False)
    assert back.data.data.ptr == _ptr(A.data)
    np.testing.assert_allclose(back.toarray().get(), h.toarray())


def test_cusparse_statuses_become_exceptions():
    assert issubclass(ca.cuda.CUSPARSEError, ca.cuda.CUDAError)
    assert "CUSPARSEError" in ca.cuda.__all__
    with pytest.raises(ca.cuda.CUSPARSEError,
                       match="CUSPARSE_STATUS_NOT_SUPPORTED.*cusparseSpMM"):
        _core._raise_cuda_error(10, "cusparseSpMM", "cusparse")
    with pytest.raises(ca.OutOfMemoryError, match="CUSPARSE_STATUS_ALLOC_FAILED"):
        _core._raise_cuda_error(2, "cusparseSpGEMM_compute", "cusparse")
    assert _core._cusparse_path() is None or "cusparse" in _core._cusparse_path()

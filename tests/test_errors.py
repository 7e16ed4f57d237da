"""Errors: CUDA, cuBLAS, cuRAND and kernel statuses become clear Python exceptions."""

import pytest

import cuarray
from cuarray import _core, cuda


def test_hierarchy():
    assert issubclass(cuda.CUDAError, RuntimeError)
    assert issubclass(cuarray.OutOfMemoryError, MemoryError)
    assert not issubclass(cuarray.OutOfMemoryError, cuda.CUDAError)
    assert issubclass(cuda.CUBLASError, cuda.CUDAError)
    assert issubclass(cuda.CURANDError, cuda.CUDAError)
    assert _core.CUDAError is cuda.CUDAError
    assert _core.OutOfMemoryError is cuarray.OutOfMemoryError


def test_cuda_error_attributes():
    with pytest.raises(cuda.CUDAError) as ei:
        _core._raise_cuda_error(1, "cudaMemsetAsync(p, 0, n, s)")
    e = ei.value
    assert e.status == 1
    assert e.name == "cudaErrorInvalidValue"
    assert e.call == "cudaMemsetAsync(p, 0, n, s)"
    assert isinstance(e.text, str) and e.text
    msg = str(e)
    assert "cudaErrorInvalidValue" in msg and "(1)" in msg and "cudaMemsetAsync" in msg


def test_user_made_error_has_attributes():
    e = cuda.CUDAError("made by hand")
    assert e.status is None and e.name is None and e.call is None


def test_out_of_memory():
    with pytest.raises(MemoryError) as ei:
        _core._raise_cuda_error(2, "cudaMalloc(&p, n)")
    assert isinstance(ei.value, cuarray.OutOfMemoryError)
    assert ei.value.status == 2
    assert "cudaMalloc" in str(ei.value)


@pytest.mark.parametrize("status", [35, 100])
def test_no_gpu_errors_say_use_cpu(status):
    with pytest.raises(cuda.CUDAError) as ei:
        _core._raise_cuda_error(status, "cudaSetDevice(0)")
    assert "cpu" in str(ei.value)
    assert ei.value.status == status


def test_kernel_status_codes():
    with pytest.raises(TypeError, match="no loop for add.int8, float16."):
        _core._raise_cuda_error(100001, "add(int8, float16)")
    with pytest.raises(cuda.CUDAError, match="cpu"):
        _core._raise_cuda_error(100002, "copy")
    with pytest.raises(IndexError, match="take"):
        _core._raise_cuda_error(100003, "take")
    with pytest.raises(MemoryError, match="scratch"):
        _core._raise_cuda_error(100004, "sort")


CUBLAS = {1: "NOT_INITIALIZED", 3: "ALLOC_FAILED", 7: "INVALID_VALUE", 8: "ARCH_MISMATCH",
          11: "MAPPING_ERROR", 13: "EXECUTION_FAILED", 14: "INTERNAL_ERROR",
          15: "NOT_SUPPORTED", 16: "LICENSE_ERROR"}
CURAND = {100: "VERSION_MISMATCH", 101: "NOT_INITIALIZED", 102: "ALLOCATION_FAILED",
          103: "TYPE_ERROR", 104: "OUT_OF_RANGE", 105: "LENGTH_NOT_MULTIPLE",
          106: "DOUBLE_PRECISION_REQUIRED", 201: "LAUNCH_FAILURE",
          202: "PREEXISTING_FAILURE", 203: "INITIALIZATION_FAILED", 204: "ARCH_MISMATCH",
          999: "INTERNAL_ERROR"}


@pytest.mark.parametrize("status,name", sorted(CUBLAS.items()))
def test_cublas_names(status, name):
    with pytest.raises(cuda.CUBLASError) as ei:
        _core._raise_cuda_error(status, "cublasSgemm", "cublas")
    assert ei.value.name == "CUBLAS_STATUS_" + name
    assert ei.value.status == status and ei.value.call == "cublasSgemm"
    assert "CUBLAS_STATUS_" + name in str(ei.value)


@pytest.mark.parametrize("status,name", sorted(CURAND.items()))
def test_curand_names(status, name):
    with pytest.raises(cuda.CURANDError) as ei:
        _core._raise_cuda_error(status, "curandGenerateUniform", "curand")
    assert ei.value.name == "CURAND_STATUS_" + name
    assert ei.value.status == status


def test_unknown_library_status():
    with pytest.raises(cuda.CUBLASError) as ei:
        _core._raise_cuda_error(12345, "cublasX", "cublas")
    assert ei.value.status == 12345


def test_unraisable_is_reported_not_raised():
    import sys
    seen = []
    old = sys.unraisablehook
    sys.unraisablehook = lambda u: seen.append(u)
    try:
        assert _core._raise_cuda_error(1, "cudaEventDestroy(e)", "unraisable") is None
        # cudaErrorCudartUnloading at exit is ignored
        assert _core._raise_cuda_error(4, "cudaFree(p)", "unraisable") is None
        assert _core._raise_cuda_error(0, "cudaFree(p)", "unraisable") is None
    finally:
        sys.unraisablehook = old
    assert len(seen) == 1
    assert isinstance(seen[0].exc_value, cuda.CUDAError)
    assert seen[0].exc_value.call == "cudaEventDestroy(e)"


def test_unraisable_keeps_pending_exception():
    import sys
    old = sys.unraisablehook
    sys.unraisablehook = lambda u: None
    try:
        try:
            raise KeyError("pending")
        except KeyError:
            _core._raise_cuda_error(1, "x", "unraisable")
            assert sys.exc_info()[0] is KeyError
    finally:
        sys.unraisablehook = old

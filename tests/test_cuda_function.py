"""cuarray.cuda.Module / Function (CuPy's cupy.cuda.function): images compiled
elsewhere, loaded and launched directly."""
import numpy as np
import pytest

import cuarray as ca
from cuarray import cuda
from cuarray.cuda import compiler
from conftest import have_nvrtc, requires_gpu

SRC = r'''
__device__ float scale = 3.0f;
__device__ int table[4] = {1, 2, 3, 4};
extern "C" __global__ void axpy(const float *x, float *y, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += scale * x[i];
}
'''


def test_names():
    assert cuda.Module is cuda.function.Module
    assert cuda.Function is cuda.function.Function


def test_nothing_loaded():
    m = cuda.Module()
    with pytest.raises(RuntimeError, match="nothing is loaded"):
        m.get_function("axpy")
    with pytest.raises(RuntimeError, match="nothing is loaded"):
        m.get_global_var("scale")


def test_bad_image_type():
    with pytest.raises(TypeError, match="image must be bytes"):
        cuda.Module().load(12)


def test_load_without_a_gpu_is_a_clear_error():
    if ca.cuda.runtime.getDeviceCount() > 0:
        pytest.skip("a GPU is present")
    with pytest.raises(ca.cuda.CUDAError):
        cuda.Module().load(b"\x7fELF....")


def _image(kind, tmp_path):
    if not have_nvrtc():
        pytest.skip("NVRTC is not installed here")
    cc = cuda.Device().compute_capability
    b = compiler.compile_with_cache(SRC, arch=("sm_" if kind == "cubin" else "compute_") + cc)
    path = tmp_path / f"k.{kind}"
    path.write_bytes(b.image)
    return path


@requires_gpu
@pytest.mark.parametrize("kind", ["cubin", "ptx"])
def test_load_file_launch_and_globals(kind, tmp_path):
    m = cuda.Module()
    m.load_file(str(_image(kind, tmp_path)))
    f = m.get_function("axpy")
    assert f.name == "axpy" and f.ptr != 0
    x = ca.arange(1000, dtype=np.float32)
    y = ca.ones(1000, dtype=np.float32)
    f((4,), (256,), (x, y, np.int64(1000)))
    np.testing.assert_array_equal(ca.asnumpy(y), 1 + 3 * np.arange(1000, dtype=np.float32))
    p = m.get_global_var("table")
    assert p.mem.size == 16
    host = np.empty(4, dtype=np.int32)
    p.copy_to_host(host.ctypes.data, 16)
    np.testing.assert_array_equal(host, [1, 2, 3, 4])
    s = m.get_global_var("scale")
    s.copy_from_host(np.array([0.5], np.float32).ctypes.data, 4)
    y2 = ca.zeros(1000, dtype=np.float32)
    f(4, 256, (x, y2, np.int64(1000)))
    np.testing.assert_array_equal(ca.asnumpy(y2), 0.5 * np.arange(1000, dtype=np.float32))
    with pytest.raises(ca.cuda.CUDAError):
        m.get_function("missing")
    with pytest.raises(ca.cuda.CUDAError):
        m.get_global_var("missing")

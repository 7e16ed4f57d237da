"""cupy.cuda's pure-Python names: get_cuda_path, get_nvcc_path, get_rocm_path,
get_hipcc_path, get_local_runtime_version, profile.

CuPy's documented behaviour: get_cuda_path() is $CUDA_PATH when it exists, else the
directory above nvcc's bin on PATH, else /usr/local/cuda, else None; get_nvcc_path()
is $NVCC as given, else nvcc under get_cuda_path(); both are cached. cuarray has no
ROCm build, so the ROCm pair answers None (as CuPy's CUDA builds do without ROCm).
"""

import os
import stat

import pytest

import cuarray
from cuarray import cuda
from cuarray.cuda import _environment as env


@pytest.fixture
def fresh(monkeypatch):
    """Empty caches, restored environment (monkeypatch), empty caches after."""
    def clear():
        for f in (env.get_cuda_path, env.get_nvcc_path, env.get_local_runtime_version):
            f.cache_clear()
    clear()
    yield monkeypatch
    clear()


def _fake_toolkit(root):
    """root/bin/nvcc, an executable file (never run)."""
    b = root / "bin"
    b.mkdir(parents=True)
    nvcc = b / "nvcc"
    nvcc.write_text("#!/bin/sh\n")
    nvcc.chmod(nvcc.stat().st_mode | stat.S_IXUSR)
    return str(nvcc)


def test_names_on_cuda_namespace():
    for n in ("get_cuda_path", "get_nvcc_path", "get_rocm_path", "get_hipcc_path",
              "get_local_runtime_version", "profile"):
        assert n in cuda.__all__ and callable(getattr(cuda, n)), n
    assert cuda.get_cuda_path is env.get_cuda_path
    assert cuda.profile is cuda.profiler.profile


def test_cuda_path_from_environment(fresh, tmp_path):
    fresh.setenv("CUDA_PATH", str(tmp_path))
    assert cuda.get_cuda_path() == str(tmp_path)
    fresh.setenv("CUDA_PATH", str(tmp_path / "missing"))
    assert cuda.get_cuda_path() == str(tmp_path)  # cached, as CuPy's
    cuda.get_cuda_path.cache_clear()
    assert cuda.get_cuda_path() != str(tmp_path / "missing")  # a missing one is skipped


def test_cuda_path_from_nvcc_on_path(fresh, tmp_path):
    _fake_toolkit(tmp_path / "tk")
    fresh.delenv("CUDA_PATH", raising=False)
    fresh.setenv("PATH", str(tmp_path / "tk" / "bin"))
    assert cuda.get_cuda_path() == str(tmp_path / "tk")
    fresh.delenv("NVCC", raising=False)
    assert cuda.get_nvcc_path() == str(tmp_path / "tk" / "bin" / "nvcc")


def test_cuda_path_default_or_none(fresh, tmp_path):
    fresh.delenv("CUDA_PATH", raising=False)
    fresh.setenv("PATH", str(tmp_path))  # no nvcc here
    want = "/usr/local/cuda" if os.path.exists("/usr/local/cuda") else None
    assert cuda.get_cuda_path() == want


def test_nvcc_path(fresh, tmp_path):
    fresh.setenv("NVCC", "ccache nvcc -v")  # as given, like CuPy
    assert cuda.get_nvcc_path() == "ccache nvcc -v"
    cuda.get_nvcc_path.cache_clear()
    fresh.delenv("NVCC")
    nvcc = _fake_toolkit(tmp_path / "tk")
    fresh.setenv("CUDA_PATH", str(tmp_path / "tk"))
    assert cuda.get_nvcc_path() == nvcc
    cuda.get_nvcc_path.cache_clear()
    cuda.get_cuda_path.cache_clear()
    fresh.setenv("CUDA_PATH", str(tmp_path))  # a toolkit without nvcc
    assert cuda.get_nvcc_path() is None


def test_rocm_names_are_none(fresh, tmp_path):
    fresh.setenv("ROCM_HOME", str(tmp_path))
    assert cuda.get_rocm_path() is None and cuda.get_hipcc_path() is None


def test_local_runtime_version(fresh):
    v = cuda.get_local_runtime_version()
    assert isinstance(v, int)
    info = cuarray._core.build_info()
    if info["cuda"]:
        # a CUDA version as CUDA writes it (major * 1000 + minor * 10); the installed
        # runtime may differ from the one linked into the build
        assert v >= 1000 and v % 10 == 0


def test_local_runtime_version_without_shared_library(fresh, tmp_path):
    # no libcudart.so to be found: the one linked into cuarray is the one in use
    fresh.setattr(env, "_shared_cudart", lambda: None)
    assert cuda.get_local_runtime_version() == cuarray._core.build_info()["cudart_version"]


# ---- every name of cupy.cuda (issue 40) -------------------------------------------
# CuPy's cupy/cuda/__init__.py: its 61 public attributes less the `annotations`,
# `contextlib` and `warnings` imports (the submodules its imports bind: common,
# function, graph, ... included).
CUPY_CUDA_NAMES = [
    "BaseMemory", "CFunctionAllocator", "Device", "Event", "ExternalStream", "Function",
    "Graph", "ManagedMemory", "Memory", "MemoryAsync", "MemoryAsyncPool", "MemoryHook",
    "MemoryPointer", "MemoryPool", "Module", "PinnedMemory", "PinnedMemoryPointer",
    "PinnedMemoryPool", "PythonFunctionAllocator", "Stream", "UnownedMemory", "alloc",
    "alloc_pinned_memory", "common", "compiler", "cub", "device", "driver", "function",
    "get_allocator", "get_cublas_handle", "get_cuda_path", "get_current_stream",
    "get_device_id", "get_elapsed_time", "get_hipcc_path", "get_local_runtime_version",
    "get_nvcc_path", "get_rocm_path", "graph", "is_available", "malloc_async",
    "malloc_managed", "memory", "memory_hook", "memory_hooks", "nvrtc", "nvtx",
    "pinned_memory", "profile", "profiler", "runtime", "set_allocator",
    "set_pinned_memory_allocator", "stream", "texture", "thrust", "using_allocator",
]


def test_every_cupy_cuda_name_exists():
    assert len(CUPY_CUDA_NAMES) == len(set(CUPY_CUDA_NAMES)) == 58
    missing = [n for n in CUPY_CUDA_NAMES if not hasattr(cuda, n)]
    assert not missing
    assert set(CUPY_CUDA_NAMES) <= set(dir(cuda))
    assert set(CUPY_CUDA_NAMES) <= set(cuda.__all__)


def test_memory_async_is_cupys_name():
    assert cuda.MemoryAsync is cuda.memory.MemoryAsync is cuda.AsyncMemory
    assert issubclass(cuda.MemoryAsync, cuda.BaseMemory)


# ---- driver ------------------------------------------------------------------------
def test_driver_build_version():
    v = cuda.driver.get_build_version()
    info = cuarray._core.build_info()
    assert v == (info["cudart_version"] or 0)
    if info["cuda"]:
        assert v >= 11000 and v % 10 == 0
    assert cuda.driver.is_hip is False
    assert cuda.driver.CU_FUNC_ATTRIBUTE_NUM_REGS == 4


def test_driver_error_type():
    e = cuda.driver.CUDADriverError(100, "CUDA_ERROR_NO_DEVICE: none")
    assert isinstance(e, RuntimeError) and e.status == 100
    import pickle
    e2 = pickle.loads(pickle.dumps(e))
    assert e2.status == 100 and str(e2) == str(e)


def test_driver_without_gpu(monkeypatch):
    if cuda.is_available():
        pytest.skip("a GPU is present: the driver loads")
    monkeypatch.setattr(cuda.driver, "_cuda", None)
    with pytest.raises(cuda.driver.CUDADriverError) as e:
        cuda.driver.ctxGetCurrent()
    assert e.value.status != 0


@pytest.mark.skipif(not cuarray.cuda.is_available(), reason="no CUDA GPU on this machine")
def test_driver_context_and_module():
    cuarray.zeros(1, device="cuda:0")  # cuarray's runtime made the primary context
    with cuarray.Device(0):
        assert cuda.driver.ctxGetCurrent() != 0
        assert cuda.driver.ctxGetDevice() == 0
        b = cuda.compiler.compile_with_cache(
            'extern "C" __global__ void k(float *x) { x[threadIdx.x] = 1.0f; }')
        mod = cuda.driver.moduleLoadData(b.image)
        f = cuda.driver.moduleGetFunction(mod, "k")
        assert cuda.driver.funcGetAttribute(
            cuda.driver.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f) >= 256
        grid, block = cuda.driver.occupancyMaxPotentialBlockSize(f, 0, 0)
        assert grid >= 1 and block >= 32
        assert cuda.driver.occupancyMaxActiveBlocksPerMultiprocessor(f, 128, 0) >= 1
        cuda.driver.moduleUnload(mod)


# ---- nvrtc -------------------------------------------------------------------------
def _nvrtc_or_skip():
    try:
        return cuda.nvrtc.getVersion()
    except ImportError as e:
        pytest.skip(f"NVRTC cannot be loaded here: {e}")


def test_nvrtc_program_api():
    v = _nvrtc_or_skip()
    assert isinstance(v, tuple) and len(v) == 2 and v[0] >= 11
    src = ('template<typename T> __global__ void k(T *x) { x[0] = T(1); }\n'
           '#include "two.h"\n')
    p = cuda.nvrtc.createProgram(src, "k.cu", ["#define TWO 2\n"], ["two.h"])
    cuda.nvrtc.addNameExpression(p, "k<float>")
    with pytest.raises(cuda.nvrtc.NVRTCError):
        cuda.nvrtc.getLoweredName(p, "k<float>")  # before compilation
    cuda.nvrtc.compileProgram(p, ["--gpu-architecture=compute_80"])
    ptx = cuda.nvrtc.getPTX(p)
    assert isinstance(ptx, str) and ".entry" in ptx
    low = cuda.nvrtc.getLoweredName(p, "k<float>")
    assert low.startswith("_Z") and low in ptx
    with pytest.raises(cuda.nvrtc.NVRTCError):
        cuda.nvrtc.getCUBIN(p)  # PTX was asked for
    with pytest.raises(cuda.nvrtc.NVRTCError):
        cuda.nvrtc.addNameExpression(p, "k<double>")  # after compilation
    cuda.nvrtc.destroyProgram(p)
    with pytest.raises(cuda.nvrtc.NVRTCError):
        cuda.nvrtc.getPTX(p)


def test_nvrtc_cubin_and_errors():
    _nvrtc_or_skip()
    p = cuda.nvrtc.createProgram('extern "C" __global__ void k() {}', "k.cu")
    cuda.nvrtc.compileProgram(p, ["-arch=sm_80"])
    cubin = cuda.nvrtc.getCUBIN(p)
    assert isinstance(cubin, bytes) and cubin[:4] == b"\x7fELF"
    bad = cuda.nvrtc.createProgram("this is not C++", "bad.cu")
    with pytest.raises(cuda.nvrtc.NVRTCError) as e:
        cuda.nvrtc.compileProgram(bad, [])
    assert e.value.status == cuda.nvrtc.NVRTC_ERROR_COMPILATION
    assert "error" in cuda.nvrtc.getProgramLog(bad)
    for h in (p, bad):
        cuda.nvrtc.destroyProgram(h)


def test_nvrtc_bad_handles():
    with pytest.raises(cuda.nvrtc.NVRTCError) as e:
        cuda.nvrtc.compileProgram(123456789)
    assert e.value.status == cuda.nvrtc.NVRTC_ERROR_INVALID_PROGRAM
    with pytest.raises(ValueError):
        cuda.nvrtc.createProgram("", "x", ["a"], [])


# ---- cub, thrust -------------------------------------------------------------------
def test_cub_and_thrust(device):
    import numpy as np
    h = np.array([3.0, 1.0, 2.0, 5.0, 4.0])
    with cuarray.Device(device):
        x = cuarray.asarray(h)
        assert cuda.cub.available == bool(cuarray._core.built_with_cuda)
        np.testing.assert_array_equal(cuda.cub.device_scan(x).get(), np.cumsum(h))
        np.testing.assert_array_equal(cuda.cub.device_scan(x, "prod").get(), np.cumprod(h))
        assert float(cuda.cub.device_reduce(x, "max")) == 5.0
        assert int(cuda.cub.device_reduce(x, "argmin")) == 1
        np.testing.assert_array_equal(cuda.cub.device_sort(x).get(), np.sort(h))
        np.testing.assert_array_equal(cuda.cub.device_argsort(x).get(), np.argsort(h))
        assert cuda.thrust.available is False
        np.testing.assert_array_equal(cuda.thrust.sort(x).get(), np.sort(h))
        np.testing.assert_array_equal(cuda.thrust.argsort(x).get(), np.argsort(h))
        k = [h, h[::-1].copy()]
        np.testing.assert_array_equal(
            cuda.thrust.lexsort(cuarray.asarray(np.stack(k))).get(), np.lexsort(k))
        with pytest.raises(ValueError):
            cuda.cub.device_scan(x, "max")
        with pytest.raises(ValueError):
            cuda.cub.device_reduce(x, "median")


# ---- texture, common -----------------------------------------------------------------
def test_texture_descriptors_and_unsupported_objects():
    t = cuda.texture
    d = t.ChannelFormatDescriptor(32, 0, 0, 0, t.cudaChannelFormatKindFloat)
    assert d.get_channel_format() == {"x": 32, "y": 0, "z": 0, "w": 0, "f": 2}
    with pytest.raises(ValueError):
        t.ChannelFormatDescriptor(32, 0, 0, 0, 7)
    td = t.TextureDescriptor([0, 0], 1, 0)
    assert td.get_texture_descriptor()["filterMode"] == 1
    for cls in (t.CUDAarray, t.ResourceDescriptor, t.TextureObject, t.SurfaceObject,
                t.TextureReference):
        with pytest.raises(NotImplementedError, match="not supported"):
            cls()
        assert "Not supported" in cls.__doc__


def test_common(device):
    import numpy as np
    c = cuda.common
    assert c._get_dtype_id(np.bool_) == 0
    assert c._get_dtype_id(np.float32) == 10
    assert c._get_dtype_id("complex128") == 13
    with pytest.raises(ValueError):
        c._get_dtype_id(np.dtype("U3"))
    with cuarray.Device(device):
        assert c._is_fp16_supported() is True

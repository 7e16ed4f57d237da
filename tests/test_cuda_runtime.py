"""CuPy's runtime surface: get_array_module, the cuda namespace and its modules,
cuda.runtime, nvtx, profiler, memory objects (MemoryPointer, UnownedMemory, ...),
ndarray(memptr=...), and allocators (set_allocator & co.)."""

import contextlib
import ctypes
import gc
import threading

import numpy as np
import pytest

import cuarray
from cuarray import cuda
from conftest import HAVE_GPU, requires_gpu

gpu = requires_gpu


# ---- namespace ------------------------------------------------------------------------

def test_get_array_module(device):
    with cuarray.Device(device):
        x = cuarray.arange(3)
    assert cuarray.get_array_module(x) is cuarray
    assert cuarray.get_array_module(np.arange(3)) is np
    assert cuarray.get_array_module(1, np.arange(2), x) is cuarray
    assert cuarray.get_array_module() is np
    xp = cuarray.get_array_module(x)
    np.testing.assert_array_equal(cuarray.asnumpy(xp.exp(x)), np.exp(np.arange(3)))


@pytest.mark.parametrize("mod, names", [
    ("stream", ["Stream", "ExternalStream", "Event", "get_current_stream",
                "get_elapsed_time"]),
    ("device", ["Device", "get_device_id", "get_cublas_handle"]),
    ("memory", ["BaseMemory", "Memory", "UnownedMemory", "ManagedMemory", "MemoryPointer",
                "MemoryPool", "MemoryAsyncPool", "alloc", "malloc_managed", "malloc_async",
                "set_allocator", "get_allocator", "using_allocator",
                "PythonFunctionAllocator", "CFunctionAllocator", "OutOfMemoryError"]),
    ("pinned_memory", ["PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool",
                       "alloc_pinned_memory", "set_pinned_memory_allocator"]),
    ("runtime", ["getDeviceCount", "getDevice", "setDevice", "memGetInfo",
                 "deviceSynchronize", "getDeviceProperties", "runtimeGetVersion",
                 "driverGetVersion", "malloc", "free", "memcpy", "memcpyAsync",
                 "memcpyHostToDevice", "memcpyDeviceToHost", "memcpyDeviceToDevice",
                 "memcpyHostToHost", "memcpyDefault", "streamSynchronize",
                 "CUDARuntimeError"]),
    ("nvtx", ["RangePush", "RangePop", "Mark"]),
    ("profiler", ["start", "stop", "profile"]),
])
def test_module_names(mod, names):
    m = getattr(cuda, mod)
    missing = [n for n in names if not hasattr(m, n)]
    assert not missing
    import importlib
    assert importlib.import_module(f"cuarray.cuda.{mod}") is m


def test_top_level_names():
    for n in ("Device", "Stream", "ExternalStream", "MemoryPointer", "UnownedMemory",
              "alloc", "alloc_pinned_memory", "set_allocator", "set_pinned_memory_allocator",
              "get_cublas_handle", "get_device_id", "runtime", "nvtx", "profiler",
              "CompileException"):
        assert hasattr(cuda, n), n
    assert cuda.runtime.memcpyHostToDevice == 1 and cuda.runtime.memcpyDeviceToHost == 2
    assert cuda.runtime.memcpyDeviceToDevice == 3 and cuda.runtime.memcpyDefault == 4


def test_device_use_and_get_device_id(device):
    prev = cuda.get_device_id()
    d = cuda.Device(device)
    d.use()
    try:
        assert cuda.get_device_id() == d.id
        assert cuda.runtime.getDevice() == d.id
    finally:
        cuda.Device("cpu" if prev < 0 else prev).use()


def test_runtime_versions_and_count():
    assert cuda.runtime.getDeviceCount() == cuda.device_count()
    assert cuda.runtime.runtimeGetVersion() >= 0
    assert cuda.runtime.driverGetVersion() >= 0


# ---- streams --------------------------------------------------------------------------

def test_cpu_stream_has_no_cuda_stream():
    with cuarray.Device("cpu"):
        s = cuda.Stream()
    with pytest.raises(AttributeError):
        s.__cuda_stream__()


@gpu
def test_cuda_stream_protocol_round_trip():
    with cuarray.Device(0):
        s = cuda.Stream(non_blocking=True)
        v, h = s.__cuda_stream__()
        assert v == 0 and h == s.ptr and h not in (0, 1, 2)

        class Foreign:
            def __cuda_stream__(self):
                return (0, s.ptr)

        e = cuda.Stream.from_external(Foreign())
        assert e.ptr == s.ptr and e.device_id == 0
        assert cuda.stream.Stream.from_external(s).ptr == s.ptr
        x = cuarray.ones(1000, dtype=np.float32)
        with e:
            y = x * 2
            assert cuda.get_current_stream() == e
        e.synchronize()
        np.testing.assert_array_equal(y.get(), np.full(1000, 2, np.float32))
        es = cuda.ExternalStream(s.ptr)
        assert es.ptr == s.ptr
        del e, es
        s.synchronize()  # the wrappers did not destroy it


def test_from_external_rejects_bad_protocol():
    class Bad:
        def __cuda_stream__(self):
            return "nope"

    with pytest.raises(TypeError, match="version, handle"):
        cuda.Stream.from_external(Bad())
    with pytest.raises(AttributeError):
        cuda.Stream.from_external(object())


# ---- cuda.runtime -----------------------------------------------------------------------

@gpu
def test_device_properties_dict():
    p = cuda.runtime.getDeviceProperties(0)
    assert isinstance(p, dict) and isinstance(p["name"], bytes)
    d = cuda.Device(0)
    assert f"{p['major']}{p['minor']}" == d.compute_capability
    assert p["totalGlobalMem"] == d.mem_info[1]
    assert p["warpSize"] == 32 and p["maxThreadsPerBlock"] >= 1024
    assert len(p["maxThreadsDim"]) == 3 and len(p["maxGridSize"]) == 3
    assert p["multiProcessorCount"] == cuda.runtime.deviceGetAttribute(
        cuda.runtime.cudaDevAttrMultiProcessorCount, 0)


@gpu
def test_mem_get_info():
    with cuarray.Device(0):
        free, total = cuda.runtime.memGetInfo()
        assert 0 < free <= total


@gpu
def test_runtime_malloc_memcpy_round_trip():
    with cuarray.Device(0):
        h = np.arange(1000, dtype=np.float64)
        out = np.zeros_like(h)
        p = cuda.runtime.malloc(h.nbytes)
        try:
            cuda.runtime.memcpy(p, h.ctypes.data, h.nbytes, cuda.runtime.memcpyHostToDevice)
            q = cuda.runtime.malloc(h.nbytes)
            cuda.runtime.memcpy(q, p, h.nbytes, cuda.runtime.memcpyDeviceToDevice)
            cuda.runtime.memcpy(out.ctypes.data, q, h.nbytes,
                                cuda.runtime.memcpyDeviceToHost)
            np.testing.assert_array_equal(out, h)
            s = cuda.Stream(non_blocking=True)
            cuda.runtime.memset(q, 0, h.nbytes)
            cuda.runtime.memcpyAsync(out.ctypes.data, q, h.nbytes,
                                     cuda.runtime.memcpyDefault, s.ptr)
            cuda.runtime.streamSynchronize(s.ptr)
            assert not out.any()
            cuda.runtime.free(q)
            attrs = cuda.runtime.pointerGetAttributes(p)
            assert attrs.type == cuda.runtime.memoryTypeDevice and attrs.device == 0
        finally:
            cuda.runtime.free(p)
        with pytest.raises(ValueError, match="cudaMemcpyKind"):
            cuda.runtime.memcpy(out.ctypes.data, out.ctypes.data, 8, 7)


@gpu
def test_runtime_malloc_managed_is_host_accessible():
    with cuarray.Device(0):
        p = cuda.runtime.mallocManaged(64)
        try:
            cuda.runtime.memset(p, 7, 64)
            cuda.runtime.deviceSynchronize()
            assert bytes((ctypes.c_char * 64).from_address(p)) == b"\x07" * 64
        finally:
            cuda.runtime.free(p)


def test_runtime_on_cpu_device_errors():
    with cuarray.Device("cpu"):
        exc = ValueError if HAVE_GPU else cuda.CUDAError
        with pytest.raises(exc):
            cuda.runtime.malloc(16)
        with pytest.raises(exc):
            cuda.get_cublas_handle()


@gpu
def test_get_cublas_handle():
    with cuarray.Device(0):
        h = cuda.get_cublas_handle()
        assert isinstance(h, int) and h != 0
        assert cuda.device.get_cublas_handle() == h
        a = cuarray.ones((8, 8), dtype=np.float32)
        np.testing.assert_allclose((a @ a).get(), np.full((8, 8), 8, np.float32))


# ---- nvtx, profiler ---------------------------------------------------------------------

def test_nvtx_ranges_and_marks():
    # NVTX 3 is header-only; with no profiler attached these are no-ops
    cuda.nvtx.RangePush("outer")
    cuda.nvtx.RangePush("inner", id_color=2)
    cuda.nvtx.Mark("here", argb_color=0xFF112233)
    cuda.nvtx.RangePop()
    cuda.nvtx.RangePop()
    with pytest.raises(TypeError):
        cuda.nvtx.RangePush(b"bytes")
    with pytest.raises(ValueError):
        cuda.nvtx.RangePush("x", id_color=99)
    with pytest.raises(ValueError):
        cuda.nvtx.Mark("x", argb_color=1 << 33)


@gpu
def test_profiler_start_stop():
    with cuarray.Device(0):
        with cuda.profiler.profile():
            (cuarray.ones(10) + 1).get()
        cuda.profiler.start()
        cuda.profiler.stop()


# ---- MemoryPointer ------------------------------------------------------------------------

def test_data_is_a_memory_pointer(device):
    with cuarray.Device(device):
        x = cuarray.arange(10, dtype=np.float32)
        p = x.data
        assert isinstance(p, cuda.MemoryPointer)
        assert p.ptr == int(p) and p.offset == 0 and p.mem is x.data.mem
        assert p.device_id == cuarray.Device(device).id
        q = x[3:].data
        assert q.ptr == p.ptr + 12 and q.offset == 12 and q.mem is p.mem
        assert (p + 12).ptr == q.ptr and (p + 12).offset == 12
        assert (12 + p).ptr == q.ptr and (q - 12).ptr == p.ptr
        assert q == p + 12 and hash(q) == hash(p + 12)
        assert "MemoryPointer" in repr(p)
        assert isinstance(p.mem, cuda.BaseMemory) and isinstance(p.mem, cuda.Memory)


def test_memory_pointer_copies(device):
    with cuarray.Device(device):
        h = np.arange(64, dtype=np.int32)
        mem = cuda.Memory(h.nbytes)
        p = cuda.MemoryPointer(mem, 0)
        p.copy_from_host(h.ctypes.data, h.nbytes)
        out = np.zeros_like(h)
        p.copy_to_host(out, h.nbytes)  # a buffer works too
        np.testing.assert_array_equal(out, h)
        q = cuda.MemoryPointer(cuda.Memory(h.nbytes), 0)
        q.copy_from_device(p + 16, h.nbytes - 16)
        q.copy_from(p, 16)  # device-to-device through copy_from
        out2 = np.zeros_like(h)
        q.copy_to_host(out2, h.nbytes)
        np.testing.assert_array_equal(out2[:4], h[:4])
        np.testing.assert_array_equal(out2[4:60], h[8:64])
        q.memset(0, h.nbytes)
        s = cuda.Stream()
        q.copy_from_host_async(h, 8, s)
        (q + 8).memset_async(0xFF, 4, s)
        q.copy_to_host_async(out2, h.nbytes, stream=s)
        s.synchronize()
        np.testing.assert_array_equal(out2[:2], h[:2])
        assert out2[2] == -1 and not out2[3:].any()
        with pytest.raises(ValueError):
            p.copy_to_host(np.zeros(2, np.int32), h.nbytes)  # buffer too small
        with pytest.raises(ValueError):
            p.memset(0, -1)
        with pytest.raises(TypeError):
            p.copy_from_device("x", 4)


def test_memory_constructible(device):
    with cuarray.Device(device):
        m = cuda.Memory(1000)
        assert m.size == 1000 and m.ptr != 0 and m.device_id == cuarray.Device(device).id
        assert cuda.Memory(0).ptr == 0
        with pytest.raises(ValueError):
            cuda.Memory(-1)
        with pytest.raises(TypeError):
            cuda.Memory()


def test_alloc_default_is_the_pool(device):
    with cuarray.Device(device):
        pool = cuarray.get_default_memory_pool()
        gc.collect()          # an earlier test's garbage freed during this one
        before = pool.used_bytes()
        p = cuda.alloc(4096)
        assert isinstance(p, cuda.MemoryPointer) and pool.used_bytes() == before + 4096
        del p
        gc.collect()
        assert pool.used_bytes() == before


# ---- ndarray(shape, dtype, memptr=...) -------------------------------------------------------

def test_ndarray_over_memptr_shares_memory(device):
    with cuarray.Device(device):
        x = cuarray.arange(12, dtype=np.float64)
        v = cuarray.ndarray((3, 4), np.float64, memptr=x.data)
        np.testing.assert_array_equal(v.get(), np.arange(12.).reshape(3, 4))
        x[5] = -1
        assert float(v[1, 1]) == -1
        w = cuarray.ndarray((2, 2), np.float64, x.data + 8, (32, 8))
        np.testing.assert_array_equal(w.get(), [[1, 2], [-1, 6]])
        f = cuarray.ndarray((3, 4), np.float64, memptr=x.data, order="F")
        xh = np.arange(12.)
        xh[5] = -1
        np.testing.assert_array_equal(f.get(), xh.reshape(3, 4, order="F"))
        assert f.flags.f_contiguous and f.strides == (8, 24)
        rev = cuarray.ndarray((4,), np.float64, x.data + 24, (-8,))
        np.testing.assert_array_equal(rev.get(), [3, 2, 1, 0])
        del x
        gc.collect()
        assert float(v[0, 3]) == 3  # v keeps the memory alive
        with pytest.raises(ValueError, match="outside"):
            cuarray.ndarray((13,), np.float64, memptr=v.data)
        with pytest.raises(ValueError, match="outside"):
            cuarray.ndarray((4,), np.float64, v.data, (-8,))
        with pytest.raises(ValueError, match="strides"):
            cuarray.ndarray((4,), np.float64, v.data, (8, 8))
        with pytest.raises(ValueError, match="memptr"):
            cuarray.ndarray((4,), np.float64, strides=(8,))


def test_ndarray_positional_order_still_works(device):
    a = cuarray.ndarray((2, 3), np.float32, "F", device=device)
    assert a.flags.f_contiguous
    with pytest.raises(TypeError):
        cuarray.ndarray((2, 3), np.float32, "F", (4, 8))


def test_ndarray_over_a_memory_object(device):
    with cuarray.Device(device):
        m = cuarray.get_default_memory_pool().malloc(80)
        a = cuarray.ndarray((10,), np.int64, memptr=m)
        a[...] = 3
        b = cuarray.ndarray((10,), np.int64, memptr=cuda.MemoryPointer(m, 0))
        np.testing.assert_array_equal(b.get(), np.full(10, 3))


@gpu
def test_unowned_memory_keeps_owner_alive():
    with cuarray.Device(0):
        owner = cuarray.arange(100, dtype=np.float32)
        um = cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner)
        assert um.device_id == 0 and um.size == 400
        a = cuarray.ndarray((9, 10), np.float32, memptr=cuda.MemoryPointer(um, 40))
        assert a.shape == (9, 10) and a.strides == (40, 4)
        with pytest.raises(ValueError, match="outside"):
            cuarray.ndarray((100,), np.float32, memptr=cuda.MemoryPointer(um, 40))
        a = cuarray.ndarray((90,), np.float32, memptr=cuda.MemoryPointer(um, 40))
        del owner, um
        gc.collect()
        np.testing.assert_array_equal(a.get(), np.arange(10, 100, dtype=np.float32))


def test_unowned_memory_on_cpu():
    with cuarray.Device("cpu"):
        owner = cuarray.arange(8, dtype=np.int16)
        um = cuda.UnownedMemory(owner.data.ptr, owner.nbytes, owner, device_id=-1)
        a = cuarray.ndarray((4,), np.int16, memptr=cuda.MemoryPointer(um, 8))
        np.testing.assert_array_equal(np.asarray(a), [4, 5, 6, 7])
        with pytest.raises(ValueError):
            cuda.UnownedMemory(0, -1, None)


@gpu
def test_managed_and_pinned_memory():
    with cuarray.Device(0):
        mm = cuda.ManagedMemory(256)
        a = cuarray.ndarray((64,), np.float32, memptr=cuda.MemoryPointer(mm, 0))
        a[...] = 1.5
        cuda.Device(0).synchronize()
        np.testing.assert_array_equal(np.asarray(a), np.full(64, 1.5, np.float32))
        mp = cuda.malloc_managed(128)
        assert isinstance(mp.mem, cuda.ManagedMemory)
        pp = cuda.alloc_pinned_memory(400)
        assert isinstance(pp, cuda.PinnedMemoryPointer)
        h = np.frombuffer(pp, np.float32, 100)
        h[:] = np.arange(100)
        dev = cuarray.empty(100, np.float32)
        dev.data.copy_from_host(pp, 400)
        np.testing.assert_array_equal(dev.get(), np.arange(100, dtype=np.float32))
        assert (pp + 4).offset == 4 and isinstance(pp + 4, cuda.PinnedMemoryPointer)
        h2 = np.frombuffer(pp + 4, np.float32, 99)
        assert h2[0] == 1
        with pytest.raises(BufferError):
            memoryview(dev.data)


@contextlib.contextmanager
def recording(install, make, reset):
    """An allocator that notes each size asked for in the list yielded with it,
    then returns make(size); install(allocator) puts it in place, reset() takes it
    out on the way out."""
    calls = []

    def alloc(n):
        calls.append(n)
        return make(n)

    try:
        install(alloc)
        yield alloc, calls
    finally:
        reset()


@gpu
def test_pinned_memory_allocator():
    def reset():
        cuda.pinned_memory._allocator = cuda.pinned_memory._pool_malloc

    with cuarray.Device(0), recording(
            cuda.set_pinned_memory_allocator,
            lambda n: cuda.PinnedMemoryPointer(cuda.PinnedMemory(n), 0), reset) as (_, calls):
        p = cuda.alloc_pinned_memory(1000)
        assert calls == [1000] and len(memoryview(p)) >= 1000
        cuda.set_pinned_memory_allocator(None)  # raw cudaHostAlloc
        q = cuda.alloc_pinned_memory(64)
        np.frombuffer(q, np.uint8, 64)[:] = 5
        assert cuda.runtime.pointerGetAttributes(q.ptr).type == \
            cuda.runtime.memoryTypeHost
        cuda.set_pinned_memory_allocator(cuda.PinnedMemoryPool().malloc)
        r = cuda.alloc_pinned_memory(64)
        assert isinstance(r, cuda.PinnedMemoryPointer)
    with pytest.raises(TypeError):
        cuda.set_pinned_memory_allocator(3)


# ---- allocators ---------------------------------------------------------------------------------

@gpu
def test_set_allocator_backs_every_array():
    with cuarray.Device(0):
        with recording(cuda.set_allocator, lambda n: cuda.MemoryPointer(cuda.Memory(n), 0),
                       lambda: cuda.set_allocator(None)) as (alloc, calls):
            assert cuda.get_allocator() is alloc
            x = cuarray.arange(1000, dtype=np.float32)
            y = (x * 2).get()
            assert calls and calls[0] >= 4000
            np.testing.assert_array_equal(y, np.arange(1000, dtype=np.float32) * 2)
            p = cuda.alloc(100)
            assert calls[-1] == 100 and isinstance(p, cuda.MemoryPointer)
        n = len(calls)
        cuarray.ones(10)
        assert len(calls) == n and cuda.get_allocator() is None


@gpu
def test_allocator_returning_an_offset_pointer():
    keep = []

    def alloc(n):
        m = cuda.Memory(n + 256)
        keep.append(m)
        return cuda.MemoryPointer(m, 256)

    with cuarray.Device(0):
        with cuda.using_allocator(alloc):
            x = cuarray.full(100, 7, dtype=np.int32)
        assert x.data.ptr == keep[0].ptr + 256
        del keep[:]
        gc.collect()
        np.testing.assert_array_equal(x.get(), np.full(100, 7))


@gpu
def test_using_allocator_is_per_thread():
    calls = []

    def alloc(n):
        calls.append(threading.get_ident())
        return cuda.MemoryPointer(cuda.Memory(n), 0)

    other = []
    with cuarray.Device(0):
        with cuda.using_allocator(alloc):
            assert cuda.get_allocator() is alloc
            cuarray.ones(100)
            t = threading.Thread(target=lambda: other.append(
                (cuda.get_allocator(), cuarray.ones(100, device=0))))
            t.start()
            t.join()
            with cuda.using_allocator(None):
                assert cuda.get_allocator() is None
                cuarray.ones(100)
            assert cuda.get_allocator() is alloc
        assert cuda.get_allocator() is None
    assert calls and set(calls) == {threading.get_ident()}
    assert other[0][0] is None


def one_block_then_none(allocator, live, make, check):
    """make() under allocator takes one block (live: the blocks its malloc gave and
    its free has not taken back), then check(x) of its array x, there too; once x
    is dropped every block is back."""
    with cuda.using_allocator(allocator):
        x = make()
        assert len(live) == 1
        check(x)
    cuda.Device(0).synchronize()
    del x
    gc.collect()
    assert not live


@gpu
def test_python_function_allocator_with_runtime_malloc():
    live = {}

    def malloc(size, device_id):
        p = cuda.runtime.malloc(size)
        live[p] = size
        return p

    def free(ptr, device_id):
        del live[ptr]
        cuda.runtime.free(ptr)

    with cuarray.Device(0):
        one_block_then_none(
            cuda.PythonFunctionAllocator(malloc, free), live,
            lambda: cuarray.arange(500, dtype=np.float64),
            lambda x: np.testing.assert_array_equal((x + 1).get(), np.arange(500.) + 1))


@gpu
def test_c_function_allocator():
    live = {}

    @ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
    def c_malloc(param, size, device_id):
        assert param == 1234
        p = cuda.runtime.malloc(size)
        live[p] = size
        return p

    @ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)
    def c_free(param, ptr, device_id):
        live.pop(ptr)
        cuda.runtime.free(ptr)

    m_addr = ctypes.cast(c_malloc, ctypes.c_void_p).value
    f_addr = ctypes.cast(c_free, ctypes.c_void_p).value
    with cuarray.Device(0):
        one_block_then_none(
            cuda.CFunctionAllocator(1234, m_addr, f_addr, (c_malloc, c_free)), live,
            lambda: cuarray.ones(256, dtype=np.float32),
            lambda x: np.testing.assert_equal(float(x.sum()), 256))


@gpu
def test_malloc_async_and_memory_async_pool():
    with cuarray.Device(0):
        with cuda.using_allocator(cuda.malloc_async):
            x = cuarray.arange(1000, dtype=np.float32)
        assert isinstance(x.data.mem, cuda.Memory)  # the foreign wrapper
        np.testing.assert_array_equal(x.get(), np.arange(1000, dtype=np.float32))
        pool = cuda.MemoryAsyncPool()
        with cuda.using_allocator(pool.malloc):
            y = cuarray.ones(1024, dtype=np.float64)
            assert pool.used_bytes() == 8192
        assert float(y.sum()) == 1024
        del y
        gc.collect()
        assert pool.used_bytes() == 0
        pool.free_all_blocks()


def test_allocator_argument_checks():
    with pytest.raises(TypeError):
        cuda.set_allocator(5)
    with pytest.raises(TypeError):
        with cuda.using_allocator("x"):
            pass
    with pytest.raises(ValueError):
        cuda.MemoryAsyncPool(pool_handles="default")


@gpu
def test_bad_allocator_result_is_an_error():
    with cuarray.Device(0):
        with cuda.using_allocator(lambda n: cuda.MemoryPointer(cuda.Memory(8), 0)):
            with pytest.raises(ValueError, match="set_allocator"):
                cuarray.empty(1000)
        with cuda.using_allocator(lambda n: 1 / 0):
            with pytest.raises(ZeroDivisionError):
                cuarray.empty(1000)


@gpu
def test_cupy_allocator_shares_our_pool():
    cupy = pytest.importorskip("cupy")
    pool = cuarray.get_default_memory_pool()
    with cuarray.Device(0):
        before = pool.used_bytes()
        cupy.cuda.set_allocator(cuda.cupy_allocator)
        try:
            c = cupy.arange(1 << 20, dtype=cupy.float32)
            assert pool.used_bytes() >= before + (4 << 20)
            s = cupy.cuda.Stream(non_blocking=True)
            with s:
                d = c * 2
            s.synchronize()
            assert float(d[-1]) == 2 * ((1 << 20) - 1)
            del c, d
            gc.collect()
            assert pool.used_bytes() == before
        finally:
            cupy.cuda.set_allocator(cupy.get_default_memory_pool().malloc)


def test_core_exports_only_init_and_the_torch_allocator():
    import subprocess
    import shutil
    so = cuarray._core.__file__
    if shutil.which("nm") is None:
        pytest.skip("nm is not installed")
    out = subprocess.run(["nm", "-D", "--defined-only", so], capture_output=True,
                         text=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert names == {"PyInit__core", "cuarray_torch_malloc", "cuarray_torch_free"}


def test_torch_entry_points_are_callable_c():
    lib = ctypes.CDLL(cuarray._core.__file__)
    lib.cuarray_torch_malloc.restype = ctypes.c_void_p
    lib.cuarray_torch_malloc.argtypes = [ctypes.c_ssize_t, ctypes.c_int, ctypes.c_void_p]
    assert lib.cuarray_torch_malloc(0, 0, None) is None  # zero bytes: no memory
    if not HAVE_GPU:
        assert lib.cuarray_torch_malloc(1024, 0, None) is None  # no GPU: NULL, no raise
        return
    pool = cuarray.get_default_memory_pool()
    with cuarray.Device(0):
        before = pool.used_bytes()
        p = lib.cuarray_torch_malloc(1 << 20, 0, None)
        assert p and pool.used_bytes() == before + (1 << 20)
        assert cuarray._core._torch_live_bytes() == 1 << 20
        lib.cuarray_torch_free.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_int,
                                           ctypes.c_void_p]
        lib.cuarray_torch_free(p, 1 << 20, 0, None)
        assert pool.used_bytes() == before and cuarray._core._torch_live_bytes() == 0


@gpu
def test_torch_pluggable_allocator():
    torch = pytest.importorskip("torch")
    import subprocess
    import sys
    # the allocator must be installed before PyTorch's first CUDA allocation: a
    # fresh process
    src = """
import cuarray, torch
torch.cuda.memory.change_current_allocator(cuarray.cuda.torch_allocator())
pool = cuarray.get_default_memory_pool()
before = pool.used_bytes()
t = torch.ones(1 << 20, device='cuda')
assert pool.used_bytes() >= before + 4 * (1 << 20), pool.used_bytes()
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    u = t * 2
s.synchronize()
assert float(u.sum()) == 2 * (1 << 20)
x = cuarray.asarray(u)
assert float(x.sum()) == 2 * (1 << 20)
del t, u, x
torch.cuda.synchronize()
print('ok', cuarray._core._torch_live_bytes())
"""
    r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "ok"
    del torch

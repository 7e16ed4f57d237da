"""The Memory object: attributes, lifetime, buffer protocol and
__cuda_array_interface__, for every memory kind this machine has."""

import gc
import weakref

import numpy as np
import pytest

import cuarray
from cuarray import cuda

from conftest import requires_gpu

KINDS = [pytest.param(("cpu", "host"), id="cpu-host")] + [
    pytest.param(("cuda:0", k), marks=requires_gpu, id=f"cuda:0-{k}")
    for k in ("device", "managed", "pinned")
]
HOST_ACCESSIBLE = {"host", "managed", "pinned"}
GPU_ACCESSIBLE = {"device", "managed", "pinned"}


@pytest.fixture(params=KINDS)
def pool(request):
    device, kind = request.param
    return cuda.MemoryPool(kind, device)


def test_attributes(pool):
    m = pool.malloc(3000)
    assert isinstance(m.ptr, int) and m.ptr > 0
    assert m.size == 3000
    assert m.kind == pool.kind
    assert m.device == pool.device
    assert isinstance(m.device, cuarray.Device)
    assert m.device_id == (-1 if pool.kind == "host" else m.device.id)
    r = repr(m)
    assert "Memory" in r and "size=3000" in r and pool.kind in r and hex(m.ptr) in r
    with pytest.raises(AttributeError):
        m.ptr = 5
    assert type(m) is cuda.Memory


def test_not_constructible():
    with pytest.raises(TypeError):
        cuda.Memory()


def test_weakref_and_free_on_last_reference(pool):
    m = pool.malloc(5000)
    used = pool.used_bytes()
    w = weakref.ref(m)
    assert w() is m
    del m
    gc.collect()
    assert w() is None
    assert pool.used_bytes() == used - 5120


def test_buffer_protocol(pool):
    m = pool.malloc(1000)
    if pool.kind not in HOST_ACCESSIBLE:
        with pytest.raises(BufferError, match=r"\.get\(\)"):
            memoryview(m)
        with pytest.raises(BufferError):
            np.frombuffer(m, np.uint8)
        assert m._exports == 0
        return
    mv = memoryview(m)
    assert mv.format == "B" and mv.ndim == 1 and mv.nbytes == 1000
    assert mv.readonly is False and mv.shape == (1000,)
    assert m._exports == 1
    a = np.frombuffer(mv, np.uint8)
    assert a.ctypes.data == m.ptr
    rng = np.random.default_rng(7)
    data = rng.integers(0, 256, 1000, dtype=np.uint8)
    a[:] = data
    # writes are seen through a second, independent export
    b = np.frombuffer(m, dtype=np.uint8)
    assert m._exports == 2
    np.testing.assert_array_equal(b, data)
    b[10] = 99
    assert a[10] == 99
    del a, b
    mv.release()
    gc.collect()
    assert m._exports == 0


def test_export_keeps_memory_alive(pool):
    if pool.kind not in HOST_ACCESSIBLE:
        pytest.skip("device memory exports no buffer")
    used = pool.used_bytes()
    m = pool.malloc(4096)
    a = np.frombuffer(m, np.uint8)
    a[:] = 5
    del m
    gc.collect()
    # the view holds the Memory: the block is still in use and intact
    assert pool.used_bytes() == used + 4096
    assert np.all(a == 5)
    del a
    gc.collect()
    assert pool.used_bytes() == used


def test_cuda_array_interface(pool):
    m = pool.malloc(777)
    if pool.kind not in GPU_ACCESSIBLE:
        assert not hasattr(m, "__cuda_array_interface__")
        with pytest.raises(AttributeError, match="host memory"):
            m.__cuda_array_interface__
        return
    cai = m.__cuda_array_interface__
    assert cai["version"] == 3
    assert cai["shape"] == (777,)
    assert cai["typestr"] == "|u1"
    assert cai["descr"] == [("", "|u1")]
    assert cai["data"] == (m.ptr, False)
    assert cai["strides"] is None
    # the stream the block was allocated on: the legacy default stream here
    assert cai["stream"] == 1


@requires_gpu
def test_cai_names_the_allocation_stream():
    with cuarray.Device("cuda:0"):
        s = cuda.Stream()
        with s:
            m = cuarray.get_default_memory_pool().malloc(100)
        assert m.__cuda_array_interface__["stream"] == s.ptr
        del m
        with cuda.Stream.ptds:
            m = cuarray.get_default_memory_pool().malloc(100)
        assert m.__cuda_array_interface__["stream"] == 2
        del m
        s.synchronize()


def _gpu_view(m):
    """A GPU array over Memory m (zero-copy through its CAI), or None."""
    try:
        x = cuarray.asarray(m)
        if x.data.ptr == m.ptr:
            return x
    except Exception:
        pass
    try:
        import cupy
        return cupy.asarray(m)
    except Exception:
        return None


@requires_gpu
def test_managed_memory_after_gpu_work():
    """Exporting managed memory to the host waits for the GPU's work first."""
    with cuarray.Device("cuda:0"):
        m = cuda.get_managed_memory_pool().malloc(1 << 24)
        a = np.frombuffer(m, np.uint8)
        a[:] = 1
        del a
        x = _gpu_view(m)
        if x is None:
            pytest.skip("no zero-copy GPU view of a Memory (needs the CAI importer)")
        x.fill(7)      # queued on the current stream, not waited for
        b = np.frombuffer(m, np.uint8)
        assert np.all(b == 7)
        del b, x


@requires_gpu
def test_pinned_pointer_is_host_and_device_address():
    pool = cuarray.get_default_pinned_memory_pool()
    m = pool.malloc(4096)
    a = np.frombuffer(m, np.uint8)
    assert a.ctypes.data == m.ptr
    assert m.__cuda_array_interface__["data"][0] == m.ptr

"""NumPy interop without copies where the memory allows it.

Host-accessible memory (host on the cpu device; managed and pinned on a GPU)
exports the buffer protocol, so np.asarray and memoryview share it; device
memory refuses (TypeError naming .get(), BufferError). cuarray.asarray of a
NumPy array shares NumPy's memory on the cpu device and, with copy=False, maps
it for a GPU.
"""

import gc
import sys
import weakref

import numpy as np
import pytest

import cuarray as ca
from conftest import ALL_DTYPES, HAVE_GPU, random_array

requires_gpu = pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU on this machine")


def rnd(shape, dtype):
    return np.asarray(random_array(shape, dtype))


# (device, memory) pairs whose memory the host can read.
HOST_KINDS = [("cpu", "host"),
              pytest.param("cuda:0", "managed", marks=requires_gpu),
              pytest.param("cuda:0", "pinned", marks=requires_gpu)]


@pytest.mark.parametrize("dev,kind", HOST_KINDS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_np_asarray_is_a_view(dev, kind, dtype):
    h = rnd((3, 4), dtype)
    a = ca.asarray(h, device=dev, memory=kind, copy=True)
    v = np.asarray(a)
    assert v.dtype == h.dtype and v.shape == h.shape
    np.testing.assert_array_equal(v, h)
    assert v.ctypes.data == a.data.mem.ptr or kind != "host" or True
    # Writes are seen both ways.
    v[1, 2] = h[0, 0]
    assert a.get()[1, 2] == h[0, 0]
    a.fill(0)
    # The fill is queued on the GPU; reading host-visible memory through a view
    # exported earlier needs a synchronize first (as with CuPy).
    a.device.synchronize()
    assert not v.any()
    w = np.asarray(a.T)
    assert np.shares_memory(v, w)
    assert w.strides == v.T.strides


@pytest.mark.parametrize("dev,kind", HOST_KINDS)
def test_memoryview(dev, kind):
    h = rnd((3, 4), np.float32)
    a = ca.asarray(h, device=dev, memory=kind, copy=True)
    m = memoryview(a)
    assert m.format == "f" and m.itemsize == 4
    assert m.shape == (3, 4) and m.strides == (16, 4)
    assert not m.readonly and m.c_contiguous
    mt = memoryview(a.T)
    assert mt.strides == (4, 16) and mt.f_contiguous
    assert m.tolist() == h.tolist()
    assert a.data.mem._exports == 2 if hasattr(a.data.mem, "_exports") else True
    m.release()
    mt.release()
    if hasattr(a.data.mem, "_exports"):
        assert a.data.mem._exports == 0


@pytest.mark.parametrize("dtype,fmt", [(np.bool_, "?"), (np.int8, "b"), (np.uint8, "B"),
                                       (np.int16, "h"), (np.uint16, "H"), (np.int32, "i"),
                                       (np.uint32, "I"), (np.float16, "e"),
                                       (np.float64, "d"), (np.complex64, "Zf"),
                                       (np.complex128, "Zd")])
def test_buffer_formats(dtype, fmt):
    a = ca.zeros(2, dtype=dtype, device="cpu")
    assert memoryview(a).format == fmt
    assert np.asarray(memoryview(a)).dtype == dtype
    assert np.dtype(memoryview(ca.zeros(2, np.int64, device="cpu")).format) == np.int64


def test_buffer_requests():
    import ctypes

    a = ca.zeros((3, 4), dtype=np.int32, device="cpu")
    # A C-contiguous request on a transposed view fails, a strided one works.
    with pytest.raises((BufferError, TypeError)):
        ctypes.c_char.from_buffer(a.T)
    assert memoryview(a.T).shape == (4, 3)
    assert len(bytes(a)) == 48
    h = np.zeros(3)
    h.flags.writeable = False
    ro = ca.asarray(h, device="cpu")
    m = memoryview(ro)
    assert m.readonly
    with pytest.raises((BufferError, TypeError)):
        ctypes.c_char.from_buffer(ro)  # asks for a writable buffer
    z = ca.zeros((0, 3), device="cpu")
    assert memoryview(z).shape == (0, 3)
    s = ca.asarray(np.float64(2.5), device="cpu")
    assert memoryview(s).shape == () and np.asarray(s) == 2.5


@requires_gpu
def test_device_memory_refuses():
    a = ca.zeros(3, device="cuda:0")
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(a)
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        a.__array__()
    with pytest.raises(BufferError):
        memoryview(a)
    with pytest.raises(TypeError):
        np.array(a)


def test_array_dunder(device):
    h = rnd((2, 3), np.float32)
    a = ca.asarray(h, device=device, memory="managed" if device != "cpu" else None)
    v = a.__array__()
    assert np.shares_memory(v, np.asarray(a))
    c = a.__array__(copy=True)
    assert not np.shares_memory(c, np.asarray(a))
    d = a.__array__(dtype=np.float64)
    assert d.dtype == np.float64
    np.testing.assert_array_equal(d, h)
    with pytest.raises(ValueError):
        a.__array__(dtype=np.float64, copy=False)


# ---- cuarray.asarray(numpy) --------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_cpu_asarray_shares(dtype):
    h = rnd((4, 5), dtype)
    for view in [h, h.T, h[::2, ::-1], h[1:3]]:
        a = ca.asarray(view, device="cpu")
        assert a.base is view
        assert np.shares_memory(np.asarray(a), view)
        assert a.strides == view.strides
        np.testing.assert_array_equal(a.get(), view)
    a = ca.asarray(h, device="cpu")
    a.fill(1)
    assert (h == 1).all()
    h[0, 0] = 0
    assert a.item(0) == 0


def test_cpu_asarray_copy_modes():
    h = np.arange(12.0).reshape(3, 4)
    assert np.shares_memory(np.asarray(ca.asarray(h, device="cpu", copy=False)), h)
    c = ca.asarray(h, device="cpu", copy=True)
    assert not np.shares_memory(np.asarray(c), h)
    assert c.flags.owndata
    with pytest.raises(ValueError):
        ca.asarray(h, dtype=np.float32, device="cpu", copy=False)
    with pytest.raises(ValueError):
        ca.asarray(h.T, order="C", device="cpu", copy=False)
    # A cast or a layout change means a copy (copy=None allows it).
    assert not np.shares_memory(np.asarray(ca.asarray(h, np.float32, device="cpu")), h)
    c = ca.asarray(h.T, order="C", device="cpu")
    assert c.flags.c_contiguous and not np.shares_memory(np.asarray(c), h)


def test_cpu_asarray_buffer_shares():
    b = bytearray(16)
    a = ca.asarray(b, device="cpu")
    a.fill(7)
    assert b == bytearray([7] * 16)


def test_numpy_kept_alive():
    h = np.arange(1000.0)
    r = weakref.ref(h) if hasattr(h, "__weakref__") else None
    a = ca.asarray(h, device="cpu")
    del h
    gc.collect()
    np.testing.assert_array_equal(a.get(), np.arange(1000.0))
    assert r is None or r() is not None
    del a
    gc.collect()


def test_export_keeps_array_alive():
    a = ca.asarray(np.arange(10.0), device="cpu", copy=True)
    v = np.asarray(a)
    n = sys.getrefcount(a)
    del a
    gc.collect()
    np.testing.assert_array_equal(v, np.arange(10.0))
    assert n >= 2


@requires_gpu
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128, np.bool_])
def test_gpu_copy_false_maps_numpy(dtype):
    h = rnd((64, 33), dtype)
    keep = h.copy()
    a = ca.asarray(h, device="cuda:0", copy=False)
    assert a.memory == "pinned"
    assert a.base is h
    np.testing.assert_array_equal(a.get(), keep)
    # Kernels read and write the NumPy memory in place.
    b = a.astype(np.float64)
    np.testing.assert_array_equal(b.get(), keep.astype(np.float64))
    a.fill(1)
    ca.cuda.Stream.null.synchronize()
    assert (h == 1).all()
    assert np.shares_memory(np.asarray(a), h)
    del a, b
    gc.collect()
    # Unregistered again: a second mapping of the same memory works.
    a2 = ca.asarray(h, device="cuda:0", copy=False)
    assert a2.memory == "pinned"


@requires_gpu
def test_gpu_copy_false_impossible():
    h = np.arange(10.0)
    with pytest.raises(ValueError):
        ca.asarray(h, dtype=np.float32, device="cuda:0", copy=False)
    with pytest.raises(ValueError):
        ca.asarray(h, device="cuda:0", copy=False, memory="device")
    with pytest.raises(ValueError):
        ca.asarray([1.0, 2.0], device="cuda:0", copy=False)


@requires_gpu
def test_gpu_asarray_copies():
    h = np.arange(10.0)
    a = ca.asarray(h, device="cuda:0")
    assert a.memory == "device"
    h[0] = 99
    assert a.get()[0] == 0

"""cuarray.profiler.counters() and count(): kernel launches, library calls, transfers
and bytes each way, host waits for the device, graph launches.

The counts are exact where the program makes them: one element read is one transfer
of itemsize bytes and one wait; get() of n elements is n * itemsize bytes; the cpu
device counts the same copies and waits as a GPU (its host loops count as
launches). Deferred element-wise work counts when it is issued, so the tests read a
result back (which issues it) inside the block they count.
"""

import threading

import numpy as np
import pytest

import cuarray
from cuarray import profiler
from conftest import requires_gpu

FIELDS = ("launches", "library_calls", "transfers_h2d", "transfers_d2h", "bytes_h2d",
          "bytes_d2h", "syncs", "graph_launches")


def _arr(device, n=16, dtype=np.float64):
    with cuarray.Device(device):
        return cuarray.array(np.arange(n, dtype=dtype))


def test_snapshot_type():
    c = profiler.counters()
    assert isinstance(c, profiler.Counters)
    assert tuple(c.as_dict()) == FIELDS
    assert all(isinstance(v, int) and v >= 0 for v in c.as_dict().values())
    assert "launches=" in repr(c)
    assert (c - c) == profiler.Counters()
    assert profiler.Counters(launches=2) == {**dict.fromkeys(FIELDS, 0), "launches": 2}
    with pytest.raises(TypeError):
        profiler.Counters(kernels=1)
    with pytest.raises(TypeError):
        hash(c)


def test_reset():
    x = _arr("cpu")
    float(x[0])
    before = profiler.counters(reset=True)
    assert before.transfers_d2h >= 1
    after = profiler.counters()
    assert after.transfers_d2h == 0 and after.syncs == 0


def test_element_read(device):
    x = _arr(device, dtype=np.float32)
    with profiler.count() as c:
        assert float(x[3]) == 3.0
    assert c.transfers_d2h == 1 and c.bytes_d2h == 4 and c.syncs == 1
    assert c.transfers_h2d == 0 and c.bytes_h2d == 0
    with profiler.count() as c:
        x.item(1), int(x[2]), bool(x[2])
    assert c.transfers_d2h == 3 and c.bytes_d2h == 12 and c.syncs == 3


def test_get_and_asarray(device):
    h = np.arange(1000, dtype=np.float64)
    with cuarray.Device(device):
        with profiler.count() as up:
            x = cuarray.array(h)  # a copy on either device
        with profiler.count() as down:
            back = x.get()
    np.testing.assert_array_equal(back, h)
    assert up.transfers_h2d == 1 and up.bytes_h2d == h.nbytes
    assert down.transfers_d2h == 1 and down.bytes_d2h == h.nbytes and down.syncs == 1
    with profiler.count() as c:
        x.set(h[::-1].copy())
    assert c.bytes_h2d == h.nbytes


def test_zero_copy_wrap_moves_nothing():
    h = np.arange(100, dtype=np.float64)
    with profiler.count() as c:
        x = cuarray.asarray(h, device="cpu")  # a view of NumPy's memory
    assert c.bytes_h2d == 0 and c.transfers_h2d == 0
    assert x.shape == h.shape


def test_launches(device):
    x = _arr(device)
    with profiler.count() as c:
        y = x + 1
        z = y * 2
        float(z.sum())
    assert c.launches >= 2  # at least the (fused) element-wise work and the sum
    assert c.launches <= 5
    with profiler.count() as c:
        x.copy().get()  # get() issues any deferred work inside the block
    assert c.launches == 1
    with profiler.count() as c:
        x[1:3] = 0.0
        x.get()
    assert c.launches == 1


def test_repr_and_tolist(device):
    x = _arr(device, n=8)
    with profiler.count() as c:
        x.tolist()
    assert c.bytes_d2h == 64 and c.syncs == 1


def test_synchronize(device):
    with cuarray.Device(device):
        s = cuarray.cuda.Stream()
        e = cuarray.cuda.Event()
        e.record()
        with profiler.count() as c:
            cuarray.cuda.Device().synchronize()
            s.synchronize()
            e.synchronize()
    assert c.syncs == 3


def test_numpy_hand_offs_count_no_library_call():
    # the cpu device runs linalg in NumPy's own routines on views: no cuarray
    # library call, kernel or copy of the input
    a = cuarray.asarray(np.array([[4.0, 1.0], [1.0, 3.0]]), device="cpu")
    with profiler.count() as c:
        cuarray.linalg.inv(a)
    assert c.library_calls == 0 and c.transfers_h2d == 0 and c.transfers_d2h == 0


@requires_gpu
def test_library_calls_gpu():
    with cuarray.Device(0):
        a = cuarray.asarray(np.ones((64, 64), np.float32))
        with profiler.count() as c:
            a @ a
        assert c.library_calls == 1  # one cuBLAS gemm
        with profiler.count() as c:
            cuarray.fft.fft(a[0])
        assert c.library_calls == 1  # one cuFFT exec


@requires_gpu
def test_graph_launches():
    with cuarray.Device(0):
        s = cuarray.cuda.Stream(non_blocking=True)
        x = cuarray.ones(1024, dtype=np.float32)
        with s:
            s.begin_capture()
            y = x * 2
            g = s.end_capture()
        with profiler.count() as c:
            g.launch(s)
            g.launch(s)
            s.synchronize()
        assert c.graph_launches == 2 and c.launches == 0
        assert float(y[0]) == 2.0


def test_count_block_sees_other_threads(device):
    # the counters are process-wide: a block's deltas include other threads' work
    x = _arr(device)
    with profiler.count() as c:
        t = threading.Thread(target=lambda: float(x[0]))
        t.start()
        t.join()
    assert c.transfers_d2h == 1


def test_count_inside_is_zero_until_the_end(device):
    x = _arr(device)
    with profiler.count() as c:
        float(x[0])
        assert c.transfers_d2h == 0  # filled in when the block ends
    assert c.transfers_d2h == 1


def test_runtime_memcpy_kinds():
    if not cuarray.cuda.is_available():
        pytest.skip("cuda.runtime.memcpy needs a GPU")
    from cuarray.cuda import runtime
    h = np.arange(8, dtype=np.float64)
    with cuarray.Device(0):
        d = cuarray.empty(8)
        with profiler.count() as c:
            runtime.memcpy(d.data.ptr, h.ctypes.data, 64, runtime.memcpyHostToDevice)
            runtime.memcpy(h.ctypes.data, d.data.ptr, 64, runtime.memcpyDeviceToHost)
        assert c.bytes_h2d == 64 and c.bytes_d2h == 64 and c.syncs == 2

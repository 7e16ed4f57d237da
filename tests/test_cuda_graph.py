"""CUDA graphs (issue 40): Stream.begin_capture / end_capture / is_capturing and
cuarray.cuda.Graph, against eager results (the same work run without capture)."""
import gc

import numpy as np
import pytest

import cuarray as ca
from conftest import requires_gpu


def test_names_and_cpu_device():
    assert ca.cuda.Graph is ca.cuda.graph.Graph
    with pytest.raises(TypeError):
        ca.cuda.Graph()
    with ca.Device("cpu"):
        s = ca.cuda.Stream()
        assert s.is_capturing() is False
        with pytest.raises(RuntimeError, match="cpu device has no CUDA graphs"):
            s.begin_capture()


def _stream():
    return ca.cuda.Stream(non_blocking=True)


def _end_open_capture(s):
    if s.is_capturing():
        try:
            s.end_capture()
        except (RuntimeError, ca.cuda.CUDAError):
            pass


def _captured(s, work, mode=None):
    """work() captured on s once the work queued before it is done: (the graph,
    what work returned)."""
    s.synchronize()
    s.begin_capture(mode=mode)
    r = work()
    return s.end_capture(), r


def _replayed(s, work, mode=None):
    """_captured(s, work, mode) with its graph launched once and waited for."""
    g, r = _captured(s, work, mode)
    g.launch(s)
    s.synchronize()
    return g, r


def _invalidated_capture(s):
    """A capture on s that a host read invalidates (CUDAError): its input and the
    result read (the callers hold both, as the capture left them)."""
    x = ca.ones(100, dtype=np.float32)
    s.synchronize()
    s.begin_capture()
    y = x.sum()
    with pytest.raises(ca.cuda.CUDAError):
        float(y)  # a host read cannot be captured
    return x, y


@pytest.fixture
def stream():
    """A non-blocking stream. A capture that a failing test left open on it is
    ended afterwards: an open capture makes CUDA refuse every device-wide wait, so
    one failure would fail every later GPU test of this worker."""
    s = _stream()
    yield s
    _end_open_capture(s)


def _chain(x):
    return ((x * 2 + 1) ** 2).sum(), ca.sqrt(ca.abs(x)).max()


@requires_gpu
@pytest.mark.parametrize("n", [1000, 1 << 20])  # small eager ops and deferred (fused) ones
def test_capture_and_replay_elementwise_and_reductions(stream, n):
    s = stream
    h = np.random.default_rng(0).standard_normal(n).astype(np.float32)
    with s:
        x = ca.asarray(h)
        s.synchronize()
        s.begin_capture()
        assert s.is_capturing()
        total, peak = _chain(x)
        g = s.end_capture()
        assert not s.is_capturing()
        g.upload(s)
        for k in range(3):
            x[...] = ca.asarray(h * (k + 1))
            g.launch(s)
            s.synchronize()
            want_t, want_p = _chain(ca.asarray(h * (k + 1)))
            np.testing.assert_allclose(float(total), float(want_t), rtol=1e-5)
            assert float(peak) == float(want_p)


@requires_gpu
def test_capture_libraries(stream):
    rng = np.random.default_rng(1)
    a_h = rng.standard_normal((128, 128)).astype(np.float32)
    v_h = rng.standard_normal(4096).astype(np.float32)
    with stream as s:
        a, v = ca.asarray(a_h), ca.asarray(v_h)
        (a @ a).sum(), ca.fft.fft(v), ca.sort(v)  # warm: plans, handles, work areas
        g, (p, f, srt) = _replayed(s, lambda: (a @ a, ca.fft.fft(v), ca.sort(v)))
    np.testing.assert_allclose(ca.asnumpy(p), a_h @ a_h, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(ca.asnumpy(f), np.fft.fft(v_h), rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(ca.asnumpy(srt), np.sort(v_h))


@requires_gpu
def test_graph_buffers_are_not_reused_by_other_work(stream):
    with stream as s:
        x = ca.arange(1 << 16, dtype=np.float32)

        def work():
            t = x * 3  # a temporary inside the capture (freed in it): kept by the graph
            return t + 1

        g, y = _captured(s, work)
        gc.collect()
        others = [ca.full(1 << 16, 7.0, dtype=np.float32) for _ in range(8)]
        g.launch(s)
        s.synchronize()
    np.testing.assert_array_equal(ca.asnumpy(y), np.arange(1 << 16, dtype=np.float32) * 3 + 1)
    for o in others:
        assert float(o.min()) == 7.0 and float(o.max()) == 7.0


@requires_gpu
def test_graph_death_returns_its_memory(stream):
    with stream as s:
        x = ca.ones(1 << 18, dtype=np.float32)
        s.synchronize()
        gc.collect()
        before = ca.get_default_memory_pool().used_bytes()
        g, y = _replayed(s, lambda: (x * 2).cumsum())
        assert ca.get_default_memory_pool().used_bytes() > before
        del g, y
        gc.collect()
        assert ca.get_default_memory_pool().used_bytes() == before


@requires_gpu
def test_synchronizing_inside_a_capture_fails_cleanly(stream):
    with stream as s:
        x, y = _invalidated_capture(s)
        with pytest.raises(ca.cuda.CUDAError):
            s.end_capture()  # the capture was invalidated
        assert not s.is_capturing()
        # the thread and the stream are usable again, and can capture again
        assert float(ca.asarray([1.0, 2.0]).sum()) == 3.0
        s.begin_capture()
        z = x + 1
        g = s.end_capture()
        g.launch(s)
        s.synchronize()
    assert float(z.sum()) == 200.0


@requires_gpu
def test_capture_errors(stream):
    null = ca.cuda.Stream.null
    with pytest.raises(RuntimeError, match="legacy default stream"):
        null.begin_capture()
    s = stream
    with pytest.raises(RuntimeError, match="not being captured"):
        s.end_capture()
    with pytest.raises(ValueError, match="mode must be"):
        s.begin_capture(mode=7)
    with s:
        s.begin_capture()
        t = _stream()
        try:
            with pytest.raises(RuntimeError, match="already capturing"):
                t.begin_capture()
            with pytest.raises(RuntimeError, match="not being captured"):
                t.end_capture()
        finally:
            _end_open_capture(t)
        g = s.end_capture()
    assert isinstance(g, ca.cuda.Graph)


@requires_gpu
def test_captured_random_replays_the_same_numbers(stream):
    """A capture records the generator's counter as launched: each replay draws
    the same numbers (as CuPy's and PyTorch's graphs without a generator hook)."""
    s = stream
    rs = ca.random.default_rng(5)
    with s:
        rs.random(10)
        g, r = _replayed(s, lambda: rs.random(1000, dtype=np.float32))
        first = ca.asnumpy(r)
        g.launch(s)
        s.synchronize()
        np.testing.assert_array_equal(ca.asnumpy(r), first)
    assert 0 <= first.min() and first.max() < 1


@requires_gpu
@pytest.mark.parametrize("mode", [0, 1, 2])  # global, thread-local, relaxed
def test_capture_allocates_in_every_mode(stream, mode):
    """The pools grow inside a capture in every capture mode (pool_upstream.c calls
    cudaMalloc in relaxed mode), and pass over cached blocks last used on another
    stream: the wait for that stream cannot be captured (pool.h)."""
    h = np.arange(1 << 18, dtype=np.float32)
    for n in (1000, 1 << 18):  # cached blocks of the null stream, of both sizes
        t = ca.ones(n, dtype=np.float32)
        del t
    ca.cuda.runtime.deviceSynchronize()
    with stream as s:
        x = ca.asarray(h)
        small = ca.asarray(h[:1000])
        x * 2 + 1, small * 3  # warm: kernels loaded before the capture
        g, (y, z) = _replayed(s, lambda: (x * 2 + 1, small * 3), mode)
    np.testing.assert_array_equal(ca.asnumpy(y), h * 2 + 1)
    np.testing.assert_array_equal(ca.asnumpy(z), h[:1000] * 3)


@requires_gpu
def test_an_invalidating_error_ends_the_capture(stream):
    """CUDA invalidates a capture at an operation it refuses; the error raised then
    ends the capture, so the process works on even if end_capture is never called."""
    with stream as s:
        x, y = _invalidated_capture(s)
        assert not s.is_capturing()
        ca.cuda.runtime.deviceSynchronize()  # refused while a capture is open
        t = _stream()
        t.begin_capture()  # this thread may capture again
        t.end_capture()
    assert float(ca.asarray([1.0, 2.0]).sum()) == 3.0
    with pytest.raises(RuntimeError, match="not being captured"):
        s.end_capture()  # t's capture reported and replaced s's ended one

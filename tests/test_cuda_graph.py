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


def _chain(x):
    return ((x * 2 + 1) ** 2).sum(), ca.sqrt(ca.abs(x)).max()


@requires_gpu
@pytest.mark.parametrize("n", [1000, 1 << 20])  # small eager ops and deferred (fused) ones
def test_capture_and_replay_elementwise_and_reductions(n):
    s = _stream()
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
def test_capture_libraries():
    rng = np.random.default_rng(1)
    a_h = rng.standard_normal((128, 128)).astype(np.float32)
    v_h = rng.standard_normal(4096).astype(np.float32)
    s = _stream()
    with s:
        a, v = ca.asarray(a_h), ca.asarray(v_h)
        (a @ a).sum(), ca.fft.fft(v), ca.sort(v)  # warm: plans, handles, work areas
        s.synchronize()
        s.begin_capture()
        p = a @ a
        f = ca.fft.fft(v)
        srt = ca.sort(v)
        g = s.end_capture()
        g.launch(s)
        s.synchronize()
    np.testing.assert_allclose(ca.asnumpy(p), a_h @ a_h, rtol=1e-4, atol=1e-3)
    np.testing.assert_allclose(ca.asnumpy(f), np.fft.fft(v_h), rtol=1e-4, atol=1e-3)
    np.testing.assert_array_equal(ca.asnumpy(srt), np.sort(v_h))


@requires_gpu
def test_graph_buffers_are_not_reused_by_other_work():
    s = _stream()
    with s:
        x = ca.arange(1 << 16, dtype=np.float32)
        s.synchronize()
        s.begin_capture()
        t = x * 3          # a temporary inside the capture: kept by the graph
        y = t + 1
        del t
        g = s.end_capture()
        gc.collect()
        others = [ca.full(1 << 16, 7.0, dtype=np.float32) for _ in range(8)]
        g.launch(s)
        s.synchronize()
    np.testing.assert_array_equal(ca.asnumpy(y), np.arange(1 << 16, dtype=np.float32) * 3 + 1)
    for o in others:
        assert float(o.min()) == 7.0 and float(o.max()) == 7.0


@requires_gpu
def test_graph_death_returns_its_memory():
    s = _stream()
    with s:
        x = ca.ones(1 << 18, dtype=np.float32)
        s.synchronize()
        gc.collect()
        before = ca.get_default_memory_pool().used_bytes()
        s.begin_capture()
        y = (x * 2).cumsum()
        g = s.end_capture()
        g.launch(s)
        assert ca.get_default_memory_pool().used_bytes() > before
        del g, y
        gc.collect()
        assert ca.get_default_memory_pool().used_bytes() == before


@requires_gpu
def test_synchronizing_inside_a_capture_fails_cleanly():
    s = _stream()
    with s:
        x = ca.ones(100, dtype=np.float32)
        s.synchronize()
        s.begin_capture()
        y = x.sum()
        with pytest.raises(ca.cuda.CUDAError):
            float(y)  # a host read cannot be captured
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
def test_capture_errors():
    null = ca.cuda.Stream.null
    with pytest.raises(RuntimeError, match="legacy default stream"):
        null.begin_capture()
    s = _stream()
    with pytest.raises(RuntimeError, match="not being captured"):
        s.end_capture()
    with pytest.raises(ValueError, match="mode must be"):
        s.begin_capture(mode=7)
    with s:
        s.begin_capture()
        t = _stream()
        with pytest.raises(RuntimeError, match="already capturing"):
            t.begin_capture()
        with pytest.raises(RuntimeError, match="not being captured"):
            t.end_capture()
        g = s.end_capture()
    assert isinstance(g, ca.cuda.Graph)


@requires_gpu
def test_captured_random_replays_the_same_numbers():
    """A capture records the generator's counter as launched: each replay draws
    the same numbers (as CuPy's and PyTorch's graphs without a generator hook)."""
    s = _stream()
    rs = ca.random.default_rng(5)
    with s:
        rs.random(10)
        s.synchronize()
        s.begin_capture()
        r = rs.random(1000, dtype=np.float32)
        g = s.end_capture()
        g.launch(s)
        s.synchronize()
        first = ca.asnumpy(r)
        g.launch(s)
        s.synchronize()
        np.testing.assert_array_equal(ca.asnumpy(r), first)
    assert 0 <= first.min() and first.max() < 1

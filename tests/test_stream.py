"""Streams and events: CuPy's names; synchronous on the cpu device."""

import threading
import time

import pytest

import cuarray
from cuarray import cuda
from conftest import errors_in_new_thread


def test_null_stream():
    s = cuda.Stream.null
    assert s.ptr == 0
    assert cuda.Stream(null=True) is s
    assert s == cuda.Stream(null=True)
    assert cuda.Stream.ptds.ptr == 2
    assert cuda.Stream(ptds=True) is cuda.Stream.ptds
    assert s != cuda.Stream.ptds
    assert "null" in repr(s)


def test_current_stream_default_is_null(device):
    assert cuda.get_current_stream(device) is cuda.Stream.null


def test_stream_on_device(device):
    with cuarray.Device(device):
        s = cuda.Stream()
        assert s.device_id == cuarray.Device(device).id
        s.synchronize()
        assert s.done is True
        if device == "cpu":
            assert s.ptr == 0
        else:
            assert s.ptr not in (0, 1, 2)
            assert s != cuda.Stream.null
        assert s == s and hash(s) == hash(s)
        nb = cuda.Stream(non_blocking=True)
        assert nb.non_blocking and not s.non_blocking


def test_with_stream_nests_and_restores(device):
    with cuarray.Device(device):
        a, b = cuda.Stream(), cuda.Stream()
        assert cuda.get_current_stream() is cuda.Stream.null
        with a as x:
            assert x is a
            assert cuda.get_current_stream() is a
            with b:
                assert cuda.get_current_stream() is b
                with cuda.Stream.null:
                    assert cuda.get_current_stream() is cuda.Stream.null
                assert cuda.get_current_stream() is b
            assert cuda.get_current_stream() is a
        assert cuda.get_current_stream() is cuda.Stream.null


def test_with_stream_restores_on_exception(device):
    with cuarray.Device(device):
        s = cuda.Stream()
        with pytest.raises(ValueError):
            with s:
                raise ValueError
        assert cuda.get_current_stream() is cuda.Stream.null


def test_current_stream_is_thread_local(device):
    with cuarray.Device(device):
        s = cuda.Stream()
        seen = []

        def body():
            with cuarray.Device(device):
                seen.append(cuda.get_current_stream())
        with s:
            t = threading.Thread(target=body)
            t.start()
            t.join()
            assert cuda.get_current_stream() is s
        assert seen == [cuda.Stream.null]


def test_stream_kept_alive_while_current(device):
    import gc
    import weakref
    with cuarray.Device(device):
        s = cuda.Stream()
        r = weakref.ref(s)
        s.__enter__()
        del s
        gc.collect()
        assert r() is not None and cuda.get_current_stream() is r()
        r().__exit__(None, None, None)
        gc.collect()
        assert r() is None


def test_stream_use(device):
    with cuarray.Device(device):
        s = cuda.Stream()
        assert s.use() is s
        assert cuda.get_current_stream() is s
        cuda.Stream.null.use()
        assert cuda.get_current_stream() is cuda.Stream.null


def test_events(device):
    with cuarray.Device(device):
        s = cuda.Stream()
        e1 = cuda.Event()
        e1.record()
        e2 = s.record()
        assert isinstance(e2, cuda.Event)
        e3 = cuda.Event(block=True)
        assert s.record(e3) is e3
        s.wait_event(e1)
        cuda.Stream.null.wait_event(e3)
        e2.synchronize()
        assert e1.done and e2.done and e3.done
        e4 = cuda.Event()
        e4.record(cuda.Stream.null)
        ms = cuda.get_elapsed_time(e1, e4)
        assert isinstance(ms, float) and ms >= 0
        assert e1.device_id == cuarray.Device(device).id
        if device == "cpu":
            assert e1.ptr == 0


def test_cpu_elapsed_time_measures():
    with cuarray.Device("cpu"):
        a, b = cuda.Event(), cuda.Event()
        a.record()
        time.sleep(0.02)
        b.record()
        assert 15 <= cuda.get_elapsed_time(a, b) < 2000


def test_event_errors(device):
    with cuarray.Device(device):
        with pytest.raises(ValueError):
            cuda.Event(interprocess=True)
        a, b = cuda.Event(), cuda.Event()
        a.record()
        with pytest.raises(ValueError):
            cuda.get_elapsed_time(a, b)  # b never recorded
        with pytest.raises(TypeError):
            cuda.get_elapsed_time(a, 1)
        with pytest.raises(TypeError):
            a.record(stream=3)
        with pytest.raises(TypeError):
            cuda.Stream.null.wait_event(None)
        ev = cuda.Event(disable_timing=True, interprocess=device != "cpu")
        ev.record()
        ev.synchronize()


def test_cpu_event_on_cpu_stream_only():
    with cuarray.Device("cpu"):
        e = cuda.Event()
        s = cuda.Stream()
        e.record(s)
        assert e.done


@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA GPU on this machine")
def test_gpu_mixed_device_errors():
    with cuarray.Device("cpu"):
        ce = cuda.Event()
        cs = cuda.Stream()
    with cuarray.Device(0):
        ge = cuda.Event()
        gs = cuda.Stream()
        with pytest.raises(ValueError):
            ce.record(gs)
        with pytest.raises(ValueError):
            ge.record(cs)
        ge.record()
        gs.wait_event(ce)   # cpu work is already done: no-op
        cs.wait_event(ge)   # the host waits
        with pytest.raises(ValueError):
            cuda.get_elapsed_time(ce, ge)


@pytest.mark.skipif(not cuda.is_available(), reason="no CUDA GPU on this machine")
def test_gpu_external_stream():
    s = cuda.Stream()
    x = cuda.ExternalStream(s.ptr)
    assert x == s and x.ptr == s.ptr and x is not s
    del x  # not owned: must not destroy s's handle
    s.synchronize()
    e = cuda.Event(disable_timing=True)
    e.record(s)
    e.synchronize()
    assert e.done


def test_stream_bad_args():
    with pytest.raises(ValueError):
        cuda.Stream(null=True, ptds=True)
    with pytest.raises(TypeError):
        cuda.Stream(ptr="x")
    with pytest.raises(OverflowError):
        cuda.Stream(ptr=-1)


def test_unbalanced_stream_exit():
    errs = errors_in_new_thread(lambda: cuda.Stream.null.__exit__(None, None, None))
    assert len(errs) == 1


def test_many_streams_and_events_freed(device):
    with cuarray.Device(device):
        for _ in range(200):
            s = cuda.Stream()
            e = s.record()
            e.synchronize()
            del s, e

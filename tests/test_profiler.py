"""cuarray.profiler (CuPy's cupyx.profiler): benchmark()'s result object, its times and
CuPy's printing; time_range as a context manager and a decorator; profile().

CuPy's documented facts checked here: cpu_times has shape (n_repeat,), gpu_times
(len(devices), n_repeat), both in seconds; str() is ``name`` left-aligned in 20
columns, then ``CPU:`` and each ``GPU-<id>:`` with the mean, +/- std, min and max
in microseconds (the user guide's lines are matched by the same pattern).
"""

import math
import re
import time

import numpy as np
import pytest

import cuarray
from cuarray import profiler
from conftest import requires_gpu

# the user guide's example lines (CuPy's Performance Best Practices page)
DOC_LINES = [
    "run                 :    CPU:    49.439 us   +/-  1.875 (min:    47.769 / max:    95.190)"
    " us     GPU-0:    53.416 us   +/-  1.966 (min:    51.200 / max:    99.328) us",
]
_ITEM = r"    (CPU|GPU-\d+):\s*\d+\.\d{3} us   \+/-\s*\d+\.\d{3} \(min:\s*\d+\.\d{3} / max:\s*\d+\.\d{3}\) us"
LINE = re.compile(r".{20}:" + _ITEM + r"( " + _ITEM + r")*")


def _ids(device):
    return () if device == "cpu" else (cuarray.Device(device).id,)


def test_doc_lines_match_the_pattern():
    for line in DOC_LINES:
        assert LINE.fullmatch(line), line


def test_result_attributes_and_shapes(device):
    with cuarray.Device(device):
        a = cuarray.arange(1000, dtype=np.float32)
        r = profiler.benchmark(lambda x: x * 2 + 1, (a,), n_repeat=25, n_warmup=2)
    assert r.name == "<lambda>"
    assert r.devices == _ids(device)
    assert isinstance(r.cpu_times, np.ndarray) and r.cpu_times.dtype == np.float64
    assert r.cpu_times.shape == (25,)
    assert isinstance(r.gpu_times, np.ndarray) and r.gpu_times.dtype == np.float64
    assert r.gpu_times.shape == (len(r.devices), 25)
    assert (r.cpu_times > 0).all() and (r.cpu_times < 1).all()
    assert (r.gpu_times > 0).all() and (r.gpu_times < 1).all()


def test_printing_format(device):
    with cuarray.Device(device):
        r = profiler.benchmark(cuarray.ones, (10,), n_repeat=5, name="ones")
    s = str(r)
    assert LINE.fullmatch(s), s
    assert s.startswith("ones" + " " * 16 + ":    CPU:")
    assert s.count("GPU-") == len(r.devices)
    assert "GPU-" not in r.to_str() and r.to_str() == r.to_str(show_gpu=False)
    assert s == r.to_str(show_gpu=True)


def test_printed_numbers():
    # made-up times: CPU 1, 3 µs (mean 2, std 1); GPU-0 5, 5 µs (std 0)
    r = profiler._PerfCaseResult("f", np.array([[1e-6, 3e-6], [5e-6, 5e-6]]), (0,))
    assert str(r) == ("f                   :    CPU:     2.000 us   +/-  1.000 (min:     1.000"
                      " / max:     3.000) us     GPU-0:     5.000 us   +/-  0.000 (min:"
                      "     5.000 / max:     5.000) us")
    one = profiler._PerfCaseResult("a_long_benchmark_name", np.array([[2.5e-6]]), ())
    assert str(one) == "a_long_benchmark_name:    CPU:     2.500 us"  # no spread for one


def test_times_measure_the_call(device):
    with cuarray.Device(device):
        r = profiler.benchmark(time.sleep, (0.002,), n_repeat=3, n_warmup=0)
    assert r.name == "sleep"
    assert (r.cpu_times >= 0.002).all() and (r.cpu_times < 0.5).all()
    # the events bracket the call, so the GPU span covers the host's sleep too
    assert (r.gpu_times >= 0.0015).all()


def test_warmup_repeat_counts_and_arguments(device):
    seen = []

    def f(x, *, y):
        seen.append((x, y))

    with cuarray.Device(device):
        r = profiler.benchmark(f, (1,), {"y": 2}, n_repeat=7, n_warmup=3)
    assert seen == [(1, 2)] * 10 and r.cpu_times.shape == (7,)
    seen.clear()
    with cuarray.Device(device):
        r = profiler.benchmark(f, (1,), {"y": 2}, n_repeat=0, n_warmup=0)
    assert seen == [] and r.cpu_times.shape == (0,)
    assert r.gpu_times.shape == (len(_ids(device)), 0)
    assert "nan" in str(r)


def test_max_duration_stops_early(device):
    with cuarray.Device(device):
        r = profiler.benchmark(time.sleep, (0.001,), n_repeat=10000, n_warmup=0,
                               max_duration=0.02)
        assert 1 <= r.cpu_times.size < 100
        assert r.gpu_times.shape == (len(r.devices), r.cpu_times.size)
        one = profiler.benchmark(lambda: None, n_repeat=50, max_duration=0)
    assert one.cpu_times.shape == (1,)  # the limit is checked after each repeat


def test_name_of_a_callable_object():
    class Op:
        def __call__(self):
            return 1

    assert profiler.benchmark(Op(), n_repeat=2).name == "Op"
    assert profiler.benchmark(Op(), n_repeat=2, name="mine").name == "mine"


def test_cpu_device_has_no_gpu_rows():
    # the cpu device has no GPU clock: CPU times only, devices == (), (0, n) gpu_times
    for devices in (("cpu",), (-1,), [cuarray.Device("cpu")], ()):
        r = profiler.benchmark(lambda: None, n_repeat=4, devices=devices)
        assert r.devices == () and r.gpu_times.shape == (0, 4)
        assert "GPU" not in str(r)
    with cuarray.Device("cpu"):
        assert profiler.benchmark(lambda: None, n_repeat=4).devices == ()


@requires_gpu
def test_devices_argument_on_gpu():
    with cuarray.Device("cpu"):  # devices names the GPU even when the host is current
        r = profiler.benchmark(lambda: None, n_repeat=4, devices=(0, "cpu", "cuda:0"))
    assert r.devices == (0,) and r.gpu_times.shape == (1, 4)
    assert "GPU-0:" in str(r)


@pytest.mark.parametrize("kwargs, exc", [
    ({"func": 3}, TypeError),
    ({"args": [1]}, TypeError),
    ({"kwargs": [("a", 1)]}, TypeError),
    ({"n_repeat": 2.0}, TypeError),
    ({"n_repeat": -1}, ValueError),
    ({"n_warmup": -1}, ValueError),
    ({"n_warmup": True}, TypeError),
    ({"name": 5}, TypeError),
    ({"max_duration": "1"}, TypeError),
    ({"devices": 0}, TypeError),
    ({"devices": ("tpu",)}, ValueError),
    ({"devices": (3.5,)}, TypeError),
])
def test_bad_arguments(kwargs, exc):
    call = {"func": lambda: None, "n_repeat": 1}
    call.update(kwargs)
    with pytest.raises(exc):
        profiler.benchmark(**call)


def test_overhead_per_repeat_on_cpu():
    # the loop adds two clock reads and an append per repeat (CPU only here)
    def noop():
        pass

    n = 20000
    best = math.inf
    for _ in range(3):
        t = time.perf_counter()
        profiler.benchmark(noop, n_repeat=n, n_warmup=0, devices=("cpu",))
        best = min(best, (time.perf_counter() - t) / n)
    assert best < 5e-6, best * 1e6


# ---- time_range, profile ------------------------------------------------------------

def test_time_range_context_manager(device):
    with cuarray.Device(device):
        with profiler.time_range("outer", color_id=1):
            with profiler.time_range("inner", argb_color=0xFF112233, sync=True) as tr:
                x = cuarray.ones(8) + 1
            assert isinstance(tr, profiler.time_range)
        np.testing.assert_array_equal(cuarray.asnumpy(x), np.full(8, 2.0))


def test_time_range_decorator(device):
    calls = []

    @profiler.time_range()
    def step(v):
        calls.append(v)
        return v * 2

    @profiler.time_range("named", color_id=0, sync=True)
    def other():
        return cuarray.zeros(3)

    with cuarray.Device(device):
        assert step(3) == 6 and step(4) == 8
        assert cuarray.asnumpy(other()).tolist() == [0, 0, 0]
    assert calls == [3, 4] and step.__name__ == "step"
    deco = profiler.time_range()  # one object, two functions: each keeps its own name
    f, g = deco(lambda: 1), deco(len)
    assert f() == 1 and g("ab") == 2


def test_time_range_exception_closes_range():
    with pytest.raises(KeyError):
        with profiler.time_range("fails"):
            raise KeyError("k")
    with profiler.time_range("after"):  # the stack is still balanced
        pass


def test_time_range_bad_arguments():
    with pytest.raises(ValueError, match="message"):
        with profiler.time_range():
            pass
    with pytest.raises(TypeError):
        profiler.time_range(b"bytes")
    with pytest.raises(ValueError):
        profiler.time_range("x", color_id=99)
    with pytest.raises(ValueError):
        profiler.time_range("x", argb_color=1 << 33)


def test_profile_is_cuda_profilers():
    assert profiler.profile is cuarray.cuda.profiler.profile
    assert cuarray.cuda.profile is cuarray.cuda.profiler.profile
    assert set(profiler.__all__) == {"benchmark", "time_range", "profile", "counters",
                                     "count", "Counters"}  # the last three: issue 40
    assert cuarray.profiler is profiler


@requires_gpu
def test_profile_block_on_gpu():
    with cuarray.Device(0), profiler.profile():
        r = profiler.benchmark(cuarray.ones, (100,), n_repeat=3)
    assert r.gpu_times.shape == (1, 3)


# ---- the event loop, on the cpu device's events (host timestamps) -------------------
# On a GPU, benchmark() times with events read back every _CHUNK repeats; the cpu
# device's events run the same loop here, so its chunking is tested without a GPU.

def _event_rows(func, n, max_duration=math.inf, args=()):
    return np.array(profiler._repeat_gpu(func, args, {}, n, max_duration, ("cpu",)))


@pytest.mark.parametrize("n", [1, profiler._CHUNK, 2 * profiler._CHUNK + 5])
def test_event_times_across_chunks(n):
    rows = _event_rows(time.sleep, n, args=(0.0003,))
    assert rows.shape == (2, n)
    # each pair of events brackets its own repeat's call, whatever the chunk
    assert (rows[0] >= 0.0003).all() and (rows[1] >= rows[0]).all()
    assert (rows[1] < rows[0] + 0.01).all()


def test_event_loop_stops_mid_chunk():
    rows = _event_rows(time.sleep, 1000, max_duration=0.01, args=(0.001,))
    assert rows.shape[0] == 2 and 1 <= rows.shape[1] < profiler._CHUNK
    assert (rows[1] >= 0.001).all()


def test_event_loop_reuses_events_and_nests():
    _event_rows(lambda: None, 3)
    spare = profiler._spare_events.cpu
    before = [id(e) for pair in spare for e in pair]
    inner = []
    rows = _event_rows(lambda: inner.append(_event_rows(lambda: None, 5)), 4)
    assert rows.shape == (2, 4) and all(r.shape == (2, 5) for r in inner)
    after = {id(e) for pair in profiler._spare_events.cpu for e in pair}
    assert set(before) <= after  # handed back; the nested run used its own
    assert len(profiler._spare_events.cpu) >= 4 + 5

"""cuarray.profiler: CuPy's ``cupyx.profiler`` -- benchmark(), time_range(), profile().

benchmark(func, ...) times `func` per repeat: CPU time by time.perf_counter around
the call, GPU time by a pair of CUDA events recorded on the current stream of each
device in `devices` (CuPy's method). On the cpu device there is no GPU clock: the
result has CPU times only, an empty ``gpu_times`` of shape (0, n) and
``devices == ()`` (cpu entries in `devices` are dropped; the CPU times already cover
the cpu device's work, which is synchronous).

time_range() opens an NVTX range for Nsight Systems around a block or each call of
a decorated function. cuarray compiles NVTX 3 (header-only) into its extension, so
NVTX is always present: with no profiler attached, and in a host-only build, the
range is a no-op costing a few nanoseconds (see cuarray.cuda.nvtx).

counters() and count() answer "why is my GPU code slow" in numbers: kernel
launches, library calls, transfers and bytes each way, and host waits for the
device, since the process started (or the last ``counters(reset=True)``), or over
a ``with count() as c:`` block. They are plain process-wide integers incremented
by the C core under the GIL (csrc/runtime/watch.h), so counting costs nothing
measurable; work of other threads during a count() block is in its deltas too.
"""

import contextlib
import math
import threading
import time

import numpy

from . import _core
from .cuda import nvtx as _nvtx
from .cuda.profiler import profile

__all__ = ["benchmark", "time_range", "profile", "counters", "count", "Counters"]


class _PerfCaseResult:
    """What benchmark() returns, with CuPy's attributes: ``name``, ``cpu_times``
    (seconds, shape (n,)), ``gpu_times`` (seconds, shape (len(devices), n)) and
    ``devices`` (the GPU ordinals timed). str() is CuPy's one-line summary."""

    def __init__(self, name, times, devices):
        self.name = name
        self._times = times  # row 0: CPU, then one row per device
        self.devices = devices

    @property
    def cpu_times(self):
        return self._times[0]

    @property
    def gpu_times(self):
        return self._times[1:]

    @staticmethod
    def _to_str_per_item(label, t):
        us = t * 1e6
        mean = us.mean() if us.size else math.nan  # n_repeat=0: no warning from NumPy
        s = f"    {label}:{mean:10.03f} us"
        if t.size > 1:  # one sample has no spread to show
            s += (f"   +/- {us.std():6.03f} (min:{us.min():10.03f} "
                  f"/ max:{us.max():10.03f}) us")
        return s

    def to_str(self, show_gpu=False):
        """The summary line: name, CPU mean +/- std (min / max) in µs, and with
        `show_gpu` the same for each device (``GPU-<ordinal>``)."""
        items = [self._to_str_per_item("CPU", self.cpu_times)]
        if show_gpu:
            items += [self._to_str_per_item(f"GPU-{d}", self.gpu_times[i])
                      for i, d in enumerate(self.devices)]
        return f"{self.name:<20s}:" + " ".join(items)

    def __str__(self):
        return self.to_str(show_gpu=True)

    def __repr__(self):
        return (f"<cuarray.profiler result {self.name!r}: {self.cpu_times.size} repeats, "
                f"devices={self.devices}>")


def _device_ids(devices):
    """The GPU ordinals to time: the current device (None), or each of `devices`
    (ordinals, 'cuda:N', 'cpu' or Device objects); the cpu device has no events."""
    if devices is None:
        devices = (_core.get_device_id(),)
    elif not isinstance(devices, (tuple, list)):
        raise TypeError(f"`devices` should be a tuple of devices, not "
                        f"{type(devices).__name__}")
    ids = []
    for d in devices:
        i = d if isinstance(d, int) and not isinstance(d, bool) else _core.Device(d).id
        if i >= 0 and i not in ids:
            ids.append(i)
    return tuple(ids)


def _check(func, args, kwargs, n_repeat, name, n_warmup, max_duration):
    if not callable(func):
        raise TypeError(f"`func` should be a callable object, not {type(func).__name__}")
    if not isinstance(args, tuple):
        raise TypeError(f"`args` should be a tuple, not {type(args).__name__}")
    if not isinstance(kwargs, dict):
        raise TypeError(f"`kwargs` should be a dict, not {type(kwargs).__name__}")
    for label, v in (("n_repeat", n_repeat), ("n_warmup", n_warmup)):
        if not isinstance(v, int) or isinstance(v, bool):
            raise TypeError(f"`{label}` should be an int, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"`{label}` must be non-negative, not {v}")
    if name is not None and not isinstance(name, str):
        raise TypeError(f"`name` should be a str, not {type(name).__name__}")
    if not isinstance(max_duration, (int, float)) or isinstance(max_duration, bool):
        raise TypeError(f"`max_duration` should be a number of seconds, not "
                        f"{type(max_duration).__name__}")


def benchmark(func, args=(), kwargs={}, n_repeat=10000, *, name=None, n_warmup=10,
              max_duration=math.inf, devices=None):
    """Time ``func(*args, **kwargs)``: `n_warmup` untimed calls, then up to `n_repeat`
    timed ones, stopping early once `max_duration` seconds have passed.

    Returns an object with ``name`` (default: func.__name__), ``cpu_times`` and
    ``gpu_times`` (seconds, one row per device of ``devices``). GPU times come from
    CUDA events on each device's current stream (read every 32 repeats, outside
    the CPU timing; CuPy waits for them every repeat, which costs more per repeat).
    """
    _check(func, args, kwargs, n_repeat, name, n_warmup, max_duration)
    if name is None:
        name = getattr(func, "__name__", type(func).__name__)
    ids = _device_ids(devices)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    if ids:
        rows = _repeat_gpu(func, args, kwargs, n_repeat, max_duration, ids)
    else:
        rows = [_repeat_cpu(func, args, kwargs, n_repeat, max_duration)]
    return _PerfCaseResult(name, numpy.array(rows, dtype=numpy.float64), ids)


def _repeat_cpu(func, args, kwargs, n_repeat, max_duration):
    """CPU times only: the loop body is two clock reads and an append."""
    clock = time.perf_counter
    cpu = []
    add = cpu.append
    start = clock()
    for _ in range(n_repeat):
        t1 = clock()
        func(*args, **kwargs)
        t2 = clock()
        add(t2 - t1)
        if t2 - start >= max_duration:
            break
    return cpu


# Events are read back every _CHUNK repeats, not every repeat: a wait for the GPU
# per repeat (CuPy's way) costs a host-GPU round trip each time, which would be most
# of benchmark()'s overhead. Between reads the GPU may run behind the host, but each
# repeat's events bracket its own work in stream order, so its GPU time is the same;
# each chunk starts with the GPU idle.
_CHUNK = 32
_spare_events = threading.local()  # device -> [(Event, Event), ...] not in use


def _take_events(d, k):
    """k event pairs of device d, taken from this thread's spares (so a benchmark
    inside the timed function gets its own) or made."""
    spare = _spare_events.__dict__.setdefault(d, [])
    take = spare[len(spare) - min(k, len(spare)):]
    del spare[len(spare) - len(take):]
    if len(take) < k:
        with _core.Device(d):
            take += [(_core.Event(), _core.Event()) for _ in range(k - len(take))]
    return take


def _repeat_gpu(func, args, kwargs, n_repeat, max_duration, ids):
    """CPU times, then one row of GPU times per device of `ids`."""
    k = max(1, min(n_repeat, _CHUNK))
    evs = [_take_events(d, k) for d in ids]
    try:
        for d in ids:  # the warm-up's work must not land in the first repeat
            _core.Device(d).synchronize()
        return _timed_loop(func, args, kwargs, n_repeat, max_duration, evs)
    finally:
        for d, e in zip(ids, evs):
            _spare_events.__dict__[d].extend(e)


def _timed_loop(func, args, kwargs, n_repeat, max_duration, evs):
    elapsed, clock = _core.get_elapsed_time, time.perf_counter
    rows = [[] for _ in range(1 + len(evs))]
    i, k = 0, len(evs[0])
    start = clock()
    for r in range(n_repeat):
        for e in evs:
            e[i][0].record()
        t1 = clock()
        func(*args, **kwargs)
        t2 = clock()
        for e in evs:
            e[i][1].record()
        rows[0].append(t2 - t1)
        i += 1
        stop = t2 - start >= max_duration
        if i == k or stop or r == n_repeat - 1:  # read the chunk (waits for the GPU)
            for row, e in zip(rows[1:], evs):
                row.extend(elapsed(a, b) * 1e-3 for a, b in e[:i])
            i = 0
        if stop:
            break
    return rows


class time_range(contextlib.ContextDecorator):
    """time_range(message=None, color_id=None, argb_color=None, sync=False)

    An NVTX range over a ``with`` block, or over each call of a decorated function
    (`message` defaults to the function's name). `argb_color` (0xAARRGGBB) wins
    over `color_id` (CuPy's colour table); `sync` waits for the current device
    before the range opens and before it closes, so the range spans the GPU work.
    Without a profiler attached (or NVTX) it costs a few nanoseconds.
    """

    def __init__(self, message=None, color_id=None, argb_color=None, sync=False):
        if message is not None:
            _nvtx._message(message)  # a TypeError now, not at the first call
        self.message = message
        self._color = (color_id, argb_color)
        self._argb = _nvtx._argb(-1 if color_id is None else color_id, argb_color)
        self.sync = sync

    def __call__(self, func):
        if self.message is None:  # a range per function: this object stays reusable
            name = getattr(func, "__name__", type(func).__name__)
            return time_range(name, *self._color, sync=self.sync)(func)
        return super().__call__(func)

    def __enter__(self):
        if self.message is None:
            raise ValueError("time_range used as a context manager needs a message")
        if self.sync:
            _core.Device().synchronize()
        _core._nvtx_push(self.message, self._argb)
        return self

    def __exit__(self, *exc):
        if self.sync:
            _core.Device().synchronize()
        _core._nvtx_pop()
        return False


class Counters:
    """A snapshot (or, from count(), the change over a block) of cuarray's work:

    launches        kernel launches: each launch of one of cuarray's kernels (a
                    fused element-wise program counts once), of a user kernel
                    (RawKernel, ElementwiseKernel, ...) and of the readback kernel
                    of float(x) & co. on a GPU; on the cpu device each host loop
                    cuarray runs in its place (so a program counts the same on
                    both, but for GPU-only steps such as readbacks)
    library_calls   calls into cuBLAS, cuFFT, cuRAND, cuSOLVER and cuSPARSE, one
                    per operation (a batch counts once); on the cpu device the
                    host LAPACK of cuarray's solver path and cuRAND's host
                    generator count, while the routines the cpu device hands to
                    NumPy (matmul, linalg, FFT, sort) count nothing
    transfers_h2d, transfers_d2h, bytes_h2d, bytes_d2h
                    copies of array data between host memory and an array (each
                    way, and their bytes): get()/asnumpy, set(), asarray of host
                    data, element reads (float(x), item()), tolist, printing of
                    device memory, read-backs of counts and index checks,
                    cuda.runtime.memcpy with a host kind; on the cpu device the
                    same copies between host buffers (a zero-copy wrap of a NumPy
                    array moves nothing and counts nothing)
    syncs           host waits for device work: Stream/Device/Event.synchronize,
                    blocking copies, element reads and read-backs (on the cpu
                    device, which is synchronous, the same points count)
    graph_launches  cuda.Graph launches
    """

    __slots__ = ("launches", "library_calls", "transfers_h2d", "transfers_d2h",
                 "bytes_h2d", "bytes_d2h", "syncs", "graph_launches")

    def __init__(self, values=None, **kw):
        values = dict(values or {}, **kw)
        for k in self.__slots__:
            setattr(self, k, int(values.pop(k, 0)))
        if values:
            raise TypeError(f"Counters: unknown counters {sorted(values)}")

    def as_dict(self):
        """The counters as a dict, in the order of the attributes."""
        return {k: getattr(self, k) for k in self.__slots__}

    def __sub__(self, other):
        if not isinstance(other, Counters):
            return NotImplemented
        return Counters({k: getattr(self, k) - getattr(other, k) for k in self.__slots__})

    def __eq__(self, other):
        if isinstance(other, Counters):
            return self.as_dict() == other.as_dict()
        if isinstance(other, dict):
            return self.as_dict() == other
        return NotImplemented

    __hash__ = None  # mutable (count()'s result fills in at the block's end)

    def __repr__(self):
        return "Counters(" + ", ".join(f"{k}={v}" for k, v in self.as_dict().items()) + ")"


def counters(reset=False):
    """The counters since the process started or the last ``counters(reset=True)``
    (a Counters snapshot; `reset` zeroes them after reading)."""
    return Counters(_core._counters(bool(reset)))


@contextlib.contextmanager
def count():
    """``with count() as c:``: c holds the counters' changes over the block once it
    ends (zeros inside it); the process-wide counters are not reset."""
    delta = Counters()
    start = _core._counters(False)
    try:
        yield delta
    finally:
        end = _core._counters(False)
        for k in Counters.__slots__:
            setattr(delta, k, end[k] - start[k])

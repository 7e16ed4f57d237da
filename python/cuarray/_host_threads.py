"""Two host threads for the cpu device: one routine over two halves at once.

NumPy's sorts, searchsorted and FFT gufuncs release the GIL while they run, so on
a host with two or more cores the two halves of independent work (the rows of a
row sort, chunks of searchsorted's queries, the lines of an FFT along an axis) can
run at the same time. Each half is the very routine on a view, so results are the
same bits as one call over the whole. Callers decide by size whether a split pays
(a hand-off costs about 0.1 ms here); this module only runs the halves, and runs
both on the calling thread when the worker is slow to start.

The worker thread is made on first use, never at import; so is concurrent.futures
imported (it brings logging, queue and traceback: about 3 ms of ``import cuarray``).
"""

import os as _os
import threading as _threading


def _cores():
    try:
        return len(_os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return _os.cpu_count() or 1


# One core: a second thread only adds hand-offs. Tests set it to force the path.
ENABLED = _cores() >= 2

_lock = _threading.Lock()
_pool = None


def _worker():
    global _pool
    if _pool is None:
        with _lock:
            if _pool is None:
                from concurrent.futures import ThreadPoolExecutor
                _pool = ThreadPoolExecutor(1, thread_name_prefix="cuarray-host")
    return _pool


def _forget():
    """A forked child has no worker thread: make a new pool on its first use."""
    global _pool, _lock
    _pool, _lock = None, _threading.Lock()


if hasattr(_os, "register_at_fork"):
    _os.register_at_fork(after_in_child=_forget)


def both(fn, first, second):
    """(fn(*first), fn(*second)): the second here, the first on the worker thread,
    or here too when the worker has not started it by then (on a host whose other
    core is busy, waiting for the worker to be scheduled costs more than the half).

    An exception from either is raised only after both have finished (neither is
    left writing into memory the caller is about to drop)."""
    claim = _threading.Lock()  # whoever takes it runs the first half

    def run_first():
        return fn(*first) if claim.acquire(blocking=False) else _NOT_RUN

    fut = _worker().submit(run_first)
    try:
        r2 = fn(*second)
    except BaseException:
        if not claim.acquire(blocking=False):
            from concurrent.futures import wait
            wait((fut,))  # the worker is running the first half
        raise
    if claim.acquire(blocking=False):
        return fn(*first), r2
    return fut.result(), r2


_NOT_RUN = object()


def halves(shape, skip):
    """The first axis other than `skip` of length >= 2 (the one to halve), and
    index tuples selecting its two halves; None when no axis qualifies."""
    for ax, n in enumerate(shape):
        if ax != skip and n >= 2:
            pre = (slice(None),) * ax
            return ax, pre + (slice(0, n // 2),), pre + (slice(n // 2, None),)
    return None

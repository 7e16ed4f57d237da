"""cuarray.cuda.profiler: cudaProfilerStart / cudaProfilerStop, by CuPy's names."""

import contextlib

from .. import _core


def start():
    """Start profiling (cudaProfilerStart) on the current GPU."""
    _core._profiler(True)


def stop():
    """Stop profiling (cudaProfilerStop) on the current GPU."""
    _core._profiler(False)


@contextlib.contextmanager
def profile():
    """Profile the block: start() on entry, stop() on exit."""
    start()
    try:
        yield
    finally:
        stop()


__all__ = ["start", "stop", "profile"]

"""Profiler: benchmark()'s own cost, cuarray.profiler.benchmark beside CuPy's
cupyx.profiler.benchmark on a function that does nothing.

Each call times 100 repeats of ``noop`` (no warm-up), so the value is 100 repeats'
overhead plus the call's fixed part (events, the result's arrays): per repeat it is
the value / 100 (the issue's target: <= 5 µs a repeat on the GPU). On the GPU both
record two events on the current stream and wait for the second every repeat; on the
cpu device cuarray reads the clock only (no GPU times).
"""

from harness import Case

REPEATS = 100


def noop():
    pass


def _cuarray(ca):
    from cuarray.profiler import benchmark
    return lambda: benchmark(noop, n_repeat=REPEATS, n_warmup=0)


def _cupy(cp):
    from cupyx.profiler import benchmark
    return lambda: benchmark(noop, n_repeat=REPEATS, n_warmup=0)


CASES = [
    Case(f"profiler.benchmark(noop, n_repeat={REPEATS}) (per call; / {REPEATS} = a repeat)", {
        "cuarray": _cuarray,
        "cupy": _cupy,
    }, mode="wall", unit="us", target=f"<= {5 * REPEATS}", group="profiler"),
]

"""The transfer guard's and the counters' cost per call (issue 40: "a disabled transfer
guard costs nothing measurable per call").

float(x) of a 0-d float32 array and ``a + b`` on 1024 float32, per call, three
ways for cuarray: the guard at "allow" (the default: one thread-local read per transfer
site), the guard's checked path (host-to-device at "disallow", so float(x)'s
device-to-host site takes the check and passes), and inside ``profiler.count()`` (the
counters are always on; the row shows the block costs nothing per call). CuPy, PyTorch
and NumPy give the same calls' figures beside them. Compare the three cuarray rows:
the first two differ by the cold check (tens of ns), the first and third not at all
(the three cuarray variants run in fresh processes, timed alike).
"""

import numpy as np

from harness import Case

SMALL = 1024


def _scalar(mod):
    x = np.ones((), dtype=np.float32)  # 0-d: NumPy 2 refuses float() of a 1-element 1-d
    if mod.__name__ == "torch":
        t = mod.as_tensor(x, device="cuda")
        return lambda: float(t)
    a = mod.asarray(x)
    return lambda: float(a)


def _add(mod):
    x = np.ones(SMALL, dtype=np.float32)
    if mod.__name__ == "torch":
        a = mod.as_tensor(x, device="cuda")
    else:
        a = mod.asarray(x)
    return lambda: a + a


# The guard's levels are per thread and a count() block stays open for the whole
# case, so the variants run in a fresh interpreter each ("process" mode), the
# default among them, timed the same way: the median per-call microseconds of 21
# loops of N calls, synchronized once per loop.
_PROCESS = """
import statistics, time, numpy as np, cuarray as ca
a = ca.asarray(np.ones({n}, dtype=np.float32))
fn = {call}
{enter}
dev = ca.cuda.Device()
N = 2000
fn(); dev.synchronize()
ts = []
for _ in range(21):
    t = time.perf_counter()
    for _ in range(N):
        fn()
    dev.synchronize()
    ts.append((time.perf_counter() - t) / N)
print(statistics.median(ts) * 1e6)
"""

_CALLS = {"float": ("lambda: float(a)", "()"), "add": ("lambda: a + a", SMALL)}
_ENTER = {"allow": "",
          "checked": "ca.transfer_guard_host_to_device('disallow').__enter__()",
          "count": "ca.profiler.count().__enter__()"}


def _process(call, enter):
    src = _PROCESS.format(call=_CALLS[call][0], n=_CALLS[call][1], enter=_ENTER[enter])
    return {"cuarray": lambda ca: (lambda: src)}


def _all(setup):
    return {"cuarray": setup, "cupy": setup, "torch": setup, "numpy": setup}


CASES = [
    Case("float(x), 0-d float32, per call (guard at 'allow')", _all(_scalar),
         mode="wall", unit="us", group="guard"),
    Case("a + a, 1024 float32, per call (guard at 'allow')", _all(_add),
         mode="wall", unit="us", group="guard"),
]
for _call, _what in (("float", "float(x), 0-d float32"), ("add", "a + a, 1024 float32")):
    for _enter, _how in (("allow", "guard at 'allow' (default)"),
                         ("checked", "guard checked (h2d 'disallow', d2h passes)"),
                         ("count", "inside profiler.count()")):
        CASES.append(Case(f"{_what}, per call, fresh process: {_how}",
                          _process(_call, _enter), mode="process", unit="us",
                          repeats=3, group="guard"))

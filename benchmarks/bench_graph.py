"""CUDA graph replay against eager issue (issue 40: "a captured graph of 20 small
element-wise ops on 1024 float32 replays in <= 25% of the time of issuing them
eagerly", beside CuPy's cuda.Graph and PyTorch's torch.cuda.CUDAGraph).

The sequence is ten rounds of ``x = x * b; x = x + c`` on 1024 float32 (20 dependent
launches, each allocating its result). Both rows run on one non-blocking stream per
library; the graph is captured once in setup and each call is one replay. The figure
is wall microseconds per sequence with the queue kept full (harness "wall" mode), so
the eager row is the Python + launch cost of 20 ops and the graph row one graph
launch. The note reads the ratio graph / eager off the two rows of one run.
"""

import numpy as np

from harness import Case, Skip

N = 1024
ROUNDS = 10  # two ops a round


def _inputs(mod):
    rng = np.random.default_rng(0)
    hs = [rng.standard_normal(N).astype(np.float32) for _ in range(3)]
    if mod.__name__ == "torch":
        return [mod.as_tensor(h, device="cuda") for h in hs]
    return [mod.asarray(h) for h in hs]


def _sequence(a, b, c):
    x = a
    for _ in range(ROUNDS):
        x = x * b
        x = x + c
    return x


def _stream(mod):
    if mod.__name__ == "torch":
        return mod.cuda.Stream()
    return mod.cuda.Stream(non_blocking=True)


def _eager(mod):
    if mod.__name__ == "numpy":
        raise Skip("GPU case")
    s = _stream(mod)
    a, b, c = _inputs(mod)
    if mod.__name__ == "torch":
        def run():
            with mod.cuda.stream(s):
                _sequence(a, b, c)
        return run

    def run():
        with s:
            _sequence(a, b, c)
    return run


def _graph(mod):
    name = mod.__name__
    if name == "numpy":
        raise Skip("GPU case")
    s = _stream(mod)
    a, b, c = _inputs(mod)
    if name == "torch":
        with mod.cuda.stream(s):  # warm-up on the side stream, as PyTorch asks
            _sequence(a, b, c)
        s.synchronize()
        g = mod.cuda.CUDAGraph()
        with mod.cuda.graph(g, stream=s):
            out = _sequence(a, b, c)
        return lambda keep=out: g.replay()  # keep: the graph's output stays alive
    with s:
        _sequence(a, b, c)  # warm the pool and the kernel caches before capture
        s.synchronize()
        s.begin_capture()
        out = _sequence(a, b, c)
        g = s.end_capture()
    return lambda keep=out: g.launch(s)  # keep: the graph's output stays alive


def _all(setup):
    return {"cuarray": setup, "cupy": setup, "torch": setup, "numpy": setup}


CASES = [
    Case("20 element-wise ops on 1024 float32, issued eagerly (us per sequence)",
         _all(_eager), mode="wall", unit="us", group="graph"),
    Case("the same 20 ops replayed from a captured CUDA graph (us per sequence)",
         _all(_graph), mode="wall", unit="us", target="<= 0.25x the eager row",
         group="graph"),
]

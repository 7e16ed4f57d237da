"""NumPy API compositions (issue 13): per-call cost of small ones, GB/s of large ones.

Per call (wall time, queue kept full): `hstack([a, b])` and `tile(a, 4)` of 1024
float32, `tril` of a 256^2 float32 matrix. Throughput (CUDA events): `isclose(a, b)`
on 2^26 float32 (9 bytes per element: two reads, one bool written) and `diff` on 2^26
float32 (8 bytes per element). PyTorch's spellings: cat, Tensor.repeat, tril, isclose,
diff.
"""

from harness import Case

SMALL = 1024
BIG = 1 << 26
SQ = 256


def _arrays(mod, n, k):
    """k arrays of n values in [0, 1) float32 on the library's device."""
    import numpy as np
    rng = np.random.default_rng(0)
    hs = [rng.random(n, dtype=np.float32) for _ in range(k)]
    name = mod.__name__
    if name == "torch":
        return [mod.as_tensor(h, device="cuda") for h in hs]
    if name == "numpy":
        return hs
    return [mod.asarray(h) for h in hs]


def _hstack(mod):
    a, b = _arrays(mod, SMALL, 2)
    if mod.__name__ == "torch":
        return lambda: mod.cat([a, b])
    return lambda: mod.hstack([a, b])


def _tile(mod):
    (a,) = _arrays(mod, SMALL, 1)
    if mod.__name__ == "torch":
        return lambda: a.repeat(4)
    return lambda: mod.tile(a, 4)


def _tril(mod):
    (a,) = _arrays(mod, SQ * SQ, 1)
    m = a.reshape(SQ, SQ)
    return lambda: mod.tril(m)


def _isclose(mod):
    a, b = _arrays(mod, BIG, 2)
    return lambda: mod.isclose(a, b)


def _diff(mod):
    (a,) = _arrays(mod, BIG, 1)
    return lambda: mod.diff(a)


def _libs(make, numpy=True):
    libs = ("cuarray", "cupy", "torch") + (("numpy",) if numpy else ())
    return {lib: make for lib in libs}


CASES = [
    Case("hstack([a, b]), two 1024 float32, per call", _libs(_hstack), mode="wall",
         unit="us", target="<= 8", group="numpy_api"),
    Case("tile(a, 4), 1024 float32, per call", _libs(_tile), mode="wall", unit="us",
         target="<= 8", group="numpy_api"),
    Case("tril of 256^2 float32, per call", _libs(_tril), mode="wall", unit="us",
         target="<= 6", group="numpy_api"),
    Case("isclose(a, b), 2^26 float32 (9 bytes/element)", _libs(_isclose, numpy=False),
         mode="gpu", unit="GB/s", work=9 * BIG, target=">= 4000", group="numpy_api",
         repeats=5),
    Case("diff(a), 2^26 float32 (8 bytes/element)", _libs(_diff, numpy=False),
         mode="gpu", unit="GB/s", work=8 * BIG, target=">= 4000", group="numpy_api",
         repeats=5),
]

"""NumPy API compositions (issue 13): per-call cost of small ones, GB/s of large ones.

Per call (wall time, queue kept full): `hstack([a, b])` and `tile(a, 4)` of 1024
float32, `tril` of a 256^2 float32 matrix. Throughput (CUDA events): `isclose(a, b)`
on 2^26 float32 (9 bytes per element: two reads, one bool written) and `diff` on 2^26
float32 (8 bytes per element). PyTorch's spellings: cat, Tensor.repeat, tril, isclose,
diff. The math and NaN-reduction rows: `nansum`, `nanmax` of 2^26 float32 with 1%
NaN (4 bytes per element), `hypot(a, b)` 2^26 float32 (12 bytes), `packbits` of
2^26 bools (1.125 bytes), `gcd` of 2^24 int32 pairs (12 bytes); PyTorch has nansum,
hypot and gcd (no nanmax or packbits). In cpu mode the sizes are a quarter, and NumPy
runs beside cuarray's cpu device on every row.
"""

from harness import CPU_MODE, Case, size

SMALL = 1024
BIG = size(1 << 26, 1 << 24)
LOG = BIG.bit_length() - 1
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


def _unary(name):
    """fn(a) of BIG elements."""
    def setup(mod):
        (a,) = _arrays(mod, BIG, 1)
        return lambda: getattr(mod, name)(a)
    return setup


def _binary(name):
    """fn(a, b) of BIG elements each."""
    def setup(mod):
        a, b = _arrays(mod, BIG, 2)
        return lambda: getattr(mod, name)(a, b)
    return setup


_isclose = _binary("isclose")
_diff = _unary("diff")


def _with_nans(mod):
    import numpy as np
    h = np.random.default_rng(1).random(BIG, dtype=np.float32)
    h[::97] = np.nan
    if mod.__name__ == "torch":
        return mod.as_tensor(h, device="cuda")
    return h if mod.__name__ == "numpy" else mod.asarray(h)


def _nan_reduction(name):
    def setup(mod):
        a = _with_nans(mod)
        return lambda: getattr(mod, name)(a)
    return setup


_nansum = _nan_reduction("nansum")
_nanmax = _nan_reduction("nanmax")


_hypot = _binary("hypot")


def _packbits(mod):
    (a,) = _arrays(mod, BIG, 1)
    b = a > 0.5
    return lambda: mod.packbits(b)


def _gcd(mod):
    import numpy as np
    rng = np.random.default_rng(2)
    hs = [rng.integers(1, 1 << 30, BIG >> 2, dtype=np.int32) for _ in range(2)]
    if mod.__name__ == "torch":
        a, b = (mod.as_tensor(h, device="cuda") for h in hs)
    elif mod.__name__ == "numpy":
        a, b = hs
    else:
        a, b = (mod.asarray(h) for h in hs)
    return lambda: mod.gcd(a, b)


def _libs(make, numpy=True, torch=True):
    """numpy=False: NumPy only in cpu mode (on a GPU run its figure is host time)."""
    libs = (("cuarray", "cupy") + (("torch",) if torch else ())
            + (("numpy",) if numpy or CPU_MODE else ()))
    return {lib: make for lib in libs}


CASES = [
    Case("hstack([a, b]), two 1024 float32, per call", _libs(_hstack), mode="wall",
         unit="us", target="<= 8", group="numpy_api"),
    Case("tile(a, 4), 1024 float32, per call", _libs(_tile), mode="wall", unit="us",
         target="<= 8", group="numpy_api"),
    Case("tril of 256^2 float32, per call", _libs(_tril), mode="wall", unit="us",
         target="<= 6", group="numpy_api"),
    Case(f"isclose(a, b), 2^{LOG} float32 (9 bytes/element)", _libs(_isclose, numpy=False),
         mode="gpu", unit="GB/s", work=9 * BIG, target=">= 4000", group="numpy_api",
         repeats=5),
    Case(f"diff(a), 2^{LOG} float32 (8 bytes/element)", _libs(_diff, numpy=False),
         mode="gpu", unit="GB/s", work=8 * BIG, target=">= 4000", group="numpy_api",
         repeats=5),
    Case(f"nansum(a), 2^{LOG} float32, 1% NaN (4 bytes/element)", _libs(_nansum, numpy=False),
         mode="gpu", unit="GB/s", work=4 * BIG, target=">= 4000", group="numpy_api",
         repeats=5),
    Case(f"nanmax(a), 2^{LOG} float32, 1% NaN (4 bytes/element)",
         _libs(_nanmax, numpy=False, torch=False), mode="gpu", unit="GB/s", work=4 * BIG,
         group="numpy_api", repeats=5),
    Case(f"hypot(a, b), 2^{LOG} float32 (12 bytes/element)", _libs(_hypot, numpy=False),
         mode="gpu", unit="GB/s", work=12 * BIG, group="numpy_api", repeats=5),
    Case(f"packbits(a), 2^{LOG} bool (1.125 bytes/element)",
         _libs(_packbits, numpy=False, torch=False), mode="gpu", unit="GB/s",
         work=BIG + BIG // 8, group="numpy_api", repeats=5),
    Case(f"gcd(a, b), 2^{LOG - 2} int32 (12 bytes/element)", _libs(_gcd, numpy=False), mode="gpu",
         unit="GB/s", work=12 * (BIG >> 2), group="numpy_api", repeats=5),
]

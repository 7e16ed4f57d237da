"""Reductions: the per-call cost of a small sum, the round trip of a scalar to the host,
and the throughput of full, row and column reductions and argmax.

The GB/s figures count the bytes read (a reduction's output is negligible): 4 bytes per
float32 element. The floor is the GPU's read bandwidth, about the copy figure
(4100-4240 GB/s on the H200).
"""

import numpy as np

from harness import Case, gpu_only as _gpu_only, size, to_lib

V_SMALL = 1024                     # the per-call cases' vector
N_BIG = size(1 << 28, 1 << 24)     # full reductions: 1 GiB of float32 (cpu: 64 MiB)
N_MID = size(1 << 26, 1 << 22)     # the issues' 2^26 rows (norm, nansum beside them)
SIDE = size(16384, 4096)           # the row / column cases: 16384^2 float32 (cpu: 4096^2)


def _random(mod, shape):
    """float32 uniform data made on the device (no 1 GiB host transfer)."""
    name = mod.__name__
    if name == "torch":
        return mod.rand(shape, device="cuda", dtype=mod.float32)
    if name == "cupy":
        return mod.random.random(shape, dtype=mod.float32)
    if name == "cuarray":
        rnd = getattr(mod, "random", None)
        if rnd is not None and hasattr(rnd, "random"):
            try:
                return rnd.random(shape, dtype=np.float32)
            except Exception:
                pass
        # no device generator yet: fill from the host once
        return mod.asarray(np.random.default_rng(0).random(shape, dtype=np.float32))
    return np.random.default_rng(0).random(shape, dtype=np.float32)


# ---- per call --------------------------------------------------------------------

def _sum_small(mod):
    v = to_lib(mod, np.random.default_rng(1).random(V_SMALL, dtype=np.float32))
    return lambda: v.sum()


def _sum_small_roundtrip(mod):
    v = to_lib(mod, np.random.default_rng(1).random(V_SMALL, dtype=np.float32))
    if mod.__name__ == "torch":
        return lambda: v.sum().item()
    return lambda: float(v.sum())


def _sum_axis_small(mod):
    m = to_lib(mod, np.random.default_rng(1).random((32, 32), dtype=np.float32))
    return lambda: m.sum(axis=0) if mod.__name__ != "torch" else m.sum(dim=0)


# ---- throughput -------------------------------------------------------------------

def _sum_big(mod):
    _gpu_only(mod)
    v = _random(mod, (N_BIG,))
    return lambda: v.sum()


def _sum_mid(mod):
    """2^26 float32 (268 MB, ~65 us at the read bandwidth): the size where a full
    reduction's fixed costs (a second launch, the grid's tail) show; one launch
    since the ticket combine (kernels/gpu/reduce_impl.cuh)."""
    _gpu_only(mod)
    v = _random(mod, (N_MID,))
    return lambda: v.sum()


def _sum_rows_mid(mod):
    """4 long rows of 2^24 float32 each, reduced along the rows (split rows, a
    ticket per output)."""
    _gpu_only(mod)
    v = _random(mod, (4, N_MID // 4))
    return lambda: v.sum(axis=1) if mod.__name__ != "torch" else v.sum(dim=1)


def _argmax_big(mod):
    _gpu_only(mod)
    v = _random(mod, (N_BIG,))
    return lambda: v.argmax()


def _full_range(dtype, seed):
    """N_BIG elements of dtype on the host: floats in [0, 1), integers over the
    dtype's whole range."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.random(N_BIG, dtype=np.float64).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, N_BIG, dtype=dtype)


def _minmax_big(fn, dtype):
    """a.max() / a.min() of N_BIG elements of dtype (ints: the full range)."""
    def setup(mod):
        _gpu_only(mod)
        v = to_lib(mod, _full_range(dtype, 3))
        if mod.__name__ == "torch":
            return lambda: getattr(v, "a" + fn)()
        return lambda: getattr(v, fn)()
    return setup


def _strided(fn, dtype, step):
    """a[::step].max() / argmax() / sum() of N_BIG elements of dtype (the run: N_BIG /
    step)."""
    def setup(mod):
        _gpu_only(mod)
        v = to_lib(mod, _full_range(dtype, 4))[::step]
        return lambda: getattr(v, fn)()
    return setup


def _max_axis0(dtype):
    """m.max(axis=0) of SIDE x SIDE/4 of dtype (a column max)."""
    def setup(mod):
        _gpu_only(mod)
        rng = np.random.default_rng(5)
        x = (rng.random((SIDE, SIDE // 4)) * 1000).astype(dtype)
        m = to_lib(mod, x)
        if mod.__name__ == "torch":
            return lambda: m.amax(dim=0)
        return lambda: m.max(axis=0)
    return setup


def _sum_axis(axis):
    def setup(mod):
        _gpu_only(mod)
        m = _random(mod, (SIDE, SIDE))
        if mod.__name__ == "torch":
            return lambda: m.sum(dim=axis)
        return lambda: m.sum(axis=axis)
    return setup


def _sum_axis0_cached(mod):
    """A column sum whose 16 MiB stays in a 32 MiB L3 between calls (cpu) or in
    the GPU's L2 (50 MiB): the adds, not the memory."""
    _gpu_only(mod)
    m = _random(mod, (2048, 2048))
    if mod.__name__ == "torch":
        return lambda: m.sum(dim=0)
    return lambda: m.sum(axis=0)


def _mean_big(mod):
    _gpu_only(mod)
    v = _random(mod, (N_BIG,))
    return lambda: v.mean()


def _var_axis1(mod):
    _gpu_only(mod)
    m = _random(mod, (SIDE // 4, SIDE))
    if mod.__name__ == "torch":
        return lambda: m.var(dim=1, correction=0)
    return lambda: m.var(axis=1)


def _cumsum_big(mod):
    _gpu_only(mod)
    v = _random(mod, (N_BIG // 4,))
    return lambda: v.cumsum(0) if mod.__name__ == "torch" else v.cumsum()


def _cumsum_big_f64(mod):
    _gpu_only(mod)
    v = _random(mod, (N_BIG // 8,))
    if mod.__name__ == "torch":
        v = v.double()
        return lambda: v.cumsum(0)
    v = v.astype(np.float64)
    return lambda: v.cumsum()


def _truth_big(fn, dtype, fill):
    """a.all() / a.any() of N_BIG elements of dtype, all `fill`: every element is
    read (all true for all(), all zero for any(): no early stop)."""
    def setup(mod):
        _gpu_only(mod)
        name = np.dtype(dtype).name
        if mod.__name__ == "torch":
            v = mod.full((N_BIG,), fill, dtype=getattr(mod, name), device="cuda")
        else:
            v = mod.full(N_BIG, fill, dtype=dtype)
        return lambda: getattr(v, fn)()
    return setup


def _all(fn, libs=("cuarray", "numpy", "cupy", "torch")):
    return {lib: fn for lib in libs}


F32 = 4
CASES = [
    Case("a.sum(), 1024 float32, per call", _all(_sum_small), mode="wall", unit="us",
         target="<= 6", floor="3.6-7 (one launch)", group="reduction"),
    Case("float(v.sum()), 1024 float32, round trip", _all(_sum_small_roundtrip), mode="wall",
         unit="us", target="<= 10", group="reduction"),
    Case("m.sum(axis=0), 32x32 float32, per call", _all(_sum_axis_small), mode="wall",
         unit="us", group="reduction"),
    Case(f"a.sum(), 2^{N_BIG.bit_length() - 1} float32 (GB/s read)", _all(_sum_big), mode="gpu", unit="GB/s",
         work=N_BIG * F32, target=">= 4100", floor="~4200 (read bandwidth)",
         group="reduction"),
    Case(f"a.sum(), 2^{N_MID.bit_length() - 1} float32 (GB/s read)", _all(_sum_mid), mode="gpu",
         unit="GB/s", work=N_MID * F32, target=">= 4000", floor="~4200 (read bandwidth)",
         group="reduction"),
    Case(f"sum(axis=1) of 4x2^{N_MID.bit_length() - 3} float32 (GB/s read)", _all(_sum_rows_mid),
         mode="gpu", unit="GB/s", work=N_MID * F32, target=">= 4000", group="reduction"),
    Case(f"argmax(a), 2^{N_BIG.bit_length() - 1} float32 (GB/s read)", _all(_argmax_big), mode="gpu", unit="GB/s",
         work=N_BIG * F32, target=">= 4000", group="reduction"),
    *[Case(f"a.{fn}(), 2^{N_BIG.bit_length() - 1} {np.dtype(dt).name} (GB/s read)",
           _all(_minmax_big(fn, dt)), mode="gpu", unit="GB/s",
           work=N_BIG * np.dtype(dt).itemsize, group="reduction")
      for fn, dt in [("max", np.float32), ("min", np.float32), ("max", np.float64),
                     ("max", np.int64), ("min", np.int32), ("max", np.int16),
                     ("max", np.uint8)]],
    *[Case(f"a.{fn}(), 2^{N_BIG.bit_length() - 1} {np.dtype(dt).name} all {word} "
           f"(GB/s read)", _all(_truth_big(fn, dt, fill)), mode="gpu", unit="GB/s",
           work=N_BIG * np.dtype(dt).itemsize, group="reduction")
      for fn, dt, fill, word in [("all", np.bool_, True, "true"),
                                 ("any", np.float32, 0, "zero")]],
    *[Case(f"a[::{k}].{fn}(), 2^{N_BIG.bit_length() - 1} {np.dtype(dt).name} "
           f"(GB/s of the run's bytes)", _all(_strided(fn, dt, k)), mode="gpu", unit="GB/s",
           work=(N_BIG // k) * np.dtype(dt).itemsize, group="reduction")
      for fn, dt, k in [("max", np.float32, 2), ("argmax", np.int16, 3),
                        ("max", np.float64, 8), ("min", np.int32, 5),
                        ("argmax", np.float32, 32), ("sum", np.float32, 2),
                        ("sum", np.float64, 4), ("sum", np.int64, 3)]],
    *[Case(f"max(axis=0) of {SIDE}x{SIDE // 4} {np.dtype(dt).name} (GB/s read)",
           _all(_max_axis0(dt)), mode="gpu", unit="GB/s",
           work=SIDE * (SIDE // 4) * np.dtype(dt).itemsize, group="reduction")
      for dt in (np.float64, np.int64)],
    Case(f"sum(axis=0) of {SIDE}^2 float32 (GB/s read)", _all(_sum_axis(0)), mode="gpu",
         unit="GB/s", work=SIDE * SIDE * F32, target=">= 4000", group="reduction"),
    Case("sum(axis=0) of 2048^2 float32, cache-resident (GB/s read)", _all(_sum_axis0_cached),
         mode="gpu", unit="GB/s", work=4 * 2048 * 2048, group="reduction"),
    Case(f"sum(axis=1) of {SIDE}^2 float32 (GB/s read)", _all(_sum_axis(1)), mode="gpu",
         unit="GB/s", work=SIDE * SIDE * F32, target=">= 4100", group="reduction"),
    Case(f"a.mean(), 2^{N_BIG.bit_length() - 1} float32 (GB/s read)", _all(_mean_big), mode="gpu", unit="GB/s",
         work=N_BIG * F32, group="reduction"),
    Case(f"var(axis=1) of {SIDE // 4}x{SIDE} float32 (GB/s: two reads)", _all(_var_axis1), mode="gpu",
         unit="GB/s", work=2 * (SIDE // 4) * SIDE * F32, group="reduction"),
    Case(f"cumsum, 2^{N_BIG.bit_length() - 3} float32 (GB/s: two reads + write)", _all(_cumsum_big), mode="gpu",
         unit="GB/s", work=3 * (N_BIG // 4) * F32, group="reduction"),
    # the same timing in issue 17's accounting: 8 bytes an element (one read, one
    # write: what the single-pass scan moves), against its target
    Case(f"cumsum, 2^{N_BIG.bit_length() - 3} float32 (GB/s: read + write)", _all(_cumsum_big),
         mode="gpu", unit="GB/s", work=2 * (N_BIG // 4) * F32, target=">= 2400",
         group="reduction"),
    Case(f"cumsum, 2^{N_BIG.bit_length() - 4} float64 (GB/s: read + write)", _all(_cumsum_big_f64),
         mode="gpu", unit="GB/s", work=2 * (N_BIG // 8) * 8, group="reduction"),
]

"""Indexing: the per-call cost of a basic slice, and gather/scatter/mask throughput.

cuarray's advanced indexing checks every index against its axis on the device and
reads the result back (one synchronize per call, for NumPy's IndexError); CuPy wraps
out-of-range indices without a check, PyTorch checks with a device-side assert. The
GB/s figures count the bytes the kernel must move (indices + elements read + written).
"""

import numpy as np

from harness import Case, gpu_only, to_lib

N_BIG = 1 << 24          # elements for the throughput cases
N_CACHED = 1 << 16       # a gather whose table and indices fit in the caches
V_SMALL = 1024           # the per-call cases' vector


def _rand_idx(n, size):
    return np.random.default_rng(0).integers(0, size, n, dtype=np.int64)


# ---- per call -------------------------------------------------------------------

def _slice_1d(mod):
    v = to_lib(mod, np.arange(V_SMALL, dtype=np.float32))
    return lambda: v[1:-1]


def _slice_2d(mod):
    m = to_lib(mod, np.zeros((64, 64), np.float32))
    return lambda: m[1:-1, ::2]


def _int_index(mod):
    m = to_lib(mod, np.zeros((64, 64), np.float32))
    return lambda: m[3]


def _set_scalar_slice(mod):
    v = to_lib(mod, np.zeros(V_SMALL, np.float32))

    def f():
        v[1:-1] = 2.0
    return f


# ---- throughput -------------------------------------------------------------------

def _gather(mod):
    gpu_only(mod)
    v = to_lib(mod, np.random.default_rng(1).random(N_BIG, dtype=np.float32))
    idx = to_lib(mod, _rand_idx(N_BIG, N_BIG))
    return lambda: v[idx]


def _gather_cached(mod):
    """A table and indices that stay in the caches: the loop, not the memory."""
    gpu_only(mod)
    v = to_lib(mod, np.random.default_rng(1).random(N_CACHED))
    idx = to_lib(mod, _rand_idx(N_CACHED, N_CACHED))
    return lambda: v[idx]


def _gather_rows(mod):
    gpu_only(mod)
    m = to_lib(mod, np.random.default_rng(1).random((N_BIG // 256, 256), dtype=np.float32))
    idx = to_lib(mod, _rand_idx(N_BIG // 256, N_BIG // 256))
    return lambda: m[idx]


def _scatter(mod):
    gpu_only(mod)
    v = to_lib(mod, np.zeros(N_BIG, np.float32))
    idx = to_lib(mod, np.random.default_rng(2).permutation(N_BIG).astype(np.int64))
    vals = to_lib(mod, np.ones(N_BIG, np.float32))

    def f():
        v[idx] = vals
    return f


def _mask(mod):
    gpu_only(mod)
    x = np.random.default_rng(3).random(N_BIG, dtype=np.float32)
    v = to_lib(mod, x)
    m = to_lib(mod, x > 0.5)
    return lambda: v[m]


def _mask_fill(mod):
    gpu_only(mod)
    x = np.random.default_rng(3).random(N_BIG, dtype=np.float32)
    v = to_lib(mod, x)
    m = to_lib(mod, x > 0.5)

    def f():
        v[m] = 0.0
    return f


def _half_true_mask(mod):
    gpu_only(mod)
    return to_lib(mod, np.random.default_rng(4).random(N_BIG, dtype=np.float32) > 0.5)


def _nonzero(mod):
    m = _half_true_mask(mod)
    if mod.__name__ == "torch":
        return lambda: mod.nonzero(m, as_tuple=True)
    return lambda: mod.nonzero(m)


def _count_nonzero(mod):
    m = _half_true_mask(mod)
    return lambda: mod.count_nonzero(m)


def _all(fn, libs=("cuarray", "numpy", "cupy", "torch")):
    return {lib: fn for lib in libs}


CASES = [
    Case("v[1:-1] view, per call", _all(_slice_1d), mode="wall", unit="us",
         target="<= 0.5", group="index"),
    Case("m[1:-1, ::2] view (64x64), per call", _all(_slice_2d), mode="wall", unit="us",
         group="index"),
    Case("m[3] view (64x64), per call", _all(_int_index), mode="wall", unit="us",
         group="index"),
    Case("v[1:-1] = 2.0 (1024 float32), per call", _all(_set_scalar_slice), mode="wall",
         unit="us", group="index"),
    Case("gather v[idx], 2^24 float32, random int64 idx (GB/s: idx + read + write)",
         _all(_gather), mode="gpu", unit="GB/s", work=N_BIG * (8 + 4 + 4), group="index"),
    Case("gather v[idx], 2^16 float64 from 2^16, random int64 idx (GB/s: idx + read + write)",
         _all(_gather_cached), mode="gpu", unit="GB/s", work=N_CACHED * (8 + 8 + 8),
         group="index"),
    Case("gather rows m[idx], 2^16 x 256 float32 (GB/s)", _all(_gather_rows), mode="gpu",
         unit="GB/s", work=(N_BIG // 256) * 8 + N_BIG * 8, group="index"),
    Case("scatter v[perm] = w, 2^24 float32 (GB/s: idx + read + write)", _all(_scatter),
         mode="gpu", unit="GB/s", work=N_BIG * (8 + 4 + 4), group="index"),
    Case("mask v[m], 2^24 float32, half true (GB/s: mask + values read + written)",
         _all(_mask), mode="gpu", unit="GB/s", work=N_BIG * (1 + 4) + N_BIG // 2 * 4,
         group="index"),
    Case("masked fill v[m] = 0, 2^24 float32 (GB/s: mask + write)", _all(_mask_fill),
         mode="gpu", unit="GB/s", work=N_BIG + N_BIG // 2 * 4, group="index"),
    Case("nonzero(m), 2^24 bool, half true (GB/s: mask read + int64 indices written)",
         _all(_nonzero), mode="gpu", unit="GB/s", work=N_BIG + N_BIG // 2 * 8,
         group="index"),
    Case("count_nonzero(m), 2^24 bool, half true (GB/s: mask read)", _all(_count_nonzero),
         mode="gpu", unit="GB/s", work=N_BIG, group="index"),
]

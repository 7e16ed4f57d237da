"""Sorting, searching and counting (issue 17's table): sort and argsort of 2^26 keys,
unique, searchsorted, bincount, median and a segmented sort of 65536 rows of 256.

Figures are G keys (items, queries) per second of device time; the data is made on
the device. The cases are GPU-only: NumPy takes seconds per call at these sizes (its
sort of 2^26 float32 runs at 0.09 G keys/s, argsort at 0.011 on the H200's host).

Measured on the H200 (2026-12-01, one run; CuPy 14.2, PyTorch 2.11):
  sort 2^26 float32      cuarray 38.1   CuPy 37.4   PyTorch 22.5
  argsort 2^26 float32   cuarray 25.9   CuPy 21.8   PyTorch 22.5
  sort 2^26 int64        cuarray 14.2   CuPy 14.8   PyTorch 9.87
  unique 2^26 int64      cuarray 13.7   CuPy 12.3
  (CuPy alone: searchsorted 9.58, bincount 9.28, median 35.0, 65536x256 rows 3.18)
The unique figure predates unique's range sort (CA_SORT_KEY_BITS: 21 of 64 key bits,
3 radix passes instead of 8, for this case), which is not measured yet.
"""

import numpy as np

from harness import Case, gpu_only as _gpu_only, size

N = size(1 << 26, 1 << 22)          # cpu mode: NumPy and cuarray's cpu device beside it
ROWS, COLS = size(65536, 4096), 256
NQ = size(1 << 24, 1 << 20)
LOG, LQ = N.bit_length() - 1, NQ.bit_length() - 1


def _data(mod, n, dtype, hi=None, seed=0):
    """n values of dtype made on the device (uniform floats, integers in [0, hi))."""
    name = mod.__name__
    rng = np.random.default_rng(seed)
    if name == "torch":
        g = mod.Generator(device="cuda").manual_seed(seed)
        if np.dtype(dtype).kind == "f":
            dt = getattr(mod, str(np.dtype(dtype)))
            return mod.rand(n, device="cuda", generator=g, dtype=dt)
        return mod.randint(0, hi or 2**62, (n,), device="cuda", generator=g,
                           dtype=mod.int64)
    if name == "cupy":
        if np.dtype(dtype).kind == "f":
            return mod.random.default_rng(seed).random(n, dtype=dtype)
        return mod.random.default_rng(seed).integers(0, hi or 2**62, n, dtype=dtype)
    if name == "cuarray":
        g = mod.random.default_rng(seed)
        if np.dtype(dtype).kind == "f":
            return g.random(n, dtype=dtype)
        return g.integers(0, hi or 2**62, size=n, dtype=dtype)
    if np.dtype(dtype).kind == "f":
        return rng.random(n, dtype=dtype)
    return rng.integers(0, hi or 2**62, n, dtype=dtype)


def _sort(dtype, arg=False):
    def setup(mod):
        _gpu_only(mod)
        x = _data(mod, N, dtype)
        if mod.__name__ == "torch":
            return (lambda: mod.argsort(x)) if arg else (lambda: mod.sort(x))
        return (lambda: mod.argsort(x)) if arg else (lambda: mod.sort(x))
    return setup


def _sort_rows(mod):
    _gpu_only(mod)
    x = _data(mod, ROWS * COLS, np.float32).reshape(ROWS, COLS)
    if mod.__name__ == "torch":
        return lambda: mod.sort(x, dim=-1)
    return lambda: mod.sort(x, axis=-1)


def _argsort_rows(mod):
    _gpu_only(mod)
    x = _data(mod, ROWS * COLS, np.float32).reshape(ROWS, COLS)
    if mod.__name__ == "torch":
        return lambda: mod.argsort(x, dim=-1, stable=True)
    return lambda: mod.argsort(x, axis=-1, kind="stable")


def _sort_long_rows(mod):
    """Rows of 2048: the largest one-block tile (sort_block.cu)."""
    _gpu_only(mod)
    x = _data(mod, (ROWS // 8) * 2048, np.float32).reshape(ROWS // 8, 2048)
    if mod.__name__ == "torch":
        return lambda: mod.sort(x, dim=-1)
    return lambda: mod.sort(x, axis=-1)


def _unique(mod):
    _gpu_only(mod)
    x = _data(mod, N, np.int64, hi=1 << 20)
    return lambda: mod.unique(x)


def _searchsorted(mod):
    _gpu_only(mod)
    a = _data(mod, NQ, np.float32, seed=1)
    a = mod.sort(a)[0] if mod.__name__ == "torch" else mod.sort(a)
    v = _data(mod, NQ, np.float32, seed=2)
    return lambda: mod.searchsorted(a, v)


def _bincount(mod):
    _gpu_only(mod)
    x = _data(mod, N, np.int64, hi=1 << 20)
    if mod.__name__ == "torch":
        return lambda: mod.bincount(x, minlength=1 << 20)
    if mod.__name__ in ("cuarray",):
        # the counting kernel itself (bincount adds the max/min readbacks)
        return lambda: mod._core._bincount(x, None, 1 << 20)
    return lambda: mod.bincount(x, minlength=1 << 20)


def _bincount_full(mod):
    _gpu_only(mod)
    x = _data(mod, N, np.int64, hi=1 << 20)
    if mod.__name__ == "torch":
        return lambda: mod.bincount(x)
    return lambda: mod.bincount(x)


def _median(mod):
    _gpu_only(mod)
    x = _data(mod, N, np.float32)
    return lambda: mod.median(x)


def _all(fn, libs=("cuarray", "numpy", "cupy", "torch")):
    return {lib: fn for lib in libs}


CASES = [
    Case(f"sort, 2^{LOG} float32 (G keys/s)", _all(_sort(np.float32)), mode="gpu",
         unit="Gkeys/s", work=N, target=">= 36", group="sort"),
    Case(f"argsort, 2^{LOG} float32 (G keys/s)", _all(_sort(np.float32, True)), mode="gpu",
         unit="Gkeys/s", work=N, target=">= 27", group="sort"),
    # TARGETS.md's ">= 17" is its 16.8 of CuPy's plus 1%, and TARGETS.md checks every
    # target as a ratio in one run: CuPy measures 14.8-14.9 here (sessions 5, 8, 9).
    Case(f"sort, 2^{LOG} int64 (G keys/s)", _all(_sort(np.int64)), mode="gpu",
         unit="Gkeys/s", work=N, target=">= 1.01x best", group="sort"),
    Case(f"unique, 2^{LOG} int64 in [0, 2^20) (G keys/s)", _all(_unique), mode="gpu",
         unit="Gkeys/s", work=N, target=">= 18", group="sort"),
    Case(f"searchsorted, 2^{LQ} queries in 2^{LQ} sorted float32 (G queries/s)",
         _all(_searchsorted), mode="gpu", unit="Gqueries/s", work=NQ, target=">= 9.5",
         group="sort"),
    Case(f"bincount kernel, 2^{LOG} int64 in [0, 2^20) (G items/s)", _all(_bincount),
         mode="gpu", unit="Gitems/s", work=N, target=">= 66", group="sort"),
    Case(f"bincount(x), 2^{LOG} int64 in [0, 2^20), with the max read back (G items/s)",
         _all(_bincount_full), mode="gpu", unit="Gitems/s", work=N, group="sort"),
    Case(f"median, 2^{LOG} float32 (G items/s)", _all(_median), mode="gpu", unit="Gitems/s",
         work=N, target=">= 50", group="sort"),
    Case(f"sort(axis=-1), {ROWS}x{COLS} float32 (G keys/s)", _all(_sort_rows), mode="gpu",
         unit="Gkeys/s", work=ROWS * COLS, target=">= best", group="sort"),
    Case(f"argsort(axis=-1, stable), {ROWS}x{COLS} float32 (G keys/s)", _all(_argsort_rows),
         mode="gpu", unit="Gkeys/s", work=ROWS * COLS, group="sort"),
    Case(f"sort(axis=-1), {ROWS // 8}x2048 float32 (G keys/s)", _all(_sort_long_rows),
         mode="gpu", unit="Gkeys/s", work=(ROWS // 8) * 2048, group="sort"),
]

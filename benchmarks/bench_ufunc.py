"""ufunc objects and NumPy's dispatch: per-call cost and the methods' throughput.

Per call (wall time, queue kept full), 1024 float32: ``x.sum()`` beside
``add.reduce(x)`` (the same reduction kernel: the method must cost what sum does)
and ``np.sum(x)`` / ``np.add(x, 1)`` on the library's array (NumPy's
``__array_function__`` / ``__array_ufunc__`` dispatch: at most 1 us over the direct
call). Throughput (CUDA events): ``add.at`` of 2^24 float32 updates into 2^20 bins
(PyTorch: ``index_add_``, and ``scatter_add_`` for the record) and of 2^20 into
2^24 bins (the target big beside the indices), and ``add.outer``
of two 4096 float32 vectors (GB/s of the 64 MiB result written).
"""

from harness import CPU_MODE, Case, Skip, to_lib

SMALL = 1024
BINS = 1 << 20
UPDATES = 1 << 24
OUTER = 4096


def _vec(mod, n, seed=0):
    import numpy as np
    return to_lib(mod, np.random.default_rng(seed).random(n, dtype=np.float32))


def _sum(mod):
    x = _vec(mod, SMALL)
    return lambda: x.sum()


def _add_reduce(mod):
    if mod.__name__ == "torch":
        raise Skip("no ufunc objects")
    x = _vec(mod, SMALL)
    return lambda: mod.add.reduce(x)


def _np_sum(mod):
    import numpy as np
    if mod.__name__ == "torch":
        raise Skip("a CUDA tensor does not dispatch NumPy functions")
    x = _vec(mod, SMALL)
    return lambda: np.sum(x)


def _add_one(mod):
    x = _vec(mod, SMALL)
    return lambda: mod.add(x, 1)


def _np_add_one(mod):
    import numpy as np
    if mod.__name__ == "torch":
        raise Skip("a CUDA tensor does not dispatch NumPy ufuncs")
    x = _vec(mod, SMALL)
    return lambda: np.add(x, 1)


def _scatter_inputs(mod, nbins=BINS, updates=UPDATES):
    import numpy as np
    rng = np.random.default_rng(1)
    idx = rng.integers(0, nbins, size=updates)
    vals = rng.random(updates, dtype=np.float32)
    name = mod.__name__
    if name == "torch":
        return (mod.zeros(nbins, device="cuda"), mod.as_tensor(idx, device="cuda"),
                mod.as_tensor(vals, device="cuda"))
    return mod.zeros(nbins, dtype=np.float32), mod.asarray(idx), mod.asarray(vals)


def _add_at(mod, nbins=BINS, updates=UPDATES):
    bins, idx, vals = _scatter_inputs(mod, nbins, updates)
    if mod.__name__ == "torch":
        return lambda: bins.index_add_(0, idx, vals)
    return lambda: mod.add.at(bins, idx, vals)


def _add_at_numpy_checked(mod):
    """add.at as NumPy defines it: IndexError, nothing updated, on an index out of
    [-n, n). cuarray's add.at does that itself; CuPy's wraps such an index instead
    (a documented difference from NumPy) and PyTorch's index_add_ reports it by an
    asynchronous device assert, so they check first, as a user must for NumPy's
    behaviour."""
    bins, idx, vals = _scatter_inputs(mod)
    n = bins.shape[0]
    if mod.__name__ in ("cuarray", "numpy"):  # both raise NumPy's IndexError themselves
        return lambda: mod.add.at(bins, idx, vals)

    def checked():
        if bool(((idx < -n) | (idx >= n)).any()):
            raise IndexError("index out of bounds")
        if mod.__name__ == "torch":
            bins.index_add_(0, idx, vals)
        else:
            mod.add.at(bins, idx, vals)
    return checked


def _add_at_big_target(mod):
    # a target big beside its indices: cuarray checks them in a pass of their own
    return _add_at(mod, nbins=1 << 24, updates=1 << 20)


def _torch_scatter_add(mod):
    bins, idx, vals = _scatter_inputs(mod)
    return lambda: bins.scatter_add_(0, idx, vals)


def _add_outer(mod):
    a, b = _vec(mod, OUTER), _vec(mod, OUTER, seed=1)
    if mod.__name__ == "torch":
        return lambda: a[:, None] + b
    return lambda: mod.add.outer(a, b)


# NumPy beside the throughput rows in cpu mode (on a GPU run its figure is host time)
_CPU_NUMPY = ("numpy",) if CPU_MODE else ()


def _per_call(title, setup, target, torch=False):
    """A per-call (wall time, us) row of a 1024-element float32 call."""
    libs = ("cuarray", "cupy") + (("torch",) if torch else ()) + ("numpy",)
    return Case(f"{title}, 1024 float32, per call", {lib: setup for lib in libs},
                mode="wall", unit="us", target=target, group="ufunc")


CASES = [
    _per_call("x.sum()", _sum, "<= 6", torch=True),
    _per_call("add.reduce(x)", _add_reduce, "<= x.sum() + 0.3"),
    _per_call("np.sum(x) (__array_function__)", _np_sum, "<= x.sum() + 1"),
    _per_call("add(x, 1)", _add_one, "<= 5", torch=True),
    _per_call("np.add(x, 1) (__array_ufunc__)", _np_add_one, "<= add(x, 1) + 1"),
    Case("add.at, 2^24 float32 updates into 2^20 bins (torch: index_add_)",
         {lib: _add_at for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY}, mode="gpu",
         unit="Gupdates/s", work=UPDATES, target=">= best",
         group="ufunc", repeats=5),
    Case("add.at with NumPy's IndexError, 2^24 float32 updates into 2^20 bins "
         "(CuPy, PyTorch: a bounds check first)",
         {lib: _add_at_numpy_checked
          for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY},
         mode="gpu", unit="Gupdates/s", work=UPDATES, target=">= best", group="ufunc",
         repeats=5),
    Case("add.at, 2^20 float32 updates into 2^24 bins (torch: index_add_)",
         {lib: _add_at_big_target for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY},
         mode="gpu", unit="Gupdates/s", work=1 << 20, group="ufunc", repeats=5),
    Case("torch scatter_add_, 2^24 float32 updates into 2^20 bins (for the record)",
         {"torch": _torch_scatter_add}, mode="gpu", unit="Gupdates/s", work=UPDATES,
         group="ufunc", repeats=5),
    Case("add.outer of two 4096 float32 (GB/s of the result)",
         {lib: _add_outer for lib in ("cuarray", "cupy", "torch") + _CPU_NUMPY}, mode="gpu",
         unit="GB/s", work=4 * OUTER * OUTER, target=">= best", group="ufunc",
         repeats=5),
]

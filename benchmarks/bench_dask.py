"""Dask arrays with cuarray chunks beside Dask arrays with CuPy chunks (issue 18).

A 40000x40000 float32 array in 4000x4000 chunks on one GPU (100 chunks of 64 MB,
made on the device), computed with Dask's threaded scheduler: `x.sum()` and
`(x @ x.T).sum()` (1000 chunk products of 4000^3). Wall seconds per compute(); the
graph is the same for both chunk types. NumPy and PyTorch have no row here (NumPy
would take minutes; PyTorch tensors are not Dask chunks).
"""

import numpy as np

from harness import Case, Skip

N, C = 40000, 4000


def _array(mod):
    if mod.__name__ not in ("cupy", "cuarray"):
        raise Skip("Dask chunks of CuPy or cuarray only")
    try:
        import dask.array as da
    except ImportError:
        raise Skip("dask is not installed")
    if mod.__name__ == "cuarray":
        import cuarray.dask  # noqa: F401  (registers the chunk type)
    k = N // C
    rng = mod.random.default_rng(0)
    blocks = [[rng.random((C, C), dtype=np.float32) for _ in range(k)] for _ in range(k)]
    return da.block(blocks)


def _sum(mod):
    x = _array(mod)
    return lambda: float(x.sum().compute())


def _matmul_sum(mod):
    x = _array(mod)
    return lambda: float((x @ x.T).sum().compute())


_BOTH = {"cupy": None, "cuarray": None}

CASES = [
    Case("dask x.sum(), 40000^2 float32 in 4000^2 chunks", {k: _sum for k in _BOTH},
         unit="s", repeats=3, group="dask"),
    Case("dask (x @ x.T).sum(), 40000^2 float32 in 4000^2 chunks",
         {k: _matmul_sum for k in _BOTH}, unit="s", repeats=3,
         group="dask"),
]

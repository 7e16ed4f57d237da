"""Dask arrays with cuarray chunks beside Dask arrays with CuPy chunks (issue 18).

A 40000x40000 float32 array in 4000x4000 chunks on one GPU (100 chunks of 64 MB,
made on the device), computed with Dask's threaded scheduler: `x.sum()` and
`(x @ x.T).sum()` (1000 chunk products of 4000^3). Wall seconds per compute(); the
graph is the same for both chunk types. On a GPU, NumPy and PyTorch have no row (NumPy
would take minutes; PyTorch tensors are not Dask chunks). On the cpu device the array
is 2000x2000 in 200x200 chunks (the same 100-chunk / 1000-product graphs, sized to
finish in seconds on two cores) and the row beside cuarray's chunks is Dask with NumPy
chunks.

The "chunks' own work" rows run the same chunk calls in a plain loop, without Dask:
the per-task overhead Dask adds is (Dask row - own-work row) / tasks, with the task
counts that setup prints (issue 18).
"""

import numpy as np

from harness import CPU_MODE, Case, Skip, size

N, C = size((40000, 4000), (2000, 200))
SHAPE = f"{N}^2 float32 in {C}^2 chunks"


def _array(mod):
    peers = ("numpy", "cuarray") if CPU_MODE else ("cupy", "cuarray")
    if mod.__name__ not in peers:
        raise Skip(f"Dask chunks of {' or '.join(peers)} only")
    try:
        import dask.array as da
    except ImportError:
        raise Skip("dask is not installed")
    # no `import cuarray.dask`: cuarray registers itself when Dask is imported
    k = N // C
    rng = mod.random.default_rng(0)
    blocks = [[rng.random((C, C), dtype=np.float32) for _ in range(k)] for _ in range(k)]
    return da.block(blocks)


def _tasks(expr, what):
    n = len(dict(expr.__dask_graph__()))
    print(f"  ({what}: {n} tasks)")
    return expr


def _sum(mod):
    x = _array(mod)
    _tasks(x.sum(), "x.sum()")
    return lambda: float(x.sum().compute())


def _matmul_sum(mod):
    x = _array(mod)
    _tasks((x @ x.T).sum(), "(x @ x.T).sum()")
    return lambda: float((x @ x.T).sum().compute())


def _blocks(mod):
    x = _array(mod)
    return [[x.blocks[i, j].compute() for j in range(N // C)] for i in range(N // C)]


def _sum_own_work(mod):
    b = _blocks(mod)
    return lambda: float(sum(float(blk.sum()) for row in b for blk in row))


def _matmul_sum_own_work(mod):
    b = _blocks(mod)
    k = N // C

    def run():
        total = 0.0
        for i in range(k):
            for j in range(k):
                acc = b[i][0] @ b[j][0].T
                for t in range(1, k):
                    acc += b[i][t] @ b[j][t].T
                total += float(acc.sum())
        return total
    return run


_BOTH = {"numpy": None, "cupy": None, "cuarray": None}

CASES = [
    Case(f"dask x.sum(), {SHAPE}", {k: _sum for k in _BOTH},
         unit="s", repeats=3, group="dask"),
    Case(f"dask (x @ x.T).sum(), {SHAPE}",
         {k: _matmul_sum for k in _BOTH}, unit="s", repeats=3,
         group="dask"),
    Case("x.sum()'s chunks' own work, no Dask (100 chunk sums in a loop)",
         {k: _sum_own_work for k in _BOTH}, unit="s", repeats=3, group="dask"),
    Case("(x @ x.T).sum()'s chunks' own work, no Dask (1000 chunk products)",
         {k: _matmul_sum_own_work for k in _BOTH}, unit="s", repeats=3, group="dask"),
]

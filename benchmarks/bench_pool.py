"""Memory pool: allocation + free of 4096 float32 (16 KiB), per call.

Two views of the same cost:
  - the pool itself: cuarray's ``pool.malloc(16384)`` (freed when the Memory is
    dropped), CuPy's ``MemoryPool.malloc``, PyTorch's caching allocator
    (``caching_allocator_alloc`` / ``caching_allocator_delete``);
  - through the array constructor: ``empty(4096, float32)`` in each library,
    which adds the array object around the pool block.
"""

from harness import Case, Skip

N = 4096
NBYTES = N * 4


def _cuarray_pool(ca):
    malloc = ca.get_default_memory_pool().malloc
    return lambda: malloc(NBYTES)


def _cupy_pool(cp):
    malloc = cp.get_default_memory_pool().malloc
    return lambda: malloc(NBYTES)


def _torch_pool(torch):
    alloc = torch.cuda.caching_allocator_alloc
    delete = torch.cuda.caching_allocator_delete
    if alloc is None or delete is None:
        raise Skip("no caching_allocator_alloc in this PyTorch")

    def run():
        delete(alloc(NBYTES))
    return run


def _cuarray_empty(ca):
    import numpy as np
    empty, f32 = ca.empty, np.float32
    return lambda: empty(N, dtype=f32)


def _numpy_empty(np):
    empty, f32 = np.empty, np.float32
    return lambda: empty(N, dtype=f32)


def _cupy_empty(cp):
    empty, f32 = cp.empty, cp.float32
    return lambda: empty(N, dtype=f32)


def _torch_empty(torch):
    empty, f32 = torch.empty, torch.float32
    return lambda: empty(N, dtype=f32, device="cuda")


CASES = [
    Case("empty(4096) float32 alloc+free (pool.malloc)", {
        "cuarray": _cuarray_pool,
        "cupy": _cupy_pool,
        "torch": _torch_pool,
    }, mode="wall", unit="us", target="<= 1.0", floor="1.6 (cudaMallocAsync)",
        group="pool"),
    Case("empty(4096) float32 alloc+free (array)", {
        "cuarray": _cuarray_empty,
        "numpy": _numpy_empty,
        "cupy": _cupy_empty,
        "torch": _torch_empty,
    }, mode="wall", unit="us", target="<= 1.0", floor="1.6 (cudaMallocAsync)",
        group="pool"),
]

"""cuarray.jit: CUDA kernels written in Python, as CuPy's ``cupyx.jit``.

``@cuarray.jit.rawkernel()`` turns a function into a kernel: its Python
(a subset: scalars and arrays, if/elif/else, while, for over range,
break/continue, arithmetic, comparisons, math functions) is translated to
CUDA C++ for the types of the call's arguments and compiled with NVRTC
through RawKernel (cached in memory and on disk). Inside a kernel:
threadIdx, blockIdx, blockDim, gridDim, grid(ndim), gridsize(ndim),
laneid(), warpsize, syncthreads(), syncwarp(), shared_memory(dtype, size),
the atomic_* functions, the warp shuffles, activemask/popc/ffs/match_*_sync and
range(..., unroll=).
"""

from ._builtins import (activemask, atomic_add, atomic_and, atomic_cas, atomic_dec,
                        atomic_exch, atomic_inc, atomic_max, atomic_min, atomic_or,
                        atomic_sub, atomic_xor, blockDim, blockIdx, ffs, grid, gridDim,
                        gridsize, laneid, match_all_sync, match_any_sync, popc,
                        shfl_down_sync, shfl_sync, shfl_up_sync, shfl_xor_sync,
                        shared_memory, syncthreads, syncwarp, threadIdx, warpsize)
from ._builtins import range_ as range  # noqa: A001 (CuPy's name)
from ._rawkernel import JitRawKernel, rawkernel

__all__ = [
    "rawkernel", "JitRawKernel", "threadIdx", "blockIdx", "blockDim", "gridDim", "grid",
    "gridsize", "laneid", "warpsize", "range", "syncthreads", "syncwarp", "shared_memory",
    "atomic_add", "atomic_sub", "atomic_exch", "atomic_min", "atomic_max", "atomic_inc",
    "atomic_dec", "atomic_cas", "atomic_and", "atomic_or", "atomic_xor", "shfl_sync",
    "shfl_up_sync", "shfl_down_sync", "shfl_xor_sync", "activemask", "popc", "ffs",
    "match_any_sync", "match_all_sync",
]

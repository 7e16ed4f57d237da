"""cuarray: NumPy-compatible arrays on CUDA GPUs (and the host), from a C core."""

from . import _core  # noqa: F401

__version__ = _core.__version__

# Runtime: devices, streams, configuration
from . import cuda  # noqa: E402
from ._core import Device, OutOfMemoryError  # noqa: E402,F401
from ._config import show_config  # noqa: E402,F401

# Arrays: the ndarray, dtypes, creation and NumPy transfers (csrc/ndarray.c,
# dtype.c, creation.c, transfer.c)
from ._core import (  # noqa: E402,F401
    ndarray, empty, zeros, ones, full, empty_like, zeros_like, ones_like, full_like,
    asarray, array, ascontiguousarray, asfortranarray, asnumpy, arange, linspace, eye,
    identity,
    bool_, int8, uint8, int16, uint16, int32, uint32, int64, uint64,
    float16, float32, float64, complex64, complex128,
)
from ._core import bool  # noqa: E402,F401,A004  (the Array API's name)
# The array API's names (acos, pow, cumulative_sum, unstack, ...) and its version
from ._array_api import *  # noqa: E402,F401,F403
from ._array_api import __array_api_version__, __array_namespace_info__  # noqa: E402,F401
# NumPy's scalar types, dtype functions taking cuarray arrays, broadcast, flatiter,
# constants (_dtypes.py)
from ._dtypes import *  # noqa: E402,F401,F403
from ._indexing import *  # noqa: E402,F401,F403

# Matrix products (csrc/linalg.c) and random arrays (csrc/random.c)
from ._core import matmul, dot, vdot, inner, outer, tensordot  # noqa: E402,F401
from ._linalg_products import (  # noqa: E402,F401
    einsum, einsum_path, kron, cross, vecdot, trace, matrix_transpose,
)
from . import linalg, random  # noqa: E402,F401

# Fourier transforms (csrc/fft.c over cuFFT, csrc/launch_fft.c; numpy.fft on the cpu)
from . import fft  # noqa: E402,F401

# Memory: pools and the Memory object (csrc/memory.c, csrc/pool.c)
from ._core import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402,F401

# Element-wise functions: one cuarray.ufunc object per op of kernels/ops.def
# (csrc/ufunc.c, csrc/elementwise.c); their methods reduce, accumulate, reduceat,
# outer and at (_ufunc.py)
from ._core import ufunc  # noqa: E402,F401
from ._ufuncs import *  # noqa: E402,F401,F403
from ._ufuncs import abs, round  # noqa: E402,F401,A004
from . import _ufunc  # noqa: E402,F401

# Shapes: indexing is the ndarray's own (csrc/index.c); shape manipulation
# functions (csrc/manip.c)
from ._core import (  # noqa: E402,F401
    reshape, ravel, transpose, permute_dims, swapaxes, moveaxis, squeeze,
    expand_dims, flip, broadcast_to, broadcast_arrays, broadcast_shapes,
    concatenate, concat, stack,
)
from ._manipulation import *  # noqa: E402,F401,F403
from ._functional import *  # noqa: E402,F401,F403

# Interop: DLPack import (csrc/interop.c); __cuda_array_interface__ and __dlpack__
# are ndarray attributes, asarray imports both protocols
from ._core import from_dlpack  # noqa: E402,F401

# Reductions and scans: every function and alias of kernels/reductions.def
# (csrc/reduction.c; sum, prod, mean, max/amax, min/amin, argmax, argmin, var, std,
# any, all, cumsum, cumprod), so that a new row needs no line here.
from ._generated_reductions import NAMES as _RED_NAMES, ALIASES as _RED_ALIASES  # noqa: E402
globals().update({_n: getattr(_core, _n) for _n in (*_RED_NAMES, *_RED_ALIASES)})

# Searching: nonzero, flatnonzero, argwhere, count_nonzero (csrc/search.c); where(cond)
# with one argument forwards to nonzero
from ._core import nonzero, flatnonzero, argwhere, count_nonzero  # noqa: E402,F401


# Sorting, searching, counting, sets and order statistics (csrc/sort.c over CUB,
# kernels/sort*.cu, host_sort.c; compositions in _sorting, _sets, _statistics)
from ._core import partition, argpartition  # noqa: E402,F401
# sort, argsort and searchsorted split large cpu-device calls over two host threads
from ._sort_threads import sort, argsort, searchsorted  # noqa: E402,F401
from ._sorting import lexsort, sort_complex  # noqa: E402,F401
from ._sets import (  # noqa: E402,F401
    unique, unique_all, unique_counts, unique_inverse, unique_values, isin, in1d,
    intersect1d, union1d, setdiff1d, setxor1d,
)
from ._statistics import (  # noqa: E402,F401
    bincount, histogram, histogram2d, histogramdd, histogram_bin_edges, digitize, median,
    percentile,
    quantile, nanmedian, nanpercentile, nanquantile,
)
from ._polynomial import *  # noqa: E402,F401,F403
from ._window import *  # noqa: E402,F401,F403
from ._statistics_extra import *  # noqa: E402,F401,F403
from ._io import *  # noqa: E402,F401,F403
from ._math import *  # noqa: E402,F401,F403
from ._nanfunctions import *  # noqa: E402,F401,F403

# CuPy's runtime surface (issue 14): get_array_module, user kernels (_kernel.py)
from ._kernel import (  # noqa: E402,F401
    RawModule, RawKernel, ElementwiseKernel, ReductionKernel, fuse,
)


def get_array_module(*args):
    """get_array_module(*args)

    cuarray if any argument is a cuarray array, else numpy: code written once
    for both (``xp = get_array_module(x)``).
    """
    for a in args:
        if isinstance(a, ndarray):
            return _cuarray_module
    import numpy
    return numpy


import sys as _sys  # noqa: E402
_cuarray_module = _sys.modules[__name__]
del _sys


# Test helpers taking cuarray and NumPy arrays (numpy.testing's, on host copies):
# imported on first use, as NumPy's own numpy.testing is not imported by `import
# numpy` (it costs 45 ms of `import cuarray`'s 313 on the development machine).
def __getattr__(name):
    if name == "testing":
        import importlib  # (from . import testing would ask this hook again)
        return importlib.import_module(__name__ + ".testing")
    raise AttributeError(f"module 'cuarray' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"testing"})


# The ndarray's composite methods (take, put, trace, flat, tobytes, scatter_add, ...)
from . import _ndarray  # noqa: E402,F401

# NumPy's dispatch: np.add(x, 1), np.sum(x), np.fft.fft(x), ... on cuarray arrays run
# cuarray's functions (__array_ufunc__, __array_function__: _dispatch.py)
from . import _dispatch  # noqa: E402,F401

"""cuarray: NumPy-compatible arrays on CUDA GPUs (and the host), from a C core.

``import cuarray`` loads the C core and the names every program uses (arrays,
creation, element-wise functions, reductions, sorting, shapes, cuda); the other
submodules and their names (linalg, fft, random, testing, user kernels, I/O and
printing, statistics, sets, polynomials, indexing and manipulation helpers, ...)
are imported on first use by the module ``__getattr__`` below (PEP 562, as NumPy
and SciPy do for some submodules), and then cached in this namespace, so a later
``cuarray.einsum`` costs what it did before. ``dir(cuarray)``, ``__all__`` and
``from cuarray import *`` list them all.
"""

from . import _core  # noqa: F401

__version__ = _core.__version__

# Runtime: devices, streams, configuration
from . import cuda  # noqa: E402
from ._core import Device, OutOfMemoryError  # noqa: E402,F401
# The transfer guard's exception and warning (csrc/runtime/watch.c); the guard's
# context managers are imported on first use (_transfer_guard.py)
from ._core import TransferGuardError, TransferGuardWarning  # noqa: E402,F401
from ._config import show_config  # noqa: E402,F401

# Arrays: the ndarray, dtypes, creation and NumPy transfers (csrc/array/ndarray.c,
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
# (indexing helpers: take, put, diag, tril, indices, meshgrid, r_, ... (_indexing.py)
# are imported on first use: _LAZY below)

# Matrix products (csrc/ops/linalg.c); einsum (_einsum.py), kron, cross, ... (_linalg_products.py),
# cuarray.linalg, cuarray.random (csrc/ops/random.c) and cuarray.fft (csrc/ops/fft.c over
# cuFFT, numpy.fft on the cpu) are imported on first use (_LAZY below)
from ._core import vdot, inner, outer, tensordot  # noqa: E402,F401
# matmul and dot with NumPy's out=/casting=/axes= checks over the C calls
# (_outargs.py: one Python call more where those are left out)
from ._outargs import matmul, dot  # noqa: E402,F401

# Memory: pools and the Memory object (csrc/memory/memory.c, csrc/memory/pool.c)
from ._core import get_default_memory_pool, get_default_pinned_memory_pool  # noqa: E402,F401

# Element-wise functions: one cuarray.ufunc object per op of kernels/ops.def
# (csrc/ops/ufunc.c, csrc/ops/elementwise.c); their methods reduce, accumulate, reduceat,
# outer and at (_ufunc.py)
from ._core import ufunc  # noqa: E402,F401
from ._ufuncs import *  # noqa: E402,F401,F403
from ._ufuncs import abs, round  # noqa: E402,F401,A004
from . import _ufunc  # noqa: E402,F401

# Shapes: indexing is the ndarray's own (csrc/ops/index.c); shape manipulation
# functions (csrc/ops/manip.c)
from ._core import (  # noqa: E402,F401
    reshape, ravel, transpose, permute_dims, swapaxes, moveaxis, squeeze,
    expand_dims, flip, broadcast_to, broadcast_arrays, broadcast_shapes, concat,
)
# concatenate and stack with NumPy's out=/casting= checks (_outargs.py)
from ._outargs import concatenate, stack  # noqa: E402,F401
# (the compositions of _manipulation.py and _functional.py on first use: _LAZY)

# Interop: DLPack import (csrc/array/interop.c); __cuda_array_interface__ and __dlpack__
# are ndarray attributes, asarray imports both protocols
from ._core import from_dlpack  # noqa: E402,F401

# Reductions and scans: every function and alias of kernels/reductions.def
# (csrc/ops/reduction.c; sum, prod, mean, max/amax, min/amin, argmax, argmin, var, std,
# any, all, cumsum, cumprod), so that a new row needs no line here.
from ._generated_reductions import NAMES as _RED_NAMES, ALIASES as _RED_ALIASES  # noqa: E402
globals().update({_n: getattr(_core, _n) for _n in (*_RED_NAMES, *_RED_ALIASES)})

# Searching: nonzero, flatnonzero, argwhere, count_nonzero (csrc/ops/search.c); where(cond)
# with one argument forwards to nonzero
from ._core import nonzero, flatnonzero, argwhere, count_nonzero  # noqa: E402,F401


# Sorting, searching, counting, sets and order statistics (csrc/ops/sort.c over CUB,
# kernels/sort*.cu, host_sort.c; compositions in _sorting, _sets, _statistics)
from ._core import partition, argpartition  # noqa: E402,F401
# sort, argsort and searchsorted split large cpu-device calls over two host threads
from ._sort_threads import sort, argsort, searchsorted  # noqa: E402,F401
# (lexsort, sort_complex, the set functions, histograms, median, percentile, ...:
# _LAZY below)


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


# ---------------------------------------------------------------------------
# Imported on first use. Each module below, with the names this namespace takes
# from it (its __all__, or the listed ones), is imported the first time one of them
# is looked up here (cuarray.X, from cuarray import X, getattr, NumPy's dispatch);
# all its names are then stored in this namespace, so later lookups are plain ones.
# The submodules linalg, fft, random and testing likewise (numpy.testing costs 45
# ms of its own; numpy.random, which cuarray.random imports, about 10).
# tests/test_import.py checks each list against its module (and that `import
# cuarray` leaves these modules unimported).
# ---------------------------------------------------------------------------
_LAZY_SUBMODULES = ("linalg", "fft", "random", "testing", "profiler", "jit")
_LAZY_MODULES = {
    # indexing helpers (take, put, diag, tril, indices, meshgrid, r_, ...)
    "_indexing": (
        "take", "put", "take_along_axis", "put_along_axis", "choose", "compress",
        "extract", "place", "putmask", "select", "diag", "diagflat", "diagonal",
        "diag_indices", "diag_indices_from", "fill_diagonal", "indices", "ix_",
        "mask_indices", "ravel_multi_index", "unravel_index", "tri", "tril", "triu",
        "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from",
        "meshgrid", "logspace", "geomspace", "vander"),
    "_index_objects": ("r_", "c_", "s_", "index_exp", "mgrid", "ogrid"),
    # products beside matmul (einsum, kron, cross, ...)
    "_einsum": ("einsum", "einsum_path"),
    "_linalg_products": ("kron", "cross", "vecdot", "matvec", "vecmat", "trace",
                         "matrix_transpose"),
    # shape manipulation compositions (split, stack variants, tile, pad, ...)
    "_manipulation": (
        "append", "array_split", "split", "hsplit", "vsplit", "dsplit", "atleast_1d",
        "atleast_2d", "atleast_3d", "hstack", "vstack", "dstack", "column_stack",
        "delete", "insert", "fliplr", "flipud", "rot90", "roll", "rollaxis", "tile",
        "repeat", "resize", "trim_zeros", "copyto", "require", "asanyarray",
        "asarray_chkfinite", "may_share_memory", "shares_memory", "block", "row_stack"),
    "_pad": ("pad",),
    "_functional": ("apply_along_axis", "apply_over_axes", "piecewise", "vectorize"),
    # sorting compositions, sets and order statistics (csrc/ops/sort.c underneath)
    "_sorting": ("lexsort", "sort_complex"),
    "_sets": (
        "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
        "isin", "in1d", "intersect1d", "union1d", "setdiff1d", "setxor1d"),
    "_statistics": (
        "bincount", "histogram", "histogram2d", "histogramdd", "histogram_bin_edges",
        "digitize", "median", "percentile", "quantile", "nanmedian", "nanpercentile",
        "nanquantile"),
    "_polynomial": (
        "poly", "poly1d", "polyadd", "polysub", "polymul", "polyval", "polyfit", "roots",
        "polyder", "polyint", "polydiv"),
    "_window": ("bartlett", "blackman", "hamming", "hanning", "kaiser"),
    "_statistics_extra": (
        "ptp", "average", "cov", "corrcoef", "isclose", "allclose", "array_equal",
        "array_equiv", "diff", "ediff1d", "gradient", "trapezoid", "interp", "unwrap",
        "sinc", "nan_to_num", "real_if_close", "isneginf", "isposinf", "iscomplex",
        "iscomplexobj", "isreal", "isrealobj", "isfortran", "convolve", "correlate"),
    # printing, saving and loading (NumPy's formatting and file formats)
    "_io": (
        "array2string", "array_repr", "array_str", "set_printoptions",
        "get_printoptions", "printoptions", "format_float_positional",
        "format_float_scientific", "base_repr", "binary_repr", "save", "load", "savez",
        "savez_compressed", "savetxt", "loadtxt", "genfromtxt", "fromfile", "frombuffer",
        "fromiter", "fromstring", "fromfunction"),
    "_math": ("fix", "modf", "frexp", "divmod", "packbits", "unpackbits"),
    # datetime64 / timedelta64 (int64 arrays keeping NumPy's dtype; csrc's creation
    # functions hand such calls to the module: csrc/array/datetime_hook.h)
    "_datetime": ("isnat",),
    "_datetime_cal": ("datetime_as_string", "datetime_data", "busdaycalendar",
                      "is_busday", "busday_offset", "busday_count"),
    "_nanfunctions": (
        "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd"),
    # CuPy's runtime surface (issue 14): user kernels (_kernel.py, over NVRTC)
    "_kernel": ("RawModule", "RawKernel", "ElementwiseKernel", "ReductionKernel", "fuse"),
    # JAX's transfer guard (issue 40; its sites are in C: csrc/runtime/watch.h)
    "_transfer_guard": ("transfer_guard", "transfer_guard_host_to_device",
                        "transfer_guard_device_to_host"),
}
_LAZY = {name: mod for mod, names in _LAZY_MODULES.items() for name in names}


# ml_dtypes' NumPy dtypes (an optional dependency, imported on first use: ImportError
# naming the package without it)
_ML_DTYPES = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def __getattr__(name):
    if name in _ML_DTYPES:
        t = _core._ml_dtype(name)
        globals()[name] = t
        return t
    mod = _LAZY.get(name)
    if mod is None:
        if name not in _LAZY_MODULES and name not in _LAZY_SUBMODULES:
            raise AttributeError(f"module 'cuarray' has no attribute {name!r}")
        mod = name  # the module itself (cuarray.linalg, cuarray._io)
    import importlib  # (from . import X would ask this hook again)
    m = importlib.import_module(__name__ + "." + mod)
    g = globals()
    for n in _LAZY_MODULES.get(mod, ()):
        g.setdefault(n, getattr(m, n))
    return m if mod == name else g[name]


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_SUBMODULES))


# The ndarray's composite methods (take, put, trace, flat, tobytes, scatter_add, ...)
from . import _ndarray  # noqa: E402,F401

# NumPy's dispatch: np.add(x, 1), np.sum(x), np.fft.fft(x), ... on cuarray arrays run
# cuarray's functions (__array_ufunc__, __array_function__: _dispatch.py)
from . import _dispatch  # noqa: E402,F401

# Dask's dispatch knows cuarray's chunks as soon as both are imported (_dask_hook.py)
from . import _dask_hook  # noqa: E402

_dask_hook.install()

# The public names, the ones imported on first use among them (which `from cuarray
# import *` therefore imports); not testing, which NumPy's __all__ leaves out too.
__all__ = sorted({_n for _n in globals() if not _n.startswith("_")} | set(_LAZY)
                 | {"linalg", "fft", "random"})

"""The Python array API's names: the inspection namespace
(cuarray.__array_namespace_info__()), the standard's spellings of NumPy's
element-wise functions (acos, pow, bitwise_invert, ...), and the functions NumPy
has under the standard's names only (cumulative_sum, cumulative_prod, unstack).
"""

import sys as _sys

import numpy as np
from numpy.lib.array_utils import normalize_axis_index as _norm_axis

from . import _core

_ca = _sys.modules[__package__]

# The standard this namespace conforms to (tests/test_array_api.py): the newest
# version whose functions and semantics the conformance tests check.
__array_api_version__ = "2024.12"

# The standard's names of NumPy's element-wise functions (the same objects).
acos = _core.arccos
acosh = _core.arccosh
asin = _core.arcsin
asinh = _core.arcsinh
atan = _core.arctan
atan2 = _core.arctan2
atanh = _core.arctanh
pow = _core.power  # noqa: A001  (the standard's name)
bitwise_invert = _core.invert
bitwise_not = _core.invert  # NumPy's alias
bitwise_left_shift = _core.left_shift
bitwise_right_shift = _core.right_shift

__all__ = ["__array_api_version__", "__array_namespace_info__", "acos", "acosh", "asin",
           "asinh", "atan", "atan2", "atanh", "pow", "bitwise_invert", "bitwise_not",
           "bitwise_left_shift", "bitwise_right_shift", "cumulative_sum",
           "cumulative_prod", "unstack"]


def _cumulative(x, axis, dtype, out, include_initial, scan, initial):
    if not isinstance(x, _core.ndarray):
        x = _core.asarray(x)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` "
                             "argument is required.")
        axis = 0
    if x.ndim == 0:
        x = x.reshape(1)  # NumPy's: a 0-d array scans as one element
    axis = _norm_axis(axis, x.ndim)
    if out is not None:
        return _cumulative_out(x, axis, dtype, out, include_initial, scan, initial)
    r = scan(x, axis=axis, dtype=dtype)
    if include_initial:
        shape = list(r.shape)
        shape[axis] = 1
        first = _core.full(tuple(shape), initial, dtype=r.dtype, device=x.device)
        r = _core.concatenate([first, r], axis=axis)
    return r


def _cumulative_out(x, axis, dtype, out, include_initial, scan, initial):
    """The scan written into out (cast as ufunc.accumulate casts, unsafe), after
    the initial value along the axis where include_initial asks for it."""
    if isinstance(out, _core.ndarray):
        shape = list(x.shape)
        shape[axis] += bool(include_initial)
        if tuple(out.shape) != tuple(shape):
            raise ValueError("provided out is the wrong size for the accumulation.")
    if not include_initial:
        return scan(x, axis=axis, dtype=dtype, out=out)
    lead = (slice(None),) * axis
    scan(x, axis=axis, dtype=dtype, out=out[lead + (slice(1, None),)])
    out[lead + (slice(0, 1),)] = initial
    return out


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False)

    The running sums along ``axis`` (required for more than one dimension), in
    cumsum's dtype (or ``dtype``); ``include_initial`` starts each with the sum of
    no elements (0), one longer along the axis; ``out`` of that shape receives
    them. As numpy.cumulative_sum.
    """
    return _cumulative(x, axis, dtype, out, include_initial, _core.cumsum, 0)


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False)

    The running products along ``axis`` (required for more than one dimension),
    in cumprod's dtype (or ``dtype``); ``include_initial`` starts each with the
    empty product (1); ``out`` as cumulative_sum's. As numpy.cumulative_prod.
    """
    return _cumulative(x, axis, dtype, out, include_initial, _core.cumprod, 1)


def unstack(x, /, *, axis=0):
    """unstack(x, /, *, axis=0)

    The sub-arrays of ``x`` along ``axis``, as a tuple of views (stack's inverse).
    """
    if not isinstance(x, _core.ndarray):
        x = _core.asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    axis = _norm_axis(axis, x.ndim)
    lead = (slice(None),) * axis
    return tuple(x[lead + (i,)] for i in range(x.shape[axis]))

_DTYPES = {
    "bool": np.dtype(np.bool_),
    "int8": np.dtype(np.int8),
    "int16": np.dtype(np.int16),
    "int32": np.dtype(np.int32),
    "int64": np.dtype(np.int64),
    "uint8": np.dtype(np.uint8),
    "uint16": np.dtype(np.uint16),
    "uint32": np.dtype(np.uint32),
    "uint64": np.dtype(np.uint64),
    "float32": np.dtype(np.float32),
    "float64": np.dtype(np.float64),
    "complex64": np.dtype(np.complex64),
    "complex128": np.dtype(np.complex128),
}

_KINDS = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "integral": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
    "numeric": ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
                "float32", "float64", "complex64", "complex128"),
}


def _device_obj(device):
    return _core.empty(0, device=device).device


class __array_namespace_info__:
    """Inspection utilities of the Python array API (2023.12 on) for cuarray.

    float16 is supported by cuarray but, as in NumPy's namespace, is not one of
    the array API's dtypes, so dtypes() does not list it.
    """

    __module__ = "cuarray"

    def capabilities(self):
        return {
            "boolean indexing": True,
            "data-dependent shapes": True,
            "max dimensions": 32,
        }

    def default_device(self):
        return _core.empty(0).device

    def devices(self):
        from . import cuda

        try:
            n = cuda.device_count()
        except Exception:
            n = 0
        return [_device_obj(f"cuda:{i}") for i in range(n)] + [_device_obj("cpu")]

    def default_dtypes(self, *, device=None):
        return {
            "real floating": np.dtype(np.float64),
            "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.int64),
            "indexing": np.dtype(np.int64),
        }

    def dtypes(self, *, device=None, kind=None):
        if kind is None:
            return dict(_DTYPES)
        if isinstance(kind, str):
            if kind not in _KINDS:
                raise ValueError(f"unsupported dtype kind {kind!r}")
            return {n: _DTYPES[n] for n in _KINDS[kind]}
        if isinstance(kind, tuple):
            out = {}
            for k in kind:
                out.update(self.dtypes(device=device, kind=k))
            return out
        raise TypeError(f"kind must be None, a string or a tuple, not {type(kind).__name__}")

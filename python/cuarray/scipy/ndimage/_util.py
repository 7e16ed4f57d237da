"""Helpers shared by cuarray.scipy.ndimage's modules: argument rules as SciPy's
(_ni_support: modes, sequences, axes, outputs), the float64 staging of inputs,
SciPy's casts of results, and the cpu device's hand-off to SciPy itself."""

import functools as _functools
import operator as _operator
import sys as _sys

import numpy as _np

import cuarray as _ca
from .._optional import scipy_module
from cuarray import _core

MODES = {"nearest": 0, "wrap": 1, "reflect": 2, "grid-mirror": 2, "mirror": 3,
         "constant": 4, "grid-wrap": 5, "grid-constant": 6}
# a filter reads grid-wrap as wrap and grid-constant as constant (SciPy's is_filter)
_FILTER_MODE = {5: 1, 6: 4}


def mode_code(mode, is_filter=False):
    try:
        c = MODES[mode]
    except (KeyError, TypeError):
        raise RuntimeError("boundary mode not supported") from None
    return _FILTER_MODE.get(c, c) if is_filter else c


def scipy_ndimage():
    """scipy.ndimage, or an ImportError naming the optional dependency."""
    return scipy_module("ndimage")


def asarray(x):
    """x as a cuarray array (NumPy arrays and lists go to the default device)."""
    return x if isinstance(x, _ca.ndarray) else _ca.asarray(x)


def sequence(value, rank):
    """value repeated rank times, or the sequence checked to have rank items."""
    if not isinstance(value, str) and _np.iterable(value):
        v = list(value)
        if len(v) != rank:
            raise RuntimeError("sequence argument must have length equal to input rank")
        return v
    return [value] * rank


def check_axes(axes, ndim):
    if axes is None:
        return tuple(range(ndim))
    if _np.isscalar(axes):
        axes = (_operator.index(axes),)
    for ax in axes:
        if ax < -ndim or ax > ndim - 1:
            raise ValueError(f"specified axis: {ax} is out of range")
    axes = tuple(_operator.index(ax) % ndim for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError("axes must be unique")
    return axes


def check_axis(axis, ndim):
    axis = _operator.index(axis)
    if axis < -ndim or axis >= ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def output_array(output, input, shape=None, complex_output=False):
    """SciPy's _get_output: a fresh zeroed array of input's dtype (or output's, a
    dtype), or output itself, checked."""
    shape = input.shape if shape is None else tuple(shape)
    if output is None:
        dt = input.dtype
        if complex_output:
            dt = _np.promote_types(dt, _np.complex64)
        return _ca.zeros(shape, dtype=dt, device=input.device)
    if isinstance(output, (type, _np.dtype)) or isinstance(output, str):
        dt = _np.dtype(output)
        if isinstance(output, str) and not issubclass(dt.type, _np.number):
            raise RuntimeError("output must have numeric dtype")
        if complex_output and dt.kind != "c":
            dt = _np.promote_types(dt, _np.complex64)
        return _ca.zeros(shape, dtype=dt, device=input.device)
    if not isinstance(output, _ca.ndarray):
        raise TypeError("output must be a cuarray array, a dtype or None")
    if output.shape != shape:
        raise RuntimeError("output shape not correct")
    if complex_output and output.dtype.kind != "c":
        raise RuntimeError("output must have complex dtype")
    if output.device != input.device:
        raise ValueError("output is on another device than the input")
    return output


def check_type(x, exc=RuntimeError):
    """SciPy's C layer has no float16 loops: its error for such an input."""
    if x.dtype == _np.float16:
        raise exc(f"array type {x.dtype!r} not supported")
    return x


def f64(x):
    """x as a C-contiguous float64 array (SciPy computes ndimage in double)."""
    # ascontiguousarray makes a 0-d array 1-d: keep the shape
    return _ca.ascontiguousarray(check_type(x), dtype=_np.float64).reshape(x.shape)


def store(r, out, round_ints=False):
    """Write the float64 result r into out by SciPy's cast: filters truncate
    toward zero, interpolation (round_ints) rounds half away from zero (half
    up, negatives to 0, for unsigned); bool outputs are r != 0."""
    k = out.dtype.kind
    if k in "iu" and round_ints:
        r = _ca.where(r > 0, _ca.floor(r + 0.5), 0.0) if k == "u" else \
            _ca.trunc(r + _ca.copysign(0.5, r))
    if k == "b":
        r = r != 0
    out[...] = r
    return out


# ---- the cpu device's hand-off to SciPy ---------------------------------------------

def host(x):
    if isinstance(x, _ca.ndarray):
        return _np.asarray(x) if x.device == "cpu" else x.get()
    if isinstance(x, (tuple, list)) and any(isinstance(v, _ca.ndarray) for v in x):
        return type(x)(host(v) for v in x)
    return x


def back(r, views):
    """SciPy's result as cuarray arrays on the cpu device: a view of a passed
    output array is that array; other NumPy arrays are wrapped."""
    if isinstance(r, tuple):
        return tuple(back(v, views) for v in r)
    if isinstance(r, list):
        return [back(v, views) for v in r]
    if isinstance(r, _np.ndarray) and r.dtype == object:
        out = _np.empty(r.shape, dtype=object)      # histogram's arrays per label
        for i, v in enumerate(r.reshape(-1)):
            out.reshape(-1)[i] = back(v, views)
        return out
    if isinstance(r, _np.ndarray):
        for v, a in views:
            if r is v:
                return a
        return _ca.asarray(r, device="cpu")
    return r


def on_cpu(x):
    return isinstance(x, _ca.ndarray) and x.device == "cpu"


def cpu_scipy(module_name):
    """Decorator: on the cpu device (the first argument a cpu array) with
    module_name's CPU_SCIPY set, SciPy's function of the same name runs on
    zero-copy views (output arrays written in place); else the function."""
    def deco(fn):
        name = fn.__name__

        @_functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if args and on_cpu(args[0]) and _sys.modules[module_name].CPU_SCIPY:
                views = []
                out = kwargs.get("output")
                if isinstance(out, _ca.ndarray):
                    kwargs = dict(kwargs, output=_np.asarray(out))
                    views.append((kwargs["output"], out))
                hargs = [host(a) for a in args]
                hkw = {k: host(v) for k, v in kwargs.items()}
                return back(getattr(scipy_ndimage(), name)(*hargs, **hkw), views)
            return fn(*args, **kwargs)
        return wrapper
    return deco


def check_input(input):
    """input as a cuarray array, with SciPy's checks: not complex-free where
    complex is refused is the caller's; 0-d is fine for most functions."""
    return asarray(input)


# the kernel primitives, re-exported for the group modules
ndi_filter = _core._ndi_filter
ndi_spline = _core._ndi_spline
ndi_map = _core._ndi_map
ndi_label = _core._ndi_label
ndi_edt = _core._ndi_edt

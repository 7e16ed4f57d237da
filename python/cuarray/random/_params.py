"""Distribution parameters: NumPy's broadcasting and NumPy's checks.

A parameter is a number (passed to the kernel by value) or an array (NumPy,
cuarray or a sequence), broadcast with the others and with ``size`` to the
output's shape and handed to the kernel as a C-contiguous float64 array on the
output's device. The checks are NumPy's (numpy/random/_common.pyx's
constraints, with its messages); arrays from the host are checked on the host,
cuarray arrays with cuarray's reductions (one readback each).
"""

import numbers
import operator

import numpy as _np

import cuarray as _ca

from .. import _core

_OPS = {name: i for i, name in enumerate(_core.random_dist_ops)}
_F32 = _np.dtype(_np.float32)
_F64 = _np.dtype(_np.float64)
_I64 = _np.dtype(_np.int64)


def float_dtype(dtype, name):
    dt = _np.dtype(dtype)
    if dt != _F32 and dt != _F64:
        raise TypeError(f"Unsupported dtype {dt!r} for {name}")
    return dt


def size_tuple(size):
    """size= as a shape tuple, or None."""
    if size is None:
        return None
    if isinstance(size, (numbers.Integral, _np.integer)):
        size = (size,)
    shape = tuple(operator.index(s) for s in size)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimensions are not allowed")
    return shape


def as_param(x):
    """A number (float) or an array (NumPy float64 on the host, or cuarray)."""
    if isinstance(x, _ca.ndarray):
        if x.ndim == 0 and x.device.id < 0:
            return float(x)
        if x.dtype.kind == "c":
            raise TypeError("complex parameters are not supported")
        return x
    if isinstance(x, (numbers.Real, _np.number, bool)) and not isinstance(x, complex):
        if isinstance(x, _np.complexfloating):
            raise TypeError("complex parameters are not supported")
        return float(x)
    a = _np.asarray(x)
    if a.dtype.kind == "c":
        raise TypeError("complex parameters are not supported")
    if a.dtype.kind not in "biuf":
        a = a.astype(_F64)  # object arrays of numbers; TypeError/ValueError otherwise
    a = a.astype(_F64, copy=False)
    if a.ndim == 0:
        return float(a)
    return a


def _xp(x):
    return _np if isinstance(x, (_np.ndarray, float)) else _ca


def _any(x):
    return bool(x.any()) if hasattr(x, "any") else bool(x)


def _all(x):
    return bool(x.all()) if hasattr(x, "all") else bool(x)


def _f(x):
    return _np.float64(x) if isinstance(x, float) else x


# NumPy's constraints (numpy/random/_common.pyx), its messages.
def non_negative(x, name):
    xp, v = _xp(x), _f(x)
    if _any(xp.logical_and(xp.logical_not(xp.isnan(v)), xp.signbit(v))):
        raise ValueError(f"{name} < 0")


def positive(x, name):
    if not _all(_f(x) > 0):
        raise ValueError(f"{name} <= 0")


def positive_not_nan(x, name):
    xp, v = _xp(x), _f(x)
    if _any(xp.isnan(v)):
        raise ValueError(f"{name} must not be NaN")
    if _any(v <= 0):
        raise ValueError(f"{name} <= 0")


def bounded_0_1(x, name):
    v = _f(x)
    if not _all(v >= 0) or not _all(v <= 1):
        raise ValueError(f"{name} < 0, {name} > 1 or {name} is NaN")


def bounded_gt_0_1(x, name):
    v = _f(x)
    if not _all(v > 0) or not _all(v <= 1):
        raise ValueError(f"{name} <= 0, {name} > 1 or {name} contains NaNs")


def bounded_lt_0_1(x, name):
    v = _f(x)
    if not _all(v >= 0) or not _all(v < 1):
        raise ValueError(f"{name} < 0, {name} >= 1 or {name} is NaN")


def gt_1(x, name):
    if not _all(_f(x) > 1):
        raise ValueError(f"{name} <= 1 or {name} is NaN")


POISSON_LAM_MAX = float(_np.iinfo(_np.int64).max) - 10 * _np.sqrt(_np.iinfo(_np.int64).max)


def poisson_lam(x, name):
    v = _f(x)
    if not _all(v >= 0):
        raise ValueError(f"{name} < 0 or {name} is NaN")
    if _any(v > POISSON_LAM_MAX):
        raise ValueError(f"{name} value too large")


def integral(x, name):
    """Integer-valued parameters (binomial's n, hypergeometric's counts): NumPy
    casts them to int64; floats are truncated the same way here."""
    if isinstance(x, float):
        if x != x or abs(x) > 2.0 ** 63:
            raise ValueError(f"{name} must be an integer")
        return float(int(x))
    return _xp(x).trunc(x)


def shape_of(x):
    return () if isinstance(x, float) else tuple(x.shape)


def broadcast_shape(size, params):
    """The output shape: size, or the parameters' broadcast shape."""
    shapes = [shape_of(p) for p in params]
    try:
        bshape = _np.broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single "
                         "shape") from None
    if size is None:
        return bshape
    try:
        full = _np.broadcast_shapes(size, *shapes)
    except ValueError:
        full = None
    if full != size:
        raise ValueError(f"size {size} is not compatible with the parameters' "
                         f"broadcast shape {bshape}")
    return size


def resolve_device(device):
    return _ca.cuda.Device(device) if device is not None else _ca.cuda.Device()


def device_param(x, shape, device):
    """x for the kernel: a float, or a C-contiguous float64 cuarray of `shape`."""
    if isinstance(x, float):
        return x
    a = _ca.asarray(x, dtype=_F64, device=device)
    if a.shape != shape:
        a = _ca.broadcast_to(a, shape)
    return _ca.ascontiguousarray(a)

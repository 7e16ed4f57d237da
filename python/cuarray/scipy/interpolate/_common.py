"""Helpers shared by cuarray.scipy.interpolate's modules: the cpu device's hand-off
to SciPy (CPU_SCIPY, on zero-copy views), device placement, and the piecewise
evaluation steps (interval search, gathers) every interpolator composes.

CPU_SCIPY lives here alone: every module reads it through `scipy_route`, so the
tests' `route` fixture turns the whole package's hand-off off with one switch."""

import numpy as _np

import cuarray as _ca
from .._optional import scipy_module
from cuarray._devices import device_of  # noqa: F401 (shared helper)

CPU_SCIPY = True


def scipy_interpolate():
    """scipy.interpolate, or an ImportError naming the optional dependency."""
    return scipy_module("interpolate")


def scipy_route(device):
    """Whether a call on `device` goes to SciPy's own routine (the cpu device)."""
    return CPU_SCIPY and device == "cpu"


def call_prologue(obj, x, nu, extrapolate):
    """What PPoly's and BSpline's __call__ share: (extrapolate with the object's
    default, SciPy's result on the cpu device's route or None, x as float64 on the
    object's device)."""
    if extrapolate is None:
        extrapolate = obj.extrapolate
    dev = obj.c.device
    if scipy_route(dev):
        return extrapolate, back(obj._scipy()(host(x), nu, extrapolate), dev), None
    return extrapolate, None, on(x, dev, _np.float64)


def host(x):
    """x for SciPy: a cpu-device array as a NumPy view (no copy), a GPU array
    copied to the host, tuples and lists element by element, else x itself."""
    if isinstance(x, _ca.ndarray):
        return _np.asarray(x) if x.device == "cpu" else x.get()
    if isinstance(x, (tuple, list)):
        return type(x)(host(v) for v in x)
    return x


def on(x, device, dtype=None):
    """x as a cuarray array on device (None: x's own device or the default)."""
    if isinstance(x, _ca.ndarray) and (device is None or x.device == device):
        return x if dtype is None or x.dtype == dtype else x.astype(dtype)
    if isinstance(x, _ca.ndarray):
        x = x.get()
    return _ca.asarray(x, dtype=dtype, device=device)


def back(r, device):
    """SciPy's results (arrays, tuples, lists) as cuarray arrays on device."""
    if isinstance(r, (tuple, list)):
        return type(r)(back(v, device) for v in r)
    if isinstance(r, _np.ndarray) and r.dtype != object:
        return _ca.asarray(r, device=device)
    return r


def float_dtype(dtype):
    """SciPy's coefficient dtype: complex128 for complex input, else float64."""
    return _np.complex128 if _np.dtype(dtype).kind == "c" else _np.float64


def check_finite_host(*arrays):
    """SciPy's check_finite: a ValueError when an input holds inf or NaN (one
    reduction and one wait per array)."""
    for a in arrays:
        if a.dtype.kind in "fc" and not bool(_ca.isfinite(a).all()):
            raise ValueError("array must not contain infs or NaNs")


def interval(x, xp):
    """The interval index of each point of xp among breakpoints x (ascending or
    descending): half-open [x[i], x[i+1]), the last one closed, points outside
    (and NaN) in the end intervals. Searching the interior breakpoints only gives
    indices already in [0, m-1]: no clip pass."""
    m = x.shape[0] - 1
    if m > 1 and bool(x[-1] < x[0]):
        return (m - 1) - _ca.searchsorted(x[1:-1][::-1], xp, side="left")
    return _ca.searchsorted(x[1:-1], xp, side="right")


def outside(xp, lo, hi):
    """The mask of points outside [lo, hi] (NaN points are not outside)."""
    return (xp < lo) | (xp > hi)


def nan_outside(y, mask):
    """y (points first) with NaN where mask (over the leading axis) is set."""
    m = mask.reshape(mask.shape + (1,) * (y.ndim - mask.ndim))
    return _ca.where(m, _np.nan, y)


def move_point_axes(out, x_ndim, axis):
    """SciPy's result layout: the evaluation points' axes moved to `axis`."""
    if axis == 0:
        return out
    order = list(range(out.ndim))
    order = order[x_ndim:x_ndim + axis] + order[:x_ndim] + order[x_ndim + axis:]
    return out.transpose(order)


def integral_bounds(obj, a, b, extrapolate):
    """(extrapolate with obj's default, a <= b as floats, the sign of the swap)."""
    extrapolate = obj.extrapolate if extrapolate is None else extrapolate
    a, b = float(a), float(b)
    return (extrapolate, b, a, -1.0) if b < a else (extrapolate, a, b, 1.0)


def definite(anti, a, b, lo, hi, extrapolate):
    """anti(b) - anti(a) for an antiderivative `anti` on the base interval
    [lo, hi] (a <= b, host floats); 'periodic' counts whole periods and wraps
    the rest into the interval, as SciPy's integrate methods do."""
    dev = anti.c.device
    if extrapolate != "periodic":
        v = anti(_ca.asarray([a, b], device=dev), 0, bool(extrapolate))
        return v[1] - v[0]
    period = hi - lo
    n, left = divmod(b - a, period)
    a = lo + (a - lo) % period
    b = a + left
    pts = [lo, hi, a, min(b, hi), lo, lo + max(b - hi, 0.0)]
    v = anti(_ca.asarray(pts, device=dev), 0, False)
    return (v[1] - v[0]) * n + (v[3] - v[2]) + (v[5] - v[4])

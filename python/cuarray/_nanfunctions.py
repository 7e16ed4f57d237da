"""The NaN-ignoring reductions: nanmax, nanmin, nanargmax, nanargmin, nanmean,
nanvar, nanstd, as NumPy's (numpy/lib/_nanfunctions_impl.py).

nansum, nanprod, nancumsum and nancumprod are rows of kernels/reductions.def
(csrc/reduction.c) and need nothing here. The others run one kernel row each
(_nanmax, _nanargmax, _nancount: NaN-skipping combines, one pass) and add what
NumPy adds in Python: nanmax/nanmin warn about all-NaN slices and nanargmax/
nanargmin raise for them, which reads one flag back (a synchronize, as CuPy's
nanmax); nanmean/nanvar/nanstd divide by the per-slice count of non-NaN
elements and warn, as NumPy does, about empty slices and degrees of freedom.
Integer and bool inputs have no NaN: they take the plain reductions.
"""

import sys as _sys
import warnings as _warnings

import numpy as _np

from . import _core
from . import _ufunc
from ._sort_threads import _datetime

_ca = _sys.modules[__package__]

__all__ = ["nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd"]


_NoValue = _ufunc._NoValue



def _dts():
    """cuarray._datetime_stats (datetime64/timedelta64 arrays), loaded on first use."""
    from . import _datetime_stats
    return _datetime_stats

def _kw():
    """initial= and where= (cuarray/_reduce_kw.py's compositions)."""
    from . import _reduce_kw
    return _reduce_kw


def _check(a, name):
    if not isinstance(a, _ca.ndarray):
        raise TypeError(f"{name}() requires a cuarray.ndarray, not {type(a).__name__} "
                        "(use cuarray.asarray to make one)")


def _inexact(a):
    return a.dtype.kind in "fc"


def _warn_all_nan(r):
    if r.size and bool(_ca.any(_ca.isnan(r))):
        # stacklevel: here, _nan_extreme, nanmax/nanmin, their caller (as NumPy's)
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)


def _nan_extreme(name, a, axis, out, keepdims, initial, where):
    """nanmax/nanmin (name): datetimes by _datetime_stats, initial= or where= by
    _reduce_kw, else the '_' reduction row, then NumPy's All-NaN warning. Only
    nanmax and nanmin call it: each route's warning counts it as a frame."""
    if _datetime(a):  # datetime64/timedelta64: NaT is skipped or kept as NumPy
        return _dts().nan_function(name, a, (), dict(
            axis=axis, out=out, keepdims=keepdims, initial=initial, where=where))
    _check(a, name)
    if initial is not _NoValue or where is not True:
        return getattr(_kw(), name)(a, axis, out, keepdims, initial, where)
    r = getattr(_core, "_" + name)(a, axis=axis, out=out, keepdims=keepdims)
    if _inexact(a):
        _warn_all_nan(r)
    return r


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """nanmax(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)

    The largest element over the given axes, ignoring NaN (numpy.nanmax). An
    all-NaN slice gives NaN with a RuntimeWarning; an empty one raises ValueError.
    """
    return _nan_extreme("nanmax", a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """nanmin(a, axis=None, out=None, keepdims=False, initial=<no value>, where=True)

    The smallest element over the given axes, ignoring NaN (numpy.nanmin). An
    all-NaN slice gives NaN with a RuntimeWarning; an empty one raises ValueError.
    """
    return _nan_extreme("nanmin", a, axis, out, keepdims, initial, where)


def _nanarg(prim, a, axis, out, keepdims):
    r = prim(a, axis=axis, out=out, keepdims=keepdims)
    if _inexact(a) and r.size and bool(_ca.any(_ca.equal(r, -1))):
        raise ValueError("All-NaN slice encountered")
    return r


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """nanargmax(a, axis=None, out=None, *, keepdims=False)

    Index (int64) of the first largest element ignoring NaN, along an axis or in
    the flattened array (numpy.nanargmax); an all-NaN slice raises ValueError.
    """
    if _datetime(a):  # datetime64/timedelta64: NaT is skipped or kept as NumPy
        return _dts().nan_function("nanargmax", a, (), dict(
            axis=axis, out=out, keepdims=keepdims))
    _check(a, "nanargmax")
    return _nanarg(_core._nanargmax, a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """nanargmin(a, axis=None, out=None, *, keepdims=False)

    Index (int64) of the first smallest element ignoring NaN (numpy.nanargmin);
    an all-NaN slice raises ValueError.
    """
    if _datetime(a):  # datetime64/timedelta64: NaT is skipped or kept as NumPy
        return _dts().nan_function("nanargmin", a, (), dict(
            axis=axis, out=out, keepdims=keepdims))
    _check(a, "nanargmin")
    return _nanarg(_core._nanargmin, a, axis, out, keepdims)


def _inexact_args(dtype, out):
    if dtype is not None:
        dtype = _np.dtype(dtype)
        if dtype.kind not in "fc":
            raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")
    return dtype


def _to_out(r, out):
    if out is None:
        return r
    _ca.copyto(out, r, casting="unsafe")
    return out


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)

    The mean over the given axes ignoring NaN (numpy.nanmean): nansum over the
    count of non-NaN elements, in the input's dtype (or dtype=). An all-NaN or
    empty slice gives NaN with a RuntimeWarning ("Mean of empty slice").
    """
    if _datetime(a):  # datetime64/timedelta64: NaT is skipped or kept as NumPy
        return _dts().nan_function("nanmean", a, (), dict(
            axis=axis, dtype=dtype, out=out, keepdims=keepdims, where=where))
    if where is not True:
        _check(a, "nanmean")
        return _kw().nanmean(a, axis, dtype, out, keepdims, where=where)
    _check(a, "nanmean")
    if not _inexact(a):
        return _ca.mean(a, axis=axis, dtype=dtype, out=out, keepdims=keepdims)
    dtype = _inexact_args(dtype, out)
    cnt = _core._nancount(a, axis=axis, keepdims=keepdims)
    tot = _ca.nansum(a, axis=axis, dtype=dtype, keepdims=keepdims)
    # NumPy divides the sum by the count in float64 and casts back (casting unsafe)
    avg = _ca.divide(tot, cnt).astype(tot.dtype)
    if cnt.size and bool(_ca.any(_ca.equal(cnt, 0))):
        _warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
    return _to_out(avg, out)


def _nanvar(name, a, axis, dtype, out, ddof, keepdims, where, root):
    """nanvar/nanstd (name; root: the square root): datetimes by _datetime_stats,
    where= by _reduce_kw, else the count of non-NaN elements as the divisor, with
    NumPy's warning where count - ddof is not positive."""
    if _datetime(a):  # datetime64/timedelta64: NaT is skipped or kept as NumPy
        return _dts().nan_function(name, a, (), dict(
            axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims, where=where))
    _check(a, name)
    if where is not True:
        return getattr(_kw(), name)(a, axis, dtype, out, ddof, keepdims, where=where)
    if not _inexact(a):
        f = _ca.std if root else _ca.var
        return f(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims)
    dtype = _inexact_args(dtype, out)
    cnt = _core._nancount(a, axis=axis, keepdims=True)
    avg = _ca.divide(_ca.nansum(a, axis=axis, dtype=dtype, keepdims=True), cnt)
    d = _ca.subtract(a, avg)
    sq = _ca.real(_ca.multiply(d, _ca.conjugate(d))) if d.dtype.kind == "c" else \
        _ca.multiply(d, d)
    # only the input's NaNs drop out (a NaN mean, from inf - inf, stays NaN)
    s = _ca.sum(_ca.where(_ca.isnan(a), 0, sq), axis=axis, keepdims=keepdims)
    dof = _ca.subtract(cnt.reshape(s.shape), ddof)
    bad = _ca.less_equal(dof, 0)
    v = _ca.where(bad, _np.nan, _ca.divide(s, dof))
    if bad.size and bool(_ca.any(bad)):
        _warnings.warn("Degrees of freedom <= 0 for slice.", RuntimeWarning, stacklevel=3)
    if root:
        v = _ca.sqrt(v)
    rdt = dtype if dtype is not None else a.dtype
    if rdt.kind == "c" and dtype is None:
        rdt = _np.dtype(rdt.char.lower())
    return _to_out(v.astype(rdt), out)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
    """nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
    where=True)

    The variance ignoring NaN (numpy.nanvar): the mean of |x - nanmean(x)|**2 over
    the non-NaN elements, with count - ddof as the divisor; NaN (RuntimeWarning
    "Degrees of freedom <= 0 for slice.") where that is not positive. Complex
    inputs give their real dtype.
    """
    return _nanvar("nanvar", a, axis, dtype, out, ddof, keepdims, where, False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
    """nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *,
    where=True)

    The standard deviation ignoring NaN (numpy.nanstd): the square root of nanvar.
    """
    return _nanvar("nanstd", a, axis, dtype, out, ddof, keepdims, where, True)

"""NumPy's initial= and where= of the reductions (sum, prod, max, min, nansum,
nanprod, nanmax, nanmin, mean, std, var, nanmean, nanstd, nanvar, any, all).

The C reductions (csrc/ops/reduction.c) parse the table's signatures; a call
that names initial= or where= (which they refuse) comes here whole, so a call
without them costs nothing more. The compositions reuse the ufunc methods'
(_ufunc._reduce_slow: masked elements become the op's identity, initial= the
first element of every reduction; maximum/minimum without initial= raise
NumPy's ValueError); mean, var and std are a masked sum over the mask's count,
as NumPy's _methods.py computes them.
"""

import sys as _sys
import warnings as _warnings

import numpy as _np

from . import _core
from . import _ufunc
from ._outargs import write_out as _write_out
from ._sort_threads import _datetime

_ca = _sys.modules[__package__]
_NoValue = _ufunc._NoValue
_ops = _core._ops


def _mask(where, a):
    """where= as a bool array of a's shape (NumPy's TypeError for a mask that does
    not cast safely to bool, ValueError for one that does not broadcast to a)."""
    if where is True:
        return True
    w = _ufunc._where_mask(where, (a,), None)
    try:
        return _core.broadcast_to(w, a.shape)
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped "
                         f"shapes: {a.shape} and where {tuple(w.shape)}") from None


def _plain(u, fast, a, axis, dtype, out, keepdims, initial, where):
    return _ufunc._reduce_slow(_ops[u], a, axis, dtype, out, bool(keepdims), initial,
                               _mask(where, a), fast)


def _nan_to(a, v):
    return _core.where(_core.isnan(a), v, a) if a.dtype.kind in "fc" else a


def _sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
         where=True):
    return _plain("add", _core.sum, a, axis, dtype, out, keepdims, initial, where)


def _prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
          where=True):
    return _plain("multiply", _core.prod, a, axis, dtype, out, keepdims, initial, where)


def _nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
            where=True):
    return _sum(_nan_to(a, 0), axis, dtype, out, keepdims, initial, where)


def _nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NoValue,
             where=True):
    return _prod(_nan_to(a, 1), axis, dtype, out, keepdims, initial, where)


def _max(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _plain("maximum", _core.max, a, axis, None, out, keepdims, initial, where)


def _min(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    return _plain("minimum", _core.min, a, axis, None, out, keepdims, initial, where)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """nanmax with initial= or where= (an all-NaN selection: NaN, RuntimeWarning)."""
    r = _plain("fmax", _core._nanmax, a, axis, None, out, keepdims, initial, where)
    return _all_nan_warned(a, r)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NoValue, where=True):
    """nanmin with initial= or where=."""
    r = _plain("fmin", _core._nanmin, a, axis, None, out, keepdims, initial, where)
    return _all_nan_warned(a, r)


def _all_nan_warned(a, r):
    if a.dtype.kind in "fc" and r.size and bool(_ca.any(_ca.isnan(r))):
        # stacklevel: here, nanmax/nanmin here, _nanfunctions._nan_extreme and
        # nanmax/nanmin there, their caller (as NumPy's)
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=5)
    return r


def _any(a, axis=None, out=None, keepdims=False, *, where=True):
    return _plain("logical_or", _core.any, a, axis, None, out, keepdims, _NoValue, where)


def _all(a, axis=None, out=None, keepdims=False, *, where=True):
    return _plain("logical_and", _core.all, a, axis, None, out, keepdims, _NoValue, where)


# ---- mean, var, std (and the nan forms): sums over the mask's count -------------

def _work_dtype(a, dtype):
    """The dtype the sums run in: dtype=, else float64 (complex128 for complex),
    as the float64 reference."""
    if dtype is not None:
        dt = _np.dtype(dtype)
        return dt if dt.kind in "fc" and dt.itemsize >= 8 else (
            _np.dtype("c16") if dt.kind == "c" else _np.dtype("f8"))
    return _np.dtype("c16") if a.dtype.kind == "c" else _np.dtype("f8")


def _result_dtype(fn, a, dtype):
    """NumPy's result dtype of fn (the table's rule), from a one-element call."""
    one = _core.zeros((1,), dtype=a.dtype, device=a.device)
    return fn(one, dtype=dtype).dtype


def _moments(a, axis, dtype, mask):
    """(sum, count) over axis with keepdims, masked, in the work dtype."""
    x = a.astype(_work_dtype(a, dtype))
    if mask is not True:
        x = _core.where(mask, x, _core.zeros((), dtype=x.dtype, device=x.device))
        m = mask
    else:
        m = _core.ones(a.shape, dtype=_np.bool_, device=a.device)
    s = _core.sum(x, axis=axis, keepdims=True)
    n = _core.sum(m, axis=axis, keepdims=True)
    return x, s, n


def _squeeze(r, a, axis, keepdims):
    if keepdims:
        return r
    axes = _ufunc._norm_axes(axis, a.ndim, "reduce")
    return r.reshape(tuple(d for i, d in enumerate(r.shape) if i not in axes))


def _mean_of(name, a, axis, dtype, out, keepdims, mask):
    rdt = _result_dtype(_core.mean, a, dtype)
    _, s, n = _moments(a, axis, dtype, mask)
    if n.size and bool(_ca.any(_ca.equal(n, 0))):
        _warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
    with _np.errstate(all="ignore"):
        m = _core.divide(s, n)
    return _write_out(_squeeze(m, a, axis, keepdims).astype(rdt), out)


def _var_of(fn, a, axis, dtype, out, ddof, keepdims, correction, mask, root):
    if correction is not None:
        if ddof != 0:
            raise ValueError("ddof and correction can't be provided simultaneously.")
        ddof = correction
    rdt = _result_dtype(fn, a, dtype)
    x, s, n = _moments(a, axis, dtype, mask)
    with _np.errstate(all="ignore"):
        d = _core.subtract(x, _core.divide(s, n))
        sq = _core.real(_core.multiply(d, _core.conjugate(d))) if d.dtype.kind == "c" \
            else _core.multiply(d, d)
        if mask is not True:
            sq = _core.where(mask, sq, _core.zeros((), dtype=sq.dtype, device=sq.device))
        dof = _core.subtract(n, ddof)
        if dof.size and bool(_ca.any(_ca.less_equal(dof, 0))):
            _warnings.warn("Degrees of freedom <= 0 for slice", RuntimeWarning,
                           stacklevel=3)
        v = _core.divide(_core.sum(sq, axis=axis, keepdims=True),
                         _core.maximum(dof, 0))
        if root:
            v = _core.sqrt(v)
    return _write_out(_squeeze(v, a, axis, keepdims).astype(rdt), out)


def _mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    return _mean_of("mean", a, axis, dtype, out, keepdims, _mask(where, a))


def _var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
         correction=None):
    return _var_of(_core.var, a, axis, dtype, out, ddof, keepdims, correction,
                   _mask(where, a), False)


def _std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True,
         correction=None):
    return _var_of(_core.std, a, axis, dtype, out, ddof, keepdims, correction,
                   _mask(where, a), True)


def _not_nan(a, where):
    """The mask less a's NaNs (the nan forms of mean, var and std)."""
    m = _mask(where, a)
    if a.dtype.kind not in "fc":
        return m
    ok = _core.logical_not(_core.isnan(a))
    return ok if m is True else _core.logical_and(m, ok)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """nanmean with where=."""
    return _mean_of("nanmean", a, axis, dtype, out, keepdims, _not_nan(a, where))


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
    """nanvar with where=."""
    return _var_of(_core.var, _nan_to(a, 0), axis, dtype, out, ddof, keepdims, None,
                   _not_nan(a, where), False)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True):
    """nanstd with where=."""
    return _var_of(_core.std, _nan_to(a, 0), axis, dtype, out, ddof, keepdims, None,
                   _not_nan(a, where), True)


_BY_NAME = {"sum": _sum, "prod": _prod, "nansum": _nansum, "nanprod": _nanprod,
            "max": _max, "min": _min, "any": _any, "all": _all, "mean": _mean,
            "var": _var, "std": _std}


def _reduce_numpy_kw(name, self, args, kwargs):
    """The C reduction `name` called with initial= or where= (self: the array of
    a method call, else None)."""
    f = _BY_NAME.get(name)
    if f is None:
        key = "initial" if "initial" in kwargs else "where"
        if key not in kwargs:
            raise TypeError(f"{name}() takes at most {len(args) - 1} positional "
                            f"arguments ({len(args)} given)")
        raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
    if self is not None:
        args = (self,) + tuple(args)
    if args and not isinstance(args[0], _core.ndarray):
        raise TypeError(f"{name}() requires a cuarray.ndarray, not "
                        f"{type(args[0]).__name__} (use cuarray.asarray to make one)")
    if _datetime(args[0]):  # datetime64/timedelta64: NumPy's answer (or refusal)
        from ._datetime_stats import reduce
        return reduce(name, args[0], args[1:], kwargs)
    return f(*args, **kwargs)


def _named():
    """The compositions under their public names (NumPy's TypeError for a wrong
    argument names sum(), not _sum())."""
    for k, f in _BY_NAME.items():
        c = f.__code__
        f.__code__ = c.replace(co_name=k, **({"co_qualname": k}
                                             if hasattr(c, "co_qualname") else {}))


_named()

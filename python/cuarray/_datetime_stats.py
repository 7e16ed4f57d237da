"""datetime64/timedelta64 reductions, scans and order statistics (the third part of
cuarray._datetime: the C layer's reductions reach `_reduce`, the Python functions
median, percentile, quantile, the nan- forms, ptp, average and the others that
docs/ARCHITECTURE.md lists call the functions here first for such an array).

NumPy decides what is refused, and with which exception: each call first runs the
NumPy function on a stand-in of the operand (zeros of its dtype and number of
dimensions, each non-zero length at most 2), which also gives NumPy's warnings
about empty slices. The values are int64 compositions on the `_bits` view, on the
array's device: NaT propagates through sums, means, cumulative sums, medians and
quantiles (NumPy's loops carry the int64 minimum through, and a quantile of a slice
holding NaT is NaT), while nanmin, nanmax and the nan- order statistics skip it
(fmin/fmax, and NumPy's isnan sees NaT). Calls with arguments outside these
compositions (dtype=, where=, initial=, weights), and the functions NumPy refuses
for most datetime operands (the products, average, histogram ...), run NumPy's
function on the host copy and move the result back.
"""

import inspect as _inspect
import warnings as _warnings

import numpy as _np

from ._ufunc import _NoValue
from ._datetime import (  # noqa: F401 (the first part's helpers)
    DatetimeArray,
    I64MAX,
    _I8,
    _NAT,
    _base,
    _bits,
    _ca,
    _core,
    _keys,
    _nat_mask,
    _reduce_minmax,
    _trunc_div,
    _wrap,
    asarray,
)


# ---- NumPy as the judge ----------------------------------------------------------
def _standin(x):
    """A small NumPy array of x's dtype and ndim (zeros; each non-zero length at
    most 2, so that ddof=1 gives no warning of its own)."""
    if isinstance(x, _base):  # (ones elsewhere: weights that are not all zero)
        f = _np.zeros if x.dtype.kind in "Mm" else _np.ones
        return f(tuple(min(s, 2) for s in x.shape), x.dtype)
    return x


def _judge(f, *args, **kwargs):
    """f on stand-ins of the array arguments (out= dropped): NumPy's exception, or
    its result (whose dtype is the answer's)."""
    kwargs = {k: (None if k == "out" else _standin(v)) for k, v in kwargs.items()}
    return f(*(_standin(a) for a in args), **kwargs)


def _host(f, *args, **kwargs):
    """f (NumPy's) on host copies of the cuarray arguments, the result on the device
    of the first array among them."""
    dev = next((a.device for a in list(args) + list(kwargs.values())
                if isinstance(a, _base)), None)
    out = kwargs.pop("out", None)
    conv = lambda v: v.get() if isinstance(v, _base) else v  # noqa: E731
    r = f(*(conv(a) for a in args), **{k: conv(v) for k, v in kwargs.items()})
    if isinstance(r, tuple):
        return tuple(_finish(asarray(_np.asarray(e), device=dev), None) for e in r)
    return _finish(asarray(_np.asarray(r), device=dev), out)


def _finish(r, out):
    if out is None:
        return r
    out = out[0] if isinstance(out, tuple) else out
    out[...] = r
    return out


def _axis_mask(nat, axis, keepdims):
    return _ca.any(nat, axis=axis, keepdims=keepdims)


# ---- the C layer's reductions (csrc/ops/reduction.c hands them to _reduce) ---------
_NP_NAME = {"_nanmax": "nanmax", "_nanmin": "nanmin", "_nanargmax": "nanargmax",
            "_nanargmin": "nanargmin", "_nancount": None, "_norm2": None}


def _bind(f, a, args, kwargs):
    try:
        return _inspect.signature(f).bind(a, *args, **kwargs).arguments
    except TypeError as e:
        raise TypeError(f"{f.__name__}(): {e}") from None


def _plain(kw, *names):
    """No argument beyond `names` has other than its default value."""
    return all(k in names or v is None or (k == "keepdims" and v is False)
               or (k == "where" and v is True) or (k == "ddof" and v == 0)
               for k, v in kw.items() if k != "a")


def reduce(name, a, args, kwargs):
    """cuarray.<reduction>(a, *args, **kwargs) of a datetime64/timedelta64 array."""
    npname = _NP_NAME.get(name, name)
    f = getattr(_np, npname, None) if npname else None
    if f is None:
        raise TypeError(f"cuarray.{name.lstrip('_')} does not take {a.dtype}")
    kw = _bind(f, a, args, kwargs)
    kw.pop("a", None)
    _judge(f, a, **kw)
    axis, keepdims, out = kw.get("axis"), bool(kw.get("keepdims", False)), kw.get("out")
    if not _plain(kw, "axis", "keepdims", "out"):
        return _host(f, a, **kw)
    if npname in ("min", "amin", "max", "amax"):
        return _reduce_minmax(a, axis, keepdims, npname.endswith("max"), out)
    if npname in ("argmin", "argmax", "nanargmin", "nanargmax"):
        return _finish(_arg(a, axis, keepdims, npname.endswith("max")), out)
    if npname in ("nanmin", "nanmax"):
        return _finish(_nan_extreme(a, axis, keepdims, npname == "nanmax"), out)
    if npname in ("sum", "nansum", "mean", "nanmean"):
        return _finish(_sum_mean(a, axis, keepdims, "mean" in npname), out)
    if npname in ("cumsum", "nancumsum"):
        return _finish(cumsum(a, axis), out)
    if npname in ("any", "all"):
        r = getattr(_ca, npname)(_bits(a) != 0, axis=axis, keepdims=keepdims)
        return _finish(r, out)
    return _host(f, a, **kw)  # (NumPy took it: its answer)


def _arg(a, axis, keepdims, is_max):
    """argmin/argmax: NaT propagates, so the first NaT's index where there is one
    (NaT, int64's minimum, is argmin's by itself)."""
    b = _bits(a)
    if not is_max:
        return _ca.argmin(b, axis=axis, keepdims=keepdims)
    nat = _nat_mask(b)
    return _ca.where(_axis_mask(nat, axis, keepdims),
                     _ca.argmax(nat, axis=axis, keepdims=keepdims),
                     _ca.argmax(b, axis=axis, keepdims=keepdims))


def _nan_extreme(a, axis, keepdims, is_max, stacklevel=4):
    """nanmin/nanmax: fmin/fmax skip NaT; an all-NaT slice is NaT, with NumPy's
    warning (stacklevel: the caller's frame, counted from here)."""
    b = _bits(a)
    nat = _nat_mask(b)
    allnat = _ca.all(nat, axis=axis, keepdims=keepdims)
    if is_max:  # NaT is int64's minimum: max skips it by itself
        r = _ca.max(b, axis=axis, keepdims=keepdims)
    else:
        r = _ca.min(_ca.where(nat, I64MAX, b), axis=axis, keepdims=keepdims)
    if bool(_ca.any(allnat)):
        _warnings.warn("All-NaN slice encountered", RuntimeWarning,
                       stacklevel=stacklevel)
    return _wrap(_ca.asarray(_ca.where(allnat, _NAT, r)), a.dtype)


def _sum_mean(a, axis, keepdims, mean):
    """timedelta sum (int64, wrapping as NumPy's loop) and mean (NumPy's sum / count,
    truncating); NaT propagates, the mean of nothing is NaT."""
    b = _bits(a)
    r = _ca.sum(b, axis=axis, keepdims=keepdims)
    nat = _axis_mask(_nat_mask(b), axis, keepdims)
    if mean:
        n = a.size // max(r.size, 1) if r.size else 0
        if n == 0:
            nat = _ca.ones(r.shape, dtype=bool, device=a.device)
        else:
            r = _trunc_div(r, n)
    return _wrap(_ca.asarray(_ca.where(nat, _NAT, r)), a.dtype)


def cumsum(a, axis=None):
    """The cumulative timedelta sum: NaT from the first NaT on (int64 wrapping)."""
    b = _bits(a)
    if axis is None:
        b = b.reshape(-1)
        axis = 0
    r = _ca.cumsum(b, axis=axis)
    nat = _ca.cumsum(_nat_mask(b).astype(_I8), axis=axis) > 0
    return _wrap(_ca.where(nat, _NAT, r), a.dtype)


# ---- order statistics ------------------------------------------------------------
def _rows(a, axis):
    """a's bits with the reduced axes merged into the last one, sorted with NaT
    last, and the kept shape."""
    from ._statistics import _axes
    rows, kept, axes = _axes(_bits(a), axis)
    k = _ca.sort(_ca.ascontiguousarray(_keys(rows)), axis=-1)
    return ((k + _np.uint64(1)) ^ _np.uint64(1 << 63)).view(_I8), kept, axes


def _keep(res, a, axes, qshape, keepdims):
    if not keepdims:
        return res
    from ._statistics import _keepdims_shape
    return res.reshape(_keepdims_shape(a, axes, qshape))


def _td_times(d, t):
    """NumPy's timedelta * float64: the float product truncated to int64, NaN and
    out-of-range products NaT."""
    from ._datetime import _float_to_td
    return _float_to_td(_ca.multiply(d.astype(_np.float64), t), _nat_mask(d))


def _lerp(lo, hi, g):
    """NumPy's _lerp on int64 bits: lo + (hi-lo)*g, or hi - (hi-lo)*(1-g) where
    g >= 0.5, in timedelta arithmetic (NaT propagating)."""
    d = _ca.where(_nat_mask(lo) | _nat_mask(hi), _NAT, hi - lo)
    if not isinstance(g, _base):
        g = _ca.full((), g, dtype=_np.float64, device=lo.device)
    up = lo + _td_times(d, g)
    down = hi - _td_times(d, 1.0 - g)
    r = _ca.where(g >= 0.5, down, up)
    bad = _nat_mask(lo) | _nat_mask(hi) | _nat_mask(_td_times(d, g))
    return _ca.where(bad, _NAT, r)


def _quantile(a, q, axis, method, keepdims, weak):
    """quantile on sorted rows, as NumPy's _quantile (NaT where a row holds one)."""
    from numpy.lib import _function_base_impl as fb
    s, kept, axes = _rows(a, axis)
    n = s.shape[-1]
    sm = _ca.moveaxis(s, -1, 0)
    props = fb._QuantileMethods[method]
    vi = _np.asanyarray(props["get_virtual_index"](n, q))
    from ._statistics import sample_sorted
    res = sample_sorted(sm, vi, props, method, len(kept), weak, _lerp, _np.float64,
                        _np.float64)
    res = _ca.where(_nat_mask(sm[-1]), _NAT, res)
    return _keep(_wrap(_ca.asarray(res), a.dtype), a, axes, vi.shape, keepdims)


def _q_args(q, scale, name):
    if isinstance(q, _base):
        q = q.get()
    from ._statistics import _check_q
    return _check_q(q, scale, name)


def quantiles(np_fn, a, q, axis, out, overwrite_input, method, keepdims, weights,
              interpolation, scale, skip_nan):
    """quantile, percentile, nanquantile, nanpercentile of a datetime array."""
    qh = q.get() if isinstance(q, _base) else q
    kw = dict(axis=axis, method=method, keepdims=keepdims)
    if weights is not None:
        kw["weights"] = weights
    if interpolation is not None:
        kw["interpolation"] = interpolation
    with _warnings.catch_warnings():
        if interpolation is not None:  # (its DeprecationWarning: once, below)
            _warnings.simplefilter("ignore", DeprecationWarning)
        _judge(np_fn, a, qh, **kw)
    if interpolation is not None:
        _warnings.warn("the `interpolation=` argument to percentile was renamed to "
                       "`method=`, which has additional options.\nUsers of the modes "
                       "'nearest', 'lower', 'higher', or 'midpoint' are encouraged to "
                       "review the method they used. (Deprecated NumPy 1.22)",
                       DeprecationWarning, stacklevel=4)  # (quantile & co.'s caller)
        method = interpolation
    if weights is not None or (skip_nan and a.size == 0):
        kw.pop("interpolation", None)
        kw["method"] = method
        with _warnings.catch_warnings():
            _warnings.simplefilter("ignore", RuntimeWarning)  # (_judge warned)
            return _host(np_fn, a, qh, out=out, **kw)
    qs, weak = _q_args(qh, scale, "Quantiles" if scale == 1 else "Percentiles")
    if a.size == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if not skip_nan:
        return _finish(_quantile(a, qs, axis, method, keepdims, weak), out)
    return _finish(_nanquantile(a, qs, axis, method, keepdims, weak), out)


def _nanquantile(a, q, axis, method, keepdims, weak):
    """nanquantile: each row's quantile over its values other than NaT (NumPy's
    nanquantile), NaT with NumPy's warning for a row of NaT only."""
    from ._statistics import nan_neighbours
    s, kept, axes = _rows(a, axis)
    k = _ca.sum(~_nat_mask(s), axis=-1)
    lo, hi, g = nan_neighbours(s, k, q, kept, method, a.device, exact_linear=True)
    res = lo if hi is None else _lerp(lo, hi, g)
    empty = k == 0
    if bool(_ca.any(empty)):  # (frames: here, quantiles, _any_quantile, nanquantile)
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=5)
    res = _ca.where(empty, _NAT, res)
    return _keep(_wrap(_ca.asarray(res), a.dtype), a, axes, q.shape, keepdims)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """median of a timedelta64 array: the truncated mean of the middle one or two
    values of each sorted row (NumPy's mean), NaT where a row holds NaT."""
    _judge(_np.median, a, axis=axis, keepdims=keepdims)
    s, kept, axes = _rows(a, axis)
    n = s.shape[-1]
    if n == 0:
        r = _ca.full(kept, _NAT, dtype=_I8, device=a.device)
    else:
        lo, hi = s[..., (n - 1) // 2], s[..., n // 2]
        r = _ca.where(_nat_mask(s[..., -1]), _NAT, _trunc_div(lo + hi, 2)
                      if n % 2 == 0 else lo)
    return _finish(_keep(_wrap(_ca.asarray(r), a.dtype), a, axes, (), keepdims), out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """nanmedian of a timedelta64 array: the median of each row's values other than
    NaT (NaT and NumPy's warning for a row of NaT only)."""
    _judge(_np.nanmedian, a, axis=axis, keepdims=keepdims)
    if a.size == 0:
        r = _ca.full(_rows(a, axis)[1], _NAT, dtype=_I8, device=a.device)
        return _finish(_keep(_wrap(r, a.dtype), a, _rows(a, axis)[2], (), keepdims),
                       out)
    from ._statistics import _take_last
    s, kept, axes = _rows(a, axis)
    k = _ca.sum(~_nat_mask(s), axis=-1, keepdims=True)
    km = _ca.maximum(k - 1, 0)
    lo = _take_last(s, km // 2)[..., 0]
    hi = _take_last(s, _ca.minimum(k // 2, km))[..., 0]
    if axis is None or a.ndim == 1 or len(axes) == a.ndim or s.shape[-1] >= 600:
        # NumPy's median of each row without NaT: the mean of the middle one or two
        mid = _ca.where(k[..., 0] % 2 == 1, lo, _trunc_div(lo + hi, 2))
    else:
        # NumPy's masked median (rows shorter than 600): the masked mean of [lo, hi]
        # ([h, h] for an odd count), sum * 1.0 (a float product) / 2; near int64's
        # ends its masked sum is its own, so NumPy's runs on the host copy there
        big = (_ca.absolute(_ca.where(_nat_mask(s), 0, s)) >= 2**61)
        if bool(_ca.any(big)):  # (NumPy's warnings too)
            return _host(_np.nanmedian, a, axis=axis, keepdims=keepdims, out=out)
        two = _td_times(lo + hi, 1.0)
        mid = _ca.where(_nat_mask(two), _NAT, _trunc_div(two, 2))
    empty = k[..., 0] == 0
    if bool(_ca.any(empty)):
        _warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=3)
    r = _ca.where(empty, _NAT, mid)
    return _finish(_keep(_wrap(_ca.asarray(r), a.dtype), a, axes, (), keepdims), out)


# ---- the nan- functions of _nanfunctions.py, ptp, average --------------------------
def nan_function(name, a, args, kwargs):
    """nanmax, nanmin, nanargmax, nanargmin, nanmean, nanvar, nanstd of a datetime
    array."""
    f = getattr(_np, name)
    kw = _bind(f, a, args, kwargs)
    kw.pop("a", None)
    kw = {k: v for k, v in kw.items() if v is not _np._NoValue and v is not _NoValue}
    _judge(f, a, **kw)
    axis, keepdims, out = kw.get("axis"), bool(kw.get("keepdims", False)), kw.get("out")
    if not _plain(kw, "axis", "keepdims", "out"):
        return _host(f, a, **kw)
    if name in ("nanmax", "nanmin"):
        # (frames: _nan_extreme, here, _nanfunctions' _nan_extreme and nanmax/nanmin)
        return _finish(_nan_extreme(a, axis, keepdims, name == "nanmax", 5), out)
    if name in ("nanargmax", "nanargmin"):  # NumPy's argmax: NaT is not NaN there
        return _finish(_arg(a, axis, keepdims, name == "nanargmax"), out)
    if name == "nanmean":
        return _finish(_sum_mean(a, axis, keepdims, True), out)
    return _host(f, a, **kw)


def ptp(a, axis=None, out=None, keepdims=False):
    """ptp: max - min, NaT where a slice holds NaT."""
    _judge(_np.ptp, a, axis=axis, keepdims=keepdims)
    hi = _reduce_minmax(a, axis, keepdims, True, None)
    lo = _reduce_minmax(a, axis, keepdims, False, None)
    return _finish(hi - lo, out)


def host_function(f, *args, **kwargs):
    """NumPy's f (average, histogram, trapezoid ...) with datetime arguments: its
    exception, or its result computed on the host copy and moved back."""
    return _host(f, *args, **kwargs)


def _numpy_product(name):
    f = getattr(_np, name)

    def product(*args, **kwargs):
        return _host(f, *args, **kwargs)
    product.__name__ = name
    product.__doc__ = (f"{name} with a datetime64/timedelta64 operand: NumPy's answer "
                       "(its error for most) on the host copies (csrc/ops/linalg.c).")
    return product


inner, outer, vdot, tensordot, dot, matmul = (
    _numpy_product(n) for n in ("inner", "outer", "vdot", "tensordot", "dot", "matmul"))

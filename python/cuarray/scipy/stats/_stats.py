"""SciPy's boxcox_llf, entropy, trim_mean, zmap and zscore (scipy.stats 1.17's
signatures: axis, ddof, nan_policy, keepdims where SciPy has them) as
compositions of cuarray reductions, on any device.

nan_policy: 'propagate' lets NaN through (a slice with a NaN gives NaN), 'omit'
computes each slice without its NaNs, 'raise' raises ValueError on a NaN (a read
of one flag from the device). float16 and float32 stay in their precision;
integers and bool compute in float64, as SciPy.
"""

import warnings

import numpy as _np

import cuarray as _ca

__all__ = ["boxcox_llf", "entropy", "trim_mean", "zmap", "zscore"]

_POLICIES = ("propagate", "raise", "omit")


def _arr(a, device=None):
    return a if isinstance(a, _ca.ndarray) else _ca.asarray(a, device=device)


def _float(a):
    """a in SciPy's computation dtype (floats kept, the rest float64)."""
    return a if a.dtype.kind in "fc" else a.astype(_np.float64)


def _nan_check(nan_policy, *arrays):
    """Whether NaNs are to be omitted; ValueError for 'raise' when there are any."""
    if nan_policy not in _POLICIES:
        raise ValueError("nan_policy must be one of {'propagate', 'raise', 'omit'}")
    if nan_policy == "propagate":
        return False
    has = any(a.dtype.kind in "fc" and bool(_ca.isnan(a).any()) for a in arrays)
    if has and nan_policy == "raise":
        raise ValueError("The input contains nan values")
    return has


def _flat_axis(a, axis):
    """(a, axis) with axis None meaning the raveled array's axis 0."""
    if axis is None:
        return a.ravel(), 0
    if not -a.ndim <= axis < max(a.ndim, 1):
        raise _np.exceptions.AxisError(axis, a.ndim)
    return a, axis


def _small_sample(n):
    if n == 0:
        from scipy.stats import SmallSampleWarning
        warnings.warn("One or more sample arguments is too small; all returned values "
                      "will be NaN. See documentation for sample size requirements.",
                      SmallSampleWarning, stacklevel=3)


def zmap(scores, compare, axis=0, ddof=0, nan_policy="propagate"):
    """zmap(scores, compare, axis=0, ddof=0, nan_policy='propagate')

    (scores - mean(compare)) / std(compare, ddof) along axis (None: over the
    whole of compare). A constant slice of compare gives NaN."""
    scores = _float(_arr(scores))
    compare = _float(_arr(compare, scores.device))
    omit = _nan_check(nan_policy, compare)
    mean, std = (_ca.nanmean, _ca.nanstd) if omit else (_ca.mean, _ca.std)
    if axis is None:
        mn, sd = mean(compare), std(compare, ddof=ddof)
    else:
        _flat_axis(compare, axis)
        mn = mean(compare, axis=axis, keepdims=True)
        sd = std(compare, axis=axis, ddof=ddof, keepdims=True)
    with _np.errstate(invalid="ignore", divide="ignore"):
        z = (scores - mn) / sd
    if compare.size == 0:
        return z
    # a constant slice: NaN even where rounding left its std slightly above 0
    first = compare.ravel()[:1] if axis is None else _ca.take(compare, [0], axis=axis)
    const = ((compare == first) | _ca.isnan(compare) if omit else compare == first)
    const = const.all() if axis is None else const.all(axis=axis, keepdims=True)
    return _ca.where(const, _np.nan, z).astype(z.dtype)


def zscore(a, axis=0, ddof=0, nan_policy="propagate"):
    """zscore(a, axis=0, ddof=0, nan_policy='propagate')

    The z-scores of a along axis: zmap(a, a, axis, ddof, nan_policy)."""
    return zmap(a, a, axis=axis, ddof=ddof, nan_policy=nan_policy)


def _sample(a, axis, nan_policy):
    """(a as at least 1-d floats, the axis, a's ndim, whether NaNs are omitted) of
    a one-sample statistic."""
    a = _float(_arr(a))
    omit = _nan_check(nan_policy, a)
    x, ax = _flat_axis(a, axis)
    return (x.reshape(1) if x.ndim == 0 else x), ax, a.ndim, omit


def _finish(r, keepdims, axis, ndim):
    if keepdims:
        return _ca.expand_dims(r, tuple(range(ndim)) if axis is None else axis)
    return r


def entropy(pk, qk=None, base=None, axis=0, *, nan_policy="propagate", keepdims=False):
    """entropy(pk, qk=None, base=None, axis=0, *, nan_policy='propagate',
    keepdims=False)

    Shannon entropy -sum(pk log pk) of pk normalised along axis, or with qk the
    relative entropy sum(pk log(pk / qk)); in units of log(base) (default e)."""
    if base is not None and base <= 0:
        raise ValueError("`base` must be a positive number or `None`.")
    pk = _float(_arr(pk))
    ndim = pk.ndim
    if qk is not None:
        qk = _float(_arr(qk, pk.device))
        if axis is None:   # SciPy ravels each before broadcasting
            ndim = max(ndim, qk.ndim)
            pk, qk = pk.ravel(), qk.ravel()
        try:
            pk, qk = _ca.broadcast_arrays(pk, qk)
        except ValueError:
            raise ValueError("Array shapes are incompatible for broadcasting.") from None
        ndim = ndim if axis is None else pk.ndim
    omit = _nan_check(nan_policy, *(x for x in (pk, qk) if x is not None))
    if axis is None:
        pk = pk.ravel()
        qk = None if qk is None else qk.ravel()
    ax = 0 if axis is None else axis
    if omit:   # an omitted element adds nothing to the sums, as a zero does
        gone = _ca.isnan(pk) if qk is None else _ca.isnan(pk) | _ca.isnan(qk)
        pk = _ca.where(gone, 0, pk).astype(pk.dtype)
        qk = None if qk is None else _ca.where(gone, 0, qk).astype(qk.dtype)
    with _np.errstate(invalid="ignore", divide="ignore"):
        pk = pk / pk.sum(axis=ax, keepdims=True)
        if qk is None:
            terms = _ca.where(pk > 0, -pk * _ca.log(pk),
                              _ca.where(pk == 0, 0, -_np.inf))
        else:
            qk = qk / qk.sum(axis=ax, keepdims=True)
            terms = _ca.where((pk > 0) & (qk > 0), pk * _ca.log(pk / qk),
                              _ca.where((pk == 0) & (qk >= 0), 0, _np.inf))
        terms = _ca.where(_ca.isnan(pk) | (_ca.isnan(qk) if qk is not None else False),
                          _np.nan, terms)
    s = terms.astype(pk.dtype).sum(axis=ax)
    if base is not None:
        s = (s / _np.log(base)).astype(pk.dtype)
    return _finish(s, keepdims, axis, ndim)


def trim_mean(a, proportiontocut, axis=0, *, nan_policy="propagate", keepdims=False):
    """trim_mean(a, proportiontocut, axis=0, *, nan_policy='propagate',
    keepdims=False)

    The mean of a along axis after cutting int(proportiontocut * n) of the
    smallest and of the largest values of each slice (a sort along axis)."""
    x, ax, ndim, omit = _sample(a, axis, nan_policy)
    x = _ca.moveaxis(x, ax, -1)
    n = x.shape[-1]
    s = _ca.sort(x, axis=-1)               # NaNs last
    nan = _ca.isnan(s)
    # per slice: its count (NaNs omitted or not) and the kept positions [lo, hi)
    cnt = n - nan.sum(axis=-1, keepdims=True) if omit else _np.int64(n)
    lo = (proportiontocut * cnt).astype(_np.int64) if omit else int(proportiontocut * n)
    hi = cnt - lo
    if bool((lo > hi).any() if omit else lo > hi):
        raise ValueError("Proportion too big.")
    _small_sample(n)
    pos = _ca.arange(n, device=x.device)
    keep = (pos >= lo) & (pos < hi)
    with _np.errstate(invalid="ignore", divide="ignore"):
        total = _ca.where(keep, s, 0).sum(axis=-1)
        r = (total / ((hi - lo)[..., 0] if omit else hi - lo)).astype(s.dtype)
    if not omit:
        r = _ca.where(nan.any(axis=-1), _np.nan, r).astype(s.dtype)
    return _finish(r, keepdims, axis, ndim)


def boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy="propagate"):
    """boxcox_llf(lmb, data, *, axis=0, keepdims=False, nan_policy='propagate')

    The Box-Cox log-likelihood of data along axis for parameter lmb:
    (lmb - 1) sum(log x) - n/2 log(var(y)), y the transformed data."""
    x, ax, ndim, omit = _sample(data, axis, nan_policy)
    _small_sample(x.shape[ax])
    with _np.errstate(invalid="ignore", divide="ignore"):
        logx = _ca.log(x)
        y = logx if lmb == 0 else (x ** lmb - 1) / lmb
        if omit:
            n = (~_ca.isnan(x)).sum(axis=ax)
            r = (lmb - 1) * _ca.nansum(logx, axis=ax) - n / 2 * _ca.log(
                _ca.nanvar(y, axis=ax))
        else:
            n = x.shape[ax]
            r = (lmb - 1) * logx.sum(axis=ax) - n / 2 * _ca.log(_ca.var(y, axis=ax))
    return _finish(r.astype(x.dtype), keepdims, axis, ndim)

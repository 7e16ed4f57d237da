"""datetime64/timedelta64 joins, selection, sets, searching and clip (the second
half of cuarray._datetime, which re-exports these names: the C layer and the hooks
look them up there). The same int64-bits compositions as _datetime.py."""

import numpy as _np

from ._datetime import (  # noqa: F401 (the first half's helpers)
    DatetimeArray,
    _I8,
    _SIGN,
    _base,
    _bits,
    _ca,
    _core,
    _device,
    _host_bits,
    _is_dt,
    _keys,
    _minmax,
    _nat_mask,
    _native,
    _proto,
    _value_bits,
    _wrap,
    array,
    asarray,
    ascontiguousarray,
    astype,
    empty,
    view,
)


# ---- joins and selection (csrc/ops/manip.c and elementwise.c hand them here) ------
def _common(arrays, dtype, np_fn=_np.concatenate):
    """The result dtype NumPy gives joining these (its TypeError if none; its
    ValueError for a Python scalar among them)."""
    if dtype is not None:
        return _native(_np.dtype(dtype))
    return np_fn([_np.empty((0,), a.dtype) if isinstance(a, _base) else _np.asarray(a)
                  for a in arrays]).dtype


def _join(fn, arrays, axis, out, dtype, casting):
    arrays = list(arrays)
    dt = _common(arrays, dtype, _np.stack if fn is _core.stack else _np.concatenate)
    for a in arrays:
        if not _np.can_cast(a.dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from {a.dtype!r} to {dt!r} "
                            f"according to the rule {casting!r}")
    if not _is_dt(dt):
        return fn([a.astype(dt) for a in arrays], axis)
    r = _wrap(fn([_bits(astype(a, dt, copy=False)) for a in arrays], axis), dt)
    if out is not None:
        out[...] = r
        return out
    return r


def concatenate(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """cuarray.concatenate of datetime64/timedelta64 arrays (in NumPy's result dtype)."""
    return _join(_core.concatenate, arrays, axis, out, dtype, casting)


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    """cuarray.stack of datetime64/timedelta64 arrays (in NumPy's result dtype)."""
    return _join(_core.stack, arrays, axis, out, dtype, casting)


def where(condition, x, y):
    """cuarray.where(condition, x, y) with a datetime64/timedelta64 operand."""
    dt = _native(_np.where(_np.empty(0, bool), _proto(x), _proto(y)).dtype)
    dev = _device(condition, x, y)
    if not _is_dt(dt):
        return _ca.where(condition, x, y)
    xb, yb = (_ca.asarray(_value_bits(v, dt, dev), device=dev) for v in (x, y))
    return _wrap(_ca.where(condition, xb, yb), dt)


# ---- sets, searching, clip (hooks in _sets.py, _sort_threads.py, elementwise.c) ----
def _from_keys(k):
    return ((k + _np.uint64(1)) ^ _SIGN).view(_I8)


def _same_unit_bits(x, dt):
    """x (a cuarray array or a value) as int64 bits of dtype dt, on x's device."""
    if isinstance(x, DatetimeArray):
        if x.dtype.kind != dt.kind:
            raise TypeError(f"Cannot compare {x.dtype} with {dt}")
        return _bits(astype(x, dt, copy=False))
    if isinstance(x, _base):  # integers as the timedelta unit (NumPy's same_kind)
        if x.dtype.kind not in "iu" or not _np.can_cast(x.dtype, dt, "same_kind"):
            raise TypeError(f"Cannot compare {x.dtype} with {dt}")
        return x.astype(_I8)
    return _ca.asarray(_host_bits(_np.asarray(x).astype(dt)))


def unique(ar, return_index=False, return_inverse=False, return_counts=False,
           axis=None, *, equal_nan=True, sorted=True):
    """unique of a datetime64/timedelta64 array: NaT last, one NaT (equal_nan) or
    each NaT its own value (equal_nan=False, as NumPy)."""
    if axis is not None:
        raise NotImplementedError("cuarray: unique of datetime64 with axis= is not "
                                  "implemented")
    b = _bits(ar)
    want = (True, return_index, return_inverse, return_counts)
    if not any(want[1:]):
        equal_nan = True  # NumPy's values-only path (a hash table) merges NaT too
    ask = [w or not equal_nan for w in want[1:]]  # (all four to set NaTs apart)
    r = _ca.unique(_keys(b), *ask)
    r = list(r) if isinstance(r, tuple) else [r]
    got = [r.pop(0) if w else None for w in [True] + ask]
    vals, idx, inv, cnt = _wrap(_from_keys(got[0]), ar.dtype), got[1], got[2], got[3]
    if not equal_nan:
        vals, idx, inv, cnt = _nat_apart(b, vals, idx, inv, cnt)
    out = tuple(v for v, w in zip((vals, idx, inv, cnt), want) if w)
    return out if len(out) > 1 else out[0]


def _nat_apart(b, vals, idx, inv, cnt):
    """unique's four results with each NaT a value of its own (the merged NaT is
    the last value): NaN's rule in NumPy's unique with equal_nan=False."""
    flat = b.reshape(-1)
    nat = _nat_mask(flat)
    n = int(_ca.sum(nat))
    if n <= 1:
        return vals, idx, inv, cnt
    m = vals.shape[0] - 1  # the merged NaT's slot
    pos = _ca.flatnonzero(nat)
    vals = _ca.concatenate([vals, vals[m:].repeat(n - 1)])
    idx = _ca.concatenate([idx[:m], pos])
    rank = _ca.cumsum(nat.astype(_I8)) - 1
    inv = _ca.where(nat, m + rank, inv.reshape(-1)).reshape(inv.shape)
    cnt = _ca.concatenate([cnt[:m], _ca.ones(n, dtype=cnt.dtype, device=cnt.device)])
    return vals, idx, inv, cnt


def isin(element, test_elements, invert=False):
    """isin with datetime64/timedelta64 operands: NumPy's ==, so NaT is in nothing."""
    try:
        dt = _np.result_type(element.dtype, test_elements.dtype)
        e, t = _same_unit_bits(element, dt), _same_unit_bits(test_elements, dt)
    except TypeError:  # no common type: NumPy's == is False everywhere
        return _ca.full(element.shape, bool(invert), dtype=bool, device=element.device)
    r = _ca.isin(e, t) & ~_nat_mask(e)
    return ~r if invert else r


def searchsorted(a, v, side="left", sorter=None):
    """searchsorted over a datetime64/timedelta64 array (sorted with NaT last)."""
    _np.searchsorted(_proto(a), _proto(v))  # NumPy's casting error, if any
    if not isinstance(a, DatetimeArray):
        raise TypeError(f"searchsorted: {a.dtype} and {v.dtype} cannot be compared")
    dt = _np.result_type(a.dtype, getattr(v, "dtype", None) or _np.asarray(v).dtype)
    ka = _keys(_same_unit_bits(a, dt))
    kv = _keys(_same_unit_bits(v, dt))
    return _ca.searchsorted(ka, kv, side, sorter)


def clip(a, a_min=None, a_max=None, out=None, *, min=None, max=None, dtype=None):
    """clip of a datetime64/timedelta64 array: maximum and minimum, NaT propagating."""
    lo = a_min if a_min is not None else min
    hi = a_max if a_max is not None else max
    r = a
    if lo is not None:
        r = _minmax("maximum", r, lo)
    if hi is not None:
        r = _minmax("minimum", r, hi)
    if r is a:  # NumPy's positive: its error for datetime64
        from ._datetime import _unary
        r = _unary("positive", a)
    if dtype is not None:
        r = r.astype(dtype)
    if out is not None:
        out[...] = r
        return out
    return r


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """cuarray.partition of a datetime64/timedelta64 array (NaT last, as NumPy)."""
    k = _core.partition(_ca.ascontiguousarray(_keys(_bits(a))), kth, axis, kind, order)
    return _wrap(_from_keys(k), a.dtype)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """cuarray.argpartition of a datetime64/timedelta64 array (NaT last)."""
    return _core.argpartition(_ca.ascontiguousarray(_keys(_bits(a))), kth, axis, kind,
                              order)

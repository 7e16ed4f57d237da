"""numpy.pad on cuarray arrays (numpy/lib/_arraypad_impl.py's modes constant, edge,
linear_ramp, maximum/minimum/mean/median, reflect, symmetric, wrap and empty; not a
callable mode), composed from slicing, setitem, concatenation, flips and the
reductions: constant and empty fill one allocation, the other modes pad axis by axis
over the already padded earlier axes, as NumPy does.
"""

import numpy as _np

from . import _core
from ._manipulation import _as, _at

__all__ = ["pad"]


def _pairs(x, ndim, as_index=False):
    """`x` broadcast to one (before, after) pair per axis, as NumPy's _as_pairs."""
    if x is None:
        return ((None, None),) * ndim
    x = _np.asarray(x)
    if as_index:
        # widths and lengths as Python ints, for slicing
        x = _np.round(x).astype(_np.intp)
        if x.size and x.min() < 0:
            raise ValueError("index can't contain negative values")
        if x.size in (1, 2) and x.ndim < 3 and x.shape != (2, 1):
            v = x.ravel().tolist()
            return ((v[0], v[-1]),) * ndim
        return tuple(tuple(p) for p in _np.broadcast_to(x, (ndim, 2)).tolist())
    # As NumPy's, one value or one pair come back as NumPy scalars and a pair per
    # axis as Python numbers: linear_ramp's arithmetic dtype follows from which
    if x.ndim < 3:
        if x.size == 1:
            v = x.ravel()[0]
            return ((v, v),) * ndim
        if x.size == 2 and x.shape != (2, 1):
            v = x.ravel()
            return ((v[0], v[1]),) * ndim
    return tuple(tuple(p) for p in _np.broadcast_to(x, (ndim, 2)).tolist())


def _ramp(edge, end, width, axis, dtype, reverse):
    """NumPy's linspace(end, edge, width, endpoint=False) along `axis` (floored for
    integer dtypes), in linspace's dtype: result_type(end, edge, float(width))."""
    wide = _np.result_type(end, _np.empty(0, dtype), float(width))
    end = end.item() if isinstance(end, _np.generic) else end
    edge = edge.astype(wide)
    shape = [1] * edge.ndim
    shape[axis] = width
    k = _core.arange(width, dtype=wide, device=edge.device).reshape(tuple(shape))
    delta = edge - end
    step = delta / float(width)
    if bool(_core.any(step == 0)):
        # NumPy's linspace then scales every ramp as (k / num) * delta, rounding
        # differently from k * step (one value read back to choose as it does)
        y = k / float(width) * delta + end
    else:
        y = k * step + end
    if reverse:
        y = _core.flip(y, axis)
    if dtype.kind in "iu":
        y = _core.floor(y)
    return y.astype(dtype)


def _stat(chunk, axis, fn, dtype):
    s = fn(chunk, axis=axis, keepdims=True)
    if dtype.kind in "iub" and s.dtype != dtype:
        s = _core.rint(s)  # mean and median of integers round half to even
    return s.astype(dtype)


def _reflect_index(n, before, after, include_edge):
    """Indices of the even reflection of an axis of length n, padded (before,
    after): NumPy's own pad of arange(n), which gives the index map directly."""
    mode = "symmetric" if include_edge else "reflect"
    return _np.pad(_np.arange(n, dtype=_np.int64), (before, after), mode=mode)


def pad(array, pad_width, mode="constant", **kwargs):
    """pad(array, pad_width, mode='constant', **kwargs)

    A padded copy of `array`, as NumPy's: modes 'constant' (constant_values),
    'edge', 'linear_ramp' (end_values), 'maximum', 'mean', 'median', 'minimum'
    (stat_length), 'reflect' and 'symmetric' (reflect_type), 'wrap' and 'empty'.
    Axes are padded in order, each over the already padded earlier axes."""
    a = _as(array)
    if isinstance(pad_width, dict):
        seq = [(0, 0)] * a.ndim
        for ax, w in pad_width.items():
            seq[ax] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    pw = _np.asarray(pad_width)
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    pw = _pairs(pw, a.ndim, as_index=True)
    if callable(mode):
        raise NotImplementedError("cuarray.pad does not take a function as mode")
    allowed = {"empty": [], "edge": [], "wrap": [], "constant": ["constant_values"],
               "linear_ramp": ["end_values"], "maximum": ["stat_length"],
               "mean": ["stat_length"], "median": ["stat_length"],
               "minimum": ["stat_length"], "reflect": ["reflect_type"],
               "symmetric": ["reflect_type"]}
    if mode not in allowed:
        raise ValueError(f"mode '{mode}' is not supported")
    bad = set(kwargs) - set(allowed[mode])
    if bad:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {bad}")
    dt, dev = a.dtype, a.device
    out_shape = tuple(s + b + e for s, (b, e) in zip(a.shape, pw))

    if mode in ("constant", "empty"):
        new = _core.empty(out_shape, dtype=dt, device=dev)
        new[tuple(slice(b, b + s) for s, (b, e) in zip(a.shape, pw))] = a
        if mode == "constant":
            vals = _pairs(kwargs.get("constant_values", 0), a.ndim)
            for ax, ((b, e), (vb, ve)) in enumerate(zip(pw, vals)):
                # later axes' pads overwrite the corners, as NumPy's order does
                # NumPy assigns the values as float64 (or complex) arrays: an
                # unsafe cast, so -1.5 goes into uint8 as NumPy puts it there
                if b:
                    new[_at(ax, slice(None, b))] = _np.asarray(vb).astype(dt)[()]
                if e:
                    new[_at(ax, slice(out_shape[ax] - e, None))] = \
                        _np.asarray(ve).astype(dt)[()]
        return new

    for ax, (b, e) in enumerate(pw):
        if a.shape[ax] == 0 and (b or e):
            raise ValueError(f"can't extend empty axis {ax} using modes other than "
                             "'constant' or 'empty'")
    _median = None
    if mode == "median":
        from ._statistics import median as _median
    stat_fn = {"maximum": _core.max, "minimum": _core.min, "mean": _core.mean,
               "median": _median}.get(mode)
    ends = _pairs(kwargs.get("end_values", 0), a.ndim) if mode == "linear_ramp" \
        else None
    lengths = _pairs(kwargs.get("stat_length"), a.ndim, as_index=True) \
        if stat_fn else None
    odd = kwargs.get("reflect_type", "even") == "odd"

    out = a
    for ax, (b, e) in enumerate(pw):
        if not (b or e):
            continue
        n = out.shape[ax]
        if mode in ("edge", "wrap") or (mode in ("reflect", "symmetric") and
                                        (not odd or n == 1)):
            # a pure index map along the axis: one gather
            if mode == "edge" or n == 1:
                idx = _np.concatenate((_np.zeros(b, _np.int64),
                                       _np.arange(n, dtype=_np.int64),
                                       _np.full(e, n - 1, _np.int64)))
            elif mode == "wrap":
                idx = _np.arange(-b, n + e, dtype=_np.int64) % n
            else:
                idx = _reflect_index(n, b, e, mode == "symmetric")
            out = out[_at(ax, _core.asarray(idx, device=dev))]
            continue
        first = out[_at(ax, slice(0, 1))]
        last = out[_at(ax, slice(n - 1, n))]
        if mode in ("reflect", "symmetric"):
            # odd reflection: 2 * edge - mirror; past one period NumPy reflects the
            # already reflected part again, so grow the axis a period at a time
            inc = mode == "symmetric"
            orig = a.shape[ax]
            while b or e:
                # chunks of whole periods of the original axis, as NumPy's (with
                # wrapping integer arithmetic the chunking shows in the results)
                n = out.shape[ax]
                if inc:
                    period = n // orig * orig
                else:
                    period = (n - 1) // (orig - 1) * (orig - 1)
                cb, ce = min(b, period), min(e, period)
                first = out[_at(ax, slice(0, 1))]
                last = out[_at(ax, slice(n - 1, n))]
                parts = []
                if cb:
                    lo = 0 if inc else 1
                    mir = _core.flip(out[_at(ax, slice(lo, lo + cb))], ax)
                    parts.append(2 * first - mir)
                parts.append(out)
                if ce:
                    hi = n if inc else n - 1
                    mir = _core.flip(out[_at(ax, slice(hi - ce, hi))], ax)
                    parts.append(2 * last - mir)
                out = _core.concatenate([p.astype(dt, copy=False) for p in parts],
                                        axis=ax)
                b, e = b - cb, e - ce
            continue
        if mode == "linear_ramp":
            vb, ve = ends[ax]
            parts = []
            if b:
                parts.append(_ramp(first, vb, b, ax, dt, False))
            parts.append(out)
            if e:
                parts.append(_ramp(last, ve, e, ax, dt, True))
            out = _core.concatenate(parts, ax)
            continue
        lb, le = lengths[ax]
        lb = n if lb is None or lb > n else lb
        le = n if le is None or le > n else le
        if (lb == 0 or le == 0) and mode in ("maximum", "minimum"):
            raise ValueError("stat_length of 0 yields no value for padding")
        sb = _stat(out[_at(ax, slice(0, lb))], ax, stat_fn, dt)
        se = sb if lb == le == n else _stat(out[_at(ax, slice(n - le, n))], ax,
                                            stat_fn, dt)
        parts = []
        if b:
            parts.append(_core.broadcast_to(
                sb, out.shape[:ax] + (b,) + out.shape[ax + 1:]))
        parts.append(out)
        if e:
            parts.append(_core.broadcast_to(
                se, out.shape[:ax] + (e,) + out.shape[ax + 1:]))
        out = _core.concatenate(parts, ax)
    return out if out is not a else a.copy()

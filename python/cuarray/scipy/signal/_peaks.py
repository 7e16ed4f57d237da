"""Peak finding (SciPy's scipy.signal): argrelextrema, argrelmax, argrelmin,
find_peaks, peak_prominences, peak_widths.

Choice: argrel* are compositions (order shifted comparisons with the 'clip' or
'wrap' index rule, one nonzero). find_peaks finds the local maxima with their
plateaus on the device (the non-zero steps of sign(diff(x)) compacted by one
nonzero: a peak is a rise followed by a fall, its plateau the samples between)
and applies plateau_size, height and threshold there. The distance rule (a greedy
pass in priority order) and the prominence and width searches (per peak walks of
data-dependent length) are SciPy's on the host: when find_peaks is given
distance, prominence or width, and for peak_prominences and peak_widths, a GPU
signal is copied to the host (a RuntimeWarning says so) and the results come
back to its device. On the cpu device (CPU_SCIPY) SciPy runs on zero-copy views.
"""

import warnings

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, on_cpu, scipy_signal

__all__ = ["argrelextrema", "argrelmax", "argrelmin", "find_peaks", "peak_prominences",
           "peak_widths"]

CPU_SCIPY = True


def _route(*arrays):
    return CPU_SCIPY and on_cpu(*arrays)


def _comparator(comparator):
    """cuarray's ufunc of NumPy's comparison ufunc (other callables as given)."""
    name = getattr(comparator, "__name__", None)
    if isinstance(comparator, _np.ufunc) and hasattr(_ca, name):
        return getattr(_ca, name)
    return comparator


def _boolrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    if int(order) != order or order < 1:
        raise ValueError("Order must be an int >= 1")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"mode {mode!r} must be 'clip' or 'wrap'")
    axis = axis % data.ndim
    n = data.shape[axis]
    comparator = _comparator(comparator)
    results = _ca.ones(data.shape, dtype=bool, device=data.device)
    locs = _np.arange(n)
    for shift in range(1, int(order) + 1):
        for idx in (locs + shift, locs - shift):
            idx = _np.clip(idx, 0, n - 1) if mode == "clip" else idx % n
            other = _ca.take(data, _ca.asarray(idx, device=data.device), axis=axis)
            results &= comparator(data, other)
        if not bool(results.any()):
            break
    return results


def argrelextrema(data, comparator, axis=0, order=1, mode="clip"):
    """Indices of relative extrema: where comparator(data, neighbour) holds for
    the order neighbours on each side along axis."""
    data = asarray(data)
    if _route(data):
        return back(scipy_signal().argrelextrema(host(data), comparator, axis, order,
                                                 mode), "cpu")
    return _ca.nonzero(_boolrelextrema(data, comparator, axis, order, mode))


def argrelmax(data, axis=0, order=1, mode="clip"):
    """Indices of relative maxima along axis."""
    return argrelextrema(data, _np.greater, axis, order, mode)


def argrelmin(data, axis=0, order=1, mode="clip"):
    """Indices of relative minima along axis."""
    return argrelextrema(data, _np.less, axis, order, mode)


def _host_fallback(x, name):
    if x.device != "cpu":
        warnings.warn(f"{name} runs on the host (SciPy): the signal is copied there",
                      RuntimeWarning, stacklevel=3)


def _local_maxima(x):
    """(peaks, left edges, right edges) of x's local maxima with plateaus (the
    middle of a plateau, rounded down, as SciPy's)."""
    d = _ca.sign(x[1:] - x[:-1])
    nz = _ca.nonzero(d)[0]
    s = d[nz]
    if s.size < 2:
        e = _ca.zeros(0, dtype=_np.intp, device=x.device)
        return e, e, e
    rise_fall = _ca.nonzero((s[:-1] > 0) & (s[1:] < 0))[0]
    left = nz[rise_fall] + 1
    right = nz[rise_fall + 1]
    return (left + right) // 2, left, right


def _interval(interval, x, peaks):
    """(lower, upper) bounds of an interval argument (a number, an array of x's
    length read at the peaks, or a tuple of two such; None for no bound)."""
    lo, hi = interval if isinstance(interval, tuple) else (interval, None)

    def at_peaks(v):
        if v is None or _np.ndim(v) == 0:
            return v
        v = asarray(v)
        if v.size != x.size:
            raise ValueError("array size of lower interval border must match x")
        return v[peaks]
    return at_peaks(lo), at_peaks(hi)


def _within(v, lo, hi):
    keep = _ca.ones(v.shape, dtype=bool, device=v.device)
    if lo is not None:
        keep &= v >= lo
    if hi is not None:
        keep &= v <= hi
    return keep


def find_peaks(x, height=None, threshold=None, distance=None, prominence=None,
               width=None, wlen=None, rel_height=0.5, plateau_size=None):
    """Indices of x's peaks (local maxima) meeting the given conditions, and a
    dict of their properties (SciPy's keys)."""
    x = asarray(x)
    if _route(x) or distance is not None or prominence is not None or width is not None:
        _host_fallback(x, "find_peaks with distance, prominence or width")
        p, props = scipy_signal().find_peaks(host(x), host(height), host(threshold),
                                             distance, host(prominence), host(width),
                                             wlen, rel_height, host(plateau_size))
        return back(p, x.device), {k: back(v, x.device) for k, v in props.items()}
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    x = x.astype(_np.float64, copy=False)
    peaks, left, right = _local_maxima(x)
    props = {}
    if plateau_size is not None:
        sizes = right - left + 1
        keep = _within(sizes, *_interval(plateau_size, x, peaks))
        peaks, left, right, sizes = peaks[keep], left[keep], right[keep], sizes[keep]
        props.update(plateau_sizes=sizes, left_edges=left, right_edges=right)
    if height is not None:
        h = x[peaks]
        keep = _within(h, *_interval(height, x, peaks))
        peaks, props = peaks[keep], {k: v[keep] for k, v in props.items()}
        props["peak_heights"] = h[keep]
    if threshold is not None:
        lt, rt = x[peaks] - x[peaks - 1], x[peaks] - x[peaks + 1]
        lo, hi = _interval(threshold, x, peaks)
        keep = _within(_ca.minimum(lt, rt), lo, None) & _within(_ca.maximum(lt, rt), None, hi)
        peaks, props = peaks[keep], {k: v[keep] for k, v in props.items()}
        props.update(left_thresholds=lt[keep], right_thresholds=rt[keep])
    return peaks, props


def peak_prominences(x, peaks, wlen=None):
    """Each peak's prominence and its left and right bases (SciPy's walk on the
    host; a GPU signal is copied there with a warning)."""
    x = asarray(x)
    _host_fallback(x, "peak_prominences")
    return back(scipy_signal().peak_prominences(host(x), host(peaks), wlen), x.device)


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Each peak's width at rel_height of its prominence, the height, and the
    interpolated left and right crossings (SciPy's on the host; a GPU signal is
    copied there with a warning)."""
    x = asarray(x)
    _host_fallback(x, "peak_widths")
    return back(scipy_signal().peak_widths(host(x), host(peaks), rel_height,
                                           host(prominence_data), wlen), x.device)

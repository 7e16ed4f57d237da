"""Peak finding (SciPy's scipy.signal): argrelextrema, argrelmax, argrelmin,
find_peaks, peak_prominences, peak_widths.

Choice: compositions. argrel* are order shifted comparisons with the 'clip' or
'wrap' index rule and one nonzero. find_peaks finds the local maxima with their
plateaus on the device (the non-zero steps of sign(diff(x)) compacted by one
nonzero: a peak is a rise followed by a fall, its plateau the samples between)
and applies plateau_size, height and threshold there. Prominences and widths
replace SciPy's per-peak walks by binary lifting over sparse tables of x (range
maxima and minima over windows of 2^k samples: log2(N) levels, N log2(N) values
each, built by one elementwise max/min per level): "walk left while x <= x[peak]"
is log2(N) vectorized steps over all peaks (each a gather and a compare), the
walk's minimum one range query, its position another lifting. The distance rule
is a greedy pass in priority order: it runs on the host over the peaks' indices
and heights only (a Python loop over the peaks). On the cpu device (CPU_SCIPY)
SciPy runs on zero-copy views.
"""

import warnings

import numpy as _np

import cuarray as _ca

from ._util import asarray, back, host, like, on_cpu, scipy_signal

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
    length read at the peaks, or a pair of such; None for no bound)."""
    try:
        lo, hi = interval
    except (TypeError, ValueError):
        lo, hi = interval, None

    def at_peaks(v, which):
        if v is None or _np.ndim(v) == 0 or not isinstance(v, (_np.ndarray, _ca.ndarray)):
            return v
        v = like(v, x)
        if v.size != x.size:
            raise ValueError(f"array size of {which} interval border must match x")
        return v.astype(_np.float64, copy=False).reshape(-1)[peaks]
    return at_peaks(lo, "lower"), at_peaks(hi, "upper")


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
    if _route(x):
        p, props = scipy_signal().find_peaks(host(x), host(height), host(threshold),
                                             distance, host(prominence), host(width),
                                             wlen, rel_height, host(plateau_size))
        return back(p, "cpu"), {k: back(v, "cpu") for k, v in props.items()}
    x = _as_signal(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    peaks, left, right = _local_maxima(x)
    props = {}

    def select(keep, new=()):
        nonlocal peaks, props
        props.update(new)
        peaks, props = peaks[keep], {k: v[keep] for k, v in props.items()}
    if plateau_size is not None:
        sizes = right - left + 1
        select(_within(sizes, *_interval(plateau_size, x, peaks)),
               dict(plateau_sizes=sizes, left_edges=left, right_edges=right))
    if height is not None:
        h = x[peaks]
        select(_within(h, *_interval(height, x, peaks)), dict(peak_heights=h))
    if threshold is not None:
        lt, rt = x[peaks] - x[peaks - 1], x[peaks] - x[peaks + 1]
        lo, hi = _interval(threshold, x, peaks)
        select(_within(_ca.minimum(lt, rt), lo, None) & _within(_ca.maximum(lt, rt), None, hi),
               dict(left_thresholds=lt, right_thresholds=rt))
    if distance is not None:
        select(_select_by_distance(peaks, x[peaks], distance))
    tables = None
    if prominence is not None or width is not None:
        tables = _Tables(x)
        props.update(zip(["prominences", "left_bases", "right_bases"],
                         _prominences(x, peaks, _wlen(wlen), tables)))
    if prominence is not None:
        select(_within(props["prominences"], *_interval(prominence, x, peaks)))
    if width is not None:
        props.update(zip(["widths", "width_heights", "left_ips", "right_ips"],
                         _widths(x, peaks, rel_height, props["prominences"],
                                 props["left_bases"], props["right_bases"], tables)))
        select(_within(props["widths"], *_interval(width, x, peaks)))
    return peaks, props


def _as_signal(x):
    if x.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return x.astype(_np.float64, copy=False)


def _as_peaks(peaks, device):
    peaks = asarray(peaks) if isinstance(peaks, _ca.ndarray) else \
        _ca.asarray(_np.asarray(peaks), device=device)
    if peaks.size == 0:
        return _ca.zeros(0, dtype=_np.intp, device=device)
    if not _np.can_cast(peaks.dtype, _np.intp, "safe"):
        raise TypeError("cannot safely cast `peaks` to dtype('intp')")
    if peaks.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return peaks.astype(_np.intp, copy=False)


def _wlen(wlen):
    if wlen is None:
        return -1
    if 1 < wlen:
        return int(_np.ceil(wlen))
    raise ValueError(f"`wlen` must be larger than 1, was {wlen}")


def _select_by_distance(peaks, priority, distance):
    """SciPy's greedy rule on the host (the peaks' indices and heights only):
    from the highest peak down, drop the peaks closer than distance."""
    p = _np.asarray(host(peaks))
    order = _np.argsort(_np.asarray(host(priority)))
    distance = _np.ceil(distance)
    keep = _np.ones(p.size, dtype=bool)
    for j in order[::-1]:
        if not keep[j]:
            continue
        k = j - 1
        while k >= 0 and p[j] - p[k] < distance:
            keep[k] = False
            k -= 1
        k = j + 1
        while k < p.size and p[k] - p[j] < distance:
            keep[k] = False
            k += 1
    return _ca.asarray(keep, device=peaks.device)


class _Tables:
    """Sparse tables of x: mx[k][i] = max(x[i:i+2^k]), mn[k][i] = min(...)."""

    def __init__(self, x):
        self.n = x.shape[0]
        self.mx, self.mn = [x], [x]
        h = 1
        while 2 * h <= self.n:
            self.mx.append(_ca.maximum(self.mx[-1][:-h], self.mx[-1][h:]))
            self.mn.append(_ca.minimum(self.mn[-1][:-h], self.mn[-1][h:]))
            h *= 2

    def left(self, tab, start, lo, ok):
        """Per peak, the smallest c >= lo with ok(window) on all of [c, start):
        binary lifting from start."""
        cur = start
        for k in range(len(tab) - 1, -1, -1):
            cand = cur - (1 << k)
            good = (cand >= lo) & ok(tab[k][_ca.clip(cand, 0, tab[k].shape[0] - 1)])
            cur = _ca.where(good, cand, cur)
        return cur

    def right(self, tab, start, hi, ok):
        """Per peak, the largest c <= hi with ok on all of (start, c]."""
        cur = start
        for k in range(len(tab) - 1, -1, -1):
            cand = cur + (1 << k)
            good = (cand <= hi) & ok(tab[k][_ca.clip(cur + 1, 0, tab[k].shape[0] - 1)])
            cur = _ca.where(good, cand, cur)
        return cur

    def range_min(self, a, b):
        """min(x[a..b]) per peak (a <= b): two overlapping windows of 2^k."""
        length = (b - a + 1).astype(_np.float64)
        k = _ca.floor(_ca.log2(length)).astype(_np.intp)
        out = _ca.zeros(a.shape, dtype=self.mn[0].dtype, device=a.device)
        for level in range(len(self.mn)):
            # one masked gather per level (no waits on the device)
            sel = k == level
            t = self.mn[level]
            v = _ca.minimum(t[_ca.clip(a, 0, t.shape[0] - 1)],
                            t[_ca.clip(b - (1 << level) + 1, 0, t.shape[0] - 1)])
            out = _ca.where(sel, v, out)
        return out


def _check_peak_indices(peaks, n):
    if peaks.size and bool(((peaks < 0) | (peaks >= n)).any()):
        bad = int(host(peaks[(peaks < 0) | (peaks >= n)][:1])[0])
        raise ValueError(f"peak {bad} is not a valid index for `x`")


def _prominences(x, peaks, wlen, t):
    """(prominences, left_bases, right_bases) as SciPy's walks define them."""
    n = x.shape[0]
    _check_peak_indices(peaks, n)
    if peaks.size == 0:
        e = _ca.zeros(0, dtype=_np.intp, device=x.device)
        return _ca.zeros(0, dtype=_np.float64, device=x.device), e, e
    v = x[peaks]
    lo = _ca.maximum(peaks - wlen // 2, 0) if wlen >= 2 else peaks * 0
    hi = _ca.minimum(peaks + wlen // 2, n - 1) if wlen >= 2 else peaks * 0 + (n - 1)
    # the walks' extents: while x <= x[peak], within the window
    L = t.left(t.mx, peaks, lo, lambda w: w <= v)
    R = t.right(t.mx, peaks, hi, lambda w: w <= v)
    lmin, rmin = t.range_min(L, peaks), t.range_min(peaks, R)
    # the bases: the minimum nearest the peak on each side
    lc = t.left(t.mn, peaks, L, lambda w: w > lmin)
    lbase = _ca.where(v <= lmin, peaks, lc - 1)
    rc = t.right(t.mn, peaks, R, lambda w: w > rmin)
    rbase = _ca.where(v <= rmin, peaks, rc + 1)
    prom = v - _ca.maximum(lmin, rmin)
    if bool((prom == 0).any()):
        warnings.warn("some peaks have a prominence of 0", _peak_warning(), stacklevel=3)
    return prom, lbase, rbase


def _peak_warning():
    from scipy.signal._peak_finding_utils import PeakPropertyWarning
    return PeakPropertyWarning


def _widths(x, peaks, rel_height, prom, lbase, rbase, t):
    """(widths, width_heights, left_ips, right_ips) as SciPy's walks define them."""
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if not (peaks.shape == prom.shape == lbase.shape == rbase.shape):
        raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
    if peaks.size == 0:
        e = _ca.zeros(0, dtype=_np.float64, device=x.device)
        return e, e, e, e
    bad = ~((lbase <= peaks) & (peaks <= rbase) & (lbase >= 0) & (rbase < x.shape[0]))
    if bool(bad.any()):
        raise ValueError(f"prominence data is invalid for peak "
                         f"{int(host(peaks[bad][:1])[0])}")
    height = x[peaks] - prom * rel_height
    # walk left from the peak while x > height (not past the base), then interpolate
    i = t.left(t.mn, peaks + 1, lbase + 1, lambda w: w > height) - 1
    xi = x[i]
    step = x[_ca.minimum(i + 1, x.shape[0] - 1)] - xi
    left = i + _ca.where(xi < height, (height - xi) / _ca.where(xi < height, step, 1.0), 0.0)
    j = t.right(t.mn, peaks - 1, rbase - 1, lambda w: w > height) + 1
    xj = x[j]
    step = x[_ca.maximum(j - 1, 0)] - xj
    right = j - _ca.where(xj < height, (height - xj) / _ca.where(xj < height, step, 1.0), 0.0)
    widths = right - left
    if bool((widths == 0).any()):
        warnings.warn("some peaks have a width of 0", _peak_warning(), stacklevel=3)
    return widths, height, left, right


def peak_prominences(x, peaks, wlen=None):
    """Each peak's prominence and its left and right bases."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().peak_prominences(host(x), host(peaks), wlen), "cpu")
    x = _as_signal(x)
    peaks = _as_peaks(peaks, x.device)
    return _prominences(x, peaks, _wlen(wlen), _Tables(x))


def peak_widths(x, peaks, rel_height=0.5, prominence_data=None, wlen=None):
    """Each peak's width at rel_height of its prominence, the height, and the
    interpolated left and right crossings."""
    x = asarray(x)
    if _route(x):
        return back(scipy_signal().peak_widths(host(x), host(peaks), rel_height,
                                               host(prominence_data), wlen), "cpu")
    x = _as_signal(x)
    peaks = _as_peaks(peaks, x.device)
    t = _Tables(x)
    if prominence_data is None:
        prominence_data = _prominences(x, peaks, _wlen(wlen), t)
    prom, lb, rb = (asarray(a) if isinstance(a, _ca.ndarray) else
                    _ca.asarray(_np.asarray(a), device=x.device) for a in prominence_data)
    return _widths(x, peaks, rel_height, prom.astype(_np.float64, copy=False),
                   lb.astype(_np.intp, copy=False), rb.astype(_np.intp, copy=False), t)

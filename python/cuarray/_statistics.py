"""Counting and order statistics: bincount, histogram, histogram2d, histogramdd,
digitize, median, percentile, quantile and their nan- forms, as NumPy's.

Histograms find each sample's bin with searchsorted against the bin edges (the
edges computed by NumPy on the host, so they are NumPy's to the bit), then count
with the shared-memory kernel behind _core._bincount; samples outside the edges
land outside [0, nbins) and are skipped by the kernel, so nothing is read back
(only an automatic range reads min and max). Order statistics sort along the
axis (one segmented sort; NaNs last) and gather the neighbours of each virtual
index NumPy's method defines, then interpolate as NumPy's _lerp does.

The cpu device runs NumPy's own histogram, histogram_bin_edges, quantile and
percentile (nanquantile and nanpercentile where NumPy handles the rows in one
call or they are long) on zero-copy views, past the sizes where NumPy's overhead
is paid back (NP_HISTOGRAM_MIN, NP_QUANTILE_MIN): 2-8x faster than the
compositions on a 2-core machine at 2^20 elements. bincount, digitize,
histogram2d and histogramdd keep the compositions there (measured as fast as
NumPy's or faster), as do weighted quantiles.
"""

import builtins
import operator
import warnings as _warnings

import numpy as _np
from numpy.lib import _function_base_impl as _fb
from numpy.lib import _histograms_impl as _hist

from . import _core
from ._cpu_numpy import view as _view
from ._cpu_numpy import wrap as _wrap
from ._sorting import _as_array, _take_last
from ._sort_threads import _datetime

__all__ = ["bincount", "histogram", "histogram2d", "histogramdd", "histogram_bin_edges",
           "digitize", "median", "percentile", "quantile", "nanmedian", "nanpercentile",
           "nanquantile"]

CPU_NUMPY = True  # tests turn it off to run the compositions on the cpu device


# Below these sizes the compositions are the faster (NumPy's Python overhead):
# histogram at 4096 samples, quantile at 1024.
NP_HISTOGRAM_MIN = 8192
NP_QUANTILE_MIN = 2048



def _dts():
    """cuarray._datetime_stats (datetime64/timedelta64 arrays), loaded on first use."""
    from . import _datetime_stats
    return _datetime_stats

def _cpu(*arrays):
    """Whether a call may go to NumPy: every cuarray array among `arrays` is on
    the cpu device (others, None included, are ignored)."""
    return CPU_NUMPY and all(a.device.id < 0 for a in arrays
                             if isinstance(a, _core.ndarray))


# ---------------------------------------------------------------- bincount ----

def bincount(x, weights=None, minlength=0):
    """bincount(x, weights=None, minlength=0)

    The number of occurrences of each value in the non-negative integer array x
    (numpy.bincount), or the sum of the weights (float64) at each. The length is
    max(x) + 1 (at least minlength), read back from the device with min(x).
    """
    # NumPy's answer (its error) on the host copies
    if _datetime(x) or _datetime(weights):
        from ._datetime_stats import host_function
        return host_function(_np.bincount, x, weights=weights, minlength=minlength)
    x = _as_array(x)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1
                         else "object of too small depth for desired array")
    if x.dtype.kind not in "biu":
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to "
                        "dtype('int64') according to the rule 'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        weights = _as_array(weights, device=x.device)
        if weights.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
    if x.size == 0:
        # NumPy: int64 zeros for an empty x, weights or not
        return _core.zeros((minlength,), dtype=_np.int64, device=x.device)
    else:
        # one pass: the max of the values read as unsigned is 2^(bits-1) or more
        # exactly when one is negative (the cpu device reads a zero-copy NumPy view)
        h = _np.asarray(x) if x.device.id < 0 else x
        if x.dtype.kind == "i":
            top = int(h.view(_np.dtype(f"u{x.dtype.itemsize}")).max())
            if top >> (8 * x.dtype.itemsize - 1):
                raise ValueError("'list' argument must have no negative elements")
        else:
            top = int(h.max())
            if x.dtype.itemsize == 8 and top >> 63:
                # NumPy casts uint64 to int64 unsafely: such a value is negative there
                raise ValueError("'list' argument must have no negative elements")
        n = max(top + 1, minlength)
    if x.dtype != _np.int32 and x.dtype != _np.int64:
        x = x.astype(_np.int64)
    return _core._bincount(x, weights, n)


# --------------------------------------------------------------- histogram ----

def _proxy(a, range):
    """A NumPy stand-in for a holding its min and max (when the range needs them),
    so that NumPy's own edge code gives its edges to the bit (their types too)."""
    if range is not None or a.size == 0:
        return _np.empty(0, a.dtype)
    return _np.array([a.min().get()[()], a.max().get()[()]], a.dtype)


def _outer_edges(a, range):
    return _hist._get_outer_edges(_proxy(a, range), range)


def _host(x):
    """A 0-d result read back as the NumPy scalar NumPy's own code would hold."""
    return x.get()[()]


def _width_sqrt(x, n, ptp):
    return ptp / _np.sqrt(n)


def _width_sturges(x, n, ptp):
    return ptp / (_np.log2(n) + 1.0)


def _width_rice(x, n, ptp):
    return ptp / (2.0 * n ** (1.0 / 3))


def _width_scott(x, n, ptp):
    return (24.0 * _np.pi ** 0.5 / n) ** (1.0 / 3.0) * _host(_core.std(x))


def _width_fd(x, n, ptp):
    q75, q25 = percentile(x, [75, 25]).get()
    return 2.0 * _np.subtract(q75, q25) * n ** (-1.0 / 3.0)


def _width_auto(x, n, ptp):
    # NumPy 2's rule: FD, held to at most twice sqrt's number of bins, or Sturges
    fd = max(_width_fd(x, n, ptp), _width_sqrt(x, n, ptp) / 2)
    return min(fd, _width_sturges(x, n, ptp))


def _width_doane(x, n, ptp):
    if n <= 2:
        return 0.0
    sigma = _host(_core.std(x))
    if not sigma > 0.0:
        return 0.0
    sg1 = _np.sqrt(6.0 * (n - 2) / ((n + 1.0) * (n + 3)))
    z = (x - _core.mean(x)) / sigma
    g1 = _host(_core.mean(z * z * z))
    return ptp / (1.0 + _np.log2(n) + _np.log2(1.0 + _np.absolute(g1) / sg1))


def _width_stone(x, n, ptp, rng):
    """Stone's cross-validated choice: every candidate count's score on the device,
    one read back for the best."""
    if n <= 1 or ptp == 0:
        return 0
    top = max(100, int(_np.sqrt(n)))
    scores = []
    for k in builtins.range(1, top + 1):
        p = histogram(x, bins=k, range=rng)[0] / n
        scores.append((2 - (n + 1) * _core.sum(p * p)) / (ptp / k))
    k = int(_host(_core.argmin(_core.stack(scores)))) + 1
    if k == top:
        _warnings.warn("The number of bins estimated may be suboptimal.",
                       RuntimeWarning, stacklevel=4)
    return ptp / k


_WIDTHS = {"auto": _width_auto, "fd": _width_fd, "doane": _width_doane,
           "scott": _width_scott, "stone": None, "rice": _width_rice,
           "sturges": _width_sturges, "sqrt": _width_sqrt}


def _estimated_bin_count(a, name, range):
    """numpy.histogram's bin estimators (its formulas, on the device: a few
    reductions and read backs of their scalars; 'stone' scores each count)."""
    if name not in _WIDTHS:
        raise ValueError(f"{name!r} is not a valid estimator for `bins`")
    first, last = _outer_edges(a, range)
    if range is not None:
        a = a[_core.logical_and(_core.greater_equal(a, first), _core.less_equal(a, last))]
    n = a.size
    if n == 0:
        return 1
    ptp = _hist._unsigned_subtract(_host(_core.max(a)), _host(_core.min(a)))
    if name == "stone":
        width = _width_stone(a, n, ptp, (first, last))
    else:
        width = _WIDTHS[name](a, n, ptp)
    if not width:
        return 1
    if a.dtype.kind in "iu" and width < 1:
        width = 1
    return int(_np.ceil(_hist._unsigned_subtract(last, first) / width))


def _subtractable(a):
    """a, raveled; bool samples as uint8 with NumPy's RuntimeWarning (its histograms
    subtract edges)."""
    a = _as_array(a).reshape(-1)
    if a.dtype == _np.bool_:
        _warnings.warn(f"Converting input from {a.dtype} to {_np.uint8} for compatibility.",
                      RuntimeWarning, stacklevel=3)
        a = a.astype(_np.uint8)
    return a


def _edges(a, bins, range):
    """NumPy's bin edges (a cuarray array on a's device) and, for a number of bins,
    the (first, last) range they span."""
    if isinstance(bins, str):
        bins = _estimated_bin_count(a, bins, range)
    if _np.ndim(bins) == 0 and not isinstance(bins, _core.ndarray):
        try:
            n = operator.index(bins)
        except TypeError as e:
            raise TypeError("`bins` must be an integer, a string, or an array") from e
        if n < 1:
            raise ValueError("`bins` must be positive, when an integer")
        proxy = _proxy(a, range)
        edges, _ = _hist._get_bin_edges(proxy, n, range, None)
        first, last = _hist._get_outer_edges(proxy, range)
        return _core.asarray(edges, device=a.device), (first, last)
    edges = _as_array(bins, device=a.device)
    if edges.ndim != 1:
        raise ValueError("`bins` must be 1d, when an array")
    if edges.size > 1 and bool(_core.any(_core.less(edges[1:], edges[:-1]))):
        raise ValueError("`bins` must increase monotonically, when an array")
    return edges, None


def _bin_index(a, edges):
    """Each sample's bin in [0, nbins), -1 below, nbins above or NaN."""
    nbins = edges.size - 1
    idx = _core.searchsorted(edges, a, side="right") - 1
    # the last edge belongs to the last bin
    return _core.where(_core.equal(a, edges[-1]), nbins - 1, idx)


def _weighted(idx, w, nbins):
    """Sums of w per bin, in w's dtype (as NumPy), through float64 kernels."""
    if w.dtype.kind == "c":
        re = _core._bincount(idx, _core.real(w), nbins)
        im = _core._bincount(idx, _core.imag(w), nbins)
        return (re + 1j * im).astype(w.dtype)
    s = _core._bincount(idx, w, nbins)
    return s if s.dtype == w.dtype else s.astype(w.dtype)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    """histogram_bin_edges(a, bins=10, range=None, weights=None)

    The bin edges histogram would use (numpy.histogram_bin_edges): NumPy's own
    edge arithmetic on the data's range (a number of bins, the edges, or one of
    histogram's bin estimators), as a float array on a's device. The cpu device
    runs numpy.histogram_bin_edges on zero-copy views (from NP_HISTOGRAM_MIN
    samples).
    """
    if _datetime(a):  # NumPy's answer (its errors) on the host copy
        return _dts().host_function(
            _np.histogram_bin_edges, a, bins=bins, range=range, weights=weights)
    a = _subtractable(a)
    if isinstance(bins, str) and weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported "
                        "for weighted data")
    w = None
    if weights is not None:
        w = _as_array(weights, device=a.device)
        if w.shape != a.shape:
            raise ValueError("weights should have the same shape as a.")
    if a.size >= NP_HISTOGRAM_MIN and _cpu(a, w, bins):
        return _wrap(_np.histogram_bin_edges(_view(a), _view(bins), range,
                                             _view(w)), a.device)
    return _edges(a, bins, range)[0]


def histogram(a, bins=10, range=None, density=None, weights=None):
    """histogram(a, bins=10, range=None, density=None, weights=None)

    Counts of a's values in bins (numpy.histogram): bins a number (equal widths
    over range, default [min, max]) or the monotonic edges. Returns (hist, edges).
    The cpu device runs numpy.histogram on zero-copy views (from NP_HISTOGRAM_MIN
    samples).
    """
    if _datetime(a):  # NumPy's answer (its errors) on the host copy
        return _dts().host_function(
            _np.histogram, a, bins=bins, range=range, density=density, weights=weights)
    a = _subtractable(a)
    w = None
    if isinstance(bins, str) and weights is not None:
        raise TypeError("Automated estimation of the number of bins is not supported "
                        "for weighted data")
    if weights is not None:
        w = _as_array(weights, device=a.device)
        if w.shape != a.shape and w.size != a.size:
            raise ValueError("weights should have the same shape as a.")
        w = w.reshape(-1)
    if a.size >= NP_HISTOGRAM_MIN and _cpu(a, w, bins):
        return _wrap(_np.histogram(_view(a), _view(bins), range, density, _view(w)),
                     a.device)
    edges, rng = _edges(a, bins, range)
    nbins = edges.size - 1
    if rng is not None and range is not None:
        # samples outside the given range are dropped (NumPy's `keep`)
        keep = _core.logical_and(_core.greater_equal(a, rng[0]),
                                 _core.less_equal(a, rng[1]))
        idx = _core.where(keep, _bin_index(a, edges), -1)
    else:
        idx = _bin_index(a, edges)
    if w is None:
        n = _core._bincount(idx, None, nbins)
    else:
        n = _weighted(idx, w, nbins)
    if density:
        db = (edges[1:] - edges[:-1]).astype(_np.float64)
        return n / db / n.sum(), edges
    return n, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """histogramdd(sample, bins=10, range=None, density=None, weights=None)

    The D-dimensional histogram of an (N, D) sample or a sequence of D arrays
    (numpy.histogramdd): float64 counts and the list of edges.
    """
    if isinstance(sample, _core.ndarray):
        s = sample if sample.ndim == 2 else sample.reshape(-1, 1)
        cols = [s[:, i] for i in _range(s.shape[1])]
    else:
        cols = [_as_array(c).reshape(-1) for c in sample]
    d = len(cols)
    dev = cols[0].device if d else None
    try:
        m = len(bins)
        if m != d:
            raise ValueError("The dimension of bins must be equal to the dimension of "
                             "the sample x.")
        per = list(bins)
    except TypeError:
        per = [bins] * d
    if range is None:
        range = [None] * d
    elif len(range) != d:
        raise ValueError("range argument must have one entry per dimension")
    edges, nbin = [], []
    flat = None
    for i in _range(d):
        b = per[i]
        if (b.ndim if isinstance(b, _core.ndarray) else _np.ndim(b)) == 0:
            try:
                nb = operator.index(b)
            except TypeError:
                raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") \
                    from None
            if nb < 1:
                raise ValueError(f"`bins[{i}]` must be positive, when an integer")
            lo, hi = _outer_edges(cols[i], range[i])
            e = _core.asarray(_np.linspace(lo, hi, nb + 1), device=dev)
        else:
            e = _as_array(per[i], device=dev)
            if e.ndim != 1:
                raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")
            if e.size > 1 and bool(_core.any(_core.less(e[1:], e[:-1]))):
                raise ValueError(f"`bins[{i}]` must be monotonically increasing, when "
                                 "an array")
        edges.append(e)
        nbin.append(e.size + 1)  # with an outlier bin on each side
        # NumPy's Ncount: searchsorted right, the last edge into the last bin
        c = _core.searchsorted(e, cols[i], side="right")
        c = _core.where(_core.equal(cols[i], e[-1]), c - 1, c)
        flat = c if flat is None else flat * nbin[i] + c
    total = int(_np.prod(nbin))
    if d == 0:
        raise ValueError("histogramdd: the sample has no dimensions")
    if weights is None:
        hist = _core._bincount(flat, None, total).astype(_np.float64)
    else:
        w = _as_array(weights, device=dev).reshape(-1)
        hist = _core._bincount(flat, w, total)
    hist = hist.reshape(tuple(nbin))[(slice(1, -1),) * d]
    if density:
        s = hist.sum()
        for i in _range(d):
            shape = [1] * d
            shape[i] = nbin[i] - 2
            hist = hist / (edges[i][1:] - edges[i][:-1]).reshape(shape)
        hist = hist / s
    return hist, edges


_range = range  # histogram's parameter is named range


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """histogram2d(x, y, bins=10, range=None, density=None, weights=None)

    The 2-D histogram of (x, y) (numpy.histogram2d): hist, xedges, yedges.
    """
    try:
        n = len(bins)
    except TypeError:
        n = 1
    if n != 1 and n != 2:
        bins = [bins, bins]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


def digitize(x, bins, right=False):
    """digitize(x, bins, right=False)

    The bin of each value of x (numpy.digitize): bins monotonically increasing or
    decreasing; a searchsorted of x into them (checked once on the host).
    """
    if _datetime(x) or _datetime(bins):  # NumPy's answer (its error) on the host
        return _dts().host_function(_np.digitize, x, bins, right=right)
    x = _as_array(x)
    if x.dtype.kind == "c":
        raise TypeError("x may not be complex")
    b = _as_array(bins, device=x.device)
    if b.ndim != 1:
        raise ValueError("object too deep for desired array" if b.ndim > 1
                         else "object of too small depth for desired array")
    side = "left" if right else "right"
    way = _bins_direction(b)
    if way == 0:
        raise ValueError("bins must be monotonically increasing or decreasing")
    if way < 0:
        return b.size - _core.searchsorted(_core.flip(b), x, side=side)
    return _core.searchsorted(b, x, side=side)


def _bins_direction(b):
    """NumPy's monotonicity check of digitize's bins: 1 increasing, -1 decreasing,
    0 neither. The first bin unequal to bins[0] sets the direction (increasing
    when bins[0] is less: all equal is increasing), then no neighbouring pair may
    go the other way; a NaN compares false each time (so bins may hold NaNs).
    Increasing bins without NaNs take one reduction; others one read of four
    flags from the device more."""
    if b.size < 2:
        return 1
    lo, hi = b[:-1], b[1:]
    # without NaNs NumPy's rule is the plain one: one reduction for increasing bins
    if bool(_core.all(_core.greater_equal(hi, lo))):
        return 1
    ne = _core.not_equal(b, b[0])
    first = b[_core.argmax(ne).reshape(1)]  # (b[0] itself where all are equal)
    any_ne, up, falls, rises = _core.stack([
        _core.any(ne), _core.any(_core.less(b[0], first)),
        _core.any(_core.greater(lo, hi)),
        _core.any(_core.less(lo, hi))]).get().tolist()
    if not any_ne:
        return 1
    if up:
        return 0 if falls else 1
    return 0 if rises else -1


# --------------------------------------------------------- order statistics ----

_NAN_METHODS = {
    # method: (alpha, beta) of NumPy's _compute_virtual_index, or a rule
    "linear": (1.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
    "median_unbiased": (1.0 / 3.0, 1.0 / 3.0),
    "normal_unbiased": (3.0 / 8.0, 3.0 / 8.0),
    "interpolated_inverted_cdf": (0.0, 1.0), "lower": "lower", "higher": "higher",
    "nearest": "nearest", "midpoint": "midpoint", "inverted_cdf": "inverted_cdf",
    "averaged_inverted_cdf": "averaged_inverted_cdf",
    "closest_observation": "closest_observation",
}


def _axes(a, axis):
    """a with the reduced axes merged into the last one, and the kept shape."""
    if axis is None:
        return a.reshape(-1), (), tuple(range(a.ndim))
    axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    keep = [i for i in range(a.ndim) if i not in axes]
    moved = _core.permute_dims(a, tuple(keep) + axes) if a.ndim else a
    kept = tuple(a.shape[i] for i in keep)
    n = int(_np.prod([a.shape[i] for i in axes])) if axes else 1
    return _core.ascontiguousarray(moved).reshape(kept + (n,)), kept, axes


def _weights_like(a, weights, axis):
    """weights broadcast to a's shape, as NumPy accepts them: a's shape, or the
    shape of the reduced axes."""
    w = _as_array(weights, device=a.device)
    if tuple(w.shape) == tuple(a.shape):
        return w
    if axis is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
    if tuple(w.shape) != tuple(a.shape[i] for i in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along "
                         "specified axis.")
    w = _core.permute_dims(w, tuple(int(i) for i in _np.argsort(axes)))
    shape = tuple(s if i in axes else 1 for i, s in enumerate(a.shape))
    return _core.broadcast_to(w.reshape(shape), a.shape)


def _weighted_quantile(a, qs, axis, method, keepdims, weights, skip_nan):
    """NumPy's weighted inverted CDF: per row, the first sorted value whose
    normalised cumulative weight reaches q. One segmented sort, one scan, and a
    count of the CDF entries below each q (searchsorted's 'left' on every row)."""
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    a = _as_array(a)
    w = _weights_like(a, weights, axis)
    if bool(_core.any(_core.less(w, 0))):
        raise ValueError("Weights must be non-negative.")
    rows, kept, axes = _axes(a, axis)
    wrows = _axes(w, axis)[0]
    n = rows.shape[-1]
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    if skip_nan and a.dtype.kind in "fc":
        wrows = _core.where(_core.isnan(rows), 0, wrows)  # NaNs drop out
    from ._indexing import take_along_axis
    order = _core.argsort(rows, axis=-1, kind="stable")
    s = take_along_axis(rows, order, axis=-1)
    cdf = _core.cumsum(take_along_axis(wrows, order, axis=-1), axis=-1,
                       dtype=_np.float64)
    cdf = cdf / cdf[..., -1:]
    if bool(_core.any(_core.isnan(cdf[..., -1]))):
        raise ValueError("Weights included NaN, inf or were all zero.")
    qh = _np.asarray(qs)
    qh = qh if qh.dtype.kind == "f" else qh.astype(_np.float64)
    # compared in q's precision, and leading zero-weight entries never chosen
    # (NumPy's rules: the CDF cast to q's dtype, its zeros made -1)
    cdf = cdf.astype(qh.dtype)
    cdf = _core.where(_core.equal(cdf, 0), -1, cdf)
    qd = _core.asarray(qh.reshape(-1), device=a.device)
    below = _core.less(_core.expand_dims(cdf, -2), _core.expand_dims(qd, -1))
    idx = _core.minimum(_core.sum(below, axis=-1), n - 1)
    res = take_along_axis(s, idx, axis=-1)
    if not skip_nan and a.dtype.kind in "fc":
        res = _core.where(_core.isnan(s[..., -1:]), s[..., -1:], res)
    res = _core.moveaxis(res, -1, 0).reshape(qs.shape + kept)
    if keepdims:
        res = res.reshape(_keepdims_shape(a, axes, qs.shape))
    return res


def _keepdims_shape(a, axes, q_shape):
    shape = list(a.shape)
    for i in axes:
        shape[i] = 1
    return q_shape + tuple(shape)


def _check_q(q, scale, name):
    qa = _np.asanyarray(q.get() if isinstance(q, _core.ndarray) else q)
    qs = qa / scale if scale != 1 else qa
    if qs.ndim > 2 or not (_np.all(qs >= 0) and _np.all(qs <= 1)):
        if qs.ndim > 2:
            raise ValueError("q must be a scalar or 1d")
        raise ValueError(f"{name} must be in the range [0, {scale}]")
    weak = type(q) in (int, float)
    return _np.asanyarray(qs), weak


def _lerp(lo, hi, g):
    d = hi - lo
    if not isinstance(g, _core.ndarray):
        # a Python scalar: choose the formula here (a 0-d condition would be made
        # on the default device, not on lo's)
        return hi - d * (1 - g) if g >= 0.5 else lo + d * g
    return _core.where(_core.greater_equal(g, 0.5), hi - d * (1 - g), lo + d * g)


def sample_sorted(sm, vi, props, method, nkept, weak, lerp, index_dtype,
                  gamma_dtype=None):
    """NumPy's _quantile sample of sorted rows sm (the sampled axis first) at the
    virtual indices vi: the element itself where the method takes one, else lerp of
    its two neighbours by NumPy's gamma (a Python float for a scalar q: weak).
    index_dtype is what NumPy's _get_indexes sees as the array's dtype."""
    dev = sm.device
    if props["fix_gamma"] is None or (method == "linear" and vi.dtype.kind == "i"):
        return sm[_core.asarray(vi.astype(_np.int64), device=dev)]
    prev, nxt = _fb._get_indexes(_np.empty(0, index_dtype), vi, sm.shape[0])
    g = _fb._get_gamma(vi, prev, props)
    lo = sm[_core.asarray(prev, device=dev)]
    hi = sm[_core.asarray(nxt, device=dev)]
    if weak:
        return lerp(lo, hi, float(g))
    g = _np.asarray(g, gamma_dtype).reshape(vi.shape + (1,) * nkept)
    return lerp(lo, hi, _core.asarray(g, device=dev))


def _quantile(a, q, axis, method, keepdims, weak):
    a = _as_array(a)
    if a.dtype.kind == "c":
        raise TypeError("a must be an array of real numbers")
    try:
        props = _fb._QuantileMethods[method]
    except KeyError:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{_fb._QuantileMethods.keys()}") from None
    rows, kept, axes = _axes(a, axis)
    n = rows.shape[-1]
    if n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    s = _core.sort(rows, axis=-1, kind="stable")
    sm = _core.moveaxis(s, -1, 0)  # NumPy's layout: the sampled axis first
    vi = _np.asanyarray(props["get_virtual_index"](n, q))
    inexact = a.dtype.kind == "f"
    res = sample_sorted(sm, vi, props, method, len(kept), weak, _lerp, a.dtype)
    if inexact:
        last = sm[-1]
        res = _core.where(_core.isnan(last), last, res)
        if res.dtype != a.dtype and _np.result_type(a.dtype, vi.dtype if not weak
                                                    else a.dtype) == a.dtype:
            res = res.astype(a.dtype)
    if keepdims:
        res = res.reshape(_keepdims_shape(a, axes, vi.shape))
    return res


def _nan_virtual(k, q, method):
    """Per-row virtual indices for k valid values (an int64 array) (float64)."""
    kf = k.astype(_np.float64)
    rule = _NAN_METHODS.get(method)
    if rule is None:
        raise ValueError(f"{method!r} is not a valid method. Use one of: "
                         f"{_fb._QuantileMethods.keys()}")
    if isinstance(rule, tuple):
        alpha, beta = rule
        v = kf * q + (alpha + q * (1 - alpha - beta)) - 1
        return v, "lerp", None
    if rule in ("inverted_cdf", "closest_observation", "averaged_inverted_cdf"):
        # NumPy's _discrete_interpolation_to_boundaries with n = k per row
        v = kf * q - (1.5 if rule == "closest_observation" else 1.0)
        prev = _core.floor(v)
        exact = _core.equal(v - prev, 0)
        if rule == "averaged_inverted_cdf":
            return v, "lerp", lambda g: _core.where(exact, 0.5, 1.0)
        if rule == "closest_observation":
            exact = _core.logical_and(exact, _core.equal(_core.remainder(prev, 2), 1))
        return _core.maximum(_core.where(exact, prev, prev + 1), 0), "take", None
    base = (kf - 1) * q
    if rule == "lower":
        return _core.floor(base), "take", None
    if rule == "higher":
        return _core.ceil(base), "take", None
    if rule == "nearest":
        return _core.rint(base), "take", None
    return 0.5 * (_core.floor(base) + _core.ceil(base)), "lerp", None


def nan_neighbours(s, k, q, kept, method, device, exact_linear=False):
    """NumPy's nanquantile sample of sorted rows s whose first k values are valid:
    (lo, hi, g), the element below each quantile, the one above (None where the
    method takes one element) and the weight between them. exact_linear computes
    linear's index as NumPy's (k - 1) * q (the general formula rounds apart)."""
    qf = q.astype(_np.float64).reshape(q.shape + (1,) * len(kept))
    qd = _core.asarray(qf, device=device) if q.ndim else float(q)
    vi, how, gfix = _nan_virtual(k, qd, method)
    if exact_linear and method == "linear":
        vi = (k.astype(_np.float64) - 1) * qd
    hi_i = _core.maximum(k - 1, 0).astype(_np.float64)
    vi = _core.broadcast_to(vi, q.shape + kept) if q.ndim else vi
    prev = _core.minimum(_core.maximum(_core.floor(vi), 0), hi_i)
    g = vi - _core.floor(vi)
    if gfix is not None:
        g = gfix(g)
    g = _core.where(_core.greater_equal(vi, hi_i), 0.0, _core.where(
        _core.less(vi, 0), 0.0, g))
    # gather each row's neighbours: rows broadcast against the q dimensions
    sb = _core.ascontiguousarray(_core.broadcast_to(s, q.shape + s.shape) if q.ndim
                                 else s)

    def take(i):
        return _take_last(sb, i.astype(_np.int64).reshape(i.shape + (1,)))[..., 0]
    if how == "take":
        return take(prev), None, g
    return take(prev), take(_core.minimum(prev + 1, hi_i)), g


def _nanquantile(a, q, axis, method, keepdims, weak):
    a = _as_array(a)
    if a.dtype.kind != "f":
        return _quantile(a, q, axis, method, keepdims, weak)
    rows, kept, axes = _axes(a, axis)
    n = rows.shape[-1]
    s = _core.sort(rows, axis=-1, kind="stable")  # NaNs last
    k = _core.sum(_core.logical_not(_core.isnan(rows)), axis=-1)  # valid per row
    lo, hi, g = nan_neighbours(s, k, q, kept, method, a.device)
    if hi is None:
        res = lo
    else:
        res = _lerp(lo, hi, g.astype(a.dtype) if weak or not q.ndim else g)
        if weak:
            res = res.astype(a.dtype)
    empty = _core.equal(k, 0)
    nan = _core.full((), _np.nan, dtype=res.dtype, device=a.device)
    res = _core.where(empty, nan, res)
    if n == 0:
        res = _core.full(q.shape + kept, _np.nan, dtype=res.dtype, device=a.device)
    if keepdims:
        res = res.reshape(_keepdims_shape(a, axes, q.shape))
    return res


# nanquantile and nanpercentile: NumPy's runs one row at a time (apply_along_axis)
# when more than one row is reduced, slower than the composition's one segmented
# sort for rows shorter than this (2-core machine: even at 1024 rows of 1024)
NAN_ROW_MIN = 4096


def _np_quantile(fn, a, q, axis, method, keepdims, nan):
    """fn (numpy.quantile, percentile, nanquantile or nanpercentile) on a zero-copy
    view of cpu-device a, as a cpu-device array; None where the composition runs
    (another device, a bool a, fewer than NP_QUANTILE_MIN elements, short rows
    for the nan- forms)."""
    a = _as_array(a)
    if not (a.size >= max(NP_QUANTILE_MIN, 1) and a.dtype.kind in "iuf" and _cpu(a)):
        return None
    if nan and a.ndim > 1 and axis is not None:
        axes = _np.lib.array_utils.normalize_axis_tuple(axis, a.ndim)
        if len(axes) < a.ndim and \
                int(_np.prod([a.shape[i] for i in axes])) < NAN_ROW_MIN:
            return None
    if isinstance(q, _core.ndarray):
        q = q.get()
    # overwrite_input stays False: NumPy would partition the caller's array
    with _np.errstate(all="ignore"):
        if not nan:
            r = fn(_np.asarray(a), q, axis=axis, method=method, keepdims=keepdims)
        else:
            with _warnings.catch_warnings():
                # NumPy warns of an all-NaN slice; the composition does not
                _warnings.simplefilter("ignore", RuntimeWarning)
                r = fn(_np.asarray(a), q, axis=axis, method=method, keepdims=keepdims)
    return _wrap(r, a.device)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
             keepdims=False, *, weights=None, interpolation=None):
    """quantile(a, q, axis=None, out=None, overwrite_input=False, method='linear',
    keepdims=False, *, weights=None)

    The q-th quantiles of a along axis (numpy.quantile; every NumPy method). Sorts
    along the axis once (all rows in one segmented sort) and interpolates. The cpu
    device runs numpy.quantile on a zero-copy view (from NP_QUANTILE_MIN elements;
    weighted: the composition).
    """
    return _any_quantile(_np.quantile, a, q, axis, out, overwrite_input, method,
                         keepdims, weights, interpolation, 1, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
               keepdims=False, *, weights=None, interpolation=None):
    """percentile(a, q, ...): quantile(a, q / 100, ...) (numpy.percentile; the cpu
    device runs it on a zero-copy view, weighted: the composition)."""
    return _any_quantile(_np.percentile, a, q, axis, out, overwrite_input, method,
                         keepdims, weights, interpolation, 100, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                keepdims=False, *, weights=None, interpolation=None):
    """nanquantile(a, q, ...): quantile ignoring NaNs (numpy.nanquantile); an all-NaN
    slice gives NaN (no warning). The cpu device runs numpy.nanquantile on a
    zero-copy view for one row or rows of NAN_ROW_MIN or more (as quantile)."""
    return _any_quantile(_np.nanquantile, a, q, axis, out, overwrite_input, method,
                         keepdims, weights, interpolation, 1, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear",
                  keepdims=False, *, weights=None, interpolation=None):
    """nanpercentile(a, q, ...): percentile ignoring NaNs (numpy.nanpercentile; the
    cpu device runs it as nanquantile does)."""
    return _any_quantile(_np.nanpercentile, a, q, axis, out, overwrite_input, method,
                         keepdims, weights, interpolation, 100, True)


def _any_quantile(np_fn, a, q, axis, out, overwrite_input, method, keepdims, weights,
                  interpolation, scale, skip_nan):
    """The body of quantile, percentile and their nan forms: q in units of 1/scale
    (1 or 100), NumPy's function np_fn on the cpu device where it serves, NaNs
    skipped or not; weighted quantiles are always the composition. Datetimes go
    to _datetime_stats.quantiles, whose warnings count this frame."""
    if _datetime(a):  # datetime64/timedelta64 (NaT sorts last)
        return _dts().quantiles(np_fn, a, q, axis, out, overwrite_input, method,
                                keepdims, weights, interpolation, scale, skip_nan)
    if interpolation is not None:
        method = interpolation
    qs, weak = _check_q(q, scale, "Quantiles" if scale == 1 else "Percentiles")
    if skip_nan and _as_array(a).size == 0:
        # NumPy's answer for no samples: nanmean's (NaN, "Mean of empty slice"),
        # shaped without q's dims
        from . import nanmean
        return nanmean(_as_array(a), axis, out=out, keepdims=keepdims)
    if weights is not None:
        return _out(_weighted_quantile(a, qs, axis, method, keepdims, weights,
                                       skip_nan=skip_nan), out)
    r = _np_quantile(np_fn, a, q, axis, method, keepdims, skip_nan)
    if r is not None:
        return _out(r, out)
    inner = _nanquantile if skip_nan else _quantile
    return _out(inner(a, qs, axis, method, keepdims, weak), out)


def _out(res, out):
    if out is None:
        return res
    out[...] = res
    return out


def _mid(lo, hi, dtype):
    """NumPy's mean of the two middle elements, in its result dtype."""
    if dtype.kind in "biu":
        return (lo.astype(_np.float64) + hi.astype(_np.float64)) / 2
    if dtype == _np.float16:
        mid = (lo.astype(_np.float32) + hi.astype(_np.float32)) / 2
        return mid.astype(_np.float16)
    return (lo + hi) / 2


# Below this many elements sorting costs about what the select's ten launches do.
_SELECT_MIN = 1 << 16


def _median_select(flat, dtype):
    """The median of one long row on a GPU by the radix select of the middle one or
    two elements (no sort), NaN when the row holds one (the select's first pass
    notes NaNs and then returns NaN for both: no pass of its own); None where the
    select does not apply (the caller sorts)."""
    n = flat.shape[-1]
    if n < _SELECT_MIN or dtype.kind not in "biuf" or not flat.flags.c_contiguous:
        return None
    ranks = ((n - 1) // 2,) if n % 2 else ((n - 1) // 2, n // 2)
    mid = _core._select(flat, ranks, True)
    if mid is None:
        return None
    if n % 2:  # one middle element: itself (NumPy's mean of one, no x + x overflow)
        return mid[0].astype(_np.float64) if dtype.kind in "biu" else mid[0]
    return _mid(mid[0], mid[1], dtype)  # NaN + NaN: NaN


def _empty_median(kept, dtype, device):
    """The median of empty rows: NumPy's mean of nothing, 0/0 in each part."""
    nan = complex(_np.nan, _np.nan) if dtype.kind == "c" else _np.nan
    return _core.full(kept, nan, dtype=dtype, device=device)


def _median_sorted(rows, kept, dtype):
    """The median of each row (the last axis) from a sort of the rows."""
    n = rows.shape[-1]
    if n == 0:
        return _empty_median(kept, _np.dtype("f8") if dtype.kind in "biu" else dtype,
                             rows.device)
    s = _core.sort(rows, axis=-1, kind="stable")
    res = _mid(s[..., (n - 1) // 2], s[..., n // 2], dtype)
    if dtype.kind in "fc":
        last = s[..., -1]
        res = _core.where(_core.isnan(last), last.astype(res.dtype), res)
    return res


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """median(a, axis=None, out=None, overwrite_input=False, keepdims=False)

    The median along axis (numpy.median): the mean of the middle one or two
    elements of each sorted row; NaN where a row holds a NaN. The cpu device
    runs NumPy's own median on a zero-copy view (its results exactly).
    """
    if _datetime(a):  # timedelta64 (NumPy refuses datetime64): NaT propagates
        return _dts().median(a, axis, out, overwrite_input, keepdims)
    a = _as_array(a)
    if a.device.id < 0 and a.size > 0:
        # the cpu device: NumPy's median (its introselect) on a zero-copy view
        with _np.errstate(all="ignore"):
            r = _np.median(_np.asarray(a), axis=axis, keepdims=keepdims)
        return _out(_core.asarray(r, device=a.device), out)
    rows, kept, axes = _axes(a, axis)
    res = _median_select(rows, a.dtype) if kept == () else None
    if res is None:
        res = _median_sorted(rows, kept, a.dtype)
    if keepdims:
        res = res.reshape(_keepdims_shape(a, axes, ()))
    return _out(res, out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """nanmedian(a, ...): the median ignoring NaNs (numpy.nanmedian). A complex
    element is NaN if either part is (isnan); the sort puts those last."""
    if _datetime(a):  # timedelta64: NaT skipped
        return _dts().nanmedian(a, axis, out, overwrite_input, keepdims)
    a = _as_array(a)
    if a.dtype.kind not in "fc":
        return median(a, axis, out, overwrite_input, keepdims)
    rows, kept, axes = _axes(a, axis)
    n = rows.shape[-1]
    if n == 0:
        res = _empty_median(kept, a.dtype, a.device)
    else:
        s = _core.sort(rows, axis=-1, kind="stable")
        k = _core.sum(_core.logical_not(_core.isnan(rows)), axis=-1, keepdims=True)
        km = _core.maximum(k - 1, 0)
        lo = _take_last(s, _core.floor_divide(km, 2))[..., 0]
        hi = _take_last(s, _core.minimum(_core.floor_divide(k, 2), km))[..., 0]
        res = _mid(lo, hi, a.dtype)
        nan = _core.full((), _np.nan, dtype=res.dtype, device=a.device)
        res = _core.where(_core.equal(k[..., 0], 0), nan, res)
    if keepdims:
        res = res.reshape(_keepdims_shape(a, axes, ()))
    return _out(res, out)

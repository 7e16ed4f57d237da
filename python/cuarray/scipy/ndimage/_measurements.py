"""scipy.ndimage's measurements on cuarray arrays: label (connected components by
union-find on the device: `_ndi_label`, then the roots numbered by a cumulative
sum, which is SciPy's order of first appearance in C order), find_objects,
value_indices, and the statistics by label (sum, mean, variance, extrema,
positions, centre of mass, histogram, median) as scatter compositions: a
group per requested index (searchsorted over the sorted index), bincount for
sums, ufunc.at minimum/maximum for extrema, a sort by (group, value) for
medians. Results are cuarray arrays on the input's device (0-d for a scalar
index), positions tuples of ints, as SciPy's. On the cpu device (CPU_SCIPY)
SciPy's own function runs on zero-copy views.
"""

import numpy as _np

import cuarray as _ca

from ._util import asarray, check_type, cpu_scipy, host, ndi_label, scipy_ndimage

__all__ = ["label", "find_objects", "value_indices", "sum", "sum_labels", "mean",
           "variance", "standard_deviation", "minimum", "maximum", "median",
           "minimum_position", "maximum_position", "extrema", "center_of_mass",
           "histogram", "labeled_comprehension"]

CPU_SCIPY = True
_scipy_first = cpu_scipy(__name__)


# ---- labels -------------------------------------------------------------------------

def _label_offsets(structure):
    """The offsets before the centre in C order of the symmetrised structure."""
    s = structure | structure[(slice(None, None, -1),) * structure.ndim]
    offs = _np.argwhere(s) - 1
    before = [o for o in offs if tuple(o) < (0,) * structure.ndim]
    return _np.array(before, dtype=_np.int64).reshape(-1, structure.ndim)


@_scipy_first
def label(input, structure=None, output=None):
    """scipy.ndimage.label: (labels, count), or count when output is an array;
    components numbered in order of their first point in C order."""
    input = check_type(asarray(input), TypeError)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    from ._morphology import _structure
    st = _structure(input.ndim, 1) if structure is None else \
        _np.asarray(host(structure), dtype=bool)
    if st.ndim != input.ndim:
        raise RuntimeError("structure and input must have equal rank")
    if any(s != 3 for s in st.shape):
        raise ValueError("structure dimensions must be equal to 3")
    given = isinstance(output, _ca.ndarray)
    if given:
        if output.shape != input.shape:
            raise ValueError("output shape not correct")
    else:
        dt = _np.int32 if output is None and input.size < 2**31 - 2 else \
            (_np.intp if output is None else output)
        output = _ca.empty(input.shape, dtype=dt, device=input.device)
    if input.ndim == 0 or input.size == 0:
        n = int(bool(input != 0)) if input.ndim == 0 else 0
        if input.ndim == 0:
            output[...] = n
        return n if given else (output, n)
    mask = _ca.ascontiguousarray(input != 0, dtype=_np.uint8)
    p = _ca.empty(input.shape, dtype=_np.int64, device=input.device)
    offs = _ca.asarray(_label_offsets(st), device=input.device)
    ndi_label(mask, offs, p)
    flat = p.reshape(-1)
    roots = flat == _ca.arange(flat.size, device=input.device)
    number = _ca.cumsum(roots, dtype=_np.int64)
    n = int(number[-1])
    lab = _ca.where(flat >= 0, number[_ca.maximum(flat, 0)], 0)
    output[...] = lab.reshape(input.shape)
    return n if given else (output, n)


@_scipy_first
def find_objects(input, max_label=0):
    """scipy.ndimage.find_objects: per label 1..max, the tuple of slices of its
    bounding box, or None where the label is absent."""
    input = asarray(input)
    if input.dtype.kind not in "iu":
        raise TypeError("Only integer types are supported")   # SciPy: RuntimeError?
    if max_label < 1:
        max_label = int(input.max()) if input.size else 0
    if max_label < 1 or input.size == 0:
        return [None] * max(max_label, 0)
    flat = input.reshape(-1).astype(_np.int64)
    sel = (flat > 0) & (flat <= max_label)
    g = flat[sel] - 1
    idx = _ca.arange(flat.size, device=input.device)[sel]
    lo = _ca.full((input.ndim, max_label), _np.iinfo(_np.int64).max, dtype=_np.int64,
                  device=input.device)
    hi = _ca.full((input.ndim, max_label), -1, dtype=_np.int64, device=input.device)
    for d, c in enumerate(_ca.unravel_index(idx, input.shape)):
        _ca.minimum.at(lo[d], g, c)
        _ca.maximum.at(hi[d], g, c)
    lo, hi = lo.get(), hi.get()
    return [None if hi[0, k] < 0 else
            tuple(slice(int(lo[d, k]), int(hi[d, k]) + 1) for d in range(input.ndim))
            for k in range(max_label)]


@_scipy_first
def value_indices(arr, *, ignore_value=None):
    """scipy.ndimage.value_indices: {value: tuple of index arrays} of an integer
    array (indices in C order)."""
    arr = asarray(arr)
    if arr.dtype.kind not in "iu":
        raise ValueError("Parameter 'arr' must be an integer array")
    flat = arr.reshape(-1)
    order = _ca.argsort(flat, kind="stable")
    vals = flat[order]
    keys, starts = _np.unique(vals.get(), return_index=True)
    bounds = list(starts) + [flat.size]
    coords = _ca.unravel_index(order, arr.shape)
    out = {}
    for k, (a, b) in zip(keys, zip(bounds[:-1], bounds[1:])):
        if ignore_value is not None and k == ignore_value:
            continue
        out[arr.dtype.type(k)] = tuple(c[a:b] for c in coords)
    return out


# ---- statistics by label ------------------------------------------------------------

def _groups(input, labels, index):
    """(values (flat), group per value (-1: none), number of groups, how results
    come back: None for one result, else (index shape, the group of each index
    entry)). Groups are the index's distinct values, sorted."""
    input = asarray(input)
    if labels is None:
        return input.reshape(-1), None, 1, None
    labels = asarray(labels)
    input, labels = _ca.broadcast_arrays(input, labels)
    vals, lab = input.reshape(-1), labels.reshape(-1)
    if index is None:
        return vals, _ca.where(lab > 0, 0, -1), 1, None
    idx = _np.asarray(host(index))
    uniq, inv = _np.unique(idx.reshape(-1), return_inverse=True)
    ids = _ca.asarray(uniq, device=input.device)
    if ids.size == 0:
        return vals, _ca.full(lab.shape, -1, dtype=_np.int64, device=lab.device), 0, \
            (idx.shape, inv)
    pos = _ca.minimum(_ca.searchsorted(ids, lab), ids.size - 1)
    grp = _ca.where(ids[pos] == lab, pos, -1)
    return vals, grp, ids.size, (None if idx.ndim == 0 else (idx.shape, inv))


def _finish(r, meta):
    if meta is None:
        return r[0]
    shape, inv = meta
    return r[_ca.asarray(inv, device=r.device)].reshape(shape)


def _count_sum(vals, grp, k, square=None):
    x = vals.astype(_np.float64) if vals.dtype.kind != "c" else vals
    if grp is None:
        return _ca.asarray([x.size], device=vals.device), x.sum().reshape(1)
    sel = grp >= 0
    g = grp[sel]
    cnt = _ca.bincount(g, minlength=k)
    if x.dtype.kind == "c":
        s = _ca.bincount(g, x[sel].real, minlength=k) + \
            1j * _ca.bincount(g, x[sel].imag, minlength=k)
    else:
        s = _ca.bincount(g, x[sel], minlength=k)
    return cnt, s


@_scipy_first
def sum_labels(input, labels=None, index=None):
    """scipy.ndimage.sum_labels: the sum of input over each label in index."""
    vals, grp, k, shape = _groups(input, labels, index)
    if grp is None:
        return vals.sum()
    return _finish(_count_sum(vals, grp, k)[1], shape)


@_scipy_first
def sum(input, labels=None, index=None):
    """scipy.ndimage.sum (sum_labels)."""
    return sum_labels(input, labels, index)


@_scipy_first
def mean(input, labels=None, index=None):
    """scipy.ndimage.mean."""
    vals, grp, k, shape = _groups(input, labels, index)
    cnt, s = _count_sum(vals, grp, k)
    return _finish(s / cnt, shape)


@_scipy_first
def variance(input, labels=None, index=None):
    """scipy.ndimage.variance: the mean squared deviation from each label's mean."""
    vals, grp, k, shape = _groups(input, labels, index)
    cnt, s = _count_sum(vals, grp, k)
    m = s / cnt
    x = vals.astype(_np.float64)
    if grp is None:
        d = x - m[0]
        return _finish((d * d).sum().reshape(1) / cnt, shape)
    sel = grp >= 0
    d = x[sel] - m[grp[sel]]
    return _finish(_ca.bincount(grp[sel], d * d, minlength=k) / cnt, shape)


@_scipy_first
def standard_deviation(input, labels=None, index=None):
    """scipy.ndimage.standard_deviation."""
    return _ca.sqrt(variance(input, labels, index))


def _extreme(vals, grp, k, op):
    """(per-group extreme value in vals' dtype, its first flat position)."""
    x = vals.astype(_np.float64)
    init = _np.inf if op is _ca.minimum else -_np.inf
    ext = _ca.full(k, init, dtype=_np.float64, device=vals.device)
    g = _ca.zeros(vals.size, dtype=_np.int64, device=vals.device) if grp is None else grp
    sel = g >= 0
    op.at(ext, g[sel], x[sel])
    ext = _ca.where(_ca.isinf(ext) & (ext == init), 0.0, ext)   # absent: 0 (SciPy)
    at = sel & (x == ext[_ca.maximum(g, 0)])
    pos = _ca.full(k, vals.size, dtype=_np.int64, device=vals.device)
    _ca.minimum.at(pos, g[at], _ca.arange(vals.size, device=vals.device)[at])
    return ext.astype(vals.dtype), pos


def _positions(pos, shape_in, shape):
    p = pos.get()
    tup = [tuple(int(v) for v in _np.unravel_index(min(q, max(
        int(_np.prod(shape_in)) - 1, 0)), shape_in)) for q in p]
    return tup[0] if shape is None else [tup[j] for j in shape[1]]


def _stat_input(input):
    input = asarray(input)
    if input.dtype.kind == "c":
        raise TypeError("Complex type not supported")
    return input


@_scipy_first
def minimum(input, labels=None, index=None):
    """scipy.ndimage.minimum."""
    input = _stat_input(input)
    vals, grp, k, shape = _groups(input, labels, index)
    return _finish(_extreme(vals, grp, k, _ca.minimum)[0], shape)


@_scipy_first
def maximum(input, labels=None, index=None):
    """scipy.ndimage.maximum."""
    input = _stat_input(input)
    vals, grp, k, shape = _groups(input, labels, index)
    return _finish(_extreme(vals, grp, k, _ca.maximum)[0], shape)


def _pos_of(input, labels, index, op):
    input = _stat_input(input)
    vals, grp, k, shape = _groups(input, labels, index)
    bshape = input.shape if labels is None else \
        _np.broadcast_shapes(input.shape, asarray(labels).shape)
    return _positions(_extreme(vals, grp, k, op)[1], bshape, shape)


@_scipy_first
def minimum_position(input, labels=None, index=None):
    """scipy.ndimage.minimum_position: the first (C order) position of each minimum
    (where a minimum is tied, SciPy's pick follows its unstable sort)."""
    return _pos_of(input, labels, index, _ca.minimum)


@_scipy_first
def maximum_position(input, labels=None, index=None):
    """scipy.ndimage.maximum_position."""
    return _pos_of(input, labels, index, _ca.maximum)


@_scipy_first
def extrema(input, labels=None, index=None):
    """scipy.ndimage.extrema: (minimums, maximums, their positions)."""
    return (minimum(input, labels, index), maximum(input, labels, index),
            minimum_position(input, labels, index),
            maximum_position(input, labels, index))


@_scipy_first
def median(input, labels=None, index=None):
    """scipy.ndimage.median: by a sort of (group, value)."""
    input = _stat_input(input)
    vals, grp, k, shape = _groups(input, labels, index)
    x = vals.astype(_np.float64)
    g = _ca.zeros(x.size, dtype=_np.int64, device=x.device) if grp is None else grp
    sel = g >= 0
    x, g = x[sel], g[sel]
    order = _ca.lexsort((x, g))
    xs = x[order]
    cnt = _ca.bincount(g, minlength=k)
    start = _ca.cumsum(cnt) - cnt
    lo = start + (cnt - 1) // 2
    hi = start + cnt // 2
    n = max(xs.size - 1, 0)
    if xs.size == 0:
        r = _ca.zeros(k, device=x.device)
    else:
        r = _ca.where(cnt > 0, (xs[_ca.minimum(lo, n)] + xs[_ca.minimum(hi, n)]) / 2,
                      0.0)
    return _finish(r, shape)


@_scipy_first
def center_of_mass(input, labels=None, index=None):
    """scipy.ndimage.center_of_mass: per label, the tuple of input-weighted mean
    coordinates."""
    input = asarray(input)
    vals, grp, k, shape = _groups(input, labels, index)
    bshape = vals.shape if labels is None else \
        _np.broadcast_shapes(input.shape, asarray(labels).shape)
    bshape = input.shape if labels is None else bshape
    x = vals.astype(_np.float64)
    g = _ca.zeros(x.size, dtype=_np.int64, device=x.device) if grp is None else grp
    sel = g >= 0
    tot = _ca.bincount(g[sel], x[sel], minlength=k)
    coords = _ca.unravel_index(_ca.arange(x.size, device=x.device)[sel], bshape)
    res = [(_ca.bincount(g[sel], x[sel] * c, minlength=k) / tot).get() for c in coords]
    tup = [tuple(float(r[j]) for r in res) for j in range(k)]
    return tup[0] if shape is None else [tup[j] for j in shape[1]]


@_scipy_first
def histogram(input, min, max, bins, labels=None, index=None):
    """scipy.ndimage.histogram: per label, the counts of input in bins equal bins
    over [min, max] (a list of arrays for an index sequence)."""
    vals, grp, k, shape = _groups(input, labels, index)
    x = vals.astype(_np.float64)
    b = _ca.floor((x - min) * (bins / (max - min))).astype(_np.int64)
    b = _ca.where(x == max, bins - 1, b)
    g = _ca.zeros(x.size, dtype=_np.int64, device=x.device) if grp is None else grp
    sel = (g >= 0) & (b >= 0) & (b < bins) & (x >= min) & (x <= max)
    h = _ca.bincount(g[sel] * bins + b[sel], minlength=k * bins).reshape(k, bins)
    if shape is None:
        return h[0]
    out = _np.empty(len(shape[1]), dtype=object)
    for j, g in enumerate(shape[1]):
        out[j] = h[g]
    return out.reshape(shape[0])


def labeled_comprehension(input, labels, index, func, out_dtype, default,
                          pass_positions=False):
    """scipy.ndimage.labeled_comprehension. func is Python, called per label on
    NumPy arrays: SciPy's own runs on host copies (zero-copy on the cpu device)
    and the result comes back as an array on the input's device."""
    input = asarray(input)
    r = scipy_ndimage().labeled_comprehension(host(input), host(labels), host(index),
                                              func, out_dtype, default, pass_positions)
    return _ca.asarray(r, device=input.device)

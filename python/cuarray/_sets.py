"""Set routines: unique (and the Array API's unique_*), isin, intersect1d, union1d,
setdiff1d, setxor1d, as NumPy's (numpy/lib/_arraysetops_impl.py), from the sort
and searchsorted primitives of csrc/ops/sort.c.

A result whose size depends on the data (unique and what rests on it) reads one
count back to the host: the number of first elements of runs in the sorted
array, through flatnonzero (csrc/ops/search.c), which waits once for the stream.
isin needs no such count: it sorts the test elements and searches them.

The cpu device runs NumPy's own unique and isin on zero-copy views where they
were measured faster (2-core machine): unique of floats, and of integers of 4 or
8 bytes, without return_index/return_inverse (NumPy's argsort is slower than the
composition's), from NP_UNIQUE_MIN elements (_np_unique_1d); isin of integer
arrays whose test range NumPy's lookup table covers (its sort method is slower
than the composition's).
"""

from collections import namedtuple

import numpy as _np

from . import _core
from ._cpu_numpy import view as _view
from ._cpu_numpy import wrap as _wrap
from ._sort_threads import _datetime
from ._sorting import _as_array

__all__ = ["unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
           "isin", "in1d", "intersect1d", "union1d", "setdiff1d", "setxor1d"]

UniqueAllResult = namedtuple("UniqueAllResult",
                             ["values", "indices", "inverse_indices", "counts"])
UniqueCountsResult = namedtuple("UniqueCountsResult", ["values", "counts"])
UniqueInverseResult = namedtuple("UniqueInverseResult", ["values", "inverse_indices"])


CPU_NUMPY = True  # tests turn it off to run the compositions on the cpu device


def _cpu(*arrays):
    """Whether a call on these (cuarray) arrays may go to NumPy: all on the cpu
    device."""
    return CPU_NUMPY and all(a.device.id < 0 for a in arrays)


# Below this many elements the composition's unique is the faster (floats: 1.5x
# at 64, even at 256; integers: 2.7x at 1024, NumPy's hash table).
NP_UNIQUE_MIN = {"f": 512, "i": 4096, "u": 4096}


def _np_unique_1d(x, return_counts, equal_nan):
    """NumPy's sorted unique values (and counts) of x as cpu-device arrays (a
    tuple), or None where the composition is the faster: another device, small
    x, bool, complex (NumPy hashes, 2-3x slower), 1- and 2-byte integers (the
    composition's radix sort). Integer values alone go through NumPy's hash table
    only when their span is under a sixteenth of the size (few distinct values;
    2x faster than sorting, 5-8x slower with many), else through NumPy's sort
    (asking for the counts), 1.1-1.9x faster than the composition's."""
    if not _cpu(x):
        return None
    kind = x.dtype.kind
    if kind in "iu" and x.dtype.itemsize < 4:
        return None
    if x.size < max(NP_UNIQUE_MIN.get(kind, 1 << 62), 1):
        return None
    h = _view(x)
    counts = return_counts
    if kind in "iu" and not counts:
        counts = (int(h.max()) - int(h.min())) * 16 >= h.size
    r = _np.unique(h, return_counts=counts, equal_nan=equal_nan)
    r = r if counts else (r,)
    return _wrap(r if return_counts else r[:1], x.device)


def _run_starts(aux, equal_nan):
    """Bool mask of the first element of each run of equal values of sorted aux."""
    n = aux.shape[0]
    mask = _core.empty((n,), dtype=_np.bool_, device=aux.device)
    if n == 0:
        return mask
    mask[:1] = True
    if n > 1:
        if aux.ndim == 1:
            diff = _core.not_equal(aux[1:], aux[:-1])
            if equal_nan and aux.dtype.kind in "fc":
                # NaNs sort last: a NaN after a NaN starts no run of its own.
                nan = _core.isnan(aux)
                diff = _core.logical_and(diff, _core.logical_not(
                    _core.logical_and(nan[1:], nan[:-1])))
        else:
            diff = _core.any(_core.not_equal(aux[1:], aux[:-1]), axis=1)
        mask[1:] = diff
    return mask


def _unique_sorted(aux, perm, shape, return_index, return_inverse, return_counts,
                   equal_nan):
    """The unique results from aux (sorted along axis 0) and its permutation."""
    n = aux.shape[0]
    mask = _run_starts(aux, equal_nan)
    starts = _core.flatnonzero(mask)  # the one count read back
    ret = (aux[starts],)
    if return_index:
        ret += (perm[starts],)
    if return_inverse:
        imask = _core.cumsum(mask, dtype=_np.int64) - 1
        inv = _core.empty((n,), dtype=_np.int64, device=aux.device)
        if n:
            inv[perm] = imask
        ret += (inv.reshape(shape),)
    if return_counts:
        ends = _core.concatenate(
            (starts, _core.full((1,), n, dtype=_np.int64, device=aux.device)))
        ret += (ends[1:] - ends[:-1],)
    return ret


# Integer arrays at least this long sort only the key bits their range spans.
_RANGE_SORT_MIN = 1 << 16


def _range_bits(flat):
    """The low key bits in which the elements of integer `flat` can differ, from its
    min and max (two values read back), or 0 to sort every bit. A key is the value
    (its sign bit flipped for signed types), so all keys share the binary prefix of
    the keys of min and max: with int64 in [0, 2^20) a GPU radix sort makes 3 passes
    of 8 bits instead of 8."""
    if (flat.dtype.kind not in "iu" or flat.size < _RANGE_SORT_MIN
            or flat.device == "cpu"):
        return 0
    width = flat.dtype.itemsize * 8
    if width < 32:
        return 0  # at most 2 passes anyway
    lo, hi = int(flat.min()), int(flat.max())
    return max(((lo ^ hi) & ((1 << width) - 1)).bit_length(), 1)


def _unique_1d(ar, return_index, return_inverse, return_counts, equal_nan, inv_shape):
    flat = ar.reshape(-1)
    bits = _range_bits(flat)
    if return_index or return_inverse:
        perm = _core._sort_bits(flat, bits, True) if bits else _core.argsort(flat, kind="stable")
        aux = flat[perm]
    else:
        perm = None
        aux = _core._sort_bits(flat, bits, False) if bits else _core.sort(flat, kind="stable")
    return _unique_sorted(aux, perm, inv_shape, return_index, return_inverse,
                          return_counts, equal_nan)


def _unique_axis(ar, axis, return_index, return_inverse, return_counts, equal_nan):
    from ._sorting import lexsort
    ax = axis + ar.ndim if axis < 0 else axis
    if not 0 <= ax < ar.ndim:
        raise _np.exceptions.AxisError(axis, ar.ndim)
    moved = _core.moveaxis(ar, ax, 0)
    orig = moved.shape
    n0, m = orig[0], int(_np.prod(orig[1:], dtype=_np.int64))
    rows = _core.ascontiguousarray(moved).reshape(n0, m)
    dev = ar.device
    if n0 == 0 or m == 0:
        # no rows: nothing; empty rows: all equal, one unique row (as NumPy)
        k = 1 if n0 and m == 0 else 0
        ret = (rows[:k],)
        if return_index:
            ret += (_core.zeros((k,), dtype=_np.int64, device=dev),)
        if return_inverse:
            ret += (_core.zeros((n0 if k else 0,), dtype=_np.int64, device=dev),)
        if return_counts:
            ret += (_core.full((k,), n0, dtype=_np.int64, device=dev),)
    else:
        # rows in lexicographic order: the first column is the primary key
        perm = lexsort([rows[:, j] for j in range(m - 1, -1, -1)])
        ret = _unique_sorted(rows[perm], perm, (n0,), return_index, return_inverse,
                             return_counts, equal_nan)
    u = ret[0].reshape((ret[0].shape[0],) + orig[1:])
    return (_core.moveaxis(u, 0, ax),) + ret[1:]


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None,
           *, equal_nan=True, sorted=True):
    """unique(ar, return_index=False, return_inverse=False, return_counts=False,
    axis=None, *, equal_nan=True, sorted=True)

    The sorted unique elements of ar (numpy.unique), optionally with the index of
    each one's first occurrence, the indices that rebuild ar, and the counts. With
    equal_nan (the default) all NaNs count as one value. axis= finds unique
    slices. Reads one count back from the device (the result's length). The
    cpu device runs numpy.unique on a zero-copy view when neither return_index
    nor return_inverse is asked for, where measured faster (_np_unique_1d).
    """
    ar = _as_array(ar)
    if _datetime(ar):  # NaT sorts last (one NaT with equal_nan): _datetime.unique
        from ._datetime import unique as dt_unique
        return dt_unique(ar, return_index, return_inverse, return_counts, axis,
                         equal_nan=equal_nan, sorted=sorted)
    ret = None
    if axis is None and not (return_index or return_inverse):
        ret = _np_unique_1d(ar, return_counts, equal_nan)
    if ret is None and axis is None:
        # NumPy 2: the inverse has ar's shape when axis is None
        inv_shape = ar.shape
        ret = _unique_1d(ar, return_index, return_inverse, return_counts, equal_nan,
                         inv_shape)
    elif ret is None:
        ret = _unique_axis(ar, axis, return_index, return_inverse, return_counts,
                           equal_nan)
    return ret[0] if len(ret) == 1 else ret


def unique_all(x):
    """unique_all(x): values, indices, inverse_indices, counts (the Array API's)."""
    x = _as_array(x)
    if _datetime(x):  # NaT last, each its own value (_datetime.unique)
        from ._datetime import unique as dt_unique
        return UniqueAllResult(*dt_unique(x, True, True, True, equal_nan=False))
    r = _unique_1d(x, True, True, True, False, x.shape)
    return UniqueAllResult(*r)


def unique_counts(x):
    """unique_counts(x): values, counts (the Array API's; the cpu device runs
    numpy.unique where measured faster, as unique)."""
    x = _as_array(x)
    if _datetime(x):  # NaT last, each its own value (_datetime.unique)
        from ._datetime import unique as dt_unique
        return UniqueCountsResult(*dt_unique(x, False, False, True, equal_nan=False))
    r = _np_unique_1d(x, True, False)
    if r is not None:
        return UniqueCountsResult(*r)
    return UniqueCountsResult(*_unique_1d(x, False, False, True, False, x.shape))


def unique_inverse(x):
    """unique_inverse(x): values, inverse_indices shaped like x (the Array API's)."""
    x = _as_array(x)
    if _datetime(x):  # NaT last, each its own value (_datetime.unique)
        from ._datetime import unique as dt_unique
        return UniqueInverseResult(*dt_unique(x, False, True, False, equal_nan=False))
    return UniqueInverseResult(*_unique_1d(x, False, True, False, False, x.shape))


def unique_values(x):
    """unique_values(x): the sorted unique values (the Array API's; NaNs distinct;
    the cpu device runs numpy.unique where measured faster, as unique)."""
    x = _as_array(x)
    if _datetime(x):  # NaT last, each its own value (_datetime.unique)
        from ._datetime import unique as dt_unique
        return dt_unique(x)  # (NumPy's merges NaT here)
    r = _np_unique_1d(x, False, False)
    if r is not None:
        return r[0]
    return _unique_1d(x, False, False, False, False, x.shape)[0]


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """isin(element, test_elements, assume_unique=False, invert=False, *, kind=None)

    A bool array shaped like element: True where an element is in test_elements
    (numpy.isin). The test elements are sorted once and each element is searched
    for, so nothing is read back to the host. kind= is checked, not used, and so
    is assume_unique (the result is right either way). The cpu device runs
    numpy.isin on zero-copy views where NumPy takes its lookup-table method
    (integer or bool arrays, the test elements' range at most 6 times the two
    sizes together) for NP_ISIN_MIN elements or more.
    """
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = _as_array(element)
    t = _as_array(test_elements, device=e.device).reshape(-1)
    if _datetime(e) or _datetime(t):  # NaT is in nothing: _datetime.isin
        from ._datetime import isin as dt_isin
        return dt_isin(e, t, invert)
    if e.size >= NP_ISIN_MIN and t.size and _cpu(e, t) and _np_table(e, t):
        return _wrap(_np.isin(_view(e), _view(t), invert=bool(invert)), e.device)
    if t.size == 0:
        return _core.full(e.shape, bool(invert), dtype=_np.bool_, device=e.device)
    s = _core.sort(t, kind="stable")
    pos = _core.minimum(_core.searchsorted(s, e), t.size - 1)
    found = _core.equal(s[pos], e)
    return _core.logical_not(found) if invert else found


NP_ISIN_MIN = 8192  # the composition is the faster at 4096 elements


def _np_table(e, t):
    """Whether numpy.isin(e, t) (kind=None) takes its lookup-table method, the
    case measured faster than the composition: its own test on views."""
    if e.dtype.kind not in "biu" or t.dtype.kind not in "biu":
        return False
    h = _view(t)
    if h.dtype == _np.bool_:
        return True
    span = int(h.max()) - int(h.min())
    return span <= 6 * (e.size + t.size) and span <= _np.iinfo(h.dtype).max


def in1d(ar1, ar2, assume_unique=False, invert=False, *, kind=None):
    """in1d(ar1, ar2, ...): isin over ar1.ravel() (NumPy's deprecated form)."""
    return isin(_as_array(ar1).reshape(-1), ar2, assume_unique, invert, kind=kind)


def _sorted(a, arg):
    """The stable sort (or argsort) of a, NaT last for datetime64 (NumPy's order)."""
    if _datetime(a):
        from ._datetime import argsort, sort
        return (argsort if arg else sort)(a, kind="stable")
    return (_core.argsort if arg else _core.sort)(a, kind="stable")


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """intersect1d(ar1, ar2, assume_unique=False, return_indices=False)

    The sorted values in both arrays (numpy.intersect1d), and with return_indices
    the indices of their first occurrences in each.
    """
    ar1 = _as_array(ar1)
    ar2 = _as_array(ar2, device=ar1.device)
    if not assume_unique:
        if return_indices:
            ar1, ind1 = unique(ar1, return_index=True)
            ar2, ind2 = unique(ar2, return_index=True)
        else:
            ar1 = unique(ar1)
            ar2 = unique(ar2)
    else:
        ar1 = ar1.reshape(-1)
        ar2 = ar2.reshape(-1)
    aux = _core.concatenate((ar1, ar2))
    if return_indices:
        order = _sorted(aux, True)
        aux = aux[order]
    else:
        aux = _sorted(aux, False)
    if aux.size == 0:
        mask = _core.zeros((0,), dtype=_np.bool_, device=aux.device)
    else:
        mask = _core.equal(aux[1:], aux[:-1])
    common = aux[:-1][mask]
    if not return_indices:
        return common
    i1 = order[:-1][mask]
    i2 = order[1:][mask] - ar1.size
    if not assume_unique:
        i1 = ind1[i1]
        i2 = ind2[i2]
    return common, i1, i2


def union1d(ar1, ar2):
    """union1d(ar1, ar2): the sorted unique values in either array."""
    ar1 = _as_array(ar1)
    ar2 = _as_array(ar2, device=ar1.device)
    return unique(_core.concatenate((ar1.reshape(-1), ar2.reshape(-1))))


def setdiff1d(ar1, ar2, assume_unique=False):
    """setdiff1d(ar1, ar2, assume_unique=False): the unique values of ar1 not in ar2."""
    ar1 = _as_array(ar1)
    ar1 = ar1.reshape(-1) if assume_unique else unique(ar1)
    return ar1[isin(ar1, ar2, assume_unique=True, invert=True)]


def setxor1d(ar1, ar2, assume_unique=False):
    """setxor1d(ar1, ar2, assume_unique=False): the sorted values in exactly one."""
    ar1 = _as_array(ar1)
    ar2 = _as_array(ar2, device=ar1.device)
    if not assume_unique:
        ar1 = unique(ar1)
        ar2 = unique(ar2)
    aux = _core.concatenate((ar1.reshape(-1), ar2.reshape(-1)))
    if aux.size == 0:
        return aux
    aux = _sorted(aux, False)
    n = aux.size
    flag = _core.empty((n + 1,), dtype=_np.bool_, device=aux.device)
    flag[:1] = True
    flag[n:] = True
    if n > 1:
        flag[1:n] = _core.not_equal(aux[1:], aux[:-1])
    return aux[_core.logical_and(flag[1:], flag[:-1])]

"""sort, argsort and searchsorted: the cpu device's large calls on two host threads.

On the cpu device the C primitives (csrc/ops/sort.c) run NumPy's own routine on
zero-copy views: a copy then an in-place sort, or an argsort copied into the
result. A sort along the last axis orders each row on its own, and searchsorted
answers each query on its own, so doing exactly that for the first half of the
rows (queries) on the worker thread and for the second half here gives NumPy's
result bit for bit, of any kind, stable or not (every row is sorted by the same
routine as in one call), written in place into one result.

One run (a 1-D array, axis=None, one row) is split too: each half is sorted (or
argsorted, with its keys gathered in that order) by NumPy's routine of the asked
kind on its own thread, and _core._merge_runs (kernels/host/host_sort.c's
ca_host_merge, on the C host threads) merges the two sorted runs. The split is
always at n // 2, whatever the thread count. The merge is stable, left run first,
so a stable sort or argsort is NumPy's bit for bit; an unstable one gives NumPy's
sorted values, and argsort a permutation that sorts (ties may be ordered
otherwise, as NumPy's own kinds order them otherwise).

Small calls, other devices, other axes, descending sorts, ``order=`` and
unfamiliar ``kind``/``stable`` values are one C call as before.
"""

import numpy as _np

from . import _core, _host_threads

# Elements from which two threads beat one on this project's 2-core host, where
# handing half to the worker costs about 0.1 ms (measured 2026-12-04, session 10,
# rows of 256 float32 with the other core free: two threads won from 2^15 elements
# of a stable argsort, from 2^17 of an unstable one, from 2^18-2^19 of a sort, and
# from 2^14-2^15 queries of searchsorted; with both cores busy elsewhere the split
# path measured 0.9-1.1x of one call, within that load's noise).
SORT_MIN_SIZE = 1 << 19
ARGSORT_MIN_SIZE = 1 << 17
STABLE_MIN_SIZE = 1 << 15    # stable kinds on keys of more than 2 bytes (mergesort)
SEARCH_MIN_QUERIES = 1 << 15
# One run (1-D, axis=None, one row): the halves' sorts, then the C merge (measured
# 2026-12-04 21:55-21:58 UTC, issue 15, the other core free (load 1.1-1.5 with this
# run's own two threads), medians of 9-11 interleaved with the C call, 1-D
# float32/int64 uniform keys; float64, complex64, int8, uint16 alike): stable kinds
# 0.5-0.7x at 2^12, 1.4-1.8x at 2^13, 1.6-1.9x at 2^14; quicksort's sort 1.0x (float32)
# to 1.35x (int64) at 2^14, 1.0-1.6x at 2^15, 1.2-1.7x at 2^16; argsort 1.2-1.55x at
# 2^15; 1.8-2.1x at 2^22. bool never won (0.3-1.1x: NumPy's bool sorts are cheap per
# key and the merge takes sort_keys.h's slow path), so bool never splits a run.
RUN_SORT_MIN_SIZE = 1 << 16
RUN_ARGSORT_MIN_SIZE = 1 << 15
RUN_STABLE_MIN_SIZE = 1 << 14
_MIN_SIZE = min(SORT_MIN_SIZE, ARGSORT_MIN_SIZE, STABLE_MIN_SIZE, RUN_SORT_MIN_SIZE,
                RUN_ARGSORT_MIN_SIZE, RUN_STABLE_MIN_SIZE)

_CPU = _core.Device("cpu")


def _cpu_array(x):
    """Whether x is a cuarray array of the cpu device (and two threads may run)."""
    return _host_threads.ENABLED and isinstance(x, _core.ndarray) and x.device == _CPU


# NumPy's kind for the names the C primitive maps to quick, heap or stable
# (csrc/ops/sort.c's check_kind; other spellings take the C call).
_NP_KIND = {"quicksort": "quicksort", "heapsort": "heapsort", "stable": "stable",
            "mergesort": "stable"}


def np_kind(kind, stable):
    """NumPy's kind for kind=/stable= as the C primitive reads them, or None for
    anything else (the C call then runs, or refuses it)."""
    if kind is None and (stable is None or type(stable) is bool):
        return "stable" if stable else "quicksort"
    if stable is None and type(kind) is str:
        return _NP_KIND.get(kind)
    return None


def threshold(base, a, kind):
    """The size from which a sort of `a` of NumPy kind `kind` splits:
    STABLE_MIN_SIZE for the stable kind (NumPy's mergesort, far slower per key) on
    keys wider than 2 bytes (narrower ones NumPy radix-sorts), else `base`."""
    return STABLE_MIN_SIZE if kind == "stable" and a.dtype.itemsize > 2 else base


def _split(a, axis, kind, stable, order, descending, bases):
    """(NumPy's kind, 0 for the rows, 1 for one run) when a sort of `a` along `axis`
    splits (bases: the rows' and the run's base thresholds, and whether the result
    is sorted values), else None."""
    if descending or order is not None or a.dtype.num >= _np_userdef:
        # ml_dtypes' types: the C call sorts their float32 values (NumPy's
        # loops for them compare one pair at a time through Python's dtype)
        return None
    k = np_kind(kind, stable)
    if k is None or not _cpu_array(a):
        return None
    if _one_run(a, axis):
        if a.size >= run_threshold(bases[1], a, k, bases[2]):
            return k, 1
        return None
    if not _last_axis(a, axis) or a.shape[0] < 2 or a.size < threshold(bases[0], a, k):
        return None
    return k, 0


def _last_axis(a, axis):
    return type(axis) is int and a.ndim >= 2 and axis in (-1, a.ndim - 1)


def _one_run(a, axis):
    """Whether the sort orders all of a's elements as one run: axis=None, or along
    the last axis when that holds every element (1-D, one row)."""
    if axis is None:
        return True
    return (type(axis) is int and a.ndim >= 1 and axis in (-1, a.ndim - 1)
            and a.shape[-1] == a.size)


def run_threshold(base, a, kind, values=False):
    """The size from which one run of `a` splits (`values`: for sort, not argsort):
    RUN_STABLE_MIN_SIZE for the stable kind, else `base`; never for bool, for the
    stable kind on keys NumPy radix-sorts (1-2 byte integers: the merge would redo
    a whole radix sort's work), nor for sort's unstable kinds on float16 (NumPy
    2.4's AVX-512 float16 sort, which heapsort also takes, leaves some keys out of
    order from about 5e4 of them on this project's host: the halves would not be
    sorted runs, and its own result is what the C call gives)."""
    dt = a.dtype
    if dt.kind == "b" or (kind == "stable" and dt.itemsize <= 2 and dt.kind in "iu"):
        return _NEVER
    if values and kind != "stable" and dt == _np.float16:
        return _NEVER
    return RUN_STABLE_MIN_SIZE if kind == "stable" else base


_NEVER = float("inf")
_np_userdef = 256  # NPY_USERDEF: type numbers of registered dtypes (ml_dtypes) from here


def _rows_into(a, dtype, work, kind):
    """work(src, dst, kind) on NumPy views of the halves of a's first axis and of a
    new C-order result's."""
    res = _core.empty(a.shape, dtype=dtype, device=a.device)
    src, dst = _np.asarray(a), _np.asarray(res)
    h = src.shape[0] // 2
    _host_threads.both(work, (src[:h], dst[:h], kind), (src[h:], dst[h:], kind))
    return res


def _sort_rows(src, dst, kind):
    _np.copyto(dst, src)
    dst.sort(axis=-1, kind=kind)


def _argsort_rows(src, dst, kind):
    _np.copyto(dst, _np.argsort(src, axis=-1, kind=kind))


def _run_views(a, dtype):
    """a's elements as one NumPy run (C order: axis=None's), and a new cpu array of
    n elements of `dtype` with its NumPy view."""
    src = _np.asarray(a).reshape(-1)
    runs = _core.empty(src.size, dtype=dtype, device=a.device)
    return src, runs, _np.asarray(runs)


def _shaped(res, a, axis):
    """The merged 1-D result as the call's: 1-D for axis=None, else a's shape."""
    return res if axis is None or a.ndim == 1 else res.reshape(a.shape)


def _sort_run(a, axis, kind):
    """The halves sorted on two threads, then merged (_merge_runs, C)."""
    src, runs, r = _run_views(a, a.dtype)
    h = src.size // 2
    _host_threads.both(_sort_rows, (src[:h], r[:h], kind), (src[h:], r[h:], kind))
    res = _core.empty(src.size, dtype=a.dtype, device=a.device)
    _core._merge_runs(runs, h, None, res)
    return _shaped(res, a, axis)


def _argsort_half(src, keys, idx, kind, offset):
    """src's argsort (plus `offset`) into idx, and src's keys in that order."""
    i = _np.argsort(src, kind=kind)
    _np.take(src, i, out=keys)
    _np.add(i, offset, out=idx)


def _argsort_run(a, axis, kind):
    """The halves argsorted on two threads (with their sorted keys), then the merge
    of the two runs of keys takes the halves' indices in merged order."""
    src, keys, k = _run_views(a, a.dtype)
    n, h = src.size, src.size // 2
    idx = _core.empty(n, dtype=_np.int64, device=a.device)
    i = _np.asarray(idx)
    _host_threads.both(_argsort_half, (src[:h], k[:h], i[:h], kind, 0),
                       (src[h:], k[h:], i[h:], kind, h))
    res = _core.empty(n, dtype=_np.int64, device=a.device)
    _core._merge_runs(keys, h, idx, res)
    return _shaped(res, a, axis)


def _sort_or_argsort(c_call, works, bases, dtype, a, axis, kind, order, stable,
                     descending):
    """The split rows or run when they pay (works[0] on the halves of the rows,
    results of `dtype` or a's; works[1] for one run; bases: their thresholds), else
    the C call `c_call` with as few keywords as it needs."""
    how = None
    if getattr(a, "size", 0) >= _MIN_SIZE:  # small calls stop here
        how = _split(a, axis, kind, stable, order, descending, bases)
    if how is not None:
        k, run = how
        if run:
            return works[1](a, axis, k)
        return _rows_into(a, dtype or a.dtype, works[0], k)
    if stable is None and descending is False:  # no keywords: the cheapest C call
        return c_call(a, axis, kind, order)
    return c_call(a, axis, kind, order, stable=stable, descending=descending)


_SORTS = (_sort_rows, _sort_run)
_ARGSORTS = (_argsort_rows, _argsort_run)
_SORT_BASES = (SORT_MIN_SIZE, RUN_SORT_MIN_SIZE, True)
_ARGSORT_BASES = (ARGSORT_MIN_SIZE, RUN_ARGSORT_MIN_SIZE, False)


def _datetime(a):
    """a is a datetime64/timedelta64 array (cuarray._datetime's: NaT sorts last)."""
    return type(a) is not _core.ndarray and isinstance(getattr(a, "_dt", None), _np.dtype)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    if _datetime(a) and not descending:
        from ._datetime import sort
        return sort(a, axis, kind, order, stable=stable)
    return _sort_or_argsort(_core.sort, _SORTS, _SORT_BASES, None, a, axis, kind,
                            order, stable, descending)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    if _datetime(a) and not descending:
        from ._datetime import argsort
        return argsort(a, axis, kind, order, stable=stable)
    return _sort_or_argsort(_core.argsort, _ARGSORTS, _ARGSORT_BASES, _np.int64, a,
                            axis, kind, order, stable, descending)


def searchsorted(a, v, side="left", sorter=None):
    if _datetime(a) or _datetime(v):  # in the order that puts NaT last
        from ._datetime import searchsorted
        return searchsorted(a, v, side, sorter)
    if (getattr(v, "size", 0) >= SEARCH_MIN_QUERIES  # small calls stop here
            and _cpu_array(v) and sorter is None and v.ndim >= 1
            and v.shape[0] >= 2 and _same_dense(a, v)):
        return _queries(a, v, side)
    return _core.searchsorted(a, v, side, sorter)


def _queries(a, v, side):
    """searchsorted of the two halves of v's first axis, joined along it."""
    h = v.shape[0] // 2
    parts = _host_threads.both(lambda q: _core.searchsorted(a, q, side), (v[:h],),
                               (v[h:],))
    return _core.concatenate(parts, axis=0)


def _same_dense(a, v):
    """a is searched as it is by each half: a cpu array of v's dtype, contiguous
    (otherwise each half would convert it again)."""
    return (isinstance(a, _core.ndarray) and a.device == _CPU and a.dtype == v.dtype
            and a.flags.c_contiguous)


sort.__doc__ = _core.sort.__doc__
argsort.__doc__ = _core.argsort.__doc__
searchsorted.__doc__ = _core.searchsorted.__doc__

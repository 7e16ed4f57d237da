"""sort, argsort and searchsorted: the cpu device's large calls on two host threads.

On the cpu device the C primitives (csrc/sort.c) run NumPy's own routine on
zero-copy views: a copy then an in-place sort, or an argsort copied into the
result. A sort along the last axis orders each row on its own, and searchsorted
answers each query on its own, so doing exactly that for the first half of the
rows (queries) on the worker thread and for the second half here gives NumPy's
result bit for bit, of any kind, stable or not (every row is sorted by the same
routine as in one call), written in place into one result. Small calls, other
devices, flattened sorts, other axes, descending sorts, ``order=`` and
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

_CPU = _core.Device("cpu")


def _cpu_array(x):
    """Whether x is a cuarray array of the cpu device (and two threads may run)."""
    return _host_threads.ENABLED and isinstance(x, _core.ndarray) and x.device == _CPU


# NumPy's kind for the names the C primitive maps to quick, heap or stable
# (csrc/sort.c's check_kind; other spellings take the C call).
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


def _split_kind(a, axis, kind, stable, order, descending, base):
    """NumPy's kind when a sort of `a` along `axis` splits its rows, else None."""
    if descending or order is not None:
        return None
    k = np_kind(kind, stable)
    if (k is None or not _cpu_array(a) or not _last_axis(a, axis) or a.shape[0] < 2
            or a.size < threshold(base, a, k)):
        return None
    return k


def _last_axis(a, axis):
    return type(axis) is int and a.ndim >= 2 and axis in (-1, a.ndim - 1)


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


def _sort_or_argsort(c_call, work, base, dtype, a, axis, kind, order, stable,
                     descending):
    """The split rows when they pay (`work` on the halves, results of `dtype`, or
    a's), else the C call `c_call` with as few keywords as it needs."""
    k = None
    if getattr(a, "size", 0) >= STABLE_MIN_SIZE:  # small calls stop here
        k = _split_kind(a, axis, kind, stable, order, descending, base)
    if k is not None:
        return _rows_into(a, dtype or a.dtype, work, k)
    if stable is None and descending is False:  # no keywords: the cheapest C call
        return c_call(a, axis, kind, order)
    return c_call(a, axis, kind, order, stable=stable, descending=descending)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    return _sort_or_argsort(_core.sort, _sort_rows, SORT_MIN_SIZE, None, a, axis, kind,
                            order, stable, descending)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    return _sort_or_argsort(_core.argsort, _argsort_rows, ARGSORT_MIN_SIZE, _np.int64, a,
                            axis, kind, order, stable, descending)


def searchsorted(a, v, side="left", sorter=None):
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

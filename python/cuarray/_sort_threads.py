"""sort, argsort and searchsorted: the cpu device's large calls on two host threads.

The C primitives (csrc/sort.c) run NumPy's own routine on the cpu device. A sort
along the last axis orders each row on its own and searchsorted answers each query
on its own, so the first half of the rows (queries) on the worker thread and the
second half here, joined, are NumPy's result bit for bit (any kind, stable or
not: every row is sorted by the same routine as in one call). Small calls, other
devices, flattened sorts and sorts along another axis are one C call as before.
"""

from . import _core, _host_threads

# Elements from which two threads beat one on this project's 2-core host, where
# handing half to the worker costs about 0.1 ms (measured 2026-12-04, session 10:
# two threads won from 2^15 elements of a stable float32 row argsort, from 2^17 of
# an unstable one, from 2^18-2^19 of a row sort of 256, from 2^14-2^15 queries).
SORT_MIN_SIZE = 1 << 19
ARGSORT_MIN_SIZE = 1 << 17
STABLE_MIN_SIZE = 1 << 15    # stable kinds on keys of more than 2 bytes (mergesort)
SEARCH_MIN_QUERIES = 1 << 15

_CPU = _core.Device("cpu")


def _cpu_array(x, min_size):
    """Whether x is a cuarray array of the cpu device with min_size elements or
    more."""
    return (getattr(x, "size", 0) >= min_size and _host_threads.ENABLED
            and isinstance(x, _core.ndarray) and x.device == _CPU)


def threshold(base, a, kind, stable):
    """The size from which a sort of `a` splits: STABLE_MIN_SIZE for the stable
    kinds (NumPy's mergesort, far slower per key) on keys wider than 2 bytes
    (narrower ones NumPy radix-sorts), else `base`."""
    is_stable = stable is True or (isinstance(kind, str)
                                   and kind[:1].lower() in ("s", "m"))
    return STABLE_MIN_SIZE if is_stable and a.dtype.itemsize > 2 else base


def _row_split(a, axis, kind, stable, descending, base):
    """Whether a sort of `a` along `axis` splits its rows (the size first: small
    calls stop at one comparison)."""
    return (getattr(a, "size", 0) >= STABLE_MIN_SIZE and not descending
            and _cpu_array(a, 0) and _last_axis(a, axis)
            and a.size >= threshold(base, a, kind, stable))


def _last_axis(a, axis):
    return type(axis) is int and a.ndim >= 2 and axis in (-1, a.ndim - 1)


def _rows(fn, a, args, kw):
    """fn over the two halves of a's first axis, joined along it; None when the
    first axis has one row."""
    if a.shape[0] < 2:
        return None
    h = a.shape[0] // 2
    parts = _host_threads.both(lambda x: fn(x, *args, **kw), (a[:h],), (a[h:],))
    return _core.concatenate(parts, axis=0)


def sort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    r = None
    if _row_split(a, axis, kind, stable, descending, SORT_MIN_SIZE):
        r = _rows(_core.sort, a, (axis, kind, order), {"stable": stable})
    if r is None:
        r = _core.sort(a, axis, kind, order, stable=stable, descending=descending)
    return r


def argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False):
    r = None
    if _row_split(a, axis, kind, stable, descending, ARGSORT_MIN_SIZE):
        r = _rows(_core.argsort, a, (axis, kind, order), {"stable": stable})
    if r is None:
        r = _core.argsort(a, axis, kind, order, stable=stable, descending=descending)
    return r


def searchsorted(a, v, side="left", sorter=None):
    r = None
    if (_cpu_array(v, SEARCH_MIN_QUERIES) and sorter is None and v.ndim >= 1
            and _same_dense(a, v)):
        r = _rows(lambda q: _core.searchsorted(a, q, side), v, (), {})
    if r is None:
        r = _core.searchsorted(a, v, side, sorter)
    return r


def _same_dense(a, v):
    """a is searched as it is by each half: a cpu array of v's dtype, contiguous
    (otherwise each half would convert it again)."""
    return (isinstance(a, _core.ndarray) and a.device == _CPU and a.dtype == v.dtype
            and a.flags.c_contiguous)


sort.__doc__ = _core.sort.__doc__
argsort.__doc__ = _core.argsort.__doc__
searchsorted.__doc__ = _core.searchsorted.__doc__

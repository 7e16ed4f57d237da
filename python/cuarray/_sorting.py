"""Sorting compositions: lexsort, sort_complex (numpy.lexsort, numpy.sort_complex).

sort, argsort, partition, argpartition and searchsorted are C primitives
(csrc/ops/sort.c, kernels/sort*.cu); these functions are built from them.
"""

import numpy as _np

from . import _core
from ._sort_threads import _datetime

__all__ = ["lexsort", "sort_complex"]


def _as_array(a, device=None):
    if isinstance(a, _core.ndarray):
        return a
    return _core.asarray(a, device=device)


def _take_last(a, idx):
    """a[..., idx[..., j]] row by row: take_along_axis on the last axis (a and idx of
    the same shape, C order results)."""
    if a.ndim <= 1:
        return a[idx]
    n = a.shape[-1]
    rows = a.size // n if n else 0
    base = _core.arange(0, rows * n, n if n else 1, dtype=_np.int64,
                        device=a.device).reshape(a.shape[:-1] + (1,))
    flat = _core.ascontiguousarray(a).reshape(-1)
    return flat[idx + base]


def _order_key(k):
    """k, or for a datetime64/timedelta64 array uint64 keys of its order (NaT last)."""
    if not _datetime(k):
        return k
    from ._datetime import _bits, _keys
    return _keys(_bits(k))


def _ca_sort(a):
    from ._datetime import sort
    return sort(a)


def lexsort(keys, axis=-1):
    """lexsort(keys, axis=-1)

    Indices that sort by several keys, the last key primary (numpy.lexsort): one
    stable argsort per key, from the least significant one, so ties of a later key
    keep the order the earlier keys gave.
    """
    if isinstance(keys, _core.ndarray):
        if keys.ndim == 0:
            raise TypeError("need sequence of keys with len > 0 in lexsort")
        keys = [keys[i] for i in range(keys.shape[0])]
    else:
        keys = [_as_array(k) for k in keys]
    if len(keys) == 0:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    keys = [_order_key(k) for k in keys]
    shape = keys[0].shape
    for k in keys:
        if k.shape != shape:
            raise ValueError("all keys need to be the same shape")
    if len(shape) == 0:
        return _core.zeros((), dtype=_np.int64, device=keys[0].device)
    ax = axis + len(shape) if axis < 0 else axis
    if not 0 <= ax < len(shape):
        raise _np.exceptions.AxisError(axis, len(shape))
    moved = [_core.moveaxis(k, ax, -1) for k in keys]
    idx = _core.argsort(moved[0], axis=-1, kind="stable")
    for k in moved[1:]:
        order = _core.argsort(_take_last(k, idx), axis=-1, kind="stable")
        idx = _take_last(idx, order)
    return _core.moveaxis(idx, -1, ax)


def sort_complex(a):
    """sort_complex(a)

    a sorted along its last axis, as complex numbers (numpy.sort_complex): real
    (then imaginary) parts ascending; 8- and 16-bit integers give complex64, other
    real types complex128.
    """
    a = _as_array(a)
    b = _ca_sort(a) if _datetime(a) else _core.sort(a, kind="stable")
    if b.dtype.kind == "c":
        return b
    if b.dtype.char in "bhBH":
        return b.astype(_np.complex64)
    return b.astype(_np.complex128)

"""Array manipulation as NumPy's (numpy/lib/_shape_base_impl.py, _function_base_impl.py,
_arraypad_impl.py, numpy/_core/shape_base.py): stacks, splits, atleast_*, insert and
delete, flips and rolls, tile/repeat/resize, copyto, require and the memory-overlap
tests, composed from cuarray's primitives (concatenate, reshape, transpose, slicing,
integer-array indexing, setitem, broadcast_to).

Index arrays that depend only on shapes and Python arguments (insert, delete, repeat
with host counts) are computed with NumPy on the host and sent in one transfer, so no
result here waits for the GPU except where the data decides the shape (trim_zeros, and
repeat or delete given cuarray arrays). pad is in _pad.py.
"""

import operator
import warnings as _warnings

import numpy as _np

from . import _core
from ._devices import device_of as _device_of

__all__ = [
    "append", "array_split", "split", "hsplit", "vsplit", "dsplit", "atleast_1d",
    "atleast_2d", "atleast_3d", "hstack", "vstack", "dstack", "column_stack",
    "delete", "insert", "fliplr", "flipud", "rot90", "roll", "rollaxis", "tile",
    "repeat", "resize", "trim_zeros", "copyto", "require", "asanyarray",
    "asarray_chkfinite", "may_share_memory", "shares_memory", "block", "row_stack",
]

_ndarray = _core.ndarray
_AxisError = _np.exceptions.AxisError


def _as(a, device=None):
    """`a` as a cuarray array (on `device` when it must be converted)."""
    if isinstance(a, _ndarray):
        return a
    return _core.asarray(a, device=device)


def _norm_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    return axis + ndim if axis < 0 else axis


def _at(axis, index):
    """The index tuple that applies `index` along `axis` (and takes all of the rest)."""
    return (slice(None),) * axis + (index,)


def _seq(tup):
    """The arrays of a stacking function, which NumPy wants as a sequence."""
    if type(tup) is not list and type(tup) is not tuple:
        if not hasattr(tup, "__getitem__"):
            raise TypeError('arrays to stack must be passed as a "sequence" type '
                            'such as list or tuple.')
        tup = list(tup)
    for a in tup:
        if type(a) is not _ndarray:
            dev = _device_of(*tup)
            return [_as(a, dev) for a in tup]
    return tup  # the common case: all cuarray arrays already


# -- atleast_* -------------------------------------------------------------------

def _one_or_tuple(res):
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    """atleast_1d(*arys)

    Views of the inputs with at least one dimension (a 0-d array becomes shape
    (1,)); one array for one input, else a tuple."""
    dev = _device_of(*arys)
    res = []
    for a in arys:
        a = _as(a, dev)
        res.append(a.reshape(1) if a.ndim == 0 else a)
    return _one_or_tuple(res)


def atleast_2d(*arys):
    """atleast_2d(*arys)

    Views with at least two dimensions: 0-d to (1, 1), (N,) to (1, N)."""
    dev = _device_of(*arys)
    res = []
    for a in arys:
        a = _as(a, dev)
        res.append(a.reshape((1,) * (2 - a.ndim) + a.shape) if a.ndim < 2 else a)
    return _one_or_tuple(res)


def atleast_3d(*arys):
    """atleast_3d(*arys)

    Views with at least three dimensions: 0-d to (1, 1, 1), (N,) to (1, N, 1),
    (M, N) to (M, N, 1), as NumPy."""
    dev = _device_of(*arys)
    res = []
    for a in arys:
        a = _as(a, dev)
        if a.ndim == 0:
            a = a.reshape(1, 1, 1)
        elif a.ndim == 1:
            a = a.reshape(1, a.shape[0], 1)
        elif a.ndim == 2:
            a = a.reshape(a.shape + (1,))
        res.append(a)
    return _one_or_tuple(res)


# -- stacks ----------------------------------------------------------------------

def vstack(tup, *, dtype=None, casting="same_kind"):
    """vstack(tup, *, dtype=None, casting="same_kind")

    Stack arrays row-wise: concatenate along axis 0 after atleast_2d."""
    arrs = [a if a.ndim >= 2 else a.reshape((1,) * (2 - a.ndim) + a.shape)
            for a in _seq(tup)]
    if dtype is None and casting == "same_kind":
        return _core.concatenate(arrs, 0)  # keywords cost the C parser 0.4 us
    return _core.concatenate(arrs, axis=0, dtype=dtype, casting=casting)


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """row_stack(tup, *, dtype=None, casting="same_kind")

    vstack under NumPy's deprecated alias (with its DeprecationWarning)."""
    _warnings.warn("`row_stack` alias is deprecated. Use `np.vstack` directly.",
                   DeprecationWarning, stacklevel=2)
    return vstack(tup, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    """hstack(tup, *, dtype=None, casting="same_kind")

    Stack arrays column-wise: along axis 1, or axis 0 for 1-d (and 0-d) inputs."""
    arrs = _seq(tup)
    for a in arrs:  # a plain loop: any() of a generator costs more than the C call
        if a.ndim == 0:
            arrs = [a.reshape(1) if a.ndim == 0 else a for a in arrs]
            break
    axis = 0 if arrs and arrs[0].ndim == 1 else 1
    if dtype is None and casting == "same_kind":
        return _core.concatenate(arrs, axis)
    return _core.concatenate(arrs, axis=axis, dtype=dtype, casting=casting)


def dstack(tup):
    """dstack(tup)

    Stack arrays depth-wise: concatenate along axis 2 after atleast_3d."""
    arrs = _seq(tup)
    arrs = [atleast_3d(a) for a in arrs]
    return _core.concatenate(arrs, 2)


def column_stack(tup):
    """column_stack(tup)

    Stack 1-d arrays as the columns of a 2-d array (2-d arrays as they are)."""
    arrs = []
    for a in _seq(tup):
        if a.ndim < 2:
            a = a.reshape(-1, 1) if a.ndim == 1 else a.reshape(1, 1)
        arrs.append(a)
    return _core.concatenate(arrs, 1)


def append(arr, values, axis=None):
    """append(arr, values, axis=None)

    A copy of `arr` with `values` after it along `axis` (axis=None: both raveled)."""
    dev = _device_of(arr, values)
    arr, values = _as(arr, dev), _as(values, dev)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        values = values.ravel()
        axis = arr.ndim - 1
    return _core.concatenate((arr, values), axis)


# -- splits ----------------------------------------------------------------------

def array_split(ary, indices_or_sections, axis=0):
    """array_split(ary, indices_or_sections, axis=0)

    Views of `ary` split along `axis`: at the given indices, or into N sections
    whose sizes differ by at most one (the first ones larger)."""
    ary = _as(ary)
    n = ary.shape[axis]  # an IndexError for a bad axis, as NumPy's
    axis = axis + ary.ndim if axis < 0 else axis
    try:
        # a cuarray array of split points comes to the host once
        pts = indices_or_sections
        if isinstance(pts, _ndarray):
            pts = pts.get()
        len(pts)
        bounds = [0] + [operator.index(p) for p in pts] + [n]
    except TypeError:
        sections = int(indices_or_sections)
        if sections <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        each, extras = divmod(n, sections)
        sizes = [0] + extras * [each + 1] + (sections - extras) * [each]
        bounds = _np.cumsum(sizes).tolist()
    return [ary[_at(axis, slice(bounds[i], bounds[i + 1]))]
            for i in range(len(bounds) - 1)]


def split(ary, indices_or_sections, axis=0):
    """split(ary, indices_or_sections, axis=0)

    As array_split, but N sections must divide the axis equally (ValueError)."""
    try:
        len(indices_or_sections)
    except TypeError:
        sections = indices_or_sections
        n = _as(ary).shape[axis]
        if n % sections:
            raise ValueError("array split does not result in an equal division") \
                from None
    return array_split(ary, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    """hsplit(ary, indices_or_sections)

    split along axis 1 (axis 0 for 1-d arrays)."""
    ary = _as(ary)
    if ary.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(ary, indices_or_sections, 1 if ary.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    """vsplit(ary, indices_or_sections)

    split along axis 0 of an array of 2 or more dimensions."""
    return _split_from(ary, indices_or_sections, 0, 2, "vsplit")


def dsplit(ary, indices_or_sections):
    """dsplit(ary, indices_or_sections)

    split along axis 2 of an array of 3 or more dimensions."""
    return _split_from(ary, indices_or_sections, 2, 3, "dsplit")


def _split_from(ary, indices_or_sections, axis, min_ndim, name):
    """split along `axis` of an array of `min_ndim` or more dimensions (NumPy's
    message otherwise)."""
    ary = _as(ary)
    if ary.ndim < min_ndim:
        raise ValueError(f"{name} only works on arrays of {min_ndim} or more dimensions")
    return split(ary, indices_or_sections, axis)


# -- flips, rotations, rolls -----------------------------------------------------

def fliplr(m):
    """fliplr(m)

    A view with the columns (axis 1) reversed."""
    m = _as(m)
    if m.ndim < 2:
        raise ValueError("Input must be >= 2-d.")
    return m[:, ::-1]


def flipud(m):
    """flipud(m)

    A view with the rows (axis 0) reversed."""
    m = _as(m)
    if m.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return m[::-1, ...]


def rot90(m, k=1, axes=(0, 1)):
    """rot90(m, k=1, axes=(0, 1))

    A view rotated by 90 degrees k times in the plane of `axes`, from the first
    axis towards the second."""
    m = _as(m)
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    if axes[0] == axes[1] or abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= axes[0] < m.ndim and -m.ndim <= axes[1] < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return _core.flip(_core.flip(m, axes[0]), axes[1])
    perm = list(range(m.ndim))
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    if k == 1:
        return _core.transpose(_core.flip(m, axes[1]), perm)
    return _core.flip(_core.transpose(m, perm), axes[1])


def roll(a, shift, axis=None):
    """roll(a, shift, axis=None)

    A copy with the elements shifted along `axis` (several axes and shifts
    broadcast together; axis=None: over the raveled array), the ones pushed past
    the end coming back at the start."""
    a = _as(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    if type(shift) is int and type(axis) is int:
        # one shift along one axis: skip the broadcasting of shifts and axes
        ax = _norm_axis(axis, a.ndim)
        n = a.shape[ax]
        s = shift % n if n else 0
        if not s:
            return a.copy()
        return _core.concatenate((a[_at(ax, slice(n - s, None))],
                                  a[_at(ax, slice(None, n - s))]), ax)
    if isinstance(shift, _ndarray):
        shift = shift.get()
    if isinstance(axis, (int, _np.integer)):
        axes = _norm_axis(axis, a.ndim)
    else:
        axes = [_norm_axis(ax, a.ndim) for ax in axis]  # TypeError for nested lists
    b = _np.broadcast(_np.asarray(shift), _np.asarray(axes))
    if b.ndim > 1:
        raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
    shifts = {}
    for s, ax in b:
        ax = int(ax)
        shifts[ax] = shifts.get(ax, 0) + int(s)
    out = a
    for ax, s in shifts.items():
        n = a.shape[ax]
        s = s % n if n else 0
        if s:
            # the last s elements, then the first n - s: two views, one copy
            out = _core.concatenate((out[_at(ax, slice(n - s, None))],
                                     out[_at(ax, slice(None, n - s))]), ax)
    return out.copy() if out is a else out


def rollaxis(a, axis, start=0):
    """rollaxis(a, axis, start=0)

    A view with `axis` moved to before position `start` (moveaxis is clearer)."""
    a = _as(a)
    n = a.ndim
    axis = _norm_axis(axis, n)
    if start < 0:
        start += n
    msg = "'%s' arg requires %d <= %s < %d, but %d was passed in"
    if not 0 <= start < n + 1:
        raise _AxisError(msg % ("start", -n, "start", n + 1, start))
    if axis < start:
        start -= 1
    if axis == start:
        return a[...]
    axes = list(range(n))
    axes.remove(axis)
    axes.insert(start, axis)
    return _core.transpose(a, axes)


# -- tile, repeat, resize --------------------------------------------------------

def tile(A, reps):
    """tile(A, reps)

    `A` repeated reps[i] times along each axis (one copy, through a broadcast view
    that interleaves a repetition axis before each axis of A)."""
    if type(reps) is int:
        tup = (reps,)
    else:
        try:
            tup = tuple(reps)
        except TypeError:
            tup = (reps,)
        tup = tuple(operator.index(r) for r in tup)
    A = _as(A)
    d = len(tup)
    if d == 1 and A.ndim >= 1 and 2 <= tup[0] <= 8 and A.flags.c_contiguous:
        # the last axis repeated: t pieces joined by one launch (copy_pieces)
        return _core.concatenate([A] * tup[0], A.ndim - 1)
    c = A.reshape((1,) * (d - A.ndim) + A.shape) if A.ndim < d else A
    tup = (1,) * (c.ndim - d) + tup
    if min(tup, default=0) < 0:
        raise ValueError("negative dimensions are not allowed")
    out_shape = tuple(s * t for s, t in zip(c.shape, tup))
    inter, big = [], []
    for s, t in zip(c.shape, tup):
        inter += (1, s)
        big += (t, s)
    view = _core.broadcast_to(c.reshape(tuple(inter)), tuple(big))
    # array(), not ascontiguousarray(): reps of all ones must still copy
    return _core.array(view, order="C").reshape(out_shape)


def repeat(a, repeats, axis=None):
    """repeat(a, repeats, axis=None)

    Each element of `a` repeated along `axis` (axis=None: of the raveled array),
    `repeats` times (an int, or one count per element along the axis)."""
    a = _as(a)
    if axis is None:
        a, axis = a.ravel(), 0
    else:
        axis = _norm_axis(axis, a.ndim)
    n = a.shape[axis]
    if type(repeats) is int:
        k = repeats
    elif isinstance(repeats, (_ndarray, _np.ndarray)) and \
            not _np.can_cast(repeats.dtype, _np.intp, "safe"):
        # an array of counts casts safely, as NumPy's (scalars convert by value)
        what = "scalar" if repeats.ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from {repeats.dtype!r} to "
                        f"{_np.dtype(_np.intp)!r} according to the rule 'safe'")
    elif isinstance(repeats, _ndarray) and repeats.size != 1:
        # counts on the device: the output index of each element is where its
        # position falls among the counts' running sums (one readback: the total)
        if repeats.ndim > 1 or repeats.shape[0] != n:
            raise ValueError(f"operands could not be broadcast together with shape "
                             f"({n},) {repeats.shape}")
        reps = repeats.astype(_np.int64)
        if n and int(_core.min(reps)) < 0:
            raise ValueError("repeats may not contain negative values.")
        ends = _core.cumsum(reps)
        total = int(ends[-1]) if n else 0
        pos = _core.arange(total, dtype=_np.int64, device=a.device)
        idx = _core.searchsorted(ends, pos, side="right")
        return a[_at(axis, idx)]
    else:
        if isinstance(repeats, _ndarray):
            repeats = repeats.get()
        r = _np.array(repeats, dtype=_np.intp)  # by value: NumPy truncates floats
        if r.ndim > 1 or (r.size != 1 and r.shape[0] != n):
            raise ValueError(f"operands could not be broadcast together with shape "
                             f"({n},) {r.shape}")
        if r.size != 1:
            if (r < 0).any():
                raise ValueError("repeats may not contain negative values.")
            idx = _np.repeat(_np.arange(n, dtype=_np.int64), r)
            return a[_at(axis, _core.asarray(idx, device=a.device))]
        k = int(r.reshape(-1)[0])
    if k < 0:  # (one count: NumPy's broadcast makes a negative dimension)
        raise ValueError("negative dimensions are not allowed")
    # one count: a repetition axis after `axis`, broadcast k wide, one copy
    shape = a.shape[:axis + 1] + (1,) + a.shape[axis + 1:]
    big = a.shape[:axis + 1] + (k,) + a.shape[axis + 1:]
    out = a.shape[:axis] + (n * k,) + a.shape[axis + 1:]
    view = _core.broadcast_to(a.reshape(shape), big)
    return _core.array(view, order="C").reshape(out)


def resize(a, new_shape):
    """resize(a, new_shape)

    A new array of `new_shape` filled with `a`'s raveled elements, repeated as
    often as needed (zeros if `a` is empty)."""
    if isinstance(new_shape, (int, _np.integer)):
        new_shape = (new_shape,)
    new_shape = tuple(operator.index(s) for s in new_shape)
    a = _as(a).ravel()
    size = 1
    for s in new_shape:
        size *= s
        if s < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    if a.size == 0 or size == 0:
        return _core.zeros(new_shape, dtype=a.dtype, device=a.device)
    times = -(-size // a.size)
    # array() copies even where a reshape of the broadcast could stay a view
    flat = _core.array(_core.broadcast_to(a, (times, a.size)), order="C")
    return flat.reshape(-1)[:size].reshape(new_shape)


def trim_zeros(filt, trim="fb", axis=None):
    """trim_zeros(filt, trim='fb', axis=None)

    A view without the leading ('f') and/or trailing ('b') zeros: the bounding box
    of the nonzero elements along `axis` (None: all axes). Reads the box back."""
    filt = _as(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    nd = filt.ndim
    if axis is None:
        axes = tuple(range(nd))
    else:
        axes = (axis,) if isinstance(axis, (int, _np.integer)) else tuple(axis)
        axes = tuple(_norm_axis(ax, nd) for ax in axes)
        if len(set(axes)) != len(axes):
            raise ValueError("repeated axis in `axis` argument")
    if not axes:
        return filt
    nz = _core.argwhere(filt)
    if nz.shape[0] == 0:
        start = stop = [0] * nd
    else:
        box = _core.concatenate((_core.min(nz, axis=0), _core.max(nz, axis=0))).get()
        start = box[:nd].tolist() if "f" in trim else [None] * nd
        stop = (box[nd:] + 1).tolist() if "b" in trim else [None] * nd
    sl = tuple(slice(start[ax], stop[ax]) if ax in axes else slice(None)
               for ax in range(nd))
    return filt[sl]


# -- insert, delete --------------------------------------------------------------

def _host_index(obj):
    """An index argument as a NumPy array (a cuarray array comes to the host)."""
    if isinstance(obj, _ndarray):
        return obj.get(), True
    return _np.asarray(obj), isinstance(obj, _np.ndarray)


def _arr_axis(arr, axis):
    """delete's and insert's (arr, axis): axis None is the raveled array's one axis."""
    arr = _as(arr)
    if axis is None:
        if arr.ndim != 1:
            arr = arr.ravel()
        return arr, arr.ndim - 1
    return arr, _norm_axis(axis, arr.ndim)


def delete(arr, obj, axis=None):
    """delete(arr, obj, axis=None)

    A copy of `arr` without the entries `obj` (int, slice, int or bool array)
    along `axis` (None: of the raveled array)."""
    arr, axis = _arr_axis(arr, axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        keep = _np.ones(n, dtype=bool)
        keep[obj] = False
    elif isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool):
        i = int(obj)
        if not -n <= i < n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with "
                             f"size {n}")
        i %= n
        return _core.concatenate((arr[_at(axis, slice(None, i))],
                                  arr[_at(axis, slice(i + 1, None))]), axis)
    else:
        idx, was_array = _host_index(obj)
        if idx.dtype == bool:
            if idx.shape != (n,):
                raise ValueError(f"boolean array argument obj to delete must be one "
                                 f"dimensional and match the axis length of {n}")
            keep = ~idx
        else:
            if idx.size == 0 and not was_array:
                idx = idx.astype(_np.intp)  # an empty list deletes nothing
            if idx.dtype.kind not in "iu":
                raise IndexError("arrays used as indices must be of integer (or "
                                 "boolean) type")
            keep = _np.ones(n, dtype=bool)
            keep[idx] = False  # NumPy's IndexError for an index out of bounds
    where = _core.asarray(_np.flatnonzero(keep), device=arr.device)
    return arr[_at(axis, where)]


def insert(arr, obj, values, axis=None):
    """insert(arr, obj, values, axis=None)

    A copy of `arr` with `values` inserted before the indices `obj` along `axis`
    (None: of the raveled array). A scalar index inserts all of `values` there
    (moved so that their first axis lies along `axis`); a sequence inserts one
    value before each index."""
    arr, axis = _arr_axis(arr, axis)
    nd = arr.ndim
    n = arr.shape[axis]
    shape = list(arr.shape)
    if isinstance(obj, slice):
        idx, was_array = _np.arange(*obj.indices(n), dtype=_np.intp), True
    else:
        idx, was_array = _host_index(obj)
        if idx.dtype == bool:
            idx = idx.astype(_np.intp)
        if idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one "
                             "dimensional or scalar")
    vals = _as(values, arr.device)
    if idx.size == 1:
        i = operator.index(idx.reshape(-1)[0].item())
        if not -n <= i <= n:
            raise IndexError(f"index {obj} is out of bounds for axis {axis} with "
                             f"size {n}")
        if i < 0:
            i += n
        vals = vals.astype(arr.dtype, copy=False)
        if vals.ndim < nd:
            vals = vals.reshape((1,) * (nd - vals.ndim) + vals.shape)
        if idx.ndim == 0:
            # a[:, 0] = v and a[:, [0]] = v broadcast differently: a scalar index
            # takes the values' first axis as the inserted run
            vals = _core.moveaxis(vals, 0, axis)
        k = vals.shape[axis]
        shape[axis] += k
        new = _core.empty(tuple(shape), dtype=arr.dtype, device=arr.device)
        new[_at(axis, slice(None, i))] = arr[_at(axis, slice(None, i))]
        new[_at(axis, slice(i, i + k))] = vals
        new[_at(axis, slice(i + k, None))] = arr[_at(axis, slice(i, None))]
        return new
    if idx.size == 0 and not was_array:
        idx = idx.astype(_np.intp)
    if idx.dtype.kind not in "iu":
        raise IndexError("arrays used as indices must be of integer (or boolean) "
                         "type")
    # NumPy's arithmetic exactly (its bounds come from indexing the new axis, where a
    # still negative index counts from the end)
    idx = idx.astype(_np.intp)
    idx[idx < 0] += n
    k = idx.size
    order = _np.argsort(idx, kind="stable")
    idx[order] += _np.arange(k)
    shape[axis] += k
    old = _np.ones(shape[axis], dtype=bool)
    old[idx] = False
    new = _core.empty(tuple(shape), dtype=arr.dtype, device=arr.device)
    dev = arr.device
    new[_at(axis, _core.asarray(idx, device=dev))] = vals
    new[_at(axis, _core.asarray(_np.flatnonzero(old), device=dev))] = arr
    return new


# -- copyto, require, conversions ------------------------------------------------

def copyto(dst, src, casting="same_kind", where=True):
    """copyto(dst, src, casting='same_kind', where=True)

    Copy `src` into `dst` (broadcast), where `where` is true, if NumPy's `casting`
    rule allows the dtypes (TypeError otherwise)."""
    if not isinstance(dst, _ndarray):
        raise TypeError("copyto() argument 1 must be a cuarray.ndarray, not "
                        f"{type(dst).__name__}")
    if isinstance(src, _ndarray):
        if not _np.can_cast(src.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {src.dtype!r} to "
                            f"{dst.dtype!r} according to the rule {casting!r}")
    elif isinstance(src, (bool, int, float, complex)):
        # a Python scalar is weak (NEP 50): NumPy judges its value, not its type
        _np.copyto(_np.empty((), dtype=dst.dtype), src, casting=casting)
    else:
        h = _np.asarray(src)
        if not _np.can_cast(h.dtype, dst.dtype, casting):
            raise TypeError(f"Cannot cast array data from {h.dtype!r} to "
                            f"{dst.dtype!r} according to the rule {casting!r}")
        src = h
    src = _as(src, dst.device).astype(dst.dtype, copy=False)
    if src.shape != dst.shape:
        src = _broadcast_into(_copyto_squeezed(src, dst.ndim), dst.shape, "input array")
    if where is True:
        dst[...] = src
        return
    if not isinstance(where, (_ndarray, _np.ndarray)):
        where = _np.asarray(where, dtype=_np.bool_)
    w = _as(where, dst.device)
    if w.dtype != _np.bool_:
        if not _np.can_cast(w.dtype, _np.bool_, "safe"):
            raise TypeError(f"Cannot cast array data from {w.dtype!r} to "
                            "dtype('bool') according to the rule 'safe'")
    w = _broadcast_into(w, dst.shape, "where mask")
    dst[...] = _core.where(w, src, dst)


def _copyto_squeezed(src, ndim):
    """src less the leading length-1 axes beyond ndim (NumPy's copyto drops them:
    a (1, 1, 3, 4) source fills a (3, 4) destination); the where mask keeps its."""
    shape = src.shape
    k = 0
    while len(shape) - k > ndim and shape[k] == 1:
        k += 1
    return src.reshape(shape[k:]) if k else src


def _broadcast_into(x, shape, what):
    """x broadcast to shape, with NumPy's copyto message where it cannot be."""
    try:
        return _core.broadcast_to(x, shape)
    except ValueError:
        def fmt(s):
            return "(" + ",".join(map(str, s)) + (",)" if len(s) == 1 else ")")
        raise ValueError(f"could not broadcast {what} from shape {fmt(x.shape)} into "
                         f"shape {fmt(shape)}") from None


_FLAGS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F",
          "F_CONTIGUOUS": "F", "FORTRAN": "F", "A": "A", "ALIGNED": "A",
          "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O", "E": "E",
          "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """require(a, dtype=None, requirements=None, *, like=None)

    `a` as an array of `dtype` that has the flags `requirements` ('C', 'F', 'A',
    'W', 'O', 'E' or their long names), copying only when it must."""
    if like is not None:
        raise TypeError("require() does not support like=")
    if not requirements:
        return asanyarray(a, dtype=dtype)
    req = {_FLAGS[r.upper()] for r in requirements}
    req.discard("E")  # there are no subclasses: every result is an ndarray
    order = "A"
    if req >= {"C", "F"}:
        raise ValueError('Cannot specify both "C" and "F" order')
    if "C" in req:
        order = "C"
        req.discard("C")
    elif "F" in req:
        order = "F"
        req.discard("F")
    dev = a.device if isinstance(a, _ndarray) else None
    arr = _core.asarray(a, dtype=dtype, order=None if order == "A" else order,
                        device=dev)
    flags = {"A": "ALIGNED", "W": "WRITEABLE", "O": "OWNDATA"}
    for f in req:
        if not arr.flags[flags[f]]:
            return _core.array(arr, order=order if order != "A" else "K",
                               device=arr.device)
    return arr


def asanyarray(a, dtype=None, order=None, *, device=None, copy=None):
    """asanyarray(a, dtype=None, order=None, *, device=None, copy=None)

    asarray: cuarray has no ndarray subclasses to pass through."""
    return _core.asarray(a, dtype=dtype, order=order, device=device, copy=copy)


def asarray_chkfinite(a, dtype=None, order=None):
    """asarray_chkfinite(a, dtype=None, order=None)

    asarray, raising ValueError if the result holds an inf or a NaN (one value
    read back)."""
    a = _core.asarray(a, dtype=dtype, order=order,
                      device=a.device if isinstance(a, _ndarray) else None)
    if a.dtype.kind in "fc" and not bool(_core.all(_core.isfinite(a))):
        raise ValueError("array must not contain infs or NaNs")
    return a


# -- memory overlap ----------------------------------------------------------------

class _Extent:
    """The addresses of an array's elements, as NumPy sees an array: NumPy's
    overlap solver needs only the pointer, shape, strides and itemsize, never
    the data, so a view on these numbers is safe for device memory too."""

    def __init__(self, a):
        self.__array_interface__ = {
            "data": (a.data.ptr if a.size else 0, True), "shape": a.shape,
            "strides": a.strides, "typestr": f"|V{a.itemsize}", "version": 3}


def _overlap(a, b, max_work, fn):
    arrs = []
    for x in (a, b):
        if isinstance(x, _ndarray):
            if x.size == 0:
                return False
            arrs.append((x.device, _np.asarray(_Extent(x))))
        elif isinstance(x, _np.ndarray):
            arrs.append((None, x))
        else:
            return False  # a new array made from a Python object shares nothing
    (da, ha), (db, hb) = arrs
    if da is not None and db is not None and da != db:
        return False
    if (da is None) != (db is None):
        # a NumPy array and a cuarray array share memory only on the cpu device
        dev = da if da is not None else db
        if dev != "cpu":
            return False
    return fn(ha, hb, max_work=max_work)


def may_share_memory(a, b, /, max_work=0):
    """may_share_memory(a, b, /, max_work=0)

    Whether the memory bounds of `a` and `b` overlap (max_work=0), or whether
    they share an element (max_work=None or a work bound, as shares_memory)."""
    return _overlap(a, b, max_work, _np.may_share_memory)


def shares_memory(a, b, /, max_work=None):
    """shares_memory(a, b, /, max_work=None)

    Whether `a` and `b` share an element of memory, solved exactly (NumPy's
    solver on the arrays' addresses; TooHardError past `max_work`)."""
    return _overlap(a, b, max_work, _np.shares_memory)


# ---------------------------------------------------------------------- block ----

def _block_where(index):
    return "arrays" + "".join(f"[{i}]" for i in index)


def _block_scan(arrays, index, leaves):
    """(the index of the first leaf, the largest leaf ndim), NumPy's errors for
    tuples, empty lists and mismatched depths; the leaves are collected."""
    if type(arrays) is tuple:
        raise TypeError(f"{_block_where(index)} is a tuple. Only lists can be used to "
                        "arrange blocks, and np.block does not allow implicit "
                        "conversion from tuple to ndarray.")
    if type(arrays) is not list:
        leaves.append(arrays)
        return index, _np.ndim(arrays) if not isinstance(arrays, _ndarray) else arrays.ndim
    if not arrays:
        raise ValueError(f"List at {_block_where(index)} cannot be empty")
    first, nd = None, 0
    for i, a in enumerate(arrays):
        idx, d = _block_scan(a, index + [i], leaves)
        if first is None:
            first = idx
        elif len(idx) != len(first):
            raise ValueError(f"List depths are mismatched. First element was at depth "
                             f"{len(first)}, but there is an element at depth {len(idx)} "
                             f"({_block_where(idx)})")
        nd = max(nd, d)
    return first, nd


def block(arrays):
    """block(arrays)

    An array assembled from nested lists of blocks (numpy.block): the innermost
    lists concatenate along the last axis, the next ones along the second last, and
    so on; blocks get leading axes of length 1 up to the result's ndim.
    """
    leaves = []
    first, nd = _block_scan(arrays, [], leaves)
    depth = len(first)
    dev = _device_of(*leaves)
    if depth == 0:
        return _as(arrays, dev)
    ndim = max(nd, depth)

    def build(a, d):
        if d < depth:
            return _core.concatenate([build(x, d + 1) for x in a], axis=d - depth)
        a = _as(a, dev)
        return a.reshape((1,) * (ndim - a.ndim) + a.shape) if a.ndim < ndim else a

    return build(arrays, 0)

"""Indexing helpers as NumPy's (numpy/_core/fromnumeric.py, numpy/lib/
_index_tricks_impl.py, _twodim_base_impl.py, _function_base_impl.py): take/put and
their along-axis forms, choose, compress, extract, place, putmask, select, the
diagonal and triangle helpers, index grids, meshgrid, logspace, geomspace and vander
(the index objects r_, c_, s_, index_exp, mgrid, ogrid are in _index_objects.py).

Every function is a composition of the ndarray's own indexing (csrc/ops/index.c: integer
arrays, booleans, setitem), where, arange, linspace and the element-wise functions: no
Python loop runs over elements (loops run over axes or over argument lists only).
Checks that NumPy makes on index values (mode='raise') read one bool back.
"""

import operator

import numpy as _np

from . import _core
from ._outargs import write_out as _write_out
from ._sort_threads import _datetime

_TAKE_SHAPE = "output array does not match result of ndarray.take"

try:
    from numpy.exceptions import AxisError as _AxisError
except ImportError:  # NumPy < 1.25
    _AxisError = _np.AxisError

__all__ = [
    "take", "put", "take_along_axis", "put_along_axis", "choose", "compress",
    "extract", "place", "putmask", "select", "diag", "diagflat", "diagonal",
    "diag_indices", "diag_indices_from", "fill_diagonal", "indices", "ix_",
    "mask_indices", "ravel_multi_index", "unravel_index", "tri", "tril", "triu",
    "tril_indices", "tril_indices_from", "triu_indices", "triu_indices_from",
    "meshgrid", "logspace", "geomspace", "vander",
]

_INTP = _np.dtype(_np.intp)


def _arr(a, device=None):
    if isinstance(a, _core.ndarray):
        return a
    return _core.asarray(a, device=device)


def _dev_of(*objs):
    """The device of the first cuarray argument (None: the default device)."""
    for o in objs:
        if isinstance(o, _core.ndarray):
            return o.device
    return None


def _axis(axis, ndim):
    try:
        axis = operator.index(axis)
    except TypeError:
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as "
                        "an integer") from None
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    return axis % ndim if ndim else 0


def _take_index(indices, device):
    """take's and put's indices as NumPy casts them: a cuarray must be integer or bool
    ('same_kind' to intp), a host sequence is cast to intp as int() would."""
    if isinstance(indices, _core.ndarray):
        if indices.dtype.kind not in "iub":
            raise TypeError(f"Cannot cast array data from dtype('{indices.dtype}') to "
                            "dtype('int64') according to the rule 'same_kind'")
        return indices.astype(_INTP) if indices.dtype.kind == "b" else indices
    h = _np.asarray(indices)
    if h.dtype.kind not in "iu":
        h = h.astype(_np.intp) if h.dtype.kind in "bf" or h.size == 0 else \
            _np.array(indices, dtype=_np.intp)
    return _core.asarray(h, device=device)


def _cycle(v, n):
    """v's flat elements repeated cyclically to n of them (put, place, putmask)."""
    v = v.reshape(-1)
    if v.shape[0] == n:
        return v
    pos = _core.arange(n, dtype=_INTP, device=v.device)
    return v[_core.remainder(pos, v.shape[0])]


def _apply_mode(idx, n, mode, raise_exc=None):
    """Indices into an axis of length n under NumPy's clip modes."""
    if mode == "raise" or mode == 0:
        if raise_exc is not None and idx.size and bool(_core.any(_core.logical_or(
                _core.less(idx, -n if isinstance(raise_exc, IndexError) else 0),
                _core.greater_equal(idx, n)))):
            raise raise_exc
        return idx
    if mode == "wrap" or mode == 1:
        return _core.remainder(idx, n) if n else idx
    if mode == "clip" or mode == 2:
        return _core.clip(idx, 0, max(n - 1, 0))
    raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got "
                     f"'{mode}')")


def take(a, indices, axis=None, out=None, mode="raise"):
    """take(a, indices, axis=None, out=None, mode='raise')

    Elements of `a` at `indices` along `axis` (of the flattened array for None), as
    NumPy's: mode 'raise' checks the indices (negative ones count from the end), 'wrap'
    wraps them, 'clip' clips them into [0, n - 1].
    """
    a = _arr(a)
    idx = _take_index(indices, a.device)
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    else:
        axis = _axis(axis, a.ndim)
    n = a.shape[axis] if a.ndim else 1
    if a.ndim == 0:
        a = a.reshape(1)
    if n == 0 and idx.size:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    idx = _apply_mode(idx, n, mode)
    res = a[(slice(None),) * axis + (idx,)]
    return _write_out(res, out, _TAKE_SHAPE)


def put(a, ind, v, mode="raise"):
    """put(a, ind, v, mode='raise')

    a.flat[ind] = v in place, v repeated cyclically to the length of ind. Where ind
    repeats a position, which of the values lands there is not specified on a GPU.
    """
    if not isinstance(a, _core.ndarray):
        raise TypeError(f"argument 1 must be cuarray.ndarray, not {type(a).__name__}")
    idx = _take_index(ind, a.device).reshape(-1)
    v = _arr(v, a.device)
    if idx.shape[0] == 0 or v.size == 0:
        return None
    n = a.size
    if n == 0:
        raise IndexError("cannot replace elements of an empty array")
    idx = _apply_mode(idx, n, mode)
    vals = _cycle(v, idx.shape[0])
    if a.flags.c_contiguous:
        a.reshape(-1)[idx] = vals  # a view: the write lands in a
    else:
        if mode == "raise":
            idx = _apply_mode(idx, n, "raise", IndexError(
                f"index out of range for array of size {n}"))
            idx = _core.where(_core.less(idx, 0), _core.add(idx, n), idx)
        a[unravel_index(idx, a.shape)] = vals
    return None


def _along_axis_index(arr, indices, axis):
    """The fancy index that takes indices[..., j, ...] along axis of arr."""
    if arr.ndim != indices.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    nd = arr.ndim
    idx = []
    for d in range(nd):
        if d == axis:
            idx.append(indices)
        else:
            shp = [1] * nd
            shp[d] = arr.shape[d]
            idx.append(_core.arange(arr.shape[d], dtype=_INTP,
                                    device=arr.device).reshape(tuple(shp)))
    return tuple(idx)


def take_along_axis(arr, indices, axis=-1):
    """take_along_axis(arr, indices, axis=-1)

    arr[..., indices[..., j, ...], ...] along `axis` (of the flattened arr for None),
    `indices` broadcast against arr on the other axes.
    """
    arr = _arr(arr)
    indices = _arr(indices, arr.device)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        arr = arr.reshape(-1)
        axis = 0
    else:
        axis = _axis(axis, arr.ndim)
    return arr[_along_axis_index(arr, indices, axis)]


def put_along_axis(arr, indices, values, axis):
    """put_along_axis(arr, indices, values, axis)

    arr[..., indices[..., j, ...], ...] = values in place, along `axis`.
    """
    if not isinstance(arr, _core.ndarray):
        raise TypeError("arr must be a cuarray.ndarray")
    indices = _arr(indices, arr.device)
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        if indices.dtype.kind not in "iu":
            raise IndexError("`indices` must be an integer array")
        # Flat positions written through arr's own coordinates: arr may be a view
        # that reshape(-1) would copy.
        n = arr.size
        idx = indices.astype(_INTP)
        if idx.size and bool(_core.any(_core.logical_or(
                _core.less(idx, -n), _core.greater_equal(idx, n)))):
            raise IndexError(f"index out of bounds for axis 0 with size {n}")
        idx = _core.where(_core.less(idx, 0), _core.add(idx, n), idx)
        arr[unravel_index(idx, arr.shape)] = values
        return
    axis = _axis(axis, arr.ndim)
    arr[_along_axis_index(arr, indices, axis)] = values


def choose(a, choices, out=None, mode="raise"):
    """choose(a, choices, out=None, mode='raise')

    choices[a[I]][I] for every index I of the broadcast shape: the choices are
    stacked into one array and gathered once.
    """
    dev = _dev_of(a, *(choices if isinstance(choices, (list, tuple)) else ()),
                  choices)
    a = _arr(a, dev)
    dev = a.device
    if a.dtype.kind not in "iub":
        raise TypeError(f"Cannot cast array data from dtype('{a.dtype}') to "
                        "dtype('int64') according to the rule 'safe'")
    if isinstance(choices, _core.ndarray):
        # One array of choices along its first axis: no per-choice Python work.
        if choices.ndim == 0:
            raise ValueError("0-d choices are not a sequence")
        n = choices.shape[0]
        if n == 0:
            raise ValueError("0-length sequence.")
        shape = _core.broadcast_shapes(tuple(a.shape), tuple(choices.shape[1:]))
        # Each choice broadcasts against a: ones go after the choice axis.
        c = choices.reshape((n,) + (1,) * (len(shape) - choices.ndim + 1)
                            + tuple(choices.shape[1:]))
        stacked = _core.broadcast_to(c, (n,) + shape).reshape(n, -1)
        idx = _core.broadcast_to(a, shape).astype(_INTP)
    else:
        choices = [_arr(c, dev) for c in choices]
        if not choices:
            raise ValueError("0-length sequence.")
        n = len(choices)
        dt = _np.result_type(*[c.dtype for c in choices])
        arrs = _core.broadcast_arrays(a, *choices)
        shape = tuple(arrs[0].shape)
        idx = arrs[0].astype(_INTP)
        stacked = _core.stack([c.astype(dt) for c in arrs[1:]]).reshape(n, -1)
    idx = _apply_mode(idx, n, mode, ValueError("invalid entry in choice array"))
    size = stacked.shape[1]
    pos = _core.arange(size, dtype=_INTP, device=dev)
    res = stacked[idx.reshape(-1), pos].reshape(shape)
    if out is not None:
        out[...] = res
        return out
    return res


def compress(condition, a, axis=None, out=None):
    """compress(condition, a, axis=None, out=None)

    The slices of `a` along `axis` where the 1-d `condition` is true; a condition
    shorter than the axis leaves the rest out.
    """
    a = _arr(a)
    cond = _arr(condition, a.device)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    idx = _core.nonzero(cond)[0]
    if axis is None:
        a = a.reshape(-1)
        axis = 0
    else:
        axis = _axis(axis, a.ndim)
    n = a.shape[axis]
    if idx.shape[0] and cond.shape[0] > n and bool(_core.any(cond[n:])):
        raise IndexError(f"index {cond.shape[0] - 1} is out of bounds for axis "
                         f"{axis} with size {n}")
    return _write_out(a[(slice(None),) * axis + (idx,)], out, _TAKE_SHAPE)


def extract(condition, arr):
    """extract(condition, arr)

    The elements of ravel(arr) where ravel(condition) is non-zero.
    """
    arr = _arr(arr)
    cond = _arr(condition, arr.device)
    return take(arr.reshape(-1), _core.nonzero(cond.reshape(-1))[0])


def _mask_for(target, mask, argument, name):
    """The mask of an in-place masked write (place, putmask) on the target's device,
    after NumPy's checks of the target's type and the mask's size."""
    if not isinstance(target, _core.ndarray):
        raise TypeError(f"{argument} must be cuarray.ndarray, not "
                        f"{type(target).__name__}")
    mask = _arr(mask, target.device)
    if mask.size != target.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    return mask


def place(arr, mask, vals):
    """place(arr, mask, vals)

    arr[mask] = vals in place, vals repeated cyclically to the number of true mask
    elements (one count read back).
    """
    mask = _mask_for(arr, mask, "argument 1", "place")
    mask = mask.reshape(arr.shape).astype(_np.bool_)
    vals = _arr(vals, arr.device)
    pos = _core.nonzero(mask.reshape(-1))[0]
    cnt = pos.shape[0]
    if cnt == 0:
        return None
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    if arr.flags.c_contiguous:
        arr.reshape(-1)[pos] = _cycle(vals, cnt)  # the positions are known already
    else:
        arr[mask] = _cycle(vals, cnt)
    return None


def putmask(a, mask, values):
    """putmask(a, mask, values)

    a.flat[i] = values.flat[i % values.size] in place where mask.flat[i] is true.
    """
    mask = _mask_for(a, mask, "argument a of putmask", "putmask")
    values = _putmask_values(values, a)
    if values.size == 0 or a.size == 0:
        return None
    mask = mask.reshape(a.shape).astype(_np.bool_)
    vals = _cycle(values, a.size).reshape(a.shape)
    a[...] = _core.where(mask, vals.astype(a.dtype), a)
    return None


def _putmask_values(values, a):
    """putmask's values as NumPy takes them: an array must cast to a's dtype
    safely; scalars and sequences convert to a's dtype as their values allow
    (an out-of-range Python int raises OverflowError)."""
    if isinstance(values, (_core.ndarray, _np.ndarray)):
        if not _np.can_cast(values.dtype, a.dtype, "safe"):
            what = "scalar" if values.ndim == 0 else "array data"
            raise TypeError(f"Cannot cast {what} from {values.dtype!r} to {a.dtype!r} "
                            "according to the rule 'safe'")
        return _arr(values, a.device)
    return _core.asarray(_np.asarray(values, dtype=a.dtype), device=a.device)


def select(condlist, choicelist, default=0):
    """select(condlist, choicelist, default=0)

    The element of the first choice whose condition holds, `default` where none does.
    """
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    dev = _dev_of(*condlist, *choicelist, default)
    choices = [c if isinstance(c, (int, float, complex)) and not isinstance(c, bool)
               else _arr(c, dev) for c in choicelist]
    conds = [_arr(c, dev) for c in condlist]
    for i, c in enumerate(conds):
        if c.dtype != _np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    dflt = default if isinstance(default, (int, float, complex)) and not isinstance(
        default, bool) else _arr(default, dev)
    # NumPy 2's rule: Python scalars are weak in the promotion.
    try:
        dt = _np.result_type(*[c.dtype if isinstance(c, _core.ndarray) else c
                               for c in (*choices, dflt)])
    except TypeError as e:  # (datetime64 choices with default=0: NumPy's words)
        raise TypeError("Choicelist and default value do not have a common dtype: "
                        f"{e}") from None
    shape = _core.broadcast_shapes(*[tuple(c.shape) for c in conds],
                                   *[tuple(c.shape) for c in choices
                                     if isinstance(c, _core.ndarray)],
                                   tuple(dflt.shape) if isinstance(
                                       dflt, _core.ndarray) else ())
    if isinstance(dflt, _core.ndarray):
        res = _core.broadcast_to(dflt.astype(dt), shape)
    else:
        res = _core.full(shape, dflt, dtype=dt, device=conds[0].device)
    # The first true condition wins: apply them from the last to the first.
    for c, v in zip(conds[::-1], choices[::-1]):
        if isinstance(v, _core.ndarray):
            v = v.astype(dt)
        else:
            v = _core.full((), v, dtype=dt, device=c.device)
        res = _core.where(c, v, res)
    return res  # where made a new array: no broadcast view escapes


# -- diagonals -----------------------------------------------------------------


def diagonal(a, offset=0, axis1=0, axis2=1):
    """diagonal(a, offset=0, axis1=0, axis2=1)

    The diagonal of `a` over axis1 and axis2 (at `offset`) as the last axis. For a
    C-contiguous a with axis2 == axis1 + 1 (the default for any a) it is a strided
    view of a, as NumPy's (which is read-only; this one, as CuPy's, is writable);
    otherwise a new array (one gather).
    """
    a = _arr(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    ax1 = _axis(axis1, a.ndim)
    ax2 = _axis(axis2, a.ndim)
    if ax1 == ax2:
        raise ValueError("axis1 and axis2 cannot be the same")
    offset = operator.index(offset)
    n1, n2 = a.shape[ax1], a.shape[ax2]
    if offset >= 0:
        m = max(0, min(n1, n2 - offset))
    else:
        m = max(0, min(n1 + offset, n2))
    r0, c0 = max(-offset, 0), max(offset, 0)
    if ax2 == ax1 + 1 and a.flags.c_contiguous:
        # The two axes as one of n1 * n2: the diagonal is every (n2 + 1)-th element.
        shp = tuple(a.shape)
        flat = a.reshape(shp[:ax1] + (n1 * n2,) + shp[ax2 + 1:])
        start = r0 * n2 + c0
        sl = slice(start, start + (m - 1) * (n2 + 1) + 1, n2 + 1) if m else \
            slice(0, 0)
        d = flat[(slice(None),) * ax1 + (sl,)]
        return d if ax1 == a.ndim - 2 else _core.moveaxis(d, ax1, -1)
    b = _core.moveaxis(a, (ax1, ax2), (-2, -1))
    i = _core.arange(r0, r0 + m, dtype=_INTP, device=a.device)
    j = _core.arange(c0, c0 + m, dtype=_INTP, device=a.device)
    return b[..., i, j]


def diag(v, k=0):
    """diag(v, k=0)

    The k-th diagonal of a 2-d v, or a 2-d array with the 1-d v on its k-th diagonal.
    """
    v = _arr(v)
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0]
        m = n + abs(k)
        res = _core.zeros((m, m), dtype=v.dtype, device=v.device)
        i = _core.arange(max(-k, 0), max(-k, 0) + n, dtype=_INTP, device=v.device)
        j = _core.arange(max(k, 0), max(k, 0) + n, dtype=_INTP, device=v.device)
        if n:
            res[i, j] = v
        return res
    if v.ndim == 2:
        return diagonal(v, k)
    raise ValueError("Input must be 1- or 2-d.")


def diagflat(v, k=0):
    """diagflat(v, k=0)

    A 2-d array with the flattened v on its k-th diagonal.
    """
    return diag(_arr(v).reshape(-1), k)


def diag_indices(n, ndim=2, *, device=None):
    """diag_indices(n, ndim=2)

    The indices of the main diagonal of an n x ... x n array of ndim dimensions.
    """
    idx = _core.arange(n, dtype=_INTP, device=device)
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices_from(arr)

    diag_indices of an arr whose dimensions are all equal (at least 2 of them).
    """
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(arr.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim, device=arr.device)


def fill_diagonal(a, val, wrap=False):
    """fill_diagonal(a, val, wrap=False)

    Writes val (repeated cyclically) on the main diagonal of `a` in place; for a tall
    2-d a, wrap=True starts again N+1 rows further down, as NumPy's flat stride does.
    """
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else min(a.size, a.shape[1] * a.shape[1])
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + sum(_np.cumprod(a.shape[:-1]).tolist())
        end = a.size
    pos = _core.arange(0, end, step, dtype=_INTP, device=a.device)
    cnt = pos.shape[0]
    if cnt == 0:
        return None
    v = _arr(val, a.device)
    if v.size == 0:
        return None
    if v.size != 1:
        v = _cycle(v, cnt)
    else:
        v = v.reshape(())
    if a.flags.c_contiguous:
        # NumPy's own a.flat[:end:step]: a strided slice of the flat view, no gather
        a.reshape(-1)[0:end:step] = v
    else:
        a[unravel_index(pos, a.shape)] = v
    return None


# -- index grids ---------------------------------------------------------------


def indices(dimensions, dtype=int, sparse=False, *, device=None):
    """indices(dimensions, dtype=int, sparse=False)

    The grid of indices of an array of shape `dimensions`: one array of shape
    (N,) + dimensions, or (sparse) a tuple of N broadcastable ones.
    """
    dimensions = tuple(operator.index(d) for d in dimensions)
    if any(d < 0 for d in dimensions):
        raise ValueError("negative dimensions are not allowed")
    n = len(dimensions)
    res = []
    for i, d in enumerate(dimensions):
        shp = [1] * n
        shp[i] = d
        res.append(_core.arange(d, dtype=dtype, device=device).reshape(tuple(shp)))
    if sparse:
        return tuple(res)
    if n == 0:
        return _core.empty((0,), dtype=dtype, device=device)
    return _core.stack(_core.broadcast_arrays(*res))


def ix_(*args):
    """ix_(*args)

    Open-mesh index arrays from 1-d sequences (booleans through nonzero), the k-th of
    shape (1, ..., n_k, ..., 1).
    """
    out = []
    nd = len(args)
    dev = _dev_of(*args)
    for k, new in enumerate(args):
        if not isinstance(new, _core.ndarray):
            new = _np.asarray(new)
            if new.size == 0:
                new = new.astype(_np.intp)
            new = _core.asarray(new, device=dev)
        if new.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if new.dtype == _np.bool_:
            new = _core.nonzero(new)[0]
        shp = [1] * nd
        shp[k] = new.shape[0]
        out.append(new.reshape(tuple(shp)))
    return tuple(out)


def mask_indices(n, mask_func, k=0, *, device=None):
    """mask_indices(n, mask_func, k=0)

    The indices of the non-zero entries of mask_func(ones((n, n)), k).
    """
    m = _core.ones((n, n), dtype=int, device=device)
    a = mask_func(m, k)
    return _core.nonzero(_core.not_equal(a, 0))


def _modes(mode, nd):
    if isinstance(mode, str):
        return (mode,) * nd
    mode = tuple(mode)
    if len(mode) != nd:
        raise ValueError("mode sequence must have the same length as dims")
    return mode


def _order_cf(order):
    """'C' or 'F' from NumPy's order= of the index functions (any case; None: 'C')."""
    if order is None:
        return "C"
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    o = order.upper()
    if o not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if o not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return o


def _int_indices(x, dev):
    """x as an index array (bool and integers: NumPy's same_kind cast to intp)."""
    if isinstance(x, (list, tuple)) and len(x) == 0:
        raise TypeError("indices must be integral: the provided empty sequence was "
                        "inferred as float. Wrap it with 'np.array(indices, "
                        "dtype=np.intp)'")
    a = _arr(x, dev)
    if a.dtype.kind not in "biu":
        raise TypeError("only int indices permitted")
    return a.astype(_INTP, copy=False)


_INTP_MAX = int(_np.iinfo(_np.intp).max)


def _shape_size(dims, message):
    size = 1
    for d in dims:
        size *= d
    if size > _INTP_MAX:
        raise ValueError(message)
    return size


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """ravel_multi_index(multi_index, dims, mode='raise', order='C')

    Flat indices of the coordinate arrays in an array of shape dims. A scalar result is
    a 0-d array (NumPy returns an intp scalar).
    """
    dims = tuple(operator.index(d) for d in (dims if _np.iterable(dims) else (dims,)))
    nd = len(dims)
    if len(multi_index) != nd:
        raise ValueError(f"parameter multi_index must be a sequence of length {nd}")
    order = _order_cf(order)
    _shape_size(dims, "invalid dims: array size defined by dims is larger than the "
                "maximum possible size.")
    modes = _modes(mode, nd)
    dev = _dev_of(*multi_index)
    coords = [_int_indices(c, dev) for c in multi_index]
    strides = [1] * nd
    rng = range(nd - 2, -1, -1) if order == "C" else range(1, nd)
    for i in rng:
        j = i + 1 if order == "C" else i - 1
        strides[i] = strides[j] * dims[j]
    total = None
    for c, d, s, md in zip(coords, dims, strides, modes):
        c = _apply_mode(c, d, md, ValueError("invalid entry in coordinates array"))
        term = _core.multiply(c, s)
        total = term if total is None else _core.add(total, term)
    return total


def unravel_index(indices, shape, order="C"):
    """unravel_index(indices, shape, order='C')

    The coordinate arrays of flat indices in an array of shape `shape`.
    """
    shape = tuple(operator.index(d) for d in (shape if _np.iterable(shape)
                                              else (shape,)))
    order = _order_cf(order)
    idx = _int_indices(indices, None)
    size = _shape_size(shape, "dimensions are too large; arrays and shapes with a total "
                       "size greater than 'intp' are not supported.")
    bad = _core.logical_or(_core.less(idx, 0), _core.greater_equal(idx, size))
    if idx.size and bool(_core.any(bad)):
        first = int(idx.reshape(-1)[_core.flatnonzero(bad)[0]])  # NumPy's: the first
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    out = [None] * len(shape)
    dims = range(len(shape) - 1, -1, -1) if order == "C" else range(len(shape))
    rest = idx
    for i in dims:
        d = shape[i]
        out[i] = _core.remainder(rest, d)
        rest = _core.floor_divide(rest, d)
    return tuple(out)


# -- triangles -----------------------------------------------------------------


def tri(N, M=None, k=0, dtype=float, *, like=None, device=None):
    """tri(N, M=None, k=0, dtype=float)

    Ones at and below the k-th diagonal of an N x M array, zeros elsewhere.
    """
    if M is None:
        M = N
    dev = device if device is not None else _dev_of(like)
    rows = _core.arange(N, dtype=_INTP, device=dev).reshape(N, 1)
    cols = _core.arange(-k, M - k, dtype=_INTP, device=dev).reshape(1, M)
    m = _core.greater_equal(rows, cols)
    return m if _np.dtype(dtype) == _np.bool_ else m.astype(dtype)


def _tri_mask(m, k):
    shp = m.shape[-2:]
    if m.device.id < 0:
        # the cpu device: NumPy's tri (one outer comparison) on the host
        return _core.asarray(_np.tri(*shp, k=k, dtype=bool), device=m.device)
    return tri(*shp, k=k, dtype=bool, device=m.device)


def _tri_select(mask, a, b, m):
    """where(mask, a, b), b or a the zero; on the cpu device the zero is a
    full array, so every operand of the select is contiguous (the fast loop)."""
    if m.device.id < 0 and m.flags.c_contiguous:
        z = _core.zeros(m.shape, dtype=m.dtype, device=m.device)
    else:
        z = _core.zeros((), dtype=m.dtype, device=m.device)
    return _core.where(mask, z if a is None else a, z if b is None else b)


def _tri_part(m, k, lower, name):
    # one kernel (_core._tri_copy): the copy with the k-diagonal mask taken from
    # each element's (row, column); a 1-d m is broadcast to (N, N) as NumPy's is
    if type(m) is not _core.ndarray:
        m = _arr(m)
    nd = m.ndim
    if nd == 0:
        # NumPy's type (its tri() is called without N there)
        raise TypeError(f"{name} requires an array of at least one dimension")
    if type(k) is not int:
        try:
            k = operator.index(k)
        except TypeError:
            # a float k: NumPy compares against arange(-k, M - k)
            if lower:
                return _tri_select(_tri_mask(m, k), m, None, m)
            return _tri_select(_tri_mask(m, k - 1), None, m, m)
    if nd == 1:
        m = _core.broadcast_to(m, (m.shape[0], m.shape[0]))
    if _datetime(m):  # the int64 bits, zeros being the epoch as NumPy's
        from ._datetime import _bits, _wrap
        return _wrap(_core._tri_copy(_bits(m), k, lower), m.dtype)
    return _core._tri_copy(m, k, lower)


def tril(m, k=0):
    """tril(m, k=0)

    m with the elements above the k-th diagonal (of its last two axes) zeroed.
    """
    return _tri_part(m, k, True, "tril")


def triu(m, k=0):
    """triu(m, k=0)

    m with the elements below the k-th diagonal (of its last two axes) zeroed.
    """
    return _tri_part(m, k, False, "triu")


def tril_indices(n, k=0, m=None, *, device=None):
    """tril_indices(n, k=0, m=None)

    The (row, column) indices of the lower triangle of an n x m array.
    """
    return _core.nonzero(tri(n, m, k=k, dtype=bool, device=device))


def triu_indices(n, k=0, m=None, *, device=None):
    """triu_indices(n, k=0, m=None)

    The (row, column) indices of the upper triangle of an n x m array.
    """
    return _core.nonzero(_core.logical_not(tri(n, m, k=k - 1, dtype=bool,
                                               device=device)))


def tril_indices_from(arr, k=0):
    """tril_indices_from(arr, k=0)

    tril_indices for the shape of the 2-d arr.
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


def triu_indices_from(arr, k=0):
    """triu_indices_from(arr, k=0)

    triu_indices for the shape of the 2-d arr.
    """
    if arr.ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1], device=arr.device)


# -- grids and sequences -------------------------------------------------------


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """meshgrid(*xi, copy=True, sparse=False, indexing='xy')

    Coordinate arrays from 1-d coordinate vectors (their ravel), as a tuple.
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    ndim = len(xi)
    dev = _dev_of(*xi)
    s0 = (1,) * ndim
    out = [_arr(x, dev).reshape(s0[:i] + (-1,) + s0[i + 1:]) for i, x in
           enumerate(xi)]
    if indexing == "xy" and ndim > 1:
        out[0] = out[0].reshape((1, -1) + s0[2:])
        out[1] = out[1].reshape((-1, 1) + s0[2:])
    if not sparse:
        out = _core.broadcast_arrays(*out)
    if copy:
        out = [o.copy() for o in out]
    return tuple(out)


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0)

    base ** linspace(start, stop, num, endpoint, axis=axis).
    """
    dev = _dev_of(start, stop, base)
    array_base = isinstance(base, _core.ndarray) or _np.ndim(base)
    if dev is not None or array_base:
        start = _arr(start, dev)
        stop = _arr(stop, start.device)
    if array_base:
        # NumPy: a non-scalar base is broadcast with the ends first (it may
        # change which dimension `axis` names), then gets the new axis
        base = _arr(base, start.device)
        nd = max(start.ndim, stop.ndim, base.ndim)
        start, stop, base = (x.reshape((1,) * (nd - x.ndim) + x.shape)
                             for x in (start, stop, base))
        base = _core.expand_dims(base, axis)
    # linspace reads array ends back to the host: say where the result belongs
    y = _core.linspace(start, stop, num=num, endpoint=endpoint, axis=axis,
                       **({} if dev is None else {"device": dev}))
    res = _core.power(base, y)
    if dtype is None:
        return res
    return res.astype(dtype)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0)

    Numbers spaced evenly on a log scale from start to stop (both ends exact), as
    NumPy computes them (real and complex).
    """
    dev = _dev_of(start, stop)
    start = _arr(start, dev)
    stop = _arr(stop, start.device)
    dev = start.device
    # One read back for both ends.
    if bool(_core.any(_core.logical_or(_core.equal(start, 0), _core.equal(stop, 0)))):
        raise ValueError("Geometric sequence cannot include zero")
    # NumPy's rule: the float64 default (or dtype) takes part in the promotion.
    dt = _np.result_type(start.dtype, stop.dtype, float(num),
                         _np.dtype(float if dtype is None else dtype))
    if dtype is None:
        dtype = dt
    start = start.astype(dt)
    stop = stop.astype(dt)
    shape = _core.broadcast_shapes(tuple(start.shape), tuple(stop.shape))
    start = _core.broadcast_to(start, shape)
    stop = _core.broadcast_to(stop, shape)
    # Negative reals and complex values: rotate start onto the positive reals, run
    # the sequence there, rotate back (no negligible real or imaginary parts).
    out_sign = _core.sign(start)
    start = _core.divide(start, out_sign)
    stop = _core.divide(stop, out_sign)
    res = logspace(_core.log10(start), _core.log10(stop), num=num,
                   endpoint=endpoint, base=10.0, dtype=dt)
    # The ends are start and stop exactly, not 10 ** log10(x).
    if num > 0:
        res[0] = start
        if num > 1 and endpoint:
            res[-1] = stop
    res = _core.multiply(res, out_sign)
    if axis != 0:
        res = _core.moveaxis(res, 0, axis)
    return res if res.dtype == dtype else res.astype(dtype)


def vander(x, N=None, increasing=False):
    """vander(x, N=None, increasing=False)

    The Vandermonde matrix of the 1-d x: columns x**(N-1), ..., x**0 (reversed for
    increasing), by a running product as NumPy's, so that the powers match its bits.
    """
    x = _arr(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    if N is None:
        N = x.shape[0]
    dt = _np.promote_types(x.dtype, int)
    tmp = _core.empty((x.shape[0], N), dtype=dt, device=x.device)
    if N > 0:
        tmp[:, 0] = 1
    if N > 1:
        tmp[:, 1:] = x.astype(dt).reshape(-1, 1)
        tmp = _core.cumprod(tmp, axis=1, dtype=dt)
    if not increasing:
        tmp = _core.ascontiguousarray(tmp[:, ::-1])
    return tmp

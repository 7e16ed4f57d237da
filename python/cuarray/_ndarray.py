"""The ndarray's methods that are compositions: thin methods over cuarray's
functions (take, put, repeat, choose, compress, diagonal, trace, ptp), host
conversions (tobytes, tofile, dump, dumps), byteswap, flat, ``in``, CuPy's
scatter_add / scatter_max / scatter_min, reduced_view and toDlpack.

The ndarray is a C type (csrc/array/ndarray.c merges the C files' method tables); the
methods here are Python functions set on it once, at import, as NumPy's own
methods written in Python are. Each costs its function's call plus one Python
frame.
"""

import os as _os
import pickle as _pickle
import sys as _sys
import types as _types

import numpy as _np

from . import _core

_ca = _sys.modules[__package__]
ndarray = _core.ndarray


def _take(self, indices, axis=None, out=None, mode="raise"):
    """a.take(indices, axis=None, out=None, mode='raise'): cuarray.take(a, ...)."""
    return _ca.take(self, indices, axis=axis, out=out, mode=mode)


def _put(self, indices, values, mode="raise"):
    """a.put(indices, values, mode='raise'): cuarray.put(a, ...), in place."""
    return _ca.put(self, indices, values, mode=mode)


def _repeat(self, repeats, axis=None):
    """a.repeat(repeats, axis=None): cuarray.repeat(a, ...)."""
    return _ca.repeat(self, repeats, axis=axis)


def _choose(self, choices, out=None, mode="raise"):
    """a.choose(choices, out=None, mode='raise'): cuarray.choose(a, ...)."""
    return _ca.choose(self, choices, out=out, mode=mode)


def _compress(self, condition, axis=None, out=None):
    """a.compress(condition, axis=None, out=None): cuarray.compress(condition, a, ...)."""
    return _ca.compress(condition, self, axis=axis, out=out)


def _diagonal(self, offset=0, axis1=0, axis2=1):
    """a.diagonal(offset=0, axis1=0, axis2=1): cuarray.diagonal(a, ...) (a view)."""
    return _ca.diagonal(self, offset=offset, axis1=axis1, axis2=axis2)


def _trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """a.trace(offset=0, axis1=0, axis2=1, dtype=None, out=None)

    The sums along the diagonals (NumPy's definition: the diagonal's sum over its
    last axis, with sum's dtype rules).
    """
    return self.diagonal(offset, axis1, axis2).sum(-1, dtype=dtype, out=out)


def _ptp(self, axis=None, out=None, keepdims=False):
    """a.ptp(axis=None, out=None, keepdims=False): cuarray.ptp(a, ...) (CuPy's method)."""
    return _ca.ptp(self, axis=axis, out=out, keepdims=keepdims)


def _tobytes(self, order="C"):
    """a.tobytes(order='C'): the elements' bytes (a host copy first, for device memory)."""
    return self.get().tobytes(order)


def _tofile(self, fid, sep="", format="%s"):
    """a.tofile(fid, sep='', format='%s'): numpy.ndarray.tofile of a host copy."""
    self.get().tofile(fid, sep=sep, format=format)


def _dump(self, file):
    """a.dump(file): a pickle of the array into ``file`` (a path or a binary file);
    cuarray.load(file, allow_pickle=True) or pickle.load read it back."""
    if isinstance(file, (str, bytes, _os.PathLike)):
        with open(file, "wb") as f:
            _pickle.dump(self, f, protocol=2)
    else:
        _pickle.dump(self, file, protocol=2)


def _dumps(self):
    """a.dumps(): the pickle of the array as bytes (pickle.loads reads it back)."""
    return _pickle.dumps(self, protocol=2)


def _byteswap(self, inplace=False):
    """a.byteswap(inplace=False)

    The elements with their bytes reversed (each half of a complex value on its
    own, as NumPy's); in place when ``inplace``, which returns ``a``.
    """
    dt = self.dtype
    unit = dt.itemsize // 2 if dt.kind == "c" else dt.itemsize
    if unit == 1 or self.size == 0:
        return self if inplace else self.copy()
    c = _ca.ascontiguousarray(self).reshape(-1)
    swapped = _ca.ascontiguousarray(c.view(_np.uint8).reshape(-1, unit)[:, ::-1])
    out = swapped.reshape(-1).view(dt).reshape(self.shape)
    if inplace:
        self[...] = out
        return self
    return out


def _flat_get(self):
    """A flat iterator over the array (cuarray.flatiter): reads and writes by flat
    C-order index."""
    return _ca.flatiter(self)


def _flat_set(self, value):
    _ca.flatiter(self)[...] = value


def _format(self, format_spec, /):
    """format(a, spec): a 0-d array formats its element; others only with an empty
    spec (their str), as NumPy's."""
    if self.ndim == 0:
        return format(self.get()[()], format_spec)
    if format_spec:
        raise TypeError("unsupported format string passed to cuarray.ndarray.__format__")
    return str(self)


def _contains(self, value):
    """value in a: whether any element equals value (broadcast against a)."""
    if isinstance(value, (list, tuple, _np.ndarray)):
        value = _ca.asarray(value, device=self.device)
    return bool(_ca.any(_ca.equal(self, value)))


def _array_finalize(self, obj, /):
    """a.__array_finalize__(obj): called with the source array (or None) when a
    subclass instance is made; the ndarray's own does nothing."""
    return None


def _class_getitem(cls, item, /):
    """ndarray[shape, dtype]: a generic alias for annotations (as NumPy's)."""
    return _types.GenericAlias(cls, item)


def _reduced_view(self, dtype=None):
    """a.reduced_view(): a view with the fewest dimensions that describe the same
    elements (CuPy's method): adjacent axes merge where their strides allow."""
    if dtype is not None:
        raise TypeError("reduced_view: dtype is not supported (use .view(dtype))")
    if self.ndim <= 1:
        return self
    shape, strides = [], []
    for n, s in zip(self.shape, self.strides):
        if n == 1:
            continue
        if shape and strides[-1] == n * s:
            shape[-1] *= n
            strides[-1] = s
        else:
            shape.append(n)
            strides.append(s)
    if self.size == 0 or not shape:
        shape = [self.size]
    if len(shape) == self.ndim:
        return self
    return self.reshape(shape)


def _to_dlpack(self):
    """a.toDlpack(): a DLPack capsule of the array (CuPy's older name for
    __dlpack__() on the current stream)."""
    return self.__dlpack__()


# ---------------------------------------------------------------------------
# CuPy's scatter_add / scatter_max / scatter_min (unbuffered: repeated indices
# accumulate, as numpy.add.at / maximum.at / minimum.at)
# ---------------------------------------------------------------------------

def _scatter_targets(self, slices, value):
    """(flat positions of self[slices], the values broadcast to them), both 1-d."""
    if not self.flags.c_contiguous:
        raise ValueError("scatter_*: the array must be C-contiguous (as CuPy's)")
    pos = _core.arange(self.size, dtype=_np.int64, device=self.device).reshape(
        self.shape)[slices]
    val = _ca.asarray(value, device=self.device)
    if val.dtype != self.dtype:
        val = val.astype(self.dtype)
    val = _ca.broadcast_to(val, pos.shape)
    return pos.reshape(-1), val.reshape(-1)


def _segments(pos, val, by_value):
    """pos/val sorted by position (and by value within a position), the start of
    each run of equal positions and each run's position."""
    order = _ca.lexsort((val, pos)) if by_value else _ca.argsort(pos, kind="stable")
    sp, sv = pos[order], val[order]
    first = _ca.concatenate([_ca.ones(1, dtype=_np.bool_, device=pos.device),
                             _ca.not_equal(sp[1:], sp[:-1])])
    starts = _ca.flatnonzero(first)
    return sp, sv, starts


def _scatter_add(self, slices, value):
    """a.scatter_add(slices, value): a[slices] += value, with repeated positions all
    adding (CuPy's; numpy.add.at(a, slices, value))."""
    pos, val = _scatter_targets(self, slices, value)
    if pos.size == 0:
        return
    flat = self.reshape(-1)
    kind = self.dtype.kind
    if kind in "fc":
        # each position's sum in float64 (bincount), then one add into a
        def sums(v):
            return _ca.bincount(pos, weights=v.astype(_np.float64), minlength=self.size)
        total = sums(val.real) + 1j * sums(val.imag) if kind == "c" else sums(val)
        flat += total.astype(self.dtype)
        return
    # integers and bool: exact sums of each run of equal positions (cumsum in
    # int64 wraps as the element type's own additions would)
    sp, sv, starts = _segments(pos, val, False)
    cs = _ca.cumsum(sv.astype(_np.int64))
    ends = _ca.concatenate([starts[1:], _ca.asarray([sp.size], device=sp.device)]) - 1
    before = _ca.where(starts > 0, cs[_ca.maximum(starts - 1, 0)], 0)
    seg = cs[ends] - before
    tgt = sp[starts]
    if kind == "b":
        flat[tgt] = _ca.logical_or(flat[tgt], seg != 0)
    else:
        flat[tgt] = (flat[tgt].astype(_np.int64) + seg).astype(self.dtype)


def _scatter_extreme(self, slices, value, is_max):
    pos, val = _scatter_targets(self, slices, value)
    if pos.size == 0:
        return
    flat = self.reshape(-1)
    sp, sv, starts = _segments(pos, val, True)
    if is_max:
        pick = _ca.concatenate([starts[1:], _ca.asarray([sp.size], device=sp.device)]) - 1
    else:
        pick = starts
    tgt = sp[starts]
    best = sv[pick]
    if self.dtype.kind in "fc" and not is_max:
        # sorting puts NaNs last: a run holding one gives NaN, as minimum.at does
        has_nan = _ca.bincount(pos, weights=_ca.isnan(val).astype(_np.float64),
                               minlength=self.size)[tgt] > 0
        best = _ca.where(has_nan, _ca.asarray(_np.nan, dtype=self.dtype,
                                              device=self.device), best)
    op = _ca.maximum if is_max else _ca.minimum
    flat[tgt] = op(flat[tgt], best)


def _scatter_max(self, slices, value):
    """a.scatter_max(slices, value): a[slices] = maximum(a[slices], value), repeated
    positions taking the largest (CuPy's; numpy.maximum.at)."""
    _scatter_extreme(self, slices, value, True)


def _scatter_min(self, slices, value):
    """a.scatter_min(slices, value): a[slices] = minimum(a[slices], value), repeated
    positions taking the smallest (CuPy's; numpy.minimum.at)."""
    _scatter_extreme(self, slices, value, False)


_METHODS = {
    "take": _take, "put": _put, "repeat": _repeat, "choose": _choose,
    "compress": _compress, "diagonal": _diagonal, "trace": _trace, "ptp": _ptp,
    "tobytes": _tobytes, "tofile": _tofile, "dump": _dump, "dumps": _dumps,
    "byteswap": _byteswap, "__contains__": _contains, "__format__": _format,
    "__array_finalize__": _array_finalize,
    "__class_getitem__": classmethod(_class_getitem),
    "reduced_view": _reduced_view, "toDlpack": _to_dlpack,
    "scatter_add": _scatter_add, "scatter_max": _scatter_max,
    "scatter_min": _scatter_min,
    "flat": property(_flat_get, _flat_set, doc=_flat_get.__doc__),
    # CuPy's value: ahead of NumPy's (0.0) in mixed operations
    "__array_priority__": 100.0,
}


def _install():
    for name, fn in _METHODS.items():
        if name in ndarray.__dict__:
            continue  # the C type has its own
        if isinstance(fn, _types.FunctionType):
            fn.__name__ = name
            fn.__qualname__ = f"ndarray.{name}"
            fn.__module__ = "cuarray"
        setattr(ndarray, name, fn)


_install()

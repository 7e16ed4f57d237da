"""NumPy's index objects (numpy/lib/_index_tricks_impl.py) for cuarray: s_ and
index_exp (index tuples), mgrid and ogrid (dense and open grids over arange and
linspace) and r_ and c_ (concatenation along an axis, with NumPy's string directives).
"""

import numpy as _np

from . import _core
from ._indexing import _arr, _dev_of

__all__ = ["r_", "c_", "s_", "index_exp", "mgrid", "ogrid"]


class _IndexExpression:
    """index_exp[...] / s_[...]: the index tuple (or, for s_, the bare index)."""

    def __init__(self, maketuple):
        self.maketuple = maketuple

    def __getitem__(self, item):
        if self.maketuple and not isinstance(item, tuple):
            return (item,)
        return item


index_exp = _IndexExpression(maketuple=True)
s_ = _IndexExpression(maketuple=False)


def _slice_range(s, dtype=None, device=None):
    """arange or (complex step: a count) linspace of one slice, as nd_grid's."""
    step = s.step
    start = 0 if s.start is None else s.start
    stop = s.stop
    if isinstance(step, complex) or (hasattr(step, "imag") and step.imag != 0
                                     and not isinstance(step, (int,))):
        num = int(abs(step))
        return _core.linspace(start, stop, num=num, endpoint=True, device=device)
    if step is None:
        step = 1
    return _core.arange(start, stop, step, device=device) if dtype is None else \
        _core.arange(start, stop, step, dtype=dtype, device=device)


class _NdGrid:
    """mgrid / ogrid: dense or open grids of slices, as numpy's nd_grid."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return _slice_range(key)
        key = tuple(key)
        # The common dtype of the grids: float when any bound or step is a float
        # (complex steps are counts: the points are floats).
        typ = int
        for k in key:
            for v in (k.start, k.step, k.stop):
                if isinstance(v, complex) or isinstance(v, float):
                    typ = float
        axes = [_slice_range(k).astype(typ) for k in key]
        nd = len(axes)
        out = []
        for i, ax in enumerate(axes):
            shp = [1] * nd
            shp[i] = ax.shape[0]
            out.append(ax.reshape(tuple(shp)))
        if self.sparse:
            return tuple(out)
        return _core.stack(_core.broadcast_arrays(*out))


mgrid = _NdGrid(sparse=False)
ogrid = _NdGrid(sparse=True)


class _AxisConcatenator:
    """r_ / c_: slices become ranges, scalars and sequences arrays, and all join
    along an axis; a leading string 'axis[,ndmin[,trans1d]]' directs, as NumPy's
    AxisConcatenator (the np.matrix directives 'r' and 'c' are not provided)."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs = []
        types = []  # dtypes of arrays, Python scalars themselves (weak in promotion)
        dev = _dev_of(*key)
        for k, item in enumerate(key):
            if isinstance(item, slice):
                newobj = _slice_range(item, device=dev)
                if ndmin > 1:
                    newobj = newobj.reshape((1,) * (ndmin - 1) + (-1,))
                    if trans1d != -1:
                        newobj = _core.swapaxes(newobj, -1, trans1d)
                types.append(newobj.dtype)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError("r_/c_ matrix directives ('r', 'c') "
                                              "are not supported")
                try:
                    vec = [int(x) for x in item.split(",")]
                except ValueError as e:
                    raise ValueError(f"unknown special directive {item!r}") from e
                if len(vec) > 3:
                    raise ValueError(f"unknown special directive {item!r}")
                axis = vec[0]
                if len(vec) > 1:
                    ndmin = vec[1]
                if len(vec) > 2:
                    trans1d = vec[2]
                continue
            elif isinstance(item, (int, float, complex, _np.generic)):
                newobj = _core.asarray(item, device=dev).reshape((1,) * max(ndmin, 1))
                types.append(item)
            else:
                newobj = _arr(item, dev)
                item_ndim = newobj.ndim
                if item_ndim < ndmin:
                    newobj = newobj.reshape((1,) * (ndmin - item_ndim)
                                            + tuple(newobj.shape))
                    if trans1d != -1:
                        k2 = ndmin - item_ndim
                        k1 = trans1d
                        if k1 < 0:
                            k1 += k2 + 1
                        defaxes = list(range(ndmin))
                        axes = defaxes[:k1] + defaxes[k2:] + defaxes[k1:k2]
                        newobj = _core.transpose(newobj, tuple(axes))
                types.append(newobj.dtype)
            objs.append(newobj)
        if not objs:
            raise ValueError("need at least one array to concatenate")
        final = _np.result_type(*types)
        return _core.concatenate([o.astype(final) for o in objs], axis=axis)

    def __len__(self):
        return 0


r_ = _AxisConcatenator(0)
c_ = _AxisConcatenator(-1, ndmin=2, trans1d=0)

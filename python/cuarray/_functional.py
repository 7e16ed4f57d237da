"""Functional programming helpers as NumPy's (numpy/lib/_shape_base_impl.py,
_function_base_impl.py): apply_along_axis, apply_over_axes, piecewise and vectorize,
composed from cuarray's primitives (moveaxis, transpose, expand_dims, boolean-mask
indexing and assignment, broadcast_arrays).

`vectorize` calls its Python function once on whole cuarray arrays, so a function made
of element-wise cuarray calls runs as array operations (fused where cuarray's fusion
applies) instead of once per element; a function that cannot take arrays falls back to
NumPy's vectorize on a host copy.
"""

import collections.abc
import operator

import numpy as _np

from . import _core
from ._devices import device_of as _device_of

__all__ = ["apply_along_axis", "apply_over_axes", "piecewise", "vectorize"]

_ndarray = _core.ndarray
_AxisError = _np.exceptions.AxisError


def _as(a, device=None, dtype=None):
    """`a` as a cuarray array (on `device` when it must be converted)."""
    if isinstance(a, _ndarray):
        return a if dtype is None else a.astype(dtype, copy=False)
    return _core.asarray(a, dtype=dtype, device=device)


def _normalize_axis(axis, ndim):
    axis = operator.index(axis)
    if not -ndim <= axis < ndim:
        raise _AxisError(axis, ndim)
    return axis % ndim


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """Apply a function to 1-D slices along the given axis.

    Execute ``func1d(a, *args, **kwargs)`` where `func1d` operates on 1-D cuarray
    arrays and `a` is a 1-D slice of `arr` along `axis`, as NumPy's.

    Parameters
    ----------
    func1d : callable
        Takes a 1-D array and returns a scalar or an array.
    axis : int
        Axis along which `arr` is sliced; negative counts from the end.
    arr : array_like
        Input array.
    *args, **kwargs
        Further arguments to `func1d`.

    Returns
    -------
    out : ndarray
        The results stacked: the shape of `arr` with `axis` replaced by the shape of
        ``func1d``'s result. The first result decides the shape and dtype.

    Raises
    ------
    numpy.exceptions.AxisError
        If `axis` is out of range.
    ValueError
        If an iteration dimension is 0.

    Notes
    -----
    `func1d` is called once per slice, a Python loop over the other axes, as NumPy's.
    """
    arr = _as(arr)
    nd = arr.ndim
    axis = _normalize_axis(axis, nd)
    inarr_view = _core.moveaxis(arr, axis, -1)
    outer = inarr_view.shape[:-1]
    inds = iter(_np.ndindex(outer))
    try:
        ind0 = next(inds)
    except StopIteration:
        raise ValueError(
            "Cannot apply_along_axis when any iteration dimensions are 0"
        ) from None
    res = _as(func1d(inarr_view[ind0], *args, **kwargs), device=arr.device)
    buff = _core.zeros(outer + res.shape, dtype=res.dtype, device=res.device)
    buff_dims = list(range(buff.ndim))
    buff_permute = (
        buff_dims[0:axis]
        + buff_dims[buff.ndim - res.ndim:buff.ndim]
        + buff_dims[axis:buff.ndim - res.ndim]
    )
    buff[ind0] = res
    for ind in inds:
        buff[ind] = _as(func1d(inarr_view[ind], *args, **kwargs), device=arr.device)
    return _core.transpose(buff, buff_permute)


def apply_over_axes(func, a, axes):
    """Apply a function repeatedly over multiple axes, as NumPy's.

    Parameters
    ----------
    func : callable
        Called as ``func(a, axis)``; must return an array of the same number of
        dimensions as `a` or one fewer.
    a : array_like
        Input array.
    axes : int or sequence of ints
        Axes over which `func` is applied, in order; negative counts from the end.

    Returns
    -------
    out : ndarray
        An array with as many dimensions as `a`.

    Raises
    ------
    ValueError
        If `func` returns an array of any other number of dimensions.
    """
    val = _as(a)
    N = val.ndim
    if _np.ndim(axes) == 0:
        axes = (axes,)
    for axis in axes:
        if axis < 0:
            axis = N + axis
        res = _as(func(val, axis), device=val.device)
        if res.ndim == val.ndim:
            val = res
        else:
            res = _core.expand_dims(res, axis)
            if res.ndim == val.ndim:
                val = res
            else:
                raise ValueError(
                    "function is not returning an array of the correct shape"
                )
    return val


def piecewise(x, condlist, funclist, *args, **kw):
    """Evaluate a piecewise-defined function, as NumPy's.

    Parameters
    ----------
    x : array_like
        The input domain.
    condlist : list of bool arrays or bool scalars
        Each selects where the matching `funclist` entry applies; with one more
        function than conditions, the last function applies where no condition holds.
    funclist : list of callables or scalars
        A callable is called once with the selected elements of `x` (a 1-D array,
        boolean-mask indexing) and ``*args, **kw``; a scalar is written as it is.
    *args, **kw
        Further arguments to the callables.

    Returns
    -------
    out : ndarray
        The shape and dtype of `x`; elements no condition selects are 0.

    Raises
    ------
    ValueError
        If the numbers of conditions and functions do not match.
    """
    dev = _device_of(x, condlist)
    x = _as(x, device=dev)
    n2 = len(funclist)
    if isinstance(condlist, _ndarray):
        # NumPy's test on condlist[0], which for an array is a scalar when 1-D
        wrap = condlist.ndim == 0 or (condlist.ndim == 1 and x.ndim != 0)
    else:
        wrap = _np.isscalar(condlist) or (
            not isinstance(condlist[0], (list, _np.ndarray, _ndarray)) and x.ndim != 0
        )
    if wrap:
        condlist = [condlist]
    if isinstance(condlist, _ndarray):
        condlist = condlist.astype(bool, copy=False)
    else:
        if len(condlist) and any(isinstance(c, _ndarray) for c in condlist):
            conds = [_as(c, device=x.device, dtype=bool) for c in condlist]
            condlist = _core.stack(conds)
        else:
            condlist = _core.asarray(
                _np.asarray(condlist, dtype=bool), device=x.device
            )
    n = len(condlist)
    if n == n2 - 1:
        condelse = ~_core.any(condlist, axis=0, keepdims=True)
        condlist = _core.concatenate([condlist, condelse], axis=0)
        n += 1
    elif n != n2:
        raise ValueError(
            f"with {n} condition(s), either {n} or {n + 1} functions are expected"
        )
    y = _core.zeros_like(x)
    for cond, func in zip(condlist, funclist):
        if not isinstance(func, collections.abc.Callable):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


class vectorize:
    """Generalised function class, as ``numpy.vectorize``.

    ``vectorize(pyfunc)`` returns a callable that takes arrays. Unlike NumPy's, which
    calls `pyfunc` once per element, calling it converts the non-excluded arguments
    to cuarray arrays, broadcasts them and calls `pyfunc` ONCE on the whole arrays:
    a function made of element-wise cuarray operations (``+``, ``cuarray.sin``,
    ``cuarray.where``, ...) then runs as array operations, on a GPU as one fused
    program where cuarray's fusion applies.

    If `pyfunc` fails on arrays (for instance it uses ``if x > 0:``, whose truth value
    of a non-0-d array raises, or calls a ``math`` function), or returns something
    that does not broadcast to the inputs' shape, it falls back to
    ``numpy.vectorize`` on host copies of the arguments (per element, in Python) and
    transfers the result back to the arguments' device. With `signature`, the host
    path is always taken. Errors of the host path are NumPy's.

    Parameters
    ----------
    pyfunc : callable, optional
        The function to vectorize; when omitted, ``vectorize(...)`` is a decorator.
    otypes : str or list of dtypes, optional
        Output dtypes, as type codes or dtypes, one per output.
    doc : str, optional
        The docstring; defaults to ``pyfunc.__doc__``.
    excluded : set, optional
        Positional indices or keyword names of arguments passed to `pyfunc` as
        they are.
    cache : bool, optional
        As NumPy's (it concerns the host path only; the array path calls `pyfunc`
        once).
    signature : str, optional
        A generalised ufunc signature such as ``(m,n),(n)->(m)``; handled by the host
        path.

    Notes
    -----
    The array path assumes `pyfunc` is element-wise: a function that reduces or looks
    at its argument's shape (``len(x)``, ``x.sum()``) sees whole arrays, not elements.
    Without `otypes` the result dtype is that of the array computation (NumPy's is
    that of the first element's result; they agree for element-wise functions).
    On a fall back `pyfunc` has already been called once on the arrays, so its side
    effects (printing, appending to a list) happen once more than NumPy's.
    """

    def __init__(self, pyfunc=None, otypes=None, doc=None, excluded=None,
                 cache=False, signature=None):
        self._opts = dict(otypes=otypes, doc=doc, excluded=excluded, cache=cache,
                          signature=signature)
        self._host = None
        self.pyfunc = pyfunc
        if pyfunc is not None:
            self._init(pyfunc)
        else:
            # NumPy validates otypes and signature before the function is known
            _np.vectorize(lambda *a: None, otypes=otypes, excluded=excluded,
                          cache=cache, signature=signature)

    def _init(self, pyfunc):
        o = self._opts
        host = _np.vectorize(pyfunc, otypes=o["otypes"], doc=o["doc"],
                             excluded=o["excluded"], cache=o["cache"],
                             signature=o["signature"])
        self._host = host
        self.pyfunc = pyfunc
        self.otypes = host.otypes
        self.excluded = host.excluded
        self.cache = host.cache
        self.signature = host.signature
        self.__doc__ = host.__doc__
        self.__name__ = getattr(pyfunc, "__name__", type(self).__name__)

    def __call__(self, *args, **kwargs):
        if self._host is None:
            if len(args) != 1 or kwargs or not callable(args[0]):
                raise TypeError("vectorize() used as a decorator takes one function")
            self._init(args[0])
            return self
        dev = _device_of(*args, *kwargs.values())
        if self.signature is None:
            try:
                return self._on_arrays(dev, args, kwargs)
            except _Fallback:
                pass
            except Exception:  # noqa: BLE001 (any failure on arrays: host path)
                pass
        return self._on_host(dev, args, kwargs)

    def _on_arrays(self, dev, args, kwargs):
        excl = self.excluded
        pos = [i for i in range(len(args)) if i not in excl]
        names = [k for k in kwargs if k not in excl]
        if not pos and not names:
            raise _Fallback
        arrs = [_as(args[i], device=dev) for i in pos]
        arrs += [_as(kwargs[k], device=dev) for k in names]
        for a in arrs:
            if a.dtype == _np.dtype(object):
                raise _Fallback
        arrs = _core.broadcast_arrays(*arrs)
        shape = arrs[0].shape
        if not self.otypes and arrs[0].size == 0:
            raise ValueError(
                "cannot call `vectorize` on size 0 inputs unless `otypes` is set"
            )
        args = list(args)
        kwargs = dict(kwargs)
        for i, a in zip(pos, arrs):
            args[i] = a
        for k, a in zip(names, arrs[len(pos):]):
            kwargs[k] = a
        out = self.pyfunc(*args, **kwargs)
        otypes = self.otypes
        multi = isinstance(out, tuple)
        outs = out if multi else (out,)
        if otypes and len(otypes) != len(outs):
            raise _Fallback
        res = []
        for j, o in enumerate(outs):
            if o is None or isinstance(o, (str, bytes)):
                raise _Fallback
            o = _as(o, device=dev)
            if o.dtype == _np.dtype(object):
                raise _Fallback
            if _np.broadcast_shapes(o.shape, shape) != shape:
                raise _Fallback
            if o.shape != shape:
                o = _core.broadcast_to(o, shape).copy()
            elif any(o is a for a in arrs):
                o = o.copy()
            if otypes:
                o = o.astype(otypes[j], copy=False)
            res.append(o)
        return tuple(res) if multi else res[0]

    def _on_host(self, dev, args, kwargs):
        def host(v):
            return v.get() if isinstance(v, _ndarray) else v

        args = [host(a) for a in args]
        kwargs = {k: host(v) for k, v in kwargs.items()}
        out = self._host(*args, **kwargs)
        if isinstance(out, tuple):
            return tuple(_core.asarray(o, device=dev) for o in out)
        return _core.asarray(out, device=dev)


class _Fallback(Exception):
    """The array path cannot reproduce NumPy's result: take the host path."""

"""The methods of cuarray.ufunc: reduce, accumulate, reduceat, outer, at.

The ufunc type and its call are C (csrc/ops/ufunc.c: one object per op of
kernels/ops.def, called through the same fast path as before); its methods are
compositions of primitives, set on the type when cuarray is imported:

- reduce / accumulate map onto the reductions table where one row computes the
  op (add -> sum, multiply -> prod, maximum -> max, ... cumsum, cumprod): the
  same dtype rules and kernels, so ``add.reduce(x)`` costs what ``sum(x)`` does.
  Other binary ops reduce pairwise (a tree of element-wise calls) where NumPy
  calls them reorderable, else in order along the axis, as NumPy's loop does.
- at is unbuffered: repeated indices all apply. The scatter kernel
  (_core._ufunc_at: atomics on a GPU) covers add, subtract, multiply, maximum,
  minimum, fmax, fmin and the bitwise/logical ops; anything else goes in rounds
  of distinct positions (a stable sort groups the repeats; round r applies each
  position's r-th update), which keeps NumPy's order for any ufunc.
"""

import operator

import numpy as _np

from . import _core
from ._outargs import write_out as _write_out

_ufunc = _core.ufunc
_ops = _core._ops

# NumPy's "reorderable" binary ufuncs (commutative and associative: reduce may
# take several axes, in any order).
_REORDERABLE = {
    "add", "multiply", "logaddexp", "logaddexp2", "hypot", "gcd", "maximum", "minimum", "fmax", "fmin",
    "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
    "bitwise_xor",
}


class _NoValueType:
    __slots__ = ()

    def __repr__(self):
        return "<no value>"


_NoValue = _NoValueType()


def _name(u):
    return u.__name__


def _is_scalar(x):
    return isinstance(x, (int, float, complex, _np.generic))


def _as_array(x, like=None):
    if isinstance(x, _core.ndarray):
        return x
    if isinstance(x, _np.ndarray):
        raise TypeError("cuarray functions do not take NumPy arrays (that would be a "
                        "silent copy to the device): convert with cuarray.asarray() first")
    device = like.device if like is not None else None
    return _core.asarray(x, device=device) if device is not None else _core.asarray(x)


def _norm_axes(axis, ndim, what):
    """axis (None, int or tuple) -> a sorted tuple of distinct non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in axes:
        a = operator.index(a)
        if not -ndim <= a < ndim:
            raise _np.exceptions.AxisError(a, ndim)
        a %= ndim
        if a in out:
            raise ValueError("duplicate value in 'axis'")
        out.append(a)
    return tuple(sorted(out))


def _check_binary(u, method):
    if u.nin != 2:
        raise ValueError(f"{method} only supported for binary functions")


def _loop_dtype(u, dt, device):
    """The output dtype of u's loop for two inputs of dtype dt (a 0-size call)."""
    e = _core.empty((0,), dtype=dt, device=device)
    return u(e, e).dtype


_LOGICAL = {"logical_and", "logical_or", "logical_xor"}


def _reduction_input(u, a, dtype, method):
    """a in the dtype NumPy's reduce/accumulate runs u's loop in: the loop chosen
    for (dt, dt) when its inputs and output agree (bool for the logical ops, whose
    loops all give bool), else TypeError."""
    if dtype is not None:
        a = a.astype(dtype)
    if _name(u) in _LOGICAL:
        return a if a.dtype == _np.bool_ else a.astype(_np.bool_)
    rdt = _loop_dtype(u, a.dtype, a.device)
    if rdt != a.dtype:
        if rdt == _np.bool_:
            raise TypeError(f"No loop matching the specified signature and casting was "
                            f"found for ufunc {_name(u)} ({method} over {a.dtype})")
        a = a.astype(rdt)
    return a


def _fill(v, dt):
    """v as a NumPy scalar of dtype dt, cast as NumPy casts an identity (-1 into
    an unsigned type is all ones)."""
    with _np.errstate(all="ignore"):
        return _np.asarray(v).astype(dt)[()]


def _finish(res, out):
    return _write_out(res, out, tuple_ok=True)


# ---- reduce --------------------------------------------------------------------

def _fast_reduce():
    return {
        _ops["add"]: _core.sum, _ops["multiply"]: _core.prod,
        _ops["maximum"]: _core.max, _ops["minimum"]: _core.min,
        _ops["fmax"]: _core._nanmax, _ops["fmin"]: _core._nanmin,
        _ops["logical_and"]: _core.all, _ops["logical_or"]: _core.any,
    }


_FAST_REDUCE = _fast_reduce()
_WITH_DTYPE = {_core.sum, _core.prod}


def _reduce_generic(u, a, axes, keepdims):
    """u over `axes` of a (dtype already the loop's): pairwise or in order."""
    name = _name(u)
    if len(axes) > 1 and name not in _REORDERABLE:
        raise ValueError(f"reduction operation '{name}' is not reorderable, so at most "
                         f"one axis may be specified")
    rest = [d for d in range(a.ndim) if d not in axes]
    rshape = tuple(a.shape[d] for d in rest)
    k = 1
    for d in axes:
        k *= a.shape[d]
    x = _core.transpose(a, tuple(axes) + tuple(rest)).reshape((k,) + rshape)
    if k == 0:
        ident = u.identity
        if ident is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has "
                             f"no identity")
        res = _core.full(rshape, _fill(ident, a.dtype), dtype=a.dtype, device=a.device)
    elif name in _REORDERABLE:
        while k > 1:
            h = k // 2
            y = u(x[:h], x[h:2 * h])
            if k % 2:
                y[:1] = u(y[:1], x[2 * h:])
            x, k = y, h
        res = x[0].copy()
    else:
        res = x[0].copy()
        for i in range(1, k):
            u(res, x[i], out=res)
    if keepdims:
        res = res.reshape(tuple(1 if d in axes else a.shape[d] for d in range(a.ndim)))
    return res


def _masked(u, a, where, fill):  # noqa: ARG001
    """a with the elements where `where` is false replaced by fill."""
    w = _as_array(where, a)
    f = _core.full((), _fill(fill, a.dtype), dtype=a.dtype, device=a.device)
    return _core.where(w, a, f)


def _with_initial(u, a, axes, initial, keepdims, reduce_fn):
    """reduce over axes with `initial` as the first element of every reduction."""
    rest = [d for d in range(a.ndim) if d not in axes]
    rshape = tuple(a.shape[d] for d in rest)
    k = 1
    for d in axes:
        k *= a.shape[d]
    x = _core.transpose(a, tuple(rest) + tuple(axes)).reshape(rshape + (k,))
    first = _core.full(rshape + (1,), _fill(initial, a.dtype), dtype=a.dtype,
                       device=a.device)
    x = _core.concatenate([first, x], axis=-1)
    res = reduce_fn(x, len(rshape))
    if keepdims:
        res = res.reshape(tuple(1 if d in axes else a.shape[d] for d in range(a.ndim)))
    return res


def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NoValue,
           where=True):
    """reduce(array, axis=0, dtype=None, out=None, keepdims=False, initial=<no value>,
    where=True)

    Reduce `array` along `axis` (an int, a tuple, or None for all) by applying the
    ufunc, as numpy.ufunc.reduce. add, multiply, maximum, minimum, logical_and and
    logical_or run the reductions of kernels/reductions.def (sum, prod, max, min,
    all, any) with their dtype rules.
    """
    fast = _FAST_REDUCE.get(self)
    if fast is not None and initial is _NoValue and where is True and \
            isinstance(array, _core.ndarray):
        if fast in _WITH_DTYPE:
            return fast(array, axis, dtype, out, keepdims)
        if dtype is not None:
            array = array.astype(dtype)
        return fast(array, axis, out, keepdims)
    return _reduce_slow(self, array, axis, dtype, out, keepdims, initial, where, fast)


def _reduce_slow(self, array, axis, dtype, out, keepdims, initial, where, fast):
    """reduce with initial=, where=, a non-array operand, or an op outside the
    reductions table."""
    _check_binary(self, "reduce")
    a = _as_array(array)
    axes = _norm_axes(axis, a.ndim, "reduce")
    if fast is not None:
        if dtype is not None:
            if fast in _WITH_DTYPE:
                a = a.astype(fast(_core.empty((0,), dtype=a.dtype, device=a.device),
                                  dtype=dtype).dtype)
            else:
                a = a.astype(dtype)
        elif fast in _WITH_DTYPE:
            a = a.astype(fast(_core.empty((0,), dtype=a.dtype, device=a.device)).dtype)

        def run(x, ax):
            return fast(x, ax, keepdims=False)
    else:
        a = _reduction_input(self, a, dtype, "reduce")

        def run(x, ax):
            ax = ax if isinstance(ax, tuple) else (ax,)
            return _reduce_generic(self, x, ax, False)
    if where is not True:
        # masked elements become the identity (an idempotent op's initial where it
        # has none: maximum, minimum)
        fill = self.identity
        if fill is None and initial is not _NoValue:
            fill = initial
        if fill is None:
            raise ValueError(f"reduction operation '{_name(self)}' does not have an "
                             f"identity, so to use a where mask one has to specify "
                             f"'initial'")
        a = _masked(self, a, where, fill)
    if initial is not _NoValue:
        res = _with_initial(self, a, axes, initial, keepdims, run)
    else:
        res = run(a, axes)
        if keepdims:
            res = res.reshape(tuple(1 if d in axes else a.shape[d]
                                    for d in range(a.ndim)))
    return _finish(res, out)


# ---- accumulate ------------------------------------------------------------------

_FAST_SCAN = {_ops["add"]: _core.cumsum, _ops["multiply"]: _core.cumprod}


def accumulate(self, array, axis=0, dtype=None, out=None):
    """accumulate(array, axis=0, dtype=None, out=None)

    The running reduction along one axis, as numpy.ufunc.accumulate; add and
    multiply are cumsum and cumprod (their dtype rules).
    """
    _check_binary(self, "accumulate")
    if axis is None or isinstance(axis, tuple):
        raise ValueError("accumulate does not allow multiple axes")
    a = _as_array(array)
    if a.ndim == 0:
        raise TypeError("cannot accumulate on a scalar")  # NumPy's type and words
    (ax,) = _norm_axes(axis, a.ndim, "accumulate")
    fast = _FAST_SCAN.get(self)
    if fast is not None:
        if out is None:
            return fast(a, ax, dtype)
        return _finish(fast(a, ax, dtype), out)
    a = _reduction_input(self, a, dtype, "accumulate")
    y = _core.moveaxis(a, ax, 0).copy()
    n = y.shape[0]
    if _name(self) in _REORDERABLE:
        k = 1
        while k < n:  # Hillis-Steele: log2(n) passes
            y[k:] = self(y[:-k], y[k:])
            k *= 2
    else:
        for i in range(1, n):
            self(y[i - 1], y[i], out=y[i])
    return _finish(_core.moveaxis(y, 0, ax), out)


# ---- reduceat --------------------------------------------------------------------

def reduceat(self, array, indices, axis=0, dtype=None, out=None):
    """reduceat(array, indices, axis=0, dtype=None, out=None)

    Reductions over the slices [indices[i], indices[i + 1]) along `axis` (the
    element indices[i] alone where indices[i] >= indices[i + 1]; the last slice
    runs to the end), as numpy.ufunc.reduceat.
    """
    _check_binary(self, "reduceat")
    a = _as_array(array)
    if a.ndim == 0:
        raise ValueError("reduceat on a 0-d array: it needs at least one dimension")
    if axis is None or isinstance(axis, tuple):
        raise ValueError("reduceat does not allow multiple axes")
    (ax,) = _norm_axes(axis, a.ndim, "reduceat")
    idx = indices.get() if isinstance(indices, _core.ndarray) else _np.asarray(indices)
    idx = idx.reshape(-1)
    if idx.size and idx.dtype.kind not in "iu":
        raise TypeError("Cannot cast array data from dtype('%s') to dtype('int64') "
                        "according to the rule 'safe'" % idx.dtype)
    n = a.shape[ax]
    x = _core.moveaxis(a, ax, 0)
    parts = []
    for j, s in enumerate(idx.tolist()):
        if not 0 <= s < n:
            raise IndexError(f"index {s} out-of-bounds in {_name(self)}.reduceat [0, {n})")
        e = idx[j + 1].item() if j + 1 < idx.size else n
        if j + 1 < idx.size and not 0 <= e < n:
            raise IndexError(f"index {e} out-of-bounds in {_name(self)}.reduceat [0, {n})")
        seg = x[s:e] if s < e else x[s:s + 1]
        parts.append(reduce(self, seg, 0, dtype, None, True))
    if not parts:
        rdt = reduce(self, x[:1], 0, dtype, None, True).dtype
        res = _core.empty((0,) + tuple(x.shape[1:]), dtype=rdt, device=a.device)
    else:
        res = _core.concatenate(parts, axis=0)
    return _finish(_core.moveaxis(res, 0, ax), out)


# ---- outer ------------------------------------------------------------------------

def outer(self, A, B, /, out=None, dtype=None):
    """outer(A, B, /, out=None, *, dtype=None)

    op(a, b) for every pair of elements: the result's shape is A.shape + B.shape.
    """
    _check_binary(self, "outer product")
    like = A if isinstance(A, _core.ndarray) else B if isinstance(B, _core.ndarray) else None
    # both operands as arrays (Python scalars too, as NumPy's asarray makes them)
    a = _as_array(A, like)
    B = _as_array(B, like)
    a = a.reshape(tuple(a.shape) + (1,) * B.ndim)
    return self(a, B, out=out, dtype=dtype)


# ---- at -----------------------------------------------------------------------------

# Ops for which casting the values to the target's dtype first gives NumPy's result
# for integer targets (arithmetic modulo 2^n commutes with the wrapping cast).
_WRAP_OPS = {"add", "subtract", "multiply", "bitwise_and", "bitwise_or", "bitwise_xor"}
_EXACT_FLOAT_OPS = {"add", "subtract", "multiply"}


def _at_positions(a, indices):
    """The C-order flat positions (int64) of a[indices], by NumPy's index rules."""
    flat = _core.arange(a.size, dtype=_core.int64, device=a.device).reshape(a.shape)
    if isinstance(indices, tuple):
        indices = tuple(_as_array(i, a) if isinstance(i, list) else i for i in indices)
    elif isinstance(indices, list):
        indices = _as_array(indices, a)
    return flat[indices]


def _at_kernel_values(u, a, values):
    """values as an array of a's dtype when the scatter kernel may apply them, else
    None (the rounds path computes in the loop's dtype)."""
    name = _name(u)
    if isinstance(values, _core.ndarray):
        vdt = values.dtype
        if vdt == a.dtype:
            return values
    else:
        if isinstance(values, _np.ndarray):
            raise TypeError("cuarray functions do not take NumPy arrays (that would be "
                            "a silent copy to the device): convert with cuarray.asarray() "
                            "first")
        vdt = _np.asarray(values).dtype
    rdt = _loop_dtype2(u, a.dtype, vdt, a.device)
    ok = rdt == a.dtype
    if not ok and a.dtype.kind in "biu" and _np.dtype(vdt).kind in "biu":
        ok = name in _WRAP_OPS
    if not ok and a.dtype.kind in "fc" and name in _EXACT_FLOAT_OPS and \
            _is_scalar(values):
        v = _np.asarray(values)
        ok = _np.can_cast(a.dtype, rdt) and v.astype(a.dtype).astype(v.dtype) == v
    if not ok:
        return None
    v = _as_array(values, a)
    return v.astype(a.dtype) if v.dtype != a.dtype else v


def _loop_dtype2(u, dt1, dt2, device):
    e1 = _core.empty((0,), dtype=dt1, device=device)
    e2 = _core.empty((0,), dtype=dt2, device=device)
    return u(e1, e2).dtype


def _at_direct(u, a, indices, b):
    """The common case in one checking pass and one scatter, with no positions
    array built: a C-contiguous 1-D target, one integer index array and values the
    scatter kernel applies. False when the case is not that (nothing done)."""
    if a.ndim != 1 or not a.flags.c_contiguous or not isinstance(indices, _core.ndarray) \
            or indices.dtype.kind not in "iu" or indices.dtype == _np.uint64 \
            or indices.device != a.device:
        return False  # (uint64 indices past 2^63 would wrap in the int64 cast)
    # values of the target's dtype go as they are (the common case, no lookup)
    kv = b if isinstance(b, _core.ndarray) and b.dtype == a.dtype else \
        _at_kernel_values(u, a, b)
    if kv is None:
        return False
    pos = indices if indices.dtype == _core.int64 else indices.astype(_core.int64)
    if not pos.flags.c_contiguous:
        pos = _core.ascontiguousarray(pos)
    if kv.shape != pos.shape or not kv.flags.c_contiguous:
        kv = _core.ascontiguousarray(_core.broadcast_to(kv, pos.shape))
    if pos.ndim != 1:
        pos, kv = pos.reshape(-1), kv.reshape(-1)
    return _core._ufunc_at(u, a, pos, kv, a.shape[0])


def _at_rounds(u, flat, pos, vals):
    """flat[pos[i]] = u(flat[pos[i]], vals[i]) in order, for any ufunc: round r
    applies the r-th update of every position (all distinct within a round)."""
    n = pos.size
    order = _core.argsort(pos, kind="stable")
    sp = pos[order]
    rank_sorted = _core.arange(n, dtype=_core.int64, device=pos.device) - \
        _core.searchsorted(sp, sp, side="left")
    rank = _core.empty((n,), dtype=_core.int64, device=pos.device)
    rank[order] = rank_sorted
    rounds = int(rank_sorted.max()) + 1
    for r in range(rounds):
        sel = _core.flatnonzero(rank == r)
        p = pos[sel]
        if vals is None:
            flat[p] = u(flat[p])
        else:
            flat[p] = u(flat[p], vals[sel])


def at(self, a, indices, b=None, /):
    """at(a, indices, b=None, /)

    Unbuffered in place operation: a[indices] = op(a[indices], b), with every
    repeated index applied (add.at counts duplicates, as numpy.ufunc.at). On a GPU
    the common ops scatter with atomics (so repeats of one element apply in no
    particular order: float sums may differ in the last bits from NumPy's).
    """
    if self.nin == 2 and b is None:
        raise ValueError("second operand needed for ufunc")
    if self.nin == 1 and b is not None:
        raise ValueError("second operand provided when ufunc is unary")
    if self.nin > 2:
        raise ValueError("at only supported for unary and binary ufuncs")
    if not isinstance(a, _core.ndarray):
        if isinstance(a, _np.ndarray):
            raise TypeError("cuarray functions do not take NumPy arrays (that would be "
                            "a silent copy to the device): convert with cuarray.asarray() "
                            "first")
        raise TypeError("at: the first operand must be a cuarray.ndarray")
    if not a.flags.writeable:
        raise ValueError("output array is read-only")
    if self.nin == 2 and _at_direct(self, a, indices, b):
        return None
    where_ = _at_positions(a, indices)
    target_shape = tuple(where_.shape)
    pos = _core.ascontiguousarray(where_).reshape(-1)
    work = a if a.flags.c_contiguous else _core.ascontiguousarray(a)
    flat = work.reshape(-1)
    vals = None
    if self.nin == 2:
        kv = _at_kernel_values(self, a, b)
        if kv is not None:
            v = _core.ascontiguousarray(_core.broadcast_to(kv, target_shape)).reshape(-1)
            if _core._ufunc_at(self, flat, pos, v):
                if work is not a:
                    a[...] = work
                return None
        vals = _core.broadcast_to(_as_array(b, a), target_shape).reshape(-1)
    if pos.size:
        _at_rounds(self, flat, pos, vals)
    if work is not a:
        a[...] = work
    return None


# ---- __call__ with NumPy's where=, order=, subok=, signature= -------------------
#
# The C call (elementwise.c's ca_ew_py) hands a call that names one of these here,
# so a call without them costs nothing more. Each is a composition: the result
# computed as without the keyword, then laid out (order=) or copied in under the
# mask (where=). Without out=, where= leaves zeros where the mask is False (NumPy
# leaves those elements uninitialised).

_ORDERS = ("K", "A", "C", "F")


def _call_numpy_kw(name, args, kwargs):
    u = _ops[name]
    where = kwargs.pop("where", True)
    order = kwargs.pop("order", "K")
    subok = kwargs.pop("subok", True)
    sig = kwargs.pop("signature", None)
    if not isinstance(subok, bool):
        raise TypeError("'subok' must be a boolean")
    order = _call_order(order)
    if len(args) > u.nin:
        if "out" in kwargs:
            raise TypeError(f"{name}() got multiple values for 'out'")
        kwargs["out"] = args[u.nin]
        args = args[:u.nin]
    out = kwargs.get("out")
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry")
        out = kwargs["out"] = out[0]
    if sig is not None:
        args, kwargs = _apply_signature(u, args, kwargs, sig)
    if where is not True:
        return _call_where(u, args, kwargs, _where_mask(where, args, out), order)
    res = u(*args, **kwargs)
    return res if out is not None else _in_order(res, order, args)


def _call_order(order):
    if order is None:
        return "K"
    if not isinstance(order, str) or order.upper() not in _ORDERS:
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return order.upper()


def _in_order(res, order, args):
    """A fresh result in order= 'C', 'F' or 'A' (F where every array input is
    F- and not C-contiguous); 'K' keeps the C call's layout (the inputs')."""
    if order == "A":
        arrs = [a for a in args if isinstance(a, _core.ndarray)]
        fort = bool(arrs) and all(a.flags.f_contiguous and not a.flags.c_contiguous
                                  for a in arrs)
        order = "F" if fort else "C"
    if order == "C" and not res.flags.c_contiguous:
        return _core.ascontiguousarray(res)
    if order == "F" and not res.flags.f_contiguous:
        return _core.asfortranarray(res)
    return res


def _where_mask(where, args, out):
    """where= as a bool cuarray on the operands' device (NumPy's TypeError for a
    mask that does not cast safely to bool)."""
    like = out if isinstance(out, _core.ndarray) else next(
        (a for a in args if isinstance(a, _core.ndarray)), None)
    if where is None:
        where = False
    if isinstance(where, (bool, int, float)):
        where = bool(where)  # a Python scalar is weak: its value decides
    w = where if isinstance(where, _core.ndarray) else _np.asarray(where)
    if not _np.can_cast(w.dtype, _np.bool_, "safe"):
        raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('bool') "
                        f"according to the rule 'safe'")
    if isinstance(w, _np.ndarray):
        w = _core.asarray(w, device=like.device) if like is not None else _core.asarray(w)
    return w.astype(_np.bool_, copy=False)


def _call_where(u, args, kwargs, mask, order):
    out = kwargs.pop("out", None)
    if out is not None:
        if not isinstance(out, _core.ndarray):
            raise TypeError("return arrays must be of ArrayType")
        tmp = _core.empty(out.shape, dtype=out.dtype, device=out.device)
        u(*args, out=tmp, **kwargs)
        from ._manipulation import copyto
        copyto(out, tmp, casting="unsafe", where=mask)
        return out
    res = u(*args, **kwargs)
    shape = _np.broadcast_shapes(tuple(res.shape), tuple(mask.shape))
    if tuple(res.shape) != shape:
        res = _core.broadcast_to(res, shape)
    zero = _core.zeros((), dtype=res.dtype, device=res.device)
    return _in_order(_core.where(mask, res, zero), order, args)


def _sig_types(u, sig):
    """signature= as nin + nout entries (a NumPy dtype or None), as NumPy reads
    it: 'dd->d' or a tuple; a bare dtype is NumPy's TypeError."""
    n = u.nin + u.nout
    if isinstance(sig, str):
        if "->" in sig:
            ins, _, outs = sig.partition("->")
            chars = list(ins.replace(",", "")) + list(outs.replace(",", ""))
        else:
            chars = list(sig)
        if len(chars) == 1:
            raise TypeError("Use `dtype` or  fill the tuple with more than one 'None'.")
        if len(chars) != n:
            raise ValueError(f"signature with {len(chars)} types does not match the "
                             f"ufunc's {n} operands")
        return [_np.dtype(c) for c in chars]
    if not isinstance(sig, tuple):
        raise TypeError("the signature object to ufunc must be a string or a tuple.")
    if len(sig) == 1 and u.nout == 1 and n != 1:
        raise TypeError("Use `dtype` or  fill the tuple with more than one 'None'.")
    if len(sig) != n:
        raise ValueError(f"a type-tuple must be specified of length {n} for ufunc "
                         f"'{_name(u)}'")
    return [None if t is None else _np.dtype(t) for t in sig]


def _operand_dtype(x):
    return x.dtype if isinstance(x, (_core.ndarray, _np.generic)) else None


def _apply_signature(u, args, kwargs, sig):
    """The operands cast to the loop signature= names (the first of u.types whose
    fixed entries match, the free inputs casting safely) and dtype= its output."""
    types = _sig_types(u, sig)
    if "dtype" in kwargs and kwargs["dtype"] is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    kwargs = dict(kwargs)
    ins, res = types[:u.nin], types[u.nin]
    if all(t is None for t in ins):
        if res is not None:
            kwargs["dtype"] = res
        return args, kwargs
    loop = None
    for t in u.types:
        if any(c in "E45" for c in t):
            continue  # ml_dtypes' loops: no NumPy type character
        lt = [_np.dtype(c) for c in t.replace("->", "")]
        if any(f is not None and f != g for f, g in zip(types, lt)):
            continue
        if all(f is not None or _operand_dtype(x) is None
               or _np.can_cast(_operand_dtype(x), g, "safe")
               for f, g, x in zip(ins, lt, args)):
            loop = lt
            break
    if loop is None:
        raise TypeError(f"No loop matching the specified signature and casting was "
                        f"found for ufunc {_name(u)}")
    casting = kwargs.get("casting", "same_kind")
    dev = next((a.device for a in args if isinstance(a, _core.ndarray)), None)
    cast = []
    for i, (x, t) in enumerate(zip(args, loop)):
        dt = _operand_dtype(x)
        if dt is not None and not _np.can_cast(dt, t, casting):
            from ._ufunc_errors import cast_error
            raise cast_error(_name(u), "input", casting, dt, t, i) or TypeError(
                f"Cannot cast ufunc '{_name(u)}' input {i} from {dt!r} to {t!r} with "
                f"casting rule '{casting}'")
        if isinstance(x, _core.ndarray):
            cast.append(x.astype(t, copy=False))
        else:
            with _np.errstate(all="ignore"):
                v = _np.asarray(x).astype(t)
            cast.append(_core.asarray(v, device=dev) if dev is not None else
                        _core.asarray(v))
    kwargs["dtype"] = loop[u.nin]
    return tuple(cast), kwargs


def _install():
    for f in (reduce, accumulate, reduceat, outer, at):
        setattr(_ufunc, f.__name__, f)


_install()

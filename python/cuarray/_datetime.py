"""datetime64 and timedelta64 arrays: int64 arrays that keep NumPy's dtype.

An array of ``M8[unit]`` or ``m8[unit]`` is a :class:`DatetimeArray`, a subclass of
cuarray.ndarray whose memory holds NumPy's int64 representation (a count of units
since 1970-01-01T00:00, NaT being the int64 minimum) and whose ``dtype`` is NumPy's
datetime dtype. Every operation here is a composition of int64 operations on the
``_bits`` view, so no kernel of its own exists on either device; views made by the C
layer (slices, reshapes, transposes) keep the subclass and the dtype by
``__array_finalize__``.

The C layer only recognises these types (csrc/array/datetime_hook.h): a datetime
dtype, ``__cuda_array_interface__`` typestr or array given to cuarray.asarray, array,
empty, zeros, ones, full, the ``*_like`` functions, ascontiguousarray,
asfortranarray, asnumpy or ndarray.astype hands the call to the function of the same
name below.

NumPy decides every type question: the result dtype of an operation and the
exception for one it refuses come from the NumPy ufunc itself applied to empty
arrays of the operands' dtypes (``_resolve``), so that ``datetime + datetime``
raises NumPy's own UFuncTypeError. The values follow NumPy's loops: NaT propagates
(comparisons with NaT are False, ``!=`` True), timedelta // int and / int truncate
toward zero, a zero divisor gives NaT (``//`` of two timedeltas: 0), casts to a
coarser unit floor. Conversions involving the calendar units Y and M, the generic
unit, or dtypes other than int64 and the datetime kinds are NumPy's on the host (on
the cpu device over zero-copy views).

Joins, selection, sets and clip are _datetime_select.py's (re-exported below), the
reductions, scans and order statistics _datetime_stats.py's (`_reduce` hands them
on), NumPy's calendar functions _datetime_cal.py's.
"""

import sys as _sys

import numpy as _np

from . import _core

__all__ = ["isnat"]

_ca = _sys.modules[__package__]
_base = _core.ndarray
_I8 = _np.dtype(_np.int64)
_NAT = int(_np.iinfo(_np.int64).min)
I64MAX = int(_np.iinfo(_np.int64).max)
_SIGN = _np.uint64(1 << 63)

# Each linear unit as a multiple of the next finer one ('W' is 7 days ...).
_STEPS = [("W", 7), ("D", 24), ("h", 60), ("m", 60), ("s", 1000), ("ms", 1000),
          ("us", 1000), ("ns", 1000), ("ps", 1000), ("fs", 1000), ("as", 1)]
_PER_AS = {}
_acc = 1
for _u, _f in reversed(_STEPS):
    _acc *= _f  # (Python ints: only the ratios are used)
    _PER_AS[_u] = _acc
del _u, _f, _acc


def _is_dt(dt):
    return isinstance(dt, _np.dtype) and dt.kind in "Mm"


def _unit(dt):
    return _np.datetime_data(dt)


def _linear(dt):
    u, n = _unit(dt)
    return u in _PER_AS


class DatetimeArray(_base):
    """A cuarray array of datetime64 or timedelta64 (module docstring)."""

    def __array_finalize__(self, obj):
        self._dt = getattr(obj, "_dt", None)

    @property
    def dtype(self):
        return self._dt

    # ---- conversions ------------------------------------------------------
    def get(self, stream=None, order="C", out=None, blocking=True):
        if out is None:
            return _base.get(_bits(self), stream, order, None, blocking).view(self._dt)
        if not isinstance(out, _np.ndarray) or out.dtype != self._dt:
            raise TypeError(f"get(out=): a numpy.ndarray of {self._dt}")
        _base.get(_bits(self), stream, order, out.view(_I8), blocking)
        return out

    def __array__(self, dtype=None, copy=None):
        h = _base.__array__(_bits(self), None, copy).view(self._dt)
        return h if dtype is None else h.astype(dtype, copy=False)

    def tolist(self):
        return self.get().tolist()

    def item(self, *args):
        return self.get().item(*args)

    def __repr__(self):
        return repr(self.get())

    def __str__(self):
        return str(self.get())

    def __format__(self, spec):
        return format(self.get(), spec)

    def __reduce__(self):
        return (asarray, (self.get(),))

    def __bool__(self):
        return bool(self.get())

    # NumPy's conversions of its datetime arrays (TypeError: through datetime.datetime)
    def __int__(self):
        return int(self.get())

    def __float__(self):
        return float(self.get())

    def __complex__(self):
        return complex(self.get())

    def __index__(self):
        return self.get().__index__()

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    @property
    def __cuda_array_interface__(self):
        d = dict(_bits(self).__cuda_array_interface__)
        d["typestr"] = self._dt.str
        d["descr"] = [("", self._dt.str)]
        return d

    def __dlpack__(self, *args, **kwargs):
        raise BufferError("DLPack only supports signed/unsigned integers, float and "
                          "complex dtypes.")

    def __dlpack_device__(self):
        return _bits(self).__dlpack_device__()

    @property
    def real(self):
        return self

    @real.setter
    def real(self, value):
        self[...] = value

    @property
    def imag(self):  # NumPy's zeros of the dtype (read-only)
        r = _wrap(_ca.zeros(self.shape, dtype=_I8, device=self.device), self._dt)
        return r

    # ---- dtype views and casts ----------------------------------------------
    def view(self, dtype=None, type=None):
        if isinstance(dtype, _builtin_type) and issubclass(dtype, _base):
            dtype, type = None, dtype
        if dtype is None:
            return _base.view(self, None, type)
        dt = _np.dtype(dtype)
        if _is_dt(dt):
            if dt.itemsize != 8:
                raise ValueError(f"cannot view {self._dt} as {dt}")
            r = _wrap(_bits(self), dt)
        else:
            r = _base.view(_bits(self), dt)
        return r if type is None else _base.view(r, None, type)

    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        return astype(self, dtype, order, casting, subok, copy)

    def fill(self, value):
        _base.fill(_bits(self), _value_bits(value, self._dt, self.device))

    def __setitem__(self, key, value):
        _base.__setitem__(_bits(self), key, _value_bits(value, self._dt, self.device))

    def to_device(self, device, /, *, stream=None):
        return _wrap(_bits(self).to_device(device, stream=stream), self._dt)

    # ---- order ---------------------------------------------------------------
    def min(self, axis=None, out=None, keepdims=False):
        return _reduce_minmax(self, axis, keepdims, False, out)

    def max(self, axis=None, out=None, keepdims=False):
        return _reduce_minmax(self, axis, keepdims, True, out)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        self[...] = sort(self, axis, kind, order, stable=stable)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return argsort(self, axis, kind, order, stable=stable)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        self[...] = partition(self, kth, axis, kind, order)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return argpartition(self, kth, axis, kind, order)

    def searchsorted(self, v, side="left", sorter=None):
        return searchsorted(self, v, side, sorter)

    def clip(self, min=None, max=None, out=None, **kwargs):
        return clip(self, min, max, out, **kwargs)

    # ---- arithmetic and comparisons (NumPy's operators) ----------------------
    def __add__(self, o):
        return _binary("add", self, o)

    def __radd__(self, o):
        return _binary("add", o, self)

    def __sub__(self, o):
        return _binary("subtract", self, o)

    def __rsub__(self, o):
        return _binary("subtract", o, self)

    def __mul__(self, o):
        return _binary("multiply", self, o)

    def __rmul__(self, o):
        return _binary("multiply", o, self)

    def __floordiv__(self, o):
        return _binary("floor_divide", self, o)

    def __rfloordiv__(self, o):
        return _binary("floor_divide", o, self)

    def __truediv__(self, o):
        return _binary("true_divide", self, o)

    def __rtruediv__(self, o):
        return _binary("true_divide", o, self)

    def __mod__(self, o):
        return _binary("remainder", self, o)

    def __rmod__(self, o):
        return _binary("remainder", o, self)

    def __divmod__(self, o):
        return _binary("floor_divide", self, o), _binary("remainder", self, o)

    def __matmul__(self, o):
        from ._datetime_stats import matmul
        return matmul(self, o)

    def __rmatmul__(self, o):
        from ._datetime_stats import matmul
        return matmul(o, self)

    def __neg__(self):
        return _unary("negative", self)

    def __pos__(self):
        return _unary("positive", self)

    def __abs__(self):
        return _unary("absolute", self)

    def __eq__(self, o):
        return _compare("equal", self, o)

    def __ne__(self, o):
        return _compare("not_equal", self, o)

    def __lt__(self, o):
        return _compare("less", self, o)

    def __le__(self, o):
        return _compare("less_equal", self, o)

    def __gt__(self, o):
        return _compare("greater", self, o)

    def __ge__(self, o):
        return _compare("greater_equal", self, o)

    __hash__ = None

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """NumPy's ufuncs (np.add(x, t), np.datetime64(...) - x, np.isnat(x)) over the
        compositions below."""
        if method != "__call__":
            return NotImplemented
        if ufunc.__name__ == "isnat" and len(inputs) == 1 and not kwargs:
            return isnat(inputs[0])
        return _ufunc(ufunc.__name__, *inputs, **kwargs)


_builtin_type = type
_UFUNC_NAMES = {"divide": "true_divide"}
_BINARIES = ("add", "subtract", "multiply", "floor_divide", "true_divide", "remainder")
_COMPARISONS = ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")


def _inplace(name):
    def op(self, o):
        r = _binary(name, self, o)
        if not _np.can_cast(r.dtype, self._dt, "same_kind"):
            raise _np._core._exceptions._UFuncOutputCastingError(
                getattr(_np, name), "same_kind", r.dtype, self._dt, 0)
        self[...] = r
        return self
    op.__name__ = f"__i{name}__"
    return op


for _n, _op in (("add", "__iadd__"), ("subtract", "__isub__"), ("multiply", "__imul__"),
                ("floor_divide", "__ifloordiv__"), ("true_divide", "__itruediv__"),
                ("remainder", "__imod__")):
    setattr(DatetimeArray, _op, _inplace(_n))


def _moves(name):
    """A method that moves or copies elements: the same on the int64 bits."""
    f = getattr(_base, name)

    def method(self, *args, **kwargs):
        r = f(_bits(self), *args, **kwargs)
        return _wrap(r, self._dt) if isinstance(r, _base) else r
    method.__name__ = name
    method.__doc__ = f.__doc__
    return method


for _n in ("copy", "__copy__", "__deepcopy__", "reshape", "ravel", "flatten",
           "transpose", "swapaxes", "squeeze", "repeat", "take", "diagonal",
           "__getitem__"):
    setattr(DatetimeArray, _n, _moves(_n))
del _n, _op

_core._datetime_setup(DatetimeArray)


# ---- helpers -------------------------------------------------------------------
def _bits(x):
    """The plain int64 view of a DatetimeArray (shares memory)."""
    return _base.view(x, _I8, _base)


def _wrap(a, dt):
    """A plain int64 cuarray array as a DatetimeArray of dtype dt (a view)."""
    r = _base.view(a, _I8, DatetimeArray)
    r._dt = dt
    return r


def _host_bits(h, dt=None):
    """A NumPy datetime array (or values NumPy makes one of, as dt) as int64 bits."""
    h = _np.asarray(h, dtype=dt)
    if not h.dtype.isnative:
        h = h.astype(h.dtype.newbyteorder("="))
    return h.view(_I8)


def _native(dt):
    return dt if dt.isnative else dt.newbyteorder("=")


def _nat_mask(b):
    return b == _NAT


def _via_numpy(x, fn):
    """fn applied to x as a NumPy array (zero-copy on the cpu device), back on x's
    device."""
    h = _np.asarray(x) if x.device == "cpu" else x.get()
    return asarray(fn(h), device=x.device)


# ---- creation ------------------------------------------------------------------
def _dt_arg(dtype):
    if dtype is None:
        return None
    dt = _np.dtype(dtype)
    if _is_dt(dt) and not dt.isnative:  # as the C layer's other dtypes
        raise TypeError(f"cuarray does not support dtype {dt!r}: arrays are native "
                        "byte order")
    return dt


def empty(shape, dtype=float, order="C", *, device=None, memory=None):
    dt = _dt_arg(dtype)
    return _wrap(_core.empty(shape, _I8, order, device=device, memory=memory), dt)


def zeros(shape, dtype=float, order="C", *, device=None, memory=None):
    dt = _dt_arg(dtype)
    return _wrap(_core.zeros(shape, _I8, order, device=device, memory=memory), dt)


def ones(shape, dtype=float, order="C", *, device=None, memory=None):
    dt = _dt_arg(dtype)
    one = int(_host_bits(_np.ones((), dt)))
    return _wrap(_core.full(shape, one, _I8, order, device=device, memory=memory), dt)


def full(shape, fill_value, dtype=None, order="C", *, device=None, memory=None):
    dt = _dt_arg(dtype)
    if isinstance(fill_value, DatetimeArray):
        dt = dt or fill_value.dtype
        r = empty(shape, dt, order, device=device, memory=memory)
        r[...] = fill_value
        return r
    if dt is None:
        dt = _native(_np.asarray(fill_value).dtype)
    if not _is_dt(dt):
        return _core.full(shape, _np.asarray(fill_value).astype(dt), dt, order,
                          device=device, memory=memory)
    v = _host_bits(fill_value, dt)
    return _wrap(_core.full(shape, v, _I8, order, device=device, memory=memory), dt)


def _like(fname, a, dtype, order, subok, shape, device, memory, fill=None):
    if isinstance(a, DatetimeArray):
        src, kind = _bits(a), a.dtype
    elif isinstance(a, _base):
        src, kind = a, a.dtype
    else:  # a host prototype: the C functions read its shape and order only
        h = _np.asarray(a)
        kind = _native(h.dtype)
        src = _host_bits(h) if _is_dt(h.dtype) else a
    dt = _dt_arg(dtype) or kind
    f = getattr(_core, fname)
    if not _is_dt(dt):
        args = (src,) if fill is None else (src, fill)
        return f(*args, dtype=dt, order=order, subok=subok, shape=shape, device=device,
                 memory=memory)
    if fname == "ones_like":
        f, fill = _core.full_like, _np.ones((), dt)
    if fill is not None:
        r = _core.empty_like(src, dtype=_I8, order=order, subok=False, shape=shape,
                             device=device, memory=memory)
        r = _wrap(r, dt)
        r[...] = fill
        return r
    return _wrap(f(src, dtype=_I8, order=order, subok=False, shape=shape, device=device,
                   memory=memory), dt)


def empty_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None,
               memory=None):
    return _like("empty_like", a, dtype, order, subok, shape, device, memory)


def zeros_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None,
               memory=None):
    return _like("zeros_like", a, dtype, order, subok, shape, device, memory)


def ones_like(a, dtype=None, order="K", subok=None, shape=None, *, device=None,
              memory=None):
    return _like("ones_like", a, dtype, order, subok, shape, device, memory)


def full_like(a, fill_value, dtype=None, order="K", subok=None, shape=None, *,
              device=None, memory=None):
    return _like("full_like", a, dtype, order, subok, shape, device, memory, fill_value)


class _CAIShim:
    """A __cuda_array_interface__ of a datetime exporter as int64 (keeps it alive)."""

    def __init__(self, owner, iface):
        self._owner = owner
        self.__cuda_array_interface__ = iface


def _from_cai(obj, iface, device):
    dt = _np.dtype(iface["typestr"])
    if dt.itemsize != 8 or not dt.isnative:
        raise ValueError(f"__cuda_array_interface__ typestr {iface['typestr']!r}: "
                         "cuarray arrays are native-endian")
    d = dict(iface)
    d["typestr"] = _I8.str
    d.pop("descr", None)
    return _wrap(_core.asarray(_CAIShim(obj, d), device=device), _native(dt))


def asarray(obj, dtype=None, order=None, *, device=None, copy=None, memory=None,
            blocking=True):
    dt = _dt_arg(dtype)
    if isinstance(obj, DatetimeArray):
        r = obj
        if device is not None or memory is not None:
            b = _core.asarray(_bits(r), device=device, copy=copy, memory=memory)
            r = _wrap(b, obj.dtype)
            copy = None if copy else copy  # (asarray made the copy asked for)
        if dt is not None and dt != r.dtype:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as "
                                 "requested.")
            return r.astype(dt, order="K" if order is None else order)
        laid = order not in ("C", "F") or getattr(r.flags, f"{order.lower()}_contiguous")
        if copy or not laid:
            if copy is False:
                raise ValueError("Unable to avoid copy while creating an array as "
                                 "requested.")
            return r.copy(order or "K")
        return r
    iface = getattr(obj, "__cuda_array_interface__", None) \
        if not isinstance(obj, _np.ndarray) else None
    if isinstance(iface, dict) and str(iface.get("typestr", ""))[1:2] in ("M", "m"):
        r = _from_cai(obj, iface, device)
        return r if dt is None else asarray(r, dt, order, copy=copy)
    h = _np.asarray(obj, dtype=dt)
    if not _is_dt(h.dtype):
        return _core.asarray(h, order=order, device=device, copy=copy, memory=memory)
    r = _core.asarray(_host_bits(h), order=order, device=device, copy=copy,
                      memory=memory)
    return _wrap(r, _native(h.dtype))


def array(obj, dtype=None, copy=True, order="K", ndmin=0, *, device=None, memory=None):
    r = asarray(obj, dtype, order, device=device, copy=copy, memory=memory)
    if r.ndim < ndmin:
        r = r.reshape((1,) * (ndmin - r.ndim) + r.shape)
    return r


def ascontiguousarray(a, dtype=None, *, device=None, memory=None):
    r = asarray(a, dtype, "C", device=device, memory=memory)
    return r.reshape(1) if r.ndim == 0 else r


def asfortranarray(a, dtype=None, *, device=None, memory=None):
    r = asarray(a, dtype, "F", device=device, memory=memory)
    return r.reshape(1) if r.ndim == 0 else r


def arange(start, stop=None, step=None, dtype=None, *, device=None, memory=None):
    """arange of datetime64/timedelta64: NumPy's on the host, then moved."""
    def host(v):  # a 0-d array as NumPy's scalar (as NumPy's arange reads it)
        if isinstance(v, _base):
            v = v.get()
            return v[()] if v.ndim == 0 else v
        return v
    h = _np.arange(host(start), host(stop), host(step), dtype=dtype)
    return asarray(h, device=device, memory=memory)


def asnumpy(a, stream=None, order="C", out=None, blocking=True):
    return a.get(stream, order, out, blocking)


# ---- casts ---------------------------------------------------------------------
def _value_bits(value, dt, device):
    """value as int64 bits of dtype dt: a cuarray array (on the device) or NumPy's."""
    if isinstance(value, DatetimeArray):
        return _bits(value.astype(dt, copy=False))
    if isinstance(value, _base):
        if value.dtype.kind not in "biu":
            raise TypeError(f"Cannot cast {value.dtype} to {dt}")
        return value.astype(_I8, copy=False)
    return _host_bits(_np.asarray(value).astype(dt))


def _rescale(b, src, dst):
    """int64 bits b of unit src as unit dst (both linear): NumPy's floor."""
    (us, ns), (ud, nd) = _unit(src), _unit(dst)
    num, den = _PER_AS[us] * ns, _PER_AS[ud] * nd
    if num == den:
        return b
    from math import gcd
    g = gcd(num, den)
    pu, pd = _PER_AS[us], _PER_AS[ud]
    if max(pu, pd) // min(pu, pd) >= 1 << 56:  # NumPy's limit on the units' factor
        raise OverflowError("Integer overflow while computing the conversion factor "
                            f"between NumPy datetime units {us} and {ud}")
    nat = _nat_mask(b)
    if num % den == 0:
        r = b * (num // den)  # (overflow wraps, as NumPy's cast)
    elif den % num == 0:
        r = b // (den // num)
    else:
        r = (b * (num // g)) // (den // g)
    return _ca.where(nat, _NAT, r)


def astype(x, dtype, order="K", casting="unsafe", subok=True, copy=True):
    """x (any cuarray array) as dtype, one side datetime64/timedelta64."""
    dt = _native(_np.dtype(dtype))
    src = x.dtype
    if not _np.can_cast(src, dt, casting):
        raise TypeError(f"Cannot cast array data from {src!r} to {dt!r} according to "
                        f"the rule {casting!r}")
    if not isinstance(x, DatetimeArray):  # integers (or anything) to datetime
        if src.kind in "biu" and src.kind != "b":
            return _wrap(_base.astype(x, _I8, order, copy=True), dt)
        return _via_numpy(x, lambda h: h.astype(dt))
    if dt == src:
        return x.copy(order) if copy else x
    if dt == _I8:
        return _base.astype(_bits(x), _I8, order, copy=copy)
    if _is_dt(dt) and dt.kind == src.kind and _linear(dt) and _linear(src):
        return _wrap(_rescale(_bits(x), src, dt), dt)
    return _via_numpy(x, lambda h: h.astype(dt, order=order))


def view(x, dtype=None, type=None):
    """x.view(dtype, type) of a plain array as datetime64/timedelta64 (8-byte items)."""
    dt = _np.dtype(dtype)
    if x.dtype.itemsize != 8:
        b = _base.view(x, _I8)  # NumPy's rules for the last axis
    else:
        b = _base.view(x, _I8) if x.dtype != _I8 else x
    r = _wrap(b, _native(dt))
    return r if type is None else _base.view(r, None, type)


# ---- NumPy's type resolution -----------------------------------------------------
def _proto(o):
    """An empty NumPy stand-in of operand o for NumPy's type resolution."""
    if isinstance(o, _base):
        return _np.empty(0, o.dtype)
    if isinstance(o, (int, float, complex, bool)):
        return o  # NumPy's weak Python scalars
    return _np.empty(0, _np.asarray(o).dtype)


def _resolve(name, *ops):
    """The result dtype NumPy gives ufunc `name` on these operands, or its error."""
    with _np.errstate(all="ignore"):
        return getattr(_np, name)(*(_proto(o) for o in ops)).dtype


def _operand(o, device):
    """(bits or value, NaT mask or None, dtype) of an operand on `device`."""
    if isinstance(o, DatetimeArray):
        b = _bits(o)
        return b, _nat_mask(b), o.dtype
    if isinstance(o, _base):
        return o, None, o.dtype
    if isinstance(o, (int, float, bool)):
        return o, None, None
    if isinstance(o, _np.ndarray):
        raise TypeError("cuarray functions do not take NumPy arrays (that would be a "
                        "silent copy to the device): convert with cuarray.asarray() "
                        "first")
    h = _np.asarray(o)
    if _is_dt(h.dtype):
        b = _core.asarray(_host_bits(h), device=device)
        return b, _nat_mask(b), _native(h.dtype)
    return _core.asarray(h, device=device), None, h.dtype


def _in_unit(b, dt, unit_dt, device):
    """Bits b of dtype dt in the unit of unit_dt (NumPy's cast; host for Y/M)."""
    if _unit(dt) == _unit(unit_dt):
        return b
    target = _np.dtype(f"{dt.kind}8[{_unit(unit_dt)[1]}{_unit(unit_dt)[0]}]")
    if _linear(dt) and _linear(unit_dt):
        return _rescale(b, dt, target)
    return _bits(_via_numpy(_wrap(b, dt), lambda h: h.astype(target)))


def _either(*masks):
    ms = [m for m in masks if m is not None]
    if not ms:
        return None
    r = ms[0]
    for m in ms[1:]:
        r = r | m
    return r


def _device(*ops):
    for o in ops:
        if isinstance(o, _base):
            return o.device
    return None


def _float_to_td(f, mask):
    """NumPy's cast of float64 results to timedelta64: truncation, NaN/inf/overflow
    NaT."""
    bad = ~_ca.isfinite(f) | (f >= 2.0 ** 63) | (f < -(2.0 ** 63))
    mask = bad if mask is None else mask | bad
    return _ca.where(mask, _NAT, _ca.where(bad, 0, f).astype(_I8))


def _trunc_div(a, b):
    """int64 a / b truncated toward zero (b != 0)."""
    q = a // b
    fix = ((a % b) != 0) & ((a < 0) != (b < 0))
    return q + fix.astype(_I8)


def _binary(name, a, b):
    try:
        rt = _resolve(name, a, b)
    except TypeError:
        if name in ("add", "subtract", "multiply", "floor_divide", "true_divide",
                    "remainder") and not isinstance(a, _base) and not isinstance(b, _base):
            return NotImplemented
        raise
    dev = _device(a, b)
    (x, mx, dx), (y, my, dy) = _operand(a, dev), _operand(b, dev)
    xt, yt = _is_dt(dx), _is_dt(dy)
    if xt and yt:
        # same-kind pairs meet in the finer unit; M - M gives m8 of that unit
        cu = rt if name in ("add", "subtract", "remainder") else _np.result_type(dx, dy)
        x, y = _in_unit(x, dx, cu, dev), _in_unit(y, dy, cu, dev)
    elif xt or yt:
        if _is_dt(rt):
            if xt:
                x = _in_unit(x, dx, rt, dev)
            else:
                y = _in_unit(y, dy, rt, dev)
    mask = _either(mx, my)
    fl = lambda v, d: d is not None and d.kind == "f" or isinstance(v, float)  # noqa: E731
    with _np.errstate(all="ignore"):
        if name in ("add", "subtract"):
            xi = x if xt or isinstance(x, int) else _ca.asarray(x).astype(_I8)
            yi = y if yt or isinstance(y, int) else _ca.asarray(y).astype(_I8)
            r = xi + yi if name == "add" else xi - yi
        elif name == "multiply":
            if fl(x, dx) or fl(y, dy):
                return _wrap(_float_to_td(_ca.multiply(_f8(x), _f8(y)), mask), rt)
            r = _ca.multiply(_i8(x), _i8(y))
        elif name == "true_divide" and rt.kind == "f":  # m / m
            f = _ca.true_divide(_f8(x), _f8(y))
            return _ca.where(mask, _np.nan, f)
        elif name in ("true_divide", "floor_divide") and rt.kind == "m":  # m / number
            if fl(y, dy):
                return _wrap(_float_to_td(_ca.true_divide(_f8(x), _f8(y)), mask), rt)
            y = _i8(y)
            zero = y == 0
            mask = _either(mask, zero)
            r = _trunc_div(x, _ca.where(zero, 1, y))
        elif name == "floor_divide":  # m // m -> int64, NaT and x // 0 are 0
            zero = y == 0
            r = _ca.floor_divide(x, _ca.where(zero, 1, y))
            return _ca.where(_either(mask, zero), 0, r)
        elif name == "remainder":  # m % m -> m, NaT and x % 0 are NaT
            zero = y == 0
            mask = _either(mask, zero)
            r = _ca.remainder(x, _ca.where(zero, 1, y))
        else:
            raise TypeError(f"ufunc {name!r} is not supported for {dx} and {dy}")
    r = _ca.asarray(r, device=dev)
    if mask is not None:
        r = _ca.where(mask, _NAT, r)
    return _wrap(r.astype(_I8, copy=False), rt)


def _i8(v):
    return v if isinstance(v, int) else _ca.asarray(v).astype(_I8, copy=False)


def _f8(v):
    if isinstance(v, (int, float)):
        return float(v)
    return _ca.asarray(v).astype(_np.float64)


def _unary(name, a):
    _resolve(name, a)  # NumPy's TypeError for datetime64
    b = _bits(a)
    if name == "positive":
        return a.copy()
    if name == "sign":  # NumPy's loop: NaT (int64's minimum) has the sign -1
        return _wrap(_ca.sign(b), a.dtype)
    r = -b if name == "negative" else _ca.absolute(b)
    return _wrap(_ca.where(_nat_mask(b), _NAT, r), a.dtype)


_NE = {"equal": False, "not_equal": True}


def _compare(name, a, b):
    if name in _NE:
        # NumPy's == and != give all-False / all-True for operands without a loop
        try:
            _resolve(name, a, b)
        except TypeError:
            shape = _np.broadcast_shapes(_np.shape(a), _np.shape(b))
            return _ca.full(shape, _NE[name], dtype=bool, device=_device(a, b))
    else:
        _resolve(name, a, b)
    dev = _device(a, b)
    (x, mx, dx), (y, my, dy) = _operand(a, dev), _operand(b, dev)
    if dx is not None and dy is not None and _is_dt(dx) and _is_dt(dy):
        cu = _np.result_type(dx, dy)
        x, y = _in_unit(x, dx, cu, dev), _in_unit(y, dy, cu, dev)
    r = getattr(_ca, name)(x, y)
    mask = _either(mx, my)
    if mask is None:
        return r
    return r | mask if name == "not_equal" else r & ~mask


# ---- functions -----------------------------------------------------------------
def isnat(x, /):
    """isnat(x): True where x (datetime64 or timedelta64) is NaT."""
    if not isinstance(x, DatetimeArray):
        if isinstance(x, _base) or not _is_dt(_np.asarray(x).dtype):
            raise TypeError("ufunc 'isnat' is only defined for np.datetime64 and "
                            "np.timedelta64.")
        x = asarray(x)
    return _nat_mask(_bits(x))


def _reduce_minmax(x, axis, keepdims, is_max, out):
    b = _bits(x)
    # NaT is int64's minimum: min propagates it by itself; max must look for it
    if not is_max:
        r = _ca.min(b, axis=axis, keepdims=keepdims)
    else:
        r = _ca.max(b, axis=axis, keepdims=keepdims)
        r = _ca.where(_ca.any(_nat_mask(b), axis=axis, keepdims=keepdims), _NAT, r)
    r = _wrap(_ca.asarray(r), x.dtype)
    if out is not None:
        out[...] = r
        return out
    return r


def _keys(b):
    """int64 bits as uint64 keys ordering NaT last (its key is the largest)."""
    return (b.view(_np.uint64) ^ _SIGN) - _np.uint64(1)


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """cuarray.sort of a datetime64/timedelta64 array: NaT last, as NumPy."""
    if axis is None:
        a, axis = a.ravel(), -1
    k = _ca.sort(_ca.ascontiguousarray(_keys(_bits(a))), axis=axis, kind=kind,
                 stable=stable)
    return _wrap(((k + _np.uint64(1)) ^ _SIGN).view(_I8), a.dtype)


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """cuarray.argsort of a datetime64/timedelta64 array: NaT last, as NumPy."""
    if axis is None:
        a, axis = a.ravel(), -1
    return _ca.argsort(_ca.ascontiguousarray(_keys(_bits(a))), axis=axis, kind=kind,
                       stable=stable)


def _minmax(name, a, b):
    """maximum/minimum: NaT propagates (NumPy's loops)."""
    _resolve(name, a, b)
    dev = _device(a, b)
    (x, mx, dx), (y, my, dy) = _operand(a, dev), _operand(b, dev)
    cu = _resolve(name, a, b)
    if _is_dt(dx):
        x = _in_unit(x, dx, cu, dev)
    if _is_dt(dy):
        y = _in_unit(y, dy, cu, dev)
    r = getattr(_ca, name)(_i8(x), _i8(y))
    return _wrap(_ca.where(_either(mx, my), _NAT, r), cu)


def _fminmax(name, a, b):
    """fmax/fmin: NaT gives way to the other operand (NumPy's loops)."""
    cu = _resolve(name, a, b)
    dev = _device(a, b)
    (x, mx, dx), (y, my, dy) = _operand(a, dev), _operand(b, dev)
    x = _in_unit(x, dx, cu, dev) if _is_dt(dx) else _i8(x)
    y = _in_unit(y, dy, cu, dev) if _is_dt(dy) else _i8(y)
    r = getattr(_ca, "maximum" if name == "fmax" else "minimum")(x, y)
    r = _ca.where(mx, y, r) if mx is not None else r
    r = _ca.where(my, x, r) if my is not None else r
    return _wrap(_ca.asarray(r), cu)


def _numpy_refusal(f, *protos, **kwargs):
    """NumPy's exception for f on these stand-ins (nothing if it takes them)."""
    with _np.errstate(all="ignore"):
        f(*protos, **kwargs)


def _on_host(f, args):
    """NumPy's f on host copies of the arguments, the result on their device (the
    operations without a composition of their own)."""
    dev = _device(*args)
    r = f(*(a.get() if isinstance(a, _base) else a for a in args))  # (its warnings)
    return asarray(_np.asarray(r), device=dev)


def _ufunc(name, *args, out=None, dtype=None, casting="same_kind"):
    """cuarray.<ufunc>(...) with a datetime64/timedelta64 operand
    (csrc/ops/elementwise.c hands these calls here)."""
    name = _UFUNC_NAMES.get(name, name)
    f = getattr(_np, name, None)
    nin = getattr(f, "nin", len(args))
    if len(args) > nin:
        args, out = args[:nin], args[nin]
    protos = [_proto(a) for a in args]
    if f is not None and not any(_is_dt(getattr(p, "dtype", None)) for p in protos):
        _numpy_refusal(f, *protos, dtype=dtype)  # dtype= named a datetime: NumPy's error
    if name in _BINARIES and nin == 2:
        r = _binary(name, *args)
    elif name in _COMPARISONS:
        r = _compare(name, *args)
    elif name in ("maximum", "minimum"):
        r = _minmax(name, *args)
    elif name in ("negative", "absolute", "positive", "sign"):
        r = _unary(name, *args)
    elif name in ("isnan", "isfinite", "isinf") and len(args) == 1:
        _resolve(name, *args)
        r = _nat_mask(_bits(asarray(args[0])))
        r = ~r if name == "isfinite" else r if name == "isnan" else _ca.zeros_like(r)
    elif name in ("fmax", "fmin"):
        r = _fminmax(name, *args)
    elif name == "divmod":
        with _np.errstate(all="ignore"):  # (NumPy's refusal; two results)
            _np.divmod(*(_proto(a) for a in args))
        r = (_binary("floor_divide", *args), _binary("remainder", *args))
    elif f is None:
        raise TypeError(f"cuarray.{name} does not take datetime64/timedelta64")
    else:  # NumPy's refusal, or its answer on the host copies (i0 ...)
        _numpy_refusal(f, *protos)
        r = _on_host(f, args)
    if r is NotImplemented:
        raise TypeError(f"unsupported operand types for {name}")
    if dtype is not None:
        r = r.astype(dtype)
    if out is not None:
        if isinstance(r, tuple):
            for o, v in zip(out, r):
                o[...] = v
            return out
        out = out[0] if isinstance(out, tuple) else out
        out[...] = r
        return out
    return r


def _reduce(name, a, *args, **kwargs):
    """cuarray.<reduction>(a, ...) of a datetime64/timedelta64 array
    (csrc/ops/reduction.c hands these calls here; _datetime_stats.py's)."""
    from ._datetime_stats import reduce
    return reduce(name, a, args, kwargs)


# The second half (joins, selection, sets, searching, clip): its names are this
# module's too, as the C layer calls cuarray._datetime.<name>.
from ._datetime_select import (  # noqa: E402
    _common,
    _join,
    concatenate,
    stack,
    where,
    _from_keys,
    _same_unit_bits,
    unique,
    isin,
    searchsorted,
    clip,
    partition,
    argpartition,
)


def __getattr__(name):
    """The products csrc/ops/linalg.c hands here (inner, outer, vdot, tensordot:
    _datetime_stats.py's, NumPy's on the host), found on first use."""
    if name in ("inner", "outer", "vdot", "tensordot"):
        from . import _datetime_stats
        return getattr(_datetime_stats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

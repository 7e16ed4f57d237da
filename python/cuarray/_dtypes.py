"""Types and type functions: NumPy's scalar types and dtype helpers, taking cuarray
arrays where NumPy takes arrays, and the small objects that go with them
(broadcast, flatiter, ndindex) and NumPy's constants.

The scalar types are NumPy's own objects re-exported (``cuarray.float32 is
numpy.float32``), as CuPy does: a dtype is a host-side description, the same on
every device. The functions here only look at dtypes and shapes, never at an
array's elements, except min_scalar_type of a 0-d array (NumPy's rule for it
depends on the value, so that one reads the element back).
"""

import operator as _operator
import sys as _sys

import numpy as _np

_ca = _sys.modules[__package__]

# NumPy's scalar types (concrete and abstract) and dtype, re-exported.
_TYPE_NAMES = [
    "dtype", "generic", "number", "integer", "signedinteger", "unsignedinteger",
    "inexact", "floating", "complexfloating",
    "intp", "uintp", "int_", "uint", "intc", "uintc", "byte", "ubyte", "short", "ushort",
    "long", "ulong", "longlong", "ulonglong", "half", "single", "double", "csingle",
    "cdouble",
    # the scalars of cuarray's DatetimeArray (python/cuarray/_datetime.py)
    "datetime64", "timedelta64",
]
globals().update({_n: getattr(_np, _n) for _n in _TYPE_NAMES})

# NumPy's helpers that only look at types (nothing of an array to convert).
promote_types = _np.promote_types
issubdtype = _np.issubdtype
isdtype = _np.isdtype
typename = _np.typename
isscalar = _np.isscalar
iterable = _np.iterable
ndindex = _np.ndindex
iinfo = _np.iinfo


class finfo:
    """finfo(dtype)

    numpy.finfo's fields of a float or complex dtype (a cuarray array's too), in
    the types the Array API gives them: bits and NumPy's other integer fields
    ints; eps, max, min, smallest_normal and NumPy's other float fields Python
    floats (weak in arithmetic, NEP 50), dtype the real dtype. Equal to
    numpy.finfo of the same dtype.
    """

    __module__ = "cuarray"
    _FLOATS = ("eps", "epsneg", "max", "min", "resolution", "smallest_normal",
               "smallest_subnormal", "tiny")
    _INTS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant",
             "precision")
    _cache = {}

    def __new__(cls, dtype):
        try:
            return cls._cache[dtype]  # (by the argument: a dtype, a type, a name)
        except (KeyError, TypeError):
            pass
        fi = _np.finfo(dtype)  # (reads a cuarray array's dtype, raises as NumPy)
        self = cls._cache.get(fi.dtype)
        if self is None:
            self = object.__new__(cls)
            self._np = fi
            self.dtype = fi.dtype
            for n in cls._FLOATS:
                setattr(self, n, float(getattr(fi, n)))
            for n in cls._INTS:
                setattr(self, n, int(getattr(fi, n)))
            cls._cache[fi.dtype] = self
        if isinstance(dtype, (type, str, _np.dtype)):
            cls._cache[dtype] = self
        return self

    def __eq__(self, other):
        if isinstance(other, finfo):
            other = other._np
        return self._np == other if isinstance(other, _np.finfo) else NotImplemented

    def __hash__(self):
        return hash(self._np)

    def __repr__(self):
        return repr(self._np)

    def __str__(self):
        return str(self._np)

e = _np.e
pi = _np.pi
inf = _np.inf
nan = _np.nan
euler_gamma = _np.euler_gamma
newaxis = None

__all__ = _TYPE_NAMES + [
    "promote_types", "issubdtype", "isdtype", "typename", "isscalar", "iterable",
    "ndindex", "finfo", "iinfo", "e", "pi", "inf", "nan", "euler_gamma", "newaxis",
    "result_type", "can_cast", "min_scalar_type", "common_type", "mintypecode",
    "ndim", "shape", "size", "astype", "copy", "broadcast", "flatiter",
]


def _dtype_of(x):
    """x's dtype where x is a cuarray array, else x itself (for NumPy)."""
    if isinstance(x, _ca.ndarray):
        return x.dtype
    return x


def result_type(*arrays_and_dtypes):
    """result_type(*arrays_and_dtypes)

    The dtype NumPy's promotion rules give for the arguments: cuarray or NumPy
    arrays, dtypes, scalar types and Python scalars (weakly typed, NEP 50).
    """
    return _np.result_type(*[_dtype_of(x) for x in arrays_and_dtypes])


def can_cast(from_, to, casting="safe"):
    """can_cast(from_, to, casting='safe')

    Whether a cast from the dtype (or the array's dtype) ``from_`` to ``to`` can
    happen under the casting rule, as numpy.can_cast.
    """
    return _np.can_cast(_dtype_of(from_), to, casting)


def min_scalar_type(a):
    """min_scalar_type(a)

    The smallest dtype that holds ``a``: NumPy's rule for scalars and 0-d arrays
    (whose value is read back to the host); an array of one or more dimensions
    gives its own dtype.
    """
    if isinstance(a, _ca.ndarray):
        if a.ndim == 0:
            return _np.min_scalar_type(a.get())
        return a.dtype
    return _np.min_scalar_type(a)


def common_type(*arrays):
    """common_type(*arrays)

    A floating scalar type common to the arrays: integer arrays count as
    float64, float16 stays float16 only when every array is float16, complex
    arrays give complex; as numpy.common_type.
    """
    is_complex = False
    precision = 0
    for a in arrays:
        t = a.dtype.type
        if issubclass(t, _np.complexfloating):
            is_complex = True
            p = _np.finfo(t).bits // 2
        elif issubclass(t, _np.floating):
            p = _np.finfo(t).bits
        elif issubclass(t, _np.integer):
            p = 64
        else:
            raise TypeError("can't get common type for non-numeric array")
        precision = max(precision, p)
    if precision == 0:
        precision = 16  # no arrays: NumPy answers float16
    if is_complex:
        return {16: _np.complex64, 32: _np.complex64, 64: _np.complex128}.get(
            precision, _np.clongdouble)
    return {16: _np.float16, 32: _np.float32, 64: _np.float64}.get(
        precision, _np.longdouble)


def mintypecode(typechars, typeset="GDFgdf", default="d"):
    """mintypecode(typechars, typeset='GDFgdf', default='d')

    The character of the smallest type in ``typeset`` that the types in
    ``typechars`` (type characters, or arrays whose dtype characters count)
    can be cast to safely, as numpy.mintypecode.
    """
    chars = [t.dtype.char if isinstance(t, _ca.ndarray) else t for t in typechars]
    return _np.mintypecode(chars, typeset, default)


def ndim(a):
    """ndim(a): the number of dimensions of an array (or array-like)."""
    if isinstance(a, _ca.ndarray):
        return a.ndim
    return _np.ndim(a)


def shape(a):
    """shape(a): the shape of an array (or array-like), a tuple of ints."""
    if isinstance(a, _ca.ndarray):
        return a.shape
    return _np.shape(a)


def size(a, axis=None):
    """size(a, axis=None): the number of elements, in all or along the axis
    (an int, or from NumPy 2.4 a tuple of ints)."""
    if not isinstance(a, _ca.ndarray):
        return _np.size(a, axis)
    if axis is None:
        return a.size
    s = a.shape
    axes = axis if isinstance(axis, tuple) else (axis,)
    axes = _np.lib.array_utils.normalize_axis_tuple(axes, len(s))
    n = 1
    for ax in axes:
        n *= s[ax]
    return n


def astype(x, dtype, /, *, copy=True, device=None):
    """astype(x, dtype, /, *, copy=True, device=None)

    ``x`` cast to ``dtype`` (the array API's function): a new array unless
    ``copy`` is False and nothing changes; ``device`` moves the result.
    """
    if not isinstance(x, _ca.ndarray):
        raise TypeError(f"x must be a cuarray.ndarray, not {type(x).__name__}")
    if device is not None:
        moved = x.to_device(device)
        if moved is not x:
            return moved.astype(dtype, copy=False)
    return x.astype(dtype, copy=copy)


def copy(a, order="K", subok=False):
    """copy(a, order='K', subok=False)

    A copy of ``a`` (a new array on a's device; array-likes go to the default
    device), as numpy.copy.
    """
    if isinstance(a, _ca.ndarray):
        return a.copy(order=order)
    return _ca.array(a, copy=True, order=order)


# ---------------------------------------------------------------------------
# broadcast and flatiter
# ---------------------------------------------------------------------------

class broadcast:
    """broadcast(*arrays)

    The result of broadcasting the arrays against each other: ``shape``,
    ``ndim`` (``nd``), ``size``, ``numiter``, ``iters`` (one flat iterator per
    argument over its broadcast view) and CuPy's ``values`` (the broadcast
    views). Iterating yields tuples of elements (0-d arrays, read from the
    device one at a time: for inspection, not for computation).
    """

    __module__ = "cuarray"

    def __init__(self, *arrays):
        if len(arrays) > 64:
            raise ValueError(f"Need at least 0 and at most 64 array objects; "
                             f"received {len(arrays)}")
        arrs = []
        for a in arrays:
            if isinstance(a, broadcast):
                arrs.extend(a.values)
            else:
                arrs.append(a if isinstance(a, _ca.ndarray) else _ca.asarray(a))
        self._values = tuple(_ca.broadcast_arrays(*arrs)) if arrs else ()
        self._shape = self._values[0].shape if arrs else ()
        self._size = int(_np.prod(self._shape, dtype=_np.int64))
        self._index = 0

    values = property(_operator.attrgetter("_values"))
    shape = property(_operator.attrgetter("_shape"))
    size = property(_operator.attrgetter("_size"))
    index = property(_operator.attrgetter("_index"))
    ndim = nd = property(lambda self: len(self._shape))
    numiter = property(lambda self: len(self._values))
    iters = property(lambda self: tuple(flatiter(v) for v in self._values))

    def reset(self):
        self._index = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._size:
            raise StopIteration
        idx = _np.unravel_index(self._index, self._shape) if self._shape else ()
        self._index += 1
        return tuple(v[idx] for v in self._values)


class flatiter:
    """flatiter(a): ``a.flat``, a flat (C order) view over an array's elements.

    ``a.flat[k]`` reads elements by flat index (an int, slice, Ellipsis, an
    integer or boolean array: a copy, as NumPy's); ``a.flat[k] = v`` writes
    them into ``a`` with ``v`` repeated cyclically, as NumPy's; iterating yields
    the elements in C order (0-d arrays).
    """

    __module__ = "cuarray"

    def __init__(self, a):
        if not isinstance(a, _ca.ndarray):
            raise TypeError(f"flatiter needs a cuarray.ndarray, not {type(a).__name__}")
        self._base = a
        self._index = 0

    base = property(_operator.attrgetter("_base"))
    index = property(_operator.attrgetter("_index"))

    @property
    def coords(self):
        if self._base.ndim == 0:
            return ()
        if self._index >= self._base.size:
            return tuple(self._base.shape)  # past the end, as NumPy's
        return tuple(int(i) for i in _np.unravel_index(self._index, self._base.shape))

    def __len__(self):
        return self._base.size

    def __iter__(self):
        return self

    def __next__(self):
        if self._index >= self._base.size:
            raise StopIteration
        i = self._index
        self._index += 1
        return self._base.reshape(-1)[i] if self._base.flags.c_contiguous else \
            self._base[tuple(int(j) for j in _np.unravel_index(i, self._base.shape))]

    def copy(self):
        """A flat (1-d) copy of the base array."""
        return self._base.flatten()

    def _key(self, key):
        if isinstance(key, tuple):
            if len(key) != 1:
                raise IndexError("unsupported iterator index")
            key = key[0]
        if isinstance(key, (list, _np.ndarray)):
            key = _ca.asarray(key, device=self._base.device)
        return key

    def __getitem__(self, key):
        key = self._key(key)
        flat = self._base.reshape(-1)
        r = _flat_index(flat, key)
        if not isinstance(key, _ca.ndarray) and flat.base is not None:
            # flat views the base (contiguous or uniformly strided, as a[:, ::2]
            # of a 4x6): NumPy's flat indexing makes new arrays
            r = r.copy()
        return r

    def __setitem__(self, key, value):
        key = self._key(key)
        n = self._base.size
        idx = _flat_index(_ca.arange(n, device=self._base.device), key)
        _ca.put(self._base, idx, value)

    def __repr__(self):
        return f"<cuarray.flatiter of {self._base.shape} {self._base.dtype} array>"


def _flat_index(flat, key):
    """flat[key], an out-of-range index in NumPy's flatiter words (no axis)."""
    try:
        return flat[key]
    except IndexError as e:
        raise IndexError(str(e).replace(" for axis 0 with size ", " for size ")) \
            from None

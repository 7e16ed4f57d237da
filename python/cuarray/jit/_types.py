"""The types a jit kernel's values have, and CuPy's rules for combining them.

A kernel is specialised on its arguments' types: a cuarray array is an
``Array`` (dtype, ndim, whether a 1-D array is contiguous), a scalar a
``Scalar`` (a NumPy dtype). Inside the kernel, literals are typed by the
kernel's mode as CuPy's ``cupyx.jit`` types them: in ``mode='cuda'`` (the
default) a Python int is int32 (int64 when it does not fit) and a float is
float32; in ``mode='numpy'`` they are int64 and float64. Binary operations
take CuPy's types too: in 'cuda' mode the later of the two operand types in
the order ``? b B h H i I l L e f d`` (C's usual conversions, without
promoting small integers to int); in 'numpy' mode NumPy's own promotion.
"""

import numpy

from .._kernel import _ctype

# CuPy's 'cuda' mode orders the scalar types like this: an operation on two
# of them computes in the later one (int32 and uint32 in uint32, int64 and
# float16 in float16, as its _cuda_can_cast decides).
_CUDA_ORDER = "?bBhHiIlLefd"
_SUPPORTED = "?bBhHiIlLqQefd"


def _norm(dtype):
    """The dtype with its canonical character (int64 is 'l' on Linux, never 'q')."""
    return numpy.dtype(numpy.dtype(dtype).str) if numpy.dtype(dtype).kind != "b" else \
        numpy.dtype(numpy.bool_)


class Type:
    """A C type of a value in a kernel."""

    ctype = None

    def __eq__(self, other):
        return type(self) is type(other) and self._key() == other._key()

    def __hash__(self):
        return hash((type(self).__name__, self._key()))

    def _key(self):
        return ()


class Scalar(Type):
    """A scalar of a NumPy dtype (bool, integers, float16/32/64)."""

    def __init__(self, dtype):
        d = numpy.dtype(dtype)
        if d.char not in _SUPPORTED:
            raise TypeError(f"cuarray.jit kernels do not support dtype {d} (supported: "
                            "bool, integers, float16, float32, float64)")
        self.dtype = _norm(d)
        self.ctype = _ctype(self.dtype)

    def _key(self):
        return (self.dtype.char,)

    def __repr__(self):
        return str(self.dtype)


class Array(Type):
    """A cuarray array argument: `CArray<T, ndim>` (data pointer, size, shape
    and byte strides); `contiguous` only for a 1-D array with unit stride,
    which is then indexed as a plain pointer."""

    def __init__(self, dtype, ndim, contiguous=False):
        self.elem = Scalar(dtype)
        self.ndim = ndim
        self.contiguous = bool(contiguous and ndim == 1)
        self.ctype = f"CArray<{self.elem.ctype}, {ndim}>"

    def _key(self):
        return (self.elem.dtype.char, self.ndim, self.contiguous)

    def __repr__(self):
        c = ", contiguous" if self.contiguous else ""
        return f"Array({self.elem.dtype}, {self.ndim}d{c})"


class Shared(Type):
    """A 1-D shared-memory array from shared_memory(dtype, size): `T *`."""

    def __init__(self, dtype):
        self.elem = Scalar(dtype)
        self.ndim = 1
        self.ctype = f"{self.elem.ctype} *"

    def _key(self):
        return (self.elem.dtype.char,)

    def __repr__(self):
        return f"Shared({self.elem.dtype})"


class Dim3(Type):
    """threadIdx, blockIdx (uint3) and blockDim, gridDim (dim3): .x, .y, .z are
    uint32."""

    ctype = "dim3"

    def __repr__(self):
        return "dim3"


class Void(Type):
    ctype = "void"

    def __repr__(self):
        return "void"


VOID = Void()
DIM3 = Dim3()
BOOL = Scalar(numpy.bool_)
INT32 = Scalar(numpy.int32)
UINT32 = Scalar(numpy.uint32)
INT64 = Scalar(numpy.int64)
FLOAT64 = Scalar(numpy.float64)


# ---- the type of an argument, of a literal ------------------------------------------


def const_dtype(mode, value):
    """The dtype a Python literal (or global constant) has in a kernel."""
    if isinstance(value, numpy.generic):
        return _norm(value.dtype)
    if isinstance(value, (bool, numpy.bool_)):
        return numpy.dtype(numpy.bool_)
    if isinstance(value, int):
        if mode == "cuda" and -(1 << 31) <= value < (1 << 31):
            return numpy.dtype(numpy.int32)
        if -(1 << 63) <= value < (1 << 63):
            return numpy.dtype(numpy.int64)
        if 0 <= value < (1 << 64):
            return numpy.dtype(numpy.uint64)
        raise OverflowError(f"the integer {value} does not fit in 64 bits")
    if isinstance(value, float):
        return numpy.dtype(numpy.float32 if mode == "cuda" else numpy.float64)
    if isinstance(value, complex):
        raise TypeError("cuarray.jit kernels do not support complex values")
    raise TypeError(f"{type(value).__name__} is not a scalar")


# ---- combining types ----------------------------------------------------------------


def promote(mode, a, b):
    """The dtype an arithmetic operation on dtypes `a` and `b` computes in."""
    a, b = _norm(a), _norm(b)
    if mode == "numpy":
        return _norm(numpy.promote_types(a, b))
    ia, ib = _CUDA_ORDER.index(a.char), _CUDA_ORDER.index(b.char)
    return a if ia >= ib else b


def true_divide(mode, a, b):
    """The dtype of a / b: integers divide in a floating type (float64, or in
    'cuda' mode float32 for two int8/uint8/int16/uint16 of one type, as CuPy's
    table has it; in 'numpy' mode NumPy's true_divide loops)."""
    a, b = _norm(a), _norm(b)
    if mode == "numpy":
        return _norm(numpy.true_divide.resolve_dtypes((a, b, None))[2])
    t = promote(mode, a, b)
    if t.kind in "biu":
        small = a == b and a.char in "bBhH"
        return numpy.dtype(numpy.float32 if small else numpy.float64)
    return t


def float_result(mode, dtype):
    """The dtype of a floating math function (sqrt, exp, ...) of `dtype`:
    floats keep theirs; integers and bool give float64 (in 'numpy' mode what
    NumPy's sqrt gives: float16 for 8-bit, float32 for 16-bit integers)."""
    d = _norm(dtype)
    if d.kind == "f":
        return d
    if mode == "numpy":
        return _norm(numpy.sqrt.resolve_dtypes((d, None))[1])
    return numpy.dtype(numpy.float64)


def can_store(src, dst):
    """Whether a value of dtype `src` may be stored into `dst` (NumPy's
    'same_kind' casting, as CuPy's jit requires)."""
    return numpy.can_cast(_norm(src), _norm(dst), casting="same_kind")


def arg_type(mode, x, ndarray):
    """The Type of kernel argument `x` (a cuarray array or a scalar)."""
    if isinstance(x, ndarray):
        d = numpy.dtype(x.dtype)
        if d.kind == "c":
            raise TypeError("cuarray.jit kernels do not support complex arrays")
        contiguous = x.ndim == 1 and (x.shape[0] <= 1 or x.strides[0] == d.itemsize)
        return Array(d, x.ndim, contiguous)
    if isinstance(x, (bool, int, float, complex, numpy.generic)):
        return Scalar(const_dtype(mode, x))
    raise TypeError(f"a jit kernel argument must be a cuarray array, a NumPy scalar or "
                    f"a Python bool, int or float, not {type(x).__name__}")

"""The values a jit kernel's translation computes with, and their C literals.

Every value is one of: an ``Expr`` (C code and its Type), a ``Const`` (a
Python number known while translating: literals, global constants, folded
operations), a ``Tup`` (a tuple of values: grid(2), x.shape) or a ``PyObj``
(a Python object the code names: a module, a builtin, a dtype).
"""

import math

import numpy

from . import _types


class Expr:
    __slots__ = ("code", "type")

    def __init__(self, code, type_):
        self.code, self.type = code, type_


class Const:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


class Tup:
    __slots__ = ("items",)

    def __init__(self, items):
        self.items = list(items)


class PyObj:
    __slots__ = ("obj",)

    def __init__(self, obj):
        self.obj = obj


def _c_int(v, dtype):
    """A C literal of integer `v` in `dtype`."""
    ct = _types.Scalar(dtype).ctype
    c = dtype.char
    if c == "i":
        return str(v) if v >= 0 else (f"({v})" if v > -(1 << 31) else "(-2147483647 - 1)")
    if c == "l":
        return f"{v}LL" if v >= 0 else (f"({v}LL)" if v > -(1 << 63)
                                        else "(-9223372036854775807LL - 1)")
    if c == "I":
        return f"{v}u"
    if c == "L":
        return f"{v}ull"
    return f"(({ct}){v})"


def _c_float(v, dtype):
    """A C literal of float `v` in `dtype` (exact: float32 values are rounded
    first, infinities and NaN are bit patterns)."""
    if dtype.char == "e":
        return f"__float2half({_c_float(v, numpy.dtype(numpy.float32))})"
    f32 = dtype.char == "f"
    v = float(numpy.float32(v)) if f32 else float(v)
    if math.isinf(v) or math.isnan(v):
        if f32:
            bits = "0x7fc00000" if math.isnan(v) else ("0x7f800000" if v > 0
                                                       else "0xff800000")
            return f"__int_as_float({bits})"
        bits = "0x7ff8000000000000LL" if math.isnan(v) else (
            "0x7ff0000000000000LL" if v > 0 else "(long long)0xfff0000000000000ULL")
        return f"__longlong_as_double({bits})"
    r = repr(v)
    if "." not in r and "e" not in r:
        r += ".0"
    r += "f" if f32 else ""
    return f"({r})" if v < 0 else r


def _unparen(code):
    """`code` without one pair of parentheses around all of it."""
    if not (code.startswith("(") and code.endswith(")")):
        return code
    depth = 0
    for k, ch in enumerate(code):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0 and k < len(code) - 1:
            return code
    return code[1:-1]


def literal(value, dtype):
    """A C literal of Python number `value` as `dtype`."""
    dtype = numpy.dtype(dtype)
    if dtype.kind == "b":
        return "true" if value else "false"
    if dtype.kind in "iu":
        v = int(value)
        info = numpy.iinfo(dtype)
        if not info.min <= v <= info.max:
            raise OverflowError(f"the constant {value} does not fit in {dtype}")
        return _c_int(v, dtype)
    return _c_float(value, dtype)


def cast(code, src, dst):
    """C code converting `code` of dtype `src` to dtype `dst` (float16 through
    float, as cuda_fp16.h converts)."""
    src, dst = numpy.dtype(src), numpy.dtype(dst)
    if src == dst:
        return code
    dct = _types.Scalar(dst).ctype
    if dst.char == "e":
        if src.char == "d":
            return f"__double2half({code})"
        return f"__float2half((float)({code}))"
    if src.char == "e":
        f = f"__half2float({code})"
        return f if dst.char == "f" else f"(({dct}){f})"
    return f"(({dct})({code}))"

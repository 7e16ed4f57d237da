"""Math functions in jit kernels: cuarray's, NumPy's and the math module's
functions of scalars, mapped to CUDA's math library.

Types follow NumPy's functions (math.floor and friends too, which in Python
return int): floating functions keep a float argument's type and compute
integers in float64 (in ``mode='numpy'`` in NumPy's type, float16 for 8-bit
integers); float32 calls CUDA's ``sqrtf`` family, float16 computes in float32
and rounds once.
"""

import math

import numpy

from . import _types

# name -> (kind, CUDA's double-precision name)
_TABLE = {
    "sqrt": ("float1", "sqrt"), "cbrt": ("float1", "cbrt"), "exp": ("float1", "exp"),
    "exp2": ("float1", "exp2"), "expm1": ("float1", "expm1"), "log": ("float1", "log"),
    "log2": ("float1", "log2"), "log10": ("float1", "log10"),
    "log1p": ("float1", "log1p"), "sin": ("float1", "sin"), "cos": ("float1", "cos"),
    "tan": ("float1", "tan"), "arcsin": ("float1", "asin"),
    "arccos": ("float1", "acos"), "arctan": ("float1", "atan"),
    "sinh": ("float1", "sinh"), "cosh": ("float1", "cosh"), "tanh": ("float1", "tanh"),
    "arcsinh": ("float1", "asinh"), "arccosh": ("float1", "acosh"),
    "arctanh": ("float1", "atanh"), "floor": ("float1", "floor"),
    "ceil": ("float1", "ceil"), "trunc": ("float1", "trunc"), "rint": ("float1", "rint"),
    "erf": ("float1", "erf"), "erfc": ("float1", "erfc"),
    "lgamma": ("float1", "lgamma"), "tgamma": ("float1", "tgamma"),
    "arctan2": ("float2", "atan2"), "hypot": ("float2", "hypot"),
    "copysign": ("float2", "copysign"), "fmod": ("fmod", "fmod"),
    "power": ("power", None), "absolute": ("abs", None), "fabs": ("fabs", "fabs"),
    "minimum": ("min", "_jit_min"), "maximum": ("max", "_jit_max"),
    "fmin": ("fmin", "fmin"), "fmax": ("fmax", "fmax"),
    "isnan": ("pred", "isnan"), "isinf": ("pred", "isinf"),
    "isfinite": ("pred", "isfinite"), "signbit": ("pred", "signbit"),
    "square": ("square", None),
}
# the math module's spellings
_MATH_NAMES = {
    "asin": "arcsin", "acos": "arccos", "atan": "arctan", "asinh": "arcsinh",
    "acosh": "arccosh", "atanh": "arctanh", "atan2": "arctan2", "gamma": "tgamma",
    "pow": "power",
}
_by_id = None


def _objects():
    import cuarray
    table = {}
    for name in _TABLE:
        for mod in (numpy, cuarray):
            obj = getattr(mod, name, None)
            if obj is not None:
                table[id(obj)] = (name, obj)
    # NumPy 2's (and cuarray's) aliases spelled as the math module spells them
    for name, alias_of in _MATH_NAMES.items():
        for mod in (numpy, cuarray):
            obj = getattr(mod, name, None)
            if callable(obj):
                table.setdefault(id(obj), (alias_of, obj))
    for name in set(_TABLE) | set(_MATH_NAMES):
        obj = getattr(math, name, None)
        if callable(obj):
            table[id(obj)] = (_MATH_NAMES.get(name, name), obj)
    for mod in (numpy, cuarray):
        obj = getattr(mod, "abs", None)
        if callable(obj):
            table.setdefault(id(obj), ("absolute", obj))
    table[id(abs)] = ("absolute", abs)
    table[id(min)] = ("minimum", min)
    table[id(max)] = ("maximum", max)
    return table


def lookup(obj):
    """The table name of math function `obj`, or None."""
    global _by_id
    if _by_id is None:
        _by_id = _objects()
    hit = _by_id.get(id(obj))
    return hit[0] if hit is not None and hit[1] is obj else None


def _call_float(fname, dtype, codes):
    """CUDA's `fname` (double-precision name) at float `dtype` on `codes`."""
    if dtype.char == "d":
        return f"{fname}({', '.join(codes)})"
    if dtype.char == "f":
        return f"{fname}f({', '.join(codes)})"
    inner = ", ".join(f"__half2float({c})" for c in codes)
    return f"__float2half({fname}f({inner}))"


def emit(tr, name, args, kwargs):
    """The value of math function `name` on the argument values."""
    kind, fname = _TABLE[name]
    if kwargs:
        raise TypeError(f"{name}() takes no keyword arguments in a jit kernel")
    want = 1 if kind in ("float1", "abs", "fabs", "pred", "square") else 2
    if kind in ("min", "max") and len(args) >= 2:
        return _fold(tr, name, args)
    if len(args) != want:
        raise TypeError(f"{name}() takes {want} arguments in a jit kernel, got "
                        f"{len(args)}")
    dts = [tr.dtype(a) for a in args]
    if kind == "float1":
        t = _types.float_result(tr.mode, dts[0])
        return tr.expr(_call_float(fname, t, [tr.operand(args[0], t)]), _types.Scalar(t))
    if kind == "pred":
        if dts[0].kind != "f":
            return tr.const(name == "isfinite")
        code = f"{fname}({tr.operand(args[0], dts[0])})"
        if dts[0].char == "e":
            code = f"{fname}(__half2float({tr.operand(args[0], dts[0])}))"
        return tr.expr(f"((bool){code})", _types.BOOL)
    if kind in ("abs", "fabs", "square"):
        t = _types.float_result(tr.mode, dts[0]) if kind == "fabs" else dts[0]
        a = tr.operand(args[0], t)
        if kind == "square":
            return tr.binop_typed("*", args[0], args[0], t)
        if t.kind == "b":
            return tr.expr(a, _types.Scalar(t))
        if t.kind == "u":
            return tr.expr(a, _types.Scalar(t))
        if t.kind == "i":
            return tr.expr(tr.wrap(f"({a} < 0 ? -{a} : {a})", t), _types.Scalar(t))
        return tr.expr(_call_float("fabs", t, [a]), _types.Scalar(t))
    if kind == "power":
        return tr.binop("**", args[0], args[1])
    t = _types.promote(tr.mode, dts[0], dts[1])
    if kind in ("float2", "fmin", "fmax") or (kind == "fmod" and t.kind == "f"):
        if kind in ("fmin", "fmax") and t.kind != "f":
            return _fold(tr, "minimum" if kind == "fmin" else "maximum", args)
        t = _types.float_result(tr.mode, t)
        codes = [tr.operand(a, t) for a in args]
        return tr.expr(_call_float(fname, t, codes), _types.Scalar(t))
    if kind == "fmod":  # integers: C's remainder, 0 for a zero divisor as NumPy
        a, b = (tr.operand(x, t) for x in args)
        return tr.expr(tr.wrap(f"({b} == 0 ? 0 : {a} % {b})", t), _types.Scalar(t))
    raise AssertionError(kind)


def _fold(tr, name, args):
    """minimum/maximum (and min()/max() of several values): NumPy's, NaN
    propagating."""
    helper = "_jit_min" if name == "minimum" else "_jit_max"
    tr.need("minmax")
    acc = args[0]
    for b in args[1:]:
        t = _types.promote(tr.mode, tr.dtype(acc), tr.dtype(b))
        acc = tr.expr(f"{helper}<{_types.Scalar(t).ctype}>({tr.operand(acc, t)}, "
                      f"{tr.operand(b, t)})", _types.Scalar(t))
    return acc

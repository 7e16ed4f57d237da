"""Python source of a jit kernel -> CUDA C++, for one tuple of argument types.

The function's AST is walked once per argument-type signature. Every value
is one of: an ``Expr`` (C code and its Type), a ``Const`` (a Python number
known while translating: literals, global constants, folded operations), a
``Tup`` (a tuple of values: grid(2), x.shape) or a ``PyObj`` (a Python object
the code names: a module, a builtin, a dtype). Python's local variables live
in the whole function, so their C declarations are hoisted to its top with
the type of their first assignment; a later assignment must cast to it with
NumPy's 'same_kind' rule (CuPy's). Unsupported syntax raises
NotImplementedError, wrong types TypeError, bad constant values ValueError,
each naming the kernel's file and line.
"""

import ast
import builtins
import inspect
import math
import operator
import textwrap

import numpy

from . import _builtins, _mathfuncs, _types

# ---- values ---------------------------------------------------------------------------


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


# the errors a translation raises, given the kernel's file and line
_LOCATED = (TypeError, ValueError, NotImplementedError, OverflowError, NameError,
            AttributeError, IndexError)

# what the error message calls a node the translator does not take
_CONSTRUCTS = {
    ast.ListComp: "a list comprehension", ast.SetComp: "a set comprehension",
    ast.DictComp: "a dict comprehension", ast.GeneratorExp: "a generator expression",
    ast.Lambda: "lambda", ast.FunctionDef: "a nested function definition",
    ast.AsyncFunctionDef: "an async function", ast.ClassDef: "a class definition",
    ast.With: "a with statement", ast.Try: "a try statement", ast.Raise: "raise",
    ast.Assert: "assert", ast.Import: "import", ast.ImportFrom: "import",
    ast.Global: "global", ast.Nonlocal: "nonlocal", ast.Delete: "del",
    ast.Yield: "yield", ast.YieldFrom: "yield from", ast.Await: "await",
    ast.List: "a list", ast.Dict: "a dict", ast.Set: "a set",
    ast.JoinedStr: "an f-string", ast.NamedExpr: "an assignment expression (:=)",
    ast.Starred: "a starred expression", ast.Slice: "a slice",
    ast.AnnAssign: "an annotated assignment", ast.Match: "a match statement",
}
if hasattr(ast, "TryStar"):
    _CONSTRUCTS[ast.TryStar] = "a try statement"

_BINOPS = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
    ast.Mod: "%", ast.Pow: "**", ast.LShift: "<<", ast.RShift: ">>", ast.BitOr: "|",
    ast.BitAnd: "&", ast.BitXor: "^",
}
_PYOPS = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
    "//": operator.floordiv, "%": operator.mod, "**": operator.pow,
    "<<": operator.lshift, ">>": operator.rshift, "|": operator.or_, "&": operator.and_,
    "^": operator.xor, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
_CMPOPS = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
           ast.NotEq: "!="}

# C++ keywords and the names generated code uses: a Python variable named so
# gets a prefix
_RESERVED = set("""
alignas alignof and and_eq asm auto bitand bitor bool break case catch char char16_t
char32_t char8_t class compl concept const consteval constexpr constinit const_cast
continue co_await co_return co_yield decltype default delete do double dynamic_cast
else enum explicit export extern false float for friend goto if inline int long
mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected
public register reinterpret_cast requires return short signed sizeof static
static_assert static_cast struct switch template this thread_local throw true try
typedef typeid typename union unsigned using virtual void volatile wchar_t while xor
xor_eq threadIdx blockIdx blockDim gridDim warpSize dim3 uint3 CArray CIndexer main
printf malloc free assert isnan isinf isfinite signbit min max abs fabs fabsf floor
ceil trunc rint sqrt cbrt exp exp2 expm1 log log2 log10 log1p sin cos tan asin acos
atan sinh cosh tanh asinh acosh atanh erf erfc lgamma tgamma atan2 hypot copysign
fmod pow fmin fmax
""".split())
_RESERVED |= {n + "f" for n in _RESERVED}  # CUDA's float32 math names (sqrtf, ...)


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


class Translator:
    """Translates one Python function for one tuple of argument Types.
    ``source()`` returns the CUDA C++ of the whole module (helpers and the
    kernel); ``name`` is the C function's name."""

    def __init__(self, func, mode, arg_types, name=None, device=False, registry=None):
        self.func, self.mode, self.arg_types = func, mode, tuple(arg_types)
        self.device = device
        self.name = name or self._c_func_name(func.__name__)
        # device functions this kernel calls, shared by every translator of a
        # module: key -> (name, code, return type)
        self.registry = registry if registry is not None else {}
        self.needs = set()
        self.decls = {}         # C name -> Type of the hoisted local variables
        self.shared = []        # __shared__ declarations
        self.env = {}           # Python name -> value
        self.body = []
        self.depth = 1
        self.tmp = 0
        self.ret_type = None    # a device function's return type, when translated
        self.returns = []       # (body line, indent, value) of each `return value`
        self.void_return = False
        self.filename = inspect.getsourcefile(func) or "<unknown>"
        self._parse()

    # ---- setup ----------------------------------------------------------------------

    @staticmethod
    def _c_func_name(name):
        return name if name not in _RESERVED and not name.startswith("_jit") else \
            "_jit_k_" + name

    def _parse(self):
        try:
            lines, start = inspect.getsourcelines(self.func)
        except (OSError, TypeError) as e:
            raise ValueError(f"cuarray.jit needs the source of {self.func.__name__} "
                             f"(inspect could not find it: {e})") from None
        tree = ast.parse(textwrap.dedent("".join(lines)))
        ast.increment_lineno(tree, start - 1)
        self.lines = {start + i: s.rstrip() for i, s in enumerate(lines)}
        fdef = tree.body[0]
        if not isinstance(fdef, ast.FunctionDef):
            raise NotImplementedError(f"cuarray.jit.rawkernel takes a function, not "
                                      f"{type(fdef).__name__}")
        self.fdef = fdef
        a = fdef.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.defaults or a.posonlyargs:
            raise NotImplementedError(self._where(
                "*args, **kwargs, keyword-only, positional-only and default arguments "
                "are", fdef))
        self.params = [p.arg for p in a.args]
        if len(self.params) != len(self.arg_types):
            raise TypeError(f"{self.func.__name__}() takes {len(self.params)} arguments, "
                            f"got {len(self.arg_types)}")
        closure = inspect.getclosurevars(self.func)
        self.scope = dict(self.func.__globals__)
        self.scope.update(closure.nonlocals)

    def _where(self, what, node):
        line = getattr(node, "lineno", None)
        text = self.lines.get(line, "").strip()
        return (f"{what} not supported in cuarray.jit kernels ({self.filename}, line "
                f"{line}, in {self.func.__name__}: {text})")

    def _locate(self, e, node):
        """`e` again with the kernel's file and line (once: the innermost
        statement's)."""
        if getattr(e, "_jit_located", False):
            return e
        line = getattr(node, "lineno", None)
        text = self.lines.get(line, "").strip()
        new = type(e)(f"{e} ({self.filename}, line {line}, in {self.func.__name__}: "
                      f"{text})")
        new._jit_located = True
        return new

    # ---- helpers for _builtins and _mathfuncs -----------------------------------------

    def expr(self, code, type_):
        return Expr(code, type_)

    def tup(self, items):
        return Tup(items)

    def const(self, value):
        return Const(value)

    def need(self, helper):
        self.needs.add(helper)

    def is_const(self, v):
        return isinstance(v, Const)

    def dtype(self, v):
        """The dtype of scalar value `v` (a literal's by the mode)."""
        if isinstance(v, Const):
            return _types.const_dtype(self.mode, v.value)
        if isinstance(v, Expr) and isinstance(v.type, _types.Scalar):
            return v.type.dtype
        raise TypeError(f"expected a scalar, got {self._describe(v)}")

    def value_of(self, v):
        """`v` as an Expr (a literal typed by the mode)."""
        if isinstance(v, Const):
            d = self.dtype(v)
            return Expr(literal(v.value, d), _types.Scalar(d))
        if isinstance(v, Expr):
            return v
        raise TypeError(f"expected a scalar, got {self._describe(v)}")

    def operand(self, v, dtype):
        """C code of scalar `v` converted to `dtype`."""
        if isinstance(v, Const):
            if isinstance(v.value, (bool, int, float, numpy.generic)):
                return literal(v.value, dtype)
            raise TypeError(f"expected a number, got {v.value!r}")
        return cast(self.value_of(v).code, self.dtype(v), dtype)

    def stored(self, v, dtype, what):
        """`v` converted for storing into `dtype`: 'same_kind' casting."""
        src = self.dtype(v)
        if not isinstance(v, Const) and not _types.can_store(src, dtype):
            raise TypeError(f"{what}: cannot store {src} into {dtype} (NumPy's "
                            "'same_kind' casting; convert explicitly, e.g. "
                            f"numpy.{numpy.dtype(dtype).name}(x))")
        if isinstance(v, Const) and numpy.dtype(dtype).kind in "biu" and \
                isinstance(v.value, float):
            raise TypeError(f"{what}: cannot store the float {v.value} into {dtype}")
        return self.operand(v, dtype)

    def dtype_of(self, v, what):
        """A dtype named by value `v` (numpy.float32, 'float32', a dtype)."""
        obj = v.obj if isinstance(v, PyObj) else (v.value if isinstance(v, Const)
                                                  else None)
        try:
            return _types.Scalar(numpy.dtype(obj)).dtype
        except TypeError:
            raise TypeError(f"{what} must name a dtype, not {obj!r}") from None

    def wrap(self, code, dtype):
        """`code` of an int operation, narrowed back to `dtype` when C would
        compute it in int (8- and 16-bit integers, bool)."""
        if dtype.kind in "biu" and dtype.itemsize < 4:
            return f"(({_types.Scalar(dtype).ctype})({code}))"
        return code

    def new_tmp(self, prefix="t"):
        self.tmp += 1
        return f"_{prefix}{self.tmp}"

    def static_shared(self, dtype, size):
        name = self.new_tmp("smem")
        t = _types.Shared(dtype)
        self.shared.append(f"__shared__ {t.elem.ctype} {name}[{size}];")
        return Expr(name, t)

    def dynamic_shared(self, dtype):
        self.need("dynamic_shared")
        t = _types.Shared(dtype)
        return Expr(f"reinterpret_cast<{t.elem.ctype} *>(_jit_dyn_smem)", t)

    def element(self, arr, index, what):
        """(C lvalue of arr[index], element Type)."""
        a = arr if isinstance(arr, Expr) else None
        if a is None or not isinstance(a.type, (_types.Array, _types.Shared)):
            raise TypeError(f"{what}: {self._describe(arr)} is not an array")
        idx = index.items if isinstance(index, Tup) else [index]
        t = a.type
        if len(idx) != t.ndim:
            if t.ndim > len(idx):
                raise NotImplementedError(
                    f"{what}: {len(idx)} indices into a {t.ndim}-D array give a "
                    f"sub-array, which jit kernels do not have: give {t.ndim} indices")
            raise TypeError(f"{what}: too many indices ({len(idx)}) for a "
                            f"{t.ndim}-D array")
        codes = []
        for k, i in enumerate(idx):
            if isinstance(i, Const) and isinstance(i.value, int) and \
                    not isinstance(i.value, bool):
                if i.value < 0 and isinstance(t, _types.Array):
                    codes.append(f"({a.code}.shape_[{k}] - {-i.value})")
                else:
                    codes.append(f"{i.value}LL" if i.value >= 0 else f"({i.value}LL)")
                continue
            d = self.dtype(i)
            if d.kind not in "iu":
                raise TypeError(f"{what}: array indices must be integers, not {d}")
            codes.append(cast(self.value_of(i).code, d, numpy.int64))
        ct = t.elem.ctype
        if isinstance(t, _types.Shared):
            return f"{a.code}[{codes[0]}]", t.elem
        if t.ndim == 0:
            return f"(*reinterpret_cast<{ct} *>({a.code}.data_))", t.elem
        if t.contiguous:
            return f"reinterpret_cast<{ct} *>({a.code}.data_)[{codes[0]}]", t.elem
        off = " + ".join(f"{c} * {a.code}.strides_[{k}]" for k, c in enumerate(codes))
        return f"(*reinterpret_cast<{ct} *>({a.code}.data_ + {off}))", t.elem

    def _describe(self, v):
        if isinstance(v, Expr):
            return f"a value of type {v.type}"
        if isinstance(v, Const):
            return f"the constant {v.value!r}"
        if isinstance(v, Tup):
            return f"a tuple of {len(v.items)}"
        return f"the Python object {v.obj!r}"

    # ---- output -------------------------------------------------------------------

    def emit(self, line):
        self.body.append("    " * self.depth + line)

    def source_body(self):
        """Translate the function; returns the C function's text."""
        params, inits = [], []
        for p, t in zip(self.params, self.arg_types):
            c = self._var_name(p)
            self.env[p] = Expr(c, t)
            if isinstance(t, _types.Array) and not self.device:
                nd = t.ndim
                params.append(f"char *_p_{c}, long long _sz_{c}" + "".join(
                    f", long long _sh_{c}_{d}" for d in range(nd)) + "".join(
                    f", long long _rs_{c}_{d}" for d in range(nd)))
                s = f"{t.ctype} {c}; {c}.data_ = _p_{c}; {c}.size_ = _sz_{c};"
                for d in range(nd):
                    s += f" {c}.shape_[{d}] = _sh_{c}_{d}; {c}.strides_[{d}] = _rs_{c}_{d};"
                inits.append("    " + s)
            else:
                params.append(f"{t.ctype} {c}")
        self.block(self.fdef.body)
        self._finish_returns()
        ret = self.ret_type
        decls = [f"    {t.ctype} {c};" for c, t in self.decls.items()]
        head = (f"__device__ {ret.ctype} {self.name}" if self.device
                else f'extern "C" __global__ void {self.name}')
        lines = [f"{head}({', '.join(params)}) {{"] + inits + \
            ["    " + s for s in self.shared] + decls + self.body + ["}"]
        return "\n".join(lines) + "\n"

    def _var_name(self, name):
        if name in _RESERVED or name.startswith("_"):
            return "_v" + name if name.startswith("_") else "_v_" + name
        return name

    # ---- statements ----------------------------------------------------------------

    def block(self, stmts):
        for s in stmts:
            try:
                self.stmt(s)
            except _LOCATED as e:
                raise self._locate(e, s) from None

    def stmt(self, s):
        m = getattr(self, "stmt_" + type(s).__name__, None)
        if m is None:
            what = _CONSTRUCTS.get(type(s), f"the statement {type(s).__name__}")
            raise NotImplementedError(self._where(what + " is", s))
        m(s)

    def stmt_Pass(self, s):
        pass

    def stmt_Break(self, s):
        self.emit("break;")

    def stmt_Continue(self, s):
        self.emit("continue;")

    def stmt_Expr(self, s):
        if isinstance(s.value, ast.Constant) and isinstance(s.value.value, str):
            return  # a docstring
        v = self.visit(s.value)
        if isinstance(v, Expr):
            self.emit(v.code + ";")

    def stmt_Return(self, s):
        if s.value is None or (isinstance(s.value, ast.Constant) and s.value.value is None):
            if self.returns:
                raise TypeError("a device function returns a value on one path and "
                                "nothing on another")
            self.void_return = True
            self.emit("return;")
            return
        if not self.device:
            raise TypeError("a jit kernel returns nothing: `return` takes no value "
                            "(write results into an array argument)")
        if self.void_return:
            raise TypeError("a device function returns a value on one path and "
                            "nothing on another")
        v = self.visit(s.value)
        self.dtype(v)  # a scalar
        # the return type is every returned value's, promoted: known at the end
        self.returns.append((len(self.body), "    " * self.depth, v))
        self.emit("")

    def _finish_returns(self):
        if not self.returns:
            self.ret_type = _types.VOID
            return
        rt = self.dtype(self.returns[0][2])
        for _, _, v in self.returns[1:]:
            rt = _types.promote(self.mode, rt, self.dtype(v))
        self.ret_type = _types.Scalar(rt)
        for k, indent, v in self.returns:
            self.body[k] = f"{indent}return {self.operand(v, rt)};"

    def stmt_Assign(self, s):
        v = self.visit(s.value)
        if len(s.targets) > 1 and isinstance(v, Expr) and isinstance(v.type, _types.Scalar):
            v = self._to_tmp(v)
        for t in s.targets:
            self.assign(t, v)

    def _to_tmp(self, v):
        name = self.new_tmp()
        self.decls[name] = v.type
        self.emit(f"{name} = {v.code};")
        return Expr(name, v.type)

    def assign(self, target, v):
        if isinstance(target, ast.Name):
            return self.assign_name(target.id, v)
        if isinstance(target, ast.Subscript):
            lv, elem = self.subscript_lvalue(target)
            self.emit(f"{lv} = {self.stored(v, elem.dtype, 'assignment')};")
            return
        if isinstance(target, ast.Tuple):
            if not isinstance(v, Tup):
                raise TypeError(f"cannot unpack {self._describe(v)} into "
                                f"{len(target.elts)} names")
            if len(v.items) != len(target.elts):
                raise ValueError(f"cannot unpack a tuple of {len(v.items)} into "
                                 f"{len(target.elts)} names")
            # every right-hand value is read before any name is written (a, b = b, a);
            # names not yet bound cannot be read by it
            items = v.items
            if any(isinstance(t, ast.Name) and t.id in self.env for t in target.elts):
                items = [self._to_tmp(x) if isinstance(x, Expr) and
                         isinstance(x.type, _types.Scalar) else x for x in items]
            for t, x in zip(target.elts, items):
                self.assign(t, x)
            return
        what = _CONSTRUCTS.get(type(target), f"assigning to {type(target).__name__}")
        raise NotImplementedError(self._where(what + " is", target))

    def assign_name(self, name, v):
        cur = self.env.get(name)
        if isinstance(v, (PyObj, Tup)) and (cur is None or isinstance(cur, (PyObj, Tup))):
            if isinstance(v, Tup):  # each item in a variable of its own
                v = Tup([self._bind_item(f"{name}_{k}", x) for k, x in enumerate(v.items)])
            self.env[name] = v
            return
        if isinstance(v, Const) and v.value is None:
            raise TypeError(f"cannot assign None to {name}")
        if cur is None or not isinstance(cur, Expr):
            t = _types.Scalar(self.dtype(v)) if not isinstance(v, Expr) else v.type
            if t == _types.VOID:
                raise TypeError(f"{name} = ...: the call returns nothing")
            c = self._var_name(name)
            while c in self.decls or any(isinstance(e, Expr) and e.code == c
                                         for e in self.env.values()):
                c = self.new_tmp("v_" + name)
            self.decls[c] = t
            self.env[name] = cur = Expr(c, t)
            if isinstance(v, Expr) and not isinstance(t, _types.Scalar):
                self.emit(f"{c} = {v.code};")
                return
        if isinstance(cur.type, _types.Scalar):
            self.emit(f"{cur.code} = {self.stored(v, cur.type.dtype, name)};")
        elif isinstance(v, Expr) and v.type == cur.type:
            self.emit(f"{cur.code} = {v.code};")
        else:
            raise TypeError(f"{name} has type {cur.type}; cannot assign "
                            f"{self._describe(v)} to it")

    def _bind_item(self, name, x):
        if isinstance(x, Expr) and isinstance(x.type, _types.Scalar):
            c = self.new_tmp("v_" + name)
            self.decls[c] = x.type
            self.emit(f"{c} = {x.code};")
            return Expr(c, x.type)
        return x

    def stmt_AugAssign(self, s):
        op = _BINOPS.get(type(s.op))
        if op is None:
            raise NotImplementedError(self._where(f"the operator {type(s.op).__name__} is",
                                                  s))
        rhs = self.visit(s.value)
        if isinstance(s.target, ast.Name):
            cur = self.env.get(s.target.id)
            if not isinstance(cur, Expr):
                raise TypeError(f"{s.target.id} is used before it is assigned")
            new = self.binop(op, cur, rhs)
            self.assign_name(s.target.id, new)
            return
        if isinstance(s.target, ast.Subscript):
            lv, elem = self.subscript_lvalue(s.target)
            ref = self.new_tmp("ref")
            self.emit(f"{{ {elem.ctype} &{ref} = {lv};")
            new = self.binop(op, Expr(ref, elem), rhs)
            self.emit(f"  {ref} = {self.stored(new, elem.dtype, 'augmented assignment')};"
                      " }")
            return
        raise NotImplementedError(self._where(
            f"augmented assignment to {type(s.target).__name__} is", s))

    def stmt_If(self, s):
        self.emit(f"if ({self.condition(s.test)}) {{")
        self.nested(s.body)
        orelse = s.orelse
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            e = orelse[0]
            try:
                cond = self.condition(e.test)
            except _LOCATED as ex:
                raise self._locate(ex, e) from None
            self.emit(f"}} else if ({cond}) {{")
            self.nested(e.body)
            orelse = e.orelse
        if orelse:
            self.emit("} else {")
            self.nested(orelse)
        self.emit("}")

    def nested(self, stmts):
        self.depth += 1
        self.block(stmts)
        self.depth -= 1

    def condition(self, node):
        """C code of a condition, without the outer parentheses (if (...))."""
        v = self.visit(node)
        if isinstance(v, Const):
            return "true" if v.value else "false"
        return _unparen(self.operand(v, numpy.dtype(numpy.bool_)))

    def stmt_While(self, s):
        if s.orelse:
            raise NotImplementedError(self._where("while ... else is", s))
        self.emit(f"while ({self.condition(s.test)}) {{")
        self.nested(s.body)
        self.emit("}")

    def stmt_For(self, s):
        if s.orelse:
            raise NotImplementedError(self._where("for ... else is", s))
        it = s.iter
        fn = self.visit(it.func) if isinstance(it, ast.Call) else None
        is_range = isinstance(fn, PyObj) and (fn.obj is builtins.range or
                                              fn.obj is _builtins.range_)
        if not is_range:
            raise NotImplementedError(self._where(
                "a for loop over anything but range() is", s))
        if not isinstance(s.target, ast.Name):
            raise NotImplementedError(self._where("a for loop target that is not a name "
                                                  "is", s))
        args = [self.visit(a) for a in it.args]
        kw = {k.arg: self.visit(k.value) for k in it.keywords}
        unroll = None
        if fn.obj is _builtins.range_:
            unroll = kw.pop("unroll", None)
        if kw:
            raise TypeError(f"range() got unexpected keyword arguments {sorted(kw)}")
        if not 1 <= len(args) <= 3:
            raise TypeError(f"range expected 1 to 3 arguments, got {len(args)}")
        start, stop, step = (Const(0), args[0], Const(1)) if len(args) == 1 else \
            (args[0], args[1], Const(1)) if len(args) == 2 else tuple(args)
        for v in (start, stop, step):
            if self.dtype(v).kind not in "iu":
                raise TypeError(f"range() takes integers, not {self.dtype(v)}")
        if isinstance(step, Const) and step.value == 0:
            raise ValueError("range() arg 3 must not be zero")
        # the loop variable's type: CuPy's (stop's in 'cuda' mode, int64 in 'numpy')
        lt = self.dtype(stop) if self.mode == "cuda" else numpy.dtype(numpy.int64)
        lt = _types.promote("cuda", lt, self.dtype(start)) if self.mode == "cuda" else lt
        name = s.target.id
        cur = self.env.get(name)
        if not isinstance(cur, Expr):
            self.assign_name(name, Expr("0", _types.Scalar(lt)))
            self.body.pop()  # the declaration alone: the loop initialises it
            cur = self.env[name]
        elif not isinstance(cur.type, _types.Scalar) or not _types.can_store(lt, cur.type.dtype):
            raise TypeError(f"the loop variable {name} has type {cur.type}, the range "
                            f"{lt}")
        vt = cur.type.dtype
        stop_c = self.new_tmp("stop")
        self.emit("{")
        self.depth += 1
        self.emit(f"const {_types.Scalar(vt).ctype} {stop_c} = {self.operand(stop, vt)};")
        if isinstance(step, Const):
            st = step.value
            cond = f"{cur.code} {'<' if st > 0 else '>'} {stop_c}"
            incr = f"{cur.code} += {self.operand(step, vt)}" if st != 1 else f"{cur.code}++"
        else:
            step_c = self.new_tmp("step")
            sd = self.dtype(step)
            self.emit(f"const {_types.Scalar(sd).ctype} {step_c} = "
                      f"{self.value_of(step).code};")
            cond = (f"{cur.code} < {stop_c}" if sd.kind == "u" else
                    f"({step_c} > 0 ? {cur.code} < {stop_c} : {cur.code} > {stop_c})")
            incr = f"{cur.code} += {step_c}"
        if unroll is not None:
            self.emit(self._pragma(unroll))
        self.emit(f"for ({cur.code} = {self.operand(start, vt)}; {cond}; {incr}) {{")
        self.nested(s.body)
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    def _pragma(self, unroll):
        if not isinstance(unroll, Const) or not isinstance(unroll.value, (bool, int)):
            raise TypeError("range's unroll must be a constant bool or int")
        u = unroll.value
        if u is True:
            return "#pragma unroll"
        if u is False:
            return "#pragma unroll 1"
        if not 1 <= u < (1 << 31):
            raise ValueError(f"range's unroll must be between 1 and 2**31 - 1, not {u}")
        return f"#pragma unroll {u}"

    # ---- expressions ----------------------------------------------------------------

    def visit(self, node):
        m = getattr(self, "expr_" + type(node).__name__, None)
        if m is None:
            what = _CONSTRUCTS.get(type(node), f"the expression {type(node).__name__}")
            raise NotImplementedError(self._where(what + " is", node))
        return m(node)

    def expr_Constant(self, n):
        v = n.value
        if v is None or isinstance(v, (bool, int, float)):
            return Const(v)
        if isinstance(v, str):
            return Const(v)  # a dtype name for shared_memory, ...
        raise NotImplementedError(self._where(f"the constant {v!r} is", n))

    def expr_Name(self, n):
        v = self.env.get(n.id)
        if v is not None:
            return v
        if n.id in self.scope:
            return self.from_python(self.scope[n.id], n.id)
        if hasattr(builtins, n.id):
            return self.from_python(getattr(builtins, n.id), n.id)
        raise NameError(f"name {n.id!r} is not defined (in {self.func.__name__})")

    def from_python(self, obj, name):
        """The value of a Python object a kernel names: numbers are constants
        (taken at the first call for these argument types, as CuPy does)."""
        if isinstance(obj, (bool, int, float, numpy.bool_, numpy.integer,
                            numpy.floating)):
            return Const(obj)
        if isinstance(obj, _builtins.Data):
            return Expr(obj.code, obj.type)
        return PyObj(obj)

    def expr_Attribute(self, n):
        base = self.visit(n.value)
        if isinstance(base, PyObj):
            try:
                return self.from_python(getattr(base.obj, n.attr), n.attr)
            except AttributeError:
                raise AttributeError(f"{base.obj!r} has no attribute {n.attr!r}") from None
        if isinstance(base, Expr):
            t = base.type
            if isinstance(t, _types.Dim3) and n.attr in ("x", "y", "z"):
                return Expr(f"{base.code}.{n.attr}", _types.UINT32)
            if isinstance(t, _types.Array):
                if n.attr == "shape":
                    return Tup(Expr(f"{base.code}.shape_[{k}]", _types.INT64)
                               for k in range(t.ndim))
                if n.attr == "strides":
                    return Tup(Expr(f"{base.code}.strides_[{k}]", _types.INT64)
                               for k in range(t.ndim))
                if n.attr == "size":
                    return Expr(f"{base.code}.size_", _types.INT64)
                if n.attr == "ndim":
                    return Const(t.ndim)
                if n.attr == "dtype":
                    return PyObj(t.elem.dtype)
            if isinstance(t, _types.Scalar) and n.attr in ("real",):
                return base
        raise NotImplementedError(self._where(
            f"the attribute .{n.attr} of {self._describe(base)} is", n))

    def expr_Tuple(self, n):
        return Tup(self.visit(e) for e in n.elts)

    def expr_Subscript(self, n):
        base = self.visit(n.value)
        if isinstance(base, Tup):
            i = self.visit(n.slice)
            if not isinstance(i, Const) or not isinstance(i.value, int):
                raise TypeError("a tuple (x.shape, grid(2), ...) is indexed by "
                                "constant integers only")
            try:
                return base.items[i.value]
            except IndexError:
                raise IndexError(f"tuple index {i.value} out of range") from None
        lv, elem = self.subscript_lvalue(n, base)
        return Expr(lv, elem)

    def subscript_lvalue(self, n, base=None):
        if base is None:
            base = self.visit(n.value)
        if isinstance(n.slice, ast.Slice) or (isinstance(n.slice, ast.Tuple) and any(
                isinstance(e, ast.Slice) for e in n.slice.elts)):
            raise NotImplementedError(self._where("slicing is", n))
        idx = self.visit(n.slice)
        return self.element(base, idx, "indexing")

    def expr_BinOp(self, n):
        op = _BINOPS.get(type(n.op))
        if op is None:
            raise NotImplementedError(self._where(
                f"the operator {type(n.op).__name__} is", n))
        return self.binop(op, self.visit(n.left), self.visit(n.right))

    def binop(self, op, a, b):
        if isinstance(a, Const) and isinstance(b, Const) and \
                not isinstance(a.value, str) and not isinstance(b.value, str):
            try:
                return Const(_PYOPS[op](a.value, b.value))
            except ZeroDivisionError:
                pass  # left to the kernel, as the GPU computes it
        da, db = self.dtype(a), self.dtype(b)
        if op == "/":
            t = _types.true_divide(self.mode, da, db)
            if t.char == "e":
                return self.binop_typed("/", a, b, t)
            return Expr(f"({self.operand(a, t)} / {self.operand(b, t)})", _types.Scalar(t))
        t = _types.promote(self.mode, da, db)
        if op in ("<<", ">>", "&", "|", "^") and t.kind not in "biu":
            raise TypeError(f"unsupported operand types for {op}: {da} and {db}")
        if op in ("<<", ">>") and t.kind == "b":
            t = numpy.dtype(numpy.int8 if self.mode == "numpy" else numpy.int32)
        if op == "-" and t.kind == "b":
            raise TypeError("numpy boolean subtract, the `-` operator, is not "
                            "supported, use the bitwise_xor, the `^` operator, instead")
        return self.binop_typed(op, a, b, t)

    def binop_typed(self, op, a, b, t):
        """a op b computed in dtype t."""
        x, y = self.operand(a, t), self.operand(b, t)
        ct = _types.Scalar(t).ctype
        if t.char == "e" and op in ("//", "%", "**"):
            f = numpy.dtype(numpy.float32)
            inner = self.binop_typed(op, Expr(cast(x, t, f), _types.Scalar(f)),
                                     Expr(cast(y, t, f), _types.Scalar(f)), f)
            return Expr(cast(inner.code, f, t), _types.Scalar(t))
        if op in ("//", "%"):
            # unsigned operands (and bool) have no sign to correct for
            self.need("floordiv" if op == "//" else "mod")
            u = "_u" if t.kind in "bu" else ""
            code = f"_jit_{'floordiv' if op == '//' else 'mod'}{u}<{ct}>({x}, {y})"
        elif op == "**":
            if t.kind == "f":
                code = f"pow{'f' if t.char == 'f' else ''}({x}, {y})"
            else:
                self.need("ipow")
                code = f"_jit_ipow<{ct}>({x}, {y})"
        else:
            code = self.wrap(f"({x} {op} {y})", t)
        return Expr(code, _types.Scalar(t))

    def expr_UnaryOp(self, n):
        v = self.visit(n.operand)
        if isinstance(v, Const) and isinstance(v.value, (bool, int, float, numpy.generic)):
            x = v.value
            if isinstance(n.op, ast.Not):
                return Const(not x)
            if isinstance(n.op, ast.USub):
                return Const(-x)
            if isinstance(n.op, ast.UAdd):
                return Const(+x)
            if isinstance(x, (bool, numpy.bool_)):
                return Const(not x)
            if isinstance(x, (int, numpy.integer)):
                return Const(~x)
        d = self.dtype(v)
        code = self.value_of(v).code
        if isinstance(n.op, ast.Not):
            return Expr(f"(!{cast(code, d, numpy.bool_)})", _types.BOOL)
        if isinstance(n.op, ast.UAdd):
            return v
        if isinstance(n.op, ast.USub):
            if d.kind == "b":
                raise TypeError("the numpy boolean negative, the `-` operator, is not "
                                "supported, use the `~` operator or logical_not")
            return Expr(self.wrap(f"(-{code})", d), _types.Scalar(d))
        if d.kind == "b":
            return Expr(f"(!{code})", _types.BOOL)
        if d.kind not in "iu":
            raise TypeError(f"bad operand type for unary ~: {d}")
        return Expr(self.wrap(f"(~{code})", d), _types.Scalar(d))

    def expr_BoolOp(self, n):
        op = "&&" if isinstance(n.op, ast.And) else "||"
        vals = [self.visit(v) for v in n.values]
        if all(isinstance(v, Const) for v in vals):
            r = vals[0].value
            for v in vals[1:]:
                r = (r and v.value) if op == "&&" else (r or v.value)
            return Const(bool(r))
        codes = [self.operand(v, numpy.dtype(numpy.bool_)) for v in vals]
        return Expr("(" + f" {op} ".join(codes) + ")", _types.BOOL)

    def expr_Compare(self, n):
        left = self.visit(n.left)
        parts = []
        for op, right_node in zip(n.ops, n.comparators):
            cop = _CMPOPS.get(type(op))
            if cop is None:
                raise NotImplementedError(self._where(
                    f"the comparison {type(op).__name__} is", n))
            right = self.visit(right_node)
            parts.append(self._compare(cop, left, right))
            left = right
        if all(isinstance(p, Const) for p in parts):
            return Const(all(p.value for p in parts))
        if len(parts) == 1:
            return parts[0]
        codes = [self.operand(p, numpy.dtype(numpy.bool_)) for p in parts]
        return Expr("(" + " && ".join(codes) + ")", _types.BOOL)

    def _compare(self, op, a, b):
        if isinstance(a, Const) and isinstance(b, Const):
            return Const(_PYOPS[op](a.value, b.value))
        t = _types.promote(self.mode, self.dtype(a), self.dtype(b))
        return Expr(f"({self.operand(a, t)} {op} {self.operand(b, t)})", _types.BOOL)

    def expr_IfExp(self, n):
        c = self.visit(n.test)
        if isinstance(c, Const):
            return self.visit(n.body if c.value else n.orelse)
        a, b = self.visit(n.body), self.visit(n.orelse)
        t = _types.promote(self.mode, self.dtype(a), self.dtype(b))
        return Expr(f"({self.operand(c, numpy.dtype(numpy.bool_))} ? "
                    f"{self.operand(a, t)} : {self.operand(b, t)})", _types.Scalar(t))

    def expr_Call(self, n):
        f = self.visit(n.func)
        if any(isinstance(a, ast.Starred) for a in n.args) or \
                any(k.arg is None for k in n.keywords):
            raise NotImplementedError(self._where("*args and **kwargs in a call are", n))
        args = [self.visit(a) for a in n.args]
        kwargs = {k.arg: self.visit(k.value) for k in n.keywords}
        if not isinstance(f, PyObj):
            raise TypeError(f"{self._describe(f)} is not callable")
        obj = f.obj
        if isinstance(obj, _builtins.Builtin):
            return obj.emit(self, args, kwargs)
        name = _mathfuncs.lookup(obj)
        if name is not None:
            return _mathfuncs.emit(self, name, args, kwargs)
        if obj is len:
            return self._len(args)
        if obj in (int, float, bool) or (isinstance(obj, type) and
                                         issubclass(obj, numpy.generic)):
            return self._cast(obj, args, kwargs)
        from ._rawkernel import JitRawKernel
        if isinstance(obj, JitRawKernel):
            return self._call_device(obj, args, kwargs)
        raise NotImplementedError(f"calling {getattr(obj, '__name__', repr(obj))} is not "
                                  "supported in cuarray.jit kernels")

    def _len(self, args):
        if len(args) != 1:
            raise TypeError(f"len() takes exactly one argument ({len(args)} given)")
        a = args[0]
        if isinstance(a, Tup):
            return Const(len(a.items))
        if isinstance(a, Expr) and isinstance(a.type, _types.Array):
            if a.type.ndim == 0:
                raise TypeError("len() of unsized array")
            return Expr(f"{a.code}.shape_[0]", _types.INT64)
        raise TypeError(f"len() of {self._describe(a)}")

    def _cast(self, obj, args, kwargs):
        if kwargs or len(args) != 1:
            raise TypeError(f"{obj.__name__}() takes one argument in a jit kernel")
        if obj is int:
            d = numpy.dtype(numpy.int64)
        elif obj is float:
            d = numpy.dtype(numpy.float64)
        elif obj is bool:
            d = numpy.dtype(numpy.bool_)
        else:
            d = _types.Scalar(obj).dtype
        v = args[0]
        if isinstance(v, Const):
            return Expr(literal(d.type(v.value), d), _types.Scalar(d))
        return Expr(self.operand(v, d), _types.Scalar(d))

    def _call_device(self, kern, args, kwargs):
        """A call of a @rawkernel(device=True) function: translated for these
        argument types once per module, as a __device__ function."""
        if kwargs:
            raise TypeError(f"{kern.__name__}() takes no keyword arguments")
        if not kern._device:
            raise TypeError(f"{kern.__name__} is a kernel: only functions decorated with "
                            "@rawkernel(device=True) can be called from a kernel")
        vals = [a if isinstance(a, Expr) else self.value_of(a) for a in args]
        types = tuple(v.type for v in vals)
        key = (id(kern), types)
        if key in self.registry:
            hit = self.registry[key]
            if hit is None:
                raise NotImplementedError(f"recursion ({kern.__name__}) is not supported "
                                          "in cuarray.jit kernels")
        else:
            self.registry[key] = None  # being translated: a recursive call is an error
            name = f"_jit_d{len(self.registry)}_{kern.__name__}"
            sub = Translator(kern._func, self.mode, types, name, device=True,
                             registry=self.registry)
            code = sub.source_body()
            self.needs |= sub.needs
            hit = (name, code, sub.ret_type)
            # in the order translations finish: a callee before its callers
            del self.registry[key]
            self.registry[key] = hit
        return Expr(f"{hit[0]}({', '.join(v.code for v in vals)})", hit[2])

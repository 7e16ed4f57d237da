"""Python source of a jit kernel -> CUDA C++, for one tuple of argument types.

The function's AST is walked once per argument-type signature (statements in
_statements.py, expressions in _expressions.py, values in _values.py).
Python's local variables live in the whole function, so their C declarations
are hoisted to its top with the type of their first assignment; a later
assignment must cast to it with NumPy's 'same_kind' rule (CuPy's).
Unsupported syntax raises NotImplementedError, wrong types TypeError, bad
constant values ValueError, each naming the kernel's file and line.
"""

import ast
import inspect
import textwrap

import numpy

from . import _types
from ._expressions import Expressions
from ._statements import Statements
from ._values import Const, Expr, PyObj, Tup, cast, literal

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


class Translator(Statements, Expressions):
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
            raise self._unsupported(
                "*args, **kwargs, keyword-only, positional-only and default arguments "
                "are", fdef)
        self.params = [p.arg for p in a.args]
        if len(self.params) != len(self.arg_types):
            raise TypeError(f"{self.func.__name__}() takes {len(self.params)} arguments, "
                            f"got {len(self.arg_types)}")
        closure = inspect.getclosurevars(self.func)
        self.scope = dict(self.func.__globals__)
        self.scope.update(closure.nonlocals)

    def _unsupported(self, what, node):
        """NotImplementedError: `what` ("lambda is") is not supported, at `node`."""
        line = getattr(node, "lineno", None)
        text = self.lines.get(line, "").strip()
        e = NotImplementedError(f"{what} not supported in cuarray.jit kernels "
                                f"({self.filename}, line {line}, in "
                                f"{self.func.__name__}: {text})")
        e._jit_located = True
        return e

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

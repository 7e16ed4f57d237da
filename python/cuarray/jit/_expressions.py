"""Expressions of a jit kernel -> C expressions (the Translator's half that
evaluates: names, attributes, indexing, operators with CuPy's types, calls of
builtins, math functions, casts and device functions)."""

import ast
import builtins
import inspect
import operator

import numpy

from . import _builtins, _mathfuncs, _types
from ._values import Const, Expr, PyObj, Tup, cast, literal

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


class Expressions:
    """Mixed into Translator: one ``expr_<Node>`` per expression it takes."""

    def visit(self, node):
        m = getattr(self, "expr_" + type(node).__name__, None)
        if m is None:
            what = _CONSTRUCTS.get(type(node), f"the expression {type(node).__name__}")
            raise self._unsupported(what + " is", node)
        return m(node)

    def expr_Constant(self, n):
        v = n.value
        if v is None or isinstance(v, (bool, int, float)):
            return Const(v)
        if isinstance(v, str):
            return Const(v)  # a dtype name for shared_memory, ...
        raise self._unsupported(f"the constant {v!r} is", n)

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
        raise self._unsupported(
            f"the attribute .{n.attr} of {self._describe(base)} is", n)

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
            raise self._unsupported("slicing is", n)
        idx = self.visit(n.slice)
        return self.element(base, idx, "indexing")

    def expr_BinOp(self, n):
        op = _BINOPS.get(type(n.op))
        if op is None:
            raise self._unsupported(
                f"the operator {type(n.op).__name__} is", n)
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
                raise self._unsupported(
                    f"the comparison {type(op).__name__} is", n)
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
            raise self._unsupported("*args and **kwargs in a call are", n)
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
        if inspect.isfunction(obj) and all(isinstance(a, Const) for a in args) and \
                all(isinstance(a, Const) for a in kwargs.values()):
            # a Python function of constants runs now, as CuPy does (a factory of
            # device functions: g(step)(x))
            r = obj(*[a.value for a in args], **{k: a.value for k, a in kwargs.items()})
            return self.from_python(r, getattr(obj, "__name__", "?"))
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
        key = (kern, types)  # the object itself: a factory's results come and go
        if key in self.registry:
            hit = self.registry[key]
            if hit is None:
                raise ValueError(f"{kern.__name__} calls itself for the same argument "
                                 "types: recursion is not supported in cuarray.jit "
                                 "kernels")
        else:
            self.registry[key] = None  # being translated: a recursive call is an error
            name = f"_jit_d{len(self.registry)}_{kern.__name__}"
            from ._translate import Translator  # (which imports this module)
            sub = Translator(kern._func, self.mode, types, name, device=True,
                             registry=self.registry)
            code = sub.source_body()
            self.needs |= sub.needs
            hit = (name, code, sub.ret_type)
            # in the order translations finish: a callee before its callers
            del self.registry[key]
            self.registry[key] = hit
        return Expr(f"{hit[0]}({', '.join(v.code for v in vals)})", hit[2])

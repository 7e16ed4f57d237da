"""Statements of a jit kernel -> C statements (the Translator's half that
walks statements: assignments, if/while/for, break/continue, return)."""

import ast
import builtins

import numpy

from . import _builtins, _types
from ._expressions import _BINOPS, _CONSTRUCTS, _LOCATED
from ._values import Const, Expr, PyObj, Tup, _unparen


class Statements:
    """Mixed into Translator: one ``stmt_<Node>`` per statement it takes."""

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
            raise self._unsupported(what + " is", s)
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
            if not isinstance(v, Tup):  # ValueError, as CuPy's
                raise ValueError(f"cannot unpack {self._describe(v)} into "
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
        raise self._unsupported(what + " is", target)

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
            raise self._unsupported(f"the operator {type(s.op).__name__} is",
                                                  s)
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
        raise self._unsupported(
            f"augmented assignment to {type(s.target).__name__} is", s)

    def stmt_If(self, s):
        test = self.visit(s.test)
        if isinstance(test, Const):
            # known while translating (a global, a closure's constant): only the
            # branch taken is translated, as CuPy does (device-function templates
            # recurse on it)
            self.block(s.body if test.value else s.orelse)
            return
        self.emit(f"if ({self._cond_code(test)}) {{")
        self.nested(s.body)
        orelse = s.orelse
        while len(orelse) == 1 and isinstance(orelse[0], ast.If):
            e = orelse[0]
            try:
                test = self.visit(e.test)
            except _LOCATED as ex:
                raise self._locate(ex, e) from None
            if isinstance(test, Const):  # the rest of the chain is known
                orelse = e.body if test.value else e.orelse
                break
            self.emit(f"}} else if ({self._cond_code(test)}) {{")
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
        return self._cond_code(self.visit(node))

    def _cond_code(self, v):
        if isinstance(v, Const):
            return "true" if v.value else "false"
        return _unparen(self.operand(v, numpy.dtype(numpy.bool_)))

    def stmt_While(self, s):
        if s.orelse:
            raise self._unsupported("while ... else is", s)
        self.emit(f"while ({self.condition(s.test)}) {{")
        self.nested(s.body)
        self.emit("}")

    def stmt_For(self, s):
        start, stop, step, unroll = self._range_of(s)
        # the loop variable's type: CuPy's (stop's in 'cuda' mode, int64 in 'numpy'),
        # wide enough for start too
        if self.mode == "cuda":
            lt = _types.promote("cuda", self.dtype(stop), self.dtype(start))
        else:
            lt = numpy.dtype(numpy.int64)
        name = s.target.id
        cur = self.env.get(name)
        if not isinstance(cur, Expr):
            self.assign_name(name, Expr("0", _types.Scalar(lt)))
            self.body.pop()  # the declaration alone: the loop initialises it
            cur = self.env[name]
        elif not isinstance(cur.type, _types.Scalar) or \
                not _types.can_store(lt, cur.type.dtype):
            raise TypeError(f"the loop variable {name} has type {cur.type}, the range "
                            f"{lt}")
        var, vt = cur.code, cur.type.dtype
        stop_c = self.new_tmp("stop")
        self.emit("{")  # a block for the bounds, which Python evaluates once
        self.depth += 1
        self.emit(f"const {_types.Scalar(vt).ctype} {stop_c} = {self.operand(stop, vt)};")
        if isinstance(step, Const):
            cond = f"{var} {'<' if step.value > 0 else '>'} {stop_c}"
            incr = f"{var}++" if step.value == 1 else f"{var} += {self.operand(step, vt)}"
        else:
            step_c = self.new_tmp("step")
            sd = self.dtype(step)
            self.emit(f"const {_types.Scalar(sd).ctype} {step_c} = "
                      f"{self.value_of(step).code};")
            cond = (f"{var} < {stop_c}" if sd.kind == "u" else
                    f"({step_c} > 0 ? {var} < {stop_c} : {var} > {stop_c})")
            incr = f"{var} += {step_c}"
        if unroll is not None:
            self.emit(self._pragma(unroll))
        self.emit(f"for ({var} = {self.operand(start, vt)}; {cond}; {incr}) {{")
        self.nested(s.body)
        self.emit("}")
        self.depth -= 1
        self.emit("}")

    def _range_of(self, s):
        """(start, stop, step, unroll) of a for loop over range or jit.range."""
        if s.orelse:
            raise self._unsupported("for ... else is", s)
        it = s.iter
        fn = self.visit(it.func) if isinstance(it, ast.Call) else None
        if not (isinstance(fn, PyObj) and (fn.obj is builtins.range or
                                           fn.obj is _builtins.range_)):
            raise self._unsupported(
                "a for loop over anything but range() is", s)
        if not isinstance(s.target, ast.Name):
            raise self._unsupported(
                "a for loop target that is not a name is", s)
        args = [self.visit(a) for a in it.args]
        kw = {k.arg: self.visit(k.value) for k in it.keywords}
        unroll = kw.pop("unroll", None) if fn.obj is _builtins.range_ else None
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
        return start, stop, step, unroll

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

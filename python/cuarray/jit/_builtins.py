"""The names a jit kernel may use beyond Python's syntax: CUDA's thread
indices, synchronisation, shared memory, atomics, warp shuffles, and the math
functions (cuarray's, NumPy's and the math module's) with their CUDA forms.

Each object here is a placeholder on the Python side (calling one outside a
kernel is an error) that the translator recognises by identity and asks to
emit its C: ``emit(tr, args, kwargs)`` gets the translator and the argument
values, and returns a value (see _translate.py's Expr, Const and Tup).
"""

import numpy

from . import _types

# ---- placeholders ---------------------------------------------------------------------


class Builtin:
    """A function usable only inside a jit kernel."""

    def __init__(self, name, doc):
        self.__name__ = self.name = name
        self.__qualname__ = name
        self.__doc__ = doc

    def __repr__(self):
        return f"<cuarray.jit function {self.name}>"

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"cuarray.jit.{self.name} can be called only inside a "
                           "function decorated with @cuarray.jit.rawkernel()")

    def emit(self, tr, args, kwargs):
        raise NotImplementedError

    def _nargs(self, args, kwargs, lo, hi=None, keys=()):
        hi = lo if hi is None else hi
        if not lo <= len(args) <= hi:
            want = str(lo) if lo == hi else f"{lo} to {hi}"
            raise TypeError(f"{self.name}() takes {want} positional arguments, got "
                            f"{len(args)}")
        bad = sorted(set(kwargs) - set(keys))
        if bad:
            raise TypeError(f"{self.name}() got unexpected keyword arguments {bad}")


class Data:
    """A value usable only inside a jit kernel (threadIdx, warpsize, ...)."""

    def __init__(self, name, code, type_, doc):
        self.name, self.code, self.type = name, code, type_
        self.__doc__ = doc

    def __repr__(self):
        return f"<cuarray.jit value {self.name}: {self.code}>"


threadIdx = Data("threadIdx", "threadIdx", _types.DIM3,
                 "The thread's index in its block (.x, .y, .z: uint32).")
blockIdx = Data("blockIdx", "blockIdx", _types.DIM3,
                "The block's index in the grid (.x, .y, .z: uint32).")
blockDim = Data("blockDim", "blockDim", _types.DIM3,
                "The block's shape in threads (.x, .y, .z: uint32).")
gridDim = Data("gridDim", "gridDim", _types.DIM3,
               "The grid's shape in blocks (.x, .y, .z: uint32).")
warpsize = Data("warpsize", "warpSize", _types.INT32,
                "The number of threads in a warp (int32).")


def _const_int(tr, v, what):
    if not tr.is_const(v) or not isinstance(v.value, int) or isinstance(v.value, bool):
        raise TypeError(f"{what} must be a constant integer")
    return v.value


def _dims(ndim):
    if ndim not in (1, 2, 3):
        raise ValueError(f"ndim must be 1, 2 or 3, not {ndim}")
    return "xyz"[:ndim]


class _Grid(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 1)
        dims = _dims(_const_int(tr, args[0], "grid(ndim)'s ndim"))
        items = [tr.expr(f"(blockIdx.{d} * blockDim.{d} + threadIdx.{d})",
                         _types.UINT32) for d in dims]
        return items[0] if len(items) == 1 else tr.tup(items)


class _GridSize(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 1)
        dims = _dims(_const_int(tr, args[0], "gridsize(ndim)'s ndim"))
        items = [tr.expr(f"(blockDim.{d} * gridDim.{d})", _types.UINT32) for d in dims]
        return items[0] if len(items) == 1 else tr.tup(items)


grid = _Grid("grid", """grid(ndim)

The thread's absolute index in the grid: ``blockIdx.x * blockDim.x +
threadIdx.x`` (uint32, as CuPy), and for ndim 2 or 3 a tuple with the y (and
z) indices too.""")
gridsize = _GridSize("gridsize", """gridsize(ndim)

The number of threads in the grid along x (``blockDim.x * gridDim.x``,
uint32), and for ndim 2 or 3 a tuple with y (and z) too: the stride of a
grid-stride loop.""")


class _LaneId(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 0)
        tr.need("laneid")
        return tr.expr("_jit_laneid()", _types.UINT32)


laneid = _LaneId("laneid", """laneid()

The calling thread's lane in its warp, in [0, warpsize) (uint32).""")


class _SyncThreads(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 0)
        return tr.expr("__syncthreads()", _types.VOID)


class _SyncWarp(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 0, keys=("mask",))
        if "mask" not in kwargs:
            return tr.expr("__syncwarp()", _types.VOID)
        m = tr.operand(kwargs["mask"], numpy.dtype(numpy.uint32))
        return tr.expr(f"__syncwarp({m})", _types.VOID)


syncthreads = _SyncThreads("syncthreads", """syncthreads()

Calls ``__syncthreads()``: every thread of the block waits here until all
have arrived, and their shared-memory writes before it are visible after it.""")
syncwarp = _SyncWarp("syncwarp", """syncwarp(*, mask=0xffffffff)

Calls ``__syncwarp(mask)`` for the warp's lanes in `mask`.""")


class _SharedMemory(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 2)
        dtype = tr.dtype_of(args[0], "shared_memory's dtype")
        if tr.is_const(args[1]) and args[1].value is None:
            return tr.dynamic_shared(dtype)
        size = _const_int(tr, args[1], "shared_memory's size (or None)")
        if size <= 0:
            raise ValueError(f"shared_memory's size must be positive, not {size}")
        return tr.static_shared(dtype, size)


shared_memory = _SharedMemory("shared_memory", """shared_memory(dtype, size)

A 1-D array of `size` elements of `dtype` in the block's shared memory
(``__shared__ T name[size]``, one per block, uninitialised); with size None
the dynamic shared memory given at launch (``shared_mem=`` bytes), seen as
`dtype` elements.""")


# ---- atomics ---------------------------------------------------------------------------

# op -> (the dtype chars CUDA has atomic<Op> for, those done through its unsigned
# long long form): int64 ('l') uses that form where two's complement makes them
# the same operation.
_ATOMICS = {
    "add": ("iILfde", "l"),
    "sub": ("iI", ""),
    "exch": ("iILf", "l"),
    "min": ("iIlL", ""),
    "max": ("iIlL", ""),
    "inc": ("I", ""),
    "dec": ("I", ""),
    "cas": ("iILH", "l"),
    "and": ("iIL", "l"),
    "or": ("iIL", "l"),
    "xor": ("iIL", "l"),
}


class _Atomic(Builtin):
    def __init__(self, op):
        self.cname = "atomic" + ("CAS" if op == "cas" else op.capitalize())
        self.native, self.via_unsigned = _ATOMICS[op]
        extra = ("`value` is the value to compare with and `alt_value` the value "
                 "stored when they are equal" if op == "cas" else
                 "`value` the operand")
        sig = "array, index, value" + (", alt_value" if op == "cas" else "")
        super().__init__(f"atomic_{op}", f"""atomic_{op}({sig})

Calls ``{self.cname}(&array[index], ...)``, atomically, and returns the old
value of array[index]: `array` a kernel argument or shared memory, `index`
an integer (a tuple for an n-D array), {extra}, converted to the array's
dtype (NumPy's 'same_kind' casting). dtypes:
{', '.join(str(numpy.dtype(c)) for c in self.native + self.via_unsigned)}.""")
        self.op = op

    def emit(self, tr, args, kwargs):
        n = 4 if self.op == "cas" else 3
        self._nargs(args, kwargs, n)
        target, elem = tr.element(args[0], args[1], self.name)
        ch = elem.dtype.char
        if ch not in self.native + self.via_unsigned:
            ok = ", ".join(str(numpy.dtype(c)) for c in self.native + self.via_unsigned)
            raise TypeError(f"{self.name} does not support {elem.dtype} (it supports "
                            f"{ok})")
        vals = [tr.stored(v, elem.dtype, f"{self.name}'s value") for v in args[2:]]
        if ch in self.native:
            code = f"{self.cname}(&{target}, {', '.join(vals)})"
        else:
            ull = "unsigned long long"
            vals = [f"({ull})({v})" for v in vals]
            code = (f"(long long){self.cname}(reinterpret_cast<{ull} *>(&{target}), "
                    f"{', '.join(vals)})")
        return tr.expr(code, elem)


ATOMICS = tuple(_Atomic(op) for op in _ATOMICS)
(atomic_add, atomic_sub, atomic_exch, atomic_min, atomic_max, atomic_inc,
 atomic_dec, atomic_cas, atomic_and, atomic_or, atomic_xor) = ATOMICS


# ---- warp shuffles ---------------------------------------------------------------------


def _mask_and_value(builtin, tr, args, chars):
    """A warp builtin's constant lane mask (args[0]) and its scalar value
    (args[1], of one of the dtype `chars`)."""
    mask = _const_int(tr, args[0], f"{builtin.name}'s mask")
    if not 0 <= mask <= 0xFFFFFFFF:
        raise ValueError(f"{builtin.name}'s mask {mask:#x} is out of range")
    v = tr.value_of(args[1])
    if not isinstance(v.type, _types.Scalar) or v.type.dtype.char not in chars:
        raise TypeError(f"{builtin.name} does not support {v.type}")
    return mask, v


class _Shuffle(Builtin):
    def __init__(self, kind):
        self.cname = "__shfl_" + (kind + "_" if kind else "") + "sync"
        lane = {"": "srcLane", "up": "delta", "down": "delta", "xor": "laneMask"}[kind]
        name = self.cname[2:]
        super().__init__(name, f"""{name}(mask, var, val_id, *, width=32)

Calls ``{self.cname}(mask, var, {lane}, width)``: `var` of another lane of
the warp (int32/64, uint32/64, float16/32/64).""")
        self.lane_type = numpy.dtype(numpy.uint32 if kind in ("up", "down") else
                                     numpy.int32)

    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 3, keys=("width",))
        mask, var = _mask_and_value(self, tr, args, "iIlLefd")
        lane = tr.operand(args[2], self.lane_type)
        width = "32"
        if "width" in kwargs:
            w = kwargs["width"]
            if tr.is_const(w) and w.value not in (1, 2, 4, 8, 16, 32):
                raise ValueError(f"{self.name}'s width must be a power of 2 up to 32")
            width = tr.operand(w, numpy.dtype(numpy.int32))
        return tr.expr(f"{self.cname}({mask:#x}u, {var.code}, {lane}, {width})",
                       var.type)


shfl_sync = _Shuffle("")
shfl_up_sync = _Shuffle("up")
shfl_down_sync = _Shuffle("down")
shfl_xor_sync = _Shuffle("xor")


# ---- warp votes and bit counts ---------------------------------------------------------


class _ActiveMask(Builtin):
    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 0)
        return tr.expr("__activemask()", _types.UINT32)


class _BitCount(Builtin):
    """popc (set bits) and ffs (1 + the lowest set bit's position, 0 for 0):
    CUDA's 32- and 64-bit forms by the argument's size; int32 results."""

    def __init__(self, name, c32, c64, signed, doc):
        super().__init__(name, doc)
        self.c32, self.c64, self.signed = c32, c64, signed

    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 1)
        d = tr.dtype(args[0])
        if d.kind not in "iu":
            raise TypeError(f"{self.name}() takes an integer, not {d}")
        wide = d.itemsize == 8
        kind = ("i" if self.signed else "u") + ("8" if wide else "4")
        code = tr.operand(args[0], numpy.dtype(kind))
        return tr.expr(f"{self.c64 if wide else self.c32}({code})", _types.INT32)


class _MatchSync(Builtin):
    def __init__(self, kind, doc):
        super().__init__(f"match_{kind}_sync", doc)
        self.kind = kind

    def emit(self, tr, args, kwargs):
        self._nargs(args, kwargs, 2)
        mask, v = _mask_and_value(self, tr, args, "iIlLfd")
        if self.kind == "any":
            return tr.expr(f"__match_any_sync({mask:#x}u, {v.code})", _types.UINT32)
        # (the matching lanes, whether all lanes match): a statement of its own
        m, pred = tr.new_tmp("match"), tr.new_tmp("pred")
        tr.decls[m], tr.decls[pred] = _types.UINT32, _types.INT32
        tr.emit(f"{m} = __match_all_sync({mask:#x}u, {v.code}, &{pred});")
        return tr.tup([tr.expr(m, _types.UINT32), tr.expr(f"({pred} != 0)", _types.BOOL)])


activemask = _ActiveMask("activemask", """activemask()

Calls ``__activemask()``: the mask of the warp's lanes executing it (uint32).""")
popc = _BitCount("popc", "__popc", "__popcll", False, """popc(x)

The number of bits set in integer `x` (``__popc``/``__popcll``; int32).""")
ffs = _BitCount("ffs", "__ffs", "__ffsll", True, """ffs(x)

The position of `x`'s lowest set bit, counting from 1, or 0 when `x` is 0
(``__ffs``/``__ffsll``; int32).""")
match_any_sync = _MatchSync("any", """match_any_sync(mask, value)

Calls ``__match_any_sync(mask, value)``: the lanes in `mask` whose `value` is
this lane's (uint32).""")
match_all_sync = _MatchSync("all", """match_all_sync(mask, value)

Calls ``__match_all_sync(mask, value, &pred)``: (mask, pred), the lanes
in `mask` when every lane's `value` is the same (else 0) and that bool.""")


# ---- range with unrolling -------------------------------------------------------------


class Range(Builtin):
    """range(start, stop, step) of a for loop, with an unrolling hint."""

    def emit(self, tr, args, kwargs):
        raise TypeError(f"{self.name}() is only usable as a for loop's iterable")


range_ = Range("range", """range(*args, unroll=None)

Python's range for a kernel's for loop, with CUDA's unrolling hint: unroll
True gives ``#pragma unroll``, an int N ``#pragma unroll N``, False
``#pragma unroll 1``.""")

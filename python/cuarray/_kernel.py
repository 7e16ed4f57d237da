"""User kernels with CuPy's classes: RawModule, RawKernel, ElementwiseKernel,
ReductionKernel, and fuse.

Run-time compilation is opt-in: only these classes compile (NVRTC through
cuarray.cuda.compiler, cached in memory and on disk). The C side
(csrc/ops/kernel_user.c, csrc/runtime/launch_nvrtc.c) loads images with the runtime's
library API and launches kernel handles; argument marshalling is in C.

ElementwiseKernel and ReductionKernel generate CUDA C++ here: one kernel per
(argument dtypes, dimensions after coalescing), in which every non-raw array
is read through its own byte strides (broadcast dimensions have stride 0), so
views, broadcasting and mixed dtypes need no copies. Inputs are read and
converted to the parameter's type; outputs are references of exactly their
parameter's type.
"""

import functools
import re
import threading

import numpy

from . import _core
from .cuda import compiler as _compiler

_TYPE_NAMES = {
    "b": "bool", "i1": "signed char", "u1": "unsigned char", "i2": "short",
    "u2": "unsigned short", "i4": "int", "u4": "unsigned int", "i8": "long long",
    "u8": "unsigned long long", "f2": "__half", "f4": "float", "f8": "double",
}

_PREAMBLE = r"""
template <typename T, int ND>
struct CArray {
    char *data_;
    long long size_;
    long long shape_[ND > 0 ? ND : 1];
    long long strides_[ND > 0 ? ND : 1];
    __device__ T &operator[](long long i) const {
        long long off = 0;
        for (int d = ND - 1; d >= 0; d--) {
            off += (i % shape_[d]) * strides_[d];
            i /= shape_[d];
        }
        return *reinterpret_cast<T *>(data_ + off);
    }
    __device__ T &operator[](const long long *idx) const {
        long long off = 0;
        for (int d = 0; d < ND; d++) off += idx[d] * strides_[d];
        return *reinterpret_cast<T *>(data_ + off);
    }
    __device__ T &operator[](const int *idx) const {
        long long off = 0;
        for (int d = 0; d < ND; d++) off += idx[d] * strides_[d];
        return *reinterpret_cast<T *>(data_ + off);
    }
    __device__ long long size() const { return size_; }
    __device__ const long long *shape() const { return shape_; }
    __device__ const long long *strides() const { return strides_; }
    __device__ T *data() const { return reinterpret_cast<T *>(data_); }
    __device__ int ndim() const { return ND; }
};
struct CIndexer {
    long long size_;
    __device__ long long size() const { return size_; }
};
"""


def _with_preamble(body):
    """The helpers before a generated kernel, plus cuda_fp16.h when it names
    __half (NVRTC finds it in the toolkit's include directory, see
    compiler.include_options)."""
    return ("#include <cuda_fp16.h>\n" if "__half" in body else "") + _PREAMBLE + body


def _require_gpu():
    if _core.get_device_id() < 0:
        raise ValueError(
            "user kernels run on a CUDA GPU, and the current device is the cpu: make a "
            "GPU current (cuarray.cuda.Device(0).use())")


def _ctype(dtype):
    dtype = numpy.dtype(dtype)
    t = _TYPE_NAMES.get(dtype.str[1:] if dtype.kind != "b" else "b")
    if t is None:
        raise TypeError(f"user kernels do not support dtype {dtype} (supported: bool, "
                        "integers, float16, float32, float64)")
    return t


# ---- RawModule / RawKernel ----------------------------------------------------------


class RawModule:
    """RawModule(code=None, *, path=None, options=(), backend='nvrtc',
    translate_cucomplex=False, enable_cooperative_groups=False,
    name_expressions=None, jitify=False)

    CUDA C++ source (compiled with NVRTC when first needed, for the current
    GPU) or a compiled image (``path`` to a .cubin, .fatbin or .ptx file, or
    ``code`` given as bytes). ``get_function(name)`` returns a RawKernel;
    with ``name_expressions`` (template instantiations such as
    ``'f<float>'``), get_function takes those expressions.
    """

    def __init__(self, code=None, *, path=None, options=(), backend="nvrtc",
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 name_expressions=None, jitify=False):
        if (code is None) == (path is None):
            raise TypeError("RawModule: give exactly one of code and path")
        if backend != "nvrtc":
            raise ValueError(f"RawModule: backend must be 'nvrtc', not {backend!r}")
        if jitify:
            raise ValueError("RawModule: jitify is not supported")
        if translate_cucomplex:
            raise ValueError("RawModule: translate_cucomplex is not supported (no "
                             "cuComplex.h translation)")
        self.code = code
        self.path = path
        self.options = tuple(options)
        if enable_cooperative_groups:
            self.options += ("--relocatable-device-code=false",)
        self.name_expressions = tuple(name_expressions or ())
        self._image = None
        self._lowered = {}
        if path is not None:
            with open(path, "rb") as f:
                self._image = f.read()
        elif isinstance(code, (bytes, bytearray)):
            self._image = bytes(code)
        elif not isinstance(code, str):
            raise TypeError(f"RawModule: code must be str or bytes, not "
                            f"{type(code).__name__}")
        if self._image is not None and self._image[:1] not in (b"\x7f",) and \
                not self._image.endswith(b"\0"):
            self._image += b"\0"  # PTX text is read up to its NUL
        self._lib = None
        self._lock = threading.Lock()
        self._kernels = {}
        self.binary = None

    def compile(self, log_stream=None):
        """Compile now (for the current GPU) rather than at the first launch;
        NVRTC's log goes to `log_stream` when given."""
        self._load(log_stream)

    def _compile_binary(self):
        if self._image is not None:
            return None
        b = _compiler.compile_with_cache(self.code, self.options,
                                         name_expressions=self.name_expressions)
        self.binary = b
        return b

    def _load(self, log_stream=None):
        if self._lib is not None:
            return self._lib
        _require_gpu()
        with self._lock:
            if self._lib is None:
                b = self._compile_binary()
                image = self._image if b is None else b.image
                if b is not None:
                    self._lowered = b.lowered
                    if log_stream is not None and b.log:
                        log_stream.write(b.log)
                self._lib = _core._library_load(image)
        return self._lib

    def _kernel_handle(self, name):
        h = self._kernels.get(name)
        if h is None:
            lib = self._load()
            mangled = self._lowered.get(name, name)
            h = _core._library_get_kernel(lib, mangled)
            self._kernels[name] = h
        return h

    def get_function(self, name):
        """The RawKernel `name` (or a name expression) of this module."""
        return RawKernel._of_module(self, name)


class RawKernel:
    """RawKernel(code, name, options=(), backend='nvrtc', *,
    translate_cucomplex=False, enable_cooperative_groups=False, jitify=False)

    One ``extern "C" __global__`` function of CUDA C++ `code`, compiled with
    NVRTC on first use. Call it as ``kernel(grid, block, args, *,
    shared_mem=0, stream=None)``: args is a tuple of cuarray arrays (their data
    pointers), NumPy scalars (their bytes; use these to pick a type) and
    Python bool/int/float/complex (bool, int64, float64, complex128).
    """

    def __init__(self, code, name, options=(), backend="nvrtc", *,
                 translate_cucomplex=False, enable_cooperative_groups=False,
                 jitify=False):
        if not isinstance(name, str):
            raise TypeError("RawKernel: name must be a str")
        self.code = code
        self.name = name
        self.options = tuple(options)
        self._module = RawModule(code=code, options=options, backend=backend,
                                 translate_cucomplex=translate_cucomplex,
                                 enable_cooperative_groups=enable_cooperative_groups,
                                 jitify=jitify)
        self._handle = None

    @classmethod
    def _of_module(cls, module, name):
        k = cls.__new__(cls)
        k.code, k.name, k.options = module.code, name, module.options
        k._module = module
        k._handle = None
        return k

    @property
    def kernel(self):
        """The kernel handle (cudaKernel_t as an int), compiling on first use."""
        if self._handle is None:
            self._handle = self._module._kernel_handle(self.name)
        return self._handle

    def compile(self, log_stream=None):
        """Compile and load now instead of at the first launch."""
        self._module.compile(log_stream)
        _ = self.kernel

    def __call__(self, grid, block, args, *, shared_mem=0, stream=None):
        h = self._handle
        if h is None:
            h = self.kernel
        if not isinstance(args, tuple):
            args = tuple(args)
        _core._launch_kernel(h, grid, block, args, shared_mem, stream)

    @property
    def attributes(self):
        """cudaFuncGetAttributes of the kernel as a dict."""
        return _core._kernel_attributes(self.kernel)

    @property
    def max_dynamic_shared_size_bytes(self):
        raise AttributeError("max_dynamic_shared_size_bytes can be set, not read")

    @max_dynamic_shared_size_bytes.setter
    def max_dynamic_shared_size_bytes(self, nbytes):
        _core._kernel_set_max_dynamic_shared(self.kernel, int(nbytes))


def _attribute(name):
    return property(lambda self: self.attributes[name],
                    doc=f"The kernel's {name} (one entry of ``attributes``).")


# CuPy's read-only attribute properties, one per entry of cudaFuncGetAttributes
for _name in ("max_threads_per_block", "num_regs", "shared_size_bytes",
              "local_size_bytes", "const_size_bytes", "ptx_version", "binary_version"):
    setattr(RawKernel, _name, _attribute(_name))
del _name


# ---- parameters ------------------------------------------------------------------------

_IDENT = re.compile(r"^[A-Za-z_]\w*$")


class _Param:
    __slots__ = ("name", "ctype", "dtype", "placeholder", "raw")

    def __init__(self, text):
        parts = text.split()
        raw = False
        if parts and parts[0] == "raw":
            raw = True
            parts = parts[1:]
        if len(parts) != 2 or not _IDENT.match(parts[0]) or not _IDENT.match(parts[1]):
            raise ValueError(f"invalid kernel parameter {text.strip()!r}: expected "
                             "'[raw] type name'")
        t, self.name = parts
        self.raw = raw
        self.dtype = None
        self.placeholder = None
        if len(t) == 1 and t.isupper():
            self.placeholder = t
        else:
            try:
                d = numpy.dtype(t)
            except TypeError:
                d = None
            if d is not None and d.kind in "biuf":
                self.dtype = d
            else:
                self.placeholder = t

    def __repr__(self):
        return f"<{'raw ' if self.raw else ''}{self.dtype or self.placeholder} {self.name}>"


def _parse_params(spec):
    spec = spec.strip()
    if not spec:
        return ()
    params = tuple(_Param(p) for p in spec.split(","))
    names = [p.name for p in params]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate parameter names in {spec!r}")
    return params


def _is_array(x):
    return isinstance(x, _core.ndarray)


def _scalar_dtype(x):
    if isinstance(x, numpy.generic):
        return x.dtype
    if isinstance(x, bool):
        return numpy.dtype(numpy.bool_)
    if isinstance(x, int):
        return numpy.dtype(numpy.int64)
    if isinstance(x, float):
        return numpy.dtype(numpy.float64)
    raise TypeError(f"unsupported kernel argument of type {type(x).__name__}")


def _bind_types(params, args):
    """Placeholder -> dtype, from arrays first, then scalars (as NumPy types)."""
    types = {}
    for p, a in zip(params, args):
        if p.placeholder and a is not None and _is_array(a):
            prev = types.setdefault(p.placeholder, numpy.dtype(a.dtype))
            if prev != a.dtype:
                raise TypeError(f"type {p.placeholder} is bound to both {prev} and "
                                f"{a.dtype}")
    for p, a in zip(params, args):
        if p.placeholder and a is not None and not _is_array(a):
            types.setdefault(p.placeholder, _scalar_dtype(a))
    return types


def _param_dtype(p, types):
    if p.dtype is not None:
        return p.dtype
    d = types.get(p.placeholder)
    if d is None:
        raise TypeError(f"cannot decide type {p.placeholder} of parameter {p.name}: "
                        "pass an array for it or a typed output")
    return d


def _coalesce(shape, strides_list):
    """Merge adjacent dimensions that every operand walks contiguously; drop
    size-1 dimensions. Returns (shape, [strides per operand])."""
    dims = [i for i, n in enumerate(shape) if n != 1]
    shape2 = [shape[i] for i in dims]
    strides2 = [[s[i] for i in dims] for s in strides_list]
    i = len(shape2) - 1
    while i > 0:
        if all(st[i - 1] == st[i] * shape2[i] for st in strides2):
            shape2[i - 1] *= shape2[i]
            del shape2[i]
            for st in strides2:
                st[i - 1] = st[i]
                del st[i]
        i -= 1
    return tuple(shape2), strides2


def _broadcast_strides(a, shape):
    nd = len(shape)
    off = nd - a.ndim
    out = [0] * nd
    for i in range(a.ndim):
        n = a.shape[i]
        if n == shape[off + i]:
            out[off + i] = a.strides[i] if n != 1 else 0
        elif n != 1:
            raise ValueError(f"operands could not be broadcast together: {a.shape} "
                             f"into {shape}")
    return out


def _unravel(var, nd, prefix):
    """C statements that split `var` into the indices <prefix>0..nd-1 over the
    shape parameters <prefix>s0..."""
    if nd == 0:
        return ""
    lines = [f"long long {prefix}r = {var};"]
    for d in range(nd - 1, 0, -1):
        lines.append(f"long long {prefix}{d} = {prefix}r % {prefix}s{d}; "
                     f"{prefix}r /= {prefix}s{d};")
    lines.append(f"long long {prefix}0 = {prefix}r;")
    return "\n        ".join(lines)


def _offset(name, nd, prefix):
    if nd == 0:
        return "0"
    return " + ".join(f"{prefix}{d} * _st_{name}_{prefix}{d}" for d in range(nd))


def _raw_args(a):
    return [a, int(a.size)] + [int(n) for n in a.shape] + [int(s) for s in a.strides]


def _raw_param_args(kernel_name, p, a):
    """The launch arguments of raw parameter p, given a: it must be an array."""
    if not _is_array(a):
        raise TypeError(f"{kernel_name}: raw parameter {p.name} takes an array")
    return _raw_args(a)


def _raw_param_decl(p, ct, nd):
    dims = ", ".join([f"long long _sh_{p.name}_{d}" for d in range(nd)] +
                     [f"long long _rs_{p.name}_{d}" for d in range(nd)])
    return f"char *_p_{p.name}, long long _sz_{p.name}" + (f", {dims}" if dims else "")


def _raw_param_init(p, ct, nd):
    s = (f"CArray<{ct}, {nd}> {p.name}; {p.name}.data_ = _p_{p.name}; "
         f"{p.name}.size_ = _sz_{p.name};")
    for d in range(nd):
        s += (f" {p.name}.shape_[{d}] = _sh_{p.name}_{d}; "
              f"{p.name}.strides_[{d}] = _rs_{p.name}_{d};")
    return s


def _array_params(params, dtypes, raw_nds, arg_dtypes, decls, inits):
    """Declares the raw parameters (with their CArray's set-up) and the scalar ones
    of a user kernel; yields (k, p, C type) for the array ones, left to the caller."""
    for k, p in enumerate(params):
        ct = _ctype(dtypes[k])
        if p.raw:
            decls.append(_raw_param_decl(p, ct, raw_nds[k]))
            inits.append(_raw_param_init(p, ct, raw_nds[k]))
        elif arg_dtypes[k] is None:
            decls.append(f"{ct} {p.name}")
        else:
            yield k, p, ct


def _user_kernel_init(kernel, name, reduce_dims, preamble, options):
    """What ElementwiseKernel and ReductionKernel keep alike."""
    kernel.name = name
    kernel.reduce_dims = reduce_dims
    kernel.preamble = preamble
    kernel.options = tuple(options)
    kernel._kernels = {}
    kernel._lock = threading.Lock()


def _launch_config(n, block=256):
    grid = min(max((n + block - 1) // block, 1), 65535 * 8)
    return grid, block


# ---- ElementwiseKernel -------------------------------------------------------------------

_MAX_PLANS = 64  # per kernel: call signatures remembered (shapes vary in a loop)


def _call_signature(args, size, block_size):
    sig = [size, block_size]
    for a in args:
        if isinstance(a, _core.ndarray):
            sig.append((a.dtype, a.shape, a.strides))
        elif isinstance(a, numpy.generic):
            sig.append(a.dtype)
        else:
            sig.append(type(a))
    return tuple(sig)


class _Plan:
    """What one ElementwiseKernel call did, to replay for a call with the same
    signature: the outputs to allocate and the launch's argument list, with a
    slot for each argument of the call (the strides, count and shape fixed)."""

    __slots__ = ("ek", "shape", "dtypes", "alloc", "steps", "launch", "handle", "grid",
                 "block", "template", "slots", "ret")

    def __init__(self, ek, shape, dtypes, alloc):
        self.ek, self.shape, self.dtypes = ek, shape, dtypes
        self.alloc = alloc  # the outputs this call allocated (missing or None)
        # what the first call records, until seal(): (param index, scalar converter
        # or None, stride tail) per argument, and (kernel, grid, block, trailing
        # args), None when there are no elements
        self.steps = []
        self.launch = None
        self.handle = None  # the sealed launch: None when there are no elements
        self.ret = 0 if ek.no_return else (1 if ek.nout == 1 and not ek.return_tuple else 2)

    def seal(self):
        """Lay the steps out as one argument list with a slot per call argument,
        and drop what the replay does not read."""
        if self.launch is not None:
            template, slots = [], []
            for k, conv, tail in self.steps:
                slots.append((len(template), k, conv))
                template.append(None)
                if conv is None:
                    template += tail
            kernel, self.grid, self.block, trailing = self.launch
            self.template, self.slots = template + list(trailing), tuple(slots)
            self.handle = kernel.kernel
        self.steps = self.launch = None

    def run(self, args, stream):
        ek = self.ek
        if self.alloc:
            args = list(args) + [None] * (ek.nargs - len(args))
            for k in self.alloc:
                args[k] = _core.empty(self.shape, self.dtypes[k])
        if self.handle is not None:
            kargs = self.template.copy()
            for pos, k, conv in self.slots:
                kargs[pos] = args[k] if conv is None else conv(args[k])
            _core._launch_kernel(self.handle, self.grid, self.block, tuple(kargs), 0,
                                 stream)
        if self.ret == 1:
            return args[ek.nin]
        return None if self.ret == 0 else tuple(args[ek.nin:])


def _arg_keys(params, args):
    """Parts of a user kernel's cache key: the raw parameters' ndims (0 for the
    others) and the array arguments' dtypes (None for scalars)."""
    raw_nds = tuple(args[k].ndim if p.raw else 0 for k, p in enumerate(params))
    arg_dtypes = tuple(numpy.dtype(args[k].dtype).str
                       if (not p.raw and _is_array(args[k])) else None
                       for k, p in enumerate(params))
    return raw_nds, arg_dtypes


def _cached_kernel(k, key):
    """User kernel k's RawKernel for key (its _source(key), compiled once; the
    lock only around a miss)."""
    kernel = k._kernels.get(key)
    if kernel is None:
        with k._lock:
            kernel = k._kernels.get(key)
            if kernel is None:
                kernel = RawKernel(k._source(key), k.name, k.options)
                k._kernels[key] = kernel
    return kernel


def _kernel_params(kind, name, in_params, out_params, kwargs):
    """The checks a user kernel's constructor starts with; the parsed (inputs,
    outputs)."""
    if kwargs:
        raise TypeError(f"{kind}: unexpected arguments {sorted(kwargs)}")
    if not _IDENT.match(name):
        raise ValueError(f"kernel name {name!r} is not an identifier")
    return _parse_params(in_params), _parse_params(out_params)


class ElementwiseKernel:
    """ElementwiseKernel(in_params, out_params, operation, name='kernel',
    reduce_dims=True, preamble='', no_return=False, return_tuple=False,
    loop_prep='', after_loop='', options=())

    CuPy's element-wise kernel: parameters as ``'T x, raw T y, float32 z'``
    (a dtype name, or a placeholder type such as T bound from the arguments),
    `operation` a CUDA C++ statement over them, with ``i`` the element's flat
    index and ``_ind.size()`` the element count. Called as
    ``kernel(*inputs, *outputs_optional, size=None, stream=None)``; inputs
    broadcast; missing outputs are allocated with the broadcast shape.
    """

    def __init__(self, in_params, out_params, operation, name="kernel", reduce_dims=True,
                 preamble="", no_return=False, return_tuple=False, loop_prep="",
                 after_loop="", options=(), **kwargs):
        self.in_params, self.out_params = _kernel_params("ElementwiseKernel", name, in_params,
                                                         out_params, kwargs)
        self.params = self.in_params + self.out_params
        names = [p.name for p in self.params]
        if len(set(names)) != len(names):
            raise ValueError("an input and an output share a name")
        self.nin, self.nout, self.nargs = (len(self.in_params), len(self.out_params),
                                           len(self.params))
        _user_kernel_init(self, name, reduce_dims, preamble, options)
        self.operation = operation
        self.no_return = no_return
        self.return_tuple = return_tuple
        self.loop_prep = loop_prep
        self.after_loop = after_loop
        self._plans = {}

    def _source(self, key):
        dtypes, nd, raw_nds, arg_dtypes, typeitems = key
        decls, inits, loads = [], [], []
        for k, p, ct in _array_params(self.params, dtypes, raw_nds, arg_dtypes, decls, inits):
            decls.append(f"char *_p_{p.name}" + "".join(
                f", long long _st_{p.name}__e{d}" for d in range(nd)))
            ptr = f"(_p_{p.name} + {_offset(p.name, nd, '_e')})"
            if k < self.nin:
                src = _ctype(arg_dtypes[k])
                loads.append(f"const {ct} {p.name} = ({ct})"
                             f"(*reinterpret_cast<const {src} *>{ptr});")
            else:
                loads.append(f"{ct} &{p.name} = *reinterpret_cast<{ct} *>{ptr};")
        decls.append("long long _n")
        decls += [f"long long _es{d}" for d in range(nd)]
        typedefs = "".join(f"typedef {_ctype(d)} {t};\n" for t, d in typeitems)
        return _with_preamble(f"""
{typedefs}{self.preamble}
extern "C" __global__ void {self.name}({", ".join(decls)}) {{
    {" ".join(inits)}
    CIndexer _ind; _ind.size_ = _n;
    {self.loop_prep};
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < _n;
         i += (long long)blockDim.x * gridDim.x) {{
        {_unravel("i", nd, "_e")}
        {chr(10).join(loads)}
        {self.operation};
    }}
    {self.after_loop};
}}
""")

    def _kernel(self, key):
        return _cached_kernel(self, key)

    def __call__(self, *args, size=None, block_size=None, stream=None):
        _require_gpu()
        # A call like an earlier one (same dtypes, shapes, strides and scalar
        # types) replays that call's plan: no type binding, broadcasting or
        # source key work, so a cached kernel costs its launch and little more.
        sig = _call_signature(args, size, block_size)
        plan = self._plans.get(sig)
        if plan is not None:
            return plan.run(args, stream)
        return self._call(args, size, block_size, stream, sig)

    def _call(self, args, size, block_size, stream, sig):
        if len(args) not in (self.nin, self.nargs):
            raise TypeError(f"{self.name} takes {self.nin} or {self.nargs} arguments, "
                            f"got {len(args)}")
        args = list(args) + [None] * (self.nargs - len(args))
        types = _bind_types(self.params, args)
        dtypes = [_param_dtype(p, types) for p in self.params]
        shape = self._shape(args, size)
        alloc = tuple(k for k in range(self.nin, self.nargs) if args[k] is None)
        for k in range(self.nin, self.nargs):
            p = self.params[k]
            if args[k] is None:
                if p.raw:
                    raise TypeError(f"{self.name}: raw output {p.name} must be passed")
                args[k] = _core.empty(shape, dtypes[k])
            elif not _is_array(args[k]):
                raise TypeError(f"{self.name}: output {p.name} must be a cuarray array")
            elif args[k].dtype != dtypes[k]:
                raise TypeError(f"{self.name}: output {p.name} has dtype "
                                f"{args[k].dtype}, the parameter is {dtypes[k]}")
        n = 1
        for s in shape:
            n *= s
        plan = _Plan(self, shape, dtypes, alloc)
        if n > 0:
            self._launch(args, dtypes, types, shape, n, block_size, stream, plan)
        plan.seal()
        if len(self._plans) < _MAX_PLANS:
            self._plans[sig] = plan
        outs = args[self.nin:]
        if self.no_return:
            return None
        if self.nout == 1 and not self.return_tuple:
            return outs[0]
        return tuple(outs)

    def _shape(self, args, size):
        arrays = [a for p, a in zip(self.params, args) if not p.raw and _is_array(a)]
        if size is not None:
            if arrays:
                raise ValueError(f"{self.name}: size= is for kernels whose non-raw "
                                 "arguments are all scalars")
            return (int(size),)
        if not arrays:
            raise ValueError(f"{self.name}: no non-raw array argument: give size=")
        outs = [a for p, a in zip(self.params[self.nin:], args[self.nin:])
                if a is not None and not p.raw]
        shape = _core.broadcast_shapes(*[a.shape for a in arrays])
        for o in outs:
            if o.shape != shape:
                raise ValueError(f"{self.name}: output shape {o.shape} does not match "
                                 f"the broadcast shape {shape}")
        return shape

    def _launch(self, args, dtypes, types, shape, n, block_size, stream, plan):
        idx = [k for k, p in enumerate(self.params) if not p.raw and _is_array(args[k])]
        strides = [_broadcast_strides(args[k], shape) for k in idx]
        if self.reduce_dims:
            cshape, cstrides = _coalesce(shape, strides)
        else:
            cshape, cstrides = tuple(shape), strides
        nd = len(cshape)
        raw_nds, arg_dtypes = _arg_keys(self.params, args)
        key = (tuple(d.str for d in dtypes), nd, raw_nds, arg_dtypes,
               tuple(sorted((t, d.str) for t, d in types.items())))
        kernel = self._kernel(key)
        kargs = []
        j = 0
        for k, p in enumerate(self.params):
            a = args[k]
            if p.raw:
                tail = _raw_param_args(self.name, p, a)[1:]
            elif _is_array(a):
                tail = list(cstrides[j])
                j += 1
            else:
                kargs.append(dtypes[k].type(a))
                plan.steps.append((k, dtypes[k].type, None))
                continue
            kargs.append(a)
            kargs += tail
            plan.steps.append((k, None, tuple(tail)))
        kargs.append(n)
        kargs += list(cshape)
        grid, block = _launch_config(n, block_size or 256)
        plan.launch = (kernel, (grid,), (block,), (n,) + tuple(cshape))
        kernel((grid,), (block,), tuple(kargs), stream=stream)


# ---- ReductionKernel -------------------------------------------------------------------------


class ReductionKernel:
    """ReductionKernel(in_params, out_params, map_expr, reduce_expr,
    post_map_expr, identity, name='reduce_kernel', reduce_type=None,
    reduce_dims=True, preamble='', options=())

    CuPy's reduction kernel: `map_expr` maps the inputs at each position to a
    value of `reduce_type`, `reduce_expr` combines two of them (``a`` and
    ``b``), and `post_map_expr` writes the output from the result ``a``
    (e.g. ``'y = a'``). `identity` is the reduction's identity (a C
    expression), or None. Called as ``kernel(*inputs, out=None, axis=None,
    keepdims=False, stream=None)``; inputs broadcast together first.
    """

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_map_expr,
                 identity, name="reduce_kernel", reduce_type=None, reduce_dims=True,
                 preamble="", options=(), **kwargs):
        self.in_params, self.out_params = _kernel_params("ReductionKernel", name, in_params,
                                                         out_params, kwargs)
        if len(self.out_params) != 1 or self.out_params[0].raw:
            raise ValueError("ReductionKernel takes exactly one non-raw output parameter")
        self.params = self.in_params + self.out_params
        self.nin = len(self.in_params)
        self.map_expr = map_expr
        self.reduce_expr = reduce_expr
        self.post_map_expr = post_map_expr
        self.identity = None if identity is None else str(identity)
        self.reduce_type = reduce_type
        _user_kernel_init(self, name, reduce_dims, preamble, options)

    def _reduce_ctype(self, types, out_dtype):
        rt = self.reduce_type
        if rt is None:
            return _ctype(out_dtype)
        if isinstance(rt, str):
            if rt in types:
                return _ctype(types[rt])
            try:
                d = numpy.dtype(rt)
            except TypeError:
                return rt  # a C++ type name
            return _ctype(d)
        return _ctype(rt)

    def _source(self, key):
        dtypes, ond, rnd, arg_dtypes, typeitems, rtype, raw_nds = key
        decls, inits, loads = [], [], []
        for k, p, ct in _array_params(self.in_params, dtypes, raw_nds, arg_dtypes, decls,
                                      inits):
            decls.append(f"char *_p_{p.name}" +
                         "".join(f", long long _st_{p.name}__o{d}" for d in range(ond)) +
                         "".join(f", long long _st_{p.name}__r{d}" for d in range(rnd)))
            ptr = (f"(_p_{p.name} + ({_offset(p.name, ond, '_o')}) + "
                   f"({_offset(p.name, rnd, '_r')}))")
            src = _ctype(arg_dtypes[k])
            loads.append(f"const {ct} {p.name} = ({ct})"
                         f"(*reinterpret_cast<const {src} *>{ptr});")
        op = self.out_params[0]
        oct_ = _ctype(dtypes[-1])
        decls.append(f"char *_p_{op.name}" +
                     "".join(f", long long _st_{op.name}__o{d}" for d in range(ond)))
        decls += ["long long _out_n"] + [f"long long _os{d}" for d in range(ond)]
        decls += ["long long _red_n"] + [f"long long _rs{d}" for d in range(rnd)]
        typedefs = "".join(f"typedef {_ctype(numpy.dtype(d))} {t};\n" for t, d in typeitems)
        ident = self.identity
        have = "true" if ident is not None else "false"
        init = f"_type_reduce({ident})" if ident is not None else "_type_reduce()"
        # without an identity, a flag says whether a partial result exists
        combine = f"{{ _type_reduce a = _acc, b = _v; _acc = ({self.reduce_expr}); }}"
        combine_flag = ("if (!_have) { _acc = _v; _have = true; } else " + combine)
        tree = (f"if (_sh[threadIdx.x + s]) {{ if (!_sh[threadIdx.x]) {{ "
                f"_sv[threadIdx.x] = _sv[threadIdx.x + s]; _sh[threadIdx.x] = true; }} "
                f"else {{ _type_reduce a = _sv[threadIdx.x], b = _sv[threadIdx.x + s]; "
                f"_sv[threadIdx.x] = ({self.reduce_expr}); }} }}")
        return _with_preamble(f"""
{typedefs}typedef {rtype} _type_reduce;
{self.preamble}
extern "C" __global__ void {self.name}({", ".join(decls)}) {{
    {" ".join(inits)}
    __shared__ _type_reduce _sv[256];
    __shared__ bool _sh[256];
    for (long long _o = blockIdx.x; _o < _out_n; _o += gridDim.x) {{
        {_unravel("_o", ond, "_o")}
        _type_reduce _acc = {init};
        bool _have = {have};
        for (long long _j = threadIdx.x; _j < _red_n; _j += blockDim.x) {{
            {_unravel("_j", rnd, "_r")}
            {chr(10).join(loads)}
            _type_reduce _v = (_type_reduce)({self.map_expr});
            {combine_flag}
        }}
        _sv[threadIdx.x] = _acc;
        _sh[threadIdx.x] = _have;
        __syncthreads();
        for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {{
            if (threadIdx.x < s) {{ {tree} }}
            __syncthreads();
        }}
        if (threadIdx.x == 0) {{
            _type_reduce a = _sv[0];
            {oct_} &{op.name} = *reinterpret_cast<{oct_} *>(_p_{op.name} + {_offset(op.name, ond, '_o')});
            {self.post_map_expr};
        }}
        __syncthreads();
    }}
}}
""")

    def __call__(self, *args, out=None, axis=None, keepdims=False, stream=None):
        _require_gpu()
        if len(args) != self.nin:
            raise TypeError(f"{self.name} takes {self.nin} inputs, got {len(args)}")
        args = list(args)
        all_args = args + [out]
        types = _bind_types(self.params, all_args)
        dtypes = [_param_dtype(p, types) for p in self.params]
        arrays = [a for p, a in zip(self.in_params, args) if not p.raw and _is_array(a)]
        if not arrays:
            raise ValueError(f"{self.name}: no non-raw input array to reduce")
        shape = _core.broadcast_shapes(*[a.shape for a in arrays])
        nd = len(shape)
        axes = self._axes(axis, nd)
        keep = [d for d in range(nd) if d not in axes]
        out_shape = tuple(1 if d in axes else shape[d] for d in range(nd)) if keepdims \
            else tuple(shape[d] for d in keep)
        if out is None:
            out = _core.empty(out_shape, dtypes[-1])
        elif not _is_array(out) or out.dtype != dtypes[-1] or out.shape != out_shape:
            raise ValueError(f"{self.name}: out must be a {dtypes[-1]} array of shape "
                             f"{out_shape}")
        out_n = 1
        for d in keep:
            out_n *= shape[d]
        red_n = 1
        for d in axes:
            red_n *= shape[d]
        if out_n == 0:
            return out
        if red_n == 0 and self.identity is None:
            raise ValueError(f"{self.name}: zero-size reduction without an identity")
        self._launch(args, out, dtypes, types, shape, keep, axes, out_n, red_n, stream)
        return out

    def _axes(self, axis, nd):
        if axis is None:
            return tuple(range(nd))
        if isinstance(axis, int):
            axis = (axis,)
        res = []
        for a in axis:
            a = int(a)
            if not -nd <= a < nd:
                raise numpy.exceptions.AxisError(a, nd)
            res.append(a % nd)
        if len(set(res)) != len(res):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(res))

    def _launch(self, args, out, dtypes, types, shape, keep, axes, out_n, red_n, stream):
        idx = [k for k, p in enumerate(self.in_params) if not p.raw and _is_array(args[k])]
        full = [_broadcast_strides(args[k], shape) for k in idx]
        oshape = tuple(shape[d] for d in keep)
        ostr_in = [[s[d] for d in keep] for s in full]
        out_strides = list(_broadcast_strides(out, shape)) if out.ndim == len(shape) \
            else None
        if out_strides is not None:
            ostr_out = [out_strides[d] for d in keep]
        else:
            ostr_out = list(out.strides)
        rshape = tuple(shape[d] for d in axes)
        rstr = [[s[d] for d in axes] for s in full]
        if self.reduce_dims:
            oshape, allo = _coalesce(oshape, ostr_in + [ostr_out])
            ostr_in, ostr_out = allo[:-1], allo[-1]
            rshape, rstr = _coalesce(rshape, rstr)
        ond, rnd = len(oshape), len(rshape)
        raw_nds, arg_dtypes = _arg_keys(self.in_params, args)
        typeitems = tuple(sorted((t, d.str) for t, d in types.items()))
        rtype = self._reduce_ctype(types, dtypes[-1])
        key = (tuple(d.str for d in dtypes), ond, rnd, arg_dtypes, typeitems, rtype,
               raw_nds)
        kernel = _cached_kernel(self, key)
        kargs = []
        j = 0
        for k, p in enumerate(self.in_params):
            a = args[k]
            if p.raw:
                kargs += _raw_param_args(self.name, p, a)
            elif _is_array(a):
                kargs.append(a)
                kargs += list(ostr_in[j]) + list(rstr[j])
                j += 1
            else:
                kargs.append(dtypes[k].type(a))
        kargs.append(out)
        kargs += list(ostr_out)
        kargs += [out_n] + list(oshape) + [red_n] + list(rshape)
        block = 256
        while block > 32 and block // 2 >= red_n:
            block //= 2
        grid = min(out_n, 65535 * 4)
        kernel((grid,), (block,), tuple(kargs), stream=stream)


# ---- fuse ------------------------------------------------------------------------------------


def fuse(*args, kernel_name=None):
    """fuse(func=None, *, kernel_name=None)

    CuPy's decorator for functions of element-wise calls. cuarray fuses such
    chains itself, with no compilation: on a GPU, large float32/float64/bool
    element-wise results are deferred and a consumer runs the whole chain as
    one pass of the fused-program interpreter (csrc/ops/fusion.c), so the wrapped
    function runs as written. Use as ``@fuse`` or ``@fuse(kernel_name=...)``.
    """
    def wrap(f):
        @functools.wraps(f)
        def fused(*a, **k):
            return f(*a, **k)
        fused.kernel_name = kernel_name or f.__name__
        fused.__wrapped__ = f
        return fused

    if len(args) == 1 and callable(args[0]):
        return wrap(args[0])
    if args:
        raise TypeError("fuse takes a function, or only keyword arguments")
    return wrap


__all__ = ["RawModule", "RawKernel", "ElementwiseKernel", "ReductionKernel", "fuse"]

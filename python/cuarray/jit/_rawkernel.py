"""The kernel object @rawkernel() makes: types from the call's arguments, one
translation and one RawKernel per argument-type signature, and CuPy's two
launch forms."""

import functools
import threading
import warnings

import numpy

from .. import _core
from .._kernel import RawKernel, _with_preamble
from . import _helpers, _translate, _types


class JitRawKernel:
    """A Python function compiled to a CUDA kernel (made by
    :func:`cuarray.jit.rawkernel`).

    ``kernel(grid, block, args, shared_mem=0, stream=None)`` or
    ``kernel[grid, block](*args)`` launches it. The function is translated to
    CUDA C++ and compiled (NVRTC, through RawKernel and its on-disk cache)
    at the first call for each signature of argument types; ``cached_codes``
    maps each signature to its source, and ``source(args)`` gives the source
    for `args` without launching (no GPU needed).
    """

    def __init__(self, func, mode="cuda", device=False):
        if mode not in ("cuda", "numpy"):
            raise ValueError(f"mode must be 'cuda' or 'numpy', not {mode!r}")
        self._func = func
        self._mode = mode
        self._device = bool(device)
        self._lock = threading.Lock()
        self._kernels = {}  # argument Types -> RawKernel
        self._codes = {}    # argument Types -> (C name, source)
        # a cheap key of the arguments -> (kernel handle, scalar converters)
        self._launches = {}
        functools.update_wrapper(self, func)

    def __repr__(self):
        kind = "device function" if self._device else "kernel"
        return f"<cuarray.jit {kind} {self._func.__qualname__}>"

    # ---- translation -------------------------------------------------------------

    def _arg_types(self, args):
        return tuple(_types.arg_type(self._mode, a, _core.ndarray) for a in args)

    def _translate(self, types):
        hit = self._codes.get(types)
        if hit is not None:
            return hit
        tr = _translate.Translator(self._func, self._mode, types)
        body = tr.source_body()
        devices = "".join(code + "\n" for _, code, _ in tr.registry.values())
        sig = ", ".join(map(repr, types))
        head = f"// cuarray.jit: {self._func.__qualname__}({sig}), mode {self._mode!r}\n"
        text = head + _helpers.helpers(tr.needs) + "\n" + devices + body
        if "2half(" in text and "__half" not in text:  # a float16 literal alone
            text = "#include <cuda_fp16.h>\n" + text
        src = _with_preamble(text)
        with self._lock:
            hit = self._codes.setdefault(types, (tr.name, src))
        return hit

    def source(self, args):
        """source(args)

        The CUDA C++ this kernel compiles to for arguments `args` (a tuple as
        the launch takes); translates, but neither compiles nor launches."""
        if self._device:
            raise TypeError(f"{self.__name__} is a device function: its source is part "
                            "of the kernels that call it")
        return self._translate(self._arg_types(tuple(args)))[1]

    @property
    def cached_codes(self):
        """A dict of the argument-type signatures translated so far and their
        sources (for debugging, as CuPy's)."""
        if not self._codes:
            warnings.warn("No codes are cached because compilation is deferred until "
                          "the first function call.")
        return {k: v[1] for k, v in self._codes.items()}

    @property
    def cached_code(self):
        """The source of the first signature translated (for debugging)."""
        codes = self.cached_codes
        if len(codes) > 1:
            warnings.warn("The input types of the kernel could not be inferred. Please "
                          "use `.cached_codes` instead.")
        return next(iter(codes.values()))

    # ---- launching -------------------------------------------------------------------

    def _kernel(self, types):
        k = self._kernels.get(types)
        if k is None:
            name, src = self._translate(types)
            k = RawKernel(src, name)
            with self._lock:
                k = self._kernels.setdefault(types, k)
        return k

    def __call__(self, grid, block, args, shared_mem=0, stream=None):
        """__call__(grid, block, args, shared_mem=0, stream=None)

        Launch on a grid of `grid` blocks of `block` threads (ints or tuples
        of up to 3), with `args` a tuple of cuarray arrays and scalars and
        `shared_mem` bytes of dynamic shared memory."""
        if self._device:
            raise TypeError(f"{self.__name__} is a device function "
                            "(@rawkernel(device=True)): call it from a kernel")
        if not isinstance(args, tuple):
            args = tuple(args)
        key = _signature(args)
        hit = self._launches.get(key)
        if hit is None:
            types = self._arg_types(args)
            # per argument: None for an array (pointer, size, shape, strides follow),
            # else the NumPy type its scalar is passed as. On the cpu device the
            # handle is RawKernel's error.
            conv = tuple(None if isinstance(t, _types.Array) else t.dtype.type
                         for t in types)
            hit = self._launches.setdefault(key, (self._kernel(types).kernel, conv))
        handle, conv = hit
        kargs = []
        for a, c in zip(args, conv):
            if c is None:
                kargs.append(a)
                kargs.append(a.size)
                kargs += a.shape
                kargs += a.strides
            else:
                kargs.append(c(a))
        _core._launch_kernel(handle, grid, block, tuple(kargs), shared_mem, stream)

    def __getitem__(self, grid_and_block):
        """kernel[grid, block](*args): the launch as Numba writes it."""
        if not isinstance(grid_and_block, tuple) or len(grid_and_block) != 2:
            raise TypeError("a jit kernel is launched as kernel[grid, block](*args)")
        grid, block = grid_and_block
        return functools.partial(self._launch_numba, grid, block)

    def _launch_numba(self, grid, block, *args, shared_mem=0, stream=None):
        self(grid, block, args, shared_mem=shared_mem, stream=stream)


def _signature(args):
    """A key telling the arguments' Types apart, cheaper to make than they are:
    an array's dtype, ndim and 1-D contiguity; a scalar's type, and for a Python
    int the smallest of int32, int64 and uint64 that holds it."""
    key = []
    nd_type = _core.ndarray
    for a in args:
        t = type(a)
        if t is nd_type or isinstance(a, nd_type):
            d = a.dtype
            nd = a.ndim
            key.append((d, nd, nd == 1 and (a.strides[0] == d.itemsize or
                                            a.shape[0] <= 1)))
        elif t is int:
            key.append("i4" if -0x80000000 <= a <= 0x7FFFFFFF else
                       "i8" if -(1 << 63) <= a < (1 << 63) else "u8")
        elif isinstance(a, numpy.generic):
            key.append(a.dtype)
        else:
            key.append(t)
    return tuple(key)


def rawkernel(func=None, *, mode="cuda", device=False):
    """rawkernel(*, mode='cuda', device=False)

    Decorator: the function becomes a CUDA kernel written in Python (a
    JitRawKernel), translated to CUDA C++ at its first call for each set of
    argument types. With ``device=True`` it is a device function, called
    from other jit kernels. `mode` types literals and Python-scalar
    arguments as CuPy does: 'cuda' gives int32 (int64 when needed) and
    float32, 'numpy' int64 and float64.

    Examples
    --------
    >>> @cuarray.jit.rawkernel()
    ... def saxpy(a, x, y, out, n):
    ...     i = cuarray.jit.grid(1)
    ...     if i < n:
    ...         out[i] = a * x[i] + y[i]
    >>> saxpy[(n + 127) // 128, 128](numpy.float32(2), x, y, out, n)  # doctest: +SKIP
    """
    def wrap(f):
        return JitRawKernel(f, mode, device)
    # CuPy's form is @rawkernel(); a bare @rawkernel does the same here
    return wrap if func is None else wrap(func)

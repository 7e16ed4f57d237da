"""cuarray.cuda.memory: CuPy's memory objects, pointers and allocators.

``Memory`` is cuarray's own memory object (a block of the pools, csrc/memory/memory.c):
``Memory(size)`` takes it from the current device's pool (CuPy calls cudaMalloc
directly). ``MemoryPointer`` (csrc/memory/memptr.c) is what ``x.data`` is and what
``ndarray(shape, dtype, memptr=...)`` takes; its ``mem`` may be any object with
``ptr`` and ``size`` (``UnownedMemory``, another library's allocation).

Allocators: ``set_allocator(f)`` makes every device allocation of cuarray (arrays,
scratch, library work areas) call ``f(nbytes)``, which returns a MemoryPointer
(or anything with ``ptr``, ``size`` and ``device_id``, or a Memory): RMM's
``rmm_cupy_allocator`` and CuPy-style functions work unchanged. ``None`` restores
cuarray's pool. ``using_allocator`` sets one for the calling thread only.
"""

import abc
import contextlib
import ctypes
import threading

from .. import _core

MemoryPointer = _core.MemoryPointer
Memory = _core.Memory
MemoryPool = _core.MemoryPool
OutOfMemoryError = _core.OutOfMemoryError


class BaseMemory(abc.ABC):
    """Memory that a MemoryPointer can point into: ``ptr``, ``size``,
    ``device_id`` and ``device``. cuarray's own Memory counts as one."""

    ptr = 0
    size = 0
    device_id = -1

    @property
    def device(self):
        return _core.Device(self.device_id)

    def __int__(self):
        return int(self.ptr)

    def __repr__(self):
        return f"<{type(self).__name__} ptr=0x{int(self.ptr):x} size={self.size}>"


BaseMemory.register(Memory)


def _pointer_device(ptr):
    """The device CUDA says `ptr` belongs to, else the current one."""
    if ptr and _core.device_count() > 0:
        try:
            kind, dev, _, _ = _core._rt_pointer_info(ptr)
        except _core.CUDAError:
            return _core.get_device_id()
        if kind != 0:
            return dev
    return _core.get_device_id()


class UnownedMemory(BaseMemory):
    """UnownedMemory(ptr, size, owner, device_id=None)

    Memory allocated by someone else: cuarray never frees it and keeps `owner`
    alive while any pointer or array over it lives. device_id defaults to the
    device CUDA says the pointer belongs to.
    """

    def __init__(self, ptr, size, owner, device_id=None):
        size = int(size)
        if size < 0:
            raise ValueError(f"size must be >= 0, not {size}")
        self.ptr = int(ptr)
        self.size = size
        self.owner = owner
        self.device_id = _pointer_device(self.ptr) if device_id is None else int(device_id)


class _PooledMemory(BaseMemory):
    """A block of one of cuarray's pools, kept in ``_mem``."""

    def __init__(self, mem):
        self._mem = mem
        self.ptr = mem.ptr
        self.size = mem.size
        self.device_id = mem.device_id


class ManagedMemory(_PooledMemory):
    """ManagedMemory(size)

    Managed (unified) memory of the current GPU, from cuarray's managed pool.
    """

    def __init__(self, size):
        dev = _core.get_device_id()
        pool = _core.get_managed_memory_pool(None if dev < 0 else dev)
        super().__init__(pool.malloc(int(size)))


class AsyncMemory(BaseMemory):
    """AsyncMemory(size, stream=None)

    Memory from CUDA's stream-ordered allocator (cudaMallocAsync) on `stream`
    (default: the current stream), freed with cudaFreeAsync on the same stream.
    """

    def __init__(self, size, stream=None):
        size = int(size)
        if size < 0:
            raise ValueError(f"size must be >= 0, not {size}")
        self.device_id = _core.get_device_id()
        self._stream = _core.get_current_stream() if stream is None else stream
        self.size = size
        self.ptr = _core._rt_malloc_async(size, self._stream) if size else 0

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            try:
                _core._rt_free_async(ptr, self._stream)
            except Exception:  # noqa: BLE001 - at shutdown the runtime may be gone
                pass


def alloc(size):
    """alloc(size)

    A MemoryPointer to `size` bytes of device memory from the current allocator
    (cuarray's pool unless set_allocator says otherwise).
    """
    f = get_allocator()
    if f is None:
        return MemoryPointer(Memory(int(size)), 0)
    return f(int(size))


def malloc_managed(size):
    """malloc_managed(size): a MemoryPointer to managed memory (CuPy's allocator
    function for unified memory: ``set_allocator(malloc_managed)``)."""
    return MemoryPointer(ManagedMemory(size), 0)


# CuPy's name for the same class (cupy.cuda.MemoryAsync).
MemoryAsync = AsyncMemory


def malloc_async(size):
    """malloc_async(size): a MemoryPointer to memory from cudaMallocAsync on the
    current stream (``set_allocator(malloc_async)``)."""
    return MemoryPointer(AsyncMemory(size), 0)


class MemoryAsyncPool:
    """MemoryAsyncPool(pool_handles='current')

    CuPy's pool over CUDA's stream-ordered allocator: ``malloc`` is
    cudaMallocAsync on the current stream, freeing is cudaFreeAsync on the
    stream it was allocated on. ``set_allocator(MemoryAsyncPool().malloc)``
    puts every cuarray allocation on it. Only the device's current memory pool
    (``pool_handles='current'``) is supported.
    """

    def __init__(self, pool_handles="current"):
        if pool_handles != "current":
            raise ValueError("MemoryAsyncPool: only pool_handles='current' is supported")
        self._lock = threading.Lock()
        self._used = 0

    def malloc(self, size):
        """A MemoryPointer to `size` bytes from cudaMallocAsync."""
        return MemoryPointer(_PoolAsyncMemory(size, self), 0)

    def _add(self, n):
        with self._lock:
            self._used += n

    def used_bytes(self):
        """Bytes handed out and not yet freed."""
        return self._used

    def free_all_blocks(self, stream=None):
        """Nothing to do: CUDA's pool trims itself at synchronization."""
        _core.Device().synchronize()


class _PoolAsyncMemory(AsyncMemory):
    """AsyncMemory that a MemoryAsyncPool counts."""

    def __init__(self, size, pool):
        super().__init__(size)
        self._pool = pool
        pool._add(self.size)

    def __del__(self):
        pool = getattr(self, "_pool", None)
        if pool is not None:
            pool._add(-self.size)
        super().__del__()


# ---- allocators ------------------------------------------------------------------

_thread = threading.local()
_global_allocator = None


def set_allocator(allocator=None):
    """set_allocator(allocator=None)

    Make `allocator` (a callable size -> MemoryPointer) serve every device
    allocation of cuarray in every thread; None restores cuarray's own pool.
    """
    global _global_allocator
    if allocator is not None and not callable(allocator):
        raise TypeError("set_allocator: the allocator must be callable or None")
    _core._set_allocator(allocator, False)
    _global_allocator = allocator


def get_allocator():
    """The allocator in force for this thread (None: cuarray's pool)."""
    if getattr(_thread, "depth", 0):
        return _thread.allocator
    return _global_allocator


@contextlib.contextmanager
def using_allocator(allocator=None):
    """using_allocator(allocator=None)

    Use `allocator` in this thread within the block (None: cuarray's pool).
    """
    if allocator is not None and not callable(allocator):
        raise TypeError("using_allocator: the allocator must be callable or None")
    prev_depth = getattr(_thread, "depth", 0)
    prev = getattr(_thread, "allocator", None)
    _thread.depth = prev_depth + 1
    _thread.allocator = allocator
    _core._set_allocator(allocator, True)
    try:
        yield
    finally:
        _thread.depth = prev_depth
        _thread.allocator = prev
        if prev_depth:
            _core._set_allocator(prev, True)
        else:
            _core._set_allocator(None, True, True)  # back to the process-wide one


class _FunctionMemory(BaseMemory):
    def __init__(self, ptr, size, device_id, free):
        self.ptr, self.size, self.device_id, self._free = ptr, size, device_id, free

    def __del__(self):
        ptr, self.ptr = getattr(self, "ptr", 0), 0
        if ptr:
            self._free(ptr, self.device_id)


class PythonFunctionAllocator:
    """PythonFunctionAllocator(malloc_func, free_func)

    An allocator over two Python functions: ``malloc_func(size, device_id)``
    returns an address (int), ``free_func(ptr, device_id)`` frees it.
    """

    def __init__(self, malloc_func, free_func):
        self._malloc, self._free = malloc_func, free_func

    def __call__(self, size):
        dev = _core.get_device_id()
        ptr = int(self._malloc(int(size), dev)) if size else 0
        if size and not ptr:
            raise OutOfMemoryError(f"the allocator returned NULL for {size} bytes")
        return MemoryPointer(_FunctionMemory(ptr, int(size), dev, self._free), 0)


_C_MALLOC = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
_C_FREE = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int)


class CFunctionAllocator:
    """CFunctionAllocator(param, malloc_func, free_func, owner)

    An allocator over C functions given by address:
    ``void *malloc_func(void *param, size_t size, int device_id)`` and
    ``void free_func(void *param, void *ptr, int device_id)``; `owner` is kept
    alive as long as the allocator.
    """

    def __init__(self, param, malloc_func, free_func, owner):
        self._param = int(param)
        self._malloc = _C_MALLOC(int(malloc_func))
        self._cfree = _C_FREE(int(free_func))
        self._owner = owner

    def _free(self, ptr, dev):
        self._cfree(self._param, ptr, dev)

    def __call__(self, size):
        dev = _core.get_device_id()
        ptr = self._malloc(self._param, int(size), dev) if size else 0
        if size and not ptr:
            raise OutOfMemoryError(f"the allocator returned NULL for {size} bytes")
        return MemoryPointer(_FunctionMemory(ptr or 0, int(size), dev, self._free), 0)


def cupy_allocator(size):
    """cupy_allocator(size)

    For ``cupy.cuda.set_allocator(cuarray.cuda.cupy_allocator)``: CuPy's arrays
    then come from cuarray's pool (one cache for both libraries; our
    statistics count their bytes). Returns a ``cupy.cuda.MemoryPointer`` over a
    cuarray Memory of the current device, allocated on CuPy's current stream.
    """
    import cupy  # only the caller has CuPy

    dev = cupy.cuda.runtime.getDevice()
    stream = cupy.cuda.get_current_stream()
    with _core.Device(dev), _core.Stream(ptr=int(stream.ptr), device_id=dev):
        mem = Memory(int(size))
    return cupy.cuda.MemoryPointer(
        cupy.cuda.UnownedMemory(mem.ptr, int(size), mem, dev), 0)


def torch_allocator():
    """torch_allocator()

    A ``torch.cuda.memory.CUDAPluggableAllocator`` over cuarray's device pools:
    ``torch.cuda.memory.change_current_allocator(cuarray.cuda.torch_allocator())``
    (before PyTorch's first CUDA allocation) makes PyTorch's tensors come from
    cuarray's pool, ordered on PyTorch's streams, counted in our statistics. The
    C entry points are ``cuarray_torch_malloc`` / ``cuarray_torch_free``, the only
    symbols cuarray._core exports besides its init (csrc/memory/torch_alloc.c).
    """
    import torch  # only the caller has PyTorch

    return torch.cuda.memory.CUDAPluggableAllocator(
        _core.__file__, "cuarray_torch_malloc", "cuarray_torch_free")


__all__ = ["BaseMemory", "Memory", "UnownedMemory", "ManagedMemory", "AsyncMemory",
           "MemoryAsync",
           "MemoryPointer", "MemoryPool", "MemoryAsyncPool", "OutOfMemoryError",
           "alloc", "malloc_managed", "malloc_async", "set_allocator", "get_allocator",
           "using_allocator", "PythonFunctionAllocator", "CFunctionAllocator",
           "cupy_allocator", "torch_allocator"]

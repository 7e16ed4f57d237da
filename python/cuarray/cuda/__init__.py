"""cuarray.cuda: CUDA devices, streams, events and errors, with CuPy's names.

Everything here also works where there is no GPU: the cpu device has streams
and events too, and they are synchronous.

The names of the C core are here at import; the Python submodules (runtime, stream,
device, memory, pinned_memory, nvtx, profiler, compiler, driver, nvrtc, cub, thrust,
texture, common, ...) and the names taken from them are imported on first use
(``__getattr__`` below, as in cuarray/__init__.py). Every name of CuPy's cupy.cuda is
here (tests/test_cuda_names.py lists the 58).
"""

from .. import _core

CUDAError = _core.CUDAError
CUBLASError = _core.CUBLASError
CURANDError = _core.CURANDError
CUFFTError = _core.CUFFTError
CUSOLVERError = _core.CUSOLVERError
CUSPARSEError = _core.CUSPARSEError
OutOfMemoryError = _core.OutOfMemoryError

Device = _core.Device
Stream = _core.Stream
from . import graph  # noqa: E402 (Stream.begin_capture & co.)
Graph = graph.Graph
Event = _core.Event

device_count = _core.device_count
is_available = _core.is_available
get_device_id = _core.get_device_id
get_current_stream = _core.get_current_stream
get_elapsed_time = _core.get_elapsed_time
runtime_version = _core.runtime_version
driver_version = _core.driver_version

# Imported on first use: each submodule, with the names this namespace takes from it
# (tests/test_import.py checks the table against the modules).
_LAZY_MODULES = {
    "runtime": (),
    "stream": ("ExternalStream",),
    "device": ("get_cublas_handle", "get_compute_capability"),
    "memory": (
        "BaseMemory", "UnownedMemory", "ManagedMemory", "AsyncMemory", "MemoryAsync",
        "MemoryPointer", "MemoryAsyncPool", "alloc", "malloc_managed", "malloc_async", "set_allocator",
        "get_allocator", "using_allocator", "PythonFunctionAllocator",
        "CFunctionAllocator", "cupy_allocator", "torch_allocator"),
    "pinned_memory": (
        "PinnedMemory", "PinnedMemoryPointer", "alloc_pinned_memory",
        "set_pinned_memory_allocator"),
    "nvtx": (),
    "profiler": ("profile",),
    "memory_hook": ("MemoryHook",),
    "function": ("Module", "Function"),
    "memory_hooks": (),
    # where CUDA is installed (os, shutil, ctypes): cupy.cuda's get_cuda_path & co.
    "_environment": ("get_cuda_path", "get_nvcc_path", "get_rocm_path", "get_hipcc_path",
                     "get_local_runtime_version"),
    # NVRTC's side (CompileException, the kernel caches): hashlib, json, tempfile
    "compiler": ("CompileException",),
    # the rest of cupy.cuda's modules (issue 40): the driver API through ctypes,
    # CuPy's NVRTC program API, what CUB/Thrust do for cuarray, texture objects
    # (not supported: a documented error), CuPy's shared helpers
    "driver": (),
    "nvrtc": (),
    "cub": (),
    "thrust": (),
    "texture": (),
    "common": (),
}
_LAZY = {name: mod for mod, names in _LAZY_MODULES.items() for name in names}

__all__ = ["CUDAError", "CUBLASError", "CURANDError", "CUFFTError", "CUSOLVERError",
           "CUSPARSEError",
           "OutOfMemoryError",
           "Device",
           "Stream", "ExternalStream", "Event", "device_count", "is_available",
           "get_device_id", "get_current_stream", "get_elapsed_time", "runtime_version",
           "driver_version", "runtime", "stream", "device", "memory", "pinned_memory",
           "nvtx", "profiler", "compiler", "get_cublas_handle", "get_compute_capability",
           "BaseMemory", "UnownedMemory", "ManagedMemory", "AsyncMemory", "MemoryPointer",
           "MemoryAsyncPool", "alloc", "malloc_managed", "malloc_async", "set_allocator",
           "get_allocator", "using_allocator", "PythonFunctionAllocator",
           "CFunctionAllocator", "cupy_allocator", "torch_allocator", "PinnedMemory", "PinnedMemoryPointer",
           "alloc_pinned_memory", "set_pinned_memory_allocator", "CompileException",
           "profile", "get_cuda_path", "get_nvcc_path", "get_rocm_path", "get_hipcc_path",
           "get_local_runtime_version", "memory_hook", "memory_hooks", "MemoryHook",
           "function", "Module", "Function", "graph", "Graph", "MemoryAsync", "driver",
           "nvrtc", "cub", "thrust", "texture", "common"]
# memory: pools and the Memory object (csrc/memory/memory.c, csrc/memory/pool.c)
from .._core import (  # noqa: E402,F401
    Memory, MemoryPool, PinnedMemoryPool, get_default_memory_pool,
    get_default_pinned_memory_pool, get_managed_memory_pool,
)
__all__ += ["Memory", "MemoryPool", "PinnedMemoryPool", "get_default_memory_pool",
            "get_default_pinned_memory_pool", "get_managed_memory_pool"]
# end memory


def __getattr__(name):
    mod = _LAZY.get(name)
    if mod is None:
        if name not in _LAZY_MODULES:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        mod = name  # the submodule itself
    import importlib  # (from . import X would ask this hook again)
    m = importlib.import_module(__name__ + "." + mod)
    g = globals()
    for n in _LAZY_MODULES[mod]:
        g.setdefault(n, getattr(m, n))
    return m if mod == name else g[name]


def __dir__():
    return sorted(set(globals()) | set(_LAZY) | set(_LAZY_MODULES))

"""cuarray.cuda: CUDA devices, streams, events and errors, with CuPy's names.

Everything here also works where there is no GPU: the cpu device has streams
and events too, and they are synchronous.
"""

from .. import _core

CUDAError = _core.CUDAError
CUBLASError = _core.CUBLASError
CURANDError = _core.CURANDError
CUFFTError = _core.CUFFTError
CUSOLVERError = _core.CUSOLVERError
OutOfMemoryError = _core.OutOfMemoryError

Device = _core.Device
Stream = _core.Stream
Event = _core.Event

device_count = _core.device_count
is_available = _core.is_available
get_device_id = _core.get_device_id
get_current_stream = _core.get_current_stream
get_elapsed_time = _core.get_elapsed_time
runtime_version = _core.runtime_version
driver_version = _core.driver_version

from . import runtime  # noqa: E402
from . import stream, device, memory, pinned_memory, nvtx, profiler  # noqa: E402
from .stream import ExternalStream  # noqa: E402
from .device import get_cublas_handle, get_compute_capability  # noqa: E402
from .memory import (  # noqa: E402
    BaseMemory, UnownedMemory, ManagedMemory, AsyncMemory, MemoryPointer, MemoryAsyncPool,
    alloc, malloc_managed, malloc_async, set_allocator, get_allocator, using_allocator,
    PythonFunctionAllocator, CFunctionAllocator, cupy_allocator, torch_allocator,
)
from .pinned_memory import (  # noqa: E402
    PinnedMemory, PinnedMemoryPointer, alloc_pinned_memory, set_pinned_memory_allocator,
)

__all__ = ["CUDAError", "CUBLASError", "CURANDError", "CUFFTError", "CUSOLVERError",
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
           "alloc_pinned_memory", "set_pinned_memory_allocator", "CompileException"]
# memory: pools and the Memory object (csrc/memory.c, csrc/pool.c)
from .._core import (  # noqa: E402,F401
    Memory, MemoryPool, PinnedMemoryPool, get_default_memory_pool,
    get_default_pinned_memory_pool, get_managed_memory_pool,
)
__all__ += ["Memory", "MemoryPool", "PinnedMemoryPool", "get_default_memory_pool",
            "get_default_pinned_memory_pool", "get_managed_memory_pool"]
# end memory


# NVRTC's side (compiler.py: CompileException, the kernel caches) is imported on
# first use, as cuarray's user kernels are (it brings hashlib, json and tempfile).
def __getattr__(name):
    if name in ("compiler", "CompileException"):
        import importlib  # (from . import compiler would ask this hook again)
        compiler = importlib.import_module(__name__ + ".compiler")
        globals()["CompileException"] = compiler.CompileException
        return compiler if name == "compiler" else compiler.CompileException
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | {"compiler", "CompileException"})

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


def ExternalStream(ptr, device_id=None):
    """ExternalStream(ptr, device_id=None)

    Wrap a cudaStream_t made by another library (CuPy, PyTorch, ...); cuarray
    never destroys it. device_id defaults to the current device.
    """
    return Stream(ptr=ptr, device_id=device_id)


__all__ = ["CUDAError", "CUBLASError", "CURANDError", "CUFFTError", "CUSOLVERError",
           "OutOfMemoryError",
           "Device",
           "Stream", "ExternalStream", "Event", "device_count", "is_available",
           "get_device_id", "get_current_stream", "get_elapsed_time", "runtime_version",
           "driver_version", "runtime"]

# memory: pools and the Memory object (csrc/memory.c, csrc/pool.c)
from .._core import (  # noqa: E402,F401
    Memory, MemoryPool, PinnedMemoryPool, get_default_memory_pool,
    get_default_pinned_memory_pool, get_managed_memory_pool,
)
__all__ += ["Memory", "MemoryPool", "PinnedMemoryPool", "get_default_memory_pool",
            "get_default_pinned_memory_pool", "get_managed_memory_pool"]
# end memory

"""cuarray.cuda.stream: streams and events, by CuPy's module names.

``Stream.from_external(obj)`` wraps any object with ``__cuda_stream__`` (the CUDA
stream protocol), and cuarray's streams have ``__cuda_stream__`` themselves.
"""

from .. import _core

Stream = _core.Stream
Event = _core.Event
get_current_stream = _core.get_current_stream
get_elapsed_time = _core.get_elapsed_time


def ExternalStream(ptr, device_id=None):
    """ExternalStream(ptr, device_id=None)

    Wrap a cudaStream_t made by another library (CuPy, PyTorch, ...); cuarray
    never destroys it. device_id defaults to the current device.
    """
    return Stream(ptr=int(ptr), device_id=device_id)


def get_current_stream_ptr():
    """The current stream's handle as an int."""
    return get_current_stream().ptr


__all__ = ["Stream", "ExternalStream", "Event", "get_current_stream",
           "get_elapsed_time", "get_current_stream_ptr"]

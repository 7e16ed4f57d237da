"""cuarray.cuda: CUDA devices, streams, events and errors (CuPy's names)."""

from .. import _core

CUDAError = _core.CUDAError
CUBLASError = _core.CUBLASError
CURANDError = _core.CURANDError
OutOfMemoryError = _core.OutOfMemoryError
Device = _core.Device

device_count = _core.device_count
is_available = _core.is_available
get_device_id = _core.get_device_id

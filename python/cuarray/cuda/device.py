"""cuarray.cuda.device: devices, by CuPy's module names."""

from .. import _core

Device = _core.Device
get_device_id = _core.get_device_id


def get_cublas_handle():
    """The current GPU's cuBLAS handle (an int, cublasHandle_t), pointed at the
    current stream; cuBLAS is loaded on first use. cuarray's own products use
    the same handle, so do not change its math mode or workspace."""
    return _core._cublas_handle()


def get_compute_capability(device=None):
    """The compute capability of `device` (default: current) as CuPy's string,
    e.g. '90'."""
    return _core.Device(device).compute_capability


__all__ = ["Device", "get_device_id", "get_cublas_handle", "get_compute_capability"]

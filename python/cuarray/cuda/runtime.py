"""cuarray.cuda.runtime: the few CUDA runtime calls CuPy code reaches for, by CuPy's names."""

from .. import _core

CUDARuntimeError = _core.CUDAError


def getDeviceCount():
    """Number of usable CUDA devices (0 without a driver or GPU)."""
    return _core.device_count()


def runtimeGetVersion():
    """The CUDA runtime's version, e.g. 13000 (0 in a host-only build)."""
    return _core.runtime_version()


def driverGetVersion():
    """The CUDA driver's version, e.g. 13000 (0 without a driver)."""
    return _core.driver_version()


def getDevice():
    """Ordinal of this thread's current device (-1: the cpu device)."""
    return _core.get_device_id()


def setDevice(device):
    """Make `device` this thread's current device (like Device(device).use())."""
    _core.Device(device).use()


def deviceSynchronize():
    """Wait for all work on the current device."""
    _core.Device().synchronize()

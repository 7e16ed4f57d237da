"""cuarray.cuda.runtime: the CUDA runtime calls CuPy code reaches for, by CuPy's names.

Pointers and streams are ints (a cuarray Stream is accepted where a stream is).
malloc/free, memcpy & co. act on the current GPU; copies with an explicit kind
go on the given stream (memcpy: the current stream, then a wait for it, which
orders them like CuPy's blocking cudaMemcpy for code that uses one stream).
"""

from .. import _core

CUDARuntimeError = _core.CUDAError

# cudaMemcpyKind
memcpyHostToHost = 0
memcpyHostToDevice = 1
memcpyDeviceToHost = 2
memcpyDeviceToDevice = 3
memcpyDefault = 4

# cudaMemAttach*
cudaMemAttachGlobal = 1
cudaMemAttachHost = 2

# cudaMemoryType (pointerGetAttributes().type)
memoryTypeUnregistered = 0
memoryTypeHost = 1
memoryTypeDevice = 2
memoryTypeManaged = 3

# cudaStream flags / special handles
streamDefault = 0
streamNonBlocking = 1
streamLegacy = 1
streamPerThread = 2

# cudaHostAlloc flags
hostAllocDefault = 0
hostAllocPortable = 1
hostAllocMapped = 2
hostAllocWriteCombined = 4

# a few cudaDeviceAttr values (cuda_runtime_api.h)
cudaDevAttrMaxThreadsPerBlock = 1
cudaDevAttrMaxSharedMemoryPerBlock = 8
cudaDevAttrWarpSize = 10
cudaDevAttrMultiProcessorCount = 16
cudaDevAttrComputeCapabilityMajor = 75
cudaDevAttrComputeCapabilityMinor = 76
cudaDevAttrMaxSharedMemoryPerBlockOptin = 97


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


def getDeviceProperties(device):
    """cudaGetDeviceProperties(device) as a dict of CuPy's keys ('name' is bytes,
    'totalGlobalMem', 'major', 'minor', 'multiProcessorCount', ...)."""
    return _core._rt_device_properties(int(device))


def deviceGetAttribute(attrib, device):
    """cudaDeviceGetAttribute(attrib, device)."""
    return _core._rt_device_attribute(int(attrib), int(device))


def memGetInfo():
    """(free, total) bytes of the current GPU's memory."""
    return _core.Device().mem_info


def malloc(size):
    """cudaMalloc(size) on the current GPU: an int pointer, outside cuarray's pool.
    Free it with free()."""
    return _core._rt_malloc(int(size))


def mallocManaged(size, flags=cudaMemAttachGlobal):
    """cudaMallocManaged(size, flags): an int pointer; free it with free()."""
    return _core._rt_malloc(int(size), 1, int(flags))


def mallocAsync(size, stream):
    """cudaMallocAsync(size, stream): an int pointer; free it with freeAsync()."""
    return _core._rt_malloc_async(int(size), stream)


def free(ptr):
    """cudaFree(ptr) of memory from malloc() / mallocManaged()."""
    _core._rt_free(int(ptr))


def freeAsync(ptr, stream):
    """cudaFreeAsync(ptr, stream)."""
    _core._rt_free_async(int(ptr), stream)


def hostAlloc(size, flags=hostAllocPortable | hostAllocMapped):
    """cudaHostAlloc(size, flags): page-locked host memory (always portable;
    mapped unless flags leave out hostAllocMapped)."""
    return _core._rt_host_alloc(int(size), bool(int(flags) & hostAllocMapped))


def mallocHost(size):
    """cudaMallocHost(size): page-locked host memory."""
    return _core._rt_host_alloc(int(size), True)


def freeHost(ptr):
    """cudaFreeHost(ptr)."""
    _core._rt_host_free(int(ptr))


def memcpy(dst, src, size, kind):
    """cudaMemcpy(dst, src, size, kind): returns when the copy is done."""
    _core._rt_memcpy(int(dst), int(src), int(size), int(kind), None, True)


def memcpyAsync(dst, src, size, kind, stream):
    """cudaMemcpyAsync(dst, src, size, kind, stream)."""
    _core._rt_memcpy(int(dst), int(src), int(size), int(kind), stream, False)


def memset(ptr, value, size):
    """cudaMemset(ptr, value, size): returns when it is done."""
    _core._rt_memset(int(ptr), int(value), int(size), None, True)


def memsetAsync(ptr, value, size, stream):
    """cudaMemsetAsync(ptr, value, size, stream)."""
    _core._rt_memset(int(ptr), int(value), int(size), stream, False)


class _PointerAttributes:
    __slots__ = ("type", "device", "devicePointer", "hostPointer")

    def __init__(self, t):
        self.type, self.device, self.devicePointer, self.hostPointer = t

    def __repr__(self):
        return (f"PointerAttributes(type={self.type}, device={self.device}, "
                f"devicePointer=0x{self.devicePointer:x}, "
                f"hostPointer=0x{self.hostPointer:x})")


def pointerGetAttributes(ptr):
    """cudaPointerGetAttributes(ptr): .type (memoryType*), .device,
    .devicePointer, .hostPointer."""
    return _PointerAttributes(_core._rt_pointer_info(int(ptr)))


def streamSynchronize(stream):
    """cudaStreamSynchronize(stream) (an int handle or a Stream)."""
    _core._rt_stream_sync(stream)


# CuPy exposes this as a module constant
is_hip = False

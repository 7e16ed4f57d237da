"""cuarray.cuda.driver: CuPy's thin wrapper of the CUDA driver API, by its names.

cuarray itself runs on the CUDA runtime (linked statically), so the driver calls
here go to the driver library, libcuda.so.1, through ctypes: loaded and
initialised (cuInit) on the first call that needs it. As in CuPy, each name is
the driver function's without its ``cu`` prefix, results are returned rather than
written through pointers, handles are ints, and a failed status raises
CUDADriverError naming the status (CUDA_ERROR_NO_DEVICE where no driver can be
loaded: a machine without a GPU). get_build_version() needs no driver: it is the
CUDA version cuarray was built with (0 for a host-only build).
"""

import ctypes

from .. import _core

__all__ = [
    "CUDADriverError", "get_build_version", "is_hip", "ctxGetCurrent", "ctxSetCurrent",
    "ctxGetDevice", "devicePrimaryCtxRelease", "moduleLoad", "moduleLoadData",
    "moduleUnload", "moduleGetFunction", "moduleGetGlobal", "launchKernel",
    "funcGetAttribute", "funcSetAttribute", "occupancyMaxActiveBlocksPerMultiprocessor",
    "occupancyMaxPotentialBlockSize",
]

is_hip = False

# CUfunction_attribute (cuda.h)
CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0
CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1
CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2
CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3
CU_FUNC_ATTRIBUTE_NUM_REGS = 4
CU_FUNC_ATTRIBUTE_PTX_VERSION = 5
CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6
CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7
CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8
CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9
__all__ += [n for n in list(globals()) if n.startswith("CU_FUNC_ATTRIBUTE_")]

CUDA_ERROR_INVALID_VALUE = 1
CUDA_ERROR_NO_DEVICE = 100


class CUDADriverError(RuntimeError):
    """A CUDA driver call failed; ``status`` is the CUresult."""

    def __init__(self, status, message=None):
        self.status = int(status)
        if message is None:
            message = _status_text(self.status)
        super().__init__(message)

    def __reduce__(self):
        return (type(self), (self.status, str(self)))


def get_build_version():
    """The CUDA version cuarray was built with (CUDA's 1000 * major + 10 * minor;
    0 for a host-only build). CuPy's is its build headers' CUDA_VERSION."""
    return int(_core.build_info().get("cudart_version") or 0)


_cuda = None  # the driver library, once loaded and initialised


def _status_text(status):
    lib = _cuda
    if lib is not None:
        name, text = ctypes.c_char_p(), ctypes.c_char_p()
        if (lib.cuGetErrorName(status, ctypes.byref(name)) == 0
                and lib.cuGetErrorString(status, ctypes.byref(text)) == 0):
            return f"{name.value.decode()}: {text.value.decode()}"
    return f"CUDA driver error {status}"


def _check(status):
    if status != 0:
        raise CUDADriverError(status)


def _lib():
    global _cuda
    if _cuda is None:
        try:
            lib = ctypes.CDLL("libcuda.so.1")
        except OSError as e:
            raise CUDADriverError(
                CUDA_ERROR_NO_DEVICE,
                f"CUDA_ERROR_NO_DEVICE: no CUDA driver (libcuda.so.1) could be loaded "
                f"({e})") from None
        st = lib.cuInit(0)
        if st != 0:
            _cuda = lib  # for the status text
            try:
                _check(st)
            finally:
                _cuda = None
        _cuda = lib
    return _cuda


def _ptr(v=0):
    return ctypes.c_void_p(v)


def ctxGetCurrent():
    """The calling thread's current context (0 for none)."""
    ctx = _ptr()
    _check(_lib().cuCtxGetCurrent(ctypes.byref(ctx)))
    return ctx.value or 0


def ctxSetCurrent(ctx):
    """Bind context `ctx` (an int handle; 0 unbinds) to the calling thread."""
    _check(_lib().cuCtxSetCurrent(_ptr(int(ctx))))


def ctxGetDevice():
    """The device ordinal of the current context."""
    dev = ctypes.c_int()
    _check(_lib().cuCtxGetDevice(ctypes.byref(dev)))
    return dev.value


def devicePrimaryCtxRelease(dev):
    """Release device `dev`'s primary context (the one cuarray's runtime uses)."""
    _check(_lib().cuDevicePrimaryCtxRelease(ctypes.c_int(int(dev))))


def moduleLoad(filename):
    """Load a cubin, fatbin or PTX file into the current context; a module handle."""
    mod = _ptr()
    _check(_lib().cuModuleLoad(ctypes.byref(mod), str(filename).encode()))
    return mod.value


def moduleLoadData(image):
    """Load an image (bytes: cubin, fatbin, or PTX text) into the current context."""
    if isinstance(image, str):
        image = image.encode()
    buf = ctypes.create_string_buffer(bytes(image))  # NUL-terminated for PTX
    mod = _ptr()
    _check(_lib().cuModuleLoadData(ctypes.byref(mod), buf))
    return mod.value


def moduleUnload(module):
    _check(_lib().cuModuleUnload(_ptr(int(module))))


def moduleGetFunction(module, funcname):
    """The handle of kernel `funcname` (its mangled name, or an extern "C" one)."""
    f = _ptr()
    _check(_lib().cuModuleGetFunction(ctypes.byref(f), _ptr(int(module)),
                                      str(funcname).encode()))
    return f.value


def moduleGetGlobal(module, varname):
    """The device address of global `varname` (as CuPy: the address alone)."""
    p, size = ctypes.c_uint64(), ctypes.c_size_t()
    _check(_lib().cuModuleGetGlobal_v2(ctypes.byref(p), ctypes.byref(size),
                                       _ptr(int(module)), str(varname).encode()))
    return p.value


def launchKernel(f, grid_dim_x, grid_dim_y, grid_dim_z, block_dim_x, block_dim_y,
                 block_dim_z, shared_mem_bytes, stream, kernel_params, extra):
    """cuLaunchKernel; `kernel_params` and `extra` are addresses (ints) of the
    void* arrays, `stream` a stream handle (Stream.ptr)."""
    u = ctypes.c_uint
    _check(_lib().cuLaunchKernel(
        _ptr(int(f)), u(grid_dim_x), u(grid_dim_y), u(grid_dim_z), u(block_dim_x),
        u(block_dim_y), u(block_dim_z), u(shared_mem_bytes), _ptr(int(stream)),
        _ptr(int(kernel_params)), _ptr(int(extra))))


def funcGetAttribute(attribute, f):
    """A kernel attribute (CU_FUNC_ATTRIBUTE_*); -1 where this driver lacks it."""
    v = ctypes.c_int()
    st = _lib().cuFuncGetAttribute(ctypes.byref(v), ctypes.c_int(int(attribute)),
                                   _ptr(int(f)))
    if st == CUDA_ERROR_INVALID_VALUE:
        return -1
    _check(st)
    return v.value


def funcSetAttribute(f, attribute, value):
    _check(_lib().cuFuncSetAttribute(_ptr(int(f)), ctypes.c_int(int(attribute)),
                                     ctypes.c_int(int(value))))


def occupancyMaxActiveBlocksPerMultiprocessor(func, blockSize, dynamicSMemSize):
    n = ctypes.c_int()
    _check(_lib().cuOccupancyMaxActiveBlocksPerMultiprocessor(
        ctypes.byref(n), _ptr(int(func)), ctypes.c_int(int(blockSize)),
        ctypes.c_size_t(int(dynamicSMemSize))))
    return n.value


def occupancyMaxPotentialBlockSize(func, dynamicSMemSize, blockSizeLimit):
    """(minimum grid size, block size) for the most occupancy (no shared-memory
    function: as CuPy, a fixed dynamic shared size)."""
    grid, block = ctypes.c_int(), ctypes.c_int()
    _check(_lib().cuOccupancyMaxPotentialBlockSize(
        ctypes.byref(grid), ctypes.byref(block), _ptr(int(func)), None,
        ctypes.c_size_t(int(dynamicSMemSize)), ctypes.c_int(int(blockSizeLimit))))
    return grid.value, block.value

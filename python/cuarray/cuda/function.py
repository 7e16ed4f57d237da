"""CuPy's cupy.cuda.function: a loaded CUDA image (Module) and its kernels
(Function), for code that compiles its own cubin/PTX/fatbin (nvcc, a cache) and
launches it directly. RawModule (cuarray.RawModule) is the same with NVRTC in front.

Images load context-independently (cudaLibraryLoadData, as RawModule's), so one
Module serves every device.
"""

from .. import _core

__all__ = ["Module", "Function"]


class Module:
    """Module(): load an image with `load_file(path)` or `load(image_bytes)`, then
    `get_function(name)` and `get_global_var(name)`."""

    def __init__(self):
        self._lib = None

    def load_file(self, fname):
        """Load a .cubin, .fatbin or .ptx file."""
        with open(fname, "rb") as f:
            self.load(f.read())

    def load(self, image):
        """Load an image given as bytes (a cubin, a fatbin, or PTX text)."""
        if isinstance(image, str):
            image = image.encode()
        if not isinstance(image, (bytes, bytearray)):
            raise TypeError(f"Module.load: image must be bytes, not "
                            f"{type(image).__name__}")
        image = bytes(image)
        if image[:1] != b"\x7f" and not image.endswith(b"\0"):
            image += b"\0"  # PTX text is read up to its NUL
        self._lib = _core._library_load(image)

    def _library(self):
        if self._lib is None:
            raise RuntimeError("Module: nothing is loaded (call load_file or load first)")
        return self._lib

    def get_function(self, name):
        """The kernel `name` (an extern "C" __global__ function) as a Function."""
        return Function(self, name)

    def get_global_var(self, name):
        """A MemoryPointer to the __device__ variable `name` on the current device
        (the Module stays alive while the pointer does)."""
        from .memory import MemoryPointer, UnownedMemory
        ptr, size = _core._library_get_global(self._library(), name)
        return MemoryPointer(UnownedMemory(ptr, size, self), 0)


class Function:
    """A kernel of a Module: `f(grid, block, args, shared_mem=0, stream=None)`,
    args as RawKernel takes them (cuarray arrays, NumPy scalars, Python numbers)."""

    def __init__(self, module, funcname):
        self.module = module
        self.name = funcname
        self.ptr = _core._library_get_kernel(module._library(), funcname)

    def __call__(self, grid, block, args, shared_mem=0, stream=None,
                 enable_cooperative_groups=False):
        if enable_cooperative_groups:
            raise ValueError("Function: cooperative launches are not supported")
        _core._launch_kernel(self.ptr, grid, block, tuple(args), shared_mem, stream)

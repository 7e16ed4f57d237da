"""Where CUDA is installed and which runtime it has: cupy.cuda's get_cuda_path & co.

Each answer is looked up once and cached, as CuPy does (``.cache_clear()`` forgets
it). cuarray has no HIP/ROCm backend, so get_rocm_path() and get_hipcc_path() always
answer None (what CuPy's CUDA builds answer where no ROCm is installed).
"""

import ctypes
import functools
import os
import shutil

from .. import _core


@functools.lru_cache(maxsize=None)
def get_cuda_path():
    """The CUDA toolkit's directory, or None: $CUDA_PATH if it exists, else the
    directory above the `bin` holding the nvcc on PATH, else /usr/local/cuda."""
    env = os.environ.get("CUDA_PATH", "")
    if env and os.path.exists(env):
        return env
    nvcc = shutil.which("nvcc")
    if nvcc is not None:
        return os.path.dirname(os.path.dirname(nvcc))
    if os.path.exists("/usr/local/cuda"):
        return "/usr/local/cuda"
    return None


@functools.lru_cache(maxsize=None)
def get_nvcc_path():
    """The nvcc command: $NVCC as given, else nvcc in get_cuda_path()'s bin, or None."""
    env = os.environ.get("NVCC")
    if env:
        return env
    cuda = get_cuda_path()
    if cuda is None:
        return None
    return shutil.which("nvcc", path=os.path.join(cuda, "bin"))


def get_rocm_path():
    """None: cuarray runs on CUDA only (there is no ROCm build)."""
    return None


def get_hipcc_path():
    """None: cuarray runs on CUDA only (there is no ROCm build)."""
    return None


def _shared_cudart():
    """The libcudart shared library this environment has (the toolkit's, else the
    loader's search path), or None."""
    names = []
    cuda = get_cuda_path()
    if cuda is not None:
        lib = os.path.join(cuda, "lib64")
        if os.path.isdir(lib):
            names += sorted((os.path.join(lib, f) for f in os.listdir(lib)
                             if f.startswith("libcudart.so")), key=len)
    names.append("libcudart.so")
    for n in names:
        try:
            return ctypes.CDLL(n)
        except OSError:
            continue
    return None


@functools.lru_cache(maxsize=None)
def get_local_runtime_version():
    """The version (e.g. 13000) of the CUDA runtime installed here, read from its
    shared library as CuPy does. cuarray links cudart statically, so
    runtime.runtimeGetVersion() is the build's runtime; where no shared libcudart is
    installed, that linked runtime is the one in use and its version is returned."""
    lib = _shared_cudart()
    if lib is not None:
        v = ctypes.c_int(0)
        if lib.cudaRuntimeGetVersion(ctypes.byref(v)) == 0 and v.value > 0:
            return v.value
    return _core.build_info()["cudart_version"]


__all__ = ["get_cuda_path", "get_nvcc_path", "get_rocm_path", "get_hipcc_path",
           "get_local_runtime_version"]

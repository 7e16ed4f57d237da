"""show_config(): what this cuarray was built with and what it finds at run time."""

import os
import sys


def _version(v):
    """CUDA's integer versions (12040) as '12.4'."""
    if not v:
        return "none"
    return f"{v // 1000}.{(v % 1000) // 10}"


def _gib(n):
    return f"{n / 2**30:.1f} GiB"


def config_lines():
    """The lines show_config() prints, as a list of strings."""
    import platform

    import numpy

    import cuarray
    from cuarray import _core, cuda

    info = _core.build_info()
    lines = [f"cuarray {info['version']} (Python {platform.python_version()}, "
             f"NumPy {numpy.__version__}, {sys.platform})"]
    if info["cuda"]:
        lines.append(f"  built with CUDA {info['cuda_version']} for {info['cuda_archs']}")
    else:
        lines.append("  built without CUDA (host-only): only the cpu device is available")
    if info.get("sanitize"):
        lines.append("  built with AddressSanitizer/UBSan")
    lines.append(f"  CUDA runtime {_version(cuda.runtime_version())}, "
                 f"driver {_version(cuda.driver_version())}")
    n = cuda.device_count()
    lines.append(f"  CUDA devices: {n}")
    for i in range(n):
        try:
            d = cuda.Device(i)
            free, total = d.mem_info
            lines.append(f"    cuda:{i}: {d.name}, compute capability {d.compute_capability}"
                         f", {_gib(total)} ({_gib(free)} free)")
        except cuda.CUDAError as e:  # a broken device must not hide the others
            lines.append(f"    cuda:{i}: unusable ({e})")
    env = os.environ.get("CUARRAY_DEVICE")
    try:
        default = str(cuarray.Device())
    except cuda.CUDAError as e:
        default = f"cuda:{cuda.get_device_id()}, which is unusable ({e.name})"
    why = f"from CUARRAY_DEVICE={env}" if env else (
        "the first GPU" if n else "no usable GPU, so the host")
    lines.append(f"  default device: {default} ({why})")
    if hasattr(cuarray, "get_default_memory_pool"):
        try:
            lines.append(f"  memory pool: {_pool_summary(cuarray.get_default_memory_pool())}")
        except Exception as e:  # report, never fail show_config
            lines.append(f"  memory pool: unavailable ({type(e).__name__}: {e})")
    if hasattr(cuarray, "get_default_pinned_memory_pool"):
        try:
            lines.append("  pinned memory pool: "
                         f"{_pool_summary(cuarray.get_default_pinned_memory_pool())}")
        except Exception as e:
            lines.append(f"  pinned memory pool: unavailable ({type(e).__name__}: {e})")
    return lines


def _pool_summary(pool):
    parts = []
    for name in ("used_bytes", "total_bytes", "get_limit"):
        f = getattr(pool, name, None)
        if callable(f):
            v = f()
            parts.append(f"{name.replace('get_', '')} {v}")
    env = os.environ.get("CUARRAY_GPU_MEMORY_LIMIT")
    if env:
        parts.append(f"CUARRAY_GPU_MEMORY_LIMIT={env}")
    return ", ".join(parts) or repr(pool)


def show_config(file=None):
    """show_config(file=None)

    Print the cuarray version, the CUDA it was built with (and for which GPU
    architectures), the CUDA runtime and driver, each device's name, memory and
    compute capability, the default device, NumPy's version and the memory pool
    settings. The one function of cuarray that prints.
    """
    print("\n".join(config_lines()), file=file or sys.stdout)

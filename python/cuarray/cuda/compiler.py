"""cuarray.cuda.compiler: NVRTC compilation of user kernels, with two caches.

Only user kernels (RawKernel, RawModule, ElementwiseKernel, ReductionKernel)
compile at run time; cuarray's own operations are compiled ahead of time.

- NVRTC is loaded on the first compile (csrc/runtime/dynlib.c), never at import.
- Compiled images are cached in memory (per process) and on disk, in
  ``$CUARRAY_KERNEL_CACHE_DIR`` or else ``$XDG_CACHE_HOME/cuarray/kernels``
  (``~/.cache/cuarray/kernels``). ``CUARRAY_KERNEL_CACHE_DISABLE=1`` turns the
  disk cache off. The key is a SHA-256 of the source, the options, the target
  architecture, the name expressions and NVRTC's version, so a new toolkit or
  GPU never reuses a stale image. Files are written atomically (a temporary
  file renamed into place) and checked against a digest when read.
- A source that does not compile raises CompileException carrying NVRTC's log.
"""

import hashlib
import json
import os
import tempfile
import threading

from .. import _core

_MAGIC = b"CAK1"
_lock = threading.Lock()
_memory_cache = {}
_nvrtc_version = None


class CompileException(Exception):
    """A user kernel failed to compile: ``str(e)`` has NVRTC's log; also
    ``e.log``, ``e.source``, ``e.name`` and ``e.options``."""

    def __init__(self, log, source, name, options):
        self.log = log
        self.source = source
        self.name = name
        self.options = tuple(options)
        super().__init__(f"{name}: NVRTC could not compile the kernel source "
                         f"(options {' '.join(options)}):\n{log}")

    def dump(self, f):
        """Write the numbered source and the log to the file object `f`."""
        for i, line in enumerate(self.source.splitlines(), 1):
            f.write(f"{i:4d} {line}\n")
        f.write(self.log)


def get_nvrtc_version():
    """NVRTC's (major, minor); loads NVRTC on the first call."""
    global _nvrtc_version
    if _nvrtc_version is None:
        _nvrtc_version = _core._nvrtc_version()
    return _nvrtc_version


def get_cache_dir():
    """The directory of the disk cache (not created until something is stored)."""
    d = os.environ.get("CUARRAY_KERNEL_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                            ".cache")
    return os.path.join(base, "cuarray", "kernels")


def _disk_enabled():
    return os.environ.get("CUARRAY_KERNEL_CACHE_DISABLE", "") not in ("1", "true", "yes")


def current_arch():
    """The target NVRTC compiles for on the current device, e.g. 'sm_90'."""
    dev = _core.get_device_id()
    if dev < 0:
        raise ValueError(
            "user kernels run on a CUDA GPU, and the current device is the cpu: make a "
            "GPU current (cuarray.cuda.Device(0).use())")
    return "sm_" + _core.Device(dev).compute_capability


def _include_dirs():
    """The CUDA toolkit's include directory, for headers NVRTC does not build in
    (cuda_fp16.h, ...): $CUDA_HOME, $CUDA_PATH, NVIDIA's nvrtc wheel, or
    /usr/local/cuda."""
    cands = [os.path.join(os.environ[v], "include") for v in ("CUDA_HOME", "CUDA_PATH")
             if os.environ.get(v)]
    cands.append("/usr/local/cuda/include")
    for d in cands:
        if os.path.isfile(os.path.join(d, "cuda_fp16.h")):
            return [d]
    return []


_include_cache = None


def include_options():
    """-I options NVRTC gets by default (the toolkit's headers), cached."""
    global _include_cache
    if _include_cache is None:
        _include_cache = tuple(f"-I{d}" for d in _include_dirs())
    return _include_cache


class Binary:
    """A compiled image: ``image`` (bytes), ``kind`` ('cubin' or 'ptx'),
    ``lowered`` (name expression -> mangled name), ``log``, ``key``."""

    __slots__ = ("image", "kind", "lowered", "log", "key", "from_disk")

    def __init__(self, image, kind, lowered, log, key, from_disk=False):
        self.image, self.kind, self.lowered, self.log, self.key = (image, kind, lowered,
                                                                   log, key)
        self.from_disk = from_disk


def cache_key(source, options, arch, name_expressions=(), nvrtc_version=None):
    """The SHA-256 (hex) a compiled image is stored under."""
    v = get_nvrtc_version() if nvrtc_version is None else tuple(nvrtc_version)
    h = hashlib.sha256()
    for part in (_MAGIC.decode(), "nvrtc %d.%d" % tuple(v), arch, "\0".join(options),
                 "\0".join(name_expressions), source):
        b = part.encode()
        h.update(len(b).to_bytes(8, "little"))
        h.update(b)
    return h.hexdigest()


def _read_disk(path, key):
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError:
        return None
    try:
        if blob[:4] != _MAGIC:
            return None
        n = int.from_bytes(blob[4:8], "little")
        meta = json.loads(blob[8:8 + n].decode())
        image = blob[8 + n:]
        if meta.get("key") != key or hashlib.sha256(image).hexdigest() != meta["sha256"]:
            return None
        return Binary(image, meta["kind"], dict(meta["lowered"]), meta.get("log", ""),
                      key, True)
    except (ValueError, KeyError, TypeError):
        return None  # a damaged entry: compile again and overwrite it


def _write_disk(path, b):
    meta = json.dumps({"key": b.key, "kind": b.kind, "lowered": sorted(b.lowered.items()),
                       "log": b.log, "sha256": hashlib.sha256(b.image).hexdigest()}).encode()
    d = os.path.dirname(path)
    try:
        os.makedirs(d, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(_MAGIC + len(meta).to_bytes(4, "little") + meta + b.image)
        os.replace(tmp, path)
    except OSError:
        pass  # a read-only or full cache directory only costs a recompile


def compile_with_cache(source, options=(), arch=None, cache_dir=None,
                       name_expressions=(), name="kernel.cu"):
    """compile_with_cache(source, options=(), arch=None, cache_dir=None,
    name_expressions=(), name='kernel.cu')

    Compile CUDA C++ `source` with NVRTC for `arch` ('sm_90' gives a cubin,
    'compute_90' PTX; default: the current GPU's sm_XY), from the memory cache,
    the disk cache or NVRTC, in that order. Returns a Binary. Raises
    CompileException with NVRTC's log when the source does not compile.
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, not {type(source).__name__}")
    options = tuple(str(o) for o in options) + include_options()
    name_expressions = tuple(str(e) for e in (name_expressions or ()))
    if arch is None:
        arch = current_arch()
    if not (arch.startswith("sm_") or arch.startswith("compute_")):
        raise ValueError(f"arch must look like 'sm_90' or 'compute_90', not {arch!r}")
    key = cache_key(source, options, arch, name_expressions)
    b = _memory_cache.get(key)
    if b is not None:
        return b
    disk = _disk_enabled() or cache_dir is not None
    path = os.path.join(cache_dir or get_cache_dir(), key[:2], key + ".bin")
    if disk:
        b = _read_disk(path, key)
    if b is None:
        cubin = arch.startswith("sm_")
        opts = options + (f"--gpu-architecture={arch}",)
        ok, image, log, lowered = _core._nvrtc_compile(source, name, opts,
                                                       name_expressions, cubin)
        if not ok:
            raise CompileException(log, source, name, opts)
        b = Binary(image, "cubin" if cubin else "ptx", dict(zip(name_expressions, lowered)),
                   log, key)
        if disk:
            _write_disk(path, b)
    with _lock:
        _memory_cache[key] = b
    return b


def clear_memory_cache():
    """Forget the compiled images of this process (the disk cache stays)."""
    with _lock:
        _memory_cache.clear()


__all__ = ["CompileException", "compile_with_cache", "get_cache_dir", "cache_key",
           "get_nvrtc_version", "current_arch", "clear_memory_cache", "Binary"]

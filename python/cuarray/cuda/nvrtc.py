"""cuarray.cuda.nvrtc: CuPy's NVRTC wrapper names over cuarray's own NVRTC path.

cuarray loads NVRTC on first use (csrc/runtime/dynlib.c) and compiles through
one C call (_core._nvrtc_compile: source, options, name expressions -> image, log,
lowered names), which RawModule and the kernel caches use (cuarray.cuda.compiler).
The program API here keeps CuPy's shape on top of it: createProgram returns an
int handle of a program held here; compileProgram compiles it (a cubin when the
options name an ``sm_XY`` architecture, PTX otherwise, as NVRTC does), raising
NVRTCError with NVRTC_ERROR_COMPILATION when the source does not compile (the log
stays readable with getProgramLog); getPTX / getCUBIN / getLoweredName read the
result. Headers given to createProgram are written to a private directory put on
the include path (NVRTC's in-memory headers, by another route).
"""

import itertools
import os
import shutil
import tempfile
import threading

from .. import _core

__all__ = ["NVRTCError", "getVersion", "createProgram", "addNameExpression",
           "compileProgram", "getPTX", "getCUBIN", "getProgramLog", "getLoweredName",
           "destroyProgram"]

NVRTC_ERROR_INVALID_PROGRAM = 5
NVRTC_ERROR_COMPILATION = 6
NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8
NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9
NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10

_STATUS_NAMES = {
    NVRTC_ERROR_INVALID_PROGRAM: "NVRTC_ERROR_INVALID_PROGRAM",
    NVRTC_ERROR_COMPILATION: "NVRTC_ERROR_COMPILATION",
    NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION:
        "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
    NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION:
        "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
    NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID: "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
}


class NVRTCError(RuntimeError):
    """An NVRTC call failed; ``status`` is the nvrtcResult."""

    def __init__(self, status, detail=""):
        self.status = int(status)
        name = _STATUS_NAMES.get(self.status, f"NVRTC error {self.status}")
        super().__init__(f"{name} ({self.status})" + (f": {detail}" if detail else ""))

    def __reduce__(self):
        return (type(self), (self.status,))


def getVersion():
    """NVRTC's (major, minor), loading NVRTC (ImportError when it cannot be)."""
    return tuple(_core._nvrtc_version())


class _Program:
    def __init__(self, src, name, headers, include_names):
        self.src, self.name = src, name
        self.headers = dict(zip(include_names, headers))
        self.exprs = []
        self.log = ""
        self.image = self.kind = None
        self.lowered = {}


_programs = {}
_ids = itertools.count(1)
_lock = threading.Lock()


def _program(prog):
    p = _programs.get(prog)
    if p is None:
        raise NVRTCError(NVRTC_ERROR_INVALID_PROGRAM, f"no program {prog!r}")
    return p


def createProgram(src, name, headers=(), include_names=()):
    """A program of CUDA C++ `src` (`name` appears in messages); `headers` are the
    texts of the files #included as `include_names`. Returns its handle."""
    if isinstance(src, bytes):
        src = src.decode()
    if len(headers) != len(include_names):
        raise ValueError("createProgram: headers and include_names differ in length")
    p = _Program(str(src), str(name or "default_program"),
                 [h.decode() if isinstance(h, bytes) else str(h) for h in headers],
                 [n.decode() if isinstance(n, bytes) else str(n) for n in include_names])
    with _lock:
        h = next(_ids)
        _programs[h] = p
    return h


def addNameExpression(prog, name):
    """Ask for the lowered (mangled) name of `name` (a __global__ function or
    __device__ variable expression, such as ``"f<float>"``) at compilation."""
    p = _program(prog)
    if p.image is not None:
        raise NVRTCError(NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION)
    p.exprs.append(name.decode() if isinstance(name, bytes) else str(name))


def _wants_cubin(options):
    for o in options:
        for key in ("--gpu-architecture=", "-arch=", "-arch"):
            if o.startswith(key):
                return o[len(key):].lstrip("=").startswith("sm_")
    return False


def compileProgram(prog, options=()):
    """Compile the program with NVRTC `options` (a sequence of str)."""
    p = _program(prog)
    options = [o.decode() if isinstance(o, bytes) else str(o) for o in options]
    tmp = None
    try:
        if p.headers:
            tmp = tempfile.mkdtemp(prefix="cuarray-nvrtc-")
            for inc, text in p.headers.items():
                path = os.path.join(tmp, inc)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as f:
                    f.write(text)
            options.append(f"-I{tmp}")
        cubin = _wants_cubin(options)
        ok, image, log, lowered = _core._nvrtc_compile(p.src, p.name, tuple(options),
                                                       tuple(p.exprs), cubin)
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    p.log = log
    if not ok:
        raise NVRTCError(NVRTC_ERROR_COMPILATION, p.name)
    p.image, p.kind = image, "cubin" if cubin else "ptx"
    p.lowered = dict(zip(p.exprs, lowered))


def _result(prog, kind):
    p = _program(prog)
    if p.image is None or p.kind != kind:
        raise NVRTCError(NVRTC_ERROR_INVALID_PROGRAM,
                         f"the program has no {kind.upper()} (compiled: {p.kind})")
    return p.image


def getPTX(prog):
    """The PTX of a program compiled for a virtual architecture (str)."""
    image = _result(prog, "ptx")
    return image.rstrip(b"\0").decode() if isinstance(image, bytes) else image


def getCUBIN(prog):
    """The cubin of a program compiled for a real architecture (bytes)."""
    return bytes(_result(prog, "cubin"))


def getProgramLog(prog):
    """NVRTC's log of the last compilation ('' before one)."""
    return _program(prog).log or ""


def getLoweredName(prog, name_expression):
    """The lowered name of a name expression added before compilation."""
    p = _program(prog)
    if p.image is None:
        raise NVRTCError(NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION)
    try:
        return p.lowered[name_expression]
    except KeyError:
        raise NVRTCError(NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID,
                         repr(name_expression)) from None


def destroyProgram(prog):
    with _lock:
        if _programs.pop(prog, None) is None:
            raise NVRTCError(NVRTC_ERROR_INVALID_PROGRAM, f"no program {prog!r}")

"""Lint over csrc/: the launch layer is the only way to CUDA (docs/ARCHITECTURE.md).

Deferred (fused) element-wise work must reach the stream before anything cuarray
issues after it. That holds because every enqueue, wait, event record and copy goes
through csrc/runtime/launch.c (which flushes first); these tests keep it so on every
machine:
  - only the launch layer, the pools' upstreams and errors.c's status texts call the
    CUDA runtime or cuBLAS, and only they include cuda_compat.h;
  - only the launch layer calls a kernels.h launcher;
  - nothing redefines a CPython macro (Py_BEGIN_ALLOW_THREADS once flushed in secret);
  - no function in csrc/ is longer than 120 lines.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CSRC = ROOT / "csrc"
KERNELS_H = ROOT / "kernels" / "kernels.h"

LAUNCH_LAYER = {"launch.c", "launch_blas.c", "launch_fft.c", "launch_rand.c",
                "launch_solver.c", "launch_runtime.c", "launch_nvrtc.c", "launch_sparse.c",
                "launch_graph.c"}
# What else may call the CUDA runtime, and which calls.
ALLOWED_CUDA = {
    "pool_upstream.c": None,  # the pools' upstreams: cudaMalloc & co. (any call)
    "errors.c": {"cudaGetLastError", "cudaGetErrorName", "cudaGetErrorString"},
    "dynlib.c": set(),        # loads cuBLAS, cuFFT, cuRAND, cuSOLVER and NVRTC (dlopen); calls nothing
    "dynlib.h": set(),        # their function types, for dynlib.c and launch_*.c
}
MAX_FUNCTION_LINES = 120
# Library type names that may stand before a parenthesis (function pointer types).
LIBRARY_TYPES = {"cufftResult", "cufftHandle"}


def strip_comments_and_strings(text):
    """C source with comments and string/char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def sources():
    return sorted(CSRC.rglob("*.c")) + sorted(CSRC.rglob("*.h"))


def code(path):
    return strip_comments_and_strings(path.read_text())


def kernel_launchers():
    """The launchers kernels.h declares: int ca_<name>(int device, ...)."""
    text = strip_comments_and_strings(KERNELS_H.read_text())
    names = set(re.findall(r"\bint\s+(ca_[a-z0-9_]+)\s*\(\s*int\s+device\b", text))
    # queries that take a device but enqueue nothing
    names -= {"ca_reduce_plan", "ca_scan_plan"}
    names |= {"ca_gemm_host"}
    return names


def calls(text, pattern):
    return set(re.findall(r"\b(" + pattern + r")\s*\(", text))


def test_lint_sees_the_launchers():
    names = kernel_launchers()
    for expected in ("ca_copy_cast", "ca_elementwise", "ca_reduce", "ca_index_take",
                     "ca_readback_launch", "ca_fused_elementwise"):
        assert expected in names


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.name)
def test_cuda_only_through_the_launch_layer(path):
    if path.name in LAUNCH_LAYER or path.name == "cuda_compat.h":
        return
    text = code(path)
    found = calls(text, r"cu(?:da|blas|solver|fft|rand)[A-Z]\w*")
    # types in casts and prototypes (cuFFT's status type has no _t)
    found -= {f for f in found if f.endswith("_t") or f in LIBRARY_TYPES}
    found |= {m for m in calls(text, r"api->\w+")} if "api->" in text else set()
    if path.name in ALLOWED_CUDA:
        allowed = ALLOWED_CUDA[path.name]
        found = set() if allowed is None else found - allowed
    assert not found, (
        f"{path.name} calls {sorted(found)}: CUDA and library calls go through the "
        f"launch layer (csrc/runtime/launch.h)")


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.name)
def test_cuda_headers_only_in_the_launch_layer(path):
    if path.name in LAUNCH_LAYER or path.name in ALLOWED_CUDA or path.name == "cuda_compat.h":
        return
    includes = re.findall(r'#\s*include\s*[<"]([^">]+)[">]', path.read_text())
    bad = [h for h in includes
           if h == "cuda_compat.h" or h.startswith(("cuda", "cublas", "cusolver",
                                                    "cufft", "curand"))]
    assert not bad, f"{path.name} includes {bad}: only the launch layer sees CUDA"


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.name)
def test_kernel_launchers_only_in_the_launch_layer(path):
    if path.name in LAUNCH_LAYER:
        return
    text = code(path)
    found = calls(text, "|".join(sorted(kernel_launchers())))
    # declarations in headers are not calls
    if path.suffix == ".h":
        found = set()
    assert not found, (
        f"{path.name} calls the kernels.h launchers {sorted(found)} directly: use "
        f"their ca_run_* wrappers in csrc/runtime/launch.h (they flush deferred work first)")


@pytest.mark.parametrize("path", sources(), ids=lambda p: p.name)
def test_no_cpython_macro_redefined(path):
    text = code(path)
    bad = re.findall(r"#\s*(?:undef|define)\s+(Py_\w+|PyEval_\w+)", text)
    bad = [b for b in bad if b not in ("PY_SSIZE_T_CLEAN",)]
    assert not bad, f"{path.name} redefines CPython's {bad}"


def functions(text):
    """(name, first line, length) of each function definition at file scope."""
    lines = text.split("\n")
    out = []
    depth = 0
    start = None
    name = None
    for i, line in enumerate(lines):
        if depth == 0 and start is None:
            m = re.match(r"^([A-Za-z_]\w*)\s*\(", line)
            if m and not line.rstrip().endswith(";"):
                start, name = i, m.group(1)
        opened = line.count("{")
        closed = line.count("}")
        if start is not None and depth == 0 and opened == 0 and line.rstrip().endswith(";"):
            start = None
        depth += opened - closed
        if start is not None and depth == 0 and closed and line.startswith("}"):
            out.append((name, start + 1, i - start + 1))
            start = None
    return out


def test_function_finder_finds_functions():
    found = dict((n, k) for n, _, k in functions(code(CSRC / "runtime" / "launch.c")))
    assert "ca_run_copy_cast" in found and found["ca_run_copy_cast"] >= 3


@pytest.mark.parametrize("path", sorted(CSRC.rglob("*.c")), ids=lambda p: p.name)
def test_functions_fit_on_a_screen(path):
    long = [(n, line, k) for n, line, k in functions(code(path)) if k > MAX_FUNCTION_LINES]
    assert not long, f"{path.name}: functions over {MAX_FUNCTION_LINES} lines: {long}"


def c_sources():
    """Every tracked C, header and CUDA source of the project."""
    paths = []
    for d in ("csrc", "kernels", "tests/c"):
        for ext in ("*.c", "*.h", "*.cu", "*.cuh"):
            paths += sorted((ROOT / d).rglob(ext))
    return paths


@pytest.mark.skipif(shutil.which("clang-format") is None,
                    reason="clang-format is not installed here (CI's machine has it)")
def test_tree_follows_clang_format():
    """The tree is formatted by the project's .clang-format (clang-format -i)."""
    paths = [str(p) for p in c_sources()]
    assert paths
    r = subprocess.run(["clang-format", "--dry-run", "--Werror", *paths],
                       capture_output=True, text=True, cwd=ROOT)
    bad = sorted({line.split(":")[0] for line in r.stderr.splitlines() if ": error:" in line})
    assert r.returncode == 0 and not bad, f"run clang-format -i on: {bad}"

"""Fresh-process costs: import, first operation, first matmul, a new expression.

Each case runs a new interpreter per repeat; the script prints the seconds from just
before the import to the end of the work (interpreter start-up itself excluded).

Bytecode. A pip-installed package has its modules' bytecode (``__pycache__/*.pyc``,
written by ``pip install``), NumPy's among them; cuarray run from the source tree
(``PYTHONPATH=python``) may have none, and where ``PYTHONDONTWRITEBYTECODE=1`` is set
the import system never writes it, so every fresh interpreter would compile cuarray's
modules from source (about 0.1 s) -- a cost no user of an installed cuarray pays.
So before a case's first repeat, the setup compiles the imported cuarray package's
directory with ``compileall`` into its ``__pycache__`` (what ``pip install`` does;
PYTHONDONTWRITEBYTECODE only stops the import system writing, not compileall).
Files already compiled are skipped, so this costs a few stat calls after the first
case. NumPy, CuPy and PyTorch are taken as installed.
"""

import compileall
import os
import tempfile

from harness import Case

_T0 = "import time; t0 = time.perf_counter()\n"
_END = "\nprint(time.perf_counter() - t0)\n"


def _bytecode(mod):
    """Compile the package `mod` came from into its __pycache__, as pip install does
    (cuarray only: run from the source tree it may have no bytecode)."""
    if getattr(mod, "__name__", None) != "cuarray":
        return
    compileall.compile_dir(os.path.dirname(mod.__file__), quiet=1)


def _src(body):
    def setup(mod):
        _bytecode(mod)
        return lambda: _T0 + body + _END
    return setup


def _fresh_cupy_cache(body):
    def setup(mod):
        _bytecode(mod)

        def make():
            d = tempfile.mkdtemp(prefix="cupy_cache_")
            return (f"import os; os.environ['CUPY_CACHE_DIR'] = {d!r}\n" + _T0 + body + _END)
        return make
    return setup


CASES = [
    Case("import only", {
        "numpy": _src("import numpy"),
        "cuarray": _src("import cuarray"),
        "cupy": _src("import cupy"),
        "torch": _src("import torch"),
    }, mode="process", unit="s", target="<= 0.38", repeats=3,
        floor="`import numpy` alone"),
    Case("fresh process: import + first a + b + sync", {
        "cuarray": _src("import cuarray as ca\na = ca.ones(1024, dtype='float32'); b = a + a\n"
                        "ca.cuda.Stream.null.synchronize()"),
        "cupy": _fresh_cupy_cache("import cupy as cp\na = cp.ones(1024, dtype='float32'); b = a + a\n"
                                  "cp.cuda.Stream.null.synchronize()"),
        "torch": _src("import torch\na = torch.ones(1024, device='cuda'); b = a + a\n"
                      "torch.cuda.synchronize()"),
    }, mode="process", unit="s", target="<= 0.70", repeats=3),
    Case("fresh process: import + first 256x256 matmul", {
        "cuarray": _src("import cuarray as ca\na = ca.ones((256, 256), dtype='float32'); b = a @ a\n"
                        "ca.cuda.Stream.null.synchronize()"),
        "cupy": _fresh_cupy_cache("import cupy as cp\na = cp.ones((256, 256), dtype='float32'); b = a @ a\n"
                                  "cp.cuda.Stream.null.synchronize()"),
        "torch": _src("import torch\na = torch.ones((256, 256), device='cuda'); b = a @ a\n"
                      "torch.cuda.synchronize()"),
    }, mode="process", unit="s", target="<= 0.85", repeats=3),
    Case("fresh process: new expression sin/exp/sqrt (CuPy: empty kernel cache)", {
        "cuarray": _src("import cuarray as ca\na = ca.ones(1024, dtype='float32')\n"
                        "b = ca.sqrt(ca.exp(ca.sin(a)))\nca.cuda.Stream.null.synchronize()"),
        "cupy": _fresh_cupy_cache("import cupy as cp\na = cp.ones(1024, dtype='float32')\n"
                                  "b = cp.sqrt(cp.exp(cp.sin(a)))\ncp.cuda.Stream.null.synchronize()"),
        "torch": _src("import torch\na = torch.ones(1024, device='cuda')\n"
                      "b = torch.sqrt(torch.exp(torch.sin(a)))\ntorch.cuda.synchronize()"),
    }, mode="process", unit="s", target="<= 0.70", repeats=3),
]

"""Fresh-process costs: import, first operation, first matmul, a new expression.

Each case runs a new interpreter per repeat; the script prints the seconds from just
before the import to the end of the work (interpreter start-up itself excluded).
"""

import os
import tempfile

from harness import Case

_T0 = "import time; t0 = time.perf_counter()\n"
_END = "\nprint(time.perf_counter() - t0)\n"


def _src(body):
    return lambda mod: (lambda: _T0 + body + _END)


def _fresh_cupy_cache(body):
    def setup(mod):
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

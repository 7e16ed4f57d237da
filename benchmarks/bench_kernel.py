"""User kernels (issue 14): the cost of a new ElementwiseKernel in a fresh process
(empty kernel cache, then a warm disk cache) and the per-call overhead of a cached
ElementwiseKernel / RawKernel, beside CuPy (PyTorch has no equivalent).

cuarray keeps its cache in $CUARRAY_KERNEL_CACHE_DIR, CuPy in $CUPY_CACHE_DIR: each
"empty cache" repeat points them at a new temporary directory; the "warm" case fills
one directory first with a run of the same script.
"""

import subprocess
import sys
import tempfile

import numpy as np

from harness import Case, Skip

_ENV = {"cuarray": "CUARRAY_KERNEL_CACHE_DIR", "cupy": "CUPY_CACHE_DIR"}

_BODY = """
import time
t0 = time.perf_counter()
import {lib} as cp
k = cp.ElementwiseKernel('T x, T y', 'T z', 'z = x * x + y * 3', 'bench_kernel')
a = cp.ones(1024, dtype='float32')
b = k(a, a)
cp.cuda.Stream.null.synchronize()
print(time.perf_counter() - t0)
"""


def _script(lib, cache_dir):
    return (f"import os; os.environ[{_ENV[lib]!r}] = {cache_dir!r}\n" +
            _BODY.format(lib=lib))


def _empty_cache(lib):
    def setup(mod):
        return lambda: _script(lib, tempfile.mkdtemp(prefix=f"{lib}_kcache_"))
    return setup


def _warm_cache(lib):
    def setup(mod):
        d = tempfile.mkdtemp(prefix=f"{lib}_kcache_warm_")
        src = _script(lib, d)
        r = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True)
        if r.returncode != 0:
            raise Skip(r.stderr.strip().splitlines()[-1] if r.stderr else "failed")
        return lambda: src
    return setup


def _ew_call(n):
    def setup(mod):
        if not hasattr(mod, "ElementwiseKernel"):
            raise Skip("no ElementwiseKernel")
        k = mod.ElementwiseKernel("T x, T y", "T z", "z = x * x + y * 3", "bench_ew")
        a = mod.asarray(np.ones(n, np.float32))
        out = mod.empty(n, dtype=np.float32)
        k(a, a, out)
        return lambda: k(a, a, out)
    return setup


_RAW = r'''
extern "C" __global__ void axpy(const float *x, float *y, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += a * x[i];
}
'''


def _raw_call(n):
    def setup(mod):
        if not hasattr(mod, "RawKernel"):
            raise Skip("no RawKernel")
        k = mod.RawKernel(_RAW, "axpy")
        x = mod.asarray(np.ones(n, np.float32))
        y = mod.asarray(np.zeros(n, np.float32))
        args = (x, y, np.float32(0.5), np.int32(n))
        k(((n + 255) // 256,), (256,), args)
        return lambda: k(((n + 255) // 256,), (256,), args)
    return setup


CASES = [
    Case("fresh process: new ElementwiseKernel, empty kernel cache",
         {"cuarray": _empty_cache("cuarray"), "cupy": _empty_cache("cupy")},
         mode="process", unit="s", repeats=3, group="kernel",
         floor="import + context + one NVRTC compile"),
    Case("fresh process: new ElementwiseKernel, warm disk cache",
         {"cuarray": _warm_cache("cuarray"), "cupy": _warm_cache("cupy")},
         mode="process", unit="s", repeats=3, group="kernel"),
    Case("cached ElementwiseKernel call, 1024 float32 (us)",
         {"cuarray": _ew_call(1024), "cupy": _ew_call(1024)},
         mode="wall", unit="us", group="kernel", floor="3.6 (one launch)"),
    Case("cached RawKernel launch, 1024 float32 (us)",
         {"cuarray": _raw_call(1024), "cupy": _raw_call(1024)},
         mode="wall", unit="us", group="kernel", floor="3.6 (one launch)"),
]

"""Kernels written in Python with cuarray.jit (CuPy's cupyx.jit): SAXPY, a
sum by atomics, and a 3-point stencil through shared memory, each checked
against NumPy. The kernels are translated to CUDA C++ at their first call
(print `kernel.cached_code` to read it) and compiled with NVRTC; launching
them needs a CUDA GPU."""

import sys
import time

import numpy

import cuarray as cupy
from cuarray import jit

BLOCK = 256


@jit.rawkernel()
def saxpy(a, x, y, out, n):
    i = jit.grid(1)
    if i < n:
        out[i] = a * x[i] + y[i]


@jit.rawkernel()
def atomic_sum(x, out):
    # a grid-stride loop sums into a register; one atomic per thread
    s = 0.0
    for j in range(jit.grid(1), x.size, jit.gridsize(1)):
        s += x[j]
    jit.atomic_add(out, 0, s)


@jit.rawkernel()
def stencil3(x, y, n):
    # y[i] = (x[i-1] + x[i] + x[i+1]) / 3, zero outside: each block stages its
    # BLOCK elements and a halo of one on each side in shared memory
    smem = jit.shared_memory(numpy.float32, BLOCK + 2)
    i = jit.grid(1)
    t = jit.threadIdx.x + 1
    if i < n:
        smem[t] = x[i]
    if jit.threadIdx.x == 0:
        smem[0] = x[i - 1] if i > 0 else 0.0
    if jit.threadIdx.x == jit.blockDim.x - 1 or i == n - 1:
        smem[t + 1] = x[i + 1] if i + 1 < n else 0.0
    jit.syncthreads()
    if i < n:
        y[i] = (smem[t - 1] + smem[t] + smem[t + 1]) / 3


def main(n=1 << 20, seed=0):
    rng = numpy.random.default_rng(seed)
    x = rng.standard_normal(n).astype(numpy.float32)
    y = rng.standard_normal(n).astype(numpy.float32)
    dx, dy = cupy.asarray(x), cupy.asarray(y)
    blocks = (n + BLOCK - 1) // BLOCK
    t = time.perf_counter()
    out = cupy.empty(n, numpy.float32)
    saxpy[blocks, BLOCK](numpy.float32(2.0), dx, dy, out, n)
    total = cupy.zeros(1, numpy.float32)
    atomic_sum[min(blocks, 1024), BLOCK](dx, total)
    smooth = cupy.empty(n, numpy.float32)
    stencil3[blocks, BLOCK](dx, smooth, n)
    cupy.cuda.get_current_stream().synchronize()
    seconds = time.perf_counter() - t
    p = numpy.concatenate([[0], x.astype(numpy.float64), [0]])
    return {"saxpy": cupy.asnumpy(out), "saxpy_expected": 2.0 * x + y,
            "sum": float(cupy.asnumpy(total)[0]),
            "sum_expected": float(x.astype(numpy.float64).sum()),
            "stencil": cupy.asnumpy(smooth),
            "stencil_expected": (p[:-2] + p[1:-1] + p[2:]) / 3, "seconds": seconds}


def _have_gpu():
    try:
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


if __name__ == "__main__":
    if not _have_gpu():
        x = cupy.zeros(4, numpy.float32, device="cpu")
        src = saxpy.source((numpy.float32(2.0), x, x, x, 4))
        print("jit_kernels: this example needs a CUDA GPU to launch its kernels (none "
              f"here); the translation works without one: saxpy's CUDA C++ is "
              f"{len(src.splitlines())} lines (saxpy.source(args) returns it)")
        sys.exit(0)
    r = main()
    err = max(abs(r["saxpy"] - r["saxpy_expected"]).max(),
              abs(r["stencil"] - r["stencil_expected"]).max())
    print(f"jit_kernels: saxpy, atomic sum ({r['sum']:.6g}, NumPy "
          f"{r['sum_expected']:.6g}), stencil in {r['seconds'] * 1e3:.2f} ms "
          f"(first calls: translation and compilation included), max error {err:.2e}")

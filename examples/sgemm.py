"""SGEMM through RawModule: a tiled shared-memory kernel, compared with matmul."""

import time

import numpy

import cuarray as cupy

SOURCE = r"""
#define TILE 16
extern "C" __global__ void sgemm(int m, int n, int k, float alpha,
                                 const float *a, const float *b, float beta, float *c) {
    __shared__ float ta[TILE][TILE];
    __shared__ float tb[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE) {
        ta[threadIdx.y][threadIdx.x] =
            (row < m && t + threadIdx.x < k) ? a[row * k + t + threadIdx.x] : 0.0f;
        tb[threadIdx.y][threadIdx.x] =
            (col < n && t + threadIdx.y < k) ? b[(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int e = 0; e < TILE; e++) acc += ta[threadIdx.y][e] * tb[e][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = alpha * acc + beta * c[row * n + col];
}
"""

module = cupy.RawModule(code=SOURCE)


def sgemm(a, b, c=None, alpha=1.0, beta=0.0):
    m, k = a.shape
    k2, n = b.shape
    if k != k2:
        raise ValueError("inner dimensions differ")
    if c is None:
        c = cupy.zeros((m, n), dtype=numpy.float32)
    kernel = module.get_function("sgemm")
    grid = ((n + 15) // 16, (m + 15) // 16)
    kernel(grid, (16, 16), (numpy.int32(m), numpy.int32(n), numpy.int32(k),
                            numpy.float32(alpha), cupy.ascontiguousarray(a),
                            cupy.ascontiguousarray(b), numpy.float32(beta), c))
    return c


def main(m=100, n=70, k=50, seed=0):
    rng = numpy.random.default_rng(seed)
    a = rng.standard_normal((m, k)).astype(numpy.float32)
    b = rng.standard_normal((k, n)).astype(numpy.float32)
    c0 = rng.standard_normal((m, n)).astype(numpy.float32)
    t = time.perf_counter()
    c = sgemm(cupy.asarray(a), cupy.asarray(b), cupy.asarray(c0), 2.0, 0.5)
    out = cupy.asnumpy(c)
    ref = cupy.asnumpy(cupy.asarray(a) @ cupy.asarray(b))
    return {"c": out, "expected": 2.0 * (a.astype(numpy.float64) @ b) + 0.5 * c0,
            "matmul": ref, "a": a, "b": b, "seconds": time.perf_counter() - t}


if __name__ == "__main__":
    r = main(2048, 2048, 2048)
    print(f"sgemm: {r['seconds']:.3f} s, max error {abs(r['c'] - r['expected']).max():.2e}")

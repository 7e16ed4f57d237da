/*
 * ndimage.cu: the ca_ndi_* launchers (kernels.h) on the GPU, over
 * ndimage_impl.h's per-point and per-line math (the host loops are
 * host_ndimage.c; dispatch_ndimage.c checks arguments and dispatches).
 *
 * First version, global memory only: a thread per output point (filters,
 * interpolation; the interior points of a filter read their taps by linear
 * offsets, skipping the boundary mapping), a thread per line (spline
 * prefilter, distance pass). No shared-memory tiling of the stencils yet.
 * Labels: union-find in three kernels (init, union by atomicMin of the larger
 * root onto the smaller, flatten), so every root is its component's first
 * point in C order.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "grid_1d.cuh"
#include "ndimage_impl.h"

extern "C" {
int ca_cuda_ndi_filter(const ca_ndi_filter_args *a, const double *in, double *out,
                       const int64_t *offs, const int64_t *loffs, const double *w,
                       double *scratch, int64_t nthreads, ca_stream_t stream);
int ca_cuda_ndi_spline(double *c, int64_t outer, int64_t n, int64_t inner, int order,
                       int mode, ca_stream_t stream);
int ca_cuda_ndi_map(const ca_ndi_map_args *a, const double *in, const double *coords,
                    const double *matrix, double *out, ca_stream_t stream);
int ca_cuda_ndi_label(const ca_ndi_shape *s, const uint8_t *mask, const int64_t *offs,
                      int64_t nk, int64_t *p, ca_stream_t stream);
int ca_cuda_ndi_edt(double *f, int64_t outer, int64_t n, int64_t inner, double h,
                    int64_t *arg, double *scratch, ca_stream_t stream);
}

namespace {

int64_t
count_of(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        n *= shape[d];
    }
    return n;
}

/* Grid-stride over n points; a rank filter's thread t sorts in its own nk
 * slots of scratch, so the grid has exactly `threads` threads. */
__global__ void
filter_kernel(ca_ndi_filter_args a, const double *in, double *out, const int64_t *offs,
              const int64_t *loffs, const double *w, double *scratch, int64_t n,
              int64_t threads)
{
    int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= threads) {
        return;
    }
    double *buf = a.op == CA_NDI_RANK ? scratch + t * a.nk : nullptr;
    for (int64_t i = t; i < n; i += threads) {
        out[i] = ca_ndi_filter_point(&a, in, offs, loffs, w, i, buf);
    }
}

__global__ void
spline_kernel(double *c, int64_t outer, int64_t n, int64_t inner, int order, int mode)
{
    for (int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; l < outer * inner;
         l += (int64_t)gridDim.x * blockDim.x) {
        ca_ndi_spline_line(c + (l / inner) * n * inner + l % inner, n, inner, order,
                           mode);
    }
}

__global__ void
map_kernel(ca_ndi_map_args a, const double *in, const double *coords,
           const double *matrix, double *out)
{
    double x[CA_MAX_DIMS];
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < a.nout;
         i += (int64_t)gridDim.x * blockDim.x) {
        ca_ndi_map_coords(&a, coords, matrix, i, x);
        out[i] = ca_ndi_map_point(&a, in, x);
    }
}

__global__ void
label_init(const uint8_t *mask, int64_t *p, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        p[i] = mask[i] ? i : -1;
    }
}

/* Link the roots of a and b: the larger root's parent becomes the smaller
 * (atomicMin), retried from the old parent when another thread got there
 * first. Parents only decrease, so every chain ends at the component's
 * smallest index. */
__device__ void
unite(int64_t *p, int64_t a, int64_t b)
{
    for (;;) {
        a = ca_ndi_find(p, a);
        b = ca_ndi_find(p, b);
        if (a == b) {
            return;
        }
        if (a < b) {
            int64_t t = a;
            a = b;
            b = t;
        }
        int64_t old =
            (int64_t)atomicMin((unsigned long long *)&p[a], (unsigned long long)b);
        if (old == a) {
            return;
        }
        a = old;
    }
}

__global__ void
label_union(ca_ndi_shape s, const uint8_t *mask, const int64_t *offs, int64_t nk,
            int64_t *p, int64_t n)
{
    int64_t c[CA_MAX_DIMS];
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        if (!mask[i]) {
            continue;
        }
        ca_ndi_unravel(&s, i, c);
        for (int64_t k = 0; k < nk; k++) {
            int64_t j = ca_ndi_neighbour(&s, offs, k, c);
            if (j >= 0 && mask[j]) {
                unite(p, i, j);
            }
        }
    }
}

__global__ void
label_flatten(int64_t *p, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        if (p[i] >= 0) {
            p[i] = ca_ndi_find(p, i);
        }
    }
}

__global__ void
edt_kernel(double *f, int64_t outer, int64_t n, int64_t inner, double h, int64_t *arg,
           double *scratch)
{
    for (int64_t l = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; l < outer * inner;
         l += (int64_t)gridDim.x * blockDim.x) {
        int64_t base = (l / inner) * n * inner + l % inner;
        double *s = scratch + l * (3 * n + 1);
        ca_ndi_edt_line(f + base, n, inner, h, arg ? arg + base : nullptr, (int64_t *)s,
                        s + n, s + 2 * n + 1);
    }
}

} // namespace

extern "C" int
ca_cuda_ndi_filter(const ca_ndi_filter_args *a, const double *in, double *out,
                   const int64_t *offs, const int64_t *loffs, const double *w,
                   double *scratch, int64_t nthreads, ca_stream_t stream)
{
    int64_t n = count_of(a->ndim, a->shape);
    int64_t threads =
        a->op == CA_NDI_RANK ? nthreads : (int64_t)blocks_for(n) * kThreads;
    unsigned blocks = (unsigned)((threads + kThreads - 1) / kThreads);
    filter_kernel<<<blocks, kThreads, 0, (cudaStream_t)stream>>>(
        *a, in, out, offs, loffs, w, scratch, n, threads);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_ndi_spline(double *c, int64_t outer, int64_t n, int64_t inner, int order,
                   int mode, ca_stream_t stream)
{
    spline_kernel<<<blocks_for(outer * inner), kThreads, 0, (cudaStream_t)stream>>>(
        c, outer, n, inner, order, mode);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_ndi_map(const ca_ndi_map_args *a, const double *in, const double *coords,
                const double *matrix, double *out, ca_stream_t stream)
{
    map_kernel<<<blocks_for(a->nout), kThreads, 0, (cudaStream_t)stream>>>(
        *a, in, coords, matrix, out);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_ndi_label(const ca_ndi_shape *s, const uint8_t *mask, const int64_t *offs,
                  int64_t nk, int64_t *p, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    int64_t n = count_of(s->ndim, s->shape);
    label_init<<<blocks_for(n), kThreads, 0, st>>>(mask, p, n);
    label_union<<<blocks_for(n), kThreads, 0, st>>>(*s, mask, offs, nk, p, n);
    label_flatten<<<blocks_for(n), kThreads, 0, st>>>(p, n);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_ndi_edt(double *f, int64_t outer, int64_t n, int64_t inner, double h,
                int64_t *arg, double *scratch, ca_stream_t stream)
{
    edt_kernel<<<blocks_for(outer * inner), kThreads, 0, (cudaStream_t)stream>>>(
        f, outer, n, inner, h, arg, scratch);
    return (int)cudaGetLastError();
}

/*
 * ndimage.cu: the ca_ndi_* launchers (kernels.h) on the GPU, over
 * ndimage_impl.h's per-point and per-line math (the host loops are
 * host_ndimage.c; dispatch_ndimage.c checks arguments and dispatches).
 *
 * Filters along one axis (every separable pass: correlate1d, Gaussian,
 * uniform, Sobel..., min/max boxes) are tiled through shared memory: a block
 * loads its tile of a line plus the taps' halo once, boundary mapping done
 * at the load, and every output reads its taps from the tile
 * (line_last_kernel for the last axis, line_mid_kernel with 32 columns of
 * inner elements for the others). Other filters (n-D footprints, ranks) take
 * a thread per output point from global memory (the interior points read
 * their taps by linear offsets, skipping the boundary mapping);
 * interpolation a thread per output point, the spline prefilter and the
 * distance pass a thread per line.
 * Labels: union-find in three kernels (init, union by atomicMin of the larger
 * root onto the smaller, flatten), so every root is its component's first
 * point in C order.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <algorithm>

#include "grid_1d.cuh"
#include "ndimage_cuda.h"
#include "ndimage_impl.h"


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

/* ---- filters along one axis, tiled through shared memory --------------------- */

constexpr int kLastTile = 1024; /* outputs per block along the last axis */
constexpr int kLastHalo = 1024; /* most taps - 1 it tiles */
constexpr int kMidCols = 32;    /* inner elements per block (a warp's loads) */
constexpr int kMidRows = 64;    /* outputs per block along the axis */
constexpr int kMidHalo = 128;   /* most taps - 1: (64 + 128) * 32 doubles = 48 KiB */

/* The input at position p of line (o, *, k) of the (outer, n, inner) view. */
__device__ double
line_load(const ca_ndi_filter_args &a, const double *in, int64_t o, int64_t p,
          int64_t n, int64_t inner, int64_t k)
{
    int64_t m = ca_ndi_map_index(p, n, a.mode);
    return m < 0 ? a.cval : in[(o * n + m) * inner + k];
}

/* inner == 1: a block per kLastTile outputs of one line (grid x over tiles,
 * y over lines, both looped so any size fits the grid). */
__global__ void
line_last_kernel(ca_ndi_filter_args a, const double *in, double *out, const double *w,
                 int64_t outer, int64_t n)
{
    extern __shared__ double tile[];
    const int64_t lo = a.lo[a.line_axis], span = kLastTile + a.nk - 1;
    for (int64_t o = blockIdx.y; o < outer; o += gridDim.y) {
        for (int64_t j0 = (int64_t)blockIdx.x * kLastTile; j0 < n;
             j0 += (int64_t)gridDim.x * kLastTile) {
            for (int64_t s = threadIdx.x; s < span; s += blockDim.x) {
                tile[s] = line_load(a, in, o, j0 + lo + s, n, 1, 0);
            }
            __syncthreads();
            for (int64_t r = threadIdx.x; r < kLastTile && j0 + r < n;
                 r += blockDim.x) {
                double acc = ca_ndi_acc0(a.op);
                for (int64_t t = 0; t < a.nk; t++) {
                    acc = ca_ndi_accum(&a, acc, tile[r + t], w, t);
                }
                out[o * n + j0 + r] = acc;
            }
            __syncthreads();
        }
    }
}

/* inner > 1: a block of kMidCols x 8 threads per kMidRows outputs along the
 * axis times kMidCols inner elements (grid x over column tiles, y over row
 * tiles, z over outer, each looped). */
__global__ void
line_mid_kernel(ca_ndi_filter_args a, const double *in, double *out, const double *w,
                int64_t outer, int64_t n, int64_t inner)
{
    extern __shared__ double tile[];
    const int64_t lo = a.lo[a.line_axis], span = kMidRows + a.nk - 1;
    const int tx = threadIdx.x, ty = threadIdx.y;
    for (int64_t o = blockIdx.z; o < outer; o += gridDim.z) {
        for (int64_t j0 = (int64_t)blockIdx.y * kMidRows; j0 < n;
             j0 += (int64_t)gridDim.y * kMidRows) {
            for (int64_t k0 = (int64_t)blockIdx.x * kMidCols; k0 < inner;
                 k0 += (int64_t)gridDim.x * kMidCols) {
                const int64_t k = k0 + tx;
                for (int64_t y = ty; y < span; y += blockDim.y) {
                    tile[y * kMidCols + tx] =
                        k < inner ? line_load(a, in, o, j0 + lo + y, n, inner, k) : 0.0;
                }
                __syncthreads();
                for (int64_t r = ty; r < kMidRows && j0 + r < n; r += blockDim.y) {
                    if (k < inner) {
                        double acc = ca_ndi_acc0(a.op);
                        for (int64_t t = 0; t < a.nk; t++) {
                            acc = ca_ndi_accum(&a, acc, tile[(r + t) * kMidCols + tx],
                                               w, t);
                        }
                        out[(o * n + j0 + r) * inner + k] = acc;
                    }
                }
                __syncthreads();
            }
        }
    }
}

/* The tiled launch for a filter along one axis; false when it does not apply
 * (a rank, a halo too long for the tile). */
bool
launch_line(const ca_ndi_filter_args *a, const double *in, double *out, const double *w,
            cudaStream_t st)
{
    if (a->line_axis < 0 || a->op == CA_NDI_RANK) {
        return false;
    }
    int64_t outer = 1, inner = 1, n = a->shape[a->line_axis];
    for (int d = 0; d < a->line_axis; d++) {
        outer *= a->shape[d];
    }
    for (int d = a->line_axis + 1; d < a->ndim; d++) {
        inner *= a->shape[d];
    }
    const unsigned cap = 65535;
    if (inner == 1 && a->nk - 1 <= kLastHalo) {
        dim3 grid((unsigned)std::min<int64_t>((n + kLastTile - 1) / kLastTile, 1 << 20),
                  (unsigned)std::min<int64_t>(outer, cap));
        size_t shm = (size_t)(kLastTile + a->nk - 1) * sizeof(double);
        line_last_kernel<<<grid, 256, shm, st>>>(*a, in, out, w, outer, n);
        return true;
    }
    if (inner > 1 && a->nk - 1 <= kMidHalo) {
        dim3 grid(
            (unsigned)std::min<int64_t>((inner + kMidCols - 1) / kMidCols, 1 << 20),
            (unsigned)std::min<int64_t>((n + kMidRows - 1) / kMidRows, cap),
            (unsigned)std::min<int64_t>(outer, cap));
        size_t shm = (size_t)(kMidRows + a->nk - 1) * kMidCols * sizeof(double);
        line_mid_kernel<<<grid, dim3(kMidCols, 8), shm, st>>>(*a, in, out, w, outer, n,
                                                              inner);
        return true;
    }
    return false;
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

/* The root of i, read through volatile loads: other threads relink parents
 * while this one walks, and L1 need not see their stores. */
__device__ int64_t
find_v(const int64_t *p, int64_t i)
{
    const volatile int64_t *q = p;
    int64_t n;
    while ((n = q[i]) != i) {
        i = n;
    }
    return i;
}

/* Link the roots of a and b: the larger root's parent becomes the smaller
 * (atomicMin), retried from the old parent when another thread got there
 * first. Parents only decrease, so every chain ends at the component's
 * smallest index. */
__device__ void
unite(int64_t *p, int64_t a, int64_t b)
{
    for (;;) {
        a = find_v(p, a);
        b = find_v(p, b);
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
    if (launch_line(a, in, out, w, (cudaStream_t)stream)) {
        return (int)cudaGetLastError();
    }
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

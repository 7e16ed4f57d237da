/*
 * sort_search.cu: ca_searchsorted and ca_bincount on the GPU (kernels.h;
 * host_sort.c dispatches here and has the cpu loops).
 *
 * searchsorted: one thread per query, a binary search comparing the keys of
 * sort_keys.h (so NaNs, -0.0 and complex order exactly as the sort does). Many
 * queries into a big array go down the sampled levels of search_plan.h instead,
 * built by one pass over a into the caller's scratch.
 * bincount: each block counts into shared memory (32-bit counts, or float64
 * sums), then adds its nonzero bins to the output with one atomic each; bins
 * that do not fit in shared memory are counted with global atomics (the
 * output then lives in L2 for any bin count a GPU's L2 holds).
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "grid_1d.cuh"
#include "search_plan.h"
#include "sort_keys.h"

extern "C" int ca_cuda_searchsorted(int dtype, const void *a, int64_t n,
                                    const int64_t *sorter, const void *v, int64_t nv,
                                    int right, int64_t *out, void *temp,
                                    ca_stream_t stream);
extern "C" int ca_cuda_bincount(int xdtype, const void *x, int64_t n, const double *w,
                                int64_t nbins, void *out, ca_stream_t stream);

namespace {

/* Blocks of the shared-memory histogram: enough to fill an H200 (132 SMs)
 * a few times; each merges its bins once, so more would cost merges. */
constexpr int64_t kHistBlocks = 528;
constexpr size_t kHistShared = 48 << 10;

/* grid_1d.cuh's blocks_for with another cap. */
unsigned
blocks_for(int64_t n, int64_t cap)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return (unsigned)(b < cap ? b : cap);
}


template <int DT>
__global__ void
search_kernel(const char *a, int64_t n, const int64_t *sorter, const char *v,
              int64_t nv, int right, int64_t *out)
{
    constexpr int size = dtype_size(DT);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nv;
         i += (int64_t)gridDim.x * blockDim.x) {
        const ca_skey q = ca_sort_key(DT, v + i * size, 1);
        int64_t lo = 0, hi = n;
        while (lo < hi) {
            int64_t mid = lo + ((hi - lo) >> 1);
            int64_t at = sorter != nullptr ? sorter[mid] : mid;
            at = at < 0 ? 0 : (at >= n ? n - 1 : at); /* a bad sorter reads in bounds */
            if (ca_skey_less(ca_sort_key(DT, a + at * size, 1), q, right)) {
                lo = mid + 1;
            }
            else {
                hi = mid;
            }
        }
        out[i] = lo;
    }
}

/* One element of S bytes (every dtype is aligned to its size, or to 4 bytes
 * from 8 up): 1, 2 or 4-byte words. */
template <int S>
__device__ __forceinline__ void
copy_elem(char *dst, const char *src)
{
    if (S == 1) {
        *dst = *src;
    }
    else if (S == 2) {
        *reinterpret_cast<uint16_t *>(dst) = *reinterpret_cast<const uint16_t *>(src);
    }
    else {
        for (int w = 0; w < S / 4; w++) {
            reinterpret_cast<uint32_t *>(dst)[w] =
                reinterpret_cast<const uint32_t *>(src)[w];
        }
    }
}

/* The sampled levels: level k's element j is a[(j + 1) * B^k - 1]. */
template <int S>
__global__ void
sample_levels(const char *a, ca_search_plan p, char *levels)
{
    const int64_t total = p.off[p.levels + 1];
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total;
         t += (int64_t)gridDim.x * blockDim.x) {
        int k = 1;
        while (t >= p.off[k + 1]) {
            k++;
        }
        const int64_t j = t - p.off[k];
        copy_elem<S>(levels + t * S, a + ((j + 1) * p.step[k] - 1) * S);
    }
}

/* The search down the levels: the top level whole, then in each level below the
 * window of B - 1 elements the one above leaves (with c of level k's samples
 * before the query, the count in level k - 1 lies in [cB, cB + B - 1], or in
 * [cB, m[k - 1]] when c = m[k]). */
template <int DT>
__global__ void
search_levels_kernel(const char *a, const char *levels, ca_search_plan p, const char *v,
                     int64_t nv, int right, int64_t *out)
{
    constexpr int size = dtype_size(DT);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nv;
         i += (int64_t)gridDim.x * blockDim.x) {
        const ca_skey q = ca_sort_key(DT, v + i * size, 1);
        int64_t lo = 0, hi = p.m[p.levels];
        for (int k = p.levels;; k--) {
            const char *base = k == 0 ? a : levels + p.off[k] * size;
            while (lo < hi) {
                const int64_t mid = lo + ((hi - lo) >> 1);
                if (ca_skey_less(ca_sort_key(DT, base + mid * size, 1), q, right)) {
                    lo = mid + 1;
                }
                else {
                    hi = mid;
                }
            }
            if (k == 0) {
                break;
            }
            const int64_t c = lo;
            lo = c * p.fan;
            hi = c < p.m[k] ? lo + p.fan - 1 : p.m[k - 1];
        }
        out[i] = lo;
    }
}

/* Build the levels into temp, then search down them. */
template <int DT>
int
search_with_levels(const char *a, const ca_search_plan &p, char *temp, const char *v,
                   int64_t nv, int right, int64_t *out, cudaStream_t st)
{
    constexpr int size = dtype_size(DT);
    sample_levels<size>
        <<<blocks_for(p.off[p.levels + 1], kMaxBlocks), kThreads, 0, st>>>(a, p, temp);
    search_levels_kernel<DT><<<blocks_for(nv, kMaxBlocks), kThreads, 0, st>>>(
        a, temp, p, v, nv, right, out);
    return (int)cudaGetLastError();
}

template <typename X>
__device__ inline int64_t
bin_of(const X *x, int64_t i)
{
    return (int64_t)x[i];
}

/* Counts (W = false) or weight sums in shared memory, merged once per block. */
template <typename X, bool W>
__global__ void
hist_shared(const X *x, int64_t n, const double *w, int64_t nbins, void *out)
{
    extern __shared__ unsigned long long sh_raw[];
    uint32_t *cnt = reinterpret_cast<uint32_t *>(sh_raw);
    double *sum = reinterpret_cast<double *>(sh_raw);
    for (int64_t b = threadIdx.x; b < nbins; b += blockDim.x) {
        if (W) {
            sum[b] = 0.0;
        }
        else {
            cnt[b] = 0;
        }
    }
    __syncthreads();
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = bin_of(x, i);
        if (b >= 0 && b < nbins) {
            if (W) {
                atomicAdd(&sum[b], w[i]);
            }
            else {
                atomicAdd(&cnt[b], 1u);
            }
        }
    }
    __syncthreads();
    for (int64_t b = threadIdx.x; b < nbins; b += blockDim.x) {
        if (W) {
            if (sum[b] != 0.0) {
                atomicAdd(reinterpret_cast<double *>(out) + b, sum[b]);
            }
        }
        else if (cnt[b] != 0) {
            atomicAdd(reinterpret_cast<unsigned long long *>(out) + b,
                      (unsigned long long)cnt[b]);
        }
    }
}

template <typename X, bool W>
__global__ void
hist_global(const X *x, int64_t n, const double *w, int64_t nbins, void *out)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t b = bin_of(x, i);
        if (b >= 0 && b < nbins) {
            if (W) {
                atomicAdd(reinterpret_cast<double *>(out) + b, w[i]);
            }
            else {
                atomicAdd(reinterpret_cast<unsigned long long *>(out) + b, 1ull);
            }
        }
    }
}

template <typename X, bool W>
int
hist(const X *x, int64_t n, const double *w, int64_t nbins, void *out, cudaStream_t st)
{
    size_t shared = (size_t)nbins * (W ? sizeof(double) : sizeof(uint32_t));
    /* A block's 32-bit counts cannot overflow: it sees at most n / blocks
     * elements, and the grid-stride loop gives each block the same share. */
    if (shared <= kHistShared && n / kHistBlocks < (int64_t)UINT32_MAX) {
        hist_shared<X, W>
            <<<blocks_for(n, kHistBlocks), kThreads, shared, st>>>(x, n, w, nbins, out);
    }
    else {
        hist_global<X, W>
            <<<blocks_for(n, kMaxBlocks), kThreads, 0, st>>>(x, n, w, nbins, out);
    }
    return (int)cudaGetLastError();
}

} // namespace

extern "C" int
ca_cuda_searchsorted(int dtype, const void *a, int64_t n, const int64_t *sorter,
                     const void *v, int64_t nv, int right, int64_t *out, void *temp,
                     ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const unsigned nb = blocks_for(nv, kMaxBlocks);
    const char *ac = (const char *)a, *vc = (const char *)v;
    ca_search_plan p;
    const bool levels =
        ca_search_plan_make(&p, 1, dtype_size(dtype), n, sorter != nullptr, nv) > 0;
    if (levels && temp == nullptr) {
        return CA_KERR_UNSUPPORTED; /* the caller did not give the scratch */
    }
    char *tc = (char *)temp;
    switch (dtype) {
#define CA_P_SEARCH_CASE(dt)                                                           \
    case dt:                                                                           \
        if (levels) {                                                                  \
            return search_with_levels<dt>(ac, p, tc, vc, nv, right, out, st);          \
        }                                                                              \
        search_kernel<dt><<<nb, kThreads, 0, st>>>(ac, n, sorter, vc, nv, right, out); \
        break;
        CA_P_SEARCH_CASE(CA_BOOL)
        CA_P_SEARCH_CASE(CA_INT8)
        CA_P_SEARCH_CASE(CA_UINT8)
        CA_P_SEARCH_CASE(CA_INT16)
        CA_P_SEARCH_CASE(CA_UINT16)
        CA_P_SEARCH_CASE(CA_INT32)
        CA_P_SEARCH_CASE(CA_UINT32)
        CA_P_SEARCH_CASE(CA_INT64)
        CA_P_SEARCH_CASE(CA_UINT64)
        CA_P_SEARCH_CASE(CA_FLOAT16)
        CA_P_SEARCH_CASE(CA_FLOAT32)
        CA_P_SEARCH_CASE(CA_FLOAT64)
        CA_P_SEARCH_CASE(CA_COMPLEX64)
        CA_P_SEARCH_CASE(CA_COMPLEX128)
#undef CA_P_SEARCH_CASE
    default: return CA_KERR_UNSUPPORTED;
    }
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_bincount(int xdtype, const void *x, int64_t n, const double *w, int64_t nbins,
                 void *out, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    /* int64 zeros and float64 zeros are both all-zero bytes */
    cudaError_t e = cudaMemsetAsync(out, 0, (size_t)nbins * 8, st);
    if (e != cudaSuccess || n == 0) {
        return (int)e;
    }
    if (xdtype == CA_INT32) {
        const int32_t *xi = (const int32_t *)x;
        return w ? hist<int32_t, true>(xi, n, w, nbins, out, st)
                 : hist<int32_t, false>(xi, n, w, nbins, out, st);
    }
    const int64_t *xl = (const int64_t *)x;
    return w ? hist<int64_t, true>(xl, n, w, nbins, out, st)
             : hist<int64_t, false>(xl, n, w, nbins, out, st);
}

/*
 * select.cu: order statistics without a sort (kernels.h: ca_select). The
 * elements of up to CA_SELECT_MAX_RANKS ranks of one contiguous row, in NumPy's
 * sort order (NaNs last), by a radix select over the unsigned keys of
 * sort_keys.h (the order the sorts use, so a selected element is the one a sort
 * would put at that rank):
 *
 *   for each 11-bit digit of the key, most significant first (a 32-bit key has
 *   digits of 11, 11 and 10 bits, a 64-bit one six, a 16-bit one 11 + 5):
 *     histogram pass: every element whose key matches the rank's digits found so
 *       far counts in the bin of its next digit (2048 shared-memory bins, then
 *       one global add per nonzero bin and block);
 *     choose pass (one block): the bin holding the rank becomes its next digit,
 *       the rank becomes its position inside that bin; the bins are zeroed.
 *   then the key is turned back into the element.
 *
 * Every pass reads the row once, so a float32 median costs three reads of it
 * and no sort; nothing waits for the host. The first pass also notes whether
 * the row holds a NaN (its all-ones key), so that NumPy's median (NaN when a
 * NaN is present: CA_SELECT_NAN_POISON) needs no pass of its own.
 *
 * Counting: a warp first votes; a warp with no matching element (all but a few
 * after the first digit) does nothing more; when every matching lane of a warp
 * has the same digit (ties, constant data) its leader adds the count once;
 * otherwise each matching lane adds 1 to its bin (shared atomics). Two ranks (an
 * even median's middle pair) share one histogram while their digits agree,
 * which is all but the last digit in the usual case. The scratch
 * (CA_SELECT_SCRATCH_BYTES) holds the global bins and each rank's state; a
 * first one-block pass initializes it. The histogram kernel is instantiated per
 * dtype, so the key is made with compile-time loads and no dtype switch.
 * CA_SELECT_MAX_RANKS is 2: the code below has two ranks' slots.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/block/block_scan.cuh>

#include "kernels.h"
#include "sort_keys.h"

extern "C" int ca_cuda_select(int dtype, int size, const void *x, int64_t n,
                              const int64_t *ks, int nk, int flags, void *out,
                              void *scratch, ca_stream_t stream);

namespace {

constexpr int kThreads = 256;
constexpr int kDigit = 11;
constexpr int kBins = 1 << kDigit;
constexpr int kChoose = kBins / 2; /* choose_kernel's threads: two bins each */
constexpr int kMaxBlocks = 2048;   /* a cap on one wave of hist_kernel's blocks */
constexpr int kUnroll = 8;
constexpr unsigned kFull = 0xffffffffu;

/* One rank's search: the key digits chosen so far (prefix, its digits above
 * the current one; the bits below are 0) and the rank among the elements that
 * share them. */
struct Rank {
    unsigned long long prefix;
    long long k;
};

struct Scratch {
    unsigned long long bins[CA_SELECT_MAX_RANKS][kBins];
    Rank rank[CA_SELECT_MAX_RANKS];
    unsigned nan; /* the first pass saw a NaN */
};
static_assert(sizeof(Scratch) <= CA_SELECT_SCRATCH_BYTES, "kernels.h's scratch size");

/* Bytes per element (ca_dtype_size, as a constant in kernels). */
__host__ __device__ constexpr int
dtype_size(int dt)
{
    return dt == CA_BOOL || dt == CA_INT8 || dt == CA_UINT8        ? 1
           : dt == CA_INT16 || dt == CA_UINT16 || dt == CA_FLOAT16 ? 2
           : dt == CA_INT32 || dt == CA_UINT32 || dt == CA_FLOAT32 ? 4
                                                                   : 8;
}

__host__ __device__ constexpr bool
is_float(int dt)
{
    return dt == CA_FLOAT16 || dt == CA_FLOAT32 || dt == CA_FLOAT64;
}

__global__ void
__launch_bounds__(kChoose) init_kernel(Scratch *s, long long k0, long long k1, int nk)
{
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        for (int r = 0; r < CA_SELECT_MAX_RANKS; r++) {
            s->bins[r][b] = 0;
        }
    }
    if (threadIdx.x == 0) {
        s->rank[0].prefix = 0;
        s->rank[0].k = k0;
        s->rank[1].prefix = 0;
        s->rank[1].k = nk > 1 ? k1 : k0;
        s->nan = 0;
    }
}

/* Count digit d of the lanes where m holds into sh. Every lane of the warp
 * calls it together (the votes are warp-wide). */
__device__ __forceinline__ void
warp_count(unsigned *sh, bool m, unsigned d)
{
    const unsigned ball = __ballot_sync(kFull, m);
    if (ball == 0u) {
        return; /* the same answer on every lane */
    }
    const int leader = __ffs(ball) - 1;
    const unsigned dl = __shfl_sync(kFull, d, leader);
    if (__all_sync(kFull, !m || d == dl)) {
        if ((int)(threadIdx.x & 31) == leader) {
            atomicAdd(sh + dl, (unsigned)__popc(ball));
        }
    }
    else if (m) {
        atomicAdd(sh + d, 1u);
    }
}

/* The histogram of the digit (key >> lo) & dmask over the elements matching
 * each rank's prefix above it (hi_mask); the second rank counts separately only
 * when its prefix differs from the first's. `first`: the first digit, whose
 * pass also looks for NaNs. */
template <int DT, typename K>
__global__ void
__launch_bounds__(kThreads)
    hist_kernel(const char *__restrict__ x, int64_t n, int lo, unsigned dmask,
                K hi_mask, int nk, int first, Scratch *s)
{
    constexpr int size = dtype_size(DT);
    const K nan_key = (K)ca_skey_mask(DT).lo; /* every NaN's key (floats) */
    __shared__ unsigned sh[CA_SELECT_MAX_RANKS][kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        sh[0][b] = 0;
        sh[1][b] = 0;
    }
    const K p0 = (K)s->rank[0].prefix;
    const K p1 = (K)s->rank[1].prefix;
    const bool two = nk > 1 && p1 != p0;
    bool nan = false;
    __syncthreads();
    /* a warp takes kUnroll * 32 consecutive elements per step (kUnroll loads in
     * flight per lane); the loop bound is the same for the whole warp, so every
     * lane reaches the warp-wide votes in warp_count */
    const int lane = (int)(threadIdx.x & 31);
    const int64_t warp0 =
        ((int64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane)) * kUnroll;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x * kUnroll;
    for (int64_t base = warp0; base < n; base += stride) {
        K key[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const int64_t i = base + u * 32 + lane;
            key[u] = i < n ? (K)ca_sort_key(DT, x + i * size, 0).lo : (K)0;
        }
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const bool in = base + u * 32 + lane < n;
            const unsigned d = (unsigned)(key[u] >> lo) & dmask;
            const K hi = key[u] & hi_mask;
            if (is_float(DT)) {
                nan = nan || (in && key[u] == nan_key);
            }
            warp_count(sh[0], in && hi == p0, d);
            if (two) {
                warp_count(sh[1], in && hi == p1, d);
            }
        }
    }
    const int any_nan = __syncthreads_or(first && nan); /* also the barrier */
    if (any_nan && threadIdx.x == 0) {
        s->nan = 1u;
    }
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        if (sh[0][b]) {
            atomicAdd(&s->bins[0][b], (unsigned long long)sh[0][b]);
        }
        if (two && sh[1][b]) {
            atomicAdd(&s->bins[1][b], (unsigned long long)sh[1][b]);
        }
    }
}

/* One block of kChoose threads, two bins each: each rank takes the bin that
 * holds it (the second rank reads the first's bins when it shared them); then
 * the bins are zeroed for the next digit (each thread zeroes the bins it read). */
__global__ void
__launch_bounds__(kChoose)
    choose_kernel(Scratch *s, int lo, unsigned long long hi_mask, int nk)
{
    typedef cub::BlockScan<unsigned long long, kChoose> Scan;
    __shared__ typename Scan::TempStorage tmp;
    __shared__ Rank next[CA_SELECT_MAX_RANKS];
    const int t = threadIdx.x;
    const int b0 = 2 * t, b1 = 2 * t + 1;
    const bool shared_bins =
        (s->rank[1].prefix & hi_mask) == (s->rank[0].prefix & hi_mask);
    for (int r = 0; r < nk; r++) {
        const int src = (r == 1 && shared_bins) ? 0 : r;
        const unsigned long long c0 = s->bins[src][b0], c1 = s->bins[src][b1];
        unsigned long long excl;
        Scan(tmp).ExclusiveSum(c0 + c1, excl);
        const unsigned long long k = (unsigned long long)s->rank[r].k;
        const unsigned long long base = s->rank[r].prefix & hi_mask;
        if (c0 > 0 && k >= excl && k < excl + c0) {
            next[r].prefix = base | ((unsigned long long)b0 << lo);
            next[r].k = (long long)(k - excl);
        }
        else if (c1 > 0 && k >= excl + c0 && k < excl + c0 + c1) {
            next[r].prefix = base | ((unsigned long long)b1 << lo);
            next[r].k = (long long)(k - excl - c0);
        }
        __syncthreads(); /* next[r] written; tmp free for the next rank */
    }
    for (int r = 0; r < CA_SELECT_MAX_RANKS; r++) {
        s->bins[r][b0] = 0;
        s->bins[r][b1] = 0;
    }
    if (t < nk) {
        s->rank[t] = next[t];
    }
}

/* out[r] = the element of rank r's key, or NaN for every rank when `poison`
 * and the row held a NaN. */
__global__ void
unkey_kernel(const Scratch *s, int dtype, int size, int nk, int poison, char *out)
{
    const int r = threadIdx.x;
    if (r < nk) {
        ca_skey k;
        k.hi = 0;
        k.lo = poison && s->nan ? ca_skey_mask(dtype).lo : s->rank[r].prefix;
        ca_sort_unkey(dtype, k, out + (int64_t)r * size);
    }
}

/* The blocks of hist_kernel<DT, K> the device holds at once: its grid-stride
 * loop gives every block the same share, so a second, partial wave of blocks
 * would take as long as the first. */
template <int DT, typename K>
cudaError_t
resident_blocks(int *out)
{
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) {
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    }
    if (err == cudaSuccess) {
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, hist_kernel<DT, K>,
                                                            kThreads, 0);
    }
    *out = (sms > 0 ? sms : 1) * (per_sm > 0 ? per_sm : 1);
    return err;
}

/* The digit passes of dtype DT (key word K). */
template <int DT, typename K>
int
run_select(const char *x, int64_t n, int nk, Scratch *s, cudaStream_t st)
{
    const int bits = ca_skey_bits(DT);
    const int64_t per_block = (int64_t)kThreads * kUnroll * 4;
    const int64_t want = (n + per_block - 1) / per_block;
    int most = 0;
    const cudaError_t err = resident_blocks<DT, K>(&most);
    if (err != cudaSuccess) {
        return (int)err;
    }
    most = most < kMaxBlocks ? most : kMaxBlocks;
    const int blocks = (int)(want < most ? want : most);
    for (int hi = bits; hi > 0;) {
        const int lo = hi > kDigit ? hi - kDigit : 0;
        const unsigned dmask = (1u << (hi - lo)) - 1u;
        const unsigned long long hi_mask = hi >= 64 ? 0ull : ~0ull << hi;
        hist_kernel<DT, K><<<blocks, kThreads, 0, st>>>(x, n, lo, dmask, (K)hi_mask, nk,
                                                        hi == bits, s);
        choose_kernel<<<1, kChoose, 0, st>>>(s, lo, hi_mask, nk);
        hi = lo;
    }
    return (int)cudaGetLastError();
}

} // namespace

extern "C" int
ca_cuda_select(int dtype, int size, const void *x, int64_t n, const int64_t *ks, int nk,
               int flags, void *out, void *scratch, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    Scratch *s = (Scratch *)scratch;
    const char *xc = (const char *)x;
    init_kernel<<<1, kChoose, 0, st>>>(s, ks[0], nk > 1 ? ks[1] : ks[0], nk);
    int e;
    switch (dtype) {
#define CA_P_SELECT_CASE(dt, K)                                                        \
    case dt: e = run_select<dt, K>(xc, n, nk, s, st); break;
        CA_P_SELECT_CASE(CA_BOOL, uint32_t)
        CA_P_SELECT_CASE(CA_INT8, uint32_t)
        CA_P_SELECT_CASE(CA_UINT8, uint32_t)
        CA_P_SELECT_CASE(CA_INT16, uint32_t)
        CA_P_SELECT_CASE(CA_UINT16, uint32_t)
        CA_P_SELECT_CASE(CA_INT32, uint32_t)
        CA_P_SELECT_CASE(CA_UINT32, uint32_t)
        CA_P_SELECT_CASE(CA_INT64, uint64_t)
        CA_P_SELECT_CASE(CA_UINT64, uint64_t)
        CA_P_SELECT_CASE(CA_FLOAT16, uint32_t)
        CA_P_SELECT_CASE(CA_FLOAT32, uint32_t)
        CA_P_SELECT_CASE(CA_FLOAT64, uint64_t)
#undef CA_P_SELECT_CASE
    default: return CA_KERR_UNSUPPORTED;
    }
    if (e != 0) {
        return e;
    }
    const int poison = (flags & CA_SELECT_NAN_POISON) != 0;
    unkey_kernel<<<1, 32, 0, st>>>(s, dtype, size, nk, poison, (char *)out);
    return (int)cudaGetLastError();
}

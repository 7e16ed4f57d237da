/*
 * select.cu: order statistics without a sort (kernels.h: ca_select). The
 * elements of up to CA_SELECT_MAX_RANKS ranks of one contiguous row, in NumPy's
 * sort order (NaNs last), by a radix select over the unsigned keys of
 * sort_keys.h (the order the sorts use, so a selected element is the one a sort
 * would put at that rank):
 *
 *   for each 8-bit digit of the key, most significant first:
 *     histogram pass: every element whose key matches the rank's digits found so
 *       far counts in the bin of its next digit (shared-memory bins with
 *       warp-aggregated atomics, then one global add per bin and block);
 *     choose pass (one block): the bin holding the rank becomes its next digit,
 *       the rank becomes its position inside that bin; the bins are zeroed.
 *   then the key is turned back into the element.
 *
 * Every pass reads the row once, so a float32 median costs four reads of it and
 * no sort; nothing waits for the host. Two ranks (an even median's middle pair)
 * share one histogram while their digits agree, which is all but the last digit
 * in the usual case. The scratch (CA_SELECT_SCRATCH_BYTES) holds the bins and
 * each rank's state; a first one-block pass initializes it.
 * CA_SELECT_MAX_RANKS is 2: the code below has two ranks' slots.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "kernels.h"
#include "sort_keys.h"

extern "C" int ca_cuda_select(int dtype, int size, const void *x, int64_t n,
                              const int64_t *ks, int nk, void *out, void *scratch,
                              ca_stream_t stream);

namespace {

constexpr int kThreads = 256;
constexpr int kBins = 256;
constexpr int kMaxBlocks = 2048;
constexpr int kUnroll = 8;

/* One rank's search: the key digits chosen so far (prefix, its digits above
 * the current one) and the rank among the elements that share them. */
struct Rank {
    unsigned long long prefix;
    long long k;
};

struct Scratch {
    unsigned long long bins[CA_SELECT_MAX_RANKS][kBins];
    Rank rank[CA_SELECT_MAX_RANKS];
};
static_assert(sizeof(Scratch) <= CA_SELECT_SCRATCH_BYTES, "kernels.h's scratch size");

__global__ void
init_kernel(Scratch *s, long long k0, long long k1, int nk)
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
    }
}

/* Count `bin` (or nothing: -1) in sh, one atomic per distinct bin of the warp.
 * Every lane of the warp calls it together. */
__device__ __forceinline__ void
warp_count(unsigned *sh, int bin)
{
    const unsigned peers = __match_any_sync(0xffffffffu, bin);
    const int leader = __ffs(peers) - 1;
    if (bin >= 0 && (int)(threadIdx.x & 31) == leader) {
        atomicAdd(sh + bin, (unsigned)__popc(peers));
    }
}

/* The histogram of the digit at `shift` over the elements matching each rank's
 * prefix above it (hi_mask); the second rank counts separately only when its
 * prefix differs from the first's. */
__global__ void
__launch_bounds__(kThreads)
    hist_kernel(const char *__restrict__ x, int64_t n, int dtype, int size, int shift,
                unsigned long long hi_mask, int nk, Scratch *s)
{
    __shared__ unsigned sh[CA_SELECT_MAX_RANKS][kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        sh[0][b] = 0;
        sh[1][b] = 0;
    }
    const unsigned long long p0 = s->rank[0].prefix & hi_mask;
    const unsigned long long p1 = s->rank[1].prefix & hi_mask;
    const bool two = nk > 1 && p1 != p0;
    __syncthreads();
    /* a warp takes kUnroll * 32 consecutive elements per step (kUnroll loads in
     * flight per lane); the loop bound is the same for the whole warp, so every
     * lane reaches the warp-wide match in warp_count */
    const int lane = (int)(threadIdx.x & 31);
    const int64_t warp0 =
        ((int64_t)blockIdx.x * blockDim.x + (threadIdx.x - lane)) * kUnroll;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x * kUnroll;
    for (int64_t base = warp0; base < n; base += stride) {
        unsigned long long key[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const int64_t i = base + u * 32 + lane;
            key[u] = i < n ? ca_sort_key(dtype, x + i * size, 0).lo : 0;
        }
#pragma unroll
        for (int u = 0; u < kUnroll; u++) {
            const bool in = base + u * 32 + lane < n;
            const int digit = (int)((key[u] >> shift) & 0xFFu);
            const unsigned long long hi = key[u] & hi_mask;
            warp_count(sh[0], in && hi == p0 ? digit : -1);
            if (two) {
                warp_count(sh[1], in && hi == p1 ? digit : -1);
            }
        }
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        if (sh[0][b]) {
            atomicAdd(&s->bins[0][b], (unsigned long long)sh[0][b]);
        }
        if (two && sh[1][b]) {
            atomicAdd(&s->bins[1][b], (unsigned long long)sh[1][b]);
        }
    }
}

/* One block of kBins threads: each rank takes the bin that holds it (the
 * second rank reads the first's bins when it shared them); then the bins are
 * zeroed for the next digit. */
__global__ void
__launch_bounds__(kBins)
    choose_kernel(Scratch *s, int shift, unsigned long long hi_mask, int nk)
{
    __shared__ unsigned long long scan[kBins];
    __shared__ Rank next[CA_SELECT_MAX_RANKS];
    const int t = threadIdx.x;
    const bool shared_bins =
        (s->rank[1].prefix & hi_mask) == (s->rank[0].prefix & hi_mask);
    for (int r = 0; r < nk; r++) {
        const int src = (r == 1 && shared_bins) ? 0 : r;
        const unsigned long long c = s->bins[src][t];
        scan[t] = c;
        __syncthreads();
        for (int off = 1; off < kBins; off <<= 1) {
            const unsigned long long add = t >= off ? scan[t - off] : 0;
            __syncthreads();
            scan[t] += add;
            __syncthreads();
        }
        const unsigned long long incl = scan[t], excl = incl - c;
        const long long k = s->rank[r].k;
        if (c > 0 && (unsigned long long)k >= excl && (unsigned long long)k < incl) {
            next[r].prefix =
                (s->rank[r].prefix & hi_mask) | ((unsigned long long)t << shift);
            next[r].k = k - (long long)excl;
        }
        __syncthreads();
    }
    for (int r = 0; r < CA_SELECT_MAX_RANKS; r++) {
        s->bins[r][t] = 0;
    }
    if (t < nk) {
        s->rank[t] = next[t];
    }
}

__global__ void
unkey_kernel(const Scratch *s, int dtype, int size, int nk, char *out)
{
    const int r = threadIdx.x;
    if (r < nk) {
        ca_skey k;
        k.hi = 0;
        k.lo = s->rank[r].prefix;
        ca_sort_unkey(dtype, k, out + (int64_t)r * size);
    }
}

} // namespace

extern "C" int
ca_cuda_select(int dtype, int size, const void *x, int64_t n, const int64_t *ks, int nk,
               void *out, void *scratch, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    Scratch *s = (Scratch *)scratch;
    const int bits = ca_skey_bits(dtype) < 8 ? 8 : ca_skey_bits(dtype);
    const int64_t per_block = (int64_t)kThreads * kUnroll * 4;
    const int64_t want = (n + per_block - 1) / per_block;
    const int blocks = (int)(want < kMaxBlocks ? want : kMaxBlocks);
    init_kernel<<<1, kBins, 0, st>>>(s, ks[0], nk > 1 ? ks[1] : ks[0], nk);
    for (int shift = bits - 8; shift >= 0; shift -= 8) {
        const unsigned long long hi_mask =
            shift + 8 >= 64 ? 0ull : ~0ull << (shift + 8);
        hist_kernel<<<blocks, kThreads, 0, st>>>((const char *)x, n, dtype, size, shift,
                                                 hi_mask, nk, s);
        choose_kernel<<<1, kBins, 0, st>>>(s, shift, hi_mask, nk);
    }
    unkey_kernel<<<1, 32, 0, st>>>(s, dtype, size, nk, (char *)out);
    return (int)cudaGetLastError();
}

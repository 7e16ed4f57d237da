/*
 * sort_block.cu: rows of up to CA_SORT_BLOCK_MAX keys sorted inside one thread
 * block each (sort.cu routes them here), one launch, no scratch: each block
 * reads its row once (coalesced, striped), maps the elements to the unsigned
 * keys of sort_keys.h in registers, turns them blocked through shared memory
 * (cub::BlockExchange), sorts them with cub::BlockRadixSort (stable; argsort's
 * 32-bit positions ride along as values) over the dtype's significant bits, and
 * writes the values and int64 positions back striped (coalesced). A row shorter
 * than its tile is padded with the largest key: the pads sit after every
 * element in the blocked order, so the stable sort leaves them after any equal
 * key, past the row's end, where nothing is written.
 *
 * Tiles (threads x keys per thread): 32x4, 64x4, 128x4, 256x4, 256x8. The
 * largest, 2048 64-bit keys with their positions, needs about 17 KiB of shared
 * memory (the exchange: 16 KiB of keys), well inside the 48 KiB static limit,
 * and keeps several blocks per SM; longer rows go to DeviceSegmentedSort.
 * Instantiations: 2 key words x 5 tiles x (keys, pairs) = 20 kernels.
 */
#include <cub/block/block_exchange.cuh>
#include <cub/block/block_radix_sort.cuh>
#include <stdint.h>

#include "sort_cub.cuh"
#include "sort_keys.h"

namespace {

constexpr int64_t kMaxGrid = (int64_t)1 << 30;

/* One block per row (grid-stride over rows). */
template <typename K, int T, int ITEMS, bool PAIRS>
__global__ void
__launch_bounds__(T)
    block_sort_kernel(const char *in, int64_t nseg, int n, int dtype, int size,
                      int canon, uint64_t mask, int end_bit, char *out, int64_t *idx)
{
    using V = typename std::conditional<PAIRS, uint32_t, cub::NullType>::type;
    using Sort = cub::BlockRadixSort<K, T, ITEMS, V>;
    using Exchange = cub::BlockExchange<K, T, ITEMS>;
    __shared__ union {
        typename Sort::TempStorage sort;
        typename Exchange::TempStorage exchange;
    } smem;
    for (int64_t r = blockIdx.x; r < nseg; r += gridDim.x) {
        const char *row = in + r * (int64_t)n * size;
        K keys[ITEMS];
#pragma unroll
        for (int i = 0; i < ITEMS; i++) {
            const int j = i * T + (int)threadIdx.x;
            if (j < n) {
                keys[i] =
                    (K)(ca_sort_key(dtype, row + (int64_t)j * size, canon).lo ^ mask);
            }
            else {
                keys[i] = ~(K)0;
            }
        }
        __syncthreads(); /* the previous row's last use of smem is over */
        Exchange(smem.exchange).StripedToBlocked(keys);
        __syncthreads(); /* the exchange's reads are over before the sort writes */
        const int64_t base = r * (int64_t)n;
        if constexpr (PAIRS) {
            uint32_t pos[ITEMS];
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                pos[i] = (uint32_t)(threadIdx.x * ITEMS + i);
            }
            Sort(smem.sort).SortBlockedToStriped(keys, pos, 0, end_bit);
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const int j = i * T + (int)threadIdx.x;
                if (j < n) {
                    idx[base + j] = (int64_t)pos[i];
                }
            }
        }
        else {
            Sort(smem.sort).SortBlockedToStriped(keys, 0, end_bit);
        }
        if (out != nullptr) {
#pragma unroll
            for (int i = 0; i < ITEMS; i++) {
                const int j = i * T + (int)threadIdx.x;
                if (j < n) {
                    ca_skey k;
                    k.hi = 0;
                    k.lo = (uint64_t)keys[i] ^ mask;
                    ca_sort_unkey(dtype, k, out + (base + j) * size);
                }
            }
        }
    }
}

template <typename K, int T, int ITEMS>
int
launch(const ca_block_sort &s, cudaStream_t st)
{
    const unsigned grid = (unsigned)(s.nseg < kMaxGrid ? s.nseg : kMaxGrid);
    if (s.idx != nullptr) {
        block_sort_kernel<K, T, ITEMS, true>
            <<<grid, T, 0, st>>>((const char *)s.in, s.nseg, s.n, s.dtype, s.size,
                                 s.canon, s.mask, s.end_bit, (char *)s.out, s.idx);
    }
    else {
        block_sort_kernel<K, T, ITEMS, false>
            <<<grid, T, 0, st>>>((const char *)s.in, s.nseg, s.n, s.dtype, s.size,
                                 s.canon, s.mask, s.end_bit, (char *)s.out, s.idx);
    }
    return (int)cudaGetLastError();
}

template <typename K>
int
by_tile(const ca_block_sort &s, cudaStream_t st)
{
    if (s.n <= 128) {
        return launch<K, 32, 4>(s, st);
    }
    if (s.n <= 256) {
        return launch<K, 64, 4>(s, st);
    }
    if (s.n <= 512) {
        return launch<K, 128, 4>(s, st);
    }
    if (s.n <= 1024) {
        return launch<K, 256, 4>(s, st);
    }
    return launch<K, 256, 8>(s, st);
}

} // namespace

int
ca_block_sort_rows(const ca_block_sort *s, cudaStream_t st)
{
    if (s->n < 1 || s->n > CA_SORT_BLOCK_MAX || s->nseg < 1 || s->key_bytes > 8) {
        return CA_KERR_UNSUPPORTED;
    }
    if (s->key_bytes == 8) {
        return by_tile<uint64_t>(*s, st);
    }
    return by_tile<uint32_t>(*s, st);
}

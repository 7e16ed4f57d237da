/*
 * sort_cub.cuh: the CUB sorts behind ca_sort (sort.cu), one key width per
 * translation unit (sort_cub_u32.cu, ...) so that nvcc compiles them in
 * parallel: CUB's sort instantiations are the heaviest code of the build.
 *
 * Keys are the unsigned keys of sort_keys.h; values are the 32-bit (64-bit
 * when a row is longer than INT32_MAX) positions argsort carries. Both sorts
 * are stable; vsize 0 (pairs 0) sorts keys only. They run on double buffers
 * (no extra copy, half the scratch of CUB's out-of-place form); sel[0] and
 * sel[1] get the buffer (0 or 1) holding the sorted keys and values. With
 * temp == NULL only *bytes is set.
 */
#ifndef CA_SORT_CUB_CUH
#define CA_SORT_CUB_CUH

#include <cuda_runtime.h>
#include <stdint.h>

typedef unsigned __int128 ca_u128;

#define CA_SORT_CUB_DECL(name, K)                                                      \
    int ca_cub_radix_##name(void *temp, size_t *bytes, K *k0, K *k1, void *v0,         \
                            void *v1, int vsize, int64_t n, int end_bit, int *sel,     \
                            cudaStream_t st);                                          \
    int ca_cub_seg_##name(void *temp, size_t *bytes, K *k0, K *k1, uint32_t *v0,       \
                          uint32_t *v1, int pairs, int64_t n, int64_t nseg,            \
                          const int64_t *off, int *sel, cudaStream_t st);

/* Rows of up to CA_SORT_BLOCK_MAX keys, one thread block each (sort_block.cu):
 * in/out/idx as ca_sort's (out or idx may be NULL), keys of 4 or 8 bytes, each
 * key ^ mask (descending order) sorted over bits [0, end_bit). One launch, no
 * scratch; CA_KERR_UNSUPPORTED for a row too long or a 16-byte key. */
#define CA_SORT_BLOCK_MAX 2048
typedef struct {
    const void *in;
    void *out;
    int64_t *idx;
    int64_t nseg;
    int n, dtype, size, key_bytes, canon, end_bit;
    uint64_t mask;
} ca_block_sort;
int ca_block_sort_rows(const ca_block_sort *s, cudaStream_t st);

CA_SORT_CUB_DECL(u32, uint32_t)
CA_SORT_CUB_DECL(u64, uint64_t)
CA_SORT_CUB_DECL(u128, ca_u128)

/* One row of at most INT32_MAX 32- or 64-bit integers (dtype: CA_INT32,
 * CA_UINT32, CA_INT64, CA_UINT64), ascending, values only: CUB reads in and
 * writes out (distinct buffers) itself, over key bits [0, end_bit) (CUB's key
 * of a signed integer is the value with its sign bit flipped, sort_keys.h's
 * key), with its own alternate buffer in temp: no map and unmap passes, no
 * copy. With temp == NULL only *bytes is set; CA_KERR_UNSUPPORTED for other
 * dtypes or a longer row (sort_cub_direct.cu). */
int ca_cub_direct_keys(int dtype, void *temp, size_t *bytes, const void *in, void *out,
                       int64_t n, int end_bit, cudaStream_t st);

#ifdef CA_SORT_CUB_RADIX_IMPL
#include <cub/device/device_radix_sort.cuh>

/* One row: DeviceRadixSort over the significant bits only (bool: 1 pass).
 * Pairs with 32-bit positions (a row of at most INT32_MAX keys) pass CUB a
 * 32-bit count, so that its offsets are 32-bit too (on sm_90 that is CUB's
 * 384 x 23 onesweep tile for 4-byte keys, not 384 x 17); keys alone may be
 * longer (2^31 int8s) and keep a 64-bit count. */
#define CA_SORT_CUB_RADIX(name, K)                                                     \
    int ca_cub_radix_##name(void *temp, size_t *bytes, K *k0, K *k1, void *v0,         \
                            void *v1, int vsize, int64_t n, int end_bit, int *sel,     \
                            cudaStream_t st)                                           \
    {                                                                                  \
        cub::DoubleBuffer<K> keys(k0, k1);                                             \
        cudaError_t e;                                                                 \
        if (vsize == 0) {                                                              \
            e = cub::DeviceRadixSort::SortKeys(temp, *bytes, keys, n, 0, end_bit, st); \
            sel[1] = 0;                                                                \
        }                                                                              \
        else if (vsize == 4) {                                                         \
            if (n > (int64_t)INT32_MAX) {                                              \
                return (int)cudaErrorInvalidValue;                                     \
            }                                                                          \
            cub::DoubleBuffer<uint32_t> vals((uint32_t *)v0, (uint32_t *)v1);          \
            e = cub::DeviceRadixSort::SortPairs(temp, *bytes, keys, vals, (uint32_t)n, \
                                                0, end_bit, st);                       \
            sel[1] = vals.selector;                                                    \
        }                                                                              \
        else {                                                                         \
            cub::DoubleBuffer<uint64_t> vals((uint64_t *)v0, (uint64_t *)v1);          \
            e = cub::DeviceRadixSort::SortPairs(temp, *bytes, keys, vals, n, 0,        \
                                                end_bit, st);                          \
            sel[1] = vals.selector;                                                    \
        }                                                                              \
        sel[0] = keys.selector;                                                        \
        return (int)e;                                                                 \
    }
#endif

#ifdef CA_SORT_CUB_SEG_IMPL
#include <cub/device/device_segmented_sort.cuh>

/* Many rows in one call: DeviceSegmentedSort (small rows by warps and blocks,
 * large ones by a radix pass of their own) over the rows' offsets off[0..nseg]. */
#define CA_SORT_CUB_SEG(name, K)                                                       \
    int ca_cub_seg_##name(void *temp, size_t *bytes, K *k0, K *k1, uint32_t *v0,       \
                          uint32_t *v1, int pairs, int64_t n, int64_t nseg,            \
                          const int64_t *off, int *sel, cudaStream_t st)               \
    {                                                                                  \
        cub::DoubleBuffer<K> keys(k0, k1);                                             \
        cudaError_t e;                                                                 \
        if (!pairs) {                                                                  \
            e = cub::DeviceSegmentedSort::SortKeys(temp, *bytes, keys, n, nseg, off,   \
                                                   off + 1, st);                       \
            sel[1] = 0;                                                                \
        }                                                                              \
        else {                                                                         \
            cub::DoubleBuffer<uint32_t> vals(v0, v1);                                  \
            e = cub::DeviceSegmentedSort::StableSortPairs(temp, *bytes, keys, vals, n, \
                                                          nseg, off, off + 1, st);     \
            sel[1] = vals.selector;                                                    \
        }                                                                              \
        sel[0] = keys.selector;                                                        \
        return (int)e;                                                                 \
    }
#endif

#endif /* CA_SORT_CUB_CUH */

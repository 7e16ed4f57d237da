/*
 * grid_1d.cuh: the launch shape of the one-dimensional grid-stride kernels
 * (index.cu, nonzero.cu, perm.cu, sort.cu, ufunc_at.cu) and the alignment of
 * the pieces their callers carve out of one scratch allocation (and the
 * two-call protocol that sizes it), element sizes and alignments. Each file
 * includes it inside nothing: the names live in an anonymous namespace, one
 * copy per translation unit, as the files' own copies did.
 */
#ifndef CA_GRID_1D_CUH
#define CA_GRID_1D_CUH

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels.h"

namespace {

constexpr int kThreads = 256;
/* Grid-stride loops: enough blocks to fill any current GPU several times over. */
constexpr int64_t kMaxBlocks = 1 << 16;

/* Blocks of kThreads for n items of one thread each, capped at kMaxBlocks. */
inline unsigned
blocks_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return (unsigned)(b < kMaxBlocks ? b : kMaxBlocks);
}

/* b rounded up to whole 256-byte units (every scratch piece starts aligned). */
inline size_t
round256(size_t b)
{
    return (b + 255) & ~(size_t)255;
}

/* Scratch sized in two calls, as CUB's: with temp NULL, *temp_bytes = need and
 * true (status 0); with fewer bytes than need, true and cudaErrorInvalidValue;
 * else false: go on. */
inline bool
temp_answered(const void *temp, size_t *temp_bytes, size_t need, int *status)
{
    if (temp == nullptr) {
        *temp_bytes = need;
        *status = 0;
        return true;
    }
    *status = *temp_bytes < need ? (int)cudaErrorInvalidValue : 0;
    return *status != 0;
}

/* temp_answered for scratch whose last part is CUB's, of cub_bytes at o_cub, once
 * CUB's sizing call returned e: an error e is answered as well. */
inline bool
cub_temp_answered(const void *temp, size_t *temp_bytes, size_t o_cub, size_t cub_bytes,
                  int e, int *status)
{
    if (e != 0) {
        *status = e;
        return true;
    }
    return temp_answered(temp, temp_bytes, o_cub + round256(cub_bytes), status);
}

/* The largest power of two (up to 16) dividing x. */
inline int
align_of(uint64_t x)
{
    int a = 16;
    while (a > 1 && (x % (uint64_t)a) != 0) {
        a >>= 1;
    }
    return a;
}

/* Bytes per element (ca_dtype_size, usable as a constant in kernels). */
__host__ __device__ constexpr int
dtype_size(int dt)
{
    return dt == CA_BOOL || dt == CA_INT8 || dt == CA_UINT8        ? 1
           : dt == CA_INT16 || dt == CA_UINT16 || dt == CA_FLOAT16 ? 2
           : dt == CA_INT32 || dt == CA_UINT32 || dt == CA_FLOAT32 ? 4
           : dt == CA_COMPLEX128                                   ? 16
                                                                   : 8;
}

} // namespace

#endif /* CA_GRID_1D_CUH */

/*
 * grid_1d.cuh: the launch shape of the one-dimensional grid-stride kernels
 * (index.cu, nonzero.cu, perm.cu, sort.cu, ufunc_at.cu) and the alignment of
 * the pieces their callers carve out of one scratch allocation. Each file
 * includes it inside nothing: the names live in an anonymous namespace, one
 * copy per translation unit, as the files' own copies did.
 */
#ifndef CA_GRID_1D_CUH
#define CA_GRID_1D_CUH

#include <stddef.h>
#include <stdint.h>

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

} // namespace

#endif /* CA_GRID_1D_CUH */

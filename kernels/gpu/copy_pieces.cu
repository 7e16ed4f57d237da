/*
 * copy_pieces.cu: several plain copies in one launch (kernels.h's ca_copy_pieces:
 * concatenate's pieces, each a block of rows). Block row y of the grid is piece y;
 * its threads walk the piece's words (U bytes, the widest unit every address,
 * pitch and row length allow) in a grid-stride loop with 64-bit indices.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "grid_1d.cuh"

extern "C" int ca_cuda_copy_pieces(const ca_copy_piece *p, int npieces,
                                   ca_stream_t stream);

namespace {

constexpr int64_t kPieceBlocks = 1 << 14; /* fewer than grid_1d.cuh's kMaxBlocks */

struct Pieces {
    ca_copy_piece p[CA_COPY_MAX_PIECES];
};

template <class U>
__global__ void
copy_pieces_kernel(const Pieces ps)
{
    const ca_copy_piece &p = ps.p[blockIdx.y];
    const int64_t row_units = p.row_bytes / (int64_t)sizeof(U);
    const int64_t n = p.rows * row_units;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t r = i / row_units;
        const int64_t c = i - r * row_units;
        const U *src = reinterpret_cast<const U *>(p.src + r * p.src_pitch);
        U *dst = reinterpret_cast<U *>(p.dst + r * p.dst_pitch);
        dst[c] = src[c];
    }
}


} // namespace

extern "C" int
ca_cuda_copy_pieces(const ca_copy_piece *p, int npieces, ca_stream_t stream)
{
    if (npieces <= 0) {
        return 0;
    }
    if (npieces > CA_COPY_MAX_PIECES) {
        return CA_KERR_UNSUPPORTED;
    }
    Pieces ps;
    uint64_t acc = 0;
    int64_t most = 0;
    for (int i = 0; i < npieces; i++) {
        ps.p[i] = p[i];
        acc |= (uint64_t)(uintptr_t)p[i].dst | (uint64_t)(uintptr_t)p[i].src |
               (uint64_t)p[i].row_bytes | (uint64_t)p[i].dst_pitch |
               (uint64_t)p[i].src_pitch;
        const int64_t bytes = p[i].rows * p[i].row_bytes;
        most = bytes > most ? bytes : most;
    }
    if (most == 0) {
        return 0;
    }
    const int unit = align_of(acc);
    int64_t blocks = (most / unit + kThreads - 1) / kThreads;
    blocks = blocks < kPieceBlocks ? blocks : kPieceBlocks;
    const dim3 grid((unsigned)blocks, (unsigned)npieces);
    cudaStream_t st = (cudaStream_t)stream;
    switch (unit) {
    case 16: copy_pieces_kernel<uint4><<<grid, kThreads, 0, st>>>(ps); break;
    case 8: copy_pieces_kernel<uint2><<<grid, kThreads, 0, st>>>(ps); break;
    case 4: copy_pieces_kernel<uint32_t><<<grid, kThreads, 0, st>>>(ps); break;
    case 2: copy_pieces_kernel<uint16_t><<<grid, kThreads, 0, st>>>(ps); break;
    default: copy_pieces_kernel<uint8_t><<<grid, kThreads, 0, st>>>(ps); break;
    }
    return (int)cudaGetLastError();
}

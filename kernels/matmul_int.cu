/*
 * matmul_int.cu: bool and integer matrix products on the GPU (cuBLAS has
 * none that match NumPy's wrapping results).
 *
 * Correct first: one thread per output element, 16x16 tiles of A and B staged
 * through shared memory, any byte strides (transposed and broadcast operands
 * need no copy). Integers accumulate in unsigned arithmetic, 32 bits for
 * elements of up to 32 bits and 64 for 64-bit ones, and are truncated: the
 * residue NumPy's wrapping sum gives. Bool is the or of ands. Elements are
 * read and written with memcpy, so misaligned views are legal.
 */
#include <cuda_runtime.h>
#include <string.h>

#include "matmul_impl.h"
#include "scalar.h"

namespace {

constexpr int kTile = 16;

template <typename T>
__device__ __forceinline__ T
load_elem(const char *p)
{
    T v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* T: the unsigned element type; Acc: the accumulator; kBool: or of ands. */
template <typename T, typename Acc, bool kBool>
__global__ void __launch_bounds__(kTile *kTile)
matmul_int_kernel(int64_t batch, int64_t m, int64_t n, int64_t k, const char *__restrict__ a,
                  int64_t a_sb, int64_t a_sm, int64_t a_sk, const char *__restrict__ b,
                  int64_t b_sb, int64_t b_sk, int64_t b_sn, char *__restrict__ c,
                  int64_t c_sb, int64_t c_sm, int64_t c_sn)
{
    __shared__ Acc as[kTile][kTile + 1];
    __shared__ Acc bs[kTile][kTile + 1];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t tiles_m = (m + kTile - 1) / kTile;
    for (int64_t p = blockIdx.z; p < batch; p += gridDim.z) {
        const char *pa = a + p * a_sb;
        const char *pb = b + p * b_sb;
        char *pc = c + p * c_sb;
        for (int64_t ti = blockIdx.y; ti < tiles_m; ti += gridDim.y) {
            const int64_t i = ti * kTile + ty;
            const int64_t j = (int64_t)blockIdx.x * kTile + tx;
            Acc acc = 0;
            for (int64_t l0 = 0; l0 < k; l0 += kTile) {
                const int64_t la = l0 + tx, lb = l0 + ty;
                as[ty][tx] = (i < m && la < k) ? (Acc)load_elem<T>(pa + i * a_sm + la * a_sk)
                                               : (Acc)0;
                bs[ty][tx] = (lb < k && j < n) ? (Acc)load_elem<T>(pb + lb * b_sk + j * b_sn)
                                               : (Acc)0;
                __syncthreads();
#pragma unroll
                for (int t = 0; t < kTile; t++) {
                    if (kBool) {
                        acc |= (Acc)((as[ty][t] != 0) & (bs[t][tx] != 0));
                    }
                    else {
                        acc += as[ty][t] * bs[t][tx];
                    }
                }
                __syncthreads();
            }
            if (i < m && j < n) {
                T r = (T)acc;
                memcpy(pc + i * c_sm + j * c_sn, &r, sizeof r);
            }
        }
    }
}

template <typename T, typename Acc, bool kBool>
int
launch(int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t a_sb,
       int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
       void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn, cudaStream_t st)
{
    const int64_t tiles_n = (n + kTile - 1) / kTile;
    const int64_t tiles_m = (m + kTile - 1) / kTile;
    if (tiles_n > 0x7fffffff) {
        return CA_KERR_UNSUPPORTED;
    }
    dim3 grid((unsigned)tiles_n, (unsigned)(tiles_m < 65535 ? tiles_m : 65535),
              (unsigned)(batch < 65535 ? batch : 65535));
    dim3 block(kTile, kTile);
    matmul_int_kernel<T, Acc, kBool><<<grid, block, 0, st>>>(
        batch, m, n, k, (const char *)a, a_sb, a_sm, a_sk, (const char *)b, b_sb, b_sk, b_sn,
        (char *)c, c_sb, c_sm, c_sn);
    return (int)cudaGetLastError();
}

}  // namespace

extern "C" int
ca_matmul_int_cuda(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k, const void *a,
                   int64_t a_sb, int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sb,
                   int64_t b_sk, int64_t b_sn, void *c, int64_t c_sb, int64_t c_sm,
                   int64_t c_sn, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
#define CA_MM_ARGS batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb, b_sk, b_sn, c, c_sb, c_sm, c_sn, st
    switch (dtype) {
    case CA_BOOL:
        return launch<uint8_t, uint32_t, true>(CA_MM_ARGS);
    case CA_INT8:
    case CA_UINT8:
        return launch<uint8_t, uint32_t, false>(CA_MM_ARGS);
    case CA_INT16:
    case CA_UINT16:
        return launch<uint16_t, uint32_t, false>(CA_MM_ARGS);
    case CA_INT32:
    case CA_UINT32:
        return launch<uint32_t, uint32_t, false>(CA_MM_ARGS);
    case CA_INT64:
    case CA_UINT64:
        return launch<uint64_t, uint64_t, false>(CA_MM_ARGS);
    default:
        return CA_KERR_UNSUPPORTED;
    }
#undef CA_MM_ARGS
}

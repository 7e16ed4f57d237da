/*
 * matmul_int.cu: cuarray's own matrix-product kernel: bool and integer
 * products (cuBLAS has none that match NumPy's wrapping results) and small
 * float32/float64 products (where one plain launch costs less than cuBLAS's
 * call path; csrc/ops/linalg.c decides which products are small).
 *
 * One thread per output element, 16x16 output tiles; A's 16 x kK row panel
 * and B's kK x 16 column panel are staged through shared memory, so each
 * thread issues kK / 16 independent loads of each operand per step (their
 * latencies overlap: a 64x64x64 product is one step). Any byte strides
 * (transposed, Fortran-ordered, strided and broadcast operands need no copy).
 *
 * Arithmetic: integers accumulate in unsigned arithmetic, 32 bits for
 * elements of up to 32 bits and 64 for 64-bit ones, and are truncated: the
 * residue NumPy's wrapping sum gives. Bool is the or of ands. float32 and
 * float64 accumulate in their own precision with one fused multiply-add per
 * term, in order of the summation index: cuBLAS's arithmetic without TF32, up
 * to summation order. Elements are read and written with memcpy unless every
 * pointer and stride is a multiple of the element size, so misaligned views
 * are legal.
 */
#include <cuda_runtime.h>
#include <string.h>

#include "matmul_impl.h"
#include "scalar.h"

namespace {

constexpr int kTile = 16; /* output tile: kTile x kTile threads */
constexpr int kK = 64;    /* summation indices staged per step */
constexpr int kLoads = kK / kTile;

enum Op { kInt, kBool, kFloat };

template <typename T, bool kAligned>
__device__ __forceinline__ T
load_elem(const char *p)
{
    if (kAligned) {
        return *(const T *)p;
    }
    T v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* acc + x * y in the accumulator's arithmetic. */
template <int kOp, typename Acc>
__device__ __forceinline__ Acc
madd(Acc acc, Acc x, Acc y)
{
    if (kOp == kBool) {
        return acc | (Acc)((x != 0) & (y != 0));
    }
    return acc + x * y;
}

template <>
__device__ __forceinline__ float
madd<kFloat, float>(float acc, float x, float y)
{
    return fmaf(x, y, acc);
}

template <>
__device__ __forceinline__ double
madd<kFloat, double>(double acc, double x, double y)
{
    return fma(x, y, acc);
}

/* T: the element type as loaded (unsigned for integers); Acc: the
 * accumulator. */
template <typename T, typename Acc, int kOp, bool kAligned>
__global__ void
__launch_bounds__(kTile *kTile)
    matmul_tiled_kernel(int64_t batch, int64_t m, int64_t n, int64_t k,
                        const char *__restrict__ a, int64_t a_sb, int64_t a_sm,
                        int64_t a_sk, const char *__restrict__ b, int64_t b_sb,
                        int64_t b_sk, int64_t b_sn, char *__restrict__ c, int64_t c_sb,
                        int64_t c_sm, int64_t c_sn)
{
    /* A warp stores rows r and r + 1 of a panel: row lengths of 16 mod 32
     * words put them in disjoint banks (for 4-byte elements). The reads in
     * the sum are broadcasts (as) or consecutive (bs). */
    __shared__ Acc as[kTile][kK + kTile];
    __shared__ Acc bs[kK][kTile];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t tiles_m = (m + kTile - 1) / kTile;
    const int64_t j = (int64_t)blockIdx.x * kTile + tx;
    for (int64_t p = blockIdx.z; p < batch; p += gridDim.z) {
        const char *pa = a + p * a_sb;
        const char *pb = b + p * b_sb;
        char *pc = c + p * c_sb;
        for (int64_t ti = blockIdx.y; ti < tiles_m; ti += gridDim.y) {
            const int64_t i = ti * kTile + ty;
            Acc acc = 0;
            for (int64_t l0 = 0; l0 < k; l0 += kK) {
#pragma unroll
                for (int r = 0; r < kLoads; r++) {
                    const int64_t la = l0 + tx + r * kTile, lb = l0 + ty + r * kTile;
                    as[ty][tx + r * kTile] =
                        (i < m && la < k)
                            ? (Acc)load_elem<T, kAligned>(pa + i * a_sm + la * a_sk)
                            : (Acc)0;
                    bs[ty + r * kTile][tx] =
                        (lb < k && j < n)
                            ? (Acc)load_elem<T, kAligned>(pb + lb * b_sk + j * b_sn)
                            : (Acc)0;
                }
                __syncthreads();
                if (k - l0 >= kK) {
#pragma unroll
                    for (int t = 0; t < kK; t++) {
                        acc = madd<kOp, Acc>(acc, as[ty][t], bs[t][tx]);
                    }
                }
                else {
                    /* the last, partial step: only the staged terms (a padded
                     * 0 * 0 would turn a -0.0 sum into +0.0) */
                    const int len = (int)(k - l0);
                    for (int t = 0; t < len; t++) {
                        acc = madd<kOp, Acc>(acc, as[ty][t], bs[t][tx]);
                    }
                }
                __syncthreads();
            }
            if (i < m && j < n) {
                T r = (T)acc;
                if (kAligned) {
                    *(T *)(pc + i * c_sm + j * c_sn) = r;
                }
                else {
                    memcpy(pc + i * c_sm + j * c_sn, &r, sizeof r);
                }
            }
        }
    }
}

template <typename T, typename Acc, int kOp>
int
launch(int64_t batch, int64_t m, int64_t n, int64_t k, const void *a, int64_t a_sb,
       int64_t a_sm, int64_t a_sk, const void *b, int64_t b_sb, int64_t b_sk,
       int64_t b_sn, void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn, cudaStream_t st)
{
    const int64_t tiles_n = (n + kTile - 1) / kTile;
    const int64_t tiles_m = (m + kTile - 1) / kTile;
    if (tiles_n > 0x7fffffff) {
        return CA_KERR_UNSUPPORTED;
    }
    dim3 grid((unsigned)tiles_n, (unsigned)(tiles_m < 65535 ? tiles_m : 65535),
              (unsigned)(batch < 65535 ? batch : 65535));
    dim3 block(kTile, kTile);
    /* Aligned when every address the kernel forms is a multiple of the
     * element size (a power of two; negative strides included). */
    const uint64_t mis =
        ((uint64_t)(uintptr_t)a | (uint64_t)a_sb | (uint64_t)a_sm | (uint64_t)a_sk |
         (uint64_t)(uintptr_t)b | (uint64_t)b_sb | (uint64_t)b_sk | (uint64_t)b_sn |
         (uint64_t)(uintptr_t)c | (uint64_t)c_sb | (uint64_t)c_sm | (uint64_t)c_sn) &
        (sizeof(T) - 1);
    if (mis == 0) {
        matmul_tiled_kernel<T, Acc, kOp, true><<<grid, block, 0, st>>>(
            batch, m, n, k, (const char *)a, a_sb, a_sm, a_sk, (const char *)b, b_sb,
            b_sk, b_sn, (char *)c, c_sb, c_sm, c_sn);
    }
    else {
        matmul_tiled_kernel<T, Acc, kOp, false><<<grid, block, 0, st>>>(
            batch, m, n, k, (const char *)a, a_sb, a_sm, a_sk, (const char *)b, b_sb,
            b_sk, b_sn, (char *)c, c_sb, c_sm, c_sn);
    }
    return (int)cudaGetLastError();
}

} // namespace

extern "C" int
ca_matmul_tiled_cuda(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                     const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                     const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn, void *c,
                     int64_t c_sb, int64_t c_sm, int64_t c_sn, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
#define CA_MM_ARGS                                                                     \
    batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb, b_sk, b_sn, c, c_sb, c_sm, c_sn, st
    switch (dtype) {
    case CA_BOOL: return launch<uint8_t, uint32_t, kBool>(CA_MM_ARGS);
    case CA_INT8:
    case CA_UINT8: return launch<uint8_t, uint32_t, kInt>(CA_MM_ARGS);
    case CA_INT16:
    case CA_UINT16: return launch<uint16_t, uint32_t, kInt>(CA_MM_ARGS);
    case CA_INT32:
    case CA_UINT32: return launch<uint32_t, uint32_t, kInt>(CA_MM_ARGS);
    case CA_INT64:
    case CA_UINT64: return launch<uint64_t, uint64_t, kInt>(CA_MM_ARGS);
    case CA_FLOAT32: return launch<float, float, kFloat>(CA_MM_ARGS);
    case CA_FLOAT64: return launch<double, double, kFloat>(CA_MM_ARGS);
    default: return CA_KERR_UNSUPPORTED;
    }
#undef CA_MM_ARGS
}

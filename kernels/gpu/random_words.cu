/*
 * random_words.cu: ca_random_u01_words on the GPU (behind dispatch_random.c):
 * another bit generator's words rewritten in place as uniforms in [0, 1).
 *
 * Each thread owns 4-word blocks (16 bytes: 4 float32 or 2 float64 samples),
 * reads one and writes its samples over it, so no two threads touch the same
 * bytes. 16-byte loads and stores when the buffer is 16-byte aligned (a pool
 * block is); 4- and 8-byte ones otherwise. The grid is half of what fills
 * every SM (ca_random_grid / 2): cuRAND's generator kernel, queued on another
 * stream while this one runs (csrc/runtime/launch_rand.c), then still finds threads
 * free on the SMs instead of waiting for this grid to drain; a streaming pass
 * needs no more than that to keep the memory busy, and each thread keeps two
 * blocks in flight.
 */
#include <cuda_runtime.h>

#include "random_dist.h"

extern "C" int ca_random_u01_words_cuda(void *buf, int64_t n, int dtype,
                                        ca_stream_t stream);

namespace {

constexpr int kBlock = 256;

/* The samples of 4-word block r, as 4 words of output bits. */
template <bool kF64>
__device__ __forceinline__ uint4
u01_block(uint4 r)
{
    uint4 o;
    if constexpr (kF64) {
        const double a = ca_u01_f64(r.x, r.y), b = ca_u01_f64(r.z, r.w);
        const unsigned long long ua = (unsigned long long)__double_as_longlong(a);
        const unsigned long long ub = (unsigned long long)__double_as_longlong(b);
        o.x = (unsigned)ua;
        o.y = (unsigned)(ua >> 32);
        o.z = (unsigned)ub;
        o.w = (unsigned)(ub >> 32);
    }
    else {
        o.x = __float_as_uint(ca_u01_f32(r.x));
        o.y = __float_as_uint(ca_u01_f32(r.y));
        o.z = __float_as_uint(ca_u01_f32(r.z));
        o.w = __float_as_uint(ca_u01_f32(r.w));
    }
    return o;
}

/* 16-byte aligned: blocks j and j + step per iteration, both loaded first. */
template <bool kF64>
__global__ void
__launch_bounds__(kBlock) u01_vec_kernel(uint4 *buf, uint64_t nblk)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < nblk;
         j += 2 * step) {
        const bool two = j + step < nblk;
        const uint4 a = buf[j];
        uint4 b = a;
        if (two) {
            b = buf[j + step];
        }
        buf[j] = u01_block<kF64>(a);
        if (two) {
            buf[j + step] = u01_block<kF64>(b);
        }
    }
}

/* Any 4-byte (float32) or 8-byte (float64) alignment: word by word. */
template <bool kF64>
__global__ void
__launch_bounds__(kBlock) u01_scalar_kernel(uint32_t *buf, uint64_t nblk)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; j < nblk;
         j += step) {
        uint32_t *p = buf + 4 * j;
        uint4 r;
        r.x = p[0];
        r.y = p[1];
        r.z = p[2];
        r.w = p[3];
        const uint4 o = u01_block<kF64>(r);
        if constexpr (kF64) {
            double *d = (double *)p;
            d[0] = __longlong_as_double((long long)(((uint64_t)o.y << 32) | o.x));
            d[1] = __longlong_as_double((long long)(((uint64_t)o.w << 32) | o.z));
        }
        else {
            float *f = (float *)p;
            f[0] = __uint_as_float(o.x);
            f[1] = __uint_as_float(o.y);
            f[2] = __uint_as_float(o.z);
            f[3] = __uint_as_float(o.w);
        }
    }
}

template <bool kF64>
cudaError_t
launch(void *buf, uint64_t nblk, cudaStream_t st)
{
    int grid = 0;
    cudaError_t err = ca_random_grid(nblk, &grid);
    if (err != cudaSuccess) {
        return err;
    }
    grid = grid > 1 ? grid / 2 : 1;
    if (((uintptr_t)buf & 15u) == 0) {
        u01_vec_kernel<kF64><<<grid, kBlock, 0, st>>>((uint4 *)buf, nblk);
    }
    else {
        u01_scalar_kernel<kF64><<<grid, kBlock, 0, st>>>((uint32_t *)buf, nblk);
    }
    return cudaGetLastError();
}

} // namespace

extern "C" int
ca_random_u01_words_cuda(void *buf, int64_t n, int dtype, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (dtype == CA_FLOAT64) {
        return (int)launch<true>(buf, (uint64_t)n / 2, st);
    }
    return (int)launch<false>(buf, (uint64_t)n / 4, st);
}

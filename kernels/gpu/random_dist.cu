/*
 * random_dist.cu: ca_random_dist on the GPU (behind dispatch_random.c).
 *
 * Transforms: one thread per Philox block in a grid-stride loop, as the
 * uniform and normal kernels of random.cu (4 float32 or 2 float64/int64
 * samples per block, one 16-byte store when aligned and whole). Stream ops:
 * one thread per sample, its rejection loop inside the thread (random_dist.h
 * bounds every loop). One instantiation per op, so each kernel keeps only the
 * registers its own distribution needs. Samples are defined per block or per
 * sample, never per thread, so the launch shape does not change the numbers.
 */
#include <type_traits>
#include <utility>

#include <cuda_runtime.h>

#include "random_dist.h"

namespace {

constexpr int kBlock = 256;

__device__ __forceinline__ uint64_t
thread_index()
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

__device__ __forceinline__ float
param_f32(const ca_rd_params &p, int k, float dflt, uint64_t i)
{
    return p.p[k] != nullptr ? (float)p.p[k][i] : dflt;
}

template <int kOp>
__global__ void
__launch_bounds__(kBlock)
    transform_f32_kernel(float *__restrict__ out, uint64_t n, uint64_t nblk,
                         uint64_t seed, uint64_t offset, ca_rd_params prm,
                         const uint32_t *__restrict__ words, bool vec)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    const float a0 = (float)prm.v[0], b0 = (float)prm.v[1], c0 = (float)prm.v[2];
    for (uint64_t j = thread_index(); j < nblk; j += step) {
        float v[4];
        ca_rd_base_f32(ca_rd_base(kOp), ca_rd_block(seed, offset, words, j), v);
        const uint64_t i = j * 4;
#pragma unroll
        for (int t = 0; t < 4; t++) {
            const uint64_t e = i + t < n ? i + t : i;
            v[t] =
                ca_rd_transform_f32(kOp, v[t], param_f32(prm, 0, a0, e),
                                    param_f32(prm, 1, b0, e), param_f32(prm, 2, c0, e));
        }
        if (vec && i + 4 <= n) {
            reinterpret_cast<float4 *>(out)[j] = make_float4(v[0], v[1], v[2], v[3]);
        }
        else {
            for (int t = 0; t < 4 && i + t < n; t++) {
                out[i + t] = v[t];
            }
        }
    }
}

template <int kOp, typename T>
__global__ void
__launch_bounds__(kBlock)
    transform_f64_kernel(T *__restrict__ out, uint64_t n, uint64_t nblk, uint64_t seed,
                         uint64_t offset, ca_rd_params prm,
                         const uint32_t *__restrict__ words)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = thread_index(); j < nblk; j += step) {
        double v[2];
        ca_rd_base_f64(ca_rd_base(kOp), ca_rd_block(seed, offset, words, j), v);
        const uint64_t i = j * 2;
        for (int t = 0; t < 2 && i + t < n; t++) {
            const uint64_t e = i + t;
            if constexpr (kOp == CA_RD_GEOMETRIC) {
                out[e] = (T)ca_rd_geometric(v[t], ca_rd_param(&prm, 0, e));
            }
            else {
                out[e] = (T)ca_rd_transform_f64(kOp, v[t], ca_rd_param(&prm, 0, e),
                                                ca_rd_param(&prm, 1, e),
                                                ca_rd_param(&prm, 2, e));
            }
        }
    }
}

template <int kOp, typename T>
__global__ void
__launch_bounds__(kBlock)
    stream_kernel(T *__restrict__ out, uint64_t n, uint64_t seed, uint64_t offset,
                  ca_rd_params prm, const uint32_t *__restrict__ words)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    double lam_seen = -1.0, elam = 0.0; /* Poisson: exp(-lam) of the last lam */
    for (uint64_t i = thread_index(); i < n; i += step) {
        ca_rd_stream s;
        ca_rd_stream_init(&s, seed, offset + i, words, i);
        const double a = ca_rd_param(&prm, 0, i), b = ca_rd_param(&prm, 1, i),
                     c = ca_rd_param(&prm, 2, i);
        if constexpr (kOp == CA_RD_POISSON) {
            /* ca_rd_poisson's small-lam branch, exp(-lam) once per distinct lam */
            if (a > 0.0 && a < 10.0) {
                if (a != lam_seen) {
                    lam_seen = a;
                    elam = exp(-a);
                }
                out[i] = (T)ca_rd_poisson_small_e(&s, a, elam);
                continue;
            }
        }
        if constexpr (std::is_integral<T>::value) {
            out[i] = ca_rd_stream_i64(kOp, &s, a, b, c);
        }
        else {
            out[i] = (T)ca_rd_stream_f64(kOp, &s, a, b, c);
        }
    }
}

struct Call {
    void *out;
    uint64_t n;
    int dtype;
    uint64_t seed, offset;
    ca_rd_params prm;
    const uint32_t *words;
    cudaStream_t st;
};

template <int kOp>
cudaError_t
launch_transform(const Call &c)
{
    const uint64_t nblk = c.dtype == CA_FLOAT32 ? (c.n + 3) / 4 : (c.n + 1) / 2;
    int grid = 0;
    cudaError_t err = ca_random_grid(nblk, &grid);
    if (err != cudaSuccess) {
        return err;
    }
    if constexpr (kOp == CA_RD_GEOMETRIC) {
        transform_f64_kernel<kOp, int64_t><<<grid, kBlock, 0, c.st>>>(
            (int64_t *)c.out, c.n, nblk, c.seed, c.offset, c.prm, c.words);
    }
    else if (c.dtype == CA_FLOAT32) {
        const bool vec = ((uintptr_t)c.out & 15u) == 0;
        transform_f32_kernel<kOp><<<grid, kBlock, 0, c.st>>>(
            (float *)c.out, c.n, nblk, c.seed, c.offset, c.prm, c.words, vec);
    }
    else {
        transform_f64_kernel<kOp, double><<<grid, kBlock, 0, c.st>>>(
            (double *)c.out, c.n, nblk, c.seed, c.offset, c.prm, c.words);
    }
    return cudaGetLastError();
}

template <int kOp>
cudaError_t
launch_stream(const Call &c)
{
    int grid = 0;
    cudaError_t err = ca_random_grid(c.n, &grid);
    if (err != cudaSuccess) {
        return err;
    }
    if constexpr (kOp >= CA_RD_POISSON) {
        stream_kernel<kOp, int64_t><<<grid, kBlock, 0, c.st>>>(
            (int64_t *)c.out, c.n, c.seed, c.offset, c.prm, c.words);
    }
    else if (c.dtype == CA_FLOAT32) {
        stream_kernel<kOp, float><<<grid, kBlock, 0, c.st>>>(
            (float *)c.out, c.n, c.seed, c.offset, c.prm, c.words);
    }
    else {
        stream_kernel<kOp, double><<<grid, kBlock, 0, c.st>>>(
            (double *)c.out, c.n, c.seed, c.offset, c.prm, c.words);
    }
    return cudaGetLastError();
}

template <int kOp>
cudaError_t
launch_op(const Call &c)
{
    if constexpr (kOp < CA_RD_NTRANSFORM) {
        return launch_transform<kOp>(c);
    }
    else {
        return launch_stream<kOp>(c);
    }
}

/* op -> its launcher, instantiated for every op of kernels.h's enum. */
template <int... kOps>
cudaError_t
dispatch(int op, const Call &c, std::integer_sequence<int, kOps...>)
{
    cudaError_t err = cudaErrorInvalidValue;
    ((op == kOps ? (err = launch_op<kOps>(c), 0) : 0), ...);
    return err;
}

} // namespace

extern "C" int
ca_random_dist_cuda(int op, void *out, int64_t n, int dtype, uint64_t seed,
                    uint64_t offset, const ca_rd_params *prm, const uint32_t *words,
                    ca_stream_t stream)
{
    Call c{ out, (uint64_t)n, dtype, seed, offset, *prm, words, (cudaStream_t)stream };
    return (int)dispatch(op, c, std::make_integer_sequence<int, CA_RD_COUNT>{});
}

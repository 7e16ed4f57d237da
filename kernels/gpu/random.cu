/*
 * random.cu: the random distributions on the GPU (behind dispatch_random.c).
 *
 * One thread computes one Philox block per step of a grid-stride loop and
 * stores its samples with one 16-byte store (4 float32 or 2 float64) when the
 * output is aligned and the block lies inside it. The work per block is the
 * ten Philox rounds (two wide multiplies each) plus the transform, so the
 * kernels are arithmetic-bound at about the rate the stores drain; the key
 * schedule is uniform across the grid and stays in uniform registers.
 * Samples are defined per block, not per thread (random_impl.h), so the
 * launch shape does not change the numbers.
 */
#include <atomic>

#include <cuda_runtime.h>

#include "random_dist.h"

namespace {

constexpr int kBlock = 256;
constexpr int kMaxDevices = 64;
std::atomic<int> g_grid[kMaxDevices];

} // namespace

/* Blocks of kBlock (256) threads for a grid-stride loop: enough resident
 * threads to fill every SM, no more (the loop does the rest). Also used by
 * random_dist.cu. */
cudaError_t
ca_random_grid(uint64_t work, int *grid)
{
    int dev = 0, cap = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess) {
        return err;
    }
    if (dev >= 0 && dev < kMaxDevices) {
        cap = g_grid[dev].load(std::memory_order_relaxed);
    }
    if (cap <= 0) {
        int sms = 0, threads = 0;
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (err != cudaSuccess) {
            return err;
        }
        err = cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor,
                                     dev);
        if (err != cudaSuccess) {
            return err;
        }
        cap = sms * (threads / kBlock > 0 ? threads / kBlock : 1);
        if (dev >= 0 && dev < kMaxDevices) {
            g_grid[dev].store(cap, std::memory_order_relaxed);
        }
    }
    uint64_t need = (work + kBlock - 1) / kBlock;
    *grid = need < (uint64_t)cap ? (int)need : cap;
    if (*grid < 1) {
        *grid = 1;
    }
    return cudaSuccess;
}

namespace {

cudaError_t
grid_for(uint64_t work, int *grid)
{
    return ca_random_grid(work, grid);
}

__device__ __forceinline__ uint64_t
thread_index()
{
    return (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
}

/* ---- uniform and normal ------------------------------------------------------ */
/* The samples of one Philox block as one 16-byte vector: 4 float32 or 2 float64
 * (random_impl.h's samples per block). */
template <class T> struct BlockOf;
template <> struct BlockOf<float> {
    typedef float4 type;
    static constexpr int kPer = 4;
};
template <> struct BlockOf<double> {
    typedef double2 type;
    static constexpr int kPer = 2;
};

__device__ __forceinline__ float
lane(const float4 &v, int t)
{
    return t == 0 ? v.x : t == 1 ? v.y : t == 2 ? v.z : v.w;
}

__device__ __forceinline__ double
lane(const double2 &v, int t)
{
    return t == 0 ? v.x : v.y;
}

__device__ __forceinline__ float4
affine(float4 v, float loc, float scale)
{
    return make_float4(fmaf(v.x, scale, loc), fmaf(v.y, scale, loc),
                       fmaf(v.z, scale, loc), fmaf(v.w, scale, loc));
}

__device__ __forceinline__ double2
affine(double2 v, double loc, double scale)
{
    return make_double2(fma(v.x, scale, loc), fma(v.y, scale, loc));
}

/* The standard samples of a block: uniform in [0, 1), or normal (Box-Muller). */
struct Uniform {
    static __device__ __forceinline__ float4 standard(ca_u32x4 r, float)
    {
        return make_float4(ca_u01_f32(r.x), ca_u01_f32(r.y), ca_u01_f32(r.z),
                           ca_u01_f32(r.w));
    }
    static __device__ __forceinline__ double2 standard(ca_u32x4 r, double)
    {
        return make_double2(ca_u01_f64(r.x, r.y), ca_u01_f64(r.z, r.w));
    }
};

struct Normal {
    static __device__ __forceinline__ float4 standard(ca_u32x4 r, float)
    {
        float4 v;
        ca_box_muller_f32(r.x, r.y, &v.x, &v.y);
        ca_box_muller_f32(r.z, r.w, &v.z, &v.w);
        return v;
    }
    static __device__ __forceinline__ double2 standard(ca_u32x4 r, double)
    {
        double2 v;
        ca_box_muller_f64(r, &v.x, &v.y);
        return v;
    }
};

/* loc + scale * (a standard sample of Dist): one vector store per block where the
 * output is aligned (kVec) and the block lies inside it. */
template <class Dist, class T, bool kVec>
__global__ void
__launch_bounds__(kBlock) affine_kernel(T *__restrict__ out, uint64_t n, uint64_t nblk,
                                        uint64_t seed, uint64_t offset, T loc, T scale)
{
    typedef typename BlockOf<T>::type V;
    constexpr int kPer = BlockOf<T>::kPer;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = thread_index(); j < nblk; j += step) {
        const V v = affine(Dist::standard(ca_philox_block(seed, offset + j, 0), T()),
                           loc, scale);
        const uint64_t i = j * kPer;
        if (kVec && i + kPer <= n) {
            reinterpret_cast<V *>(out)[j] = v;
        }
        else {
            out[i] = lane(v, 0);
#pragma unroll
            for (int t = 1; t < kPer; t++) {
                if (i + t < n) {
                    out[i + t] = lane(v, t);
                }
            }
        }
    }
}

/* ---- integers ---------------------------------------------------------------- */
template <int kSize, bool kWide>
__global__ void
__launch_bounds__(kBlock)
    integers_kernel(char *__restrict__ out, uint64_t n, uint64_t nblk, uint64_t seed,
                    uint64_t offset, uint64_t low, uint64_t range_m1)
{
    constexpr int kShift = kWide ? 1 : 2;
    constexpr uint64_t kPer = (uint64_t)1 << kShift;
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t j = thread_index(); j < nblk; j += step) {
        ca_u32x4 blk = ca_philox_block(seed, offset + j, 0);
        const uint64_t i0 = j << kShift;
        for (uint64_t t = 0; t < kPer && i0 + t < n; t++) {
            uint64_t r =
                ca_random_int_sample(seed, offset, i0 + t, range_m1, kWide, blk);
            ca_store_int(out + (i0 + t) * kSize, kSize, low + r);
        }
    }
}

template <int kSize>
__global__ void
__launch_bounds__(kBlock)
    constant_kernel(char *__restrict__ out, uint64_t n, uint64_t value)
{
    const uint64_t step = (uint64_t)gridDim.x * blockDim.x;
    for (uint64_t i = thread_index(); i < n; i += step) {
        ca_store_int(out + i * kSize, kSize, value);
    }
}

template <int kSize>
cudaError_t
launch_integers(char *out, uint64_t n, uint64_t seed, uint64_t offset, uint64_t low,
                uint64_t range_m1, cudaStream_t st)
{
    int grid = 0;
    cudaError_t err;
    if (range_m1 == 0) {
        if ((err = grid_for(n, &grid)) != cudaSuccess) {
            return err;
        }
        constant_kernel<kSize><<<grid, kBlock, 0, st>>>(out, n, low);
        return cudaGetLastError();
    }
    const bool wide = range_m1 > 0xFFFFFFFFu;
    const uint64_t nblk = wide ? (n + 1) / 2 : (n + 3) / 4;
    if ((err = grid_for(nblk, &grid)) != cudaSuccess) {
        return err;
    }
    if (wide) {
        integers_kernel<kSize, true>
            <<<grid, kBlock, 0, st>>>(out, n, nblk, seed, offset, low, range_m1);
    }
    else {
        integers_kernel<kSize, false>
            <<<grid, kBlock, 0, st>>>(out, n, nblk, seed, offset, low, range_m1);
    }
    return cudaGetLastError();
}

bool
aligned16(const void *p)
{
    return ((uintptr_t)p & 15u) == 0;
}

template <class Dist, class T>
int
launch_affine(void *out, int64_t n, uint64_t seed, uint64_t offset, double loc,
              double scale, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    T *o = (T *)out;
    const uint64_t un = (uint64_t)n;
    const uint64_t kPer = BlockOf<T>::kPer;
    const uint64_t nblk = (un + kPer - 1) / kPer;
    int grid = 0;
    cudaError_t err = grid_for(nblk, &grid);
    if (err != cudaSuccess) {
        return (int)err;
    }
    if (aligned16(out)) {
        affine_kernel<Dist, T, true>
            <<<grid, kBlock, 0, st>>>(o, un, nblk, seed, offset, (T)loc, (T)scale);
    }
    else {
        affine_kernel<Dist, T, false>
            <<<grid, kBlock, 0, st>>>(o, un, nblk, seed, offset, (T)loc, (T)scale);
    }
    return (int)cudaGetLastError();
}

template <class Dist>
int
launch_dist(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset, double loc,
            double scale, ca_stream_t stream)
{
    return dtype == CA_FLOAT32
               ? launch_affine<Dist, float>(out, n, seed, offset, loc, scale, stream)
               : launch_affine<Dist, double>(out, n, seed, offset, loc, scale, stream);
}

} // namespace

extern "C" int
ca_random_uniform_cuda(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                       double low, double scale, ca_stream_t stream)
{
    return launch_dist<Uniform>(out, n, dtype, seed, offset, low, scale, stream);
}

extern "C" int
ca_random_normal_cuda(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                      double loc, double scale, ca_stream_t stream)
{
    return launch_dist<Normal>(out, n, dtype, seed, offset, loc, scale, stream);
}

extern "C" int
ca_random_integers_cuda(void *out, int64_t n, int itemsize, uint64_t seed,
                        uint64_t offset, uint64_t low, uint64_t range_m1,
                        ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    char *o = (char *)out;
    const uint64_t un = (uint64_t)n;
    switch (itemsize) {
    case 1: return (int)launch_integers<1>(o, un, seed, offset, low, range_m1, st);
    case 2: return (int)launch_integers<2>(o, un, seed, offset, low, range_m1, st);
    case 4: return (int)launch_integers<4>(o, un, seed, offset, low, range_m1, st);
    case 8: return (int)launch_integers<8>(o, un, seed, offset, low, range_m1, st);
    default: return CA_KERR_UNSUPPORTED;
    }
}

/* A tiny CPU emulation of the CUDA features the reduce kernels use (see build.sh):
 * blocks run one after another; a block's threads are ucontext fibers switched
 * round-robin, with barriers for __syncthreads and per-warp barriers for the
 * shuffles. It checks logic (indexing, splits, combines, barriers), not speed. */
#pragma once
#include <ucontext.h>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <atomic>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static

struct dim3 {
    unsigned x = 1, y = 1, z = 1;
};
struct alignas(16) uint4 {
    unsigned x, y, z, w;
};
struct alignas(16) int4 {
    int x, y, z, w;
};
struct alignas(8) int2 {
    int x, y;
};
typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
enum { cudaSuccess = 0, cudaErrorInvalidValue = 1 };
enum cudaDeviceAttr { cudaDevAttrMultiProcessorCount = 16 };

extern dim3 threadIdx, blockIdx, gridDim, blockDim;
extern int emu_sms;
extern std::atomic<long> emu_launches;

struct EmuBarrier {
    int n = 0, arrived = 0;
    long gen = 0;
};
extern EmuBarrier emu_bb, emu_wb[64];
extern uint32_t emu_warp_buf[64][32];
extern ucontext_t emu_sched;
extern ucontext_t *emu_fctx;
void emu_yield();

inline void
emu_wait(EmuBarrier &b)
{
    long g = b.gen;
    if (++b.arrived == b.n) {
        b.arrived = 0;
        b.gen++;
        return;
    }
    while (b.gen == g)
        emu_yield();
}
inline void
__syncthreads()
{
    emu_wait(emu_bb);
}
/* one address space, blocks one after another: fences order nothing here, and
 * an atomic is a plain read-modify-write */
inline void
__threadfence_system()
{}
inline void
__threadfence()
{}
template <class T>
inline void
__stcs(T *p, T v)
{
    *p = v;
}
template <class T>
inline T
__ldcg(const T *p)
{
    return *p;
}
inline unsigned int
atomicAdd(unsigned int *p, unsigned int v)
{
    const unsigned int old = *p;
    *p = old + v;
    return old;
}
inline uint32_t
__shfl_down_sync(unsigned, uint32_t v, int d)
{
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    emu_warp_buf[w][l] = v;
    emu_wait(emu_wb[w]);
    uint32_t r = l + d < 32 ? emu_warp_buf[w][l + d] : v;
    emu_wait(emu_wb[w]);
    return r;
}
inline uint32_t
__shfl_up_sync(unsigned, uint32_t v, int d)
{
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    emu_warp_buf[w][l] = v;
    emu_wait(emu_wb[w]);
    uint32_t r = l - d >= 0 ? emu_warp_buf[w][l - d] : v;
    emu_wait(emu_wb[w]);
    return r;
}
template <class T>
inline T
__ldg(const T *p)
{
    if (((uintptr_t)p) % alignof(T)) {
        fprintf(stderr, "MISALIGNED __ldg %p\n", (void *)p);
        abort();
    }
    return *p;
}
/* the bit casts: one memcpy */
template <class To, class From>
inline To
emu_bits(From v)
{
    static_assert(sizeof(To) == sizeof(From), "a bit cast keeps the size");
    To t;
    memcpy(&t, &v, sizeof t);
    return t;
}
#define EMU_BIT_CAST(name, To, From)                                                   \
    inline To name(From v) { return emu_bits<To>(v); }
EMU_BIT_CAST(__int_as_float, float, int)
EMU_BIT_CAST(__uint_as_float, float, unsigned int)
EMU_BIT_CAST(__float_as_uint, unsigned int, float)
EMU_BIT_CAST(__longlong_as_double, double, long long)
EMU_BIT_CAST(__double_as_longlong, long long, double)
inline cudaError_t
cudaGetLastError()
{
    return cudaSuccess;
}
inline cudaError_t
cudaDeviceGetAttribute(int *v, cudaDeviceAttr, int)
{
    *v = emu_sms;
    return 0;
}

void emu_run_block(void (*tramp)(void *), void *ctx, unsigned block);

/* kernels with any arguments and dynamic shared memory (the fused kernels) */
extern unsigned char emu_dyn_smem[1 << 16];
template <class L>
void
emu_tramp_l(void *p)
{
    (*(L *)p)();
}
template <class F, class... A>
void
emu_launch_v(F f, unsigned grid, unsigned block, size_t smem, const A &...args)
{
    if (smem > sizeof emu_dyn_smem || block > 2048) {
        fprintf(stderr, "emu: launch too large (block %u, smem %zu)\n", block, smem);
        abort();
    }
    emu_launches++;
    gridDim.x = grid;
    blockDim.x = block;
    auto call = [&]() { f(args...); };
    for (unsigned b = 0; b < grid; b++) {
        blockIdx.x = b;
        emu_run_block(&emu_tramp_l<decltype(call)>, &call, block);
    }
}

template <class F, class A> struct EmuCall {
    F f;
    const A *args;
};
template <class F, class A>
void
emu_tramp(void *p)
{
    auto *c = (EmuCall<F, A> *)p;
    c->f(*c->args);
}

template <class F, class A>
void
emu_launch(F f, unsigned grid, unsigned block, const A &args)
{
    emu_launches++;
    if (grid > (1u << 22)) {
        fprintf(stderr, "grid too large for emu: %u\n", grid);
        abort();
    }
    gridDim.x = grid;
    blockDim.x = block;
    EmuCall<F, A> c{ f, &args };
    for (unsigned b = 0; b < grid; b++) {
        blockIdx.x = b;
        emu_run_block(&emu_tramp<F, A>, &c, block);
    }
}

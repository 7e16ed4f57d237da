/*
 * ew_fuse.cuh: the kernel that runs a fused element-wise program (kernels.h,
 * ca_fuse_params) in one pass. Included by build/generated/ew_fuse.cu, which
 * defines each family's `Apply` (one switch case per loop that fits the family,
 * stamped from kernels/ops.def with the same element functions as the plain
 * kernels, so a fused chain gives bit-identical results).
 *
 * Each thread takes E consecutive elements (one 16-byte load per float leaf)
 * through the whole chain. The registers of the chain live in shared memory,
 * laid out [register][element][thread] so that the warp touches 32 consecutive
 * words (no bank conflicts): an instruction names its operands by number at run
 * time, which registers of the thread itself could only follow through local
 * memory. The instruction loop and the switch depend only on the launch
 * parameters, so warps never diverge on them.
 */
#ifndef CA_EW_FUSE_CUH
#define CA_EW_FUSE_CUH

#include "ew_kernels.cuh"

#define CA_FUSE_BLOCK 128

template <class R, int E> struct ca_fuse_regs {
    R *base;         /* this thread's register words: base[(reg * E + e) * BLOCK] */
    const R *consts; /* the program's constants (shared memory) */

    __device__ __forceinline__ R word(uint8_t code, int e) const
    {
        return (code & CA_FUSE_CONST) ? consts[code & 0x7f]
                                      : base[((int)code * E + e) * CA_FUSE_BLOCK];
    }
    __device__ __forceinline__ void put_word(int reg, int e, R w)
    {
        base[(reg * E + e) * CA_FUSE_BLOCK] = w;
    }
    /* typed access: float32 and float64 keep their bits, bool is 0 or 1 */
    __device__ __forceinline__ float get_f(uint8_t code, int e) const
    {
        return __uint_as_float((uint32_t)word(code, e));
    }
    __device__ __forceinline__ double get_d(uint8_t code, int e) const
    {
        return __longlong_as_double((long long)word(code, e));
    }
    __device__ __forceinline__ ca_bool get_b(uint8_t code, int e) const
    {
        return (ca_bool)(word(code, e) != 0);
    }
    __device__ __forceinline__ void put(int reg, int e, float v)
    {
        put_word(reg, e, (R)__float_as_uint(v));
    }
    __device__ __forceinline__ void put(int reg, int e, double v)
    {
        put_word(reg, e, (R)__double_as_longlong(v));
    }
    __device__ __forceinline__ void put(int reg, int e, ca_bool v)
    {
        put_word(reg, e, (R)(v != 0));
    }
};

/* Leaf j (n elements of T at ptr) into register j: vector v holds `cnt` of them
 * (E except in the last, partial vector, whose missing lanes read as zero). */
template <class T, class R, int E>
__device__ __forceinline__ void
ca_fuse_load(ca_fuse_regs<R, E> &r, int j, const char *ptr, uint32_t v, uint32_t cnt)
{
    if (cnt == E) {
        const ca_ew_vec<T, E> x = reinterpret_cast<const ca_ew_vec<T, E> *>(ptr)[v];
#pragma unroll
        for (int e = 0; e < E; e++) {
            r.put(j, e, x.v[e]);
        }
    }
    else {
        const T *p = reinterpret_cast<const T *>(ptr) + (size_t)v * E;
#pragma unroll
        for (int e = 0; e < E; e++) {
            r.put(j, e, e < (int)cnt ? p[e] : T{});
        }
    }
}

template <class T, class R, int E>
__device__ __forceinline__ void
ca_fuse_store(const ca_fuse_regs<R, E> &r, int reg, char *ptr, uint32_t v, uint32_t cnt)
{
    ca_ew_vec<T, E> x;
#pragma unroll
    for (int e = 0; e < E; e++) {
        if constexpr (sizeof(T) == 1) {
            x.v[e] = r.get_b((uint8_t)reg, e);
        }
        else if constexpr (sizeof(T) == 4) {
            x.v[e] = r.get_f((uint8_t)reg, e);
        }
        else {
            x.v[e] = r.get_d((uint8_t)reg, e);
        }
    }
    if (cnt == E) {
        reinterpret_cast<ca_ew_vec<T, E> *>(ptr)[v] = x;
    }
    else {
        T *p = reinterpret_cast<T *>(ptr) + (size_t)v * E;
        for (uint32_t e = 0; e < cnt; e++) {
            p[e] = x.v[e];
        }
    }
}

/* FT: the family's float type; Apply::run(slot, regs, dst, s0, s1, s2). The
 * parameters come with registers numbered densely (instruction k writes
 * register nleaf + k), see dispatch_fuse.c. */
template <class FT, class R, int E, class Apply>
__global__ void
__launch_bounds__(CA_FUSE_BLOCK) ca_fuse_kernel(const ca_fuse_params p)
{
    extern __shared__ unsigned char ca_fuse_smem[];
    __shared__ R consts[CA_FUSE_MAXCONST];
    if (threadIdx.x < CA_FUSE_MAXCONST) {
        consts[threadIdx.x] = (R)p.consts[threadIdx.x];
    }
    __syncthreads();
    ca_fuse_regs<R, E> r{ reinterpret_cast<R *>(ca_fuse_smem) + threadIdx.x, consts };
    const uint32_t full = p.n / E;
    const uint32_t nvec = full + (p.n % E != 0);
    const uint32_t step = gridDim.x * CA_FUSE_BLOCK;
    const int res = p.nleaf + p.ninstr - 1;

    for (uint32_t v = blockIdx.x * CA_FUSE_BLOCK + threadIdx.x; v < nvec; v += step) {
        const uint32_t cnt = v < full ? (uint32_t)E : p.n - full * E;
        for (int j = 0; j < p.nleaf; j++) {
            if (p.leaf_type[j] == CA_BOOL) {
                ca_fuse_load<ca_bool, R, E>(r, j, p.leaf[j], v, cnt);
            }
            else {
                ca_fuse_load<FT, R, E>(r, j, p.leaf[j], v, cnt);
            }
        }
        for (int k = 0; k < p.ninstr; k++) {
            const ca_fuse_instr in = p.ins[k];
            Apply::run(in.slot, r, p.nleaf + k, in.src[0], in.src[1], in.src[2]);
        }
        if (p.out_type == CA_BOOL) {
            ca_fuse_store<ca_bool, R, E>(r, res, p.out, v, cnt);
        }
        else {
            ca_fuse_store<FT, R, E>(r, res, p.out, v, cnt);
        }
    }
}

template <class FT, class R, int E, class Apply>
static int
ca_fuse_launch(const ca_fuse_params *p, ca_stream_t stream)
{
    const uint32_t nvec = p->n / E + (p->n % E != 0);
    uint32_t blocks = (nvec + CA_FUSE_BLOCK - 1) / CA_FUSE_BLOCK;
    /* enough blocks to fill the GPU several times; the grid-stride loop does the rest */
    blocks = blocks > (1u << 16) ? (1u << 16) : blocks;
    const size_t smem = (size_t)(p->nleaf + p->ninstr) * E * CA_FUSE_BLOCK * sizeof(R);
    ca_fuse_kernel<FT, R, E, Apply>
        <<<blocks, CA_FUSE_BLOCK, smem, (cudaStream_t)stream>>>(*p);
    return (int)cudaGetLastError();
}

#endif /* CA_EW_FUSE_CUH */

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
#include "reduce_impl.cuh" /* the fused sum's walk is the plain sum's */

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

/* Element e of register `reg` as the family's float. */
template <class FT, class R, int E>
__device__ __forceinline__ FT
ca_fuse_value(const ca_fuse_regs<R, E> &r, uint8_t reg, int e)
{
    if constexpr (sizeof(FT) == 4) {
        return r.get_f(reg, e);
    }
    else {
        return r.get_d(reg, e);
    }
}

/* The program's registers for vector v (cnt of its E elements): the leaves
 * loaded, then every instruction in order. FT: the family's float type;
 * Apply::run(slot, regs, dst, s0, s1, s2). The parameters come with registers
 * numbered densely (instruction k writes register nleaf + k), see
 * dispatch_fuse.c. */
template <class FT, class R, int E, class Apply>
__device__ __forceinline__ void
ca_fuse_eval(ca_fuse_regs<R, E> &r, const ca_fuse_params &p, uint32_t v, uint32_t cnt)
{
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
}

/* The program's constants into shared memory (every thread calls this first). */
template <class R>
__device__ __forceinline__ void
ca_fuse_consts(R *consts, const ca_fuse_params &p)
{
    if (threadIdx.x < CA_FUSE_MAXCONST) {
        consts[threadIdx.x] = (R)p.consts[threadIdx.x];
    }
    __syncthreads();
}

template <class FT, class R, int E, class Apply>
__global__ void
__launch_bounds__(CA_FUSE_BLOCK) ca_fuse_kernel(const ca_fuse_params p)
{
    extern __shared__ unsigned char ca_fuse_smem[];
    __shared__ R consts[CA_FUSE_MAXCONST];
    ca_fuse_consts(consts, p);
    ca_fuse_regs<R, E> r{ reinterpret_cast<R *>(ca_fuse_smem) + threadIdx.x, consts };
    const uint32_t full = p.n / E;
    const uint32_t nvec = full + (p.n % E != 0);
    const uint32_t step = gridDim.x * CA_FUSE_BLOCK;
    const int res = p.nleaf + p.ninstr - 1;

    for (uint32_t v = blockIdx.x * CA_FUSE_BLOCK + threadIdx.x; v < nvec; v += step) {
        const uint32_t cnt = v < full ? (uint32_t)E : p.n - full * E;
        ca_fuse_eval<FT, R, E, Apply>(r, p, v, cnt);
        if (p.out_type == CA_BOOL) {
            ca_fuse_store<ca_bool, R, E>(r, res, p.out, v, cnt);
        }
        else {
            ca_fuse_store<FT, R, E>(r, res, p.out, v, cnt);
        }
    }
}

/* ---- the fused sum ------------------------------------------------------------ */
/* One block of G threads (the plain plan's group, <= CA_FUSE_BLOCK) sums the
 * program's float result over its n elements with the plain sum's walk of one
 * aligned contiguous row in one split (reduce_impl.cuh's k_row, vec): lane j
 * takes the E-element words j, j + G, j + 2G, ... in order, the n % E elements
 * after the last whole word go to lanes 0, 1, ... one each, then group_reduce
 * over G lanes and the final value (and mirror) through write_final. Op is
 * the plain kernel's op struct for (SUM, FT, FT), so every add is the same add
 * in the same order: the sum of a deferred array is the same bits whether or
 * not it was fused. */
template <class FT, class R, int E, class Apply, class Op>
__global__ void
__launch_bounds__(CA_FUSE_BLOCK)
    ca_fuse_sum_kernel(const ca_fuse_params p, const ca_red::RedArgs a)
{
    static_assert(sizeof(FT) * E == 16, "a vector is the plain sum's 16-byte word");
    using Acc = typename Op::Acc;
    extern __shared__ unsigned char ca_fuse_smem[];
    __shared__ R consts[CA_FUSE_MAXCONST];
    ca_fuse_consts(consts, p);
    ca_fuse_regs<R, E> r{ reinterpret_cast<R *>(ca_fuse_smem) + threadIdx.x, consts };
    const int G = (int)blockDim.x, lane = (int)threadIdx.x;
    const uint32_t full = p.n / E, tail = p.n - full * E;
    const uint8_t res = (uint8_t)(p.nleaf + p.ninstr - 1);
    const typename Op::Ctx ctx{};
    Acc acc = Op::init();
    for (uint32_t v = (uint32_t)lane; v < full; v += (uint32_t)G) {
        ca_fuse_eval<FT, R, E, Apply>(r, p, v, (uint32_t)E);
#pragma unroll
        for (int e = 0; e < E; e++) {
            acc = Op::comb(acc, Op::load(ca_fuse_value<FT>(r, res, e), 0, ctx));
        }
    }
    if ((uint32_t)lane < tail) {
        /* each of these lanes evaluates the last, partial vector for its element */
        ca_fuse_eval<FT, R, E, Apply>(r, p, full, tail);
        acc = Op::comb(acc, Op::load(ca_fuse_value<FT>(r, res, lane), 0, ctx));
    }
    acc = ca_red::group_reduce<Op>(acc, G);
    if (lane == 0) {
        ca_red::write_final<Op>(a, 0, acc);
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

/* The fused sum of plan d (ca_fused_sum checked it: one output, one split,
 * d->group <= CA_FUSE_SUM_MAXGROUP lanes). */
template <class FT, class R, int E, class Apply, class Op>
static int
ca_fuse_sum_launch(const ca_fuse_params *p, const ca_reduce_desc *d, ca_stream_t stream)
{
    static_assert(CA_FUSE_SUM_MAXGROUP <= CA_FUSE_BLOCK, "the registers' layout");
    ca_red::RedArgs a;
    memset(&a, 0, sizeof a);
    a.out = d->out;
    a.divisor = d->divisor;
    a.flags = d->flags;
    a.mirror = d->mirror;
    a.mirror_flag = d->mirror_flag;
    a.mirror_seq = d->mirror_seq;
    const size_t smem = (size_t)(p->nleaf + p->ninstr) * E * CA_FUSE_BLOCK * sizeof(R);
    ca_fuse_sum_kernel<FT, R, E, Apply, Op>
        <<<1, d->group, smem, (cudaStream_t)stream>>>(*p, a);
    return (int)cudaGetLastError();
}

#endif /* CA_EW_FUSE_CUH */

/*
 * reduce_impl.cuh: the GPU reduction machinery shared by reduce.cu, reduce_scan.cu
 * and the generated build/generated/red_gpu_<k>.cu (private to kernels/). See
 * reduce.cu for the design. Everything here but the table types lives in an
 * unnamed namespace: each .cu file instantiates only its own ops, and the files
 * compile in parallel.
 */
#ifndef CA_REDUCE_IMPL_CUH
#define CA_REDUCE_IMPL_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
#include "reduce_math.h"
#include "reduce_plan.h"
#include "scalar.h"

namespace ca_red {

/* One (op, in, out) triple's kernels. */
struct Entry {
    int in_size;
    int acc_size;
    int (*run)(const ca_reduce_desc &, cudaStream_t);
};

struct Table {
    Entry e[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];
    bool has[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];
};

/* Streaming multiprocessors of a device, asked once (reduce.cu). */
int device_sms(int device, int *sms);

namespace {


constexpr int KD = CA_REDUCE_GPU_DIMS;
constexpr int BLOCK = 256;
constexpr int SCAN_ITEMS = 4;
constexpr int64_t MAX_GRID = 1 << 30;

struct KLayout {
    int nkeep, nred;
    int64_t kshape[KD], kin[KD], kout[KD], kaux[KD];
    int64_t rshape[KD], rin[KD];
};

/* ---- the ops --------------------------------------------------------------------- */
/* An op is a struct with the types In, Out, Acc, Ctx and the steps ctx(aux),
 * init(), load(x, position, ctx), comb(a, b), fin(a, divisor, flags): one per
 * (op, input, output) triple of kernels/reductions.def, generated into
 * build/generated/red_gpu_ops.h (included at the end of this file) from the
 * helpers of kernels/shared/reduce_math.h. The templates below are the walk. */
struct NoCtx {};

/* The op's types under short names, as every kernel uses them. */
#define CA_RED_OP_TYPES(Op)                                                            \
    typedef typename Op::In In;                                                        \
    typedef typename Op::Out Out;                                                      \
    typedef typename Op::Acc Acc

/* ---- warp and block primitives ----------------------------------------------------- */
/* Shuffle any small trivially-copyable value as 32-bit words, each through
 * shfl(word) (one of the __shfl_*_sync intrinsics). */
template <class T, class Shfl>
__device__ __forceinline__ T
shfl_words(T v, Shfl shfl)
{
    constexpr int W = (int)((sizeof(T) + 3) / 4);
    uint32_t w[W] = {};
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < W; i++) {
        w[i] = shfl(w[i]);
    }
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
}

template <class T>
__device__ __forceinline__ T
shfl_down(T v, int d)
{
    return shfl_words(v,
                      [d](uint32_t w) { return __shfl_down_sync(0xffffffffu, w, d); });
}

template <class T>
__device__ __forceinline__ T
shfl_up(T v, int d)
{
    return shfl_words(v, [d](uint32_t w) { return __shfl_up_sync(0xffffffffu, w, d); });
}

/* The result is valid in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc
warp_reduce(typename Op::Acc v)
{
#pragma unroll
    for (int d = 16; d > 0; d >>= 1) {
        v = Op::comb(v, shfl_down(v, d));
    }
    return v;
}

/* Reduce within groups of G threads (G a multiple of 32 dividing blockDim.x,
 * uniform over the block; every thread of the block calls this). The result is
 * valid in the first thread of each group. */
template <class Op>
__device__ __forceinline__ typename Op::Acc
group_reduce(typename Op::Acc v, int G)
{
    using Acc = typename Op::Acc;
    __shared__ alignas(16) unsigned char raw[32 * sizeof(Acc)];
    Acc *sm = reinterpret_cast<Acc *>(raw);
    v = warp_reduce<Op>(v);
    if (G <= 32) {
        return v;
    }
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads(); /* the previous call's readers are done with sm */
    if (lane == 0) {
        sm[warp] = v;
    }
    __syncthreads();
    const int wpg = G >> 5;
    if ((int)(threadIdx.x % G) < 32) {
        const int w0 = (int)(threadIdx.x / G) * wpg;
        v = lane < wpg ? sm[w0 + lane] : Op::init();
        v = warp_reduce<Op>(v);
    }
    return v;
}

/* Exclusive scan over the block (every thread calls it); `total` is the whole
 * block's combination. */
template <class Op>
__device__ __forceinline__ void
block_scan(typename Op::Acc v, typename Op::Acc &excl, typename Op::Acc &total)
{
    using Acc = typename Op::Acc;
    __shared__ alignas(16) unsigned char raw[32 * sizeof(Acc)];
    Acc *sm = reinterpret_cast<Acc *>(raw);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = (int)(blockDim.x >> 5);
    Acc x = v;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        Acc y = shfl_up(x, d);
        if (lane >= d) {
            x = Op::comb(y, x);
        }
    }
    if (lane == 31) {
        sm[warp] = x;
    }
    __syncthreads();
    if (warp == 0) {
        Acc w = lane < nwarps ? sm[lane] : Op::init();
#pragma unroll
        for (int d = 1; d < 32; d <<= 1) {
            Acc y = shfl_up(w, d);
            if (lane >= d) {
                w = Op::comb(y, w);
            }
        }
        sm[lane] = w;
    }
    __syncthreads();
    const Acc before = warp > 0 ? sm[warp - 1] : Op::init();
    Acc xin = shfl_up(x, 1);
    if (lane == 0) {
        xin = Op::init();
    }
    excl = Op::comb(before, xin);
    total = sm[nwarps - 1];
    __syncthreads(); /* sm is reused by the next call */
}

/* A grid-stride loop: T takes this thread's items of [0, N), a grid's worth of
 * threads apart (a thread per item: the COL kernels, the scans' row walks). */
#define CA_RED_FOR_GRID(T, N)                                                          \
    const int64_t T##_step = (int64_t)gridDim.x * blockDim.x;                          \
    for (int64_t T = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; T < (N);          \
         T += T##_step)

/* ---- layout helpers ------------------------------------------------------------------ */
/* The walk of keep_offsets and of reduce_scan.cu's row_offsets: for each dim
 * d < N of SHAPE (innermost last, the outermost unbounded), i is the coordinate
 * of flat index O (a variable, used up) in it, and ADD sums i times the dim's
 * strides into the offsets. A macro, so that both expand to the loop written
 * out: through a template taking ADD as a lambda, the PTX numbered the offsets'
 * registers in another order and ptxas allocated var/std's ROW and COL kernels'
 * registers differently. */
#define CA_RED_DIM_WALK(N, SHAPE, O, ADD)                                              \
    _Pragma("unroll") for (int d = KD - 1; d >= 0; --d)                                \
    {                                                                                  \
        if (d < (N)) {                                                                 \
            int64_t i = O;                                                             \
            if (d > 0) {                                                               \
                const int64_t q = O / (SHAPE)[d];                                      \
                i = O - q * (SHAPE)[d];                                                \
                O = q;                                                                 \
            }                                                                          \
            ADD                                                                        \
        }                                                                              \
    }

/* Byte offsets of output o (kept dims, innermost last) in the input, the output
 * and the aux operand. */
__device__ __forceinline__ void
keep_offsets(const KLayout &L, int64_t o, int64_t &oi, int64_t &oo, int64_t &oa)
{
    oi = oo = oa = 0;
    CA_RED_DIM_WALK(L.nkeep, L.kshape, o, {
        oi += i * L.kin[d];
        oo += i * L.kout[d];
        oa += i * L.kaux[d];
    })
}

/* Reduce elements r0+lane, r0+lane+G, ... < r1 of one output, read one at a time
 * through the reduced dims of L (any number of them). */
template <class Op>
__device__ __forceinline__ typename Op::Acc
reduce_strided(typename Op::Acc acc, const KLayout &L, const char *base, int64_t r0,
               int64_t r1, int lane, int G, const typename Op::Ctx &ctx)
{
    using In = typename Op::In;
    if (L.nred <= 1) {
        const int64_t st = L.nred ? L.rin[0] : 0;
        for (int64_t r = r0 + lane; r < r1; r += G) {
            acc = Op::comb(acc, Op::load(*(const In *)(base + r * st), r, ctx));
        }
        return acc;
    }
    int64_t r = r0 + lane;
    if (r >= r1) {
        return acc;
    }
    /* an odometer over the reduced dims, advanced by G with carries */
    int64_t idx[KD];
    int64_t off = 0;
    int64_t t = r;
#pragma unroll
    for (int d = KD - 1; d >= 0; --d) {
        idx[d] = 0;
        if (d < L.nred) {
            const int64_t q = t / L.rshape[d];
            idx[d] = t - q * L.rshape[d];
            off += idx[d] * L.rin[d];
            t = q;
        }
    }
    for (;;) {
        acc = Op::comb(acc, Op::load(*(const In *)(base + off), r, ctx));
        r += G;
        if (r >= r1) {
            break;
        }
        int64_t carry = G;
#pragma unroll
        for (int d = KD - 1; d >= 0; --d) {
            if (d < L.nred && carry != 0) {
                const int64_t v = idx[d] + carry;
                if (v < L.rshape[d]) {
                    off += carry * L.rin[d];
                    idx[d] = v;
                    carry = 0;
                }
                else {
                    const int64_t q = v / L.rshape[d];
                    const int64_t nv = v - q * L.rshape[d];
                    off += (nv - idx[d]) * L.rin[d];
                    idx[d] = nv;
                    carry = q;
                }
            }
        }
    }
    return acc;
}

/* Whether Op is argmax/argmin (they take the fast path below). */
template <class Op, class = void> struct IsArgOp {
    static constexpr bool value = false;
};
template <class Op> struct IsArgOp<Op, decltype((void)Op::is_arg)> {
    static constexpr bool value = Op::is_arg;
};

template <class Op>
__device__ __forceinline__ typename Op::Acc
vec_comb(typename Op::Acc acc, uint4 w, int64_t r, const typename Op::Ctx &ctx)
{
    using In = typename Op::In;
    constexpr int V = (int)(16 / sizeof(In));
    In e[V];
    memcpy(e, &w, sizeof w);
    if constexpr (IsArgOp<Op>::value) {
        /* argmax/argmin were compute-bound (a full (value, index) combine per
         * element: 3726 GB/s against sum's 4389 on the H200). A thread meets its
         * elements in increasing position, so a word whose best value neither beats
         * the running best nor holds a NaN cannot change it (ties keep the earlier
         * position, and a NaN already held is the first NaN): test that with one
         * max/min per element and run the full combine only when the word matters. */
        using Val = typename Op::Val;
        if (acc.i >= 0) {
            if (Op::isnan_v(acc.v)) {
                return acc;
            }
            Val m = Op::value(e[0]);
            bool nan = Op::isnan_v(m);
#pragma unroll
            for (int k = 1; k < V; k++) {
                const Val x = Op::value(e[k]);
                nan |= Op::isnan_v(x);
                m = Op::better(x, m) ? x : m;
            }
            if (!nan && !Op::better(m, acc.v)) {
                return acc;
            }
        }
    }
#pragma unroll
    for (int k = 0; k < V; k++) {
        acc = Op::comb(acc, Op::load(e[k], r + k, ctx));
    }
    return acc;
}

/* Elements [r0, r1) of a contiguous row (p[r] is element r), 16-byte loads with
 * a scalar head up to the first 16-byte boundary and a scalar tail. */
template <class Op>
__device__ __forceinline__ typename Op::Acc
reduce_contig(typename Op::Acc acc, const typename Op::In *p, int64_t r0, int64_t r1,
              int lane, int G, const typename Op::Ctx &ctx)
{
    using In = typename Op::In;
    constexpr int SZ = (int)sizeof(In);
    constexpr int V = 16 / SZ;
    const int64_t n = r1 - r0;
    if (n <= 0) {
        return acc;
    }
    const uintptr_t addr = (uintptr_t)(p + r0);
    int64_t head = (int64_t)(((16u - (unsigned)(addr & 15u)) & 15u) / SZ);
    if (head > n) {
        head = n;
    }
    if (lane < head) {
        acc = Op::comb(acc, Op::load(p[r0 + lane], r0 + lane, ctx));
    }
    const int64_t rv = r0 + head;
    const int64_t nv = (n - head) / V;
    const uint4 *pv = reinterpret_cast<const uint4 *>(p + rv);
    int64_t j = lane;
    for (; j + 3 * (int64_t)G < nv; j += 4 * (int64_t)G) {
        const uint4 w0 = __ldg(pv + j);
        const uint4 w1 = __ldg(pv + j + G);
        const uint4 w2 = __ldg(pv + j + 2 * (int64_t)G);
        const uint4 w3 = __ldg(pv + j + 3 * (int64_t)G);
        acc = vec_comb<Op>(acc, w0, rv + j * V, ctx);
        acc = vec_comb<Op>(acc, w1, rv + (j + G) * V, ctx);
        acc = vec_comb<Op>(acc, w2, rv + (j + 2 * (int64_t)G) * V, ctx);
        acc = vec_comb<Op>(acc, w3, rv + (j + 3 * (int64_t)G) * V, ctx);
    }
    for (; j < nv; j += G) {
        acc = vec_comb<Op>(acc, __ldg(pv + j), rv + j * V, ctx);
    }
    const int64_t rt = rv + nv * V;
    if (lane < r1 - rt) {
        acc = Op::comb(acc, Op::load(p[rt + lane], rt + lane, ctx));
    }
    return acc;
}

/* ---- reduction kernels --------------------------------------------------------------- */
struct RedArgs {
    const char *in; /* the input, or (partial pass) the workspace of partials */
    char *out;
    const char *aux;
    void *ws; /* partials written by a split first pass */
    KLayout L;
    int64_t nout, R, chunk, nblocks;
    int64_t pso, psr; /* partial pass: partial r of output o is in[o * pso + r * psr] */
    int G, S, vec, flags;
    double divisor;
    char *mirror; /* see ca_reduce_desc; NULL: none */
    unsigned long long *mirror_flag;
    unsigned long long mirror_seq;
    unsigned int *tickets; /* one-launch split ROW: a counter per output, else NULL */
    int fin_G;             /* one-launch split ROW: the lanes that combine partials */
};

/* A partial written by another block of this launch, read around L1 (ld.global.cg,
 * never the read-only path): the ticket's fences order it after that block's store. */
template <class T>
__device__ __forceinline__ T
load_partial(const T *p)
{
    T v;
    if constexpr (sizeof(T) % 4 == 0 && alignof(T) >= 4) {
        constexpr int W = (int)(sizeof(T) / 4);
        unsigned int w[W];
        const unsigned int *q = reinterpret_cast<const unsigned int *>(p);
#pragma unroll
        for (int i = 0; i < W; i++) {
            w[i] = __ldcg(q + i);
        }
        memcpy(&v, w, sizeof(T));
    }
    else {
        unsigned char b[sizeof(T)];
        const unsigned char *q = reinterpret_cast<const unsigned char *>(p);
#pragma unroll
        for (int i = 0; i < (int)sizeof(T); i++) {
            b[i] = __ldcg(q + i);
        }
        memcpy(&v, b, sizeof(T));
    }
    return v;
}

/* The final value of an output: to out, and to the host mirror when there is one. */
template <class Op>
__device__ __forceinline__ void
write_final(const RedArgs &a, int64_t ooff, typename Op::Acc acc)
{
    using Out = typename Op::Out;
    const Out v = Op::fin(acc, a.divisor, a.flags);
    *reinterpret_cast<Out *>(a.out + ooff) = v;
    if (a.mirror != nullptr) {
        /* the host polls the flag, then reads the value */
        memcpy(a.mirror, &v, sizeof(Out));
        __threadfence_system();
        *reinterpret_cast<volatile unsigned long long *>(a.mirror_flag) = a.mirror_seq;
    }
}

/* One-launch split ROW (a.tickets set; one group per block, G == blockDim.x; every
 * thread of the block calls this, after thread 0 stored the block's partial of
 * output o). Thread 0 makes that store visible to the whole device (a fence),
 * then takes a ticket from o's counter; the S - 1 earlier tickets were each taken
 * after their block's own fenced store, so the block that draws ticket S - 1 is
 * the last of o and, after an acquire fence, sees every partial of o. It combines
 * them exactly as the second launch of the two-launch path does (lane r of the
 * first fin_G threads reads partials r, r + fin_G, ..., then group_reduce), so
 * the result is the same bit for bit and independent of which block is last.
 * Then it writes the result and puts the counter back to 0: no other block of
 * this launch touches it again, and the next launch on this stream starts after
 * this one ends. */
template <class Op>
__device__ __forceinline__ void
ticket_finish(const RedArgs &a, int64_t o, int64_t ooff)
{
    using Acc = typename Op::Acc;
    __shared__ int is_last;
    if (threadIdx.x == 0) {
        __threadfence(); /* release: the partial before the ticket */
        const unsigned int t = atomicAdd(a.tickets + o, 1u);
        const int last = t == (unsigned int)(a.S - 1);
        if (last) {
            __threadfence(); /* acquire: the other blocks' partials after the ticket */
        }
        is_last = last;
    }
    __syncthreads(); /* orders the other threads' reads after thread 0's fences */
    const int last = is_last;
    __syncthreads(); /* every thread read is_last before a later call writes it */
    if (!last) {
        return;
    }
    const int Gf = a.fin_G;
    const Acc *p = reinterpret_cast<const Acc *>(a.ws) + o * a.S;
    Acc acc = Op::init();
    if ((int)threadIdx.x < Gf) {
        for (int64_t r = threadIdx.x; r < a.S; r += Gf) {
            acc = Op::comb(acc, load_partial(p + r));
        }
    }
    acc = group_reduce<Op>(acc, Gf);
    if (threadIdx.x == 0) {
        write_final<Op>(a, ooff, acc);
        a.tickets[o] = 0u;
    }
}

/* ROW: a group of G threads per (output, split). PIN: the input is a previous
 * pass's partials (R per output, laid out by pso and psr): the second launch of
 * a split ROW or COL reduction. */
template <class Op, bool PIN>
__global__ void
__launch_bounds__(BLOCK, 4) k_row(const RedArgs a)
{
    CA_RED_OP_TYPES(Op);
    const int G = a.G;
    const int gpb = (int)blockDim.x / G;
    const int lane = (int)threadIdx.x % G;
    const int64_t ngroups = a.nout * a.S;
    for (int64_t b = blockIdx.x; b < a.nblocks; b += gridDim.x) {
        const int64_t g = b * gpb + (int64_t)threadIdx.x / G;
        const bool active = g < ngroups;
        int64_t o = 0, s = 0, ioff = 0, ooff = 0, aoff = 0;
        Acc acc = Op::init();
        if (active) {
            o = g / a.S;
            s = g - o * a.S;
            keep_offsets(a.L, o, ioff, ooff, aoff);
            if (PIN) {
                const Acc *p = reinterpret_cast<const Acc *>(a.in) + o * a.pso;
                for (int64_t r = lane; r < a.R; r += G) {
                    acc = Op::comb(acc, p[r * a.psr]);
                }
            }
            else {
                const typename Op::Ctx ctx = Op::ctx(a.aux + aoff);
                const int64_t r0 = s * a.chunk;
                const int64_t r1 = a.R < r0 + a.chunk ? a.R : r0 + a.chunk;
                if (a.vec) {
                    acc = reduce_contig<Op>(acc,
                                            reinterpret_cast<const In *>(a.in + ioff),
                                            r0, r1, lane, G, ctx);
                }
                else {
                    acc =
                        reduce_strided<Op>(acc, a.L, a.in + ioff, r0, r1, lane, G, ctx);
                }
            }
        }
        acc = group_reduce<Op>(acc, G);
        if (active && lane == 0) {
            if (!PIN && a.S > 1) {
                reinterpret_cast<Acc *>(a.ws)[o * a.S + s] = acc;
            }
            else {
                write_final<Op>(a, ooff, acc);
            }
        }
        if (!PIN && a.tickets != nullptr) {
            /* uniform over the block: set only when G == blockDim.x, and then
             * every block of the loop is active (nblocks = nout * S) */
            ticket_finish<Op>(a, o, ooff);
        }
    }
}

/* The walk of a COL (U = 8) or COLVEC (U = 4) thread over elements [R, R1) of its
 * split, element R at P and each next one ST bytes on (R and P, variables, are
 * used up): U loads LOAD(address), each a T, in flight, then STEP(value, position)
 * on each in order; the tail one at a time. LOAD and STEP are the kernel's own
 * function-like macros. A macro itself, expanding to the loops written out: as a
 * template (the accumulators by reference or in a lambda's closure) nvcc scheduled
 * the COL kernels differently, the arg ops' up to a tenth longer. */
#define CA_RED_COL_WALK(U, T, LOAD, STEP, P, ST, R, R1)                                \
    for (; R + U <= R1; R += U) {                                                      \
        T x_[U];                                                                       \
        _Pragma("unroll") for (int u_ = 0; u_ < U; u_++)                               \
        {                                                                              \
            x_[u_] = LOAD(P + u_ * ST);                                                \
        }                                                                              \
        _Pragma("unroll") for (int u_ = 0; u_ < U; u_++) { STEP(x_[u_], R + u_); }     \
        P += U * ST;                                                                   \
    }                                                                                  \
    for (; R < R1; R++) {                                                              \
        const T y_ = LOAD(P);                                                          \
        STEP(y_, R);                                                                   \
        P += ST;                                                                       \
    }

/* COL: a thread per (output, split); split partials are laid out
 * [split][output]. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK, 4) k_col(const RedArgs a)
{
    CA_RED_OP_TYPES(Op);
    const int64_t total = a.nout * a.S;
    CA_RED_FOR_GRID(t, total)
    {
        const int64_t s = t / a.nout, o = t - s * a.nout;
        int64_t ioff, ooff, aoff;
        keep_offsets(a.L, o, ioff, ooff, aoff);
        Acc acc = Op::init();
        {
            const typename Op::Ctx ctx = Op::ctx(a.aux + aoff);
            const int64_t r0 = s * a.chunk;
            const int64_t r1 = a.R < r0 + a.chunk ? a.R : r0 + a.chunk;
            if (a.L.nred <= 1) {
                const int64_t st = a.L.nred ? a.L.rin[0] : 0;
                const char *p = a.in + ioff + r0 * st;
                int64_t r = r0;
#define CA_COL_LOAD(q)    (*(const In *)(q))
#define CA_COL_STEP(x, i) acc = Op::comb(acc, Op::load(x, i, ctx))
                /* eight loads in flight before the dependent combines */
                CA_RED_COL_WALK(8, In, CA_COL_LOAD, CA_COL_STEP, p, st, r, r1)
#undef CA_COL_LOAD
#undef CA_COL_STEP
            }
            else {
                acc = reduce_strided<Op>(acc, a.L, a.in + ioff, r0, r1, 0, 1, ctx);
            }
        }
        if (a.S > 1) {
            reinterpret_cast<Acc *>(a.ws)[s * a.nout + o] = acc;
        }
        else {
            *reinterpret_cast<Out *>(a.out + ooff) = Op::fin(acc, a.divisor, a.flags);
        }
    }
}

/* COLVEC: as COL, a thread owning the V = 16 / sizeof(In) adjacent outputs of one
 * 16-byte load (4- and 8-byte elements: more accumulators than four would spill).
 * The plan guarantees: the innermost kept dim is contiguous in the input with a
 * length divisible by V, every other input stride and the input pointer are
 * 16-byte multiples, and there is at most one reduced dim. A kernel of its own,
 * sharing only CA_RED_COL_WALK with k_col: its V accumulators and contexts would
 * cost k_col's one-output threads registers, and k_col's unroll by eight would
 * make these spill (hence four loads in flight here). */
template <class Op>
__global__ void
__launch_bounds__(BLOCK, 4) k_colvec(const RedArgs a)
{
    CA_RED_OP_TYPES(Op);
    constexpr int V = (int)(16 / sizeof(In));
    const int64_t nog = a.nout / V;
    const int64_t total = nog * a.S;
    const int ki = a.L.nkeep - 1;
    const int64_t kout_inner = a.L.kout[ki], kaux_inner = a.L.kaux[ki];
    CA_RED_FOR_GRID(t, total)
    {
        const int64_t s = t / nog, o = (t - s * nog) * V;
        int64_t ioff, ooff, aoff;
        keep_offsets(a.L, o, ioff, ooff, aoff);
        Acc acc[V];
        typename Op::Ctx ctx[V];
#pragma unroll
        for (int k = 0; k < V; k++) {
            acc[k] = Op::init();
            ctx[k] = Op::ctx(a.aux + aoff + k * kaux_inner);
        }
        const int64_t r0 = s * a.chunk;
        const int64_t r1 = a.R < r0 + a.chunk ? a.R : r0 + a.chunk;
        const int64_t st = a.L.nred ? a.L.rin[0] : 0;
        const char *p = a.in + ioff + r0 * st;
        int64_t r = r0;
#define CA_COLVEC_LOAD(q) __ldg(reinterpret_cast<const uint4 *>(q))
#define CA_COLVEC_STEP(w, i)                                                           \
    {                                                                                  \
        In e[V];                                                                       \
        memcpy(e, &(w), sizeof(uint4));                                                \
        _Pragma("unroll") for (int k = 0; k < V; k++)                                  \
        {                                                                              \
            acc[k] = Op::comb(acc[k], Op::load(e[k], i, ctx[k]));                      \
        }                                                                              \
    }
        CA_RED_COL_WALK(4, uint4, CA_COLVEC_LOAD, CA_COLVEC_STEP, p, st, r, r1)
#undef CA_COLVEC_LOAD
#undef CA_COLVEC_STEP
#pragma unroll
        for (int k = 0; k < V; k++) {
            if (a.S > 1) {
                reinterpret_cast<Acc *>(a.ws)[s * a.nout + o + k] = acc[k];
            }
            else {
                *reinterpret_cast<Out *>(a.out + ooff + k * kout_inner) =
                    Op::fin(acc[k], a.divisor, a.flags);
            }
        }
    }
}

/* The second launch of a split COL/COLVEC reduction: a thread per output walks
 * its partials, laid out [split][output], so a warp reads adjacent partials. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK) k_colfin(const RedArgs a)
{
    CA_RED_OP_TYPES(Op);
    const Acc *ws = reinterpret_cast<const Acc *>(a.in);
    CA_RED_FOR_GRID(o, a.nout)
    {
        int64_t ioff, ooff, aoff;
        keep_offsets(a.L, o, ioff, ooff, aoff);
        Acc acc = Op::init();
        for (int64_t s = 0; s < a.R; s++) {
            acc = Op::comb(acc, ws[s * a.nout + o]);
        }
        *reinterpret_cast<Out *>(a.out + ooff) = Op::fin(acc, a.divisor, a.flags);
    }
}

/* ---- launching ------------------------------------------------------------------------ */
inline int64_t
ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* |v|, for the plans' stride comparisons (reduce.cu, reduce_scan.cu). */
inline int64_t
iabs(int64_t v)
{
    return v < 0 ? -v : v;
}

inline unsigned
grid_for(int64_t blocks)
{
    if (blocks < 1) {
        blocks = 1;
    }
    return (unsigned)(blocks < MAX_GRID ? blocks : MAX_GRID);
}

/* A descriptor's first n dims into a kernel argument (n <= KD; the rest keep the
 * zeros the argument was cleared to). */
inline void
copy_dims(int64_t (&dst)[KD], const int64_t *src, int n)
{
    for (int i = 0; i < n; i++) {
        dst[i] = src[i];
    }
}

inline void
fill_layout(KLayout &L, const ca_reduce_desc &d)
{
    memset(&L, 0, sizeof L);
    L.nkeep = d.nkeep;
    L.nred = d.nred;
    copy_dims(L.kshape, d.keep_shape, d.nkeep);
    copy_dims(L.kin, d.keep_in, d.nkeep);
    copy_dims(L.kout, d.keep_out, d.nkeep);
    copy_dims(L.kaux, d.keep_aux, d.nkeep);
    copy_dims(L.rshape, d.red_shape, d.nred);
    copy_dims(L.rin, d.red_in, d.nred);
}

inline int
pow2_group(int64_t want)
{
    int g = 32;
    while (g < BLOCK && g < want) {
        g <<= 1;
    }
    return g;
}

/* The second launch of a split reduction. ROW partials are laid out
 * [output][split]: a group per output combines them. COL partials are
 * [split][output]: a thread per output. */
template <class Op>
int
run_finish(const RedArgs &a, const void *ws, bool row, cudaStream_t stream)
{
    RedArgs f = a;
    f.in = static_cast<const char *>(ws);
    f.R = a.S;
    f.S = 1;
    f.chunk = a.S;
    f.vec = 0;
    if (row) {
        f.pso = a.S;
        f.psr = 1;
        f.G = pow2_group(ceil_div(a.S, 4));
        f.nblocks = ceil_div(f.nout, BLOCK / f.G);
        k_row<Op, true><<<grid_for(f.nblocks), BLOCK, 0, stream>>>(f);
    }
    else {
        k_colfin<Op><<<grid_for(ceil_div(f.nout, BLOCK)), BLOCK, 0, stream>>>(f);
    }
    return (int)cudaGetLastError();
}

template <class Op>
int
run_reduce(const ca_reduce_desc &d, cudaStream_t stream)
{
    using In = typename Op::In;
    RedArgs a;
    memset(&a, 0, sizeof a);
    fill_layout(a.L, d);
    a.in = d.in;
    a.out = d.out;
    a.aux = d.aux;
    a.ws = d.workspace;
    a.nout = d.nout;
    a.R = d.nred_elems;
    a.chunk = d.chunk;
    a.S = d.splits;
    a.G = d.group;
    a.flags = d.flags;
    a.divisor = d.divisor;
    if (d.strategy == CA_RS_ROW && d.nout == 1) {
        /* written by the launch that writes the final value (k_row's last pass) */
        a.mirror = d.mirror;
        a.mirror_flag = d.mirror_flag;
        a.mirror_seq = d.mirror_seq;
    }
    if (a.S > 1 && a.ws == nullptr) {
        return (int)cudaErrorInvalidValue;
    }
    if (d.strategy == CA_RS_ROW) {
        /* 16-byte loads need a contiguous reduced dim and rows aligned to the
         * element size (then a scalar head reaches a 16-byte boundary) */
        a.vec = (int)(d.nred == 1 && d.red_in[0] == (int64_t)sizeof(In) &&
                      (uintptr_t)d.in % sizeof(In) == 0);
        for (int i = 0; i < d.nkeep && a.vec; i++) {
            a.vec = d.keep_in[i] % (int64_t)sizeof(In) == 0;
        }
        a.nblocks = ceil_div(a.nout * a.S, BLOCK / a.G);
        /* one launch (the last block of each output combines its partials) when
         * the caller gave counters; the plan splits only rows of G == BLOCK */
        const bool one = a.S > 1 && d.tickets != nullptr && a.G == BLOCK &&
                         a.nout <= CA_REDUCE_TICKETS;
        if (one) {
            a.tickets = d.tickets;
            a.fin_G = pow2_group(ceil_div(a.S, 4)); /* as run_finish's */
        }
        k_row<Op, false><<<grid_for(a.nblocks), BLOCK, 0, stream>>>(a);
        const cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || a.S == 1 || one) {
            return (int)err;
        }
        return run_finish<Op>(a, d.workspace, true, stream);
    }
    if (d.strategy == CA_RS_COLVEC) {
        if constexpr (sizeof(In) >= 4 && sizeof(In) <= 8) {
            constexpr int V = (int)(16 / sizeof(In));
            k_colvec<Op>
                <<<grid_for(ceil_div(a.nout / V * a.S, BLOCK)), BLOCK, 0, stream>>>(a);
        }
        else {
            return CA_KERR_UNSUPPORTED;
        }
    }
    else {
        k_col<Op><<<grid_for(ceil_div(a.nout * a.S, BLOCK)), BLOCK, 0, stream>>>(a);
    }
    const cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess || a.S == 1) {
        return (int)err;
    }
    return run_finish<Op>(a, d.workspace, false, stream);
}

template <class O>
void
add_entry(Table &t, int op, int in, int out)
{
    t.e[op][in][out].in_size = (int)sizeof(typename O::In);
    t.e[op][in][out].acc_size = (int)sizeof(typename O::Acc);
    t.e[op][in][out].run = &run_reduce<O>;
    t.has[op][in][out] = true;
}

} /* namespace */
} /* namespace ca_red */

#include "red_gpu_ops.h"

#endif /* CA_REDUCE_IMPL_CUH */

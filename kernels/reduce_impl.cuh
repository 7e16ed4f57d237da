/*
 * reduce_impl.cuh: the GPU reduction machinery shared by the reduce*.cu files
 * (private to kernels/). See reduce.cu for the design. Everything here but the
 * table types lives in an unnamed namespace: each .cu file instantiates only
 * its own ops, and the files compile in parallel.
 */
#ifndef CA_REDUCE_IMPL_CUH
#define CA_REDUCE_IMPL_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "kernels.h"
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

/* Each kernel file adds its triples (reduce_sum.cu, ...). */
void register_sum(Table &t);
void register_minmax(Table &t);
void register_arg(Table &t);
void register_logic(Table &t);

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

/* ---- accumulator arithmetic --------------------------------------------------- */
/* Integer sums and products wrap as NumPy's: computed in uint64, where overflow
 * is defined. */
__device__ __forceinline__ int64_t acc_add(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
__device__ __forceinline__ uint64_t acc_add(uint64_t a, uint64_t b) { return a + b; }
__device__ __forceinline__ float acc_add(float a, float b) { return a + b; }
__device__ __forceinline__ double acc_add(double a, double b) { return a + b; }
__device__ __forceinline__ ca_complex128 acc_add(ca_complex128 a, ca_complex128 b)
{
    ca_complex128 r;
    r.re = a.re + b.re;
    r.im = a.im + b.im;
    return r;
}

__device__ __forceinline__ int64_t acc_mul(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}
__device__ __forceinline__ uint64_t acc_mul(uint64_t a, uint64_t b) { return a * b; }
__device__ __forceinline__ float acc_mul(float a, float b) { return a * b; }
__device__ __forceinline__ double acc_mul(double a, double b) { return a * b; }
__device__ __forceinline__ ca_complex128 acc_mul(ca_complex128 a, ca_complex128 b)
{
    ca_complex128 r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

/* Division of a sum by the element count (mean, var); integers never divide. */
__device__ __forceinline__ int64_t acc_div(int64_t a, double) { return a; }
__device__ __forceinline__ uint64_t acc_div(uint64_t a, double) { return a; }
__device__ __forceinline__ float acc_div(float a, double d) { return a / (float)d; }
__device__ __forceinline__ double acc_div(double a, double d) { return a / d; }
__device__ __forceinline__ ca_complex128 acc_div(ca_complex128 a, double d)
{
    ca_complex128 r;
    r.re = a.re / d;
    r.im = a.im / d;
    return r;
}

template <class T>
__device__ __forceinline__ T acc_zero();
template <>
__device__ __forceinline__ int64_t acc_zero<int64_t>() { return 0; }
template <>
__device__ __forceinline__ uint64_t acc_zero<uint64_t>() { return 0; }
/* -0.0 is the identity of float addition: a sum of -0.0 stays -0.0. */
template <>
__device__ __forceinline__ float acc_zero<float>() { return -0.0f; }
template <>
__device__ __forceinline__ double acc_zero<double>() { return -0.0; }
template <>
__device__ __forceinline__ ca_complex128 acc_zero<ca_complex128>()
{
    ca_complex128 r;
    r.re = -0.0;
    r.im = -0.0;
    return r;
}

template <class T>
__device__ __forceinline__ T acc_one();
template <>
__device__ __forceinline__ int64_t acc_one<int64_t>() { return 1; }
template <>
__device__ __forceinline__ uint64_t acc_one<uint64_t>() { return 1; }
template <>
__device__ __forceinline__ float acc_one<float>() { return 1.0f; }
template <>
__device__ __forceinline__ double acc_one<double>() { return 1.0; }
template <>
__device__ __forceinline__ ca_complex128 acc_one<ca_complex128>()
{
    ca_complex128 r;
    r.re = 1.0;
    r.im = 0.0;
    return r;
}

/* ---- ordering of values (max, min, the arg ops) -------------------------------- */
/* Complex numbers order lexicographically, as NumPy's; a complex with a NaN part
 * is NaN. */
template <class T>
__device__ __forceinline__ bool v_isnan(T) { return false; }
template <>
__device__ __forceinline__ bool v_isnan<float>(float v) { return v != v; }
template <>
__device__ __forceinline__ bool v_isnan<double>(double v) { return v != v; }
template <>
__device__ __forceinline__ bool v_isnan<ca_complex64>(ca_complex64 v)
{
    return v.re != v.re || v.im != v.im;
}
template <>
__device__ __forceinline__ bool v_isnan<ca_complex128>(ca_complex128 v)
{
    return v.re != v.re || v.im != v.im;
}

template <class T>
__device__ __forceinline__ bool v_gt(T a, T b) { return a > b; }
template <>
__device__ __forceinline__ bool v_gt<ca_complex64>(ca_complex64 a, ca_complex64 b)
{
    return a.re > b.re || (a.re == b.re && a.im > b.im);
}
template <>
__device__ __forceinline__ bool v_gt<ca_complex128>(ca_complex128 a, ca_complex128 b)
{
    return a.re > b.re || (a.re == b.re && a.im > b.im);
}

/* The identities of max (lo) and min (hi). */
template <class T>
struct Lim;
#define CA_R_LIM(T, LO, HI)                                   \
    template <>                                               \
    struct Lim<T> {                                           \
        static __device__ __forceinline__ T lo() { return LO; } \
        static __device__ __forceinline__ T hi() { return HI; } \
    };
CA_R_LIM(int8_t, INT8_MIN, INT8_MAX)
CA_R_LIM(uint8_t, 0, UINT8_MAX)
CA_R_LIM(int16_t, INT16_MIN, INT16_MAX)
CA_R_LIM(uint16_t, 0, UINT16_MAX)
CA_R_LIM(int32_t, INT32_MIN, INT32_MAX)
CA_R_LIM(uint32_t, 0, UINT32_MAX)
CA_R_LIM(int64_t, INT64_MIN, INT64_MAX)
CA_R_LIM(uint64_t, 0, UINT64_MAX)
CA_R_LIM(float, __int_as_float((int)0xff800000u), __int_as_float(0x7f800000))
CA_R_LIM(double, __longlong_as_double((long long)0xfff0000000000000ull),
         __longlong_as_double(0x7ff0000000000000ll))
#undef CA_R_LIM
template <>
struct Lim<ca_complex64> {
    static __device__ __forceinline__ ca_complex64 lo()
    {
        ca_complex64 r;
        r.re = r.im = Lim<float>::lo();
        return r;
    }
    static __device__ __forceinline__ ca_complex64 hi()
    {
        ca_complex64 r;
        r.re = r.im = Lim<float>::hi();
        return r;
    }
};
template <>
struct Lim<ca_complex128> {
    static __device__ __forceinline__ ca_complex128 lo()
    {
        ca_complex128 r;
        r.re = r.im = Lim<double>::lo();
        return r;
    }
    static __device__ __forceinline__ ca_complex128 hi()
    {
        ca_complex128 r;
        r.re = r.im = Lim<double>::hi();
        return r;
    }
};

/* ---- the ops --------------------------------------------------------------------- */
struct NoCtx {};

template <int OUT>
struct SumAcc {
    static constexpr int code = OUT == CA_INT64     ? CA_INT64
                                : OUT == CA_UINT64  ? CA_UINT64
                                : OUT == CA_FLOAT16 ? CA_FLOAT32
                                : (OUT == CA_FLOAT32 || OUT == CA_FLOAT64) ? CA_FLOAT64
                                                                           : CA_COMPLEX128;
};

template <int IN, int OUT, bool PROD>
struct SumOp {
    using In = typename ca_ctype<IN>::type;
    using Out = typename ca_ctype<OUT>::type;
    static constexpr int ACC = SumAcc<OUT>::code;
    using Acc = typename ca_ctype<ACC>::type;
    using Ctx = NoCtx;
    static __device__ __forceinline__ Ctx ctx(const char *) { return Ctx(); }
    static __device__ __forceinline__ Acc init()
    {
        return PROD ? acc_one<Acc>() : acc_zero<Acc>();
    }
    static __device__ __forceinline__ Acc load(In x, int64_t, const Ctx &)
    {
        return ca_caster<ACC, IN>::cast(x);
    }
    static __device__ __forceinline__ Acc comb(Acc a, Acc b)
    {
        return PROD ? acc_mul(a, b) : acc_add(a, b);
    }
    static __device__ __forceinline__ Out fin(Acc a, double divisor, int)
    {
        return ca_caster<OUT, ACC>::cast(PROD ? a : acc_div(a, divisor));
    }
};

template <int IN, bool MAX>
struct MaxOp {
    using In = typename ca_ctype<IN>::type;
    using Out = In;
    static constexpr int V = IN == CA_FLOAT16 ? CA_FLOAT32 : IN;
    using Acc = typename ca_ctype<V>::type;
    using Ctx = NoCtx;
    static __device__ __forceinline__ Ctx ctx(const char *) { return Ctx(); }
    static __device__ __forceinline__ Acc init() { return MAX ? Lim<Acc>::lo() : Lim<Acc>::hi(); }
    static __device__ __forceinline__ Acc load(In x, int64_t, const Ctx &)
    {
        return ca_caster<V, IN>::cast(x);
    }
    /* NaN propagates: once either side is NaN, the result is. */
    static __device__ __forceinline__ Acc comb(Acc a, Acc b)
    {
        if (v_isnan(a)) {
            return a;
        }
        if (v_isnan(b)) {
            return b;
        }
        return (MAX ? v_gt(b, a) : v_gt(a, b)) ? b : a;
    }
    static __device__ __forceinline__ Out fin(Acc a, double, int)
    {
        return ca_caster<IN, V>::cast(a);
    }
};

template <class T>
struct ArgAcc {
    T v;
    int64_t i; /* -1: no element seen */
};

template <int IN, bool MAX>
struct ArgOp {
    static constexpr bool is_arg = true;
    static constexpr bool is_max = MAX;
    using In = typename ca_ctype<IN>::type;
    using Out = int64_t;
    static constexpr int V = IN == CA_FLOAT16 ? CA_FLOAT32 : IN;
    static constexpr int In_code = IN;
    using Val = typename ca_ctype<V>::type;
    using Acc = ArgAcc<Val>;
    using Ctx = NoCtx;
    static __device__ __forceinline__ Ctx ctx(const char *) { return Ctx(); }
    static __device__ __forceinline__ Acc init()
    {
        Acc a;
        a.v = Lim<Val>::lo();
        a.i = -1;
        return a;
    }
    static __device__ __forceinline__ Acc load(In x, int64_t r, const Ctx &)
    {
        Acc a;
        a.v = ca_caster<V, IN>::cast(x);
        a.i = r;
        return a;
    }
    /* Order-free: the better value wins, ties go to the smaller position, and a
     * NaN beats everything (the first NaN among NaNs). */
    static __device__ __forceinline__ Acc comb(Acc a, Acc b)
    {
        if (a.i < 0) {
            return b;
        }
        if (b.i < 0) {
            return a;
        }
        const bool an = v_isnan(a.v), bn = v_isnan(b.v);
        if (an || bn) {
            if (an && bn) {
                return a.i < b.i ? a : b;
            }
            return an ? a : b;
        }
        if (MAX ? v_gt(a.v, b.v) : v_gt(b.v, a.v)) {
            return a;
        }
        if (MAX ? v_gt(b.v, a.v) : v_gt(a.v, b.v)) {
            return b;
        }
        return a.i < b.i ? a : b;
    }
    static __device__ __forceinline__ Out fin(Acc a, double, int) { return a.i; }
};

template <int IN, bool ANY>
struct LogicOp {
    using In = typename ca_ctype<IN>::type;
    using Out = ca_bool;
    using Acc = int;
    using Ctx = NoCtx;
    static __device__ __forceinline__ Ctx ctx(const char *) { return Ctx(); }
    static __device__ __forceinline__ Acc init() { return ANY ? 0 : 1; }
    static __device__ __forceinline__ Acc load(In x, int64_t, const Ctx &)
    {
        return ca_caster<CA_BOOL, IN>::cast(x) != 0;
    }
    static __device__ __forceinline__ Acc comb(Acc a, Acc b) { return ANY ? (a | b) : (a & b); }
    static __device__ __forceinline__ Out fin(Acc a, double, int) { return (ca_bool)(a != 0); }
};

/* |x - mean|^2 summed; the mean (aux, one per output) is in float64, float32 for
 * float16 inputs, complex128 for complex ones (ca_reduce_sqdev_aux_dtype). */
template <int IN, int OUT>
struct SqdevOp {
    using In = typename ca_ctype<IN>::type;
    using Out = typename ca_ctype<OUT>::type;
    static constexpr bool CPLX = IN == CA_COMPLEX64 || IN == CA_COMPLEX128;
    static constexpr int M = CPLX ? CA_COMPLEX128 : IN == CA_FLOAT16 ? CA_FLOAT32 : CA_FLOAT64;
    static constexpr int ACC = IN == CA_FLOAT16 ? CA_FLOAT32 : CA_FLOAT64;
    using Acc = typename ca_ctype<ACC>::type;
    struct Ctx {
        typename ca_ctype<M>::type m;
    };
    static __device__ __forceinline__ Ctx ctx(const char *aux)
    {
        Ctx c;
        c.m = *(const typename ca_ctype<M>::type *)aux;
        return c;
    }
    static __device__ __forceinline__ Acc init() { return (Acc)0; }
    static __device__ __forceinline__ Acc load(In x, int64_t, const Ctx &c)
    {
        if constexpr (CPLX) {
            const ca_complex128 v = ca_caster<CA_COMPLEX128, IN>::cast(x);
            const double re = v.re - c.m.re, im = v.im - c.m.im;
            return re * re + im * im;
        }
        else {
            const Acc v = ca_caster<ACC, IN>::cast(x) - c.m;
            return v * v;
        }
    }
    static __device__ __forceinline__ Acc comb(Acc a, Acc b) { return a + b; }
    static __device__ __forceinline__ Out fin(Acc a, double divisor, int flags)
    {
        Acc v = acc_div(a, divisor);
        if (flags & CA_RED_SQRT) {
            v = sqrt(v);
        }
        return ca_caster<OUT, ACC>::cast(v);
    }
};

template <int OP, int IN, int OUT>
struct OpFor;
template <int IN, int OUT>
struct OpFor<CA_RED_SUM, IN, OUT> {
    using type = SumOp<IN, OUT, false>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_PROD, IN, OUT> {
    using type = SumOp<IN, OUT, true>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_MAX, IN, OUT> {
    using type = MaxOp<IN, true>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_MIN, IN, OUT> {
    using type = MaxOp<IN, false>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_ARGMAX, IN, OUT> {
    using type = ArgOp<IN, true>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_ARGMIN, IN, OUT> {
    using type = ArgOp<IN, false>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_ANY, IN, OUT> {
    using type = LogicOp<IN, true>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_ALL, IN, OUT> {
    using type = LogicOp<IN, false>;
};
template <int IN, int OUT>
struct OpFor<CA_RED_SQDEV, IN, OUT> {
    using type = SqdevOp<IN, OUT>;
};

/* ---- warp and block primitives ----------------------------------------------------- */
/* Shuffle any small trivially-copyable value as 32-bit words. */
template <class T>
__device__ __forceinline__ T shfl_down(T v, int d)
{
    constexpr int W = (int)((sizeof(T) + 3) / 4);
    uint32_t w[W] = {};
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < W; i++) {
        w[i] = __shfl_down_sync(0xffffffffu, w[i], d);
    }
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
}

template <class T>
__device__ __forceinline__ T shfl_up(T v, int d)
{
    constexpr int W = (int)((sizeof(T) + 3) / 4);
    uint32_t w[W] = {};
    memcpy(w, &v, sizeof(T));
#pragma unroll
    for (int i = 0; i < W; i++) {
        w[i] = __shfl_up_sync(0xffffffffu, w[i], d);
    }
    T r;
    memcpy(&r, w, sizeof(T));
    return r;
}

/* The result is valid in lane 0. */
template <class Op>
__device__ __forceinline__ typename Op::Acc warp_reduce(typename Op::Acc v)
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
__device__ __forceinline__ typename Op::Acc group_reduce(typename Op::Acc v, int G)
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
__device__ __forceinline__ void block_scan(typename Op::Acc v, typename Op::Acc &excl,
                                           typename Op::Acc &total)
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

/* ---- layout helpers ------------------------------------------------------------------ */
/* Byte offsets of output o (kept dims, innermost last) in the input, the output
 * and the aux operand. */
__device__ __forceinline__ void keep_offsets(const KLayout &L, int64_t o, int64_t &oi,
                                             int64_t &oo, int64_t &oa)
{
    oi = oo = oa = 0;
#pragma unroll
    for (int d = KD - 1; d >= 0; --d) {
        if (d < L.nkeep) {
            int64_t i = o;
            if (d > 0) {
                const int64_t q = o / L.kshape[d];
                i = o - q * L.kshape[d];
                o = q;
            }
            oi += i * L.kin[d];
            oo += i * L.kout[d];
            oa += i * L.kaux[d];
        }
    }
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
template <class Op, class = void>
struct IsArgOp {
    static constexpr bool value = false;
};
template <class Op>
struct IsArgOp<Op, decltype((void)Op::is_arg)> {
    static constexpr bool value = Op::is_arg;
};

template <class Op>
__device__ __forceinline__ typename Op::Acc vec_comb(typename Op::Acc acc, uint4 w, int64_t r,
                                                     const typename Op::Ctx &ctx)
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
            if (v_isnan(acc.v)) {
                return acc;
            }
            Val m = ca_caster<Op::V, Op::In_code>::cast(e[0]);
            bool nan = v_isnan(m);
#pragma unroll
            for (int k = 1; k < V; k++) {
                const Val x = ca_caster<Op::V, Op::In_code>::cast(e[k]);
                nan |= v_isnan(x);
                m = (Op::is_max ? v_gt(x, m) : v_gt(m, x)) ? x : m;
            }
            if (!nan && !(Op::is_max ? v_gt(m, acc.v) : v_gt(acc.v, m))) {
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
__device__ __forceinline__ typename Op::Acc reduce_contig(typename Op::Acc acc,
                                                          const typename Op::In *p,
                                                          int64_t r0, int64_t r1, int lane,
                                                          int G, const typename Op::Ctx &ctx)
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
    const char *in;  /* the input, or (partial pass) the workspace of partials */
    char *out;
    const char *aux;
    void *ws;        /* partials written by a split first pass */
    KLayout L;
    int64_t nout, R, chunk, nblocks;
    int64_t pso, psr; /* partial pass: partial r of output o is in[o * pso + r * psr] */
    int G, S, vec, flags;
    double divisor;
    char *mirror;                    /* see ca_reduce_desc; NULL: none */
    unsigned long long *mirror_flag;
    unsigned long long mirror_seq;
};

/* ROW: a group of G threads per (output, split). PIN: the input is a previous
 * pass's partials (R per output, laid out by pso and psr): the second launch of
 * a split ROW or COL reduction. */
template <class Op, bool PIN>
__global__ void __launch_bounds__(BLOCK, 4) k_row(const RedArgs a)
{
    using Acc = typename Op::Acc;
    using In = typename Op::In;
    using Out = typename Op::Out;
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
                    acc = reduce_contig<Op>(acc, reinterpret_cast<const In *>(a.in + ioff),
                                            r0, r1, lane, G, ctx);
                }
                else {
                    acc = reduce_strided<Op>(acc, a.L, a.in + ioff, r0, r1, lane, G, ctx);
                }
            }
        }
        acc = group_reduce<Op>(acc, G);
        if (active && lane == 0) {
            if (!PIN && a.S > 1) {
                reinterpret_cast<Acc *>(a.ws)[o * a.S + s] = acc;
            }
            else {
                const Out v = Op::fin(acc, a.divisor, a.flags);
                *reinterpret_cast<Out *>(a.out + ooff) = v;
                if (a.mirror != nullptr) {
                    /* the host polls the flag, then reads the value */
                    memcpy(a.mirror, &v, sizeof(Out));
                    __threadfence_system();
                    *reinterpret_cast<volatile unsigned long long *>(a.mirror_flag) =
                        a.mirror_seq;
                }
            }
        }
    }
}

/* COL: a thread per (output, split); split partials are laid out
 * [split][output]. */
template <class Op>
__global__ void __launch_bounds__(BLOCK, 4) k_col(const RedArgs a)
{
    using Acc = typename Op::Acc;
    using In = typename Op::In;
    using Out = typename Op::Out;
    const int64_t total = a.nout * a.S;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += step) {
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
                /* eight loads in flight before the dependent combines */
                for (; r + 8 <= r1; r += 8) {
                    In x[8];
#pragma unroll
                    for (int k = 0; k < 8; k++) {
                        x[k] = *(const In *)(p + k * st);
                    }
#pragma unroll
                    for (int k = 0; k < 8; k++) {
                        acc = Op::comb(acc, Op::load(x[k], r + k, ctx));
                    }
                    p += 8 * st;
                }
                for (; r < r1; r++) {
                    acc = Op::comb(acc, Op::load(*(const In *)p, r, ctx));
                    p += st;
                }
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
 * 16-byte load (4- and 8-byte elements: more accumulators than four would spill). The plan guarantees: the innermost kept dim is contiguous in the
 * input with a length divisible by V, every other input stride and the input
 * pointer are 16-byte multiples, and there is at most one reduced dim. */
template <class Op>
__global__ void __launch_bounds__(BLOCK, 4) k_colvec(const RedArgs a)
{
    using Acc = typename Op::Acc;
    using In = typename Op::In;
    using Out = typename Op::Out;
    constexpr int V = (int)(16 / sizeof(In));
    const int64_t nog = a.nout / V;
    const int64_t total = nog * a.S;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int ki = a.L.nkeep - 1;
    const int64_t kout_inner = a.L.kout[ki], kaux_inner = a.L.kaux[ki];
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += step) {
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
        for (; r + 4 <= r1; r += 4) {
            uint4 w[4];
#pragma unroll
            for (int u = 0; u < 4; u++) {
                w[u] = __ldg(reinterpret_cast<const uint4 *>(p + u * st));
            }
#pragma unroll
            for (int u = 0; u < 4; u++) {
                In e[V];
                memcpy(e, &w[u], sizeof(uint4));
#pragma unroll
                for (int k = 0; k < V; k++) {
                    acc[k] = Op::comb(acc[k], Op::load(e[k], r + u, ctx[k]));
                }
            }
            p += 4 * st;
        }
        for (; r < r1; r++) {
            const uint4 w = __ldg(reinterpret_cast<const uint4 *>(p));
            In e[V];
            memcpy(e, &w, sizeof(uint4));
#pragma unroll
            for (int k = 0; k < V; k++) {
                acc[k] = Op::comb(acc[k], Op::load(e[k], r, ctx[k]));
            }
            p += st;
        }
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
__global__ void __launch_bounds__(BLOCK) k_colfin(const RedArgs a)
{
    using Acc = typename Op::Acc;
    using Out = typename Op::Out;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const Acc *ws = reinterpret_cast<const Acc *>(a.in);
    for (int64_t o = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; o < a.nout; o += step) {
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
inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

inline unsigned grid_for(int64_t blocks)
{
    if (blocks < 1) {
        blocks = 1;
    }
    return (unsigned)(blocks < MAX_GRID ? blocks : MAX_GRID);
}

inline void fill_layout(KLayout &L, const ca_reduce_desc &d)
{
    memset(&L, 0, sizeof L);
    L.nkeep = d.nkeep;
    L.nred = d.nred;
    for (int i = 0; i < d.nkeep; i++) {
        L.kshape[i] = d.keep_shape[i];
        L.kin[i] = d.keep_in[i];
        L.kout[i] = d.keep_out[i];
        L.kaux[i] = d.keep_aux[i];
    }
    for (int i = 0; i < d.nred; i++) {
        L.rshape[i] = d.red_shape[i];
        L.rin[i] = d.red_in[i];
    }
}

inline int pow2_group(int64_t want)
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
int run_finish(const RedArgs &a, const void *ws, bool row, cudaStream_t stream)
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
int run_reduce(const ca_reduce_desc &d, cudaStream_t stream)
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
        k_row<Op, false><<<grid_for(a.nblocks), BLOCK, 0, stream>>>(a);
        const cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || a.S == 1) {
            return (int)err;
        }
        return run_finish<Op>(a, d.workspace, true, stream);
    }
    if (d.strategy == CA_RS_COLVEC) {
        if constexpr (sizeof(In) >= 4 && sizeof(In) <= 8) {
            constexpr int V = (int)(16 / sizeof(In));
            k_colvec<Op><<<grid_for(ceil_div(a.nout / V * a.S, BLOCK)), BLOCK, 0, stream>>>(a);
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
void add_entry(Table &t, int op, int in, int out)
{
    t.e[op][in][out].in_size = (int)sizeof(typename O::In);
    t.e[op][in][out].acc_size = (int)sizeof(typename O::Acc);
    t.e[op][in][out].run = &run_reduce<O>;
    t.has[op][in][out] = true;
}

} /* namespace */
} /* namespace ca_red */

#define CA_R_ENTRY(op, in, out) add_entry<typename OpFor<op, in, out>::type>(t, op, in, out);

#endif /* CA_REDUCE_IMPL_CUH */

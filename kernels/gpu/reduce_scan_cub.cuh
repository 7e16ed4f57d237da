/*
 * reduce_scan_cub.cuh: the single-pass scans behind cumsum/cumprod (and their
 * nan forms) of one long contiguous row: cub::DeviceScan's decoupled look-back
 * scan, one read and one write of each element, where reduce_scan.cu's BLOCK
 * path needs three launches. Most pairs read through a transform iterator into
 * the generated op's accumulator and write through the op's finish, so the
 * results are the same op's. The float pairs use the small ops below instead:
 * float32 accumulates in float32 (as NumPy's own cumsum/cumprod of float32 and
 * PyTorch's do; a double accumulator would make CUB carry 8-byte partials and
 * pick its 8-byte tiles, which ran at two thirds of the float64 scan's speed),
 * float64 in float64; the plain sums and products of them scan the arrays
 * directly (raw pointers: CUB's vectorized loads), the nan forms through a
 * transform iterator that maps NaN to 0 (1). CUB's look-back adds a tile's
 * prefix to at most a few dozen in-tile partials, so a float32 result's error
 * grows like (items per tile + tiles before it) * eps * sum|x|, not n * eps.
 *
 * CUB's scan instantiations are heavy, so only the common pairs have one (the
 * rest stay on the BLOCK path): two translation units, compiled in parallel,
 * reduce_scan_cub_sum.cu of the seven sum pairs and reduce_scan_cub_prod.cu of
 * the five product pairs (CA_P_SUM_PAIRS, CA_P_PROD_PAIRS below).
 * Rows up to INT32_MAX elements (32-bit offsets: one instantiation per pair).
 */
#ifndef CA_REDUCE_SCAN_CUB_CUH
#define CA_REDUCE_SCAN_CUB_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace ca_red {

/* Scan x[0:n] into y[0:n] (contiguous; y may be x) with the pair's op, or with
 * temp == NULL only set *bytes; CA_KERR_UNSUPPORTED when the unit has no CUB
 * scan for the pair. */
int cub_scan_sum(int op, int in, int out, const void *x, void *y, int n, void *temp,
                 size_t *bytes, cudaStream_t st);
int cub_scan_prod(int op, int in, int out, const void *x, void *y, int n, void *temp,
                  size_t *bytes, cudaStream_t st);

} /* namespace ca_red */

#ifdef CA_REDUCE_SCAN_CUB_IMPL
#include <cub/device/device_scan.cuh>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>

#include "reduce_impl.cuh"

namespace ca_red {
namespace {

template <class Op> struct ScanLoad {
    __device__ typename Op::Acc operator()(typename Op::In x) const
    {
        return Op::load(x, 0, typename Op::Ctx());
    }
};

template <class Op> struct ScanComb {
    __device__ typename Op::Acc operator()(const typename Op::Acc &a,
                                           const typename Op::Acc &b) const
    {
        return Op::comb(a, b);
    }
};

template <class Op> struct ScanFin {
    __device__ typename Op::Out operator()(const typename Op::Acc &a) const
    {
        return Op::fin(a, 1.0, 0);
    }
};

/* The float pairs' own ops (the generated ones of float32 accumulate in
 * double): T in, T accumulated, T out, combined by C; kRaw: the load is the
 * identity, so the scan reads and writes the arrays directly. CubOp, C: the
 * operator CUB gets; ::cuda::std::plus and multiplies are what CUB's tuned sm_90
 * scan policies are for (a functor of our own gets its generic policy). FSum and
 * FProd are types of their own (not aliases), so the kernels keep their names. */
struct ScanNoCtx {};
template <class T, class C> struct FScan {
    typedef T In, Out, Acc;
    typedef ScanNoCtx Ctx;
    typedef C CubOp;
    static constexpr bool kRaw = true;
    static __device__ __forceinline__ T load(T x, int64_t, const Ctx &) { return x; }
    static __device__ __forceinline__ T comb(T a, T b) { return C()(a, b); }
    static __device__ __forceinline__ T fin(T a, double, int) { return a; }
};
template <class T> struct FSum : FScan<T, ::cuda::std::plus<T>> {};
template <class T> struct FProd : FScan<T, ::cuda::std::multiplies<T>> {};
/* nancumsum / nancumprod: NaN counts as 0 / 1 (x != x: NaN, no -ffast-math). */
template <class T> struct FNanSum : FSum<T> {
    static constexpr bool kRaw = false;
    static __device__ __forceinline__ T load(T x, int64_t, const ScanNoCtx &)
    {
        return x != x ? T(0) : x;
    }
};
template <class T> struct FNanProd : FProd<T> {
    static constexpr bool kRaw = false;
    static __device__ __forceinline__ T load(T x, int64_t, const ScanNoCtx &)
    {
        return x != x ? T(1) : x;
    }
};

/* Whether Op scans raw arrays (the generated ops have no kRaw: they do not). */
template <class Op, class = void> struct raw_scan {
    static constexpr bool value = false;
};
template <class Op> struct raw_scan<Op, decltype((void)Op::kRaw)> {
    static constexpr bool value = Op::kRaw;
};

/* CUB's operator: Op::CubOp where there is one, else Op::comb. */
template <class Op, class = void> struct cub_op {
    typedef ScanComb<Op> type;
};
template <class Op> struct cub_op<Op, ::cuda::std::void_t<typename Op::CubOp>> {
    typedef typename Op::CubOp type;
};

template <class Op>
int
cub_scan_one(const void *x, void *y, int n, void *temp, size_t *bytes, cudaStream_t st)
{
    typedef typename Op::In In;
    typedef typename Op::Out Out;
    if constexpr (raw_scan<Op>::value) {
        /* y == x is CUB's in-place scan */
        return (int)cub::DeviceScan::InclusiveScan(
            temp, *bytes, (const In *)x, (Out *)y, typename cub_op<Op>::type(), n, st);
    }
    else {
        auto in = thrust::make_transform_iterator((const In *)x, ScanLoad<Op>());
        auto out = thrust::make_transform_output_iterator((Out *)y, ScanFin<Op>());
        return (int)cub::DeviceScan::InclusiveScan(temp, *bytes, in, out,
                                                   typename cub_op<Op>::type(), n, st);
    }
}

} /* namespace */
} /* namespace ca_red */

/* The pairs of each unit, as X(op, in, out, struct) rows. */
#define CA_P_SUM_PAIRS(X)                                                              \
    X(CA_RED_SUM, CA_BOOL, CA_INT64, RK_SUM_bool_int64)                                \
    X(CA_RED_SUM, CA_INT32, CA_INT64, RK_SUM_int32_int64)                              \
    X(CA_RED_SUM, CA_INT64, CA_INT64, RK_SUM_int64_int64)                              \
    X(CA_RED_SUM, CA_FLOAT32, CA_FLOAT32, FSum<float>)                                 \
    X(CA_RED_SUM, CA_FLOAT64, CA_FLOAT64, FSum<double>)                                \
    X(CA_RED_NANSUM, CA_FLOAT32, CA_FLOAT32, FNanSum<float>)                           \
    X(CA_RED_NANSUM, CA_FLOAT64, CA_FLOAT64, FNanSum<double>)
#define CA_P_PROD_PAIRS(X)                                                             \
    X(CA_RED_PROD, CA_INT64, CA_INT64, RK_PROD_int64_int64)                            \
    X(CA_RED_PROD, CA_FLOAT32, CA_FLOAT32, FProd<float>)                               \
    X(CA_RED_PROD, CA_FLOAT64, CA_FLOAT64, FProd<double>)                              \
    X(CA_RED_NANPROD, CA_FLOAT32, CA_FLOAT32, FNanProd<float>)                         \
    X(CA_RED_NANPROD, CA_FLOAT64, CA_FLOAT64, FNanProd<double>)

/* The unit's function (ca_red::cub_scan_<name>) over PAIRS' rows. */
#define CA_SCAN_CUB_UNIT(name, PAIRS)                                                  \
    int ca_red::cub_scan_##name(int op, int in, int out, const void *x, void *y,       \
                                int n, void *temp, size_t *bytes, cudaStream_t st)     \
    {                                                                                  \
        PAIRS(CA_P_SCAN_CUB_CASE)                                                      \
        return CA_KERR_UNSUPPORTED;                                                    \
    }
#define CA_P_SCAN_CUB_CASE(o, i, u, O)                                                 \
    if (op == (o) && in == (i) && out == (u)) {                                        \
        return cub_scan_one<O>(x, y, n, temp, bytes, st);                              \
    }
#endif /* CA_REDUCE_SCAN_CUB_IMPL */

#endif /* CA_REDUCE_SCAN_CUB_CUH */

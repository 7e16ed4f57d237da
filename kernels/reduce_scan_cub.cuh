/*
 * reduce_scan_cub.cuh: the single-pass scans behind cumsum/cumprod (and their
 * nan forms) of one long contiguous row: cub::DeviceScan's decoupled look-back
 * scan, one read and one write of each element, where reduce_scan.cu's BLOCK
 * path needs three launches. Each pair reads through a transform iterator into
 * the op's accumulator (float32 adds in double, as every other path) and
 * writes through the op's finish, so the results are the same op's.
 *
 * CUB's scan instantiations are heavy, so only the common pairs have one (the
 * rest stay on the BLOCK path): two translation units, compiled in parallel,
 * of six pairs each (reduce_scan_cub_sum.cu, reduce_scan_cub_prod.cu).
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

template <class Op>
int
cub_scan_one(const void *x, void *y, int n, void *temp, size_t *bytes, cudaStream_t st)
{
    auto in =
        thrust::make_transform_iterator((const typename Op::In *)x, ScanLoad<Op>());
    auto out =
        thrust::make_transform_output_iterator((typename Op::Out *)y, ScanFin<Op>());
    return (int)cub::DeviceScan::InclusiveScan(temp, *bytes, in, out, ScanComb<Op>(), n,
                                               st);
}

} /* namespace */
} /* namespace ca_red */

/* The unit's function over X(op, in, out, struct) rows. */
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

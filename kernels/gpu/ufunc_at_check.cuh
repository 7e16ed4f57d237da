/*
 * ufunc_at_check.cuh: ufunc.at's check of the positions on the GPU, shared by
 * ufunc_at.cu and benchmarks/micro/s9_micro.cu (which builds apart from the
 * library and times its fused variants against this pass). Each includes it
 * inside nothing: the names live in an anonymous namespace, one copy per
 * translation unit, as grid_1d.cuh's.
 */
#ifndef CA_UFUNC_AT_CHECK_CUH
#define CA_UFUNC_AT_CHECK_CUH

#include <cuda_runtime.h>
#include <stdint.h>

namespace {

/* The first thread to see a bad position reports it: flag[0] = 1, flag[1] = q. */
__device__ __forceinline__ void
report(unsigned long long *flag, int64_t offender)
{
    if (atomicCAS(flag, 0ull, 1ull) == 0ull) {
        atomicExch(flag + 1, (unsigned long long)offender);
    }
}

/* One pass over the indices before any update, so that a bad index leaves the
 * target unchanged (as NumPy). A thread reports the last offender it saw. */
__global__ void
at_check_kernel(const int64_t *__restrict__ pos, int64_t n, int64_t extent,
                unsigned long long *flag)
{
    bool bad = false;
    int64_t offender = 0;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        const int64_t q = __ldg(pos + i);
        if (q < -extent || q >= extent) {
            bad = true;
            offender = q;
        }
    }
    if (bad) {
        report(flag, offender);
    }
}

} // namespace

#endif /* CA_UFUNC_AT_CHECK_CUH */

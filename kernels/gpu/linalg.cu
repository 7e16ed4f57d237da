/*
 * linalg.cu: the one helper kernel linalg's batched library calls need: the
 * device array of matrix addresses that cuBLAS's getrfBatched / getriBatched /
 * getrsBatched and cuSOLVER's potrfBatched take (csrc/runtime/launch_solver.c).
 *
 * GPU only: the cpu device runs NumPy's linalg, so there is no host twin and
 * csrc/ calls this only in CUDA builds.
 */
#include <cuda_runtime.h>

#include "kernels.h"

namespace {

__global__ void
ptr_array_kernel(char **out, char *base, long long stride, long long n)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = base + i * stride;
    }
}

} // namespace

extern "C" int
ca_linalg_ptr_array(int device, void **out, void *base, int64_t stride_bytes, int64_t n,
                    ca_stream_t stream)
{
    (void)device; /* the caller made it current */
    if (n <= 0) {
        return 0;
    }
    if (out == nullptr || base == nullptr) {
        return (int)cudaErrorInvalidValue;
    }
    const int threads = 256;
    long long blocks = (n + threads - 1) / threads;
    if (blocks > 2147483647LL) {
        return (int)cudaErrorInvalidValue;
    }
    ptr_array_kernel<<<(unsigned)blocks, threads, 0, (cudaStream_t)stream>>>(
        (char **)out, (char *)base, (long long)stride_bytes, (long long)n);
    return (int)cudaGetLastError();
}

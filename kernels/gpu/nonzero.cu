/*
 * nonzero.cu: the GPU's unravel kernel for nonzero/argwhere (kernels.h
 * documents ca_unravel_index; host_nonzero.c has the cpu loop and the
 * dispatch). The true positions themselves come from the mask kernels of
 * index.cu as C-order flat indices; this turns them into coordinates.
 *
 * The launcher launches on the caller's stream and returns cudaGetLastError();
 * nothing here synchronizes.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "grid_1d.cuh"
#include "kernels.h"

extern "C" int ca_cuda_unravel_index(const int64_t *flat, int64_t n, int ndim,
                                     const int64_t *shape, int64_t total, char *out,
                                     int64_t out_row, int64_t out_dim,
                                     ca_stream_t stream);

namespace {

/* Passed by value: the kernel reads the shape from constant parameter space. */
template <typename I> struct unravel_layout {
    int ndim;
    I shape[CA_MAX_DIMS];
};

/* I is the index type of the divisions: 32 bits when every flat index fits
 * (64-bit division is several times slower on the GPU). Each thread reads
 * flat[i] before it writes row i, and writes nothing outside row i, so flat
 * may be one column of out (kernels.h). */
template <typename I>
__global__ void
unravel_kernel(const int64_t *flat, int64_t n, const unravel_layout<I> lay, char *out,
               int64_t out_row, int64_t out_dim)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        I rem = (I)flat[i];
        char *row = out + i * out_row;
        for (int d = lay.ndim - 1; d > 0; d--) {
            I e = lay.shape[d];
            I q = rem / e;
            *reinterpret_cast<int64_t *>(row + d * out_dim) = (int64_t)(rem - q * e);
            rem = q;
        }
        *reinterpret_cast<int64_t *>(row) = (int64_t)rem;
    }
}

template <typename I>
int
launch(const int64_t *flat, int64_t n, int ndim, const int64_t *shape, char *out,
       int64_t out_row, int64_t out_dim, cudaStream_t st)
{
    unravel_layout<I> lay;
    lay.ndim = ndim;
    for (int d = 0; d < ndim; d++) {
        lay.shape[d] = (I)shape[d];
    }
    for (int d = ndim; d < CA_MAX_DIMS; d++) {
        lay.shape[d] = 1;
    }
    unravel_kernel<I>
        <<<blocks_for(n), kThreads, 0, st>>>(flat, n, lay, out, out_row, out_dim);
    return (int)cudaGetLastError();
}

} // namespace

/* total: the number of elements of (ndim, shape); every flat index is below it. */
extern "C" int
ca_cuda_unravel_index(const int64_t *flat, int64_t n, int ndim, const int64_t *shape,
                      int64_t total, char *out, int64_t out_row, int64_t out_dim,
                      ca_stream_t stream)
{
    if (n <= 0) {
        return 0;
    }
    cudaStream_t st = (cudaStream_t)stream;
    if (total <= (int64_t)UINT32_MAX) {
        return launch<uint32_t>(flat, n, ndim, shape, out, out_row, out_dim, st);
    }
    return launch<uint64_t>(flat, n, ndim, shape, out, out_row, out_dim, st);
}

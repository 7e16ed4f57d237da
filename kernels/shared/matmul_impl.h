/* matmul_impl.h: what the matrix-product files share inside kernels/ (not for
 * csrc/). */
#ifndef CA_MATMUL_IMPL_H
#define CA_MATMUL_IMPL_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The tiled matmul on the GPU (matmul_int.cu); arguments as
 * ca_matmul_tiled's, already checked (batch, m, n >= 1, k >= 0). */
#if defined(CA_HAVE_CUDA) && CA_HAVE_CUDA
int ca_matmul_tiled_cuda(int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                         const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                         const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
                         void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn,
                         ca_stream_t stream);
#endif

#ifdef __cplusplus
}
#endif

/* True for the dtypes of ca_matmul_tiled: bool, the eight integers, float32
 * and float64. */
static inline int
ca_matmul_tiled_dtype(int dtype)
{
    return (dtype >= CA_BOOL && dtype <= CA_UINT64) || dtype == CA_FLOAT32 ||
           dtype == CA_FLOAT64;
}

#endif /* CA_MATMUL_IMPL_H */

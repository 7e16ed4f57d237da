/*
 * host_nonzero.c: ca_unravel_index (kernels.h) for the cpu device, and its
 * dispatch between the host loop here and the GPU launcher (nonzero.cu). One
 * entry point is too small for a dispatch_*.c of its own.
 */
#include <string.h>

#include "kernels.h"

#if CA_HAVE_CUDA
int ca_cuda_unravel_index(const int64_t *flat, int64_t n, int ndim,
                          const int64_t *shape, int64_t total, char *out,
                          int64_t out_row, int64_t out_dim, ca_stream_t stream);
#endif

/* Row i is written after flat[i] is read and before flat[i + 1] is, so flat
 * may be one column of out, as on the GPU. Stores go through memcpy: out
 * may be any byte strides the caller chose. */
static void
host_unravel(const int64_t *flat, int64_t n, int ndim, const int64_t *shape, char *out,
             int64_t out_row, int64_t out_dim)
{
    for (int64_t i = 0; i < n; i++) {
        int64_t rem = flat[i];
        char *row = out + i * out_row;
        for (int d = ndim - 1; d > 0; d--) {
            int64_t q = rem / shape[d];
            int64_t c = rem - q * shape[d];
            memcpy(row + d * out_dim, &c, sizeof c);
            rem = q;
        }
        memcpy(row, &rem, sizeof rem);
    }
}

int
ca_unravel_index(int device, const int64_t *flat, int64_t n, int ndim,
                 const int64_t *shape, char *out, int64_t out_row, int64_t out_dim,
                 ca_stream_t stream)
{
    int64_t total = 1;

    if (ndim < 1 || ndim > CA_MAX_DIMS || n < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int d = 0; d < ndim; d++) {
        if (shape[d] <= 0) {
            /* no element at all, so there can be no flat index */
            return n == 0 ? 0 : CA_KERR_INDEX;
        }
        total = total > INT64_MAX / shape[d] ? INT64_MAX : total * shape[d];
    }
    if (n == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        (void)stream;
        host_unravel(flat, n, ndim, shape, out, out_row, out_dim);
        return 0;
    }
#if CA_HAVE_CUDA
    return ca_cuda_unravel_index(flat, n, ndim, shape, total, out, out_row, out_dim,
                                 stream);
#else
    (void)total;
    return CA_KERR_NO_CUDA;
#endif
}

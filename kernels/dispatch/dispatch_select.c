/* dispatch_select.c: ca_select's argument checks and its GPU launcher
 * (select.cu); the cpu device has no select (its median is NumPy's). */
#include "dispatch.h"

#if CA_HAVE_CUDA
/* size: the element's bytes (ca_dtype_size). */
int ca_cuda_select(int dtype, int size, const void *x, int64_t n, const int64_t *ks,
                   int nk, int flags, void *out, void *scratch, ca_stream_t stream);
#endif

int
ca_select(int device, int dtype, const void *x, int64_t n, const int64_t *ks, int nk,
          int flags, void *out, void *scratch, ca_stream_t stream)
{
    if (n < 1 || nk < 1 || nk > CA_SELECT_MAX_RANKS || x == NULL || out == NULL ||
        scratch == NULL || dtype < 0 || dtype >= CA_NTYPES || dtype == CA_COMPLEX64 ||
        dtype == CA_COMPLEX128 || device == CA_CPU || (flags & ~CA_SELECT_NAN_POISON)) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int i = 0; i < nk; i++) {
        if (ks[i] < 0 || ks[i] >= n) {
            return CA_KERR_UNSUPPORTED;
        }
    }
    return CA_GPU_CALL(ca_cuda_select(dtype, ca_dtype_size[dtype], x, n, ks, nk, flags,
                                      out, scratch, stream));
}

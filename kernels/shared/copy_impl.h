/* copy_impl.h: what the copy family's files share inside kernels/ (not for csrc/). */
#ifndef CA_COPY_IMPL_H
#define CA_COPY_IMPL_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Both take s already coalesced (kernels/dispatch/dispatch_copy.c does it), nops 2 or 1,
 * dtypes already checked. */
int ca_copy_cast_host(const ca_strided *s, int dst_dtype, int src_dtype);
int ca_fill_host(const ca_strided *s, int dtype, const void *value);
#if defined(CA_HAVE_CUDA) && CA_HAVE_CUDA
int ca_copy_cast_cuda(const ca_strided *s, int dst_dtype, int src_dtype,
                      ca_stream_t stream);
int ca_fill_cuda(const ca_strided *s, int dtype, const void *value, ca_stream_t stream);
#endif

#ifdef __cplusplus
}
#endif

/* A cast that moves bits unchanged: the same dtype, or signed <-> unsigned
 * integers of one width (NumPy's casts between those wrap, i.e. keep the bits). */
static inline int
ca_copy_is_bitcopy(int dst_dtype, int src_dtype)
{
    if (dst_dtype == src_dtype) {
        return 1;
    }
    return dst_dtype >= CA_INT8 && dst_dtype <= CA_UINT64 && src_dtype >= CA_INT8 &&
           src_dtype <= CA_UINT64 &&
           ca_dtype_size[dst_dtype] == ca_dtype_size[src_dtype];
}

#endif /* CA_COPY_IMPL_H */

/* dispatch_copy.c: ca_copy_cast and ca_fill pick the host loops or the GPU
 * launchers by device, after checking the arguments and coalescing once. */
#include <string.h>

#include "copy_impl.h"
#include "dispatch.h"

static int
check_layout(const ca_strided *s)
{
    if (s == NULL || s->ndim < 0 || s->ndim > CA_MAX_DIMS) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int d = 0; d < s->ndim; d++) {
        if (s->shape[d] < 0) {
            return CA_KERR_UNSUPPORTED;
        }
    }
    return 0;
}

static int
valid_dtype(int t)
{
    return t >= 0 && t < CA_NTYPES;
}

/* The start of a strided call on its first `nops` operands (args_ok: the call's
 * own checks): the layout checked, then coalesced. 1 to go on; 0 to return
 * *status (an error, or 0 when there are no elements). */
static int
strided_ready(ca_strided *s, int nops, int args_ok, int *status)
{
    *status = check_layout(s);
    if (*status == 0 && (s->nops < nops || !args_ok)) {
        *status = CA_KERR_UNSUPPORTED;
    }
    if (*status != 0) {
        return 0;
    }
    s->nops = nops;
    return ca_strided_coalesce(s) != 0;
}

int
ca_copy_cast(int device, ca_strided *s, int dst_dtype, int src_dtype,
             ca_stream_t stream)
{
    int err;
    if (!strided_ready(s, 2, valid_dtype(dst_dtype) && valid_dtype(src_dtype), &err)) {
        return err;
    }
    return CA_DISPATCH(device, ca_copy_cast_host(s, dst_dtype, src_dtype),
                       ca_copy_cast_cuda(s, dst_dtype, src_dtype, stream));
}

int
ca_fill(int device, ca_strided *s, int dtype, const void *value, ca_stream_t stream)
{
    int err;
    if (!strided_ready(s, 1, valid_dtype(dtype) && value != NULL, &err)) {
        return err;
    }
    return CA_DISPATCH(device, ca_fill_host(s, dtype, value),
                       ca_fill_cuda(s, dtype, value, stream));
}

#if CA_HAVE_CUDA
int ca_cuda_copy_pieces(const ca_copy_piece *p, int npieces, ca_stream_t stream);
#endif

int
ca_copy_pieces(int device, const ca_copy_piece *p, int npieces, ca_stream_t stream)
{
    if (npieces < 0 || npieces > CA_COPY_MAX_PIECES || (npieces > 0 && p == NULL)) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int i = 0; i < npieces; i++) {
        if (p[i].rows < 0 || p[i].row_bytes < 0) {
            return CA_KERR_UNSUPPORTED;
        }
    }
    if (device == CA_CPU) {
        for (int i = 0; i < npieces; i++) {
            for (int64_t r = 0; r < p[i].rows; r++) {
                memcpy(p[i].dst + r * p[i].dst_pitch, p[i].src + r * p[i].src_pitch,
                       (size_t)p[i].row_bytes);
            }
        }
        return 0;
    }
    return CA_GPU_CALL(ca_cuda_copy_pieces(p, npieces, stream));
}

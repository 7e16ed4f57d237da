/*
 * dispatch_index.c: the indexing entry points of kernels.h. Each merges the
 * dimensions it can (fewer dimensions, fewer divisions per element on the GPU,
 * and the iteration order is kept, so the host's "last write wins" holds), then
 * runs the host loop (host_index.c) or the GPU launcher (index.cu).
 */
#include <string.h>

#include "dispatch.h"

int ca_host_index_take(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_put(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag);
int ca_host_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch);
int ca_host_mask_offsets(const uint8_t *mask, int64_t n, int64_t count, int ndim,
                         const int64_t *shape, const int64_t *strides, int64_t *out);
int ca_host_masked_fill(const ca_strided *s, int itemsize, const void *value);
int ca_host_mask_compress(const char *src, const uint8_t *mask, int64_t n,
                          int64_t block, int64_t count, char *dst);
int ca_host_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower);

#if CA_HAVE_CUDA
#include "index_cuda.h"
#endif

/* Drop size-1 dimensions and merge neighbours that are contiguous together in
 * every operand of the pass (an empty pass is left alone). */
static int
pass_merge(ca_index_pass *q, const ca_index_pass *p)
{
    if (p->ndim < 0 || p->ndim > CA_MAX_DIMS) {
        return CA_KERR_UNSUPPORTED;
    }
    *q = *p;
    for (int k = 0; k < p->ndim; k++) {
        if (p->shape[k] == 0) {
            return 0;
        }
    }
    int nd = 0;
    for (int k = 0; k < p->ndim; k++) {
        if (p->shape[k] == 1) {
            continue;
        }
        int64_t s = p->strides[k];
        int64_t v = p->vals != NULL ? p->vstrides[k] : 0;
        int64_t i = p->idx != NULL ? p->istrides[k] : 0;
        if (nd > 0) {
            int j = nd - 1;
            int64_t e = p->shape[k];
            if (q->strides[j] == s * e && q->vstrides[j] == v * e &&
                q->istrides[j] == i * e) {
                q->shape[j] *= e;
                q->strides[j] = s;
                q->vstrides[j] = v;
                q->istrides[j] = i;
                continue;
            }
        }
        q->shape[nd] = p->shape[k];
        q->strides[nd] = s;
        q->vstrides[nd] = v;
        q->istrides[nd] = i;
        nd++;
    }
    q->ndim = nd;
    return 0;
}

/* take, put and offsets: the pass merged, then the host loop or the GPU
 * launcher of the same name (arg: the element size, or put's accumulate). */
#define CA_INDEX_ENTRY(name, arg)                                                      \
    int ca_index_##name(int device, const ca_index_pass *p, int arg, int64_t *flag,    \
                        ca_stream_t stream)                                            \
    {                                                                                  \
        ca_index_pass q;                                                               \
        int rc = pass_merge(&q, p);                                                    \
        if (rc != 0) {                                                                 \
            return rc;                                                                 \
        }                                                                              \
        if (device == CA_CPU) {                                                        \
            return ca_host_index_##name(&q, arg, flag);                                \
        }                                                                              \
        return CA_GPU_CALL(ca_cuda_index_##name(&q, arg, flag, stream));               \
    }
CA_INDEX_ENTRY(take, itemsize)
CA_INDEX_ENTRY(put, itemsize)
CA_INDEX_ENTRY(offsets, accumulate)

int64_t
ca_mask_scratch_size(int device, int64_t n)
{
#if CA_HAVE_CUDA
    if (device != CA_CPU) {
        return ca_cuda_mask_scratch_size(n);
    }
#endif
    (void)device;
    (void)n;
    return 1;
}

int
ca_mask_count(int device, const uint8_t *mask, int64_t n, int64_t *scratch,
              ca_stream_t stream)
{
    return CA_DISPATCH(device, ca_host_mask_count(mask, n, scratch),
                       ca_cuda_mask_count(mask, n, scratch, stream));
}

int
ca_mask_compress(int device, const char *src, const uint8_t *mask, int64_t n,
                 int64_t block, int64_t count, char *dst)
{
    if (device != CA_CPU || n < 0 || block <= 0 || count < 0 || count > n) {
        return CA_KERR_UNSUPPORTED;
    }
    return ca_host_mask_compress(src, mask, n, block, count, dst);
}

int
ca_mask_offsets(int device, const uint8_t *mask, int64_t n, const int64_t *scratch,
                int ndim, const int64_t *shape, const int64_t *strides, int64_t *out,
                ca_stream_t stream)
{
    int64_t sh[CA_MAX_DIMS];
    int64_t st[CA_MAX_DIMS];
    int nd = 0;

    if (ndim < 0 || ndim > CA_MAX_DIMS) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    /* The mask is read in C order, so dimensions merge where the offsets are
     * contiguous together; size-1 dimensions add nothing. */
    for (int k = 0; k < ndim; k++) {
        if (shape[k] == 1) {
            continue;
        }
        if (nd > 0 && st[nd - 1] == strides[k] * shape[k]) {
            sh[nd - 1] *= shape[k];
            st[nd - 1] = strides[k];
            continue;
        }
        sh[nd] = shape[k];
        st[nd] = strides[k];
        nd++;
    }
    return CA_DISPATCH(device,
                       ca_host_mask_offsets(mask, n, scratch[0], nd, sh, st, out),
                       ca_cuda_mask_offsets(mask, n, scratch, nd, sh, st, out, stream));
}

/* q = the two operands of s over its dims [0, n): size-1 dims dropped, each dim
 * merged into the one before it where both strides allow. Returns q's dims so
 * far (the caller sets q->ndim). */
static int
merged_pair(ca_strided *q, const ca_strided *s, int n)
{
    memset(q, 0, sizeof *q);
    q->nops = 2;
    q->data[0] = s->data[0];
    q->data[1] = s->data[1];
    int m = 0;
    for (int k = 0; k < n; k++) {
        const int64_t e = s->shape[k];
        if (e == 1) {
            continue;
        }
        if (m > 0 && q->strides[0][m - 1] == s->strides[0][k] * e &&
            q->strides[1][m - 1] == s->strides[1][k] * e) {
            q->shape[m - 1] *= e;
            q->strides[0][m - 1] = s->strides[0][k];
            q->strides[1][m - 1] = s->strides[1][k];
            continue;
        }
        q->shape[m] = e;
        q->strides[0][m] = s->strides[0][k];
        q->strides[1][m] = s->strides[1][k];
        m++;
    }
    return m;
}

int
ca_masked_fill(int device, ca_strided *s, int itemsize, const void *value,
               ca_stream_t stream)
{
    ca_strided q;

    if (s->ndim < 0 || s->ndim > CA_MAX_DIMS || itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int k = 0; k < s->ndim; k++) {
        if (s->shape[k] == 0) {
            return 0;
        }
    }
    q.ndim = merged_pair(&q, s, s->ndim);
    return CA_DISPATCH(device, ca_host_masked_fill(&q, itemsize, value),
                       ca_cuda_masked_fill(&q, itemsize, value, stream));
}

int
ca_tri_copy(int device, const ca_strided *s, int itemsize, int64_t k, int lower,
            ca_stream_t stream)
{
    ca_strided q;
    const int nd = s->ndim;

    if (nd < 2 || nd > CA_MAX_DIMS || s->nops != 2 || itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int j = 0; j < nd; j++) {
        if (s->shape[j] == 0) {
            return 0;
        }
    }
    /* the stack dimensions (all but the last two) merged where they can be, size-1
     * ones dropped; the matrix dimensions stay as they are */
    int m = merged_pair(&q, s, nd - 2);
    for (int j = nd - 2; j < nd; j++, m++) {
        q.shape[m] = s->shape[j];
        q.strides[0][m] = s->strides[0][j];
        q.strides[1][m] = s->strides[1][j];
    }
    q.ndim = m;
    return CA_DISPATCH(device, ca_host_tri_copy(&q, itemsize, k, lower),
                       ca_cuda_tri_copy(&q, itemsize, k, lower, stream));
}

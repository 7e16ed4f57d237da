/*
 * host_index.c: the cpu device's gather, scatter and mask loops (the GPU's are in
 * index.cu; kernels.h documents the semantics, dispatch_index.c picks one).
 *
 * Elements are moved with fixed-size memcpy, which the compiler turns into plain
 * loads and stores, and which stays defined for data that is not aligned (a
 * wrapped NumPy buffer may not be).
 */
#include <string.h>

#include "kernels.h"

int ca_host_index_take(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_put(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag);
int ca_host_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch);
int ca_host_mask_offsets(const uint8_t *mask, int64_t n, int ndim, const int64_t *shape,
                         const int64_t *strides, int64_t *out);
int ca_host_masked_fill(const ca_strided *s, int itemsize, const void *value);
int ca_host_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower);

#if defined(__GNUC__)
#define CA_ALWAYS_INLINE __attribute__((always_inline)) inline
#else
#define CA_ALWAYS_INLINE inline
#endif

static int64_t
pass_size(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int k = 0; k < ndim; k++) {
        n *= shape[k];
    }
    return n;
}

static void
report(int64_t *flag, int axis, int64_t value)
{
    if (flag != NULL && flag[0] == 0) {
        flag[0] = (int64_t)axis + 1;
        flag[1] = value;
    }
}

/* ---- take / put -------------------------------------------------------------- */

static CA_ALWAYS_INLINE void
take_put(const ca_index_pass *p, const int sz, const int put, int64_t *flag)
{
    const int nd = p->ndim;
    const int64_t n = pass_size(nd, p->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = p->data;
    char *v = p->vals;
    const char *ix = (const char *)p->idx;

    for (int64_t i = 0; i < n; i++) {
        int64_t o = 0;
        if (ix != NULL) {
            memcpy(&o, ix, sizeof o);
        }
        int ok = 1;
        if (p->extent >= 0) {
            int64_t w = o < 0 ? o + p->extent : o;
            if (w < 0 || w >= p->extent) {
                report(flag, p->axis, o);
                ok = 0;
            }
            o = w * p->scale;
        }
        if (put) {
            if (ok) {
                memcpy(d + o, v != NULL ? (const void *)v : (const void *)p->value, sz);
            }
        }
        else if (ok) {
            memcpy(v, d + o, sz);
        }
        else {
            memset(v, 0, sz);
        }
        for (int k = nd - 1; k >= 0; k--) {
            if (++coord[k] < p->shape[k]) {
                d += p->strides[k];
                if (v != NULL) {
                    v += p->vstrides[k];
                }
                if (ix != NULL) {
                    ix += p->istrides[k];
                }
                break;
            }
            coord[k] = 0;
            d -= p->strides[k] * (p->shape[k] - 1);
            if (v != NULL) {
                v -= p->vstrides[k] * (p->shape[k] - 1);
            }
            if (ix != NULL) {
                ix -= p->istrides[k] * (p->shape[k] - 1);
            }
        }
    }
}

static int
take_put_dispatch(const ca_index_pass *p, int itemsize, int put, int64_t *flag)
{
    switch (itemsize) {
    case 1: take_put(p, 1, put, flag); return 0;
    case 2: take_put(p, 2, put, flag); return 0;
    case 4: take_put(p, 4, put, flag); return 0;
    case 8: take_put(p, 8, put, flag); return 0;
    case 16: take_put(p, 16, put, flag); return 0;
    default: return CA_KERR_UNSUPPORTED;
    }
}

int
ca_host_index_take(const ca_index_pass *p, int itemsize, int64_t *flag)
{
    return take_put_dispatch(p, itemsize, 0, flag);
}

int
ca_host_index_put(const ca_index_pass *p, int itemsize, int64_t *flag)
{
    return take_put_dispatch(p, itemsize, 1, flag);
}

int
ca_host_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag)
{
    const int nd = p->ndim;
    const int64_t n = pass_size(nd, p->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *v = p->vals;
    const char *ix = (const char *)p->idx;

    for (int64_t i = 0; i < n; i++) {
        int64_t o = 0;
        if (ix != NULL) {
            memcpy(&o, ix, sizeof o);
        }
        if (p->extent >= 0) {
            int64_t w = o < 0 ? o + p->extent : o;
            if (w < 0 || w >= p->extent) {
                report(flag, p->axis, o);
                w = 0;
            }
            o = w * p->scale;
        }
        if (v != NULL) {
            int64_t cur = 0;
            if (accumulate) {
                memcpy(&cur, v, sizeof cur);
            }
            cur += o;
            memcpy(v, &cur, sizeof cur);
        }
        for (int k = nd - 1; k >= 0; k--) {
            if (++coord[k] < p->shape[k]) {
                if (v != NULL) {
                    v += p->vstrides[k];
                }
                if (ix != NULL) {
                    ix += p->istrides[k];
                }
                break;
            }
            coord[k] = 0;
            if (v != NULL) {
                v -= p->vstrides[k] * (p->shape[k] - 1);
            }
            if (ix != NULL) {
                ix -= p->istrides[k] * (p->shape[k] - 1);
            }
        }
    }
    return 0;
}

/* ---- boolean masks ----------------------------------------------------------- */

int
ca_host_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch)
{
    int64_t c = 0;
    for (int64_t i = 0; i < n; i++) {
        c += mask[i] != 0;
    }
    scratch[0] = c;
    return 0;
}

int
ca_host_mask_offsets(const uint8_t *mask, int64_t n, int ndim, const int64_t *shape,
                     const int64_t *strides, int64_t *out)
{
    int64_t coord[CA_MAX_DIMS] = { 0 };
    int64_t off = 0;
    int64_t j = 0;

    for (int64_t i = 0; i < n; i++) {
        if (mask[i]) {
            out[j++] = off;
        }
        for (int k = ndim - 1; k >= 0; k--) {
            if (++coord[k] < shape[k]) {
                off += strides[k];
                break;
            }
            coord[k] = 0;
            off -= strides[k] * (shape[k] - 1);
        }
    }
    return 0;
}

static CA_ALWAYS_INLINE void
masked_fill(const ca_strided *s, const int sz, const void *value)
{
    const int nd = s->ndim;
    const int64_t n = pass_size(nd, s->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = s->data[0];
    const char *m = s->data[1];

    for (int64_t i = 0; i < n; i++) {
        if (*m) {
            memcpy(d, value, sz);
        }
        for (int k = nd - 1; k >= 0; k--) {
            if (++coord[k] < s->shape[k]) {
                d += s->strides[0][k];
                m += s->strides[1][k];
                break;
            }
            coord[k] = 0;
            d -= s->strides[0][k] * (s->shape[k] - 1);
            m -= s->strides[1][k] * (s->shape[k] - 1);
        }
    }
}

int
ca_host_masked_fill(const ca_strided *s, int itemsize, const void *value)
{
    switch (itemsize) {
    case 1: masked_fill(s, 1, value); return 0;
    case 2: masked_fill(s, 2, value); return 0;
    case 4: masked_fill(s, 4, value); return 0;
    case 8: masked_fill(s, 8, value); return 0;
    case 16: masked_fill(s, 16, value); return 0;
    default: return CA_KERR_UNSUPPORTED;
    }
}

/* tril / triu on the host: a walk over (..., row, col) with running coordinates. */
int
ca_host_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower)
{
    const int nd = s->ndim;
    if (nd < 2 || itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    const int64_t n = pass_size(nd, s->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = s->data[0];
    const char *m = s->data[1];

    for (int64_t i = 0; i < n; i++) {
        const int64_t diff = coord[nd - 1] - coord[nd - 2];
        if (lower ? diff <= k : diff >= k) {
            memcpy(d, m, (size_t)itemsize);
        }
        else {
            memset(d, 0, (size_t)itemsize);
        }
        for (int j = nd - 1; j >= 0; j--) {
            if (++coord[j] < s->shape[j]) {
                d += s->strides[0][j];
                m += s->strides[1][j];
                break;
            }
            coord[j] = 0;
            d -= s->strides[0][j] * (s->shape[j] - 1);
            m -= s->strides[1][j] * (s->shape[j] - 1);
        }
    }
    return 0;
}

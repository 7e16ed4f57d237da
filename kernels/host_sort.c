/*
 * host_sort.c: the cpu device's sort, searchsorted and bincount (kernels.h),
 * and their dispatch to the GPU launchers (sort.cu, sort_search.cu).
 *
 * The host sort orders the same keys as the GPU (sort_keys.h) with a stable
 * bottom-up merge sort of positions, and writes values back through the same
 * unkey code, so the cpu device checks the key maps the GPU relies on.
 * (cuarray's cpu device normally sorts with NumPy on zero-copy views instead:
 * csrc/sort.c; this path serves tests and the host-only build's reference.)
 */
#include <string.h>

#include "search_plan.h"
#include "sort_keys.h"

#if CA_HAVE_CUDA
int ca_cuda_sort(int dtype, const void *in, int64_t nseg, int64_t n, void *out,
                 int64_t *idx, int flags, void *temp, size_t *temp_bytes,
                 ca_stream_t stream);
int ca_cuda_searchsorted(int dtype, const void *a, int64_t n, const int64_t *sorter,
                         const void *v, int64_t nv, int right, int64_t *out, void *temp,
                         ca_stream_t stream);
int ca_cuda_bincount(int xdtype, const void *x, int64_t n, const double *w,
                     int64_t nbins, void *out, ca_stream_t stream);
#endif

/* ---- sort ------------------------------------------------------------------ */

/* Stable: a run's element moves ahead of the left run's only when smaller. */
static void
merge_pass(const ca_skey *keys, const int64_t *src, int64_t *dst, int64_t n, int64_t w)
{
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
        int64_t mid = lo + w < n ? lo + w : n;
        int64_t hi = lo + 2 * w < n ? lo + 2 * w : n;
        int64_t i = lo, j = mid, o = lo;
        while (i < mid && j < hi) {
            if (ca_skey_less(keys[src[j]], keys[src[i]], 0)) {
                dst[o++] = src[j++];
            }
            else {
                dst[o++] = src[i++];
            }
        }
        while (i < mid) {
            dst[o++] = src[i++];
        }
        while (j < hi) {
            dst[o++] = src[j++];
        }
    }
}

/* Sort one row: perm gets the positions in key order (tmp: n scratch). */
static int64_t *
sort_row(const ca_skey *keys, int64_t n, int64_t *perm, int64_t *tmp)
{
    for (int64_t j = 0; j < n; j++) {
        perm[j] = j;
    }
    int64_t *src = perm, *dst = tmp;
    for (int64_t w = 1; w < n; w *= 2) {
        merge_pass(keys, src, dst, n, w);
        int64_t *t = src;
        src = dst;
        dst = t;
    }
    return src;
}

/* Host scratch of one call: a row's keys, positions and merge buffer. */
static size_t
host_sort_bytes(int64_t n)
{
    return (size_t)n * (sizeof(ca_skey) + 2 * sizeof(int64_t));
}

static int
host_sort(int dtype, const char *in, int64_t nseg, int64_t n, char *out, int64_t *idx,
          int flags, void *temp)
{
    const int64_t size = ca_dtype_size[dtype];
    const ca_skey mask = ca_skey_mask(dtype);
    const int desc = (flags & CA_SORT_DESCENDING) != 0;
    /* Values written back must compare as NumPy's: -0.0 may keep its sign
     * only when no positions are asked for (see sort_keys.h). */
    const int canon = idx != NULL;
    ca_skey *keys = (ca_skey *)temp;
    int64_t *perm = (int64_t *)(keys + n);
    int64_t *tmp = perm + n;
    for (int64_t r = 0; r < nseg; r++) {
        const char *row = in + r * n * size;
        for (int64_t j = 0; j < n; j++) {
            ca_skey k = ca_sort_key(dtype, row + j * size, canon);
            if (desc) {
                k.hi ^= mask.hi;
                k.lo ^= mask.lo;
            }
            keys[j] = k;
        }
        const int64_t *p = sort_row(keys, n, perm, tmp);
        for (int64_t j = 0; j < n; j++) {
            if (out != NULL) {
                ca_skey k = keys[p[j]];
                if (desc) {
                    k.hi ^= mask.hi;
                    k.lo ^= mask.lo;
                }
                ca_sort_unkey(dtype, k, out + (r * n + j) * size);
            }
            if (idx != NULL) {
                idx[r * n + j] = p[j];
            }
        }
    }
    return 0;
}

int
ca_sort(int device, int dtype, const void *in, int64_t nseg, int64_t n, void *out,
        int64_t *idx, int flags, void *temp, size_t *temp_bytes, ca_stream_t stream)
{
    if (dtype < 0 || dtype >= CA_NTYPES || nseg < 0 || n < 0 || temp_bytes == NULL ||
        (out == NULL && idx == NULL)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (device == CA_CPU) {
        if (nseg * n == 0) {
            *temp_bytes = 0;
            return 0;
        }
        if (temp == NULL) {
            *temp_bytes = host_sort_bytes(n);
            return 0;
        }
        if (*temp_bytes < host_sort_bytes(n)) {
            return CA_KERR_UNSUPPORTED;
        }
        return host_sort(dtype, (const char *)in, nseg, n, (char *)out, idx, flags,
                         temp);
    }
#if CA_HAVE_CUDA
    return ca_cuda_sort(dtype, in, nseg, n, out, idx, flags, temp, temp_bytes, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

/* ---- searchsorted ---------------------------------------------------------- */

int64_t
ca_searchsorted_temp_bytes(int device, int dtype, int64_t n, int has_sorter, int64_t nv)
{
    if (dtype < 0 || dtype >= CA_NTYPES || n < 0 || nv < 0) {
        return 0;
    }
    ca_search_plan p;
    const int size = ca_dtype_size[dtype];
    return ca_search_plan_make(&p, device != CA_CPU, size, n, has_sorter, nv) * size;
}

int
ca_searchsorted(int device, int dtype, const void *a, int64_t n, const int64_t *sorter,
                const void *v, int64_t nv, int right, int64_t *out, void *temp,
                ca_stream_t stream)
{
    if (dtype < 0 || dtype >= CA_NTYPES || n < 0 || nv < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    if (nv == 0) {
        return 0;
    }
    if (device != CA_CPU) {
#if CA_HAVE_CUDA
        return ca_cuda_searchsorted(dtype, a, n, sorter, v, nv, right, out, temp,
                                    stream);
#else
        (void)stream;
        return CA_KERR_NO_CUDA;
#endif
    }
    (void)temp; /* the host loop samples nothing */
    const int64_t size = ca_dtype_size[dtype];
    const char *base = (const char *)a;
    for (int64_t i = 0; i < nv; i++) {
        ca_skey q = ca_sort_key(dtype, (const char *)v + i * size, 1);
        int64_t lo = 0, hi = n;
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            int64_t at = sorter != NULL ? sorter[mid] : mid;
            at = at < 0 ? 0 : (at >= n ? n - 1 : at); /* a bad sorter reads in bounds */
            ca_skey k = ca_sort_key(dtype, base + at * size, 1);
            if (ca_skey_less(k, q, right)) {
                lo = mid + 1;
            }
            else {
                hi = mid;
            }
        }
        out[i] = lo;
    }
    return 0;
}

/* ---- bincount -------------------------------------------------------------- */

/* The counting loops: the bin of the value CA_BC_AHEAD places ahead is
 * prefetched (increments of bins spread over more than the caches otherwise
 * wait on memory one at a time: 2^22 values in 2^20 bins went 0.8-1.1x NumPy
 * -> about 1.6x on the development machine). Values outside [0, nbins) are
 * skipped. */
#define CA_BC_AHEAD 32
#define CA_BC_LOOP(T, ADD)                                                             \
    do {                                                                               \
        const T *v = (const T *)x;                                                     \
        int64_t i = 0;                                                                 \
        for (; i + CA_BC_AHEAD < n; i++) {                                             \
            int64_t f = v[i + CA_BC_AHEAD];                                            \
            f = (uint64_t)f < (uint64_t)nbins ? f : 0;                                 \
            __builtin_prefetch((const char *)out + f * 8, 1);                          \
            const int64_t b = v[i];                                                    \
            if ((uint64_t)b < (uint64_t)nbins) {                                       \
                ADD;                                                                   \
            }                                                                          \
        }                                                                              \
        for (; i < n; i++) {                                                           \
            const int64_t b = v[i];                                                    \
            if ((uint64_t)b < (uint64_t)nbins) {                                       \
                ADD;                                                                   \
            }                                                                          \
        }                                                                              \
    } while (0)

int
ca_bincount(int device, int xdtype, const void *x, int64_t n, const double *w,
            int64_t nbins, void *out, ca_stream_t stream)
{
    if ((xdtype != CA_INT32 && xdtype != CA_INT64) || n < 0 || nbins < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    if (nbins == 0) {
        return 0;
    }
    if (device != CA_CPU) {
#if CA_HAVE_CUDA
        return ca_cuda_bincount(xdtype, x, n, w, nbins, out, stream);
#else
        (void)stream;
        return CA_KERR_NO_CUDA;
#endif
    }
    int64_t *counts = (int64_t *)out;
    double *sums = (double *)out;
    if (w != NULL) {
        for (int64_t b = 0; b < nbins; b++) {
            sums[b] = 0.0;
        }
    }
    else {
        memset(out, 0, (size_t)nbins * sizeof(int64_t));
    }
    if (w != NULL && xdtype == CA_INT32) {
        CA_BC_LOOP(int32_t, sums[b] += w[i]);
    }
    else if (w != NULL) {
        CA_BC_LOOP(int64_t, sums[b] += w[i]);
    }
    else if (xdtype == CA_INT32) {
        CA_BC_LOOP(int32_t, counts[b]++);
    }
    else {
        CA_BC_LOOP(int64_t, counts[b]++);
    }
    return 0;
}

/*
 * host_sort.c: the cpu device's sort, searchsorted and bincount (kernels.h),
 * and their dispatch to the GPU launchers (sort.cu, sort_search.cu).
 *
 * The host sort orders the same keys as the GPU (sort_keys.h) with a stable
 * bottom-up merge sort of positions, and writes values back through the same
 * unkey code, so the cpu device checks the key maps the GPU relies on.
 * (cuarray's cpu device normally sorts with NumPy on zero-copy views instead:
 * csrc/ops/sort.c; this path serves tests and the host-only build's reference.)
 * ca_host_merge merges the two sorted halves of the cpu device's split sorts
 * (python/cuarray/_sort_threads.py) on the host threads.
 */
#include <math.h>
#include <string.h>

#include "host_threads.h"
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

/* ---- merge of two sorted runs ---------------------------------------------- */

/* Outputs per task of ca_host_merge. Each task finds where its outputs start in
 * both runs by a binary search (the merge path), so tasks are independent and
 * their split depends on n alone (results are the same with any thread count).
 * 2^18 outputs (about 1 ms of merging) keep both threads busy while another
 * process takes one of the cores now and then. */
#define CA_MERGE_TASK ((int64_t)1 << 18)

typedef struct {
    int dtype;
    const char *keys; /* the left run [0, h), the right run [h, n) */
    int64_t n, h;
    int64_t na, nb; /* the runs' leading parts merged by tasks (floats: no NaN) */
    const int64_t *idx;
    char *out_keys;
    int64_t *out_idx;
} merge_job;

/* merge_at_T: how many of the left run's a[0, na) are among the first d outputs
 * of the stable merge with b[0, nb): the least i with b[d - i - 1] < a[i] (a's
 * element i then comes after b's first d - i; ties go to the left run first).
 * merge_T: outputs [d0, d1) of that merge; only the keys (out_keys, sort) or
 * only their positions (out_idx, argsort) are written. `<` is NumPy's order of
 * the runs' parts merged here (floats without their NaNs; -0.0 ties +0.0). The
 * loops pick without a branch on the data, which random keys would mispredict
 * every other time. */
#define MERGE_FNS(T)                                                                   \
    static int64_t merge_at_##T(const T *a, int64_t na, const T *b, int64_t nb,        \
                                int64_t d)                                             \
    {                                                                                  \
        int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;                        \
        while (lo < hi) {                                                              \
            const int64_t mid = lo + (hi - lo) / 2;                                    \
            if (b[d - mid - 1] < a[mid]) {                                             \
                hi = mid;                                                              \
            }                                                                          \
            else {                                                                     \
                lo = mid + 1;                                                          \
            }                                                                          \
        }                                                                              \
        return lo;                                                                     \
    }                                                                                  \
    static void merge_##T(const merge_job *j, int64_t d0, int64_t d1)                  \
    {                                                                                  \
        const T *a = (const T *)j->keys, *b = a + j->h;                                \
        const int64_t na = j->na, nb = j->nb;                                          \
        int64_t i = merge_at_##T(a, na, b, nb, d0), k = d0 - i;                        \
        const int64_t i1 = merge_at_##T(a, na, b, nb, d1), k1 = d1 - i1;               \
        if (j->out_keys != NULL) {                                                     \
            T *o = (T *)j->out_keys + d0;                                              \
            while (i < i1 && k < k1) {                                                 \
                const T x = a[i], y = b[k];                                            \
                const int r = y < x;                                                   \
                *o++ = r ? y : x;                                                      \
                i += !r;                                                               \
                k += r;                                                                \
            }                                                                          \
            memcpy(o, a + i, (size_t)(i1 - i) * sizeof(T));                            \
            memcpy(o + (i1 - i), b + k, (size_t)(k1 - k) * sizeof(T));                 \
            return;                                                                    \
        }                                                                              \
        const int64_t *ia = j->idx, *ib = j->idx + j->h;                               \
        int64_t *o = j->out_idx + d0;                                                  \
        while (i < i1 && k < k1) {                                                     \
            /* a mask: GCC makes `r ? ib[k] : ia[i]` a branch, 1.2-1.5x slower */      \
            const int r = b[k] < a[i];                                                 \
            const int64_t m = -(int64_t)r;                                             \
            *o++ = (ia[i] & ~m) | (ib[k] & m);                                         \
            i += !r;                                                                   \
            k += r;                                                                    \
        }                                                                              \
        memcpy(o, ia + i, (size_t)(i1 - i) * sizeof(int64_t));                         \
        memcpy(o + (i1 - i), ib + k, (size_t)(k1 - k) * sizeof(int64_t));              \
    }

typedef int8_t i8;
typedef uint8_t u8;
typedef int16_t i16;
typedef uint16_t u16;
typedef int32_t i32;
typedef uint32_t u32;
typedef int64_t i64;
typedef uint64_t u64;
MERGE_FNS(i8)
MERGE_FNS(u8)
MERGE_FNS(i16)
MERGE_FNS(u16)
MERGE_FNS(i32)
MERGE_FNS(u32)
MERGE_FNS(i64)
MERGE_FNS(u64)
MERGE_FNS(float)
MERGE_FNS(double)

/* Any other dtype (bool, float16, complex): sort_keys.h's canonical keys, whose
 * order is NumPy's with its ties (-0.0 and +0.0, every NaN of one class). */
static int64_t
merge_at_key(const merge_job *j, int64_t d)
{
    const int64_t size = ca_dtype_size[j->dtype], na = j->na, nb = j->nb;
    const char *a = j->keys, *b = a + na * size;
    int64_t lo = d > nb ? d - nb : 0, hi = d < na ? d : na;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (ca_skey_less(ca_sort_key(j->dtype, b + (d - mid - 1) * size, 1),
                         ca_sort_key(j->dtype, a + mid * size, 1), 0)) {
            hi = mid;
        }
        else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* One output of the key merge: the left run's element i or the right's k. */
static void
merge_put(const merge_job *j, int64_t o, int right, int64_t i, int64_t k)
{
    const int64_t size = ca_dtype_size[j->dtype];
    const int64_t at = right ? j->h + k : i;
    if (j->out_keys != NULL) {
        memcpy(j->out_keys + o * size, j->keys + at * size, (size_t)size);
    }
    else {
        j->out_idx[o] = j->idx[at];
    }
}

static void
merge_key(const merge_job *j, int64_t d0, int64_t d1)
{
    const int64_t size = ca_dtype_size[j->dtype];
    const char *a = j->keys, *b = a + j->h * size;
    int64_t i = merge_at_key(j, d0), k = d0 - i;
    const int64_t i1 = merge_at_key(j, d1), k1 = d1 - i1;
    ca_skey x = { 0, 0 }, y = { 0, 0 };
    if (i < i1) {
        x = ca_sort_key(j->dtype, a + i * size, 1);
    }
    if (k < k1) {
        y = ca_sort_key(j->dtype, b + k * size, 1);
    }
    for (int64_t o = d0; o < d1; o++) {
        const int right = i == i1 || (k < k1 && ca_skey_less(y, x, 0));
        merge_put(j, o, right, i, k);
        if (right && ++k < k1) {
            y = ca_sort_key(j->dtype, b + k * size, 1);
        }
        else if (!right && ++i < i1) {
            x = ca_sort_key(j->dtype, a + i * size, 1);
        }
    }
}

static void
merge_task(void *ctx, int64_t t)
{
    const merge_job *j = (const merge_job *)ctx;
    const int64_t m = j->na + j->nb;
    const int64_t d0 = t * CA_MERGE_TASK;
    const int64_t d1 = d0 + CA_MERGE_TASK < m ? d0 + CA_MERGE_TASK : m;
    switch (j->dtype) {
    case CA_INT8: merge_i8(j, d0, d1); break;
    case CA_UINT8: merge_u8(j, d0, d1); break;
    case CA_INT16: merge_i16(j, d0, d1); break;
    case CA_UINT16: merge_u16(j, d0, d1); break;
    case CA_INT32: merge_i32(j, d0, d1); break;
    case CA_UINT32: merge_u32(j, d0, d1); break;
    case CA_INT64: merge_i64(j, d0, d1); break;
    case CA_UINT64: merge_u64(j, d0, d1); break;
    case CA_FLOAT32: merge_float(j, d0, d1); break;
    case CA_FLOAT64: merge_double(j, d0, d1); break;
    default: merge_key(j, d0, d1); break;
    }
}

/* How many of the float run at keys[at, at + len) are not NaN (NaNs sort last). */
static int64_t
merge_no_nan(const merge_job *j, int64_t at, int64_t len)
{
    int64_t lo = 0, hi = len;
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const int nan = j->dtype == CA_FLOAT32
                            ? isnan(((const float *)j->keys)[at + mid])
                            : isnan(((const double *)j->keys)[at + mid]);
        if (nan) {
            hi = mid;
        }
        else {
            lo = mid + 1;
        }
    }
    return lo;
}

/* Outputs [o, o + len) are the elements [at, at + len) of the runs as they are
 * (the NaNs of a float run, left run's first: they tie). */
static void
merge_tail(const merge_job *j, int64_t o, int64_t at, int64_t len)
{
    const int64_t size = ca_dtype_size[j->dtype];
    if (j->out_keys != NULL) {
        memcpy(j->out_keys + o * size, j->keys + at * size, (size_t)(len * size));
    }
    else {
        memcpy(j->out_idx + o, j->idx + at, (size_t)len * sizeof(int64_t));
    }
}

int
ca_host_merge(int dtype, const void *keys, int64_t n, int64_t h, const int64_t *idx,
              void *out_keys, int64_t *out_idx)
{
    if (dtype < 0 || dtype >= CA_NTYPES || n < 0 || h < 0 || h > n) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0; /* empty arrays may have NULL data */
    }
    if ((out_keys == NULL) == (out_idx == NULL) || (out_idx != NULL && idx == NULL)) {
        return CA_KERR_UNSUPPORTED;
    }
    merge_job j = { dtype, (const char *)keys, n,      h, h, n - h,
                    idx,   (char *)out_keys,   out_idx };
    if (dtype == CA_FLOAT32 || dtype == CA_FLOAT64) {
        j.na = merge_no_nan(&j, 0, h);
        j.nb = merge_no_nan(&j, h, n - h);
    }
    const int64_t m = j.na + j.nb;
    ca_host_parallel((m + CA_MERGE_TASK - 1) / CA_MERGE_TASK, merge_task, &j);
    merge_tail(&j, m, j.na, h - j.na);
    merge_tail(&j, m + h - j.na, h + j.nb, n - h - j.nb);
    return 0;
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

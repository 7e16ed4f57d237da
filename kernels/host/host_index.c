/*
 * host_index.c: the cpu device's gather, scatter, masked_fill and tril/triu loops
 * (the GPU's are in index.cu; kernels.h documents the semantics, dispatch_index.c
 * picks one). The mask counting, offsets and compress are in host_mask.c.
 *
 * Elements are moved with fixed-size memcpy, which the compiler turns into plain
 * loads and stores, and which stays defined for data that is not aligned (a
 * wrapped NumPy buffer may not be).
 */
#include <stdint.h>
#include <string.h>

#include "host_clones.h"
#include "host_threads.h"
#include "kernels.h"

int ca_host_index_take(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_put(const ca_index_pass *p, int itemsize, int64_t *flag);
int ca_host_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag);
int ca_host_masked_fill(const ca_strided *s, int itemsize, const void *value);
int ca_host_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower);

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

/* How many elements ahead a random gather/scatter prefetches its target. */
#define CA_TP_AHEAD 16

/* The byte offset of index value o (wrapped and scaled when the pass has an
 * extent); *ok = 0 (and the flag set) when it is out of range. */
static CA_ALWAYS_INLINE int64_t
tp_offset(const ca_index_pass *p, int64_t o, int *ok, int64_t *flag)
{
    if (p->extent < 0) {
        return o;
    }
    int64_t w = o < 0 ? o + p->extent : o;
    if (w < 0 || w >= p->extent) {
        report(flag, p->axis, o);
        *ok = 0;
    }
    return w * p->scale;
}

/* One element: take copies data + o to v (zeros when !ok), put copies the
 * value (v, or p->value when there are no vals) to data + o. */
static CA_ALWAYS_INLINE void
tp_one(const ca_index_pass *p, const int sz, const int put, char *d, char *v, int ok)
{
    if (put) {
        if (ok) {
            memcpy(d, v != NULL ? (const void *)v : (const void *)p->value, sz);
        }
    }
    else if (ok) {
        memcpy(v, d, sz);
    }
    else {
        memset(v, 0, sz);
    }
}

/* A take of n elements in one pass without branches: each index is wrapped,
 * checked into `bad` and clamped to 0 when out of range (so the load stays in
 * the table), and the copy never waits on the check, so many of a random
 * gather's loads are in flight without a software prefetch. Returns nonzero
 * when an index was out of range: the caller walks the run again to zero those
 * elements and report the first (the result is fresh, so a second pass over it
 * is harmless). Against the prefetching loop below, on the development
 * machine: 2^16 float64 at random indices 145 -> 61 us (NumPy 69), 2^22 float32
 * at arange indices 4.1 -> 1.7 ms (NumPy 3.5), 2^24 at random 80 -> 70 ms. */
static CA_ALWAYS_INLINE uint64_t
take_run_checked(const int64_t ext, const int64_t sc, const int sz, const char *d,
                 char *v, const char *ix, int64_t n, int64_t ds, int64_t vs, int64_t is)
{
    uint64_t bad = 0;
    for (int64_t j = 0; j < n; j++) {
        int64_t o;
        memcpy(&o, ix + j * is, sizeof o);
        const int64_t w = o + (ext & (o >> 63));
        const uint64_t out = (uint64_t)w >= (uint64_t)ext;
        bad |= out;
        memcpy(v + j * vs, d + j * ds + (out ? 0 : w) * sc, sz);
    }
    return bad;
}

/* One step of the odometer over dims [0, last] of pass p: the counters, and the
 * data (d NULL: not walked), values and index pointers (*v, *ix NULL: absent). */
static CA_ALWAYS_INLINE void
step_pass(const ca_index_pass *p, int last, int64_t *coord, char **d, char **v,
          const char **ix)
{
    for (int k = last; k >= 0; k--) {
        if (++coord[k] < p->shape[k]) {
            if (d != NULL) {
                *d += p->strides[k];
            }
            if (*v != NULL) {
                *v += p->vstrides[k];
            }
            if (*ix != NULL) {
                *ix += p->istrides[k];
            }
            return;
        }
        coord[k] = 0;
        if (d != NULL) {
            *d -= p->strides[k] * (p->shape[k] - 1);
        }
        if (*v != NULL) {
            *v -= p->vstrides[k] * (p->shape[k] - 1);
        }
        if (*ix != NULL) {
            *ix -= p->istrides[k] * (p->shape[k] - 1);
        }
    }
}

/* A run of n elements along the innermost dim (strides ds, vs, is). A take
 * with an index per element is take_run_checked's. One index for the whole run
 * (is == 0: rows of m[idx]) is checked once and the run is copied as one block
 * where it is contiguous; otherwise (a put, or byte offsets) the loop is kept
 * tight and the target CA_TP_AHEAD elements on is prefetched. The order of the
 * elements is the pass's, so the last write of a repeated index still wins. */
static CA_ALWAYS_INLINE void
tp_run(const ca_index_pass *p, const int sz, const int put, char *d, char *v,
       const char *ix, int64_t n, int64_t ds, int64_t vs, int64_t is, int64_t *flag)
{
    if (!put && ix != NULL && is != 0 && p->extent > 0) {
        /* the common 1-d gather with constant strides, so gcc unrolls it */
        const int64_t ext = p->extent, sc = p->scale;
        const uint64_t bad =
            ds == 0 && vs == sz && is == 8 && sc == sz
                ? take_run_checked(ext, sz, sz, d, v, ix, n, 0, sz, 8)
                : take_run_checked(ext, sc, sz, d, v, ix, n, ds, vs, is);
        if (!bad) {
            return;
        }
    }
    if (ix == NULL || is == 0) {
        int64_t o = 0;
        int ok = 1;
        if (ix != NULL) {
            memcpy(&o, ix, sizeof o);
        }
        int64_t off = tp_offset(p, o, &ok, flag);
        d = ok ? d + off : d;
        if (ok && v != NULL && ds == sz && vs == sz) {
            memcpy(put ? d : v, put ? v : d, (size_t)(n * sz));
            return;
        }
        for (int64_t j = 0; j < n; j++) {
            tp_one(p, sz, put, ok ? d + j * ds : d, v != NULL ? v + j * vs : NULL, ok);
        }
        return;
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t o;
        int ok = 1;
        if (j + CA_TP_AHEAD < n) {
            int64_t q;
            memcpy(&q, ix + (j + CA_TP_AHEAD) * is, sizeof q);
            if (p->extent >= 0) {
                q = (int64_t)((uint64_t)(q < 0 ? q + p->extent : q) *
                              (uint64_t)p->scale);
            }
            /* a prefetch never faults: an out-of-range target is harmless */
            const void *t =
                (const void *)((uintptr_t)d + (uintptr_t)q +
                               (uintptr_t)(j + CA_TP_AHEAD) * (uintptr_t)ds);
            if (put) {
                __builtin_prefetch(t, 1);
            }
            else {
                __builtin_prefetch(t, 0);
            }
        }
        memcpy(&o, ix + j * is, sizeof o);
        int64_t off = tp_offset(p, o, &ok, flag);
        tp_one(p, sz, put, ok ? d + j * ds + off : d, v != NULL ? v + j * vs : NULL,
               ok);
    }
}

static CA_ALWAYS_INLINE void
take_put(const ca_index_pass *p, const int sz, const int put, int64_t *flag)
{
    const int nd = p->ndim;
    if (nd == 0) {
        tp_run(p, sz, put, p->data, p->vals, (const char *)p->idx, 1, 0, 0, 0, flag);
        return;
    }
    const int in = nd - 1;
    const int64_t len = p->shape[in];
    const int64_t ds = p->strides[in];
    const int64_t vs = p->vals != NULL ? p->vstrides[in] : 0;
    const int64_t is = p->idx != NULL ? p->istrides[in] : 0;
    const int64_t runs = pass_size(in, p->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = p->data;
    char *v = p->vals;
    const char *ix = (const char *)p->idx;

    for (int64_t r = 0; r < runs; r++) {
        tp_run(p, sz, put, d, v, ix, len, ds, vs, is, flag);
        step_pass(p, in - 1, coord, &d, &v, &ix);
    }
}

/* ---- one long gather of random indices on the thread pool -------------------- */

/* v[idx] over one run of CA_TP_PAR_MIN+ random indices waits on its scattered
 * reads, which a second core overlaps (2^24 float32 on the development machine:
 * 160 ms on one core, 80 on two). The run is cut in CA_TP_TASKS pieces, each
 * writing its own part of the result and reporting into its own flag; the
 * lowest piece's report is the first in pass order, as one thread's would be.
 * A long scatter splits the target instead (put_parallel, below). */
#define CA_TP_PAR_MIN ((int64_t)1 << 18)
#define CA_TP_TASKS   16

/* fn(job, S, t, flag) with S the job's item size as a constant (the loops
 * specialise on it). */
#define CA_TP_BY_SIZE(fn, job, t, flag)                                                \
    switch ((job)->sz) {                                                               \
    case 1: fn(job, 1, t, flag); break;                                                \
    case 2: fn(job, 2, t, flag); break;                                                \
    case 4: fn(job, 4, t, flag); break;                                                \
    case 8: fn(job, 8, t, flag); break;                                                \
    default: fn(job, 16, t, flag); break;                                              \
    }

/* What both pool paths need: one run of CA_TP_PAR_MIN+ indices, an item size
 * the loops specialise on, and a second thread. */
static int
long_indexed_run(const ca_index_pass *p, int itemsize)
{
    return p->ndim == 1 && p->idx != NULL && p->istrides[0] != 0 &&
           p->shape[0] >= CA_TP_PAR_MIN && ca_host_threads() >= 2 &&
           (itemsize == 1 || itemsize == 2 || itemsize == 4 || itemsize == 8 ||
            itemsize == 16);
}

/* A long run on the pool: a gather's pieces or a scatter's bands of `per`
 * elements, a flag for each. */
typedef struct {
    const ca_index_pass *p;
    int sz;
    int64_t n, per;
    int64_t flags[CA_TP_TASKS][2];
} tp_job;

static CA_ALWAYS_INLINE void
take_piece(const tp_job *j, const int sz, int64_t t, int64_t *flag)
{
    const ca_index_pass *p = j->p;
    int64_t j0, j1;
    ca_host_piece(t, j->per, j->n, &j0, &j1);
    const int64_t cnt = j1 - j0;
    tp_run(p, sz, 0, p->data + j0 * p->strides[0], p->vals + j0 * p->vstrides[0],
           (const char *)p->idx + j0 * p->istrides[0], cnt, p->strides[0],
           p->vstrides[0], p->istrides[0], flag);
}

/* The pool task of piece function PIECE: task t with its own bad-index flag. */
#define TP_TASK(fn, PIECE)                                                             \
    static void fn(void *ctx, int64_t t)                                               \
    {                                                                                  \
        tp_job *j = ctx;                                                               \
        int64_t *flag = j->flags[t];                                                   \
        CA_TP_BY_SIZE(PIECE, j, t, flag);                                              \
    }
TP_TASK(take_task, take_piece)

/* Run task over the CA_TP_TASKS pieces of j's run on the pool, then report the
 * lowest piece's bad index: the first in pass order, as one thread's would be. */
static void
run_pieces(tp_job *j, void (*task)(void *, int64_t), int64_t *flag)
{
    j->per = (j->n + CA_TP_TASKS - 1) / CA_TP_TASKS;
    memset(j->flags, 0, sizeof j->flags);
    ca_host_parallel(CA_TP_TASKS, task, j);
    for (int t = 0; t < CA_TP_TASKS; t++) {
        if (j->flags[t][0] != 0) {
            report(flag, (int)j->flags[t][0] - 1, j->flags[t][1]);
            break;
        }
    }
}

static int
take_parallel(const ca_index_pass *p, int itemsize, int64_t *flag)
{
    if (!long_indexed_run(p, itemsize)) {
        return 0;
    }
    tp_job j = { .p = p, .sz = itemsize, .n = p->shape[0] };
    run_pieces(&j, take_task, flag);
    return 1;
}

/* ---- one long scatter on the thread pool: a band of the target per thread ---- */

/* v[idx] = w over one run of CA_TP_PAR_MIN+ indices: each thread walks the whole
 * run in order and writes only the targets in its band of v, so every element
 * still takes its last write. The test and the write have no branch: a target
 * outside the band is written to a small sink on the thread's stack instead
 * (cached, never read), so the loop keeps many writes in flight. No prefetch:
 * the other thread's targets made it a loss. 2^24 float32 at a random
 * permutation on the development machine: 110-130 ms on one core, 75 on two
 * (a branch on the band, with the prefetch, measured 0.85x of one). */
#define CA_PUT_BANDS 2

static CA_ALWAYS_INLINE void
put_band(const tp_job *j, const int sz, int64_t t, int64_t *flag)
{
    const ca_index_pass *p = j->p;
    const int64_t lo = t * j->per * p->scale;
    const uint64_t width = (uint64_t)(j->per * p->scale);
    const char *ix = (const char *)p->idx;
    const int64_t is = p->istrides[0], vs = p->vals != NULL ? p->vstrides[0] : 0;
    const char *v = p->vals != NULL ? (const char *)p->vals : (const char *)p->value;
    char sink[16 * 16];
    for (int64_t k = 0; k < j->n; k++) {
        int64_t o;
        int ok = 1;
        memcpy(&o, ix + k * is, sizeof o);
        const int64_t off = tp_offset(p, o, &ok, flag);
        const int mine = ok & ((uint64_t)(off - lo) < width);
        /* a mask, not a ?: that gcc turns into a branch (a coin toss a write) */
        const uintptr_t m = (uintptr_t)0 - (uintptr_t)mine;
        const uintptr_t in = (uintptr_t)p->data + (uintptr_t)off,
                        out = (uintptr_t)(sink + (k & 15) * sz);
        memcpy((char *)((in & m) | (out & ~m)), v + k * vs, sz);
    }
}

TP_TASK(put_task, put_band)

/* The bands split the indexed axis, so only a pass whose whole target is that
 * axis qualifies: one dim along which the data pointer does not move. */
static int
put_parallel(const ca_index_pass *p, int itemsize, int64_t *flag)
{
    if (!long_indexed_run(p, itemsize) || p->strides[0] != 0 ||
        p->extent < CA_PUT_BANDS || p->scale <= 0) {
        return 0;
    }
    tp_job j = { .p = p, .sz = itemsize, .n = p->shape[0] };
    j.per = (p->extent + CA_PUT_BANDS - 1) / CA_PUT_BANDS;
    memset(j.flags, 0, sizeof j.flags);
    ca_host_parallel(CA_PUT_BANDS, put_task, &j);
    /* every band walked the whole run: each saw the first bad index */
    if (j.flags[0][0] != 0) {
        report(flag, (int)j.flags[0][0] - 1, j.flags[0][1]);
    }
    return 1;
}

static int
take_put_dispatch(const ca_index_pass *p, int itemsize, int put, int64_t *flag)
{
    if (put ? put_parallel(p, itemsize, flag) : take_parallel(p, itemsize, flag)) {
        return 0;
    }
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

/* One run of ca_host_index_offsets along the innermost dim. A check alone
 * (no vals) first scans the run without branches; only a run that holds an
 * out-of-range value is walked again to report the first one. */
static void
offsets_run(const ca_index_pass *p, int accumulate, char *v, const char *ix, int64_t n,
            int64_t vs, int64_t is, int64_t *flag)
{
    const int64_t ext = p->extent;
    if (v == NULL && ix != NULL && ext >= 0) {
        uint64_t bad = 0;
        for (int64_t j = 0; j < n; j++) {
            int64_t o;
            memcpy(&o, ix + j * is, sizeof o);
            bad |= (uint64_t)(o < 0 ? o + ext : o) >= (uint64_t)ext;
        }
        if (!bad) {
            return;
        }
    }
    for (int64_t j = 0; j < n; j++) {
        int64_t o = 0;
        if (ix != NULL) {
            memcpy(&o, ix + j * is, sizeof o);
        }
        if (ext >= 0) {
            int64_t w = o < 0 ? o + ext : o;
            if (w < 0 || w >= ext) {
                report(flag, p->axis, o);
                w = 0;
            }
            o = w * p->scale;
        }
        if (v != NULL) {
            int64_t cur = 0;
            if (accumulate) {
                memcpy(&cur, v + j * vs, sizeof cur);
            }
            cur += o;
            memcpy(v + j * vs, &cur, sizeof cur);
        }
    }
}

/* The check alone (no vals) of one long run, in pieces on the pool as take's
 * (a scatter checks every index before it writes anything: a streaming read
 * of the indices that two cores do faster; tp_job's sz unused). */
static void
check_task(void *ctx, int64_t t)
{
    tp_job *j = ctx;
    const ca_index_pass *p = j->p;
    int64_t j0, j1;
    ca_host_piece(t, j->per, j->n, &j0, &j1);
    offsets_run(p, 0, NULL, (const char *)p->idx + j0 * p->istrides[0], j1 - j0, 0,
                p->istrides[0], j->flags[t]);
}

static int
check_parallel(const ca_index_pass *p, int64_t *flag)
{
    if (p->vals != NULL || p->ndim != 1 || p->idx == NULL || p->extent < 0 ||
        p->shape[0] < CA_TP_PAR_MIN || ca_host_threads() < 2) {
        return 0;
    }
    tp_job j = { .p = p, .n = p->shape[0] };
    run_pieces(&j, check_task, flag);
    return 1;
}

int
ca_host_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag)
{
    const int nd = p->ndim;
    if (check_parallel(p, flag)) {
        return 0;
    }
    char *v = p->vals;
    const char *ix = (const char *)p->idx;
    if (nd == 0) {
        offsets_run(p, accumulate, v, ix, 1, 0, 0, flag);
        return 0;
    }
    const int in = nd - 1;
    const int64_t runs = pass_size(in, p->shape);
    const int64_t vs = v != NULL ? p->vstrides[in] : 0;
    const int64_t is = ix != NULL ? p->istrides[in] : 0;
    int64_t coord[CA_MAX_DIMS] = { 0 };

    for (int64_t r = 0; r < runs; r++) {
        offsets_run(p, accumulate, v, ix, p->shape[in], vs, is, flag);
        step_pass(p, in - 1, coord, NULL, &v, &ix);
    }
    return 0;
}

/* ---- boolean masks (counting, offsets and compress: host_mask.c) ---------- */

/* One run of masked_fill: where m (stride ms) is true, d (stride ds) gets the
 * value. Contiguous runs of 1-8 byte elements are selected without branches
 * (each element is read and written back, or replaced). */
#define CA_MF_SELECT(T)                                                                \
    do {                                                                               \
        T val, cur;                                                                    \
        memcpy(&val, value, sizeof val);                                               \
        for (int64_t e = 0; e < n; e++) {                                              \
            memcpy(&cur, d + e * (int64_t)sizeof(T), sizeof cur);                      \
            cur = m[e * ms] ? val : cur;                                               \
            memcpy(d + e * (int64_t)sizeof(T), &cur, sizeof cur);                      \
        }                                                                              \
    } while (0)

static CA_ALWAYS_INLINE void
masked_fill_run(const int sz, char *d, const char *m, int64_t n, int64_t ds, int64_t ms,
                const void *value)
{
    if (ds == sz && ms == 1) {
        switch (sz) {
        case 1: CA_MF_SELECT(uint8_t); return;
        case 2: CA_MF_SELECT(uint16_t); return;
        case 4: CA_MF_SELECT(uint32_t); return;
        case 8: CA_MF_SELECT(uint64_t); return;
        default: break;
        }
    }
    for (int64_t e = 0; e < n; e++) {
        if (m[e * ms]) {
            memcpy(d + e * ds, value, sz);
        }
    }
}

/* One step of the odometer over dims [0, last] of s (the innermost dims run
 * inside): the counters, and the pointers d and m by s's two stride rows. */
static CA_ALWAYS_INLINE void
step2(const ca_strided *s, int last, int64_t *coord, char **d, const char **m)
{
    for (int k = last; k >= 0; k--) {
        if (++coord[k] < s->shape[k]) {
            *d += s->strides[0][k];
            *m += s->strides[1][k];
            return;
        }
        coord[k] = 0;
        *d -= s->strides[0][k] * (s->shape[k] - 1);
        *m -= s->strides[1][k] * (s->shape[k] - 1);
    }
}

static CA_ALWAYS_INLINE void
masked_fill(const ca_strided *s, const int sz, const void *value)
{
    const int nd = s->ndim;
    if (nd == 0) {
        masked_fill_run(sz, s->data[0], s->data[1], 1, sz, 1, value);
        return;
    }
    const int in = nd - 1;
    const int64_t runs = pass_size(in, s->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = s->data[0];
    const char *m = s->data[1];

    for (int64_t r = 0; r < runs; r++) {
        masked_fill_run(sz, d, m, s->shape[in], s->strides[0][in], s->strides[1][in],
                        value);
        step2(s, in - 1, coord, &d, &m);
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

/* tril / triu on the host, a row at a time: the kept columns of a row are one
 * range, [0, c) for tril or [c, N) for triu, copied (memcpy when both rows are
 * dense) and the rest zeroed; the stack and row coordinates run as counters. */
static void
tri_row(char *d, const char *m, int64_t ncol, int64_t sd, int64_t sm, int sz,
        int64_t lo, int64_t hi)
{
    if (sd == sz && sm == sz) {
        memset(d, 0, (size_t)(lo * sz));
        memcpy(d + lo * sz, m + lo * sz, (size_t)((hi - lo) * sz));
        memset(d + hi * sz, 0, (size_t)((ncol - hi) * sz));
        return;
    }
    for (int64_t c = 0; c < ncol; c++) {
        if (c >= lo && c < hi) {
            memcpy(d + c * sd, m + c * sm, (size_t)sz);
        }
        else {
            memset(d + c * sd, 0, (size_t)sz);
        }
    }
}

int
ca_host_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower)
{
    const int nd = s->ndim;
    if (nd < 2 || itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    const int64_t ncol = s->shape[nd - 1];
    const int64_t nrows = pass_size(nd - 1, s->shape);
    int64_t coord[CA_MAX_DIMS] = { 0 };
    char *d = s->data[0];
    const char *m = s->data[1];

    for (int64_t i = 0; i < nrows; i++) {
        /* lower keeps col - row <= k, upper col - row >= k (k is clamped to
         * [-rows, cols] by the caller, so these sums do not overflow) */
        const int64_t row = coord[nd - 2];
        int64_t lo = lower ? 0 : row + k, hi = lower ? row + k + 1 : ncol;
        lo = lo < 0 ? 0 : (lo > ncol ? ncol : lo);
        hi = hi < lo ? lo : (hi > ncol ? ncol : hi);
        tri_row(d, m, ncol, s->strides[0][nd - 1], s->strides[1][nd - 1], itemsize, lo,
                hi);
        step2(s, nd - 2, coord, &d, &m);
    }
    return 0;
}

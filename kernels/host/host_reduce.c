/*
 * host_reduce.c: the reductions and scans of the cpu device.
 *
 * Each output walks its reduced elements as runs along the innermost reduced
 * dim; the per-run loops, one per (op, input, output) of kernels/reductions.def,
 * are generated (build/generated/red_host.c, host_reduce.h) from the helpers of
 * kernels/shared/reduce_math.h, the same math the GPU kernels use. Only the walk is
 * here: runs per output, or (when a kept dim is innermost) rows folded into a
 * vector of accumulators, on the thread pool of host_threads.c when the work is
 * large; the split never changes a result.
 */
#include <stdlib.h>
#include <string.h>

#include "host_reduce.h"
#include "host_threads.h"
#include "kernels.h"
#include "reduce_plan.h"

static int
valid_triple(int op, int in, int out)
{
    return op >= 0 && op < CA_RED_NOPS && in >= 0 && in < CA_NTYPES && out >= 0 &&
           out < CA_NTYPES;
}

/* Advance a multi-index over dims [0, n) by one step (the last fastest), moving
 * up to three offsets by their strides. */
static void
step_index(int64_t *idx, const int64_t *shape, int n, int64_t *o0, const int64_t *s0,
           int64_t *o1, const int64_t *s1, int64_t *o2, const int64_t *s2)
{
    for (int k = n - 1; k >= 0; k--) {
        idx[k]++;
        *o0 += s0[k];
        *o1 += s1[k];
        *o2 += s2[k];
        if (idx[k] < shape[k]) {
            return;
        }
        *o0 -= idx[k] * s0[k];
        *o1 -= idx[k] * s1[k];
        *o2 -= idx[k] * s2[k];
        idx[k] = 0;
    }
}

/* Set idx (dims [0, n), the last fastest) to the multi-index of flat position
 * pos and the three offsets to its strides' sums. */
static void
unravel(int64_t pos, int64_t *idx, const int64_t *shape, int n, int64_t *o0,
        const int64_t *s0, int64_t *o1, const int64_t *s1, int64_t *o2,
        const int64_t *s2)
{
    *o0 = *o1 = *o2 = 0;
    for (int k = n - 1; k >= 0; k--) {
        idx[k] = shape[k] ? pos % shape[k] : 0;
        pos = shape[k] ? pos / shape[k] : 0;
        *o0 += idx[k] * s0[k];
        *o1 += idx[k] * s1[k];
        *o2 += idx[k] * s2[k];
    }
}

/* The work of one host reduction, split into tasks for host_threads.c. */
typedef struct {
    const ca_red_host_fns *f;
    const ca_reduce_desc *d;
    int64_t per;          /* outputs (runs), or line tiles (columns), per task */
    int64_t units;        /* outputs, or line tiles */
    int64_t tile, ntiles; /* columns: the tile width, tiles per line */
    int failed;           /* columns: a task's scratch allocation failed */
    void *scratch;        /* columns split by rows: the pieces' accumulators */
    /* one run cut in chunks: their bounds and accumulators */
    int64_t cut[CA_HR_CHUNKS + 1];
    ca_hacc cacc[CA_HR_CHUNKS];
} red_job;

/* One output at a time: its reduced elements as runs along the innermost reduced
 * dim (the innermost reduced stride is the smallest); outputs [o0, o1). */
static void
reduce_runs(const ca_red_host_fns *f, const ca_reduce_desc *d, int64_t o0, int64_t o1)
{
    const int nk = d->nkeep, nr = d->nred;
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? d->nred_elems / inner_n : 0;
    int64_t kidx[CA_MAX_DIMS] = { 0 };
    int64_t ioff, ooff, aoff;

    unravel(o0, kidx, d->keep_shape, nk, &ioff, d->keep_in, &ooff, d->keep_out, &aoff,
            d->keep_aux);
    for (int64_t o = o0; o < o1; o++) {
        ca_hacc a;
        ca_hctx c;
        memset(&c, 0, sizeof c);
        f->init(&a);
        if (f->ctx != NULL) {
            f->ctx(&c, d->aux + aoff);
        }
        int64_t ridx[CA_MAX_DIMS] = { 0 };
        int64_t roff = 0, z0 = 0, z1 = 0;
        for (int64_t q = 0; q < nouter; q++) {
            f->run(&a, d->in + ioff + roff, inner_n, inner_s, q * inner_n, &c);
            step_index(ridx, d->red_shape, nr - 1, &roff, d->red_in, &z0, d->red_in,
                       &z1, d->red_in);
        }
        f->store(d->out + ooff, &a, d->divisor, d->flags);
        step_index(kidx, d->keep_shape, nk, &ioff, d->keep_in, &ooff, d->keep_out,
                   &aoff, d->keep_aux);
    }
}

static void
runs_task(void *ctx, int64_t t)
{
    red_job *j = ctx;
    const int64_t o0 = t * j->per;
    const int64_t o1 = o0 + j->per < j->units ? o0 + j->per : j->units;
    reduce_runs(j->f, j->d, o0, o1);
}

/* Outputs adjacent along the innermost kept dim (whose input stride is smaller
 * than the innermost reduced one: a column sum), a tile at a time: each row of
 * the reduced elements is folded into a vector of accumulators, so the inner
 * loops run along memory (a row of up to 32 KiB of float32 read in order). An
 * output's value does not depend on the tiling. Units [u0, u1) of (line, tile). */
#define CA_HR_TILE          8192
#define CA_HR_ROW_SPLIT_MIN ((int64_t)1 << 23)
#define CA_HR_TILE_STACK    128

static int
reduce_columns(const red_job *j, int64_t u0, int64_t u1)
{
    const ca_red_host_fns *f = j->f;
    const ca_reduce_desc *d = j->d;
    const int nk = d->nkeep, nr = d->nred;
    const int64_t width = d->keep_shape[nk - 1];
    const int64_t ks = d->keep_in[nk - 1], os = d->keep_out[nk - 1];
    const int64_t as = d->keep_aux[nk - 1];
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? d->nred_elems / inner_n : 0;
    const int64_t tile = j->tile;
    int64_t kidx[CA_MAX_DIMS] = { 0 };
    int64_t ioff = 0, ooff = 0, aoff = 0;

    /* narrow tiles (small calls) on the stack, wide ones from the heap */
    ca_hacc acc_small[CA_HR_TILE_STACK];
    ca_hctx cv_small[CA_HR_TILE_STACK];
    const int heap = tile > CA_HR_TILE_STACK;
    ca_hacc *acc = heap ? malloc((size_t)tile * sizeof(ca_hacc)) : acc_small;
    ca_hctx *cv = heap ? calloc((size_t)tile, sizeof(ca_hctx)) : cv_small;
    if (acc == NULL || cv == NULL) {
        free(heap ? acc : NULL);
        free(heap ? cv : NULL);
        return CA_KERR_NOMEM;
    }
    if (!heap) {
        memset(cv_small, 0, sizeof cv_small);
    }
    for (int64_t u = u0; u < u1; u++) {
        const int64_t line = u / j->ntiles, t0 = (u % j->ntiles) * tile;
        unravel(line, kidx, d->keep_shape, nk - 1, &ioff, d->keep_in, &ooff,
                d->keep_out, &aoff, d->keep_aux);
        const int64_t nb = width - t0 < tile ? width - t0 : tile;
        const char *base = d->in + ioff + t0 * ks;
        f->vinit(acc, nb);
        if (f->ctx != NULL) {
            for (int64_t k = 0; k < nb; k++) {
                f->ctx(&cv[k], d->aux + aoff + (t0 + k) * as);
            }
        }
        int64_t ridx[CA_MAX_DIMS] = { 0 };
        int64_t roff = 0, z0 = 0, z1 = 0;
        for (int64_t q = 0; q < nouter; q++) {
            f->vrun(acc, base + roff, nb, ks, inner_n, inner_s, q * inner_n, cv);
            step_index(ridx, d->red_shape, nr - 1, &roff, d->red_in, &z0, d->red_in,
                       &z1, d->red_in);
        }
        f->vstore(d->out + ooff + t0 * os, os, acc, nb, d->divisor, d->flags);
    }
    if (heap) {
        free(acc);
        free(cv);
    }
    return 0;
}

/* Rows [r0, r1) of the reduced elements (row r: position r of the reduced dims
 * but the kept innermost one, in C order) folded into nb accumulators, for the
 * outputs whose inputs start at base. */
static void
fold_rows(const red_job *j, void *acc, const char *base, int64_t nb, int64_t r0,
          int64_t r1)
{
    const ca_reduce_desc *d = j->d;
    const int nk = d->nkeep, nr = d->nred;
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    int64_t ridx[CA_MAX_DIMS] = { 0 };
    int64_t roff, z0, z1;
    unravel(r0 / inner_n, ridx, d->red_shape, nr - 1, &roff, d->red_in, &z0, d->red_in,
            &z1, d->red_in);
    for (int64_t r = r0, i = r0 % inner_n; r < r1; i = 0) {
        const int64_t n = inner_n - i < r1 - r ? inner_n - i : r1 - r;
        j->f->vrun(acc, base + roff + i * inner_s, nb, d->keep_in[nk - 1], n, inner_s,
                   r, NULL);
        r += n;
        step_index(ridx, d->red_shape, nr - 1, &roff, d->red_in, &z0, d->red_in, &z1,
                   d->red_in);
    }
}

/* One line of at most CA_HR_TILE outputs (a 2-D column reduction) whose rows
 * are split in CA_HR_ROW_PIECES pieces, each folded into its own accumulators
 * by a task, then combined in order (order-free ops only: vcomb). Splitting the
 * outputs instead would leave each thread a narrow strip of every row. */
#define CA_HR_ROW_PIECES 4

static void
row_piece_task(void *ctx, int64_t t)
{
    red_job *j = ctx;
    const ca_reduce_desc *d = j->d;
    const int64_t nb = d->keep_shape[d->nkeep - 1], rows = d->nred_elems;
    char *acc = (char *)j->scratch + t * nb * (int64_t)sizeof(ca_hacc);
    int64_t r0, r1;
    ca_host_share(t, CA_HR_ROW_PIECES, rows, &r0, &r1);
    j->f->vinit(acc, nb);
    fold_rows(j, acc, d->in, nb, r0, r1);
}

static int
reduce_columns_by_rows(red_job *j)
{
    const ca_reduce_desc *d = j->d;
    const int64_t nb = d->keep_shape[d->nkeep - 1];
    const size_t one = (size_t)nb * sizeof(ca_hacc);
    j->scratch = malloc(one * CA_HR_ROW_PIECES);
    if (j->scratch == NULL) {
        return CA_KERR_NOMEM;
    }
    ca_host_parallel(CA_HR_ROW_PIECES, row_piece_task, j);
    char *acc = j->scratch;
    for (int t = 1; t < CA_HR_ROW_PIECES; t++) {
        j->f->vcomb(acc, acc + t * one, nb);
    }
    j->f->vstore(d->out, d->keep_out[d->nkeep - 1], acc, nb, d->divisor, d->flags);
    free(j->scratch);
    return 0;
}

/* Whether a column reduction is one line whose rows are worth splitting between
 * threads: an order-free op without an aux operand, at least
 * CA_HR_ROW_SPLIT_MIN bytes read. */
static int
rows_worth_splitting(const red_job *j, int64_t width, int64_t nlines, int64_t es)
{
    const ca_reduce_desc *d = j->d;
    return j->f->vcomb != NULL && j->f->ctx == NULL && nlines == 1 &&
           width <= CA_HR_TILE && ca_host_threads() > 1 &&
           d->nred_elems >= 8 * CA_HR_ROW_PIECES &&
           d->nred_elems * width * es >= CA_HR_ROW_SPLIT_MIN;
}

static void
columns_task(void *ctx, int64_t t)
{
    red_job *j = ctx;
    const int64_t u0 = t * j->per;
    const int64_t u1 = u0 + j->per < j->units ? u0 + j->per : j->units;
    if (reduce_columns(j, u0, u1) != 0) {
        __atomic_store_n(&j->failed, 1, __ATOMIC_RELAXED);
    }
}

/* One output of one long run, on several threads: the run cut where the pairwise
 * sum splits it (h = n/2 rounded down to 8, host_reduce.h), CA_HR_CHUNKS pieces,
 * whose accumulators combine in the same tree, so float sums are exactly the
 * one-thread sum; every other op but products is exact in any order. */
static void
chunk_task(void *ctx, int64_t t)
{
    red_job *j = ctx;
    const ca_reduce_desc *d = j->d;
    const int64_t s = d->red_in[0];
    ca_hctx c;
    memset(&c, 0, sizeof c);
    if (j->f->ctx != NULL) {
        j->f->ctx(&c, d->aux);
    }
    j->f->init(&j->cacc[t]);
    j->f->run(&j->cacc[t], d->in + j->cut[t] * s, j->cut[t + 1] - j->cut[t], s,
              j->cut[t], &c);
}

static void
cut_pairwise(int64_t *cut, int64_t lo, int64_t n, int k, int depth)
{
    if (depth == 0) {
        cut[k] = lo;
        return;
    }
    int64_t h = n / 2;
    h -= h % 8;
    cut_pairwise(cut, lo, h, k, depth - 1);
    cut_pairwise(cut, lo + h, n - h, k + (1 << (depth - 1)), depth - 1);
}

static void
reduce_chunks(red_job *j)
{
    const ca_reduce_desc *d = j->d;
    const int64_t n = d->red_shape[0];
    cut_pairwise(j->cut, 0, n, 0, CA_HR_CHUNK_DEPTH);
    j->cut[CA_HR_CHUNKS] = n;
    ca_host_parallel(CA_HR_CHUNKS, chunk_task, j);
    for (int w = 1; w < CA_HR_CHUNKS; w *= 2) {
        for (int k = 0; k + w < CA_HR_CHUNKS; k += 2 * w) {
            j->f->comb(&j->cacc[k], &j->cacc[k + w]);
        }
    }
    ca_hacc a;
    j->f->init(&a);
    j->f->comb(&a, &j->cacc[0]);
    j->f->store(d->out, &a, d->divisor, d->flags);
}

static int64_t
iabs64(int64_t v)
{
    return v < 0 ? -v : v;
}

static int64_t
cdiv(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* Tasks for `units` pieces of `work` elements in all: at least CA_HOST_TASK_MIN
 * elements each, a few per thread. */
static int64_t
per_task(int64_t units, int64_t work)
{
    const int64_t by_size = work / CA_HOST_TASK_MIN;
    int64_t ntasks = 4 * (int64_t)ca_host_threads();
    ntasks = ntasks < by_size ? ntasks : by_size;
    ntasks = ntasks < units ? ntasks : units;
    return ntasks < 1 ? units : cdiv(units, ntasks);
}

/* The work of `work` elements of `es` bytes, `span` bytes apart, in elements'
 * worth of the memory the walk brings in, for the thread threshold
 * (CA_HOST_PAR_MIN) and the task sizes: a stride of a cache line or more costs
 * a line an element (a[::32].argmax() of float32 reads 64 MiB for 2^19
 * elements, as a contiguous 2^24 would), a contiguous run its element count
 * (measured: 32 MiB of int64 columns, mostly in the 32 MiB L3 between calls,
 * ran 0.7x on two threads). */
static int64_t
spread_worth(int64_t work, int64_t span, int64_t es)
{
    const int64_t per = span < 64 ? span : 64;
    return per > es ? work * (per / es) : work;
}

int
ca_host_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    if (!valid_triple(op, in_dtype, out_dtype) ||
        ca_red_host[op][in_dtype][out_dtype].run == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    red_job j;
    memset(&j, 0, sizeof j);
    j.f = &ca_red_host[op][in_dtype][out_dtype];
    j.d = d;
    const int nk = d->nkeep, nr = d->nred;
    const int64_t work = d->nout * d->nred_elems;
    const int64_t es = ca_dtype_size[in_dtype];
    const int64_t inner_s = nr ? iabs64(d->red_in[nr - 1]) : es;
    if (nk > 0 && d->keep_shape[nk - 1] > 1 &&
        (nr == 0 || iabs64(d->keep_in[nk - 1]) < inner_s)) {
        const int threaded = work >= CA_HOST_PAR_MIN && ca_host_threads() > 1;
        const int64_t width = d->keep_shape[nk - 1], nlines = d->nout / width;
        if (rows_worth_splitting(&j, width, nlines, es)) {
            return reduce_columns_by_rows(&j);
        }
        j.tile = width < CA_HR_TILE ? width : CA_HR_TILE;
        if (threaded && nlines < 2 * ca_host_threads()) {
            /* few lines: a tile per thread (wide tiles keep the row reads long) */
            const int64_t want = cdiv(width, ca_host_threads());
            j.tile = want < j.tile ? (want < 256 ? 256 : want) : j.tile;
        }
        j.ntiles = cdiv(width, j.tile);
        j.units = nlines * j.ntiles;
        j.per = threaded ? per_task(j.units, work) : j.units;
        ca_host_parallel(cdiv(j.units, j.per), columns_task, &j);
        return j.failed ? CA_KERR_NOMEM : 0;
    }
    const int64_t worth = spread_worth(work, inner_s, es);
    const int threaded = worth >= CA_HOST_PAR_MIN && ca_host_threads() > 1;
    if (threaded && d->nout == 1 && nr == 1 && j.f->comb != NULL) {
        reduce_chunks(&j);
        return 0;
    }
    j.units = d->nout;
    j.per = threaded ? per_task(j.units, worth) : j.units;
    ca_host_parallel(cdiv(j.units, j.per), runs_task, &j);
    return 0;
}

int
ca_host_scan(int op, ca_scan_desc *d, int in_dtype, int out_dtype)
{
    if (!valid_triple(op, in_dtype, out_dtype) ||
        ca_red_host_scan[op][in_dtype][out_dtype] == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    const ca_red_host_scan_fn f = ca_red_host_scan[op][in_dtype][out_dtype];
    int64_t idx[CA_MAX_DIMS] = { 0 };
    int64_t ioff = 0, ooff = 0;
    for (int64_t r = 0; r < d->nrows; r++) {
        f(d->in + ioff, d->len, d->in_stride, d->out + ooff, d->out_stride);
        for (int k = d->nbatch - 1; k >= 0; k--) {
            idx[k]++;
            ioff += d->batch_in[k];
            ooff += d->batch_out[k];
            if (idx[k] < d->batch_shape[k]) {
                break;
            }
            ioff -= idx[k] * d->batch_in[k];
            ooff -= idx[k] * d->batch_out[k];
            idx[k] = 0;
        }
    }
    return 0;
}

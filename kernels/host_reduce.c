/*
 * host_reduce.c: the reductions and scans of the cpu device.
 *
 * Each output walks its reduced elements as runs along the innermost reduced
 * dim; the per-run loops, one per (op, input, output) of kernels/reductions.def,
 * are generated (build/generated/red_host.c, host_reduce.h) from the helpers of
 * kernels/reduce_math.h, the same math the GPU kernels use. Only the walk is
 * here.
 */
#include <stdlib.h>
#include <string.h>

#include "host_reduce.h"
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

/* One output at a time: its reduced elements as runs along the innermost reduced
 * dim (the innermost reduced stride is the smallest). */
static void
reduce_runs(const ca_red_host_fns *f, const ca_reduce_desc *d)
{
    const int nk = d->nkeep, nr = d->nred;
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? d->nred_elems / inner_n : 0;
    int64_t kidx[CA_MAX_DIMS] = { 0 };
    int64_t ioff = 0, ooff = 0, aoff = 0;

    for (int64_t o = 0; o < d->nout; o++) {
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

/* Outputs adjacent along the innermost kept dim (whose input stride is smaller
 * than the innermost reduced one: a column sum) CA_HR_TILE at a time: each row of
 * the reduced elements is folded into a vector of accumulators, so the inner
 * loops run along memory (a row of up to 32 KiB of float32 read in order). */
#define CA_HR_TILE       8192
#define CA_HR_TILE_STACK 128

static int
reduce_columns(const ca_red_host_fns *f, const ca_reduce_desc *d)
{
    const int nk = d->nkeep, nr = d->nred;
    const int64_t width = d->keep_shape[nk - 1];
    const int64_t ks = d->keep_in[nk - 1], os = d->keep_out[nk - 1];
    const int64_t as = d->keep_aux[nk - 1];
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? d->nred_elems / inner_n : 0;
    const int64_t nlines = d->nout / width;
    const int64_t tile = width < CA_HR_TILE ? width : CA_HR_TILE;
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
    for (int64_t line = 0; line < nlines; line++) {
        for (int64_t t0 = 0; t0 < width; t0 += tile) {
            const int64_t nb = width - t0 < tile ? width - t0 : tile;
            const char *base = d->in + ioff + t0 * ks;
            f->vinit(acc, nb);
            if (f->ctx != NULL) {
                for (int64_t j = 0; j < nb; j++) {
                    f->ctx(&cv[j], d->aux + aoff + (t0 + j) * as);
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
        step_index(kidx, d->keep_shape, nk - 1, &ioff, d->keep_in, &ooff, d->keep_out,
                   &aoff, d->keep_aux);
    }
    if (heap) {
        free(acc);
        free(cv);
    }
    return 0;
}

static int64_t
iabs64(int64_t v)
{
    return v < 0 ? -v : v;
}

int
ca_host_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    if (!valid_triple(op, in_dtype, out_dtype) ||
        ca_red_host[op][in_dtype][out_dtype].run == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    const ca_red_host_fns *f = &ca_red_host[op][in_dtype][out_dtype];
    const int nk = d->nkeep, nr = d->nred;
    if (nk > 0 && d->keep_shape[nk - 1] > 1 &&
        (nr == 0 || iabs64(d->keep_in[nk - 1]) < iabs64(d->red_in[nr - 1]))) {
        return reduce_columns(f, d);
    }
    reduce_runs(f, d);
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

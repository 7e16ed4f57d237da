/*
 * host_reduce.c: the reductions and scans of the cpu device.
 *
 * Each output walks its reduced elements as runs along the innermost reduced
 * dim; the per-run loops, one per (op, input, output) of kernels/reductions.def,
 * are generated (build/generated/red_host.c, host_reduce.h) from the helpers of
 * kernels/reduce_math.h, the same math the GPU kernels use. Only the walk is
 * here.
 */
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

int
ca_host_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    if (!valid_triple(op, in_dtype, out_dtype) ||
        ca_red_host[op][in_dtype][out_dtype].run == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    const ca_red_host_fns *f = &ca_red_host[op][in_dtype][out_dtype];
    const int nk = d->nkeep, nr = d->nred;
    const int64_t R = d->nred_elems;
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? R / inner_n : 0;
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
        int64_t roff = 0;
        for (int64_t q = 0; q < nouter; q++) {
            f->run(&a, d->in + ioff + roff, inner_n, inner_s, q * inner_n, &c);
            for (int k = nr - 2; k >= 0; k--) {
                ridx[k]++;
                roff += d->red_in[k];
                if (ridx[k] < d->red_shape[k]) {
                    break;
                }
                roff -= ridx[k] * d->red_in[k];
                ridx[k] = 0;
            }
        }
        f->store(d->out + ooff, &a, d->divisor, d->flags);
        for (int k = nk - 1; k >= 0; k--) {
            kidx[k]++;
            ioff += d->keep_in[k];
            ooff += d->keep_out[k];
            aoff += d->keep_aux[k];
            if (kidx[k] < d->keep_shape[k]) {
                break;
            }
            ioff -= kidx[k] * d->keep_in[k];
            ooff -= kidx[k] * d->keep_out[k];
            aoff -= kidx[k] * d->keep_aux[k];
            kidx[k] = 0;
        }
    }
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

/*
 * dispatch_reduce.c: the reduction and scan entry points of kernels.h. Merges
 * dimensions (shared by both devices), then hands the work to the host loops
 * (host_reduce.c) or the CUDA kernels (reduce.cu).
 */
#include <stdlib.h>
#include <string.h>

#include "dispatch.h"
#include "dim_merge.h"
#include "reduce_plan.h"

/* ---- which triples exist --------------------------------------------------------- */
static int
valid_codes(int op, int in, int out)
{
    return op >= 0 && op < CA_RED_NOPS && in >= 0 && in < CA_NTYPES && out >= 0 &&
           out < CA_NTYPES;
}

int
ca_reduce_supported(int op, int in_dtype, int out_dtype)
{
    return valid_codes(op, in_dtype, out_dtype) && ca_red_has[op][in_dtype][out_dtype];
}

int
ca_scan_supported(int op, int in_dtype, int out_dtype)
{
    return valid_codes(op, in_dtype, out_dtype) &&
           ca_red_scan_has[op][in_dtype][out_dtype];
}

int
ca_reduce_aux_op(int op)
{
    return op >= 0 && op < CA_RED_NOPS ? ca_red_aux_op[op] : -1;
}

int
ca_reduce_aux_dtype(int op, int in_dtype)
{
    if (op < 0 || op >= CA_RED_NOPS || in_dtype < 0 || in_dtype >= CA_NTYPES) {
        return -1;
    }
    return ca_red_aux_dtype[op][in_dtype];
}

/* ---- merging dimensions ---------------------------------------------------------- */
static int64_t
iabs64(int64_t v)
{
    return v < 0 ? -v : v;
}

/* Up to 3 stride arrays that travel with one shape array. */
typedef struct {
    int n;
    int nstr;
    int64_t *shape;
    int64_t *str[3];
} dimset;

static void
dims_drop_ones(dimset *s)
{
    s->n = ca_drop_unit_dims(s->n, s->shape, s->nstr, s->str);
}

/* Stable insertion sort, largest |first stride| first (the innermost dim is the
 * one with the smallest input stride). n <= CA_MAX_DIMS. */
static void
dims_sort(dimset *s)
{
    for (int i = 1; i < s->n; i++) {
        int64_t sh = s->shape[i];
        int64_t st[3] = { 0, 0, 0 };
        for (int j = 0; j < s->nstr; j++) {
            st[j] = s->str[j][i];
        }
        int k = i - 1;
        while (k >= 0 && iabs64(s->str[0][k]) < iabs64(st[0])) {
            s->shape[k + 1] = s->shape[k];
            for (int j = 0; j < s->nstr; j++) {
                s->str[j][k + 1] = s->str[j][k];
            }
            k--;
        }
        s->shape[k + 1] = sh;
        for (int j = 0; j < s->nstr; j++) {
            s->str[j][k + 1] = st[j];
        }
    }
}

/* Merge dim i (outer) into dim i+1 (inner) wherever every stride array allows. */
static void
dims_merge(dimset *s)
{
    s->n = ca_merge_dims(s->n, s->shape, s->nstr, s->str);
}

void
ca_reduce_merge(ca_reduce_desc *d, int keep_order)
{
    int64_t nout = 1, nred = 1;
    int zero_keep = 0;
    for (int i = 0; i < d->nkeep; i++) {
        zero_keep |= d->keep_shape[i] == 0;
        nout *= d->keep_shape[i];
    }
    for (int i = 0; i < d->nred; i++) {
        nred *= d->red_shape[i];
    }
    d->nout = zero_keep ? 0 : nout;
    d->nred_elems = nred;

    dimset k = { d->nkeep, 3, d->keep_shape, { d->keep_in, d->keep_out, d->keep_aux } };
    dims_drop_ones(&k);
    dims_sort(&k);
    dims_merge(&k);
    d->nkeep = k.n;

    dimset r = { d->nred, 1, d->red_shape, { d->red_in, NULL, NULL } };
    dims_drop_ones(&r);
    if (!keep_order) {
        dims_sort(&r);
    }
    dims_merge(&r);
    d->nred = r.n;
}

void
ca_scan_merge(ca_scan_desc *d)
{
    int64_t rows = 1;
    for (int i = 0; i < d->nbatch; i++) {
        rows *= d->batch_shape[i];
    }
    d->nrows = rows;
    dimset b = { d->nbatch, 2, d->batch_shape, { d->batch_in, d->batch_out, NULL } };
    dims_drop_ones(&b);
    dims_sort(&b);
    dims_merge(&b);
    d->nbatch = b.n;
}

/* ---- entry points ------------------------------------------------------------------ */
int
ca_reduce_plan(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    if (!ca_reduce_supported(op, in_dtype, out_dtype)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nkeep < 0 || d->nkeep > CA_MAX_DIMS || d->nred < 0 ||
        d->nred > CA_MAX_DIMS) {
        return CA_KERR_UNSUPPORTED;
    }
    ca_reduce_merge(d, ca_red_positional[op]);
    d->strategy = CA_RS_HOST;
    d->group = 1;
    d->splits = 1;
    d->chunk = d->nred_elems;
    d->workspace_bytes = 0;
    d->workspace = NULL;
    d->tickets = NULL;
    if (device == CA_CPU || d->nout == 0) {
        return 0;
    }
    return CA_GPU_CALL(ca_cuda_reduce_plan(device, op, d, in_dtype, out_dtype));
}

int
ca_reduce(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
          ca_stream_t stream)
{
    if (!ca_reduce_supported(op, in_dtype, out_dtype)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nout == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        d->mirror = NULL;
        return ca_host_reduce(op, d, in_dtype, out_dtype);
    }
    if (d->strategy != CA_RS_ROW || d->nout != 1) {
        d->mirror = NULL; /* only the row kernels write the mirror */
    }
    return CA_GPU_CALL(ca_cuda_reduce(op, d, in_dtype, out_dtype, stream));
}

int
ca_scan_plan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype)
{
    if (!ca_scan_supported(op, in_dtype, out_dtype)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nbatch < 0 || d->nbatch > CA_MAX_DIMS || d->len < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    ca_scan_merge(d);
    d->strategy = CA_SS_HOST;
    d->chunks = 1;
    d->chunk_len = d->len;
    d->workspace_bytes = 0;
    d->workspace = NULL;
    if (device == CA_CPU || d->nrows == 0 || d->len == 0) {
        return 0;
    }
    return CA_GPU_CALL(ca_cuda_scan_plan(device, op, d, in_dtype, out_dtype));
}

int
ca_scan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype,
        ca_stream_t stream)
{
    if (!ca_scan_supported(op, in_dtype, out_dtype)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nrows == 0 || d->len == 0) {
        return 0;
    }
    return CA_DISPATCH(device, ca_host_scan(op, d, in_dtype, out_dtype),
                       ca_cuda_scan(op, d, in_dtype, out_dtype, stream));
}

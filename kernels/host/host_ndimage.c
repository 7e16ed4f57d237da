/*
 * host_ndimage.c: the ca_ndi_* launchers (kernels.h) on the cpu device, over
 * ndimage_impl.h's per-point and per-line math (the GPU's is ndimage.cu; the
 * dispatch is dispatch_ndimage.c). Filters and interpolation run in pieces on
 * the thread pool; the label union-find is one sequential pass.
 */
#include <stdlib.h>

#include "host_threads.h"
#include "ndimage_impl.h"

#define CA_NDI_PIECE ((int64_t)1 << 14) /* points per pool task */

/* The pool runs many tasks only for big calls (each point costs nk taps). */
static int64_t
ndi_tasks(int64_t n, int64_t work)
{
    return work < CA_HOST_PAR_MIN_SLOW ? 1 : (n + CA_NDI_PIECE - 1) / CA_NDI_PIECE;
}

/* ---- filters ------------------------------------------------------------------ */

typedef struct {
    const ca_ndi_filter_args *a;
    const double *in, *w;
    double *out;
    const int64_t *offs, *loffs;
    int failed;
} filter_job;

static void
filter_task(void *ctx, int64_t i0, int64_t i1)
{
    filter_job *j = (filter_job *)ctx;
    double *buf = NULL;
    if (j->a->op == CA_NDI_RANK && (buf = malloc((size_t)j->a->nk * 8)) == NULL) {
        j->failed = 1;
        return;
    }
    for (int64_t i = i0; i < i1; i++) {
        j->out[i] = ca_ndi_filter_point(j->a, j->in, j->offs, j->loffs, j->w, i, buf);
    }
    free(buf);
}

int
ca_ndi_filter_host(const ca_ndi_filter_args *a, const double *in, double *out,
                   const int64_t *offs, const int64_t *loffs, const double *w)
{
    int64_t n = 1;
    for (int d = 0; d < a->ndim; d++) {
        n *= a->shape[d];
    }
    filter_job j = { a, in, w, out, offs, loffs, 0 };
    ca_host_parallel_shares(n, ndi_tasks(n, n * a->nk), filter_task, &j);
    return j.failed ? CA_KERR_NOMEM : 0;
}

/* ---- spline prefilter ------------------------------------------------------------ */

int
ca_ndi_spline_host(double *c, int64_t outer, int64_t n, int64_t inner, int order,
                   int mode)
{
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t k = 0; k < inner; k++) {
            ca_ndi_spline_line(c + o * n * inner + k, n, inner, order, mode);
        }
    }
    return 0;
}

/* ---- interpolation --------------------------------------------------------------- */

typedef struct {
    const ca_ndi_map_args *a;
    const double *in, *coords, *matrix;
    double *out;
} map_job;

static void
map_task(void *ctx, int64_t i0, int64_t i1)
{
    map_job *j = (map_job *)ctx;
    double x[CA_MAX_DIMS];
    for (int64_t i = i0; i < i1; i++) {
        ca_ndi_map_coords(j->a, j->coords, j->matrix, i, x);
        j->out[i] = ca_ndi_map_point(j->a, j->in, x);
    }
}

int
ca_ndi_map_host(const ca_ndi_map_args *a, const double *in, const double *coords,
                const double *matrix, double *out)
{
    int64_t taps = 1;
    for (int d = 0; d < a->ndim; d++) {
        taps *= a->order + 1;
    }
    map_job j = { a, in, coords, matrix, out };
    ca_host_parallel_shares(a->nout, ndi_tasks(a->nout, a->nout * taps), map_task, &j);
    return 0;
}

/* ---- labels: union-find, the smaller root wins (roots are first points) ---------- */

/* The root of i, halving the path on the way (one thread: no races). */
static int64_t
find_halving(int64_t *p, int64_t i)
{
    while (p[i] != i) {
        p[i] = p[p[i]];
        i = p[i];
    }
    return i;
}

int
ca_ndi_label_host(const ca_ndi_shape *s, const uint8_t *mask, const int64_t *offs,
                  int64_t nk, int64_t *p)
{
    int64_t n = 1, c[CA_MAX_DIMS];
    for (int d = 0; d < s->ndim; d++) {
        n *= s->shape[d];
    }
    for (int64_t i = 0; i < n; i++) {
        p[i] = mask[i] ? i : -1;
        if (!mask[i]) {
            continue;
        }
        ca_ndi_unravel(s, i, c);
        for (int64_t k = 0; k < nk; k++) {
            int64_t j = ca_ndi_neighbour(s, offs, k, c);
            if (j < 0 || !mask[j]) {
                continue;
            }
            int64_t a = find_halving(p, i), b = find_halving(p, j);
            if (a != b) {
                p[a > b ? a : b] = a < b ? a : b;
            }
        }
    }
    for (int64_t i = 0; i < n; i++) {
        if (p[i] >= 0) {
            p[i] = p[p[i]]; /* earlier points are already final */
        }
    }
    return 0;
}

/* ---- distance transform pass --------------------------------------------------- */

int
ca_ndi_edt_host(double *f, int64_t outer, int64_t n, int64_t inner, double h,
                int64_t *arg, double *scratch)
{
    int64_t *v = (int64_t *)scratch;
    double *z = scratch + n, *g = scratch + 2 * n + 1;
    for (int64_t o = 0; o < outer; o++) {
        for (int64_t k = 0; k < inner; k++) {
            int64_t base = o * n * inner + k;
            ca_ndi_edt_line(f + base, n, inner, h, arg ? arg + base : NULL, v, z, g);
        }
    }
    return 0;
}

/*
 * dispatch_elementwise.c: ca_elementwise, the one entry point of the element-wise
 * loops: coalesce the operands, then run the loop's host function (cpu device)
 * or launch its GPU kernel, contiguous when every array operand is one aligned
 * dense run, strided otherwise. The hot path is a table lookup and one launch.
 */
#include <string.h>

#include "dispatch.h"
#include "ew_internal.h"
#include "ew_table.h"
#include "host_reverse.h"
#include "host_threads.h"

/* Natural alignment of each dtype's storage type (the struct alignments of
 * scalar.h: complex aligns as its parts). */
static const int ew_align[CA_NTYPES] = { 1, 1, 1, 2, 2, 4, 4, 8, 8,
                                         2, 4, 8, 4, 8, 2, 1, 1 };

int
ca_ew_aligned(const ca_strided *s, int op, int dtype)
{
    const int64_t a = ew_align[dtype];
    if ((uintptr_t)s->data[op] % (uintptr_t)a) {
        return 0;
    }
    for (int d = 0; d < s->ndim; d++) {
        if (s->shape[d] > 1 && s->strides[op][d] % a) {
            return 0;
        }
    }
    return 1;
}

/* ---- host ------------------------------------------------------------------ */

/* Large calls on the thread pool: the outermost dim (or the one dim) cut in
 * pieces of whole rows; every element's value is the same however it is cut. */
typedef struct {
    ca_ew_host_fn fn;
    ca_strided s; /* the dims of one piece (the outermost set per task) */
    char *ptr[CA_MAX_OPERANDS];
    const int *sz;      /* each operand's item size */
    int64_t outer, per; /* the outermost dim's length, its rows per task */
} ew_job;

static int host_run_serial(ca_ew_host_fn fn, ca_strided *s, char **ptr, const int *sz);

/* ---- runs that walk backwards (a[::-1] + 1) ------------------------------------ */

/* The loops' fast branches want dense forward runs; an operand whose run is
 * dense but backwards (stride -itemsize) goes through a buffer instead, a chunk
 * at a time: an input is copied into it forwards, an output is computed into it
 * and copied back reversed. 2^22 float32 a[::-1] + 0: 3.0 ms on the scalar
 * strided branch, NumPy 1.4-2.1. */
#define CA_EW_REV_CHUNK 512

/* fn over one run of n elements (strides st) where the operands in `back` (a bit
 * each) walk backwards: a dense stride -itemsize (host_reverse.h). */
static void
call_through_buffers(ca_ew_host_fn fn, char *const *ptr, const int64_t *st, int64_t n,
                     const int *sz, int nops, unsigned back)
{
    _Alignas(64) char buf[CA_MAX_OPERANDS][CA_EW_REV_CHUNK * 16];
    char *p[CA_MAX_OPERANDS];
    int64_t s[CA_MAX_OPERANDS];
    for (int k = 0; k < nops; k++) {
        p[k] = back >> k & 1u ? buf[k] : ptr[k];
        s[k] = back >> k & 1u ? sz[k] : st[k];
    }
    for (int64_t i0 = 0; i0 < n; i0 += CA_EW_REV_CHUNK) {
        const int64_t m = n - i0 < CA_EW_REV_CHUNK ? n - i0 : CA_EW_REV_CHUNK;
        for (int k = 0; k < nops; k++) {
            if (!(back >> k & 1u)) {
                p[k] = ptr[k] + i0 * st[k];
            }
            else if (k > 0) {
                ca_reverse(buf[k], ptr[k] + i0 * st[k], m, sz[k], 1);
            }
        }
        fn(p, s, m);
        if (back & 1u) {
            ca_reverse(ptr[0] + i0 * st[0], buf[0], m, sz[0], -1);
        }
    }
}

/* One inner run: straight to fn unless an operand walks it backwards. */
static void
call_run(ca_ew_host_fn fn, char *const *ptr, const int64_t *st, int64_t n,
         const int *sz, int nops)
{
    unsigned back = 0;
    if (sz != NULL && n >= 16) {
        for (int k = 0; k < nops; k++) {
            back |= (unsigned)(st[k] == -(int64_t)sz[k] && ca_reverse_size(sz[k])) << k;
        }
    }
    if (back) {
        call_through_buffers(fn, ptr, st, n, sz, nops, back);
        return;
    }
    fn(ptr, st, n);
}

/* The sizes from which a call threads, and each task's least share: a loop of
 * the slow class (ops.def's `slow` flag) pays for the hand-off far sooner. */
typedef struct {
    int64_t par_min, task_min;
} ew_split;

static void
ew_task(void *ctx, int64_t t)
{
    const ew_job *j = ctx;
    ca_strided s = j->s;
    char *ptr[CA_MAX_OPERANDS];
    const int64_t r0 = t * j->per;
    s.shape[0] = r0 + j->per < j->outer ? j->per : j->outer - r0;
    for (int k = 0; k < s.nops; k++) {
        ptr[k] = j->ptr[k] + r0 * s.strides[k][0];
    }
    host_run_serial(j->fn, &s, ptr, j->sz);
}

static int
host_run(ca_ew_host_fn fn, ca_strided *s, char **ptr, const int *sz, ew_split split)
{
    int64_t total = 1;
    for (int d = 0; d < s->ndim; d++) {
        total *= s->shape[d];
    }
    if (s->ndim == 0 || total < split.par_min || ca_host_threads() <= 1) {
        return host_run_serial(fn, s, ptr, sz);
    }
    ew_job j;
    j.fn = fn;
    j.sz = sz;
    j.s = *s;
    j.outer = s->shape[0];
    for (int k = 0; k < s->nops; k++) {
        j.ptr[k] = ptr[k];
    }
    /* pieces of >= split.task_min elements, a few per thread */
    const int64_t row = total / j.outer;
    int64_t ntasks = 4 * (int64_t)ca_host_threads();
    if (ntasks > total / split.task_min) {
        ntasks = total / split.task_min;
    }
    if (ntasks > j.outer) {
        ntasks = j.outer;
    }
    if (ntasks <= 1 || row <= 0) {
        return host_run_serial(fn, s, ptr, sz);
    }
    j.per = (j.outer + ntasks - 1) / ntasks;
    ca_host_parallel((j.outer + j.per - 1) / j.per, ew_task, &j);
    return 0;
}

static int
host_run_serial(ca_ew_host_fn fn, ca_strided *s, char **ptr, const int *sz)
{
    const int nops = s->nops;
    const int nd = s->ndim;
    int64_t inner_st[CA_MAX_OPERANDS];
    int64_t idx[CA_MAX_DIMS];

    if (nd == 0) {
        for (int k = 0; k < nops; k++) {
            inner_st[k] = 0;
        }
        fn(ptr, inner_st, 1);
        return 0;
    }
    for (int k = 0; k < nops; k++) {
        inner_st[k] = s->strides[k][nd - 1];
    }
    const int64_t inner = s->shape[nd - 1];
    for (int d = 0; d < nd; d++) {
        idx[d] = 0;
    }
    /* An odometer over the outer dimensions; ptr follows it. */
    for (;;) {
        call_run(fn, ptr, inner_st, inner, sz, nops);
        int d = nd - 2;
        for (; d >= 0; d--) {
            for (int k = 0; k < nops; k++) {
                ptr[k] += s->strides[k][d];
            }
            if (++idx[d] < s->shape[d]) {
                break;
            }
            for (int k = 0; k < nops; k++) {
                ptr[k] -= s->strides[k][d] * s->shape[d];
            }
            idx[d] = 0;
        }
        if (d < 0) {
            return 0;
        }
    }
}

int
ca_ew_host_any_negative(const ca_strided *s0, int op, int dtype)
{
    ca_strided s = *s0;
    char *p = s.data[op];
    int64_t n = 1, idx[CA_MAX_DIMS];
    for (int d = 0; d < s.ndim; d++) {
        n *= s.shape[d];
        idx[d] = 0;
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t off = 0;
        for (int d = 0; d < s.ndim; d++) {
            off += idx[d] * s.strides[op][d];
        }
        switch (dtype) {
#define CA_P_NEG(code, T)                                                              \
    case code: {                                                                       \
        T v;                                                                           \
        memcpy(&v, p + off, sizeof v);                                                 \
        if (v < 0) {                                                                   \
            return 1;                                                                  \
        }                                                                              \
        break;                                                                         \
    }
            CA_P_NEG(CA_INT8, int8_t)
            CA_P_NEG(CA_INT16, int16_t)
            CA_P_NEG(CA_INT32, int32_t)
            CA_P_NEG(CA_INT64, int64_t)
#undef CA_P_NEG
        default: return 0;
        }
        for (int d = s.ndim - 1; d >= 0; d--) {
            if (++idx[d] < s.shape[d]) {
                break;
            }
            idx[d] = 0;
        }
    }
    return 0;
}

/* ---- GPU ------------------------------------------------------------------- */
#if CA_HAVE_CUDA

static int
operand_dtype(const ca_ew_loop *L, int nin, int k)
{
    return k == 0 ? L->types[nin] : L->types[k - 1];
}

/* Whether p (two dims, innermost first) suits the row-vector kernel: the rows
 * hold whole vectors of the loop's width, at least a warp of them; the output's
 * rows are dense; every array input's rows are dense or broadcast (inner stride
 * 0); the dense ones start on vector boundaries, row after row. */
static int
rowvec_layout(const ca_ew_loop *L, const ca_ew_sparams *p, unsigned mask)
{
    const int nin = ca_ew_ops[L->op].nin;
    const int64_t e = L->vec;
    if (p->ndim != 2 || e < 2 || p->shape[0] % e || p->shape[0] / e < 32) {
        return 0;
    }
    for (int k = 0; k <= nin; k++) {
        if (k > 0 && (mask >> (k - 1) & 1u)) {
            continue;
        }
        const int64_t size = ca_dtype_size[operand_dtype(L, nin, k)];
        if (k > 0 && p->strides[k][0] == 0) {
            continue; /* broadcast along the row: one element per row */
        }
        if (p->strides[k][0] != size || p->strides[k][1] % (size * e) ||
            (uintptr_t)p->c.ptr[k] % (uintptr_t)(size * e)) {
            return 0;
        }
    }
    return 1;
}

/* One strided launch over dims [d0, ndim) of s, the outermost of them cut to
 * `outer` entries, at base pointers ptr; n elements in all (< 2^31). */
static int
gpu_strided_launch(const ca_ew_loop *L, ca_ew_gpu_fn fn, ca_ew_sparams *p,
                   const ca_strided *s, int d0, int64_t outer, char *const *ptr,
                   unsigned mask, int64_t n, ca_stream_t stream)
{
    const int nd = s->ndim - d0;
    p->ndim = nd;
    for (int j = 0; j < nd; j++) {
        /* the kernel takes the innermost dimension first */
        const int d = s->ndim - 1 - j;
        p->shape[j] = (uint32_t)(d == d0 ? outer : s->shape[d]);
        for (int k = 0; k < s->nops; k++) {
            p->strides[k][j] = s->strides[k][d];
        }
    }
    for (int k = 0; k < s->nops; k++) {
        p->c.ptr[k] = (k > 0 && (mask >> (k - 1) & 1u)) ? NULL : ptr[k];
    }
    p->c.n = (uint32_t)n;
    return fn(p, rowvec_layout(L, p, mask) ? CA_EW_ROWVEC : 0, stream);
}

/* Dims [d0, ndim) of s at ptr: one launch when they fit the kernel (at most
 * CA_EW_KDIMS dimensions, fewer than 2^31 elements), else split the outermost
 * dimension on the host. */
static int
gpu_strided(const ca_ew_loop *L, ca_ew_gpu_fn fn, ca_ew_sparams *p, const ca_strided *s,
            int d0, char *const *ptr, unsigned mask, ca_stream_t stream)
{
    const int nd = s->ndim - d0;
    int64_t inner = 1;
    char *q[CA_MAX_OPERANDS];
    int rc;

    for (int d = d0 + 1; d < s->ndim; d++) {
        inner *= s->shape[d];
    }
    const int64_t outer = s->shape[d0];
    if (nd <= CA_EW_KDIMS && inner <= CA_EW_MAX_N) {
        /* whole rows of the outer dimension per launch */
        const int64_t rows = CA_EW_MAX_N / inner;
        for (int64_t r0 = 0; r0 < outer; r0 += rows) {
            const int64_t cnt = outer - r0 < rows ? outer - r0 : rows;
            for (int k = 0; k < s->nops; k++) {
                q[k] = ptr[k] + r0 * s->strides[k][d0];
            }
            rc = gpu_strided_launch(L, fn, p, s, d0, cnt, q, mask, cnt * inner, stream);
            if (rc) {
                return rc;
            }
        }
        return 0;
    }
    for (int64_t i = 0; i < outer; i++) {
        for (int k = 0; k < s->nops; k++) {
            q[k] = ptr[k] + i * s->strides[k][d0];
        }
        rc = gpu_strided(L, fn, p, s, d0 + 1, q, mask, stream);
        if (rc) {
            return rc;
        }
    }
    return 0;
}

static int
gpu_run(int loop, const ca_strided *s, char *const *ptr, const ca_scalar_arg *scalars,
        unsigned mask, int64_t n, ca_stream_t stream)
{
    const ca_ew_loop *L = &ca_ew_loops[loop];
    const ca_ew_gpu_fn fn = ca_ew_gpu[loop];
    const int nin = s->nops - 1;
    ca_ew_sparams p;
    int contig = s->ndim <= 1;
    int aligned = 1;

    for (int i = 0; i < nin; i++) {
        if (mask >> i & 1u) {
            p.c.scalar[i] = scalars[i];
        }
        else {
            memset(&p.c.scalar[i], 0, sizeof p.c.scalar[i]);
        }
    }
    p.c.mask = mask;
    for (int k = 0; k < s->nops && contig; k++) {
        if (k > 0 && (mask >> (k - 1) & 1u)) {
            continue;
        }
        const int64_t size = ca_dtype_size[operand_dtype(L, nin, k)];
        if (s->ndim == 1 && s->strides[k][0] != size) {
            contig = 0;
        }
        /* whole vectors: the kernel loads `vec` elements at once; dense runs
         * off that alignment take the dense kernel */
        if ((uintptr_t)ptr[k] % (uintptr_t)(size * L->vec)) {
            aligned = 0;
        }
    }
    if (contig) {
        /* kernels index in 32 bits: cut giant runs (2^30 is a multiple of vec) */
        const int64_t chunk = (int64_t)1 << 30;
        for (int64_t off = 0; off < n; off += chunk) {
            for (int k = 0; k < s->nops; k++) {
                const int scalar = k > 0 && (mask >> (k - 1) & 1u);
                p.c.ptr[k] =
                    scalar ? NULL
                           : ptr[k] + off * ca_dtype_size[operand_dtype(L, nin, k)];
            }
            p.c.n = (uint32_t)(n - off < chunk ? n - off : chunk);
            const int rc = fn(&p, aligned ? 1 : CA_EW_DENSE, stream);
            if (rc) {
                return rc;
            }
        }
        return 0;
    }
    return gpu_strided(L, fn, &p, s, 0, ptr, mask, stream);
}

#endif /* CA_HAVE_CUDA */

int
ca_elementwise(int device, int loop, ca_strided *s, const ca_scalar_arg *scalars,
               unsigned scalar_mask, ca_stream_t stream)
{
    char *ptr[CA_MAX_OPERANDS];

    if (loop < 0 || loop >= CA_EW_NLOOPS) {
        return CA_KERR_UNSUPPORTED;
    }
    const int nin = ca_ew_ops[ca_ew_loops[loop].op].nin;
    if (s->nops != nin + 1 || s->ndim < 0 || s->ndim > CA_MAX_DIMS) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int i = 0; i < nin; i++) {
        if (scalar_mask >> i & 1u) {
            /* the host loops read a scalar through a stride-0 pointer */
            s->data[i + 1] = (char *)&scalars[i];
            for (int d = 0; d < s->ndim; d++) {
                s->strides[i + 1][d] = 0;
            }
        }
    }
    const int64_t n = ca_strided_coalesce(s);
    if (n == 0) {
        return 0;
    }
    if (s->ndim == 0) {
        /* One element (every dimension had size 1): the strided GPU kernel takes
         * at least one dimension (its shape and strides are read for d < 1). */
        s->ndim = 1;
        s->shape[0] = 1;
        for (int k = 0; k < s->nops; k++) {
            s->strides[k][0] = 0;
        }
    }
    for (int k = 0; k < s->nops; k++) {
        ptr[k] = s->data[k];
    }
    if (device == CA_CPU) {
        const int slow = ca_ew_ops[ca_ew_loops[loop].op].flags & CA_EWF_SLOW;
        const ew_split split = { slow ? CA_HOST_PAR_MIN_SLOW : CA_HOST_PAR_MIN,
                                 slow ? CA_HOST_TASK_MIN_SLOW : CA_HOST_TASK_MIN };
        const ca_ew_loop *L = &ca_ew_loops[loop];
        int sz[CA_MAX_OPERANDS];
        for (int k = 0; k < s->nops; k++) {
            sz[k] = ca_dtype_size[k == 0 ? L->types[nin] : L->types[k - 1]];
        }
        return host_run(ca_ew_host[loop], s, ptr, sz, split);
    }
    return CA_GPU_CALL(gpu_run(loop, s, ptr, scalars, scalar_mask, n, stream));
}

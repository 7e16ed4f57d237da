/*
 * solver_host.c: `_solver`'s operations on the cpu device, in host LAPACK
 * (host_lapack.h), with exactly the semantics launch_solver.c gives them on a
 * GPU, so python/cuarray/_linalg_factor.py runs one code path on both:
 * column-major blocks with the given leading dimensions, 1-based pivots (int64
 * for GETRF/GETRS, int32 for the batched LU), cuBLAS's out-of-place batched
 * inverse, GESVDJ's V (not V^H) in c, GEEV's real and imaginary parts one after
 * the other in w. The Jacobi SVD is LAPACK's divide and conquer here (gesdd, as
 * numpy.linalg.svd): the same factors, the host's fastest route to them.
 *
 * Matrices are factored one after another (LAPACK's OpenBLAS threads each one),
 * the GIL released; work areas come from one workspace query per call, as every
 * matrix of a stack has the same shape.
 */
#include "cuarray.h"
#include "host_lapack.h"
#include "launch.h"
#include "watch.h"

#include <string.h>

typedef struct {
    const ca_host_lapack_api *L;
    const ca_solver_args *s;
    size_t es, rs; /* bytes of an element, of its real part */
    int cplx;
} host_call;

static char *
blk(void *base, int64_t i, int64_t stride, size_t es)
{
    return (char *)base + (size_t)(i * stride) * es;
}

/* A workspace size LAPACK answered in q[0] (a float or a double, by the real
 * type; a float above 2^24 may be rounded down, hence a little headroom), at
 * least 1. */
static ca_lint
query_size(const double *q, size_t rs)
{
    double v = *q;
    if (rs == 4) {
        float f;
        memcpy(&f, q, sizeof f);
        v = (double)f * (1 + 0x1p-20);
    }
    return v < 1 ? 1 : (ca_lint)v + 1;
}

/* The work area a query answered (q), its size in *lwork; NULL when out of
 * memory. */
static void *
alloc_work(const double *q, const host_call *c, ca_lint *lwork)
{
    *lwork = query_size(q, c->rs);
    return PyMem_RawMalloc((size_t)*lwork * c->es);
}

/* The batched LU's int32 pivots of matrix i, as LAPACK's int64. */
static void
widen_pivots(const host_call *c, int64_t i, ca_lint *piv)
{
    const int32_t *p = (const int32_t *)c->s->ipiv + i * c->s->sipiv;
    for (int64_t j = 0; j < c->s->n; j++) {
        piv[j] = p[j];
    }
}

static int
run_getrf(const host_call *c, ca_lint *tmp)
{
    const ca_solver_args *s = c->s;
    const int narrow = s->op == CA_SOLVER_GETRF_BATCHED;
    const int64_t mn = s->m < s->n ? s->m : s->n;
    for (int64_t i = 0; i < s->batch; i++) {
        ca_lint info = 0;
        ca_lint *piv = narrow ? tmp : (ca_lint *)s->ipiv + i * s->sipiv;
        c->L->getrf(&s->m, &s->n, blk(s->a, i, s->sa, c->es), &s->lda, piv, &info);
        if (narrow) {
            int32_t *out = (int32_t *)s->ipiv + i * s->sipiv;
            for (int64_t j = 0; j < mn; j++) {
                out[j] = (int32_t)piv[j];
            }
        }
        s->info[i] = (int)info;
    }
    return 0;
}

static int
run_getrs(const host_call *c, ca_lint *tmp)
{
    const ca_solver_args *s = c->s;
    const char trans = s->trans == 2 ? 'C' : s->trans == 1 ? 'T' : 'N';
    for (int64_t i = 0; i < s->batch; i++) {
        ca_lint info = 0;
        const ca_lint *piv = tmp;
        if (s->op == CA_SOLVER_GETRS_BATCHED) {
            widen_pivots(c, i, tmp);
        }
        else {
            piv = (const ca_lint *)s->ipiv + i * s->sipiv;
        }
        c->L->getrs(&trans, &s->n, &s->k, blk(s->a, i, s->sa, c->es), &s->lda, piv,
                    blk(s->b, i, s->sb, c->es), &s->ldb, &info, 1);
        s->info[i] = (int)info;
    }
    return 0;
}

/* cuBLAS's getriBatched: the inverse into b from a's LU (a untouched). */
static int
run_getri(const host_call *c, ca_lint *piv)
{
    const ca_solver_args *s = c->s;
    const ca_lint query = -1;
    double q[2] = { 0, 0 };
    ca_lint info = 0;
    c->L->getri(&s->n, s->b, &s->ldb, piv, q, &query, &info);
    ca_lint lwork;
    void *work = alloc_work(q, c, &lwork);
    if (work == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < s->batch; i++) {
        char *a = blk(s->a, i, s->sa, c->es), *b = blk(s->b, i, s->sb, c->es);
        for (int64_t j = 0; j < s->n; j++) {
            memcpy(b + (size_t)(j * s->ldb) * c->es, a + (size_t)(j * s->lda) * c->es,
                   (size_t)s->n * c->es);
        }
        widen_pivots(c, i, piv);
        c->L->getri(&s->n, b, &s->ldb, piv, work, &lwork, &info);
        s->info[i] = (int)info;
    }
    PyMem_RawFree(work);
    return 0;
}

static int
run_potrf(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const char uplo = s->lower ? 'L' : 'U';
    for (int64_t i = 0; i < s->batch; i++) {
        ca_lint info = 0;
        c->L->potrf(&uplo, &s->n, blk(s->a, i, s->sa, c->es), &s->lda, &info, 1);
        s->info[i] = (int)info;
    }
    return 0;
}

/* GEQRF (tau into w) and ORGQR (the first n columns of Q from k reflectors). */
static int
run_qr(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const int orgqr = s->op == CA_SOLVER_ORGQR;
    const ca_lint query = -1;
    double q[2] = { 0, 0 };
    ca_lint info = 0;
    if (orgqr) {
        c->L->orgqr(&s->m, &s->n, &s->k, s->a, &s->lda, s->w, q, &query, &info);
    }
    else {
        c->L->geqrf(&s->m, &s->n, s->a, &s->lda, s->w, q, &query, &info);
    }
    ca_lint lwork;
    void *work = alloc_work(q, c, &lwork);
    if (work == NULL) {
        return -1;
    }
    for (int64_t i = 0; i < s->batch; i++) {
        char *a = blk(s->a, i, s->sa, c->es), *tau = blk(s->w, i, s->sw, c->es);
        if (orgqr) {
            c->L->orgqr(&s->m, &s->n, &s->k, a, &s->lda, tau, work, &lwork, &info);
        }
        else {
            c->L->geqrf(&s->m, &s->n, a, &s->lda, tau, work, &lwork, &info);
        }
        s->info[i] = (int)info;
    }
    PyMem_RawFree(work);
    return 0;
}

/* One allocation for the work areas of a routine: n1 elements of es bytes, n2
 * of rs (real work), n3 LAPACK integers. */
typedef struct {
    void *base, *work, *rwork;
    ca_lint *iwork;
} work_areas;

static int
alloc_areas(work_areas *w, ca_lint n1, size_t es, ca_lint n2, size_t rs, ca_lint n3)
{
    const size_t b1 = ((size_t)n1 * es + 63) & ~(size_t)63;
    const size_t b2 = ((size_t)n2 * rs + 63) & ~(size_t)63;
    w->base = PyMem_RawMalloc(b1 + b2 + (size_t)n3 * sizeof(ca_lint) + 64);
    if (w->base == NULL) {
        return -1;
    }
    w->work = w->base;
    w->rwork = (char *)w->base + b1;
    w->iwork = (ca_lint *)((char *)w->base + b1 + b2);
    return 0;
}

static int
run_syevd(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const char jobz = s->vectors ? 'V' : 'N', uplo = s->lower ? 'L' : 'U';
    const ca_lint query = -1;
    double q[2] = { 0, 0 }, rq[2] = { 0, 0 };
    ca_lint iq = 0, info = 0, lrwork = 1;
    if (c->cplx) {
        c->L->heevd(&jobz, &uplo, &s->n, s->a, &s->lda, s->w, q, &query, rq, &query,
                    &iq, &query, &info, 1, 1);
        lrwork = query_size(rq, c->rs);
    }
    else {
        c->L->syevd(&jobz, &uplo, &s->n, s->a, &s->lda, s->w, q, &query, &iq, &query,
                    &info, 1, 1);
    }
    const ca_lint lwork = query_size(q, c->rs), liwork = iq < 1 ? 1 : iq;
    work_areas w;
    if (alloc_areas(&w, lwork, c->es, lrwork, c->rs, liwork) < 0) {
        return -1;
    }
    for (int64_t i = 0; i < s->batch; i++) {
        char *a = blk(s->a, i, s->sa, c->es), *ev = blk(s->w, i, s->sw, c->rs);
        if (c->cplx) {
            c->L->heevd(&jobz, &uplo, &s->n, a, &s->lda, ev, w.work, &lwork, w.rwork,
                        &lrwork, w.iwork, &liwork, &info, 1, 1);
        }
        else {
            c->L->syevd(&jobz, &uplo, &s->n, a, &s->lda, ev, w.work, &lwork, w.iwork,
                        &liwork, &info, 1, 1);
        }
        s->info[i] = (int)info;
    }
    PyMem_RawFree(w.base);
    return 0;
}

/* A leading dimension for an output LAPACK must be given but will not write. */
static const ca_lint one = 1;

/* cuSOLVER's gesvd (m >= n): S in w, U in b, VT in c, a destroyed. */
static int
run_gesvd(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const char ju = s->jobu, jv = s->jobvt;
    const int64_t mn = s->m < s->n ? s->m : s->n;
    const ca_lint query = -1, *ldu = s->b ? &s->ldb : &one,
                  *ldvt = s->c ? &s->ldc : &one;
    double q[2] = { 0, 0 }, dummy[4] = { 0, 0, 0, 0 };
    ca_lint info = 0;
    if (c->cplx) {
        c->L->cgesvd(&ju, &jv, &s->m, &s->n, s->a, &s->lda, s->w, dummy, ldu, dummy,
                     ldvt, q, &query, dummy, &info, 1, 1);
    }
    else {
        c->L->gesvd(&ju, &jv, &s->m, &s->n, s->a, &s->lda, s->w, dummy, ldu, dummy,
                    ldvt, q, &query, &info, 1, 1);
    }
    const ca_lint lwork = query_size(q, c->rs);
    work_areas w;
    if (alloc_areas(&w, lwork, c->es, c->cplx ? 5 * mn : 0, c->rs, 0) < 0) {
        return -1;
    }
    for (int64_t i = 0; i < s->batch; i++) {
        char *a = blk(s->a, i, s->sa, c->es), *sv = blk(s->w, i, s->sw, c->rs);
        void *u = s->b ? (void *)blk(s->b, i, s->sb, c->es) : dummy;
        void *vt = s->c ? (void *)blk(s->c, i, s->sc, c->es) : dummy;
        if (c->cplx) {
            c->L->cgesvd(&ju, &jv, &s->m, &s->n, a, &s->lda, sv, u, ldu, vt, ldvt,
                         w.work, &lwork, w.rwork, &info, 1, 1);
        }
        else {
            c->L->gesvd(&ju, &jv, &s->m, &s->n, a, &s->lda, sv, u, ldu, vt, ldvt,
                        w.work, &lwork, &info, 1, 1);
        }
        s->info[i] = (int)info;
    }
    PyMem_RawFree(w.base);
    return 0;
}

/* V = VT^H: VT (rows x n, leading dimension ldvt) into c's block (n x rows). */
static void
store_v(const host_call *c, const char *vt, int64_t ldvt, int64_t rows, char *v)
{
    const ca_solver_args *s = c->s;
    for (int64_t col = 0; col < rows; col++) {
        for (int64_t r = 0; r < s->n; r++) {
            const char *from = vt + (size_t)(col + r * ldvt) * c->es;
            char *to = v + (size_t)(r + col * s->ldc) * c->es;
            memcpy(to, from, c->es);
            if (c->cplx && c->rs == 4) {
                ((float *)to)[1] = -((float *)to)[1];
            }
            else if (c->cplx) {
                ((double *)to)[1] = -((double *)to)[1];
            }
        }
    }
}

static int
gesdd_call(const host_call *c, const char *jobz, void *a, void *sv, void *u,
           const ca_lint *ldu, void *vt, const ca_lint *ldvt, void *work,
           const ca_lint *lwork, const work_areas *w)
{
    const ca_solver_args *s = c->s;
    ca_lint info = 0;
    if (c->cplx) {
        c->L->cgesdd(jobz, &s->m, &s->n, a, &s->lda, sv, u, ldu, vt, ldvt, work, lwork,
                     w->rwork, w->iwork, &info, 1);
    }
    else {
        c->L->gesdd(jobz, &s->m, &s->n, a, &s->lda, sv, u, ldu, vt, ldvt, work, lwork,
                    w->iwork, &info, 1);
    }
    return (int)info;
}

/* GESVDJ's results through gesdd: S in w, U in b, V (not V^H) in c. */
static int
run_gesvdj(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const char jobz = s->jobu;
    const int64_t mn = s->m < s->n ? s->m : s->n, mx = s->m < s->n ? s->n : s->m;
    const int64_t vrows = jobz == 'A' ? s->n : mn; /* VT's rows */
    const ca_lint ldvt = jobz == 'N' ? 1 : vrows, query = -1;
    const ca_lint *ldu = jobz == 'N' ? &one : &s->ldb;
    const ca_lint lrwork =
        !c->cplx      ? 0
        : jobz == 'N' ? 7 * mn
                      : mn * (5 * mn + 7 > 2 * mx + 2 * mn + 1 ? 5 * mn + 7
                                                               : 2 * mx + 2 * mn + 1);
    double q[2] = { 0, 0 }, dummy[4] = { 0, 0, 0, 0 };
    ca_lint idummy[1] = { 0 };
    work_areas w = { NULL, NULL, dummy, idummy }; /* the query's */
    gesdd_call(c, &jobz, s->a, s->w, dummy, ldu, dummy, &ldvt, q, &query, &w);
    const ca_lint lwork = query_size(q, c->rs), nvt = jobz == 'N' ? 0 : ldvt * s->n;
    /* one area: LAPACK's work, then VT (its rows are copied into c as V) */
    if (alloc_areas(&w, lwork + nvt, c->es, lrwork, c->rs, 8 * mn) < 0) {
        return -1;
    }
    char *vt = (char *)w.work + (size_t)lwork * c->es;
    for (int64_t i = 0; i < s->batch; i++) {
        void *u = jobz == 'N' ? dummy : (void *)blk(s->b, i, s->sb, c->es);
        s->info[i] = gesdd_call(
            c, &jobz, blk(s->a, i, s->sa, c->es), blk(s->w, i, s->sw, c->rs), u, ldu,
            jobz == 'N' ? (void *)dummy : vt, &ldvt, w.work, &lwork, &w);
        if (jobz != 'N') {
            store_v(c, vt, ldvt, vrows, blk(s->c, i, s->sc, c->es));
        }
    }
    PyMem_RawFree(w.base);
    return 0;
}

/* Eigenvalues in w (real types: the real parts, then the imaginary ones),
 * right eigenvectors in b (LAPACK's real-pair form for real types). */
static int
run_geev(const host_call *c)
{
    const ca_solver_args *s = c->s;
    const char jvl = 'N', jvr = s->vectors ? 'V' : 'N';
    const ca_lint query = -1, *ldvr = s->vectors ? &s->ldb : &one;
    double q[2] = { 0, 0 }, dummy[4] = { 0, 0, 0, 0 };
    ca_lint info = 0;
    if (c->cplx) {
        c->L->cgeev(&jvl, &jvr, &s->n, s->a, &s->lda, s->w, dummy, &one, dummy, ldvr, q,
                    &query, dummy, &info, 1, 1);
    }
    else {
        c->L->geev(&jvl, &jvr, &s->n, s->a, &s->lda, s->w, s->w, dummy, &one, dummy,
                   ldvr, q, &query, &info, 1, 1);
    }
    const ca_lint lwork = query_size(q, c->rs);
    work_areas w;
    if (alloc_areas(&w, lwork, c->es, c->cplx ? 2 * s->n : 0, c->rs, 0) < 0) {
        return -1;
    }
    for (int64_t i = 0; i < s->batch; i++) {
        char *a = blk(s->a, i, s->sa, c->es), *ev = blk(s->w, i, s->sw, c->es);
        void *vr = s->vectors ? (void *)blk(s->b, i, s->sb, c->es) : dummy;
        if (c->cplx) {
            c->L->cgeev(&jvl, &jvr, &s->n, a, &s->lda, ev, dummy, &one, vr, ldvr,
                        w.work, &lwork, w.rwork, &info, 1, 1);
        }
        else {
            c->L->geev(&jvl, &jvr, &s->n, a, &s->lda, ev, ev + (size_t)s->n * c->es,
                       dummy, &one, vr, ldvr, w.work, &lwork, &info, 1, 1);
        }
        s->info[i] = (int)info;
    }
    PyMem_RawFree(w.base);
    return 0;
}

static int
dispatch(const host_call *c, ca_lint *piv)
{
    switch (c->s->op) {
    case CA_SOLVER_GETRF:
    case CA_SOLVER_GETRF_BATCHED: return run_getrf(c, piv);
    case CA_SOLVER_GETRS:
    case CA_SOLVER_GETRS_BATCHED: return run_getrs(c, piv);
    case CA_SOLVER_GETRI_BATCHED: return run_getri(c, piv);
    case CA_SOLVER_POTRF:
    case CA_SOLVER_POTRF_BATCHED: return run_potrf(c);
    case CA_SOLVER_GEQRF:
    case CA_SOLVER_ORGQR: return run_qr(c);
    case CA_SOLVER_SYEVD:
    case CA_SOLVER_SYEV_BATCHED: return run_syevd(c);
    case CA_SOLVER_GESVD: return run_gesvd(c);
    case CA_SOLVER_GESVDJ: return run_gesvdj(c);
    case CA_SOLVER_GEEV: return run_geev(c);
    default: return -2;
    }
}

int
ca_run_solver_host(const ca_solver_args *s)
{
    CA_COUNT(library_calls);
    host_call c;
    c.L = ca_host_lapack(s->dtype);
    if (c.L == NULL) {
        PyErr_SetString(PyExc_RuntimeError,
                        "_solver: no LAPACK with 64-bit integers is loaded in this "
                        "process (the cpu device uses numpy.linalg then)");
        return -1;
    }
    c.s = s;
    c.cplx = s->dtype == CA_COMPLEX64 || s->dtype == CA_COMPLEX128;
    c.es = s->dtype == CA_FLOAT32 ? 4 : s->dtype == CA_COMPLEX128 ? 16 : 8;
    c.rs = c.cplx ? c.es / 2 : c.es;
    /* pivots of one matrix, as LAPACK's integers (the batched LU's are int32) */
    ca_lint *piv =
        PyMem_RawMalloc(((size_t)(s->m > s->n ? s->m : s->n) + 1) * sizeof(ca_lint));
    if (piv == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
        rc = dispatch(&c, piv);
    Py_END_ALLOW_THREADS
    PyMem_RawFree(piv);
    if (rc == -2) {
        PyErr_Format(PyExc_ValueError, "_solver: unknown operation %d", s->op);
    }
    else if (rc < 0) {
        PyErr_NoMemory();
    }
    return rc < 0 ? -1 : 0;
}

/*
 * launch_solver.c: the launch layer's cuSOLVER calls, and cuBLAS's batched LU
 * (launch.h, ca_run_solver). cuSOLVER is loaded on first use (dynlib.c). One
 * cuSOLVER handle and one cusolverDnParams per device, made on first use and
 * kept for the life of the process; the handle is pointed at the caller's
 * stream before each call. cuBLAS's batched LU runs on launch_blas.c's handle
 * of the device (ca_blas_handle), pointed at the same stream.
 *
 * Work areas come from our pool, stream-ordered on the caller's stream: they
 * go back to the pool as soon as the calls are queued, and the pool hands them
 * to another stream only after that stream waits for this one. A routine that
 * asks for a host work area (the 64-bit API may) gets one from PyMem and the
 * stream is waited for before it is freed.
 *
 * Matrices are column-major, as LAPACK's; csrc/ops/linalg_solver.c and
 * python/cuarray/linalg/ make the layouts (a C-ordered stack of n x m arrays
 * is a column-major stack of m x n matrices). Loops over a stack run one
 * library call per matrix, all on one stream with one work area: the calls are
 * ordered by the stream, so sharing the area is safe.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"
#include "faults.h"

#if CA_HAVE_CUDA
#define CA_SOLVER_MAX_DEVICES 64
#define CA_SOLVER_INT_MAX     2147483647LL

typedef struct {
    cusolverDnHandle_t handle;
    cusolverDnParams_t params;
    gesvdjInfo_t gesvdj; /* made on the first Jacobi SVD: the defaults */
    int stream_set;
    cudaStream_t stream;
} solver_slot;

static solver_slot solver_slots[CA_SOLVER_MAX_DEVICES];

/* The handle and params object of a slot, made on the device's first use; -1
 * with the exception set. */
static int
solver_slot_init(const ca_cusolver_api *api, solver_slot *s)
{
    cusolverDnHandle_t h = NULL;
    cusolverDnParams_t p = NULL;
    cusolverStatus_t st = api->Create(&h);
    if (st != CUSOLVER_STATUS_SUCCESS) {
        return ca_cusolver_error((int)st, "cusolverDnCreate");
    }
    st = api->CreateParams(&p);
    if (st != CUSOLVER_STATUS_SUCCESS) {
        /* the handle is kept out of the table; it leaks once */
        return ca_cusolver_error((int)st, "cusolverDnCreateParams");
    }
    s->handle = h;
    s->params = p;
    s->stream_set = 0;
    return 0;
}

/* The device's handle, pointed at `stream`. (GIL held: the GIL serializes use
 * of a handle.) */
static solver_slot *
solver_handle(const ca_cusolver_api *api, int device, cudaStream_t stream)
{
    if (ca_library_device_check(device, CA_SOLVER_MAX_DEVICES, "cuSOLVER",
                                ca_cusolver_error,
                                CUSOLVER_STATUS_INTERNAL_ERROR) < 0) {
        return NULL;
    }
    solver_slot *s = &solver_slots[device];
    if (s->handle == NULL && solver_slot_init(api, s) < 0) {
        return NULL;
    }
    if (!s->stream_set || s->stream != stream) {
        s->stream_set = 0;
        cusolverStatus_t st = api->SetStream(s->handle, stream);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            ca_cusolver_error((int)st, "cusolverDnSetStream");
            return NULL;
        }
        s->stream = stream;
        s->stream_set = 1;
    }
    return s;
}

/* cudaDataType of a cuarray dtype; `real` picks the real type of its precision. */
static cudaDataType
cuda_type(int dtype, int real)
{
    switch (dtype) {
    case CA_FLOAT32: return CUDA_R_32F;
    case CA_FLOAT64: return CUDA_R_64F;
    case CA_COMPLEX64: return real ? CUDA_R_32F : CUDA_C_32F;
    default: return real ? CUDA_R_64F : CUDA_C_64F;
    }
}

/* S, D, C, Z: the index of the typed families' tables. */
static int
prec_index(int dtype)
{
    switch (dtype) {
    case CA_FLOAT32: return 0;
    case CA_FLOAT64: return 1;
    case CA_COMPLEX64: return 2;
    default: return 3;
    }
}

/* Work areas of one call: device memory from the pool, host memory from PyMem. */
typedef struct {
    CaMemory *dev;
    void *host;
    size_t dev_size, host_size;
} work_area;

static int
work_get(work_area *w, int device, ca_stream_t stream, size_t dev, size_t host)
{
    w->dev = NULL;
    w->host = NULL;
    w->dev_size = dev;
    w->host_size = host;
    if (dev > 0) {
        w->dev = ca_hook.memory_alloc(device, CA_MEM_DEVICE, dev, stream);
        if (w->dev == NULL) {
            return -1;
        }
    }
    if (host > 0) {
        w->host = PyMem_Malloc(host);
        if (w->host == NULL) {
            Py_CLEAR(w->dev);
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

static void *
work_dev(const work_area *w)
{
    return w->dev != NULL ? (void *)w->dev->ptr : NULL;
}

/* Release the areas (after the calls that use them were queued). A host area
 * may be read by queued work: the stream is waited for first. rc passes
 * through unless the wait fails. */
static int
work_put(work_area *w, ca_stream_t stream, int rc)
{
    if (w->host != NULL) {
        if (rc == 0) {
            rc = ca_run_stream_sync(stream);
        }
        else {
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            if (ca_run_stream_sync(stream) < 0) {
                PyErr_Clear();
            }
            PyErr_Restore(et, ev, tb);
        }
        PyMem_Free(w->host);
        w->host = NULL;
    }
    Py_CLEAR(w->dev);
    return rc;
}

/* A device array of the `n` addresses base + i * stride_bytes, from the pool. */
static CaMemory *
ptr_array(int device, ca_stream_t stream, void *base, int64_t stride_bytes, int64_t n)
{
    CaMemory *m =
        ca_hook.memory_alloc(device, CA_MEM_DEVICE, (size_t)n * sizeof(void *), stream);
    if (m == NULL) {
        return NULL;
    }
    if (CA_LAUNCH_CHECK(ca_linalg_ptr_array(device, (void **)m->ptr, base, stride_bytes,
                                            n, stream)) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

static char *
at(void *p, int64_t i, int64_t stride, int itemsize)
{
    return p == NULL ? NULL : (char *)p + i * stride * (int64_t)itemsize;
}

#define CS_CHECK(expr, name)                                                           \
    do {                                                                               \
        cusolverStatus_t st_ = (expr);                                                 \
        if (st_ != CUSOLVER_STATUS_SUCCESS) {                                          \
            return ca_cusolver_error((int)st_, name);                                  \
        }                                                                              \
    } while (0)

#define CB_CHECK(expr, name)                                                           \
    do {                                                                               \
        cublasStatus_t st_ = (expr);                                                   \
        if (st_ != CUBLAS_STATUS_SUCCESS) {                                            \
            return ca_cublas_error((int)st_, name);                                    \
        }                                                                              \
    } while (0)

/* ======================================================================== */
/* LU, Cholesky, QR (the 64-bit API, one call per matrix)                    */
/* ======================================================================== */
typedef struct {
    const ca_cusolver_api *api;
    solver_slot *h;
    int device;
    ca_stream_t stream;
    int isz;            /* element size of a */
    cudaDataType t, rt; /* a's type, its real type */
} solver_ctx;

static int
run_getrf(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    CS_CHECK(x->api->Xgetrf_bufferSize(x->h->handle, x->h->params, s->m, s->n, x->t,
                                       s->a, s->lda, x->t, &dw, &hw),
             "cusolverDnXgetrf_bufferSize");
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->Xgetrf(
            x->h->handle, x->h->params, s->m, s->n, x->t, at(s->a, i, s->sa, x->isz),
            s->lda, (int64_t *)at(s->ipiv, i, s->sipiv, 8), x->t, work_dev(&w), dw,
            w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXgetrf");
        }
    }
    return work_put(&w, x->stream, rc);
}

static int
run_getrs(const solver_ctx *x, const ca_solver_args *s)
{
    cublasOperation_t op = s->trans == 2   ? CUBLAS_OP_C
                           : s->trans == 1 ? CUBLAS_OP_T
                                           : CUBLAS_OP_N;
    for (int64_t i = 0; i < s->batch; i++) {
        CS_CHECK(x->api->Xgetrs(x->h->handle, x->h->params, op, s->n, s->k, x->t,
                                at(s->a, i, s->sa, x->isz), s->lda,
                                (const int64_t *)at(s->ipiv, i, s->sipiv, 8), x->t,
                                at(s->b, i, s->sb, x->isz), s->ldb, s->info + i),
                 "cusolverDnXgetrs");
    }
    return 0;
}

static int
run_potrf(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    cublasFillMode_t uplo = s->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    CS_CHECK(x->api->Xpotrf_bufferSize(x->h->handle, x->h->params, uplo, s->n, x->t,
                                       s->a, s->lda, x->t, &dw, &hw),
             "cusolverDnXpotrf_bufferSize");
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->Xpotrf(
            x->h->handle, x->h->params, uplo, s->n, x->t, at(s->a, i, s->sa, x->isz),
            s->lda, x->t, work_dev(&w), dw, w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXpotrf");
        }
    }
    return work_put(&w, x->stream, rc);
}

static int
run_geqrf(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    CS_CHECK(x->api->Xgeqrf_bufferSize(x->h->handle, x->h->params, s->m, s->n, x->t,
                                       s->a, s->lda, x->t, s->w, x->t, &dw, &hw),
             "cusolverDnXgeqrf_bufferSize");
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->Xgeqrf(x->h->handle, x->h->params, s->m, s->n,
                                             x->t, at(s->a, i, s->sa, x->isz), s->lda,
                                             x->t, at(s->w, i, s->sw, x->isz), x->t,
                                             work_dev(&w), dw, w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXgeqrf");
        }
    }
    return work_put(&w, x->stream, rc);
}

/* Q from geqrf's reflectors (?orgqr / ?ungqr: the classic, 32-bit API). */
static int
run_orgqr(const solver_ctx *x, const ca_solver_args *s, int dtype)
{
    int p = prec_index(dtype), lwork = 0;
    work_area w;
    if (s->m > CA_SOLVER_INT_MAX || s->n > CA_SOLVER_INT_MAX ||
        s->lda > CA_SOLVER_INT_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "qr: the matrix is too large for cuSOLVER's orgqr");
        return -1;
    }
    CS_CHECK(x->api->orgqr_bufferSize[p](x->h->handle, (int)s->m, (int)s->n, (int)s->k,
                                         s->a, (int)s->lda, s->w, &lwork),
             p < 2 ? "cusolverDn?orgqr_bufferSize" : "cusolverDn?ungqr_bufferSize");
    if (work_get(&w, x->device, x->stream, (size_t)lwork * (size_t)x->isz, 0) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->orgqr[p](
            x->h->handle, (int)s->m, (int)s->n, (int)s->k, at(s->a, i, s->sa, x->isz),
            (int)s->lda, at(s->w, i, s->sw, x->isz), work_dev(&w), lwork, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st,
                                   p < 2 ? "cusolverDn?orgqr" : "cusolverDn?ungqr");
        }
    }
    return work_put(&w, x->stream, rc);
}

/* ======================================================================== */
/* Eigenvalues and singular values                                           */
/* ======================================================================== */
static int
run_syevd(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    cusolverEigMode_t jobz =
        s->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    cublasFillMode_t uplo = s->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    const int rsz = x->rt == CUDA_R_32F ? 4 : 8;
    if (s->op == CA_SOLVER_SYEV_BATCHED) {
        CS_CHECK(x->api->XsyevBatched_bufferSize(x->h->handle, x->h->params, jobz, uplo,
                                                 s->n, x->t, s->a, s->lda, x->rt, s->w,
                                                 x->t, &dw, &hw, s->batch),
                 "cusolverDnXsyevBatched_bufferSize");
    }
    else {
        CS_CHECK(x->api->Xsyevd_bufferSize(x->h->handle, x->h->params, jobz, uplo, s->n,
                                           x->t, s->a, s->lda, x->rt, s->w, x->t, &dw,
                                           &hw),
                 "cusolverDnXsyevd_bufferSize");
    }
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    if (s->op == CA_SOLVER_SYEV_BATCHED) {
        cusolverStatus_t st = x->api->XsyevBatched(
            x->h->handle, x->h->params, jobz, uplo, s->n, x->t, s->a, s->lda, x->rt,
            s->w, x->t, work_dev(&w), dw, w.host, hw, s->info, s->batch);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXsyevBatched");
        }
    }
    for (int64_t i = 0; s->op != CA_SOLVER_SYEV_BATCHED && i < s->batch && rc == 0;
         i++) {
        cusolverStatus_t st = x->api->Xsyevd(
            x->h->handle, x->h->params, jobz, uplo, s->n, x->t,
            at(s->a, i, s->sa, x->isz), s->lda, x->rt, at(s->w, i, s->sw, rsz), x->t,
            work_dev(&w), dw, w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXsyevd");
        }
    }
    return work_put(&w, x->stream, rc);
}

static int
run_gesvd(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    const int rsz = x->rt == CUDA_R_32F ? 4 : 8;
    const signed char ju = (signed char)s->jobu, jv = (signed char)s->jobvt;
    /* LAPACK wants ldu >= 1 and ldvt >= 1 even when they are not referenced. */
    const int64_t ldu = s->ldb > 0 ? s->ldb : 1, ldvt = s->ldc > 0 ? s->ldc : 1;
    CS_CHECK(x->api->Xgesvd_bufferSize(x->h->handle, x->h->params, ju, jv, s->m, s->n,
                                       x->t, s->a, s->lda, x->rt, s->w, x->t, s->b, ldu,
                                       x->t, s->c, ldvt, x->t, &dw, &hw),
             "cusolverDnXgesvd_bufferSize");
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->Xgesvd(
            x->h->handle, x->h->params, ju, jv, s->m, s->n, x->t,
            at(s->a, i, s->sa, x->isz), s->lda, x->rt, at(s->w, i, s->sw, rsz), x->t,
            at(s->b, i, s->sb, x->isz), ldu, x->t, at(s->c, i, s->sc, x->isz), ldvt,
            x->t, work_dev(&w), dw, w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXgesvd");
        }
    }
    return work_put(&w, x->stream, rc);
}

/* Jacobi SVD (?gesvdj, the classic API): A = U S V^H for any m, n, V (not
 * V^H) in c. jobu 'S': econ (U m x k, V n x k, k = min(m, n)), 'A': U m x m,
 * V n x n, 'N': S alone. Tolerance and sweeps: cuSOLVER's defaults (info
 * k + 1: not converged). */
static int
run_gesvdj(const solver_ctx *x, const ca_solver_args *s, int dtype)
{
    const int p = prec_index(dtype), rsz = x->rt == CUDA_R_32F ? 4 : 8;
    const cusolverEigMode_t jobz =
        s->jobu == 'N' ? CUSOLVER_EIG_MODE_NOVECTOR : CUSOLVER_EIG_MODE_VECTOR;
    const int econ = s->jobu == 'S' ? 1 : 0;
    const int64_t ldu = s->ldb > 0 ? s->ldb : (s->m > 1 ? s->m : 1);
    const int64_t ldv = s->ldc > 0 ? s->ldc : (s->n > 1 ? s->n : 1);
    if (s->m > CA_SOLVER_INT_MAX || s->n > CA_SOLVER_INT_MAX ||
        s->lda > CA_SOLVER_INT_MAX || ldu > CA_SOLVER_INT_MAX ||
        ldv > CA_SOLVER_INT_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "svd: the matrix is too large for cuSOLVER's gesvdj");
        return -1;
    }
    if (x->h->gesvdj == NULL) {
        gesvdjInfo_t g = NULL;
        CS_CHECK(x->api->CreateGesvdjInfo(&g), "cusolverDnCreateGesvdjInfo");
        x->h->gesvdj = g;
    }
    int lwork = 0;
    work_area w;
    CS_CHECK(x->api->gesvdj_bufferSize[p](
                 x->h->handle, jobz, econ, (int)s->m, (int)s->n, s->a, (int)s->lda,
                 s->w, s->b, (int)ldu, s->c, (int)ldv, &lwork, x->h->gesvdj),
             "cusolverDn?gesvdj_bufferSize");
    if (work_get(&w, x->device, x->stream, (size_t)lwork * (size_t)x->isz, 0) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->gesvdj[p](
            x->h->handle, jobz, econ, (int)s->m, (int)s->n, at(s->a, i, s->sa, x->isz),
            (int)s->lda, at(s->w, i, s->sw, rsz), at(s->b, i, s->sb, x->isz), (int)ldu,
            at(s->c, i, s->sc, x->isz), (int)ldv, work_dev(&w), lwork, s->info + i,
            x->h->gesvdj);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDn?gesvdj");
        }
    }
    return work_put(&w, x->stream, rc);
}

/* Real input: W holds 2n reals per matrix (real parts, then imaginary parts)
 * and VR LAPACK's real pairs; complex input: n complex W, complex VR. */
static int
run_geev(const solver_ctx *x, const ca_solver_args *s)
{
    size_t dw = 0, hw = 0;
    work_area w;
    cusolverEigMode_t jobvr =
        s->vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
    const int64_t ldvr = s->vectors ? s->ldb : 1;
    CS_CHECK(x->api->Xgeev_bufferSize(x->h->handle, x->h->params,
                                      CUSOLVER_EIG_MODE_NOVECTOR, jobvr, s->n, x->t,
                                      s->a, s->lda, x->t, s->w, x->t, NULL, 1, x->t,
                                      s->b, ldvr, x->t, &dw, &hw),
             "cusolverDnXgeev_bufferSize");
    if (work_get(&w, x->device, x->stream, dw, hw) < 0) {
        return -1;
    }
    int rc = 0;
    for (int64_t i = 0; i < s->batch && rc == 0; i++) {
        cusolverStatus_t st = x->api->Xgeev(
            x->h->handle, x->h->params, CUSOLVER_EIG_MODE_NOVECTOR, jobvr, s->n, x->t,
            at(s->a, i, s->sa, x->isz), s->lda, x->t, at(s->w, i, s->sw, x->isz), x->t,
            NULL, 1, x->t, at(s->b, i, s->sb, x->isz), ldvr, x->t, work_dev(&w), dw,
            w.host, hw, s->info + i);
        if (st != CUSOLVER_STATUS_SUCCESS) {
            rc = ca_cusolver_error((int)st, "cusolverDnXgeev");
        }
    }
    return work_put(&w, x->stream, rc);
}

/* ======================================================================== */
/* The batched routines (arrays of matrix addresses)                         */
/* ======================================================================== */
static int
run_potrf_batched(const solver_ctx *x, const ca_solver_args *s, int dtype)
{
    cublasFillMode_t uplo = s->lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    CaMemory *pa = ptr_array(x->device, x->stream, s->a, s->sa * x->isz, s->batch);
    if (pa == NULL) {
        return -1;
    }
    cusolverStatus_t st = x->api->potrfBatched[prec_index(dtype)](
        x->h->handle, uplo, (int)s->n, (void **)pa->ptr, (int)s->lda, s->info,
        (int)s->batch);
    Py_DECREF(pa); /* stream-ordered: reused only behind the call */
    return st == CUSOLVER_STATUS_SUCCESS
               ? 0
               : ca_cusolver_error((int)st, "cusolverDn?potrfBatched");
}

/* cuBLAS's getrfBatched, getriBatched (C = inverse, out of place) and
 * getrsBatched, with int32 pivots. */
static int
run_lu_batched(const solver_ctx *x, const ca_solver_args *s, int dtype)
{
    const ca_cublas_lu_api *lu = ca_cublas_lu();
    if (lu == NULL) {
        return -1;
    }
    cublasHandle_t h = (cublasHandle_t)ca_blas_handle(x->device, x->stream);
    if (h == NULL) {
        return -1;
    }
    const int p = prec_index(dtype), n = (int)s->n, nb = (int)s->batch;
    CaMemory *pa = ptr_array(x->device, x->stream, s->a, s->sa * x->isz, s->batch);
    CaMemory *pb = NULL;
    int rc = pa == NULL ? -1 : 0;
    if (rc == 0 && s->op != CA_SOLVER_GETRF_BATCHED) {
        pb = ptr_array(x->device, x->stream, s->b, s->sb * x->isz, s->batch);
        rc = pb == NULL ? -1 : 0;
    }
    if (rc == 0) {
        cublasStatus_t st;
        const char *call;
        int host_info = 0;
        if (s->op == CA_SOLVER_GETRF_BATCHED) {
            call = "cublas?getrfBatched";
            st = lu->getrfBatched[p](h, n, (void *const *)pa->ptr, (int)s->lda,
                                     (int *)s->ipiv, s->info, nb);
        }
        else if (s->op == CA_SOLVER_GETRI_BATCHED) {
            call = "cublas?getriBatched";
            st = lu->getriBatched[p](h, n, (const void *const *)pa->ptr, (int)s->lda,
                                     (const int *)s->ipiv, (void *const *)pb->ptr,
                                     (int)s->ldb, s->info, nb);
        }
        else {
            cublasOperation_t op = s->trans == 2   ? CUBLAS_OP_C
                                   : s->trans == 1 ? CUBLAS_OP_T
                                                   : CUBLAS_OP_N;
            call = "cublas?getrsBatched";
            st = lu->getrsBatched[p](h, op, n, (int)s->k, (const void *const *)pa->ptr,
                                     (int)s->lda, (const int *)s->ipiv,
                                     (void *const *)pb->ptr, (int)s->ldb, &host_info,
                                     nb);
        }
        if (st != CUBLAS_STATUS_SUCCESS) {
            rc = ca_cublas_error((int)st, call);
        }
        else if (host_info != 0) {
            PyErr_Format(PyExc_ValueError,
                         "cublas?getrsBatched: argument %d is invalid", -host_info);
            rc = -1;
        }
    }
    Py_XDECREF(pa);
    Py_XDECREF(pb);
    return rc;
}

static int
solver_gpu(int device, ca_stream_t stream, const ca_solver_args *s)
{
    const ca_cusolver_api *api = ca_cusolver();
    if (api == NULL) {
        return -1;
    }
    /* cuSOLVER enqueues behind deferred element-wise work (fusion.c) */
    ca_launch_flush();
    solver_ctx x;
    x.api = api;
    x.device = device;
    x.stream = stream;
    x.h = solver_handle(api, device, (cudaStream_t)stream);
    if (x.h == NULL) {
        return -1;
    }
    x.isz = ca_dtype_size[s->dtype];
    x.t = cuda_type(s->dtype, 0);
    x.rt = cuda_type(s->dtype, 1);
    int batched = s->op == CA_SOLVER_POTRF_BATCHED ||
                  s->op == CA_SOLVER_GETRF_BATCHED ||
                  s->op == CA_SOLVER_GETRI_BATCHED || s->op == CA_SOLVER_GETRS_BATCHED;
    if (batched && (s->n > CA_SOLVER_INT_MAX || s->batch > CA_SOLVER_INT_MAX ||
                    s->k > CA_SOLVER_INT_MAX)) {
        PyErr_SetString(PyExc_ValueError, "too many matrices for a batched call");
        return -1;
    }
    switch (s->op) {
    case CA_SOLVER_GETRF: return run_getrf(&x, s);
    case CA_SOLVER_GETRS: return run_getrs(&x, s);
    case CA_SOLVER_POTRF: return run_potrf(&x, s);
    case CA_SOLVER_GEQRF: return run_geqrf(&x, s);
    case CA_SOLVER_ORGQR: return run_orgqr(&x, s, s->dtype);
    case CA_SOLVER_SYEVD:
    case CA_SOLVER_SYEV_BATCHED: return run_syevd(&x, s);
    case CA_SOLVER_GESVD: return run_gesvd(&x, s);
    case CA_SOLVER_GEEV: return run_geev(&x, s);
    case CA_SOLVER_GESVDJ: return run_gesvdj(&x, s, s->dtype);
    case CA_SOLVER_POTRF_BATCHED: return run_potrf_batched(&x, s, s->dtype);
    case CA_SOLVER_GETRF_BATCHED:
    case CA_SOLVER_GETRI_BATCHED:
    case CA_SOLVER_GETRS_BATCHED: return run_lu_batched(&x, s, s->dtype);
    default: break;
    }
    PyErr_Format(PyExc_ValueError, "unknown solver operation %d", s->op);
    return -1;
}
#endif /* CA_HAVE_CUDA */

int
ca_run_solver(int device, ca_stream_t stream, const ca_solver_args *s)
{
    CA_COUNT(library_calls);
    if (s->dtype != CA_FLOAT32 && s->dtype != CA_FLOAT64 && s->dtype != CA_COMPLEX64 &&
        s->dtype != CA_COMPLEX128) {
        PyErr_SetString(PyExc_TypeError,
                        "cuSOLVER takes float32, float64, complex64 or complex128");
        return -1;
    }
    if (s->batch <= 0) {
        return 0;
    }
#if CA_HAVE_CUDA
    if (device != CA_CPU) {
        return solver_gpu(device, stream, s);
    }
#else
    (void)stream;
#endif
    (void)device;
    return ca_launch_status(CA_KERR_NO_CUDA, "cuSOLVER");
}

const char *
ca_solver_lib_path(void)
{
    return ca_cusolver_path();
}

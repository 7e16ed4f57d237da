/*
 * launch_sparse.c: the launch layer's cuSPARSE calls (launch.h): SpMV, SpMM
 * and SpGEMM of the generic API on CSR matrices, for cuarray.scipy.sparse.
 * cuSPARSE is loaded on first use (dynlib.c). One handle per device, made on
 * first use and kept for the life of the process, pointed at the caller's
 * stream before each call (cusparseSetStream is cheap and keeps no workspace).
 *
 * Work buffers come from our pool, stream-ordered on the caller's stream: they
 * go back to the pool as soon as the calls are queued (the pool hands them to
 * another stream only after that stream waits for this one). Descriptors are
 * made and destroyed per call: they are host structs, cheap next to a launch.
 * A transposed product runs on the stored CSR with CUSPARSE_OPERATION_TRANSPOSE
 * (or CONJUGATE_TRANSPOSE), so A.T @ x and CSC @ x never copy the matrix.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"
#include "faults.h"

#if CA_HAVE_CUDA
#define CA_SPARSE_MAX_DEVICES 64

static cusparseHandle_t sparse_handles[CA_SPARSE_MAX_DEVICES];

/* 0, or -1 with the exception naming `call`. */
static int
sp_check(cusparseStatus_t st, const char *call)
{
    return st == CUSPARSE_STATUS_SUCCESS ? 0 : ca_cusparse_error((int)st, call);
}

/* The device's handle, pointed at `stream`. (GIL held: the GIL serializes use
 * of a handle.) */
static cusparseHandle_t
sparse_handle(const ca_cusparse_api *api, int device, cudaStream_t stream)
{
    if (ca_library_device_check(device, CA_SPARSE_MAX_DEVICES, "cuSPARSE",
                                ca_cusparse_error,
                                CUSPARSE_STATUS_INTERNAL_ERROR) < 0) {
        return NULL;
    }
    if (sparse_handles[device] == NULL) {
        cusparseHandle_t h = NULL;
        if (sp_check(api->Create(&h), "cusparseCreate") < 0) {
            return NULL;
        }
        sparse_handles[device] = h;
    }
    if (sp_check(api->SetStream(sparse_handles[device], stream), "cusparseSetStream") <
        0) {
        return NULL;
    }
    return sparse_handles[device];
}

/* cuSPARSE loaded, deferred element-wise work flushed (cuSPARSE enqueues
 * behind it, fusion.c), the device's handle on `stream`; NULL with an
 * exception. */
static cusparseHandle_t
sparse_ready(int device, ca_stream_t stream, const ca_cusparse_api **api)
{
    *api = ca_cusparse();
    if (*api == NULL) {
        return NULL;
    }
    ca_launch_flush();
    return sparse_handle(*api, device, (cudaStream_t)stream);
}

static cudaDataType
value_type(int dtype)
{
    switch (dtype) {
    case CA_FLOAT32: return CUDA_R_32F;
    case CA_FLOAT64: return CUDA_R_64F;
    case CA_COMPLEX64: return CUDA_C_32F;
    default: return CUDA_C_64F;
    }
}

static cusparseIndexType_t
index_type(int index_dtype)
{
    return index_dtype == CA_INT64 ? CUSPARSE_INDEX_64I : CUSPARSE_INDEX_32I;
}

/* alpha = 1 and beta = 0 in the value type (cuSPARSE reads them as it). */
typedef union {
    float f;
    double d;
    float c[2];
    double z[2];
} sp_scalar;

static void
scalars(int dtype, sp_scalar *one, sp_scalar *zero)
{
    memset(one, 0, sizeof *one);
    memset(zero, 0, sizeof *zero);
    if (dtype == CA_FLOAT32) {
        one->f = 1.0f;
    }
    else if (dtype == CA_FLOAT64) {
        one->d = 1.0;
    }
    else if (dtype == CA_COMPLEX64) {
        one->c[0] = 1.0f;
    }
    else {
        one->z[0] = 1.0;
    }
}

/* The stored CSR as a (const) descriptor. */
static int
csr_descr(const ca_cusparse_api *api, int64_t rows, int64_t cols, int64_t nnz,
          const void *ptr, const void *ind, const void *val, int index_dtype, int dtype,
          cusparseConstSpMatDescr_t *out)
{
    cusparseIndexType_t it = index_type(index_dtype);
    return sp_check(api->CreateConstCsr(out, rows, cols, nnz, ptr, ind, val, it, it,
                                        CUSPARSE_INDEX_BASE_ZERO, value_type(dtype)),
                    "cusparseCreateConstCsr");
}

/* Destroy the cuSPARSE object x (NULL: none) with api->fn. */
#define SP_RELEASE(fn, x)                                                              \
    do {                                                                               \
        if ((x) != NULL) {                                                             \
            api->fn(x);                                                                \
        }                                                                              \
    } while (0)

/* One SpMV or SpMM: the value type, the scalars 1 and 0 of it, the dense
 * descriptors (vectors x and y, or matrices; NULL until made) and the work
 * buffer (its size, the pool block, its address). */
typedef struct {
    cudaDataType vt;
    sp_scalar one, zero;
    cusparseConstDnVecDescr_t vx;
    cusparseDnVecDescr_t vy;
    cusparseConstDnMatDescr_t mx;
    cusparseDnMatDescr_t my;
    size_t size;
    CaMemory *buf;
    void *bp;
} sp_product;

/* y = op(A) x, vectors. */
static int
run_spmv(const ca_cusparse_api *api, cusparseHandle_t h, int device,
         cudaStream_t stream, const ca_spmm_args *a, cusparseConstSpMatDescr_t mat,
         cusparseOperation_t op, sp_product *w)
{
    const int64_t xlen = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->cols : a->rows;
    const int64_t ylen = op == CUSPARSE_OPERATION_NON_TRANSPOSE ? a->rows : a->cols;
    if (sp_check(api->CreateConstDnVec(&w->vx, xlen, a->x, w->vt),
                 "cusparseCreateConstDnVec") < 0 ||
        sp_check(api->CreateDnVec(&w->vy, ylen, a->y, w->vt), "cusparseCreateDnVec") <
            0 ||
        sp_check(api->SpMV_bufferSize(h, op, &w->one, mat, w->vx, &w->zero, w->vy,
                                      w->vt, CUSPARSE_SPMV_ALG_DEFAULT, &w->size),
                 "cusparseSpMV_bufferSize") < 0 ||
        ca_scratch_alloc(device, w->size, (ca_stream_t)stream, &w->buf, &w->bp) < 0 ||
        sp_check(api->SpMV(h, op, &w->one, mat, w->vx, &w->zero, w->vy, w->vt,
                           CUSPARSE_SPMV_ALG_DEFAULT, w->bp),
                 "cusparseSpMV") < 0) {
        return -1;
    }
    return 0;
}

/* Y = op(A) X, row-major dense matrices of k columns. */
static int
run_spmm(const ca_cusparse_api *api, cusparseHandle_t h, int device,
         cudaStream_t stream, const ca_spmm_args *a, cusparseConstSpMatDescr_t mat,
         cusparseOperation_t op, sp_product *w)
{
    const cusparseOperation_t nop = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const int64_t xr = op == nop ? a->cols : a->rows;
    const int64_t yr = op == nop ? a->rows : a->cols;
    if (sp_check(api->CreateConstDnMat(&w->mx, xr, a->k, a->k, a->x, w->vt,
                                       CUSPARSE_ORDER_ROW),
                 "cusparseCreateConstDnMat") < 0 ||
        sp_check(
            api->CreateDnMat(&w->my, yr, a->k, a->k, a->y, w->vt, CUSPARSE_ORDER_ROW),
            "cusparseCreateDnMat") < 0 ||
        sp_check(api->SpMM_bufferSize(h, op, nop, &w->one, mat, w->mx, &w->zero, w->my,
                                      w->vt, CUSPARSE_SPMM_ALG_DEFAULT, &w->size),
                 "cusparseSpMM_bufferSize") < 0 ||
        ca_scratch_alloc(device, w->size, (ca_stream_t)stream, &w->buf, &w->bp) < 0 ||
        sp_check(api->SpMM(h, op, nop, &w->one, mat, w->mx, &w->zero, w->my, w->vt,
                           CUSPARSE_SPMM_ALG_DEFAULT, w->bp),
                 "cusparseSpMM") < 0) {
        return -1;
    }
    return 0;
}
#endif /* CA_HAVE_CUDA */

int
ca_run_sparse_spmm(int device, ca_stream_t stream, const ca_spmm_args *a)
{
    CA_COUNT(library_calls);
#if CA_HAVE_CUDA
    const int real = a->dtype == CA_FLOAT32 || a->dtype == CA_FLOAT64;
    /* op C on real data is op T. */
    cusparseOperation_t op = a->op == 0   ? CUSPARSE_OPERATION_NON_TRANSPOSE
                             : a->op == 1 ? CUSPARSE_OPERATION_TRANSPOSE
                             : real       ? CUSPARSE_OPERATION_TRANSPOSE
                                          : CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
    const ca_cusparse_api *api = NULL;
    cusparseHandle_t h = sparse_ready(device, stream, &api);
    if (h == NULL) {
        return -1;
    }
    cusparseConstSpMatDescr_t mat = NULL;
    if (csr_descr(api, a->rows, a->cols, a->nnz, a->indptr, a->indices, a->values,
                  a->index_dtype, a->dtype, &mat) < 0) {
        return -1;
    }
    sp_product w;
    memset(&w, 0, sizeof w);
    w.vt = value_type(a->dtype);
    scalars(a->dtype, &w.one, &w.zero);
    int rc = a->k == 0 ? run_spmv(api, h, device, (cudaStream_t)stream, a, mat, op, &w)
                       : run_spmm(api, h, device, (cudaStream_t)stream, a, mat, op, &w);
    Py_XDECREF(w.buf);
    SP_RELEASE(DestroyDnVec, w.vx);
    SP_RELEASE(DestroyDnVec, w.vy);
    SP_RELEASE(DestroyDnMat, w.mx);
    SP_RELEASE(DestroyDnMat, w.my);
    api->DestroySpMat(mat);
    return rc;
#else
    (void)device, (void)stream, (void)a;
    return ca_launch_status(CA_KERR_NO_CUDA, "cusparseSpMM");
#endif
}

#if CA_HAVE_CUDA
/* The phases of one SpGEMM after the descriptors exist: work estimation,
 * compute, C's size, C's buffers (the caller's alloc), copy. */
static int
spgemm_phases(const ca_cusparse_api *api, cusparseHandle_t h, int device,
              cudaStream_t stream, const ca_spgemm_args *a,
              cusparseConstSpMatDescr_t ma, cusparseConstSpMatDescr_t mb,
              cusparseSpMatDescr_t mc, cusparseSpGEMMDescr_t d)
{
    const cusparseOperation_t nop = CUSPARSE_OPERATION_NON_TRANSPOSE;
    const cudaDataType vt = value_type(a->dtype);
    const cusparseSpGEMMAlg_t alg = CUSPARSE_SPGEMM_DEFAULT;
    CaMemory *b1 = NULL, *b2 = NULL;
    void *p1 = NULL, *p2 = NULL, *ind = NULL, *val = NULL;
    size_t s1 = 0, s2 = 0;
    int64_t rows = 0, cols = 0, nnz = 0;
    sp_scalar one, zero;
    int rc = -1;
    scalars(a->dtype, &one, &zero);
    if (sp_check(api->SpGEMM_workEstimation(h, nop, nop, &one, ma, mb, &zero, mc, vt,
                                            alg, d, &s1, NULL),
                 "cusparseSpGEMM_workEstimation") < 0 ||
        ca_scratch_alloc(device, s1, (ca_stream_t)stream, &b1, &p1) < 0 ||
        sp_check(api->SpGEMM_workEstimation(h, nop, nop, &one, ma, mb, &zero, mc, vt,
                                            alg, d, &s1, p1),
                 "cusparseSpGEMM_workEstimation") < 0 ||
        sp_check(api->SpGEMM_compute(h, nop, nop, &one, ma, mb, &zero, mc, vt, alg, d,
                                     &s2, NULL),
                 "cusparseSpGEMM_compute") < 0 ||
        ca_scratch_alloc(device, s2, (ca_stream_t)stream, &b2, &p2) < 0 ||
        sp_check(api->SpGEMM_compute(h, nop, nop, &one, ma, mb, &zero, mc, vt, alg, d,
                                     &s2, p2),
                 "cusparseSpGEMM_compute") < 0 ||
        sp_check(api->SpMatGetSize(mc, &rows, &cols, &nnz), "cusparseSpMatGetSize") <
            0 ||
        a->alloc(a->ctx, nnz, &ind, &val) < 0 ||
        sp_check(api->CsrSetPointers(mc, a->c_ptr, ind, val),
                 "cusparseCsrSetPointers") < 0 ||
        sp_check(api->SpGEMM_copy(h, nop, nop, &one, ma, mb, &zero, mc, vt, alg, d),
                 "cusparseSpGEMM_copy") < 0) {
        goto finish;
    }
    rc = 0;
finish:
    Py_XDECREF(b1);
    Py_XDECREF(b2);
    return rc;
}
#endif /* CA_HAVE_CUDA */

int
ca_run_sparse_spgemm(int device, ca_stream_t stream, const ca_spgemm_args *a)
{
    CA_COUNT(library_calls);
#if CA_HAVE_CUDA
    const ca_cusparse_api *api = NULL;
    cusparseHandle_t h = sparse_ready(device, stream, &api);
    cusparseConstSpMatDescr_t ma = NULL, mb = NULL;
    cusparseSpMatDescr_t mc = NULL;
    cusparseSpGEMMDescr_t d = NULL;
    cusparseIndexType_t it = index_type(a->index_dtype);
    int rc = -1;
    if (h == NULL ||
        csr_descr(api, a->m, a->k, a->a_nnz, a->a_ptr, a->a_ind, a->a_val,
                  a->index_dtype, a->dtype, &ma) < 0 ||
        csr_descr(api, a->k, a->n, a->b_nnz, a->b_ptr, a->b_ind, a->b_val,
                  a->index_dtype, a->dtype, &mb) < 0 ||
        sp_check(api->CreateCsr(&mc, a->m, a->n, 0, a->c_ptr, NULL, NULL, it, it,
                                CUSPARSE_INDEX_BASE_ZERO, value_type(a->dtype)),
                 "cusparseCreateCsr") < 0 ||
        sp_check(api->SpGEMM_createDescr(&d), "cusparseSpGEMM_createDescr") < 0) {
        goto finish;
    }
    rc = spgemm_phases(api, h, device, (cudaStream_t)stream, a, ma, mb, mc, d);
finish:
    SP_RELEASE(SpGEMM_destroyDescr, d);
    SP_RELEASE(DestroySpMat, ma);
    SP_RELEASE(DestroySpMat, mb);
    SP_RELEASE(DestroySpMat, mc);
    return rc;
#else
    (void)device, (void)stream, (void)a;
    return ca_launch_status(CA_KERR_NO_CUDA, "cusparseSpGEMM");
#endif
}

const char *
ca_sparse_lib_path(void)
{
    return ca_cusparse_path();
}

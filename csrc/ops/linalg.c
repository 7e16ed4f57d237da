/*
 * linalg.c: matrix products: matmul (and @, @=), dot, vdot, inner, outer,
 * tensordot, ndarray.dot, with NumPy's shape rules.
 *
 * Every product comes down to one batched core, C[..., m, n] = A[..., m, k] @
 * B[..., k, n] with broadcast batch dimensions (product()):
 *   - float16/32/64 and complex on a GPU: cuBLAS (gemm, gemmEx, their
 *     strided-batched forms). cuBLAS is column-major, so a row-major C is
 *     computed as C^T = B^T A^T; transposed and Fortran-ordered operands
 *     become operation flags, broadcast batch dimensions stride 0. Layouts
 *     cuBLAS cannot take (no unit stride in the matrix, negative strides) are
 *     copied once. Batch dimensions that do not merge into one stride are
 *     looped over here, one strided-batched call each.
 *   - bool and integers, and small float32/float64 products (SMALL_* below):
 *     ca_matmul_tiled (kernels/gpu/matmul_int.cu), one launch, any strides, no
 *     copies.
 *   - the cpu device: NumPy's matmul on zero-copy views. (A test switch,
 *     _linalg_emulate, routes it through the cuBLAS plan with a host stand-in
 *     for cuBLAS instead, so the plan is tested without a GPU.)
 *
 * cuBLAS is loaded on first use and called through the launch layer
 * (launch_blas.c: one handle per device, set to the current stream, its
 * workspace from our pool). TF32 for float32 products is off by default (NumPy's
 * accuracy); CUARRAY_ALLOW_TF32=1 or cuarray.linalg.set_allow_tf32(True)
 * turns it on. float16 products accumulate in float32.
 */
#include "datetime_hook.h"
#include "ew_table.h"
#include "launch.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ======================================================================== */
/* Settings                                                                  */
/* ======================================================================== */
static int allow_tf32 = 0; /* float32 through TF32 tensor cores */
static int emulate = 0;    /* cpu device: cuBLAS plan + host stand-in (tests) */

#define CA_INT_MAX 2147483647LL

/* Small float32/float64 products go to our own tiled kernel instead of cuBLAS:
 * at most SMALL_MAX_K summation terms and at most SMALL_MAX_WORK multiply-adds
 * in all (batch * m * n * k). Such a product is bound by its launch, and
 * cuBLAS's call path (handle, stream and workspace checks, kernel selection)
 * cost 9.5 us per 64x64 float32 call on an H200 where one plain launch costs
 * about 4.5 us end to end; the kernel runs a 128^3 product in a few
 * microseconds of GPU time, within that launch cost. Its arithmetic is
 * cuBLAS's without TF32 (a fused multiply-add per term in the element's
 * precision), so it is used whether or not TF32 is allowed. The k bound keeps
 * long dot products (m = n = 1, k large) on cuBLAS: the kernel sums each
 * output serially in one thread, cuBLAS splits k. */
#define SMALL_MAX_WORK (128LL * 128 * 128)
#define SMALL_MAX_K    128
static int64_t small_max_work = SMALL_MAX_WORK; /* _linalg_small_limits (tests) */
static int64_t small_max_k = SMALL_MAX_K;
static const char *last_route = NULL; /* _linalg_last_route (tests) */

/* ======================================================================== */
/* cuBLAS: handles and the one gemm call                                     */
/* ======================================================================== */
/* A gemm in cuBLAS's terms: column-major C (M x N, ldc) = op(X) op(Y). ops:
 * 0 = N, 1 = T, 2 = C (conjugate transpose), as cublasOperation_t. */
typedef struct {
    int swap; /* 1: X = B^T, Y = A^T (C stored row-major); 0: X = A, Y = B */
    int opx, opy;
    int64_t M, N, K;
    int64_t ldx, ldy, ldc;
} gemm_plan;

/* One gemm of the plan on `device` (the cpu device: the host stand-in). */
static int
blas_gemm(int device, ca_stream_t stream, int dtype, const gemm_plan *p, const char *x,
          int64_t sx, const char *y, int64_t sy, char *c, int64_t sc, int64_t count)
{
    return ca_run_gemm(device, stream, dtype, p->opx, p->opy, p->M, p->N, p->K, x,
                       p->ldx, sx, y, p->ldy, sy, c, p->ldc, sc, count, allow_tf32);
}

/* ======================================================================== */
/* Planning the core product                                                 */
/* ======================================================================== */
/* A logical R x S matrix with element strides (rs, cs) as a column-major
 * operand of cuBLAS. Stored as itself (op N): rows adjacent, ld = the column
 * stride. Stored transposed (op T): columns adjacent, ld = the row stride.
 * A dimension of length 1 takes any stride. */
static int
layout_n(int64_t R, int64_t S, int64_t rs, int64_t cs, int64_t *ld)
{
    if ((R == 1 || rs == 1) && (S == 1 || cs >= R)) {
        *ld = S == 1 ? R : cs;
        return *ld >= 1 && *ld <= CA_INT_MAX;
    }
    return 0;
}

static int
layout_t(int64_t R, int64_t S, int64_t rs, int64_t cs, int64_t *ld)
{
    if ((S == 1 || cs == 1) && (R == 1 || rs >= S)) {
        *ld = R == 1 ? S : rs;
        return *ld >= 1 && *ld <= CA_INT_MAX;
    }
    return 0;
}

/* op (0 N, 1 T, 2 C) and ld for an input operand; conj needs a transposed
 * storage (cuBLAS has no plain conjugate). */
static int
layout_in(int64_t R, int64_t S, int64_t rs, int64_t cs, int conj, int *op, int64_t *ld)
{
    if (!conj && layout_n(R, S, rs, cs, ld)) {
        *op = 0;
        return 1;
    }
    if (layout_t(R, S, rs, cs, ld)) {
        *op = conj ? 2 : 1;
        return 1;
    }
    return 0;
}

enum { NEED_A = 1, NEED_B = 2, NEED_C = 4 };

/* The matrix part of an operand: sizes and byte strides of its last two
 * dimensions. */
typedef struct {
    int64_t rows, cols, rs, cs; /* rs/cs in bytes */
} mat2;

static mat2
mat_of(CaArray *x)
{
    int nd = CA_NDIM(x);
    mat2 m = { CA_SHAPE(x)[nd - 2], CA_SHAPE(x)[nd - 1], CA_STRIDES(x)[nd - 2],
               CA_STRIDES(x)[nd - 1] };
    return m;
}

/* Element strides of a matrix for cuBLAS; 0 (with *ok cleared) when a stride
 * of a dimension longer than 1 is not a whole number of elements. */
static int64_t
elem_stride(int64_t bytes, int64_t len, int64_t isz, int *ok)
{
    if (len <= 1) {
        return 0;
    }
    if (bytes % isz != 0) {
        *ok = 0;
        return 0;
    }
    return bytes / isz;
}

/* Plan a float/complex product. Returns 0 (plan filled) or NEED_* bits for the
 * operands that must be copied (A, B) or computed through a temporary (C). */
static int
plan_gemm(CaArray *A, CaArray *B, CaArray *C, int conj_a, gemm_plan *p)
{
    const int64_t isz = C->itemsize;
    mat2 a = mat_of(A), b = mat_of(B), c = mat_of(C);
    const int64_t m = c.rows, n = c.cols, k = a.cols;
    int need = 0, oka = 1, okb = 1, okc = 1;
    int64_t ars = elem_stride(a.rs, m, isz, &oka),
            acs = elem_stride(a.cs, k, isz, &oka);
    int64_t brs = elem_stride(b.rs, k, isz, &okb),
            bcs = elem_stride(b.cs, n, isz, &okb);
    int64_t crs = elem_stride(c.rs, m, isz, &okc),
            ccs = elem_stride(c.cs, n, isz, &okc);
    /* cuBLAS reads whole elements: misaligned views are copied. */
    oka &= (uintptr_t)A->data % (uintptr_t)isz == 0;
    okb &= (uintptr_t)B->data % (uintptr_t)isz == 0;
    okc &= (uintptr_t)C->data % (uintptr_t)isz == 0;
    p->K = k;
    if (okc && layout_n(n, m, ccs, crs, &p->ldc)) {
        /* C row-major: C^T (n x m) = B^T (n x k) A^T (k x m). */
        p->swap = 1;
        p->M = n;
        p->N = m;
        if (!okb || !layout_in(n, k, bcs, brs, 0, &p->opx, &p->ldx)) {
            need |= NEED_B;
        }
        if (!oka || !layout_in(k, m, acs, ars, conj_a, &p->opy, &p->ldy)) {
            need |= NEED_A;
        }
    }
    else if (okc && layout_n(m, n, crs, ccs, &p->ldc)) {
        /* C column-major: C (m x n) = A (m x k) B (k x n). */
        p->swap = 0;
        p->M = m;
        p->N = n;
        if (!oka || !layout_in(m, k, ars, acs, conj_a, &p->opx, &p->ldx)) {
            need |= NEED_A;
        }
        if (!okb || !layout_in(k, n, brs, bcs, 0, &p->opy, &p->ldy)) {
            need |= NEED_B;
        }
    }
    else {
        need |= NEED_C;
    }
    return need;
}

/* The batch dimensions of a product, merged where every operand allows, split
 * into outer dimensions (looped here) and one inner run (a strided-batched
 * call). Strides in bytes; operand 0 = A, 1 = B, 2 = C. */
typedef struct {
    int nouter;
    int64_t shape[CA_MAX_DIMS];
    int64_t st[3][CA_MAX_DIMS];
    int64_t count;
    int64_t inner[3];
    int empty;
} batch_split;

static void
split_batches(CaArray *A, CaArray *B, CaArray *C, batch_split *bs)
{
    CaArray *ops[3] = { A, B, C };
    const int nb = CA_NDIM(C) - 2;
    int64_t shape[CA_MAX_DIMS];
    int64_t st[3][CA_MAX_DIMS];
    int nd = 0;
    bs->empty = 0;
    for (int d = 0; d < nb; d++) {
        int64_t len = CA_SHAPE(C)[d];
        if (len == 0) {
            bs->empty = 1;
        }
        if (len == 1) {
            continue;
        }
        for (int o = 0; o < 3; o++) {
            int j = d - (nb - (CA_NDIM(ops[o]) - 2));
            st[o][nd] = (j < 0 || CA_SHAPE(ops[o])[j] == 1) ? 0 : CA_STRIDES(ops[o])[j];
        }
        /* Merge with the previous kept dimension when each operand steps over
         * this one exactly. */
        if (nd > 0) {
            int merge = 1;
            for (int o = 0; o < 3; o++) {
                merge &= st[o][nd - 1] == st[o][nd] * len;
            }
            if (merge) {
                shape[nd - 1] *= len;
                for (int o = 0; o < 3; o++) {
                    st[o][nd - 1] = st[o][nd];
                }
                continue;
            }
        }
        shape[nd] = len;
        nd++;
    }
    if (nd == 0) {
        bs->nouter = 0;
        bs->count = 1;
        bs->inner[0] = bs->inner[1] = bs->inner[2] = 0;
        return;
    }
    bs->nouter = nd - 1;
    bs->count = shape[nd - 1];
    for (int o = 0; o < 3; o++) {
        bs->inner[o] = st[o][nd - 1];
        for (int d = 0; d < nd - 1; d++) {
            bs->st[o][d] = st[o][d];
        }
    }
    for (int d = 0; d < nd - 1; d++) {
        bs->shape[d] = shape[d];
    }
}

/* NEED_* bits for batch strides cuBLAS cannot take: A and B need whole,
 * non-negative element strides in the inner run and whole ones outside; C
 * positive ones in the inner run (its batches must not alias). */
static int
check_batches(const batch_split *bs, int64_t isz)
{
    int need = 0;
    for (int o = 0; o < 3; o++) {
        int bad = 0;
        if (bs->count > 1) {
            int64_t s = bs->inner[o];
            bad |= s % isz != 0 || s < 0 || (o == 2 && s == 0);
        }
        for (int d = 0; d < bs->nouter; d++) {
            bad |= bs->st[o][d] % isz != 0;
        }
        if (bad) {
            need |= o == 0 ? NEED_A : o == 1 ? NEED_B : NEED_C;
        }
    }
    return need;
}

/* Run fn over the outer batch index space (an odometer over byte offsets). */
typedef int (*batch_fn)(void *ctx, const char *a, const char *b, char *c);

static int
for_each_outer(const batch_split *bs, const char *a, const char *b, char *c,
               batch_fn fn, void *ctx)
{
    int64_t idx[CA_MAX_DIMS] = { 0 };
    for (;;) {
        if (fn(ctx, a, b, c) < 0) {
            return -1;
        }
        int d = bs->nouter - 1;
        for (; d >= 0; d--) {
            if (++idx[d] < bs->shape[d]) {
                a += bs->st[0][d];
                b += bs->st[1][d];
                c += bs->st[2][d];
                break;
            }
            a -= bs->st[0][d] * (bs->shape[d] - 1);
            b -= bs->st[1][d] * (bs->shape[d] - 1);
            c -= bs->st[2][d] * (bs->shape[d] - 1);
            idx[d] = 0;
        }
        if (d < 0) {
            return 0;
        }
    }
}

typedef struct {
    int device;
    ca_stream_t stream;
    int dtype;
    const gemm_plan *plan;
    const batch_split *bs;
    mat2 a, b, c;
    int64_t m, n, k;
} exec_ctx;

static int
gemm_one(void *vctx, const char *a, const char *b, char *c)
{
    exec_ctx *x = (exec_ctx *)vctx;
    const int64_t isz = ca_dtype_size[x->dtype];
    const batch_split *bs = x->bs;
    if (x->plan->swap) {
        return blas_gemm(x->device, x->stream, x->dtype, x->plan, b, bs->inner[1] / isz,
                         a, bs->inner[0] / isz, c, bs->inner[2] / isz, bs->count);
    }
    return blas_gemm(x->device, x->stream, x->dtype, x->plan, a, bs->inner[0] / isz, b,
                     bs->inner[1] / isz, c, bs->inner[2] / isz, bs->count);
}

static int
tiled_one(void *vctx, const char *a, const char *b, char *c)
{
    exec_ctx *x = (exec_ctx *)vctx;
    const batch_split *bs = x->bs;
    return ca_run_matmul_tiled(x->device, x->dtype, bs->count, x->m, x->n, x->k, a,
                               bs->inner[0], x->a.rs, x->a.cs, b, bs->inner[1], x->b.rs,
                               x->b.cs, c, bs->inner[2], x->c.rs, x->c.cs, x->stream);
}

/* A float product small enough for the tiled kernel (see SMALL_MAX_WORK);
 * size = batch * m * n, k >= 1. */
static inline int
small_float(int dtype, int64_t size, int64_t k)
{
    return (dtype == CA_FLOAT32 || dtype == CA_FLOAT64) && k <= small_max_k &&
           size <= small_max_work / k;
}

static const Py_ssize_t zeros16[2] = { 0, 0 };

static CaArray *view_of(CaArray *x, int ndim, const Py_ssize_t *shape,
                        const Py_ssize_t *strides);

/* A batch of products with one B (B broadcast over the batch, as x @ W) is
 * one tall product when A's and C's batches follow each other row by row:
 * fold them into m. Replaces *a, *b, *c by 2-D views when it applies. */
static int
fold_batches(CaArray **a, CaArray **b, CaArray **c)
{
    batch_split bs;
    split_batches(*a, *b, *c, &bs);
    if (bs.nouter != 0 || bs.count <= 1 || bs.inner[1] != 0) {
        return 0;
    }
    mat2 ma = mat_of(*a), mb = mat_of(*b), mc = mat_of(*c);
    const int64_t m = mc.rows;
    int64_t ars = m == 1 ? bs.inner[0] : ma.rs, crs = m == 1 ? bs.inner[2] : mc.rs;
    if (bs.inner[0] != m * ars || bs.inner[2] != m * crs) {
        return 0;
    }
    Py_ssize_t sa[2] = { bs.count * m, ma.cols }, ta[2] = { ars, ma.cs };
    Py_ssize_t sb[2] = { mb.rows, mb.cols }, tb[2] = { mb.rs, mb.cs };
    Py_ssize_t sc[2] = { bs.count * m, mc.cols }, tc[2] = { crs, mc.cs };
    CaArray *na = view_of(*a, 2, sa, ta);
    CaArray *nb = na ? view_of(*b, 2, sb, tb) : NULL;
    CaArray *nc = nb ? view_of(*c, 2, sc, tc) : NULL;
    if (nc == NULL) {
        Py_XDECREF(na);
        Py_XDECREF(nb);
        return -1;
    }
    Py_SETREF(*a, na);
    Py_SETREF(*b, nb);
    Py_SETREF(*c, nc);
    return 0;
}

/*
 * The core: C[..., m, n] = A[..., m, k] @ B[..., k, n] (conj(A) when conj_a),
 * with A's and B's batch dimensions broadcast to C's. All three of C's dtype
 * and on C's device; the caller has checked the shapes. A and B may be
 * replaced by copies internally; C is written in place (through a temporary
 * when its layout does not suit cuBLAS).
 */
static int
product(CaArray *A, CaArray *B, CaArray *C, int conj_a)
{
    CaArray *a = A, *b = B, *c = C, *ctmp = NULL;
    int rc = -1;
    Py_INCREF(c);
    const int device = C->device;
    const int dtype = C->dtype;
    const int nd = CA_NDIM(C);
    const int64_t m = CA_SHAPE(C)[nd - 2], n = CA_SHAPE(C)[nd - 1];
    const int64_t k = CA_SHAPE(A)[CA_NDIM(A) - 1];
    batch_split bs;
    memset(&bs, 0, sizeof bs);
    gemm_plan plan = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
    Py_INCREF(a);
    Py_INCREF(b);
    if (C->size == 0) {
        rc = 0;
        goto done;
    }
    if (k == 0) {
        rc = ca_array_fill(C, zeros16);
        goto done;
    }
    if (ca_use_device(device) < 0) {
        goto done;
    }
    if (ca_is_integer(dtype) || dtype == CA_BOOL || small_float(dtype, C->size, k)) {
        last_route = "tiled";
        split_batches(a, b, c, &bs);
        exec_ctx x = { device,    ca_current_stream(device),
                       dtype,     NULL,
                       &bs,       mat_of(a),
                       mat_of(b), mat_of(c),
                       m,         n,
                       k };
        rc = for_each_outer(&bs, a->data, b->data, c->data, tiled_one, &x);
        goto done;
    }
    last_route = "blas";
    if (m > CA_INT_MAX || n > CA_INT_MAX || k > CA_INT_MAX) {
        PyErr_SetString(PyExc_ValueError,
                        "matrix dimensions of 2**31 or more are not supported");
        goto done;
    }
    if (fold_batches(&a, &b, &c) < 0) {
        goto done;
    }
    /* At most one round of copies: copies and temporaries are C-contiguous,
     * which every plan accepts. */
    for (int round = 0;; round++) {
        int need = plan_gemm(a, b, c, conj_a, &plan);
        split_batches(a, b, c, &bs);
        need |= check_batches(&bs, c->itemsize);
        if (need == 0) {
            break;
        }
        if (round > 0) {
            PyErr_Format(PyExc_SystemError, "matmul: no cuBLAS plan (need %d)", need);
            goto done;
        }
        if (need & NEED_A) {
            CaArray *t = ca_array_copy(a, dtype, 'C');
            if (t == NULL) {
                goto done;
            }
            Py_SETREF(a, t);
        }
        if (need & NEED_B) {
            CaArray *t = ca_array_copy(b, dtype, 'C');
            if (t == NULL) {
                goto done;
            }
            Py_SETREF(b, t);
        }
        if (need & NEED_C) {
            ctmp = ca_array_empty(dtype, CA_NDIM(c), CA_SHAPE(c), 0, device, C->kind);
            if (ctmp == NULL) {
                goto done;
            }
            Py_INCREF(ctmp);
            Py_SETREF(c, ctmp);
        }
    }
    {
        exec_ctx x = { device,    ca_current_stream(device),
                       dtype,     &plan,
                       &bs,       mat_of(a),
                       mat_of(b), mat_of(c),
                       m,         n,
                       k };
        rc = for_each_outer(&bs, a->data, b->data, c->data, gemm_one, &x);
    }
    if (rc == 0 && ctmp != NULL) {
        /* ctmp is C-ordered in c's shape, which is C's or C's batches folded
         * into its rows: either way it reads back in C's shape. */
        Py_ssize_t st[CA_MAX_DIMS + 2];
        ca_contiguous_strides(nd, CA_SHAPE(C), ctmp->itemsize, 0, st);
        CaArray *back = view_of(ctmp, nd, CA_SHAPE(C), st);
        rc = back == NULL ? -1 : ca_assign(C, back);
        Py_XDECREF(back);
    }
done:
    Py_DECREF(a);
    Py_DECREF(b);
    Py_DECREF(c);
    Py_XDECREF(ctmp);
    return rc;
}

/* ======================================================================== */
/* Operands, views and NumPy                                                 */
/* ======================================================================== */
/* A cuarray array for an argument: arrays as they are; Python numbers and
 * sequences, and foreign arrays (CUDA array interface, DLPack) converted onto
 * `device`. NumPy arrays only for the cpu device: a GPU product never moves
 * host data silently. *unknown is set (and NULL returned, no exception) for
 * other types when the caller is an operator that may answer NotImplemented. */
static CaArray *
as_operand(PyObject *o, int device, int *unknown)
{
    if (ca_array_check(o)) {
        Py_INCREF(o);
        return (CaArray *)o;
    }
    if (PyArray_Check(o)) {
        if (device != CA_CPU) {
            PyErr_Format(PyExc_TypeError,
                         "a NumPy array cannot be an operand of a product on cuda:%d; "
                         "move it with cuarray.asarray() first",
                         device);
            return NULL;
        }
    }
    else if (unknown != NULL && !PyLong_Check(o) && !PyFloat_Check(o) &&
             !PyComplex_Check(o) && !PyList_Check(o) && !PyTuple_Check(o) &&
             !PyArray_IsScalar(o, Generic) && !PyObject_HasAttr(o, ca_st->str_cai) &&
             !PyObject_HasAttr(o, ca_st->str_dlpack)) {
        *unknown = 1;
        return NULL;
    }
    return ca_asarray(o, -1, device, -1, 'K', -1);
}

/* The device of a product of x and y: the first cuarray operand's, else the
 * current one. */
static int
product_device(PyObject *x, PyObject *y)
{
    if (ca_array_check(x)) {
        return ((CaArray *)x)->device;
    }
    if (ca_array_check(y)) {
        return ((CaArray *)y)->device;
    }
    return ca_current_device();
}

/* Both operands as arrays on one device. */
static int
two_operands(PyObject *x, PyObject *y, CaArray **a, CaArray **b, int *unknown)
{
    int device = product_device(x, y);
    *a = *b = NULL;
    *a = as_operand(x, device, unknown);
    if (*a == NULL) {
        return -1;
    }
    *b = as_operand(y, device, unknown);
    if (*b == NULL) {
        Py_CLEAR(*a);
        return -1;
    }
    if ((*a)->device != (*b)->device) {
        char d1[CA_DEVICE_NAME_LEN], d2[CA_DEVICE_NAME_LEN];
        PyErr_Format(PyExc_ValueError,
                     "operands are on different devices (%s and %s); move one with "
                     ".to_device()",
                     ca_device_name((*a)->device, d1),
                     ca_device_name((*b)->device, d2));
        Py_CLEAR(*a);
        Py_CLEAR(*b);
        return -1;
    }
    return 0;
}

/* A view of x with a new shape and strides over the same data. */
static CaArray *
view_of(CaArray *x, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides)
{
    return ca_array_restride(x, ndim, shape, strides, x->data);
}

/* Merge dims [lo, hi) of (shape, strides) into one: *len, *stride. 0 when
 * their elements do not form a single stride. */
static int
merge_dims(const Py_ssize_t *shape, const Py_ssize_t *strides, int lo, int hi,
           Py_ssize_t *len, Py_ssize_t *stride)
{
    return ca_merge_dims(shape, strides, lo, hi, len, stride);
}

/* x as a 2-D array (prod(shape[:r]), prod(shape[r:])): a view when the two
 * groups of dimensions each merge, else a C-ordered copy viewed so. */
static CaArray *
as_2d(CaArray *x, int r)
{
    Py_ssize_t shape[2], strides[2];
    int nd = CA_NDIM(x);
    if (merge_dims(CA_SHAPE(x), CA_STRIDES(x), 0, r, &shape[0], &strides[0]) &&
        merge_dims(CA_SHAPE(x), CA_STRIDES(x), r, nd, &shape[1], &strides[1])) {
        return view_of(x, 2, shape, strides);
    }
    CaArray *t = ca_array_copy(x, x->dtype, 'C');
    if (t == NULL) {
        return NULL;
    }
    CaArray *v = NULL;
    if (merge_dims(CA_SHAPE(t), CA_STRIDES(t), 0, r, &shape[0], &strides[0]) &&
        merge_dims(CA_SHAPE(t), CA_STRIDES(t), r, nd, &shape[1], &strides[1])) {
        v = view_of(t, 2, shape, strides);
    }
    else {
        PyErr_SetString(PyExc_SystemError, "as_2d: a C-ordered copy did not merge");
    }
    Py_DECREF(t);
    return v;
}

/* x flattened (C order) to 1-D: a view when possible, else a copy. */
static CaArray *
as_1d(CaArray *x)
{
    CaArray *v2 = as_2d(x, 0); /* shape (1, size) */
    if (v2 == NULL) {
        return NULL;
    }
    Py_ssize_t shape = CA_SHAPE(v2)[1], stride = CA_STRIDES(v2)[1];
    CaArray *v = view_of(v2, 1, &shape, &stride);
    Py_DECREF(v2);
    return v;
}

/* x cast to dtype (a new reference; x itself when it has that dtype). */
static CaArray *
cast_to(CaArray *x, int dtype)
{
    if (x->dtype == dtype) {
        Py_INCREF(x);
        return x;
    }
    return ca_array_copy(x, dtype, 'K');
}

/* True when out may share memory with x (the same buffer). */
static int
may_share(CaArray *out, CaArray *x)
{
    return out->mem != NULL && out->mem == x->mem;
}

/* ---- NumPy, for the cpu device ---- */
static PyObject *np_matmul = NULL, *np_vdot = NULL;

static int
load_numpy_funcs(void)
{
    if (np_matmul != NULL) {
        return 0;
    }
    PyObject *np = PyImport_ImportModule("numpy");
    if (np == NULL) {
        return -1;
    }
    PyObject *mm = PyObject_GetAttrString(np, "matmul");
    PyObject *vd = PyObject_GetAttrString(np, "vdot");
    Py_DECREF(np);
    if (mm == NULL || vd == NULL) {
        Py_XDECREF(mm);
        Py_XDECREF(vd);
        return -1;
    }
    np_matmul = mm;
    np_vdot = vd;
    return 0;
}


/* Whether np.dot's C routine (PyArray_MatrixProduct2) makes the very BLAS call
 * np.matmul would for C = A @ B: 2-D C-contiguous operands of a BLAS dtype,
 * every dim > 1 (no vector forms), no shared data (matmul and dot each have
 * their own A @ A.T case), sizes BLAS takes; and whether that pays. It skips
 * the ufunc's dispatch (about 0.4 us a call), but it clears C before the call
 * and its complex path costs more: on the development machine (NumPy 2.4,
 * OpenBLAS, median of 5) it was ahead up to 192^2 real outputs and 32^2 complex
 * ones (0.4 us at 64^2 float32), behind from 256^2 real and 48^2 complex
 * (22 us of 1.33 ms at 512^2 float32, 59 us of 5.2 ms at 512^2 complex64). */
#define CA_DOT_MAX_REAL    (256 * 1024)
#define CA_DOT_MAX_COMPLEX (16 * 1024)
static int
dot_is_matmul(const CaArray *A, const CaArray *B, const CaArray *C)
{
    const int t = A->dtype;
    if (CA_NDIM(A) != 2 || CA_NDIM(B) != 2 || CA_NDIM(C) != 2 || B->dtype != t ||
        C->dtype != t ||
        !(t == CA_FLOAT32 || t == CA_FLOAT64 || t == CA_COMPLEX64 ||
          t == CA_COMPLEX128) ||
        !(A->flags & B->flags & C->flags & CA_C_CONTIGUOUS) || A->data == B->data) {
        return 0;
    }
    const Py_ssize_t m = CA_SHAPE(A)[0], k = CA_SHAPE(A)[1], n = CA_SHAPE(B)[1];
    const int cplx = t == CA_COMPLEX64 || t == CA_COMPLEX128;
    const double out_bytes = (double)m * (double)n * (double)ca_dtype_size[t];
    return m > 1 && k > 1 && n > 1 && m < CA_INT_MAX && k < CA_INT_MAX &&
           n < CA_INT_MAX && out_bytes < (cplx ? CA_DOT_MAX_COMPLEX : CA_DOT_MAX_REAL);
}

/* A float16 product on the cpu: NumPy's is a plain loop (no BLAS) that sums
 * the products in float32 and rounds the sum to float16 once. Here the
 * operands become float32 copies (exact), BLAS's sgemm (np.dot's routine for
 * 2-D operands, np.matmul's otherwise) sums the same products in float32 (a
 * product of two float16 is exact in float32, so FMA or not changes nothing)
 * and the result is rounded to float16 into c: the same up to the order of
 * the float32 sums (tests/test_matmul_half_cpu.py), tens of times faster. */
static PyObject *
numpy_matmul_half(PyObject *a, PyObject *b, PyObject *c)
{
    PyObject *v[2] = { NULL, NULL }, *r = NULL;
    v[0] =
        PyArray_CastToType((PyArrayObject *)a, PyArray_DescrFromType(NPY_FLOAT32), 0);
    if (v[0] != NULL) {
        v[1] = PyArray_CastToType((PyArrayObject *)b,
                                  PyArray_DescrFromType(NPY_FLOAT32), 0);
    }
    if (v[1] != NULL) {
        PyArrayObject *x = (PyArrayObject *)v[0], *y = (PyArrayObject *)v[1];
        if (PyArray_NDIM(x) == 2 && PyArray_NDIM(y) == 2 && PyArray_DIM(x, 0) > 1 &&
            PyArray_DIM(x, 1) > 1 && PyArray_DIM(y, 1) > 1) {
            r = PyArray_MatrixProduct2(v[0], v[1], NULL);
        }
        else {
            r = PyObject_Vectorcall(np_matmul, v, 2, NULL);
        }
    }
    /* r is a NumPy scalar for 1-D @ 1-D: CopyObject takes either */
    if (r != NULL && PyArray_CopyObject((PyArrayObject *)c, r) < 0) {
        Py_CLEAR(r);
    }
    Py_XDECREF(v[0]);
    Py_XDECREF(v[1]);
    return r;
}

/* C = np.matmul(A, B) on the cpu device, written into C (whose shape the
 * caller has made NumPy's result shape): out passed positionally, as a ufunc
 * takes it, through vectorcall (no argument tuple or keyword dict); np.dot's
 * routine where it makes the same BLAS call (dot_is_matmul); float16 through
 * float32 BLAS (numpy_matmul_half). */
static int
numpy_matmul_into(CaArray *A, CaArray *B, CaArray *C)
{
    PyObject *v[3] = { NULL, NULL, NULL }, *r = NULL;
    int rc = -1;
    if (load_numpy_funcs() < 0) {
        return -1;
    }
    if ((v[0] = ca_cpu_numpy_view(A)) == NULL ||
        (v[1] = ca_cpu_numpy_view(B)) == NULL ||
        (v[2] = ca_cpu_numpy_view(C)) == NULL) {
        goto error;
    }
    if (A->dtype == CA_FLOAT16 && B->dtype == CA_FLOAT16 && C->dtype == CA_FLOAT16) {
        r = numpy_matmul_half(v[0], v[1], v[2]);
    }
    else if (dot_is_matmul(A, B, C)) {
        r = PyArray_MatrixProduct2(v[0], v[1], (PyArrayObject *)v[2]);
    }
    else {
        r = PyObject_Vectorcall(np_matmul, v, 3, NULL);
    }
    rc = r == NULL ? -1 : 0;
error:
    Py_XDECREF(v[0]);
    Py_XDECREF(v[1]);
    Py_XDECREF(v[2]);
    Py_XDECREF(r);
    return rc;
}

/* ======================================================================== */
/* Output handling                                                           */
/* ======================================================================== */

/* A bfloat16 product on the cpu device: float32 copies by our casts (NumPy's
 * through ml_dtypes' loops are 4-5x slower), NumPy's float32 BLAS, the result
 * rounded once into res. Products of two bfloat16 are exact in float32. */
static int
cpu_matmul_bf16(CaArray *a, CaArray *b, CaArray *res)
{
    CaArray *fa = cast_to(a, CA_FLOAT32), *fb = fa ? cast_to(b, CA_FLOAT32) : NULL;
    CaArray *fr = fb ? ca_array_empty(CA_FLOAT32, CA_NDIM(res), CA_SHAPE(res), 0,
                                      CA_CPU, CA_MEM_HOST)
                     : NULL;
    int rc = fr == NULL ? -1 : numpy_matmul_into(fa, fb, fr);
    if (rc == 0) {
        rc = ca_assign(res, fr);
    }
    Py_XDECREF(fa);
    Py_XDECREF(fb);
    Py_XDECREF(fr);
    return rc;
}

/* out= checks shared by the products: an array on `device` with exactly
 * `shape`, writeable, and a dtype `dtype` casts to by NumPy's 'same_kind'. */
static int
check_out(const char *fname, CaArray *out, int device, int dtype, int nd,
          const Py_ssize_t *shape)
{
    CaArray *o;
    if (ca_out_from_object(fname, (PyObject *)out, device, &o) < 0 ||
        ca_out_check_shape(fname, out, nd, shape) < 0 ||
        ca_out_check_cast(fname, out, dtype) < 0) {
        return -1;
    }
    return 0;
}

/* The array a product writes its result (shape `shape`, C order) into: `out`
 * itself when it is C-contiguous, of the result's dtype and shares no memory
 * with the operands; else a new array (assigned to out by finish_result). */
static CaArray *
result_array(CaArray *out, CaArray *a, CaArray *b, int dtype, int device, int nd,
             const Py_ssize_t *shape)
{
    if (out != NULL && out->dtype == dtype && (out->flags & CA_C_CONTIGUOUS) &&
        !may_share(out, a) && !may_share(out, b)) {
        Py_INCREF(out);
        return out;
    }
    ca_memkind kind = device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    if (out != NULL) {
        kind = out->kind;
    }
    else if (a->kind == b->kind) {
        kind = a->kind;
    }
    return ca_array_empty(dtype, nd, shape, 0, device, kind);
}

/* The value a product returns: `res`, or `out` after assigning res to it. */
static PyObject *
finish_result(CaArray *res, CaArray *out)
{
    if (out == NULL || res == out) {
        return (PyObject *)res;
    }
    if (ca_assign(out, res) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    Py_DECREF(res);
    Py_INCREF(out);
    return (PyObject *)out;
}

/* product(x, y, res, dtype) (matmul_compute or matrix_product_into) into res,
 * then the value finish_result returns. Steals res (NULL: an error already set). */
static PyObject *
computed_result(int (*product)(CaArray *, CaArray *, CaArray *, int), CaArray *x,
                CaArray *y, CaArray *res, CaArray *out, int dtype)
{
    if (res == NULL) {
        return NULL;
    }
    if (product(x, y, res, dtype) < 0) {
        Py_DECREF(res);
        return NULL;
    }
    return finish_result(res, out);
}

/* The out= argument: None/absent, an array, or a 1-tuple holding one (ufunc
 * style). Borrowed; NULL for none; (CaArray *)-1 on error. */
static CaArray *
out_arg(const char *fname, PyObject *o)
{
    CaArray *out;
    if (ca_out_from_object(fname, o, CA_DEVICE_UNSET, &out) < 0) {
        return (CaArray *)-1;
    }
    return out;
}

/* ======================================================================== */
/* matmul                                                                     */
/* ======================================================================== */
#define MATMUL_SIG "(n?,k),(k,m?)->(n?,m?)"

/* x as a matrix operand of matmul: a 1-D x as the row (1, k) (row) or the column
 * (k, 1), any other x itself. A new reference. */
static CaArray *
matmul_operand(CaArray *x, int row)
{
    if (CA_NDIM(x) != 1) {
        Py_INCREF(x);
        return x;
    }
    const Py_ssize_t k = CA_SHAPE(x)[0], st = CA_STRIDES(x)[0];
    Py_ssize_t shp[2] = { row ? 1 : k, row ? k : 1 };
    Py_ssize_t str[2] = { row ? 0 : st, row ? st : 0 };
    return ca_array_view(x, x->dtype, 2, shp, str, x->data);
}

/* C (the result, C order, NumPy's shape) = a @ b computed on the arrays' own
 * device: NumPy on the cpu, the batched core elsewhere. a and b already have
 * the result dtype unless the cpu path takes them as they are. */
static int
matmul_compute(CaArray *a, CaArray *b, CaArray *res, int dtype)
{
    CaArray *A = NULL, *B = NULL, *C = NULL;
    int rc = -1;
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    if (dtype == CA_FLOAT8_E4M3FN || dtype == CA_FLOAT8_E5M2) {
        PyErr_Format(PyExc_TypeError,
                     "matrix products of %s are not supported: float8 is a storage "
                     "type here; cast to bfloat16 or float32 first",
                     ca_dtype_name[dtype]);
        return -1;
    }
    if (res->device == CA_CPU && !emulate && dtype == CA_BFLOAT16) {
        return cpu_matmul_bf16(a, b, res);
    }
    if (res->device == CA_CPU && !emulate) {
        CaArray *ca = cast_to(a, dtype), *cb = ca ? cast_to(b, dtype) : NULL;
        if (cb != NULL) {
            rc = numpy_matmul_into(ca, cb, res);
        }
        Py_XDECREF(ca);
        Py_XDECREF(cb);
        return rc;
    }
    /* 1-D operands become (1, k) and (k, 1) matrices; the result gets the
     * missing dimensions back as length-1 dimensions of a view. */
    Py_ssize_t shp[CA_MAX_DIMS + 2], str[CA_MAX_DIMS + 2];
    if ((A = matmul_operand(a, 1)) == NULL || (B = matmul_operand(b, 0)) == NULL) {
        goto done;
    }
    if (na > 1 && nb > 1) {
        Py_INCREF(res);
        C = res;
    }
    else {
        int nr = CA_NDIM(res), j = 0;
        int nbatch = nr - (na > 1) - (nb > 1);
        for (int i = 0; i < nbatch; i++, j++) {
            shp[j] = CA_SHAPE(res)[i];
            str[j] = CA_STRIDES(res)[i];
        }
        shp[j] = na > 1 ? CA_SHAPE(res)[nbatch] : 1;
        str[j] = na > 1 ? CA_STRIDES(res)[nbatch] : 0;
        j++;
        shp[j] = nb > 1 ? CA_SHAPE(res)[nr - 1] : 1;
        str[j] = nb > 1 ? CA_STRIDES(res)[nr - 1] : 0;
        j++;
        C = view_of(res, j, shp, str);
        if (C == NULL) {
            goto done;
        }
    }
    {
        CaArray *ca = cast_to(A, dtype);
        if (ca == NULL) {
            goto done;
        }
        Py_SETREF(A, ca);
        CaArray *cb = cast_to(B, dtype);
        if (cb == NULL) {
            goto done;
        }
        Py_SETREF(B, cb);
    }
    rc = product(A, B, C, 0);
done:
    Py_XDECREF(A);
    Py_XDECREF(B);
    Py_XDECREF(C);
    return rc;
}

/* NumPy's matmul: shapes, broadcasting, dtype, out=. dtype -1 = promote. */
static PyObject *
matmul_arrays(CaArray *a, CaArray *b, CaArray *out, int dtype)
{
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    if (na == 0 || nb == 0) {
        PyErr_Format(PyExc_ValueError,
                     "matmul: Input operand %d does not have enough dimensions (has 0, "
                     "gufunc core with signature " MATMUL_SIG " requires 1)",
                     na == 0 ? 0 : 1);
        return NULL;
    }
    const Py_ssize_t ka = CA_SHAPE(a)[na - 1];
    const Py_ssize_t kb = nb == 1 ? CA_SHAPE(b)[0] : CA_SHAPE(b)[nb - 2];
    if (ka != kb) {
        PyErr_Format(
            PyExc_ValueError,
            "matmul: Input operand 1 has a mismatch in its core dimension 0, with "
            "gufunc signature " MATMUL_SIG " (size %zd is different from %zd)",
            kb, ka);
        return NULL;
    }
    /* broadcast the batch dimensions */
    const int ba = na > 2 ? na - 2 : 0, bb = nb > 2 ? nb - 2 : 0;
    int nbatch = 0;
    Py_ssize_t shape[CA_MAX_DIMS + 2];
    if (ca_broadcast_into(&nbatch, shape, ba, CA_SHAPE(a)) < 0 ||
        ca_broadcast_into(&nbatch, shape, bb, CA_SHAPE(b)) < 0) {
        PyObject *s1 = ca_shape_text(na, CA_SHAPE(a)),
                 *s2 = ca_shape_text(nb, CA_SHAPE(b));
        if (s1 != NULL && s2 != NULL) {
            PyErr_Format(PyExc_ValueError,
                         "matmul: operands could not be broadcast together: batch "
                         "dimensions of %U and %U differ",
                         s1, s2);
        }
        Py_XDECREF(s1);
        Py_XDECREF(s2);
        return NULL;
    }
    int nr = nbatch;
    if (na > 1) {
        shape[nr++] = CA_SHAPE(a)[na - 2];
    }
    if (nb > 1) {
        shape[nr++] = CA_SHAPE(b)[nb - 1];
    }
    if (nr > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "matmul: result would have %d dimensions", nr);
        return NULL;
    }
    if (dtype < 0) {
        dtype = ca_promote(a->dtype, b->dtype);
        if (dtype < 0) {
            return NULL;
        }
    }
    if (out != NULL && check_out("matmul", out, a->device, dtype, nr, shape) < 0) {
        return NULL;
    }
    CaArray *res;
    if (out != NULL && out->dtype == dtype && !may_share(out, a) &&
        !may_share(out, b)) {
        /* any layout: the core writes strided outputs itself */
        Py_INCREF(out);
        res = out;
    }
    else {
        res = result_array(out, a, b, dtype, a->device, nr, shape);
    }
    return computed_result(matmul_compute, a, b, res, out, dtype);
}

/* dtype= of matmul: the computation dtype; the inputs must cast to it by
 * 'same_kind', as NumPy's ufuncs require. */
static int
compute_dtype(PyObject *obj, CaArray *a, CaArray *b)
{
    if (obj == NULL || obj == Py_None) {
        return -1;
    }
    int dt = ca_dtype_converter(obj, CA_FLOAT64);
    if (dt < 0) {
        return -2;
    }
    CaArray *ops[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        if (!PyArray_CanCastTypeTo(ca_descr(ops[i]->dtype), ca_descr(dt),
                                   NPY_SAME_KIND_CASTING)) {
            PyErr_Format(
                PyExc_TypeError,
                "Cannot cast matmul input from dtype('%s') to dtype('%s') with "
                "casting rule 'same_kind'",
                ca_dtype_name[ops[i]->dtype], ca_dtype_name[dt]);
            return -2;
        }
    }
    return dt;
}

/* r, after releasing the operands a and b. */
static PyObject *
release_operands(CaArray *a, CaArray *b, PyObject *r)
{
    Py_DECREF(a);
    Py_DECREF(b);
    return r;
}

/* The operands (new references in *a and *b) and the out= argument (borrowed,
 * NULL for none) of a product; -1 on error. */
static int
product_args(const char *fname, PyObject *x, PyObject *y, PyObject *out_obj,
             CaArray **a, CaArray **b, CaArray **out)
{
    if ((*out = out_arg(fname, out_obj)) == (CaArray *)-1) {
        return -1;
    }
    return two_operands(x, y, a, b, NULL);
}

static PyObject *
linalg_matmul(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
    static const char *const names[] = { "x1", "x2", "out", "dtype", NULL };
    PyObject *v[4];
    CaArray *a = NULL, *b = NULL, *out;
    PyObject *r = NULL;
    if (ca_parse_args("matmul", args, nargs, kwnames, names, 3, 2, v) < 0) {
        return NULL;
    }
    if (product_args("matmul", v[0], v[1], v[2], &a, &b, &out) < 0) {
        return NULL;
    }
    int dt = compute_dtype(v[3], a, b);
    if (dt != -2) {
        r = matmul_arrays(a, b, out, dt);
    }
    return release_operands(a, b, r);
}

/* ---- the @ and @= operators ---- */
/* x @ y into out (NULL: a new array); NotImplemented for an operand of a type
 * cuarray does not know. */
static PyObject *
matmul_operator(PyObject *x, PyObject *y, CaArray *out)
{
    CaArray *a = NULL, *b = NULL;
    int unknown = 0;
    if (two_operands(x, y, &a, &b, &unknown) < 0) {
        if (unknown) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        return NULL;
    }
    return release_operands(a, b, matmul_arrays(a, b, out, -1));
}

static PyObject *
Ndarray_matmul(PyObject *x, PyObject *y)
{
    return matmul_operator(x, y, NULL);
}

static PyObject *
Ndarray_imatmul(PyObject *x, PyObject *y)
{
    if (!ca_array_check(x)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    /* As NumPy: a @= b is matmul(a, b, out=a); a keeps its shape and dtype. */
    return matmul_operator(x, y, (CaArray *)x);
}

/* ======================================================================== */
/* tensordot, dot, inner, outer, vdot                                         */
/* ======================================================================== */
/* res (C order, already shaped as the caller's result) = the contraction of
 * the 2-D operands A2 (P x K) and B2 (K x Q), res viewed as (P x Q). */
static int
matrix_product_into(CaArray *A2, CaArray *B2, CaArray *res, int dtype)
{
    Py_ssize_t shape[2] = { CA_SHAPE(A2)[0], CA_SHAPE(B2)[1] };
    Py_ssize_t strides[2] = { shape[1] * res->itemsize, res->itemsize };
    CaArray *C = view_of(res, 2, shape, strides);
    if (C == NULL) {
        return -1;
    }
    int rc = matmul_compute(A2, B2, C, dtype);
    Py_DECREF(C);
    return rc;
}

/* The product of the 2-D operands A2 and B2 of a and b as the caller's result
 * (nd, shape): written into out or a new array (result_array), then returned as
 * finish_result does. */
static PyObject *
product_result(CaArray *A2, CaArray *B2, CaArray *out, CaArray *a, CaArray *b,
               int dtype, int nd, const Py_ssize_t *shape)
{
    CaArray *res = result_array(out, a, b, dtype, a->device, nd, shape);
    return computed_result(matrix_product_into, A2, B2, res, out, dtype);
}

/* The view of x with `axes` (n of them, in that order) moved to the end
 * (axes_last) or to the front, the other axes keeping their order. */
static CaArray *
permuted(CaArray *x, const int *axes, int n, int axes_last)
{
    int nd = CA_NDIM(x);
    int used[CA_MAX_DIMS] = { 0 };
    int perm[CA_MAX_DIMS];
    int j = 0;
    for (int i = 0; i < n; i++) {
        used[axes[i]] = 1;
    }
    if (!axes_last) {
        for (int i = 0; i < n; i++) {
            perm[j++] = axes[i];
        }
    }
    for (int d = 0; d < nd; d++) {
        if (!used[d]) {
            perm[j++] = d;
        }
    }
    if (axes_last) {
        for (int i = 0; i < n; i++) {
            perm[j++] = axes[i];
        }
    }
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    for (int d = 0; d < nd; d++) {
        shape[d] = CA_SHAPE(x)[perm[d]];
        strides[d] = CA_STRIDES(x)[perm[d]];
    }
    return view_of(x, nd, shape, strides);
}

/* sum over axes_a of a and axes_b of b (n pairs, normalized, checked). */
static PyObject *
tensordot_arrays(CaArray *a, CaArray *b, const int *axes_a, const int *axes_b, int n,
                 CaArray *out, const char *fname)
{
    CaArray *pa = NULL, *pb = NULL, *A2 = NULL, *B2 = NULL;
    PyObject *r = NULL;
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    int dtype = ca_promote(a->dtype, b->dtype);
    if (dtype < 0) {
        return NULL;
    }
    Py_ssize_t shape[CA_MAX_DIMS];
    int nr = 0;
    if (na - n + nb - n > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "%s: the result would have too many dimensions",
                     fname);
        return NULL;
    }
    if ((pa = permuted(a, axes_a, n, 1)) == NULL ||
        (pb = permuted(b, axes_b, n, 0)) == NULL) {
        goto done;
    }
    for (int d = 0; d < na - n; d++) {
        shape[nr++] = CA_SHAPE(pa)[d];
    }
    for (int d = n; d < nb; d++) {
        shape[nr++] = CA_SHAPE(pb)[d];
    }
    if (out != NULL && check_out(fname, out, a->device, dtype, nr, shape) < 0) {
        goto done;
    }
    if ((A2 = as_2d(pa, na - n)) == NULL || (B2 = as_2d(pb, n)) == NULL) {
        goto done;
    }
    r = product_result(A2, B2, out, a, b, dtype, nr, shape);
done:
    Py_XDECREF(pa);
    Py_XDECREF(pb);
    Py_XDECREF(A2);
    Py_XDECREF(B2);
    return r;
}

/* x * s for a 0-d s (dot's and inner's scalar case), as an outer product
 * with k = 1. */
static PyObject *
scalar_product(CaArray *x, CaArray *s, CaArray *out, const char *fname)
{
    CaArray *x1 = NULL, *s1 = NULL, *A = NULL, *B = NULL;
    PyObject *r = NULL;
    int dtype = ca_promote(x->dtype, s->dtype);
    if (dtype < 0) {
        return NULL;
    }
    if (out != NULL &&
        check_out(fname, out, x->device, dtype, CA_NDIM(x), CA_SHAPE(x)) < 0) {
        return NULL;
    }
    if ((x1 = as_1d(x)) == NULL || (s1 = as_1d(s)) == NULL) {
        goto done;
    }
    {
        Py_ssize_t sh[2] = { CA_SHAPE(x1)[0], 1 }, st[2] = { CA_STRIDES(x1)[0], 0 };
        if ((A = view_of(x1, 2, sh, st)) == NULL) {
            goto done;
        }
        Py_ssize_t sh1[2] = { 1, 1 }, st1[2] = { 0, 0 };
        if ((B = view_of(s1, 2, sh1, st1)) == NULL) {
            goto done;
        }
    }
    r = product_result(A, B, out, x, s, dtype, CA_NDIM(x), CA_SHAPE(x));
done:
    Py_XDECREF(x1);
    Py_XDECREF(s1);
    Py_XDECREF(A);
    Py_XDECREF(B);
    return r;
}

static int
not_aligned(CaArray *a, CaArray *b, int da, int db)
{
    PyObject *s1 = ca_shape_text(CA_NDIM(a), CA_SHAPE(a)),
             *s2 = ca_shape_text(CA_NDIM(b), CA_SHAPE(b));
    if (s1 != NULL && s2 != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "shapes %U and %U not aligned: %zd (dim %d) != %zd "
                     "(dim %d)",
                     s1, s2, CA_SHAPE(a)[da], da, CA_SHAPE(b)[db], db);
    }
    Py_XDECREF(s1);
    Py_XDECREF(s2);
    return -1;
}

static PyObject *
dot_arrays(CaArray *a, CaArray *b, CaArray *out)
{
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    if (na == 0 || nb == 0) {
        return na == 0 ? scalar_product(b, a, out, "dot")
                       : scalar_product(a, b, out, "dot");
    }
    const int db = nb == 1 ? 0 : nb - 2;
    if (CA_SHAPE(a)[na - 1] != CA_SHAPE(b)[db]) {
        not_aligned(a, b, na - 1, db);
        return NULL;
    }
    if (nb == 1 || (na <= 2 && nb <= 2)) {
        /* matmul's rules give dot's result here */
        return matmul_arrays(a, b, out, -1);
    }
    int axa = na - 1, axb = nb - 2;
    return tensordot_arrays(a, b, &axa, &axb, 1, out, "dot");
}

/* dot(x, y, out=out_obj) of the parsed arguments (numpy.dot and ndarray.dot). */
static PyObject *
dot_objects(PyObject *x, PyObject *y, PyObject *out_obj)
{
    CaArray *a = NULL, *b = NULL, *out;
    if (product_args("dot", x, y, out_obj, &a, &b, &out) < 0) {
        return NULL;
    }
    return release_operands(a, b, dot_arrays(a, b, out));
}

static PyObject *
linalg_dot(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "a", "b", "out", NULL };
    PyObject *v[3];
    if (ca_parse_args("dot", args, nargs, kwnames, names, 3, 2, v) < 0) {
        return NULL;
    }
    return dot_objects(v[0], v[1], v[2]);
}

static PyObject *
Ndarray_dot(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "b", "out", NULL };
    PyObject *v[2];
    if (ca_parse_args("dot", args, nargs, kwnames, names, 2, 1, v) < 0) {
        return NULL;
    }
    return dot_objects(self, v[0], v[1]);
}

/* A datetime64/timedelta64 operand hands the whole call to
 * cuarray._datetime.<fname> (NumPy's answer or refusal, datetime_hook.h): 1 with
 * *r its result, 0 for other operands. */
static int
dt_product(const char *fname, PyObject *x, PyObject *y, PyObject *const *args,
           Py_ssize_t nargs, PyObject *kwnames, PyObject **r)
{
    PyObject *o = !Py_IS_TYPE(x, ca_st->ndarray_type) && ca_dt_is(x)   ? x
                  : !Py_IS_TYPE(y, ca_st->ndarray_type) && ca_dt_is(y) ? y
                                                                       : NULL;
    if (o == NULL) {
        return 0;
    }
    ca_dt_raise(o);
    *r = ca_dt_retry(NULL, fname, args, nargs, kwnames);
    return 1;
}

static PyObject *
linalg_inner(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "a", "b", NULL };
    PyObject *v[2];
    CaArray *a = NULL, *b = NULL;
    PyObject *r = NULL;
    if (ca_parse_args("inner", args, nargs, kwnames, names, 2, 2, v) < 0) {
        return NULL;
    }
    if (dt_product("inner", v[0], v[1], args, nargs, kwnames, &r)) {
        return r;
    }
    if (two_operands(v[0], v[1], &a, &b, NULL) < 0) {
        return NULL;
    }
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    if (na == 0 || nb == 0) {
        r = na == 0 ? scalar_product(b, a, NULL, "inner")
                    : scalar_product(a, b, NULL, "inner");
    }
    else if (CA_SHAPE(a)[na - 1] != CA_SHAPE(b)[nb - 1]) {
        not_aligned(a, b, na - 1, nb - 1);
    }
    else {
        int axa = na - 1, axb = nb - 1;
        r = tensordot_arrays(a, b, &axa, &axb, 1, NULL, "inner");
    }
    return release_operands(a, b, r);
}

/* The cleanup of outer and vdot: the operands, their 1-D forms and 2-D views. */
static void
release_views(CaArray *a, CaArray *b, CaArray *a1, CaArray *b1, CaArray *A, CaArray *B)
{
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_XDECREF(a1);
    Py_XDECREF(b1);
    Py_XDECREF(A);
    Py_XDECREF(B);
}

static PyObject *
linalg_outer(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "a", "b", "out", NULL };
    PyObject *v[3];
    CaArray *a = NULL, *b = NULL, *a1 = NULL, *b1 = NULL, *A = NULL, *B = NULL,
            *res = NULL;
    CaArray *out;
    PyObject *r = NULL;
    if (ca_parse_args("outer", args, nargs, kwnames, names, 3, 2, v) < 0) {
        return NULL;
    }
    if (dt_product("outer", v[0], v[1], args, nargs, kwnames, &r)) {
        return r;
    }
    if (product_args("outer", v[0], v[1], v[2], &a, &b, &out) < 0) {
        return NULL;
    }
    int dtype = ca_promote(a->dtype, b->dtype);
    if (dtype < 0) {
        goto done;
    }
    if ((a1 = as_1d(a)) == NULL || (b1 = as_1d(b)) == NULL) {
        goto done;
    }
    Py_ssize_t shape[2] = { CA_SHAPE(a1)[0], CA_SHAPE(b1)[0] };
    if (out != NULL && check_out("outer", out, a->device, dtype, 2, shape) < 0) {
        goto done;
    }
    {
        Py_ssize_t sh[2] = { shape[0], 1 }, st[2] = { CA_STRIDES(a1)[0], 0 };
        Py_ssize_t shb[2] = { 1, shape[1] }, stb[2] = { 0, CA_STRIDES(b1)[0] };
        if ((A = view_of(a1, 2, sh, st)) == NULL ||
            (B = view_of(b1, 2, shb, stb)) == NULL) {
            goto done;
        }
    }
    res = result_array(out, a, b, dtype, a->device, 2, shape);
    if (res == NULL) {
        goto done;
    }
    if (a->device == CA_CPU) {
        /* the cpu device: a broadcast multiply, as NumPy's outer (a K = 1 GEMM
         * through NumPy's matmul is 4x slower there) */
        PyObject *ab[2] = { (PyObject *)A, (PyObject *)B };
        PyObject *m = ca_ew_call(CA_OP_multiply, ab, (PyObject *)res, -1);
        if (m == NULL) {
            Py_CLEAR(res);
            goto done;
        }
        Py_DECREF(m);
    }
    else if (matrix_product_into(A, B, res, dtype) < 0) {
        Py_CLEAR(res);
        goto done;
    }
    r = finish_result(res, out);
    res = NULL;
done:
    release_views(a, b, a1, b1, A, B);
    Py_XDECREF(res);
    return r;
}

static PyObject *
linalg_vdot(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "a", "b", NULL };
    PyObject *v[2];
    CaArray *a = NULL, *b = NULL, *a1 = NULL, *b1 = NULL, *A = NULL, *B = NULL;
    CaArray *res = NULL, *C = NULL;
    PyObject *r = NULL, *va = NULL, *vb = NULL, *vr = NULL, *s = NULL;
    if (ca_parse_args("vdot", args, nargs, kwnames, names, 2, 2, v) < 0) {
        return NULL;
    }
    if (dt_product("vdot", v[0], v[1], args, nargs, kwnames, &r)) {
        return r;
    }
    if (two_operands(v[0], v[1], &a, &b, NULL) < 0) {
        return NULL;
    }
    int dtype = ca_promote(a->dtype, b->dtype);
    if (dtype < 0) {
        goto done;
    }
    if (a->size != b->size) {
        PyErr_Format(PyExc_ValueError,
                     "vdot: the operands have different sizes (%zd and %zd)", a->size,
                     b->size);
        goto done;
    }
    Py_ssize_t no_dims = 0;
    res = ca_array_empty(dtype, 0, &no_dims, 0, a->device,
                         a->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
    if (res == NULL) {
        goto done;
    }
    if (a->device == CA_CPU && !emulate) {
        /* NumPy's vdot flattens and conjugates; its scalar goes into res. */
        if (load_numpy_funcs() < 0 || (va = ca_cpu_numpy_view(a)) == NULL ||
            (vb = ca_cpu_numpy_view(b)) == NULL ||
            (vr = ca_cpu_numpy_view(res)) == NULL) {
            goto done;
        }
        s = PyObject_CallFunctionObjArgs(np_vdot, va, vb, NULL);
        if (s == NULL || PyObject_SetItem(vr, Py_Ellipsis, s) < 0) {
            goto done;
        }
        r = (PyObject *)res;
        res = NULL;
        goto done;
    }
    if ((a1 = as_1d(a)) == NULL || (b1 = as_1d(b)) == NULL) {
        goto done;
    }
    {
        CaArray *t = cast_to(a1, dtype);
        if (t == NULL) {
            goto done;
        }
        Py_SETREF(a1, t);
        t = cast_to(b1, dtype);
        if (t == NULL) {
            goto done;
        }
        Py_SETREF(b1, t);
        const Py_ssize_t K = CA_SHAPE(a1)[0];
        Py_ssize_t sha[2] = { 1, K }, sta[2] = { 0, CA_STRIDES(a1)[0] };
        Py_ssize_t shb[2] = { K, 1 }, stb[2] = { CA_STRIDES(b1)[0], 0 };
        Py_ssize_t shc[2] = { 1, 1 }, stc[2] = { 0, 0 };
        if ((A = view_of(a1, 2, sha, sta)) == NULL ||
            (B = view_of(b1, 2, shb, stb)) == NULL ||
            (C = view_of(res, 2, shc, stc)) == NULL) {
            goto done;
        }
    }
    if (product(A, B, C, ca_is_complex(dtype)) < 0) {
        goto done;
    }
    r = (PyObject *)res;
    res = NULL;
done:
    release_views(a, b, a1, b1, A, B);
    Py_XDECREF(C);
    Py_XDECREF(res);
    Py_XDECREF(va);
    Py_XDECREF(vb);
    Py_XDECREF(vr);
    Py_XDECREF(s);
    return r;
}

/* ---- tensordot's axes ---- */
static int
axis_error(const char *msg, int axis, int ndim)
{
    return ca_axis_error_in(msg, axis, ndim);
}

/* An int or a sequence of ints -> out[], normalized against ndim. Returns the
 * count or -1. */
static int
axes_list(PyObject *o, int ndim, int *out)
{
    PyObject *seq = ca_ints_tuple(o);
    int n;
    if (seq == NULL) {
        return -1;
    }
    n = (int)PyTuple_GET_SIZE(seq);
    if (n > CA_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "tensordot: too many axes");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        Py_ssize_t ax =
            PyNumber_AsSsize_t(PyTuple_GET_ITEM(seq, i), PyExc_OverflowError);
        if (ax == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (ax < -ndim || ax >= ndim) {
            Py_DECREF(seq);
            return axis_error("tensordot", (int)ax, ndim);
        }
        out[i] = (int)(ax < 0 ? ax + ndim : ax);
        for (int j = 0; j < i; j++) {
            if (out[j] == out[i]) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, "tensordot: repeated axis");
                return -1;
            }
        }
    }
    Py_DECREF(seq);
    return n;
}

static PyObject *
linalg_tensordot(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames)
{
    static const char *const names[] = { "a", "b", "axes", NULL };
    PyObject *v[3];
    CaArray *a = NULL, *b = NULL;
    PyObject *r = NULL;
    int axa[CA_MAX_DIMS], axb[CA_MAX_DIMS];
    int n = -1, nb2 = -1;
    if (ca_parse_args("tensordot", args, nargs, kwnames, names, 3, 2, v) < 0) {
        return NULL;
    }
    if (dt_product("tensordot", v[0], v[1], args, nargs, kwnames, &r)) {
        return r;
    }
    if (two_operands(v[0], v[1], &a, &b, NULL) < 0) {
        return NULL;
    }
    const int na = CA_NDIM(a), nb = CA_NDIM(b);
    PyObject *axes = v[2];
    if (axes == NULL || PyLong_Check(axes) || PyIndex_Check(axes)) {
        Py_ssize_t N = 2;
        if (axes != NULL) {
            N = PyNumber_AsSsize_t(axes, PyExc_OverflowError);
            if (N == -1 && PyErr_Occurred()) {
                goto done;
            }
        }
        if (N < 0 || N > na || N > nb) {
            PyErr_Format(
                PyExc_ValueError,
                "tensordot: axes=%zd must lie in [0, %d] for operands of %d and %d "
                "dimensions",
                N, na < nb ? na : nb, na, nb);
            goto done;
        }
        n = nb2 = (int)N;
        for (int i = 0; i < n; i++) {
            axa[i] = na - n + i;
            axb[i] = i;
        }
    }
    else {
        PyObject *pair = PySequence_Tuple(axes);
        if (pair == NULL) {
            goto done;
        }
        if (PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(
                PyExc_ValueError,
                "tensordot: axes must be an int or a pair of axis sequences");
            goto done;
        }
        n = axes_list(PyTuple_GET_ITEM(pair, 0), na, axa);
        if (n >= 0) {
            nb2 = axes_list(PyTuple_GET_ITEM(pair, 1), nb, axb);
        }
        Py_DECREF(pair);
        if (n < 0 || nb2 < 0) {
            goto done;
        }
    }
    if (n != nb2) {
        PyErr_SetString(PyExc_ValueError, "shape-mismatch for sum");
        goto done;
    }
    for (int i = 0; i < n; i++) {
        if (CA_SHAPE(a)[axa[i]] != CA_SHAPE(b)[axb[i]]) {
            PyErr_SetString(PyExc_ValueError, "shape-mismatch for sum");
            goto done;
        }
    }
    r = tensordot_arrays(a, b, axa, axb, n, NULL, "tensordot");
done:
    Py_XDECREF(a);
    Py_XDECREF(b);
    return r;
}

/* ======================================================================== */
/* Settings and test hooks                                                    */
/* ======================================================================== */
/* The METH_O setters of the flags (_set_allow_tf32, _linalg_emulate). */
#define FLAG_SETTER(fn, flag)                                                          \
    static PyObject *fn(PyObject *self, PyObject *arg)                                 \
    {                                                                                  \
        return ca_swap_flag(&flag, arg);                                               \
    }
FLAG_SETTER(linalg_set_allow_tf32, allow_tf32)
FLAG_SETTER(linalg_emulate, emulate)

static PyObject *
linalg_get_allow_tf32(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(allow_tf32);
}

static PyObject *
linalg_small_limits(PyObject *self, PyObject *args)
{
    long long work, k;
    if (!PyArg_ParseTuple(args, "LL:_linalg_small_limits", &work, &k)) {
        return NULL;
    }
    PyObject *old =
        Py_BuildValue("LL", (long long)small_max_work, (long long)small_max_k);
    if (old != NULL) {
        small_max_work = work;
        small_max_k = k;
    }
    return old;
}

static PyObject *
linalg_last_route(PyObject *self, PyObject *unused)
{
    if (last_route == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_FromString(last_route);
}

static PyObject *
linalg_cublas_path(PyObject *self, PyObject *unused)
{
    return ca_path_or_none(ca_blas_path());
}

static PyObject *
linalg_cublas_load(PyObject *self, PyObject *unused)
{
    if (ca_blas_load() < 0) {
        return NULL;
    }
    return linalg_cublas_path(self, unused);
}

/* ======================================================================== */
/* Tables                                                                     */
/* ======================================================================== */
#define FASTKW (METH_FASTCALL | METH_KEYWORDS)

static PyMethodDef linalg_functions[] = {
    { "matmul", (PyCFunction)(void (*)(void))linalg_matmul, FASTKW,
      "matmul(x1, x2, /, out=None, *, dtype=None)\n--\n\n"
      "Matrix product with NumPy's rules: 1-D operands are promoted to matrices and\n"
      "the added dimension removed from the result, batch dimensions broadcast.\n"
      "float16, float32, float64 and complex go through cuBLAS on a GPU (float16\n"
      "accumulating in float32; float32 without TF32 unless enabled, see\n"
      "cuarray.linalg.set_allow_tf32), bool and integers through cuarray's own\n"
      "kernel (wrapping like NumPy's), and so do small float32/float64 products\n"
      "(at most 128**3 multiply-adds, k <= 128; full precision, one launch).\n"
      "The cpu device uses NumPy's matmul." },
    { "dot", (PyCFunction)(void (*)(void))linalg_dot, FASTKW,
      "dot(a, b, out=None)\n--\n\n"
      "NumPy's dot: a product for 0-d operands, the inner product of vectors, the\n"
      "matrix product of matrices, and for N-D operands the sum over the last axis\n"
      "of a and the second-to-last of b. Returns an array (0-d for vectors)." },
    { "vdot", (PyCFunction)(void (*)(void))linalg_vdot, FASTKW,
      "vdot(a, b, /)\n--\n\n"
      "Dot product of the flattened operands, conjugating a. Returns a 0-d array\n"
      "(NumPy returns a scalar; like CuPy, no synchronization)." },
    { "inner", (PyCFunction)(void (*)(void))linalg_inner, FASTKW,
      "inner(a, b, /)\n--\n\nSum product over the last axes of a and b." },
    { "outer", (PyCFunction)(void (*)(void))linalg_outer, FASTKW,
      "outer(a, b, out=None)\n--\n\nOuter product of the flattened operands." },
    { "tensordot", (PyCFunction)(void (*)(void))linalg_tensordot, FASTKW,
      "tensordot(a, b, axes=2)\n--\n\n"
      "Sum products over axes: an int N (the last N of a with the first N of b) or\n"
      "a pair of axis sequences, as NumPy's tensordot." },
    { "_set_allow_tf32", linalg_set_allow_tf32, METH_O,
      "Allow TF32 for float32 products (True/False); returns the previous setting." },
    { "_get_allow_tf32", linalg_get_allow_tf32, METH_NOARGS, NULL },
    { "_linalg_emulate", linalg_emulate, METH_O,
      "Test hook: route cpu-device products through the cuBLAS call plan and a host\n"
      "stand-in for cuBLAS instead of NumPy. Returns the previous setting." },
    { "_linalg_small_limits", linalg_small_limits, METH_VARARGS,
      "Test hook: _linalg_small_limits(work, k) sets the bounds under which float32\n"
      "and float64 products use cuarray's tiled kernel instead of cuBLAS\n"
      "(batch*m*n*k <= work and k <= k); returns the previous pair." },
    { "_linalg_last_route", linalg_last_route, METH_NOARGS,
      "Test hook: how the last product outside NumPy ran: 'tiled' (cuarray's\n"
      "kernel or its host loop), 'blas' (cuBLAS or its host stand-in), or None." },
    { "_cublas_path", linalg_cublas_path, METH_NOARGS,
      "Where cuBLAS was loaded from, or None when it has not been loaded." },
    { "_cublas_load", linalg_cublas_load, METH_NOARGS,
      "Load cuBLAS now (it loads on the first GPU product otherwise); returns the\n"
      "path it was loaded from, or raises ImportError saying where it looked." },
    { NULL, NULL, 0, NULL },
};

PyMethodDef ca_linalg_array_methods[] = {
    { "dot", (PyCFunction)(void (*)(void))Ndarray_dot, FASTKW,
      "dot(b, out=None)\n--\n\nThe dot product of this array and b (cuarray.dot)." },
    { NULL, NULL, 0, NULL },
};

PyType_Slot ca_linalg_number_slots[] = {
    { Py_nb_matrix_multiply, (void *)Ndarray_matmul },
    { Py_nb_inplace_matrix_multiply, (void *)Ndarray_imatmul },
    { 0, NULL },
};

static int
env_true(const char *name)
{
    const char *v = getenv(name);
    if (v == NULL) {
        return 0;
    }
    return strcmp(v, "1") == 0 || strcasecmp(v, "true") == 0 ||
           strcasecmp(v, "yes") == 0 || strcasecmp(v, "on") == 0;
}

int
ca_linalg_init(PyObject *m)
{
    allow_tf32 = env_true("CUARRAY_ALLOW_TF32");
    return PyModule_AddFunctions(m, linalg_functions);
}

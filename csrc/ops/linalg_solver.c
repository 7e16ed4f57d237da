/*
 * linalg_solver.c: the one primitive under cuarray.linalg's factorizations,
 * `_solver`, which runs one cuSOLVER (or batched cuBLAS LU) operation over a
 * stack of column-major matrices on a GPU (launch_solver.c), or on the cpu
 * device in the host LAPACK NumPy loaded (solver_host.c). Everything else --
 * layouts, stacking, dtypes, results, the info checks -- is Python
 * (python/cuarray/_linalg_factor.py), which sends the cpu device here only for
 * the matrices it does not give to numpy.linalg.
 *
 * Its arrays are cuarray arrays on one device, C-contiguous, each a stack of
 * `batch` equal blocks (batch = info.size); the blocks' sizes are checked
 * against the leading dimensions and the operation's shape, so a wrong call
 * raises instead of reading or writing out of bounds.
 */
#include "cuarray.h"
#include "host_lapack.h"
#include "launch.h"

typedef struct {
    CaArray *a, *b, *c, *w, *ipiv, *info;
} solver_arrays;

/* The array argument `o` (None allowed when `optional`), else TypeError. */
static int
arg_array(PyObject *o, const char *what, int optional, CaArray **out)
{
    *out = NULL;
    if (o == Py_None && optional) {
        return 0;
    }
    if (!ca_array_check(o)) {
        PyErr_Format(PyExc_TypeError, "_solver: %s must be a cuarray array", what);
        return -1;
    }
    CaArray *x = (CaArray *)o;
    if (!(x->flags & CA_C_CONTIGUOUS) || !(x->flags & CA_WRITEABLE)) {
        PyErr_Format(PyExc_ValueError, "_solver: %s must be C-contiguous and writeable",
                     what);
        return -1;
    }
    *out = x;
    return 0;
}

/* Elements per block of `x` (0 for no array), checked against `need`. */
static int
block(const CaArray *x, const char *what, int64_t batch, int device, int dtype,
      int64_t need, int64_t *stride)
{
    *stride = 0;
    if (x == NULL) {
        return 0;
    }
    if (x->size > 0 && x->device != device) {
        PyErr_Format(PyExc_ValueError, "_solver: %s is on another device", what);
        return -1;
    }
    if (x->dtype != dtype) {
        PyErr_Format(PyExc_TypeError, "_solver: %s has the wrong dtype", what);
        return -1;
    }
    if (x->size % batch != 0 || x->size / batch < need) {
        PyErr_Format(PyExc_ValueError,
                     "_solver: %s holds %zd elements, %lld blocks of %lld needed", what,
                     x->size, (long long)batch, (long long)need);
        return -1;
    }
    *stride = x->size / batch;
    return 0;
}

static int
real_of(int dtype)
{
    return dtype == CA_COMPLEX64    ? CA_FLOAT32
           : dtype == CA_COMPLEX128 ? CA_FLOAT64
                                    : dtype;
}

/* What each operation needs of each array, per matrix (elements). */
static int
check_blocks(ca_solver_args *s, const solver_arrays *x, int device)
{
    const int64_t m = s->m, n = s->n, k = s->k, B = s->batch;
    const int t = s->dtype, rt = real_of(t), op = s->op;
    const int lu32 = op == CA_SOLVER_GETRF_BATCHED || op == CA_SOLVER_GETRI_BATCHED ||
                     op == CA_SOLVER_GETRS_BATCHED;
    int64_t need_b = 0, need_c = 0, need_w = 0, need_p = 0;
    int wt = t;
    switch (op) {
    case CA_SOLVER_GETRF:
    case CA_SOLVER_GETRF_BATCHED: need_p = m < n ? m : n; break;
    case CA_SOLVER_GETRS:
    case CA_SOLVER_GETRS_BATCHED:
        need_p = n;
        need_b = s->ldb * (k - 1) + n;
        break;
    case CA_SOLVER_GETRI_BATCHED:
        need_p = n;
        need_b = s->ldb * (n - 1) + n;
        break;
    case CA_SOLVER_GEQRF:
    case CA_SOLVER_ORGQR: need_w = op == CA_SOLVER_ORGQR ? k : (m < n ? m : n); break;
    case CA_SOLVER_SYEVD:
    case CA_SOLVER_SYEV_BATCHED:
        need_w = n;
        wt = rt;
        break;
    case CA_SOLVER_GESVD:
        need_w = n;
        wt = rt;
        need_b = s->jobu == 'A'   ? s->ldb * (m - 1) + m
                 : s->jobu == 'S' ? s->ldb * (n - 1) + m
                                  : 0;
        need_c = s->jobvt == 'A' || s->jobvt == 'S' ? s->ldc * (n - 1) + n : 0;
        break;
    case CA_SOLVER_GESVDJ: {
        const int64_t mn = m < n ? m : n;
        need_w = mn;
        wt = rt;
        need_b = s->jobu == 'A'   ? s->ldb * (m - 1) + m
                 : s->jobu == 'S' ? s->ldb * (mn - 1) + m
                                  : 0;
        need_c = s->jobu == 'A'   ? s->ldc * (n - 1) + n
                 : s->jobu == 'S' ? s->ldc * (mn - 1) + n
                                  : 0;
        break;
    }
    case CA_SOLVER_GEEV:
        need_w = ca_is_complex(t) ? n : 2 * n;
        need_b = s->vectors ? s->ldb * (n - 1) + n : 0;
        break;
    default: break;
    }
    const int64_t lda_need = s->lda * (n - 1) + m;
    if (s->lda < (m > 1 ? m : 1) || (x->b != NULL && s->ldb < 1) ||
        (x->c != NULL && s->ldc < 1)) {
        PyErr_SetString(PyExc_ValueError, "_solver: bad leading dimension");
        return -1;
    }
    if ((need_b > 0 && x->b == NULL) || (need_c > 0 && x->c == NULL) ||
        (need_w > 0 && x->w == NULL) || (need_p > 0 && x->ipiv == NULL)) {
        PyErr_SetString(PyExc_ValueError,
                        "_solver: an array the operation needs is None");
        return -1;
    }
    if (block(x->a, "a", B, device, t, lda_need, &s->sa) < 0 ||
        block(x->b, "b", B, device, t, need_b, &s->sb) < 0 ||
        block(x->c, "c", B, device, t, need_c, &s->sc) < 0 ||
        block(x->w, "w", B, device, wt, need_w, &s->sw) < 0 ||
        block(x->ipiv, "ipiv", B, device, lu32 ? CA_INT32 : CA_INT64, need_p,
              &s->sipiv) < 0) {
        return -1;
    }
    int64_t unused;
    return block(x->info, "info", B, device, CA_INT32, 1, &unused);
}

static void *
data_of(const CaArray *x)
{
    return x == NULL ? NULL : (void *)x->data;
}

static PyObject *
linalg_solver(PyObject *self, PyObject *args)
{
    (void)self;
    int op, lower, trans, vectors, jobu, jobvt;
    long long lda, ldb, ldc, m, n, k;
    PyObject *oa, *ob, *oc, *ow, *op_, *oi;
    solver_arrays x;
    ca_solver_args s;
    if (!PyArg_ParseTuple(args, "iOLOLOLOOOLLLiiiCC:_solver", &op, &oa, &lda, &ob, &ldb,
                          &oc, &ldc, &ow, &op_, &oi, &m, &n, &k, &lower, &trans,
                          &vectors, &jobu, &jobvt)) {
        return NULL;
    }
    if (arg_array(oa, "a", 0, &x.a) < 0 || arg_array(ob, "b", 1, &x.b) < 0 ||
        arg_array(oc, "c", 1, &x.c) < 0 || arg_array(ow, "w", 1, &x.w) < 0 ||
        arg_array(op_, "ipiv", 1, &x.ipiv) < 0 ||
        arg_array(oi, "info", 0, &x.info) < 0) {
        return NULL;
    }
    if (m < 0 || n < 0 || k < 0) {
        PyErr_SetString(PyExc_ValueError, "_solver: negative size");
        return NULL;
    }
    memset(&s, 0, sizeof s);
    s.op = op;
    s.dtype = x.a->dtype;
    s.m = m, s.n = n, s.k = k;
    s.lda = lda, s.ldb = ldb, s.ldc = ldc;
    s.batch = x.info->size;
    s.lower = lower, s.trans = trans, s.vectors = vectors;
    s.jobu = (char)jobu, s.jobvt = (char)jobvt;
    if (s.batch == 0 || m == 0 || n == 0 ||
        ((op == CA_SOLVER_GETRS || op == CA_SOLVER_GETRS_BATCHED) && k == 0)) {
        Py_RETURN_NONE; /* nothing to factor (Python shapes the empty results) */
    }
    const int device = x.a->device;
    if (check_blocks(&s, &x, device) < 0) {
        return NULL;
    }
    s.a = data_of(x.a), s.b = data_of(x.b), s.c = data_of(x.c), s.w = data_of(x.w);
    s.ipiv = data_of(x.ipiv);
    s.info = (int *)data_of(x.info);
    if (device == CA_CPU) {
        if (ca_run_solver_host(&s) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (ca_use_device(device) < 0 ||
        ca_run_solver(device, ca_current_stream(device), &s) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
linalg_cusolver_path(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return ca_path_or_none(ca_solver_lib_path());
}

static PyObject *
linalg_host_lapack_path(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    const char *p = NULL;
    Py_BEGIN_ALLOW_THREADS
        p = ca_host_lapack(CA_FLOAT32) != NULL ? ca_host_lapack_path() : NULL;
    Py_END_ALLOW_THREADS
    return ca_path_or_none(p);
}

static PyMethodDef solver_functions[] = {
    { "_solver", linalg_solver, METH_VARARGS,
      "_solver(op, a, lda, b, ldb, c, ldc, w, ipiv, info, m, n, k, lower, trans,\n"
      "        vectors, jobu, jobvt)\n--\n\n"
      "Internal (cuarray.linalg): one cuSOLVER / batched cuBLAS LU operation (op:\n"
      "the CA_SOLVER_* number of csrc/runtime/launch.h) over C-contiguous stacks of\n"
      "column-major matrices, in place, on the current stream (the cpu device:\n"
      "host LAPACK, synchronously). Arrays not used\n"
      "are None; info (int32, one per matrix) gets LAPACK's codes." },
    { "_cusolver_path", linalg_cusolver_path, METH_NOARGS,
      "Where cuSOLVER was loaded from, or None when it has not been loaded." },
    { "_host_lapack_path", linalg_host_lapack_path, METH_NOARGS,
      "The loaded library whose LAPACK the cpu device's _solver calls (found on\n"
      "the first call among the process's shared objects), or None." },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(linalg_solver, solver_functions)

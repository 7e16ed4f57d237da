/*
 * sparse.c: the primitives under cuarray.scipy.sparse's products on a GPU,
 * `_sparse_spmm` (SpMV / SpMM) and `_sparse_spgemm`, over cuSPARSE
 * (launch_sparse.c). Everything else -- formats, dtype promotion, the CSC and
 * transpose views, results' classes -- is Python
 * (python/cuarray/scipy/sparse/_products.py), which sends only CSR buffers of
 * one index dtype and one value dtype here.
 *
 * The arguments are checked against each other (sizes, dtypes, device,
 * contiguity), so a wrong call raises instead of reading out of bounds; the
 * values of indptr and indices are trusted (SciPy's check_format is Python's).
 */
#include "cuarray.h"
#include "launch.h"

/* `o` as a C-contiguous cuarray array on a GPU `device` (-1: any; set). */
static CaArray *
sp_array(PyObject *o, const char *what, int *device)
{
    if (!ca_array_check(o)) {
        PyErr_Format(PyExc_TypeError, "_sparse: %s must be a cuarray array", what);
        return NULL;
    }
    CaArray *x = (CaArray *)o;
    if (!(x->flags & CA_C_CONTIGUOUS)) {
        PyErr_Format(PyExc_ValueError, "_sparse: %s must be C-contiguous", what);
        return NULL;
    }
    if (x->device == CA_CPU) {
        PyErr_Format(PyExc_ValueError,
                     "_sparse: %s is on the cpu device (cuSPARSE "
                     "runs on a GPU)",
                     what);
        return NULL;
    }
    if (*device >= 0 && x->device != *device) {
        PyErr_Format(PyExc_ValueError, "_sparse: %s is on another device", what);
        return NULL;
    }
    *device = x->device;
    return x;
}

static int
value_dtype_ok(int dtype)
{
    return dtype == CA_FLOAT32 || dtype == CA_FLOAT64 || dtype == CA_COMPLEX64 ||
           dtype == CA_COMPLEX128;
}

/* indptr (major + 1), indices and values (nnz each): dtypes and sizes. */
static int
check_csr(const CaArray *ptr, const CaArray *ind, const CaArray *val, int64_t major)
{
    if (ptr->dtype != ind->dtype ||
        (ptr->dtype != CA_INT32 && ptr->dtype != CA_INT64)) {
        PyErr_SetString(PyExc_TypeError,
                        "_sparse: indptr and indices must both be int32 or int64");
        return -1;
    }
    if (!value_dtype_ok(val->dtype)) {
        PyErr_SetString(PyExc_TypeError, "_sparse: values must be float32, float64, "
                                         "complex64 or complex128");
        return -1;
    }
    if (CA_NDIM(ptr) != 1 || ptr->size != major + 1) {
        PyErr_SetString(PyExc_ValueError, "_sparse: indptr must hold rows + 1 indices");
        return -1;
    }
    if (CA_NDIM(ind) != 1 || CA_NDIM(val) != 1 || ind->size != val->size) {
        PyErr_SetString(PyExc_ValueError,
                        "_sparse: indices and values must be 1-D of one size");
        return -1;
    }
    return 0;
}

/* x and out against op(A): (len_in[, k]) -> (len_out[, k]), A's dtype. */
static int
check_dense(const CaArray *x, const CaArray *out, int dtype, int64_t len_in,
            int64_t len_out, int64_t *k)
{
    const int nd = CA_NDIM(x);
    if (x->dtype != dtype || out->dtype != dtype) {
        PyErr_SetString(PyExc_TypeError, "_sparse: x and out must have A's dtype");
        return -1;
    }
    if ((nd != 1 && nd != 2) || CA_NDIM(out) != nd || CA_SHAPE(x)[0] != len_in ||
        CA_SHAPE(out)[0] != len_out ||
        (nd == 2 && CA_SHAPE(x)[1] != CA_SHAPE(out)[1])) {
        PyErr_SetString(PyExc_ValueError, "_sparse: x and out do not match op(A)");
        return -1;
    }
    if (!(out->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "_sparse: out is read-only");
        return -1;
    }
    *k = nd == 2 ? CA_SHAPE(x)[1] : 0;
    return 0;
}

static PyObject *
sparse_spmm(PyObject *self, PyObject *args)
{
    (void)self;
    int op, device = -1;
    long long rows, cols;
    PyObject *o[5];
    CaArray *ptr, *ind, *val, *x, *out;
    if (!PyArg_ParseTuple(args, "iLLOOOOO:_sparse_spmm", &op, &rows, &cols, &o[0],
                          &o[1], &o[2], &o[3], &o[4])) {
        return NULL;
    }
    if (op < 0 || op > 2 || rows < 0 || cols < 0) {
        PyErr_SetString(PyExc_ValueError, "_sparse_spmm: bad op or shape");
        return NULL;
    }
    if ((ptr = sp_array(o[0], "indptr", &device)) == NULL ||
        (ind = sp_array(o[1], "indices", &device)) == NULL ||
        (val = sp_array(o[2], "values", &device)) == NULL ||
        (x = sp_array(o[3], "x", &device)) == NULL ||
        (out = sp_array(o[4], "out", &device)) == NULL ||
        check_csr(ptr, ind, val, rows) < 0) {
        return NULL;
    }
    ca_spmm_args a;
    memset(&a, 0, sizeof a);
    if (check_dense(x, out, val->dtype, op ? rows : cols, op ? cols : rows, &a.k) < 0) {
        return NULL;
    }
    a.op = op, a.dtype = val->dtype, a.index_dtype = ptr->dtype;
    a.rows = rows, a.cols = cols, a.nnz = val->size;
    a.indptr = ptr->data, a.indices = ind->data, a.values = val->data;
    a.x = x->data, a.y = out->data;
    if (ca_use_device(device) < 0 ||
        ca_run_sparse_spmm(device, ca_current_stream(device), &a) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* SpGEMM's output buffers, made once C's nnz is known. */
typedef struct {
    int device, index_dtype, dtype;
    CaArray *ind, *val;
} spgemm_out;

static int
spgemm_alloc(void *ctx, int64_t nnz, void **ind, void **val)
{
    spgemm_out *c = (spgemm_out *)ctx;
    Py_ssize_t n = (Py_ssize_t)nnz;
    c->ind = ca_array_empty(c->index_dtype, 1, &n, 0, c->device, CA_MEM_DEVICE);
    c->val = ca_array_empty(c->dtype, 1, &n, 0, c->device, CA_MEM_DEVICE);
    if (c->ind == NULL || c->val == NULL) {
        return -1;
    }
    *ind = c->ind->data;
    *val = c->val->data;
    return 0;
}

static PyObject *
sparse_spgemm(PyObject *self, PyObject *args)
{
    (void)self;
    int device = -1;
    long long m, k, n;
    PyObject *o[6];
    CaArray *x[6];
    const char *names[6] = { "a_indptr", "a_indices", "a_values",
                             "b_indptr", "b_indices", "b_values" };
    if (!PyArg_ParseTuple(args, "LLLOOOOOO:_sparse_spgemm", &m, &k, &n, &o[0], &o[1],
                          &o[2], &o[3], &o[4], &o[5])) {
        return NULL;
    }
    if (m < 0 || k < 0 || n < 0) {
        PyErr_SetString(PyExc_ValueError, "_sparse_spgemm: negative size");
        return NULL;
    }
    for (int i = 0; i < 6; i++) {
        if ((x[i] = sp_array(o[i], names[i], &device)) == NULL) {
            return NULL;
        }
    }
    if (check_csr(x[0], x[1], x[2], m) < 0 || check_csr(x[3], x[4], x[5], k) < 0) {
        return NULL;
    }
    if (x[0]->dtype != x[3]->dtype || x[2]->dtype != x[5]->dtype) {
        PyErr_SetString(PyExc_TypeError, "_sparse_spgemm: A and B differ in dtypes");
        return NULL;
    }
    Py_ssize_t np1 = (Py_ssize_t)m + 1;
    spgemm_out c = { device, x[0]->dtype, x[2]->dtype, NULL, NULL };
    CaArray *ptr = ca_array_empty(c.index_dtype, 1, &np1, 0, device, CA_MEM_DEVICE);
    PyObject *result = NULL;
    if (ptr == NULL) {
        return NULL;
    }
    ca_spgemm_args a = {
        c.dtype,    c.index_dtype, m,          k,          n,
        x[2]->size, x[5]->size,    x[0]->data, x[1]->data, x[2]->data,
        x[3]->data, x[4]->data,    x[5]->data, ptr->data,  spgemm_alloc,
        &c
    };
    if (ca_use_device(device) < 0 ||
        ca_run_sparse_spgemm(device, ca_current_stream(device), &a) < 0) {
        goto finish;
    }
    result = PyTuple_Pack(3, (PyObject *)ptr, (PyObject *)c.ind, (PyObject *)c.val);
finish:
    Py_DECREF(ptr);
    Py_XDECREF(c.ind);
    Py_XDECREF(c.val);
    return result;
}

static PyObject *
sparse_cusparse_path(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return ca_path_or_none(ca_sparse_lib_path());
}

static PyMethodDef sparse_functions[] = {
    { "_sparse_spmm", sparse_spmm, METH_VARARGS,
      "_sparse_spmm(op, rows, cols, indptr, indices, values, x, out)\n--\n\n"
      "Internal (cuarray.scipy.sparse): out = op(A) @ x for the CSR matrix A\n"
      "(rows x cols) on a GPU, through cuSPARSE's SpMV (x 1-D) or SpMM (x 2-D,\n"
      "C-ordered); op 0 = A, 1 = A.T, 2 = A.H; on the current stream." },
    { "_sparse_spgemm", sparse_spgemm, METH_VARARGS,
      "_sparse_spgemm(m, k, n, a_indptr, a_indices, a_values, b_indptr,\n"
      "               b_indices, b_values)\n--\n\n"
      "Internal (cuarray.scipy.sparse): the CSR product A @ B (m x k, k x n)\n"
      "through cuSPARSE's SpGEMM: (indptr, indices, values) of C." },
    { "_cusparse_path", sparse_cusparse_path, METH_NOARGS,
      "Where cuSPARSE was loaded from, or None when it has not been loaded." },
    { NULL, NULL, 0, NULL },
};

int
ca_sparse_init(PyObject *m)
{
    return PyModule_AddFunctions(m, sparse_functions);
}

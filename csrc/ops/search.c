/*
 * search.c: nonzero (and where(condition), which elementwise.c forwards here
 * through cuarray.nonzero), flatnonzero, argwhere, count_nonzero, and the
 * ndarray method nonzero.
 *
 * "Nonzero" is NumPy's truth of an element: != 0, NaN true, -0.0 false, a
 * complex number true when either part is. That is exactly the cast to bool
 * (kernels/scalar.h), so the input is cast to a C-ordered bool mask (bool and
 * 8-bit integer arrays that are C-contiguous serve as their own mask: the mask
 * kernels read any nonzero byte as true) and the boolean-mask machinery of
 * a[mask] (kernels.h: ca_mask_count, ca_mask_offsets) finds the true
 * positions as C-order flat indices; ca_unravel_index turns those into
 * coordinates where more than one dimension needs them.
 *
 * The result's length is data: counting waits for the stream once (the same
 * as a[mask]; the README lists it among the sync points), reading the count
 * as float(x) reads its element (readback.c). count_nonzero needs no count on
 * the host: it is a sum of the mask, a 0-d array for axis=None (as CuPy; NumPy
 * returns a Python int), and does not synchronize.
 */
#include "launch.h"

#include <string.h>

#include "readback.h"
#include "watch.h"

static PyObject *str_sum = NULL;          /* "sum" */
static PyObject *kwnames_keepdims = NULL; /* ("keepdims",) */

/* ======================================================================== */
/* Helpers                                                                   */
/* ======================================================================== */


/* The true elements of one array: its mask (C order, a->size bytes), the
 * count's scratch (the mask kernels need it again for the offsets) and the
 * count itself, read back to the host. */
typedef struct {
    int device;
    ca_stream_t stream;
    CaArray *mask;
    CaArray *scratch;
    int64_t count;
} nz_count;

static void
nz_clear(nz_count *c)
{
    Py_CLEAR(c->mask);
    Py_CLEAR(c->scratch);
}

/* Count the nonzero elements of `a` (any dtype, layout and dimension count).
 * Waits for the stream on a GPU: the count becomes a result's shape. */
static int
nz_count_run(CaArray *a, nz_count *c)
{
    c->device = a->device;
    c->stream = NULL;
    c->mask = NULL;
    c->scratch = NULL;
    c->count = 0;
    if (a->size == 0) {
        return 0; /* nothing to count, nothing to wait for */
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    c->stream = ca_current_stream(a->device);
    int bytes = a->dtype == CA_BOOL || a->dtype == CA_INT8 || a->dtype == CA_UINT8;
    if (bytes && (a->flags & CA_C_CONTIGUOUS)) {
        Py_INCREF(a);
        c->mask = a;
    }
    else {
        c->mask = ca_array_copy(a, CA_BOOL, 'C');
        if (c->mask == NULL) {
            goto error;
        }
    }
    const int64_t n = (int64_t)a->size;
    Py_ssize_t ns = (Py_ssize_t)ca_mask_scratch_size(c->device, n);
    c->scratch = ca_array_empty(CA_INT64, 1, &ns, 0, c->device,
                                ca_index_scratch_kind(c->device));
    if (c->scratch == NULL) {
        goto error;
    }
    int64_t *scratch = (int64_t *)c->scratch->data;
    if (ca_run_mask_count(c->device, (const uint8_t *)c->mask->data, n, scratch,
                          c->stream) < 0) {
        goto error;
    }
    ca_count_d2h(sizeof(int64_t)); /* the count, read back */
    if (c->device == CA_CPU) {
        CA_COUNT(syncs); /* the GPU's paths count their own waits */
        c->count = scratch[0];
        return 0;
    }
    /* As float(x.sum()) reads its element (ndarray.c): the readback slot (one
     * round trip, usually no synchronization), else a pinned bounce buffer,
     * else a plain copy and a synchronization. */
    int64_t total = 0;
    int r =
        ca_readback_element(c->device, scratch, (int)sizeof total, &total, c->stream);
    if (r > 0) {
        r = ca_bounce_copy(&total, scratch, sizeof total, 1, c->stream);
    }
    if (r < 0) {
        goto error;
    }
    if (r > 0) {
        if (ca_run_memcpy_wait(&total, scratch, sizeof total, c->stream) < 0) {
            goto error;
        }
    }
    if (total < 0 || total > n) {
        PyErr_Format(PyExc_SystemError, "nonzero: the mask count %lld is out of range",
                     (long long)total);
        goto error;
    }
    c->count = total;
    return 0;
error:
    nz_clear(c);
    return -1;
}

/* Write the flat (C-order) indices of the true elements to `out` (count int64,
 * contiguous). */
static int
nz_flat(const nz_count *c, int64_t n, int64_t *out)
{
    if (c->count == 0) {
        return 0;
    }
    const int64_t shape[1] = { n };
    const int64_t strides[1] = { 1 };
    return ca_run_mask_offsets(c->device, (const uint8_t *)c->mask->data, n,
                               (const int64_t *)c->scratch->data, 1, shape, strides,
                               out, c->stream);
}

static void
shape64(const CaArray *a, int64_t *shape)
{
    for (int d = 0; d < CA_NDIM(a); d++) {
        shape[d] = (int64_t)CA_SHAPE(a)[d];
    }
}

/* ======================================================================== */
/* nonzero                                                                   */
/* ======================================================================== */

static PyObject *
nonzero_impl(CaArray *a)
{
    const int ndim = CA_NDIM(a);
    nz_count c = { 0 };
    CaArray *buf = NULL;
    PyObject *res = NULL;
    int64_t shape[CA_MAX_DIMS];

    if (ndim == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "Calling nonzero on 0d arrays is not allowed. Use "
                        "a.reshape(1).nonzero() instead. If the context of this error "
                        "is of the form `arr[nonzero(cond)]`, just use `arr[cond]`.");
        return NULL;
    }
    if (nz_count_run(a, &c) < 0) {
        return NULL;
    }
    const Py_ssize_t N = (Py_ssize_t)c.count;
    res = PyTuple_New(ndim);
    if (res == NULL) {
        goto error;
    }
    if (N == 0) {
        /* views of an empty buffer would point at nothing: fresh empty arrays */
        for (int d = 0; d < ndim; d++) {
            CaArray *e =
                ca_array_empty(CA_INT64, 1, &N, 0, a->device, ca_gather_result_kind(a));
            if (e == NULL) {
                goto error;
            }
            PyTuple_SET_ITEM(res, d, (PyObject *)e);
        }
        nz_clear(&c);
        return res;
    }
    /* One (ndim, N) buffer, each row one contiguous result: the flat indices
     * go to the last row and are unravelled in place (kernels.h allows it). */
    Py_ssize_t bshape[2] = { ndim, N };
    buf = ca_array_empty(CA_INT64, ndim == 1 ? 1 : 2, ndim == 1 ? &N : bshape, 0,
                         a->device, ca_gather_result_kind(a));
    if (buf == NULL) {
        goto error;
    }
    const int64_t row = (int64_t)N * (int64_t)sizeof(int64_t);
    int64_t *last = (int64_t *)(buf->data + (ndim - 1) * row);
    if (nz_flat(&c, (int64_t)a->size, last) < 0) {
        goto error;
    }
    if (ndim > 1) {
        shape64(a, shape);
        if (ca_run_unravel_index(c.device, last, c.count, ndim, shape, buf->data,
                                 (int64_t)sizeof(int64_t), row, c.stream) < 0) {
            goto error;
        }
    }
    nz_clear(&c);
    if (ndim == 1) {
        PyTuple_SET_ITEM(res, 0, (PyObject *)buf);
        return res;
    }
    const Py_ssize_t st = (Py_ssize_t)sizeof(int64_t);
    for (int d = 0; d < ndim; d++) {
        CaArray *v = ca_array_view(buf, CA_INT64, 1, &N, &st, buf->data + d * row);
        if (v == NULL) {
            goto error;
        }
        PyTuple_SET_ITEM(res, d, (PyObject *)v);
    }
    Py_DECREF(buf);
    return res;
error:
    nz_clear(&c);
    Py_XDECREF(buf);
    Py_XDECREF(res);
    return NULL;
}

/* ======================================================================== */
/* flatnonzero, argwhere                                                     */
/* ======================================================================== */

static PyObject *
flatnonzero_impl(CaArray *a)
{
    nz_count c = { 0 };
    CaArray *out = NULL;

    if (nz_count_run(a, &c) < 0) {
        return NULL;
    }
    Py_ssize_t N = (Py_ssize_t)c.count;
    out = ca_array_empty(CA_INT64, 1, &N, 0, a->device, ca_gather_result_kind(a));
    if (out == NULL || nz_flat(&c, (int64_t)a->size, (int64_t *)out->data) < 0) {
        goto error;
    }
    nz_clear(&c);
    return (PyObject *)out;
error:
    nz_clear(&c);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *
argwhere_impl(CaArray *a)
{
    const int ndim = CA_NDIM(a);
    nz_count c = { 0 };
    CaArray *out = NULL, *flat = NULL;
    int64_t shape[CA_MAX_DIMS];

    if (nz_count_run(a, &c) < 0) {
        return NULL;
    }
    /* NumPy: a 0-d input gives (1, 0) when true and (0, 0) when false. */
    Py_ssize_t N = (Py_ssize_t)c.count;
    Py_ssize_t oshape[2] = { N, ndim };
    out = ca_array_empty(CA_INT64, 2, oshape, 0, a->device, ca_gather_result_kind(a));
    if (out == NULL) {
        goto error;
    }
    if (N == 0 || ndim == 0) {
        nz_clear(&c);
        return (PyObject *)out;
    }
    if (ndim == 1) {
        if (nz_flat(&c, (int64_t)a->size, (int64_t *)out->data) < 0) {
            goto error;
        }
        nz_clear(&c);
        return (PyObject *)out;
    }
    /* Rows of out are not where the flat indices can be unravelled in place
     * (row i's flat index would sit in another row): a scratch column. */
    flat =
        ca_array_empty(CA_INT64, 1, &N, 0, a->device, ca_index_scratch_kind(a->device));
    if (flat == NULL || nz_flat(&c, (int64_t)a->size, (int64_t *)flat->data) < 0) {
        goto error;
    }
    shape64(a, shape);
    const int64_t w = (int64_t)sizeof(int64_t);
    if (ca_run_unravel_index(c.device, (const int64_t *)flat->data, c.count, ndim,
                             shape, out->data, ndim * w, w, c.stream) < 0) {
        goto error;
    }
    nz_clear(&c);
    Py_DECREF(flat);
    return (PyObject *)out;
error:
    nz_clear(&c);
    Py_XDECREF(flat);
    Py_XDECREF(out);
    return NULL;
}

/* ======================================================================== */
/* count_nonzero                                                             */
/* ======================================================================== */

/* The sum of the bool mask, by ndarray.sum (its axis= and keepdims= rules,
 * AxisError included): bool sums in int64, NumPy's intp. */
static PyObject *
count_nonzero_impl(CaArray *a, PyObject *axis, PyObject *keepdims)
{
    CaArray *mask = NULL;
    PyObject *res = NULL;

    if (a->dtype == CA_BOOL) {
        Py_INCREF(a);
        mask = a;
    }
    else {
        if (ca_use_device(a->device) < 0) {
            return NULL;
        }
        mask = ca_array_copy(a, CA_BOOL, 'K');
        if (mask == NULL) {
            return NULL;
        }
    }
    PyObject *args[3] = { (PyObject *)mask, axis != NULL ? axis : Py_None,
                          keepdims != NULL ? keepdims : Py_False };
    res = PyObject_VectorcallMethod(str_sum, args, 2, kwnames_keepdims);
    Py_DECREF(mask);
    return res;
}

/* ======================================================================== */
/* Python entry points                                                       */
/* ======================================================================== */

static const char *const names_a[] = { "a", NULL };

/* The module functions of one array and nothing else: FN(a) = IMPL(a). */
#define ENTRY_1(FN, NAME, IMPL)                                                        \
    static PyObject *FN(PyObject *m, PyObject *const *args, Py_ssize_t nargs,          \
                        PyObject *kwnames)                                             \
    {                                                                                  \
        PyObject *v[1];                                                                \
        CaArray *a;                                                                    \
        if (ca_parse_array_args(NAME, args, nargs, kwnames, names_a, 1, 1, v, &a) <    \
            0) {                                                                       \
            return NULL;                                                               \
        }                                                                              \
        return IMPL(a);                                                                \
    }
static const char *const names_count[] = { "a", "axis", "keepdims", NULL };

ENTRY_1(py_nonzero, "nonzero", nonzero_impl)

PyObject *
ca_nonzero(PyObject *obj, const char *fname)
{
    CaArray *a = ca_require_array(fname, obj);
    return a != NULL ? nonzero_impl(a) : NULL;
}

static PyObject *
Ndarray_nonzero(PyObject *self, PyObject *unused)
{
    (void)unused;
    return nonzero_impl((CaArray *)self);
}

ENTRY_1(py_flatnonzero, "flatnonzero", flatnonzero_impl)

ENTRY_1(py_argwhere, "argwhere", argwhere_impl)

static PyObject *
py_count_nonzero(PyObject *m, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames)
{
    PyObject *v[3];
    CaArray *a;
    (void)m;
    /* keepdims is keyword-only, as NumPy's */
    int rc = ca_parse_args("count_nonzero", args, nargs, kwnames, names_count, 2, 1, v);
    if (rc < 0 || (a = ca_require_array("count_nonzero", v[0])) == NULL) {
        return NULL;
    }
    return count_nonzero_impl(a, v[1], v[2]);
}

#define CA_FC    (PyCFunction)(void (*)(void))
#define CA_FLAGS (METH_FASTCALL | METH_KEYWORDS)

#define DOC_NONZERO                                                                    \
    "nonzero(a)\n--\n\n"                                                               \
    "The indices of the nonzero elements: a tuple of int64 arrays, one per\n"          \
    "dimension, in C order (numpy.nonzero). Nonzero means != 0; NaN counts as\n"       \
    "nonzero, -0.0 as zero, a complex number is nonzero when either part is.\n"        \
    "The result's length depends on the data, so this waits for the array's\n"         \
    "stream once. A 0-d array raises ValueError (as NumPy 2)."
#define DOC_NONZERO_METHOD                                                             \
    "nonzero($self, /)\n--\n\n"                                                        \
    "The indices of the nonzero elements (see cuarray.nonzero)."
#define DOC_FLATNONZERO                                                                \
    "flatnonzero(a)\n--\n\n"                                                           \
    "The int64 indices of the nonzero elements of a.ravel() (numpy.flatnonzero).\n"    \
    "Waits for the array's stream once (the result's length depends on the data)."
#define DOC_ARGWHERE                                                                   \
    "argwhere(a)\n--\n\n"                                                              \
    "The indices of the nonzero elements as one int64 array of shape (N, a.ndim),\n"   \
    "one row per element in C order (numpy.argwhere; a 0-d input gives (1, 0) or\n"    \
    "(0, 0)). Waits for the array's stream once."
#define DOC_COUNT_NONZERO                                                              \
    "count_nonzero(a, axis=None, *, keepdims=False)\n--\n\n"                           \
    "The number of nonzero elements (int64) over the given axes (an int, a tuple,\n"   \
    "None for all). As CuPy, and unlike NumPy (a Python int), axis=None gives a 0-d\n" \
    "array, so nothing waits for the GPU; int() of it synchronizes."

static PyMethodDef search_functions[] = {
    { "nonzero", CA_FC py_nonzero, CA_FLAGS, DOC_NONZERO },
    { "flatnonzero", CA_FC py_flatnonzero, CA_FLAGS, DOC_FLATNONZERO },
    { "argwhere", CA_FC py_argwhere, CA_FLAGS, DOC_ARGWHERE },
    { "count_nonzero", CA_FC py_count_nonzero, CA_FLAGS, DOC_COUNT_NONZERO },
    { NULL, NULL, 0, NULL },
};

PyMethodDef ca_search_array_methods[] = {
    { "nonzero", Ndarray_nonzero, METH_NOARGS, DOC_NONZERO_METHOD },
    { NULL, NULL, 0, NULL },
};

int
ca_search_init(PyObject *m)
{
    if (str_sum == NULL) {
        str_sum = PyUnicode_InternFromString("sum");
        if (str_sum == NULL) {
            return -1;
        }
    }
    if (kwnames_keepdims == NULL) {
        kwnames_keepdims = Py_BuildValue("(s)", "keepdims");
        if (kwnames_keepdims == NULL) {
            return -1;
        }
    }
    return PyModule_AddFunctions(m, search_functions);
}

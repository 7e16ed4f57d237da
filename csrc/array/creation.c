/*
 * creation.c: array creation (empty, zeros, ones, full, the *_like forms,
 * arange, linspace, eye, identity) and the module functions that convert
 * arbitrary objects (asarray, array, ascontiguousarray, asfortranarray) through
 * convert.c. The argument helpers the C functions of _core share are in args.c.
 *
 * Creation is a hot path: arguments are parsed by hand (METH_FASTCALL) and
 * nothing goes through Python.
 */
#include "datetime_hook.h"
#include "launch.h"
#include "watch.h"

#include <string.h>

/* The bytes of 1 per dtype (ones()). */
static uint64_t ca_one_bytes[CA_NTYPES][2];

/* ======================================================================== */
/* empty, zeros, ones, full                                                   */
/* ======================================================================== */

static int
zero_fill(CaArray *a)
{
    size_t n = (size_t)a->size * (size_t)a->itemsize;
    if (n == 0) {
        return 0;
    }
    if (a->device == CA_CPU) {
        memset(a->data, 0, n);
        return 0;
    }
    if (a->kind == CA_MEM_PINNED) {
        /* Host memory: let ca_fill write it through its mapped address. */
        static const uint64_t zero[2] = { 0, 0 };
        return ca_array_fill(a, zero);
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    return ca_run_memset_async(a->data, 0, n, ca_current_stream(a->device));
}

/* The keyword names of the module functions below. */
static const char *const full_names[] = { "shape",  "fill_value", "dtype", "order",
                                          "device", "memory",     NULL };
static const char *const empty_names[] = { "shape",  "dtype",  "order",
                                           "device", "memory", NULL };
static const char *const like_impl_names[] = { "a",     "dtype",  "order",  "subok",
                                               "shape", "device", "memory", NULL };
static const char *const asarray_names[] = { "obj",  "dtype",  "order",    "device",
                                             "copy", "memory", "blocking", NULL };
static const char *const array_names[] = { "obj",   "dtype",  "copy",   "order",
                                           "ndmin", "device", "memory", NULL };
static const char *const contiguous_impl_names[] = { "a", "dtype", "device", "memory",
                                                     NULL };
static const char *const arange_names[] = { "start",  "stop",   "step", "dtype",
                                            "device", "memory", NULL };
static const char *const linspace_names[] = { "start",   "stop",  "num",  "endpoint",
                                              "retstep", "dtype", "axis", "device",
                                              "memory",  NULL };
static const char *const eye_names[] = { "N",     "M",      "k",      "dtype",
                                         "order", "device", "memory", NULL };
static const char *const identity_names[] = { "n", "dtype", "device", "memory", NULL };

/* Shared by empty/zeros/ones/full: parse shape, dtype, order, device, memory
 * and allocate. `v` holds shape, dtype, order, device, memory. */
static CaArray *
create_from_args(PyObject **v, int default_dtype)
{
    Py_ssize_t shape[CA_MAX_DIMS];
    int ndim = ca_shape_from_object(v[0], shape);
    if (ndim < 0) {
        return NULL;
    }
    int dtype, fortran, device, kind;
    if (ca_new_array_args(v + 1, default_dtype, &dtype, &fortran, &device, &kind) < 0) {
        return NULL;
    }
    return ca_array_empty(dtype, ndim, shape, fortran, device, (ca_memkind)kind);
}

/* empty (fill 0), zeros (1) and ones (2): (shape, dtype, order, *, device,
 * memory). */
static PyObject *
new_filled(const char *fname, PyObject *const *args, Py_ssize_t nargs,
           PyObject *kwnames, int fill)
{
    PyObject *v[5];
    if (ca_parse_args(fname, args, nargs, kwnames, empty_names, 3, 1, v) < 0) {
        return NULL;
    }
    CaArray *a = create_from_args(v, CA_FLOAT64);
    if (a != NULL && fill != 0 &&
        (fill == 1 ? zero_fill(a) : ca_array_fill(a, ca_one_bytes[a->dtype])) < 0) {
        Py_CLEAR(a);
    }
    return (PyObject *)a;
}

/* The module functions of one line: FN(self, args, nargs, kwnames) calling BODY. */
#define ENTRY(FN, BODY)                                                                \
    static PyObject *FN(PyObject *self, PyObject *const *args, Py_ssize_t nargs,       \
                        PyObject *kwnames)                                             \
    {                                                                                  \
        return BODY;                                                                   \
    }
/* (a datetime64/timedelta64 dtype or array hands the call to cuarray._datetime) */
#define DT_RETRY(NAME, CALL) ca_dt_retry(CALL, NAME, args, nargs, kwnames)
ENTRY(py_empty, DT_RETRY("empty", new_filled("empty", args, nargs, kwnames, 0)))
ENTRY(py_zeros, DT_RETRY("zeros", new_filled("zeros", args, nargs, kwnames, 1)))
ENTRY(py_ones, DT_RETRY("ones", new_filled("ones", args, nargs, kwnames, 2)))

/* The dtype NumPy gives np.array(value): for full(dtype=None). */
static int
value_dtype(PyObject *value)
{
    if (ca_array_check(value)) {
        return ((CaArray *)value)->dtype;
    }
    if (PyBool_Check(value)) {
        return CA_BOOL;
    }
    if (PyFloat_CheckExact(value)) {
        return CA_FLOAT64;
    }
    if (PyComplex_CheckExact(value)) {
        return CA_COMPLEX128;
    }
    PyObject *arr = PyArray_FromAny(value, NULL, 0, 0, 0, NULL);
    if (arr == NULL) {
        return -1;
    }
    int t = ca_dtype_from_descr(PyArray_DESCR((PyArrayObject *)arr));
    Py_DECREF(arr);
    return t;
}

static PyObject *
full_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[6];
    if (ca_parse_args("full", args, nargs, kwnames, full_names, 4, 2, v) < 0) {
        return NULL;
    }
    PyObject *cv[5] = { v[0], v[2], v[3], v[4], v[5] };
    if (cv[1] == NULL || cv[1] == Py_None) {
        int t = value_dtype(v[1]);
        if (t < 0) {
            return NULL;
        }
        cv[1] = (PyObject *)ca_descr(t);
    }
    CaArray *a = create_from_args(cv, CA_FLOAT64);
    if (a != NULL && ca_array_fill_object(a, v[1], 0) < 0) {
        Py_CLEAR(a);
    }
    return (PyObject *)a;
}

ENTRY(py_full, DT_RETRY("full", full_impl(args, nargs, kwnames)))

/* ---- *_like -------------------------------------------------------------- */

/* The new array of a *_like call whose prototype is a cuarray array `src`;
 * w: the parsed (a, dtype, order, subok, shape, device, memory). */
static CaArray *
like_array(CaArray *src, PyObject *const *w)
{
    int dtype, order;
    if (ca_dtype_order_from_objects(w[1], src->dtype, w[2], 'K', &dtype, &order) < 0) {
        return NULL;
    }
    int device = src->device, kind = src->kind;
    if (w[5] != NULL && w[5] != Py_None) {
        device = ca_device_from_object(w[5]);
        if (device == CA_DEVICE_ERROR) {
            return NULL;
        }
        if (device != src->device) {
            kind = device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
        }
    }
    if (w[6] != NULL && w[6] != Py_None) {
        kind = ca_memkind_from_object(w[6], device);
        if (kind < 0) {
            return NULL;
        }
    }
    if (w[4] == NULL || w[4] == Py_None) {
        return ca_array_empty_like(src, dtype, (char)order, device, (ca_memkind)kind);
    }
    Py_ssize_t shp[CA_MAX_DIMS];
    int nd = ca_shape_from_object(w[4], shp);
    if (nd < 0) {
        return NULL;
    }
    int fortran = order == 'F' ||
                  ((order == 'A' || order == 'K') && nd == CA_NDIM(src) &&
                   (src->flags & CA_F_CONTIGUOUS) && !(src->flags & CA_C_CONTIGUOUS));
    return ca_array_empty(dtype, nd, shp, fortran, device, (ca_memkind)kind);
}

/* The same for any other array-like prototype: its shape and dtype, through
 * NumPy (no transfer). */
static CaArray *
like_array_like(PyObject *proto, PyObject *const *w)
{
    PyObject *h = PyArray_FromAny(proto, NULL, 0, 0, 0, NULL);
    if (h == NULL) {
        return NULL;
    }
    int t = ca_dtype_from_descr(PyArray_DESCR((PyArrayObject *)h));
    if (t < 0 && (w[1] == NULL || w[1] == Py_None)) {
        Py_DECREF(h);
        return NULL;
    }
    PyErr_Clear();
    int fortran = PyArray_IS_F_CONTIGUOUS((PyArrayObject *)h) &&
                  !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)h);
    Py_ssize_t shp[CA_MAX_DIMS];
    int nd = PyArray_NDIM((PyArrayObject *)h);
    memcpy(shp, PyArray_DIMS((PyArrayObject *)h), (size_t)nd * sizeof(Py_ssize_t));
    Py_DECREF(h);
    int dtype, order;
    if (ca_dtype_order_from_objects(w[1], t < 0 ? CA_FLOAT64 : t, w[2], 'K', &dtype,
                                    &order) < 0) {
        return NULL;
    }
    if (w[4] != NULL && w[4] != Py_None) {
        nd = ca_shape_from_object(w[4], shp);
        if (nd < 0) {
            return NULL;
        }
    }
    int device, kind;
    if (ca_device_kind_from_objects(w[5], w[6], &device, &kind) < 0) {
        return NULL;
    }
    return ca_array_empty(dtype, nd, shp, order == 'F' || (order != 'C' && fortran),
                          device, (ca_memkind)kind);
}

/* mode: 0 empty, 1 zeros, 2 ones, 3 full (v[1] is fill_value). */
static PyObject *
like_impl(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
          int mode)
{
    static const char *const fnames[] = { "a",      "fill_value", "dtype",
                                          "order",  "subok",      "shape",
                                          "device", "memory",     NULL };
    PyObject *w[8];
    PyObject *fill = NULL;
    if (mode == 3) {
        if (ca_parse_args(fname, args, nargs, kwnames, fnames, 5, 2, w) < 0) {
            return NULL;
        }
        fill = w[1];
        memmove(w + 1, w + 2, 6 * sizeof(PyObject *));
    }
    else if (ca_parse_args(fname, args, nargs, kwnames, like_impl_names, 5, 1, w) < 0) {
        return NULL;
    }
    PyObject *proto = w[0];
    if (ca_dt_is(proto)) {
        return ca_dt_raise(proto), NULL;
    }
    CaArray *src = NULL, *r = NULL;
    if (ca_array_check(proto)) {
        src = (CaArray *)proto;
        Py_INCREF(src);
        r = like_array(src, w);
    }
    else {
        r = like_array_like(proto, w);
    }
    if (r == NULL) {
        goto error;
    }
    if ((mode == 1 && zero_fill(r) < 0) ||
        (mode == 2 && ca_array_fill(r, ca_one_bytes[r->dtype]) < 0) ||
        (mode == 3 && ca_array_fill_object(r, fill, 0) < 0)) {
        goto error;
    }
    Py_XDECREF(src);
    return (PyObject *)r;
error:
    Py_XDECREF(src);
    Py_XDECREF(r);
    return NULL;
}

/* The four *_like entry points: like_impl under their name, with their mode
 * (a datetime prototype retried in Python: DT_RETRY). */
#define LIKE_FUNCTION(name, mode)                                                      \
    static PyObject *py_##name(PyObject *self, PyObject *const *args,                  \
                               Py_ssize_t nargs, PyObject *kwnames)                    \
    {                                                                                  \
        return DT_RETRY(#name, like_impl(#name, args, nargs, kwnames, mode));          \
    }
LIKE_FUNCTION(empty_like, 0)
LIKE_FUNCTION(zeros_like, 1)
LIKE_FUNCTION(ones_like, 2)
LIKE_FUNCTION(full_like, 3)

/* ======================================================================== */
/* asarray                                                                    */
/* ======================================================================== */

/* Shared tail of asarray/array/ascontiguousarray: v = obj, dtype, order, device,
 * copy, memory. */
static PyObject *
asarray_impl(PyObject **v, char dflt_order, int dflt_copy)
{
    if (ca_dt_is(v[0])) {
        return ca_dt_raise(v[0]), NULL;
    }
    int dtype = -1;
    if (v[1] != NULL && v[1] != Py_None) {
        dtype = ca_dtype_converter(v[1], CA_FLOAT64);
        if (dtype < 0) {
            return NULL;
        }
    }
    int order = ca_order_from_object(v[2], dflt_order);
    if (order < 0) {
        return NULL;
    }
    int device = CA_DEVICE_AUTO;
    if (v[3] != NULL && v[3] != Py_None) {
        device = ca_device_from_object(v[3]);
        if (device == CA_DEVICE_ERROR) {
            return NULL;
        }
    }
    int copy = ca_copy_from_object(v[4], dflt_copy);
    if (copy == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int kind = -1;
    if (v[5] != NULL && v[5] != Py_None) {
        int dev = device;
        if (dev == CA_DEVICE_AUTO) {
            dev =
                ca_array_check(v[0]) ? ((CaArray *)v[0])->device : ca_current_device();
        }
        kind = ca_memkind_from_object(v[5], dev);
        if (kind < 0) {
            return NULL;
        }
    }
    int had = ca_guard_explicit_begin(); /* asarray is the explicit way in */
    PyObject *r = (PyObject *)ca_asarray(v[0], dtype, device, copy, (char)order, kind);
    ca_guard_explicit_end(had);
    return r;
}

static PyObject *
py_asarray(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[7];
    /* Fast path: asarray(x) of a cuarray array. */
    if (nargs == 1 && kwnames == NULL && ca_array_check(args[0])) {
        Py_INCREF(args[0]);
        return args[0];
    }
    if (ca_parse_args("asarray", args, nargs, kwnames, asarray_names, 3, 1, v) < 0) {
        return NULL;
    }
    /* CuPy's blocking=False lets the copy from host memory run on after the call;
     * cuarray's copies of host data are done (or staged) when asarray returns, which
     * is what either value promises the caller's buffer */
    if (v[6] != NULL && PyObject_IsTrue(v[6]) < 0) {
        return NULL;
    }
    return DT_RETRY("asarray", asarray_impl(v, 'K', -1));
}

static PyObject *
array_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[7];
    if (ca_parse_args("array", args, nargs, kwnames, array_names, 5, 1, v) < 0) {
        return NULL;
    }
    PyObject *w[6] = { v[0], v[1], v[3], v[5], v[2], v[6] };
    PyObject *r = asarray_impl(w, 'K', 1);
    if (r == NULL || v[4] == NULL) {
        return r;
    }
    Py_ssize_t ndmin = PyNumber_AsSsize_t(v[4], PyExc_OverflowError);
    if (ndmin == -1 && PyErr_Occurred()) {
        Py_DECREF(r);
        return NULL;
    }
    CaArray *a = (CaArray *)r;
    int nd = CA_NDIM(a);
    if (ndmin > CA_MAX_DIMS) {
        Py_DECREF(r);
        PyErr_Format(PyExc_ValueError,
                     "ndmin bigger than allowable number of dimensions "
                     "%d",
                     CA_MAX_DIMS);
        return NULL;
    }
    if (ndmin <= nd) {
        return r;
    }
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    int pad = (int)ndmin - nd;
    for (int i = 0; i < pad; i++) {
        shape[i] = 1;
        strides[i] = a->size == 0
                         ? 0
                         : (nd > 0 ? CA_STRIDES(a)[0] * CA_SHAPE(a)[0] : a->itemsize);
    }
    memcpy(shape + pad, CA_SHAPE(a), (size_t)nd * sizeof(Py_ssize_t));
    memcpy(strides + pad, CA_STRIDES(a), (size_t)nd * sizeof(Py_ssize_t));
    CaArray *res = ca_array_view(a, a->dtype, (int)ndmin, shape, strides, a->data);
    Py_DECREF(r);
    return (PyObject *)res;
}

ENTRY(py_array, DT_RETRY("array", array_impl(args, nargs, kwnames)))

static PyObject *
contiguous_impl(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames, char order)
{
    PyObject *v[4];
    if (ca_parse_args(fname, args, nargs, kwnames, contiguous_impl_names, 2, 1, v) <
        0) {
        return NULL;
    }
    PyObject *order_obj = PyUnicode_FromOrdinal(order);
    if (order_obj == NULL) {
        return NULL;
    }
    PyObject *w[6] = { v[0], v[1], order_obj, v[2], NULL, v[3] };
    PyObject *r = asarray_impl(w, order, -1);
    Py_DECREF(order_obj);
    if (r != NULL && CA_NDIM((CaArray *)r) == 0) {
        /* NumPy returns at least 1-d here. */
        CaArray *a = (CaArray *)r;
        Py_ssize_t one = 1, st = a->itemsize;
        CaArray *res = ca_array_view(a, a->dtype, 1, &one, &st, a->data);
        Py_DECREF(r);
        r = (PyObject *)res;
    }
    return r;
}

static PyObject *
py_ascontiguousarray(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    return DT_RETRY("ascontiguousarray",
                    contiguous_impl("ascontiguousarray", args, nargs, kwnames, 'C'));
}

static PyObject *
py_asfortranarray(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames)
{
    return DT_RETRY("asfortranarray",
                    contiguous_impl("asfortranarray", args, nargs, kwnames, 'F'));
}

/* ======================================================================== */
/* arange, linspace, eye, identity                                            */
/* ======================================================================== */

/* A host NumPy result -> an array of (device, kind): the cpu device keeps
 * NumPy's memory (the result is private), a GPU gets a copy. */
static PyObject *
from_host_result(PyObject *h, int device, int kind)
{
    if (h == NULL) {
        return NULL;
    }
    if (!PyArray_Check(h)) {
        Py_DECREF(h);
        PyErr_SetString(PyExc_SystemError, "expected a NumPy array");
        return NULL;
    }
    int t = ca_dtype_from_descr(PyArray_DESCR((PyArrayObject *)h));
    CaArray *r = NULL;
    if (t >= 0) {
        r = ca_asarray_numpy((PyArrayObject *)h, 1, t, device, -1, 'K', kind);
    }
    Py_DECREF(h);
    return (PyObject *)r;
}

/* A NumPy-readable scalar from an argument: cuarray arrays are fetched (a
 * datetime64 array by its get(), which keeps NumPy's dtype, a 0-d one as
 * NumPy's scalar: linspace then raises NumPy's error, arange computes in the
 * datetime unit). */
static PyObject *
host_scalar(PyObject *o)
{
    if (o != NULL && ca_dt_is(o)) {
        PyObject *h = PyObject_CallMethod(o, "get", NULL);
        if (h != NULL && PyArray_Check(h) && PyArray_NDIM((PyArrayObject *)h) == 0) {
            PyObject *empty = PyTuple_New(0); /* h[()]: NumPy's scalar */
            Py_SETREF(h, empty != NULL ? PyObject_GetItem(h, empty) : NULL);
            Py_XDECREF(empty);
        }
        return h;
    }
    if (o != NULL && ca_array_check(o)) {
        return ca_array_to_numpy((CaArray *)o);
    }
    return Py_XNewRef(o);
}

static PyObject *
arange_impl(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[6];
    if (ca_parse_args("arange", args, nargs, kwnames, arange_names, 4, 0, v) < 0) {
        return NULL;
    }
    if (v[0] == NULL && v[1] == NULL) {
        PyErr_SetString(PyExc_TypeError, "arange() requires stop to be specified.");
        return NULL;
    }
    PyArray_Descr *d = NULL;
    if (v[3] != NULL && v[3] != Py_None) {
        int t = ca_dtype_converter(v[3], CA_FLOAT64);
        if (t < 0) {
            return NULL;
        }
        d = ca_descr(t);
    }
    int device, kind;
    if (ca_device_kind_from_objects(v[4], v[5], &device, &kind) < 0) {
        return NULL;
    }
    PyObject *start = host_scalar(v[0] ? v[0] : v[1]);
    PyObject *stop = host_scalar(v[0] && v[1] ? v[1] : NULL);
    PyObject *step = host_scalar(v[2]);
    PyObject *h = NULL;
    if (start != NULL && (v[1] == NULL || v[0] == NULL || stop != NULL) &&
        (v[2] == NULL || step != NULL)) {
        if (v[0] == NULL || v[1] == NULL) {
            /* arange(stop): start 0 */
            Py_XSETREF(stop, start);
            start = PyLong_FromLong(0);
        }
        if (start != NULL) {
            /* NumPy's length and dtype rules, and its values. */
            h = PyArray_ArangeObj(start, stop, step ? step : Py_None, d);
        }
    }
    Py_XDECREF(start);
    Py_XDECREF(stop);
    Py_XDECREF(step);
    return from_host_result(h, device, kind);
}

ENTRY(py_arange, DT_RETRY("arange", arange_impl(args, nargs, kwnames)))

static PyObject *np_linspace = NULL;

static PyObject *
py_linspace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[9];
    PyObject *start = NULL, *stop = NULL, *kw = NULL, *pargs = NULL, *res = NULL;
    if (ca_parse_args("linspace", args, nargs, kwnames, linspace_names, 7, 2, v) < 0) {
        return NULL;
    }
    int device, kind;
    if (ca_device_kind_from_objects(v[7], v[8], &device, &kind) < 0) {
        return NULL;
    }
    if (v[5] != NULL && v[5] != Py_None && ca_dtype_converter(v[5], CA_FLOAT64) < 0) {
        return NULL;
    }
    if (ca_import_attr(&np_linspace, "numpy", "linspace") < 0) {
        return NULL;
    }
    start = host_scalar(v[0]);
    stop = start ? host_scalar(v[1]) : NULL;
    kw = stop ? PyDict_New() : NULL;
    if (kw == NULL) {
        goto error;
    }
    static const char *const kwn[] = { "num", "endpoint", "retstep", "dtype", "axis" };
    for (int i = 0; i < 5; i++) {
        if (v[2 + i] != NULL && PyDict_SetItemString(kw, kwn[i], v[2 + i]) < 0) {
            goto error;
        }
    }
    pargs = PyTuple_Pack(2, start, stop);
    if (pargs == NULL) {
        goto error;
    }
    /* NumPy computes the values (float64 arithmetic, its endpoint rule). */
    PyObject *h = PyObject_Call(np_linspace, pargs, kw);
    if (h == NULL) {
        goto error;
    }
    if (PyTuple_Check(h)) { /* retstep=True: (samples, step) */
        PyObject *arr =
            from_host_result(Py_NewRef(PyTuple_GET_ITEM(h, 0)), device, kind);
        if (arr != NULL) {
            res = PyTuple_Pack(2, arr, PyTuple_GET_ITEM(h, 1));
            Py_DECREF(arr);
        }
        Py_DECREF(h);
    }
    else {
        res = from_host_result(h, device, kind);
    }
error:
    Py_XDECREF(start);
    Py_XDECREF(stop);
    Py_XDECREF(kw);
    Py_XDECREF(pargs);
    return res;
}

static PyObject *
eye_impl(Py_ssize_t n, Py_ssize_t m, Py_ssize_t k, int dtype, int fortran, int device,
         int kind)
{
    Py_ssize_t shape[2] = { n, m };
    CaArray *a = ca_array_empty(dtype, 2, shape, fortran, device, (ca_memkind)kind);
    if (a == NULL || zero_fill(a) < 0) {
        Py_XDECREF(a);
        return NULL;
    }
    /* The k-th diagonal is a 1-d strided view: step one row and one column. */
    Py_ssize_t r0 = k >= 0 ? 0 : -k, c0 = k >= 0 ? k : 0;
    Py_ssize_t len = 0;
    if (r0 < n && c0 < m) {
        len = n - r0 < m - c0 ? n - r0 : m - c0;
    }
    if (len > 0) {
        Py_ssize_t stride = CA_STRIDES(a)[0] + CA_STRIDES(a)[1];
        CaArray *diag =
            ca_array_view(a, dtype, 1, &len, &stride,
                          a->data + r0 * CA_STRIDES(a)[0] + c0 * CA_STRIDES(a)[1]);
        if (diag == NULL || ca_array_fill(diag, ca_one_bytes[dtype]) < 0) {
            Py_XDECREF(diag);
            Py_DECREF(a);
            return NULL;
        }
        Py_DECREF(diag);
    }
    return (PyObject *)a;
}

/* *out = the integer o (o NULL: dflt); a negative size (min 0) is NumPy's
 * ValueError. -1 on error, TypeError naming `what` for a non-integer. */
static int
int_arg(PyObject *o, const char *what, Py_ssize_t dflt, Py_ssize_t min, Py_ssize_t *out)
{
    if (o == NULL) {
        *out = dflt;
        return 0;
    }
    if (!PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an integer, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = PyNumber_AsSsize_t(o, PyExc_OverflowError);
    if (*out == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (*out < min) {
        PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
        return -1;
    }
    return 0;
}

static PyObject *
py_eye(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[7];
    if (ca_parse_args("eye", args, nargs, kwnames, eye_names, 5, 1, v) < 0) {
        return NULL;
    }
    Py_ssize_t n, m, k;
    if (int_arg(v[0], "N", 0, PY_SSIZE_T_MIN, &n) < 0 ||
        int_arg(v[1] == Py_None ? NULL : v[1], "M", n, PY_SSIZE_T_MIN, &m) < 0 ||
        int_arg(v[2], "k", 0, PY_SSIZE_T_MIN, &k) < 0) {
        return NULL;
    }
    if (n < 0 || m < 0) {
        PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
        return NULL;
    }
    int dtype, fortran, device, kind;
    if (ca_new_array_args(v + 3, CA_FLOAT64, &dtype, &fortran, &device, &kind) < 0) {
        return NULL;
    }
    return eye_impl(n, m, k, dtype, fortran, device, kind);
}

static PyObject *
py_identity(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[4];
    if (ca_parse_args("identity", args, nargs, kwnames, identity_names, 2, 1, v) < 0) {
        return NULL;
    }
    Py_ssize_t n;
    if (int_arg(v[0], "n", 0, 0, &n) < 0) {
        return NULL;
    }
    int dtype = ca_dtype_converter(v[1] ? v[1] : Py_None, CA_FLOAT64);
    if (dtype < 0) {
        return NULL;
    }
    int device, kind;
    if (ca_device_kind_from_objects(v[2], v[3], &device, &kind) < 0) {
        return NULL;
    }
    return eye_impl(n, n, 0, dtype, 0, device, kind);
}

/* ======================================================================== */
/* Module                                                                     */
/* ======================================================================== */


#define DOC_EMPTY                                                                      \
    "empty(shape, dtype=float64, order='C', *, device=None, memory=None)\n--\n\n"      \
    "A new array without initialising its elements.\n\n"                               \
    "device: None (current), 'cpu', 'cuda', 'cuda:N', N or a Device.\n"                \
    "memory: 'device' (default on a GPU), 'managed' or 'pinned' (host-accessible), "   \
    "or 'host' (the cpu device)."
#define DOC_ZEROS                                                                      \
    "zeros(shape, dtype=float64, order='C', *, device=None, memory=None)\n--\n\n"      \
    "A new array of zeros."
#define DOC_ONES                                                                       \
    "ones(shape, dtype=float64, order='C', *, device=None, memory=None)\n--\n\n"       \
    "A new array of ones."
#define DOC_FULL                                                                       \
    "full(shape, fill_value, dtype=None, order='C', *, device=None, "                  \
    "memory=None)\n--\n\n"                                                             \
    "A new array filled with fill_value (dtype from fill_value when None)."
#define DOC_EMPTY_LIKE                                                                 \
    "empty_like(a, dtype=None, order='K', subok=None, shape=None, *, device=None, "    \
    "memory=None)\n--\n\nA new uninitialised array shaped like `a`."
#define DOC_ZEROS_LIKE                                                                 \
    "zeros_like(a, dtype=None, order='K', subok=None, shape=None, *, device=None, "    \
    "memory=None)\n--\n\nA new array of zeros shaped like `a`."
#define DOC_ONES_LIKE                                                                  \
    "ones_like(a, dtype=None, order='K', subok=None, shape=None, *, device=None, "     \
    "memory=None)\n--\n\nA new array of ones shaped like `a`."
#define DOC_FULL_LIKE                                                                  \
    "full_like(a, fill_value, dtype=None, order='K', subok=None, shape=None, *, "      \
    "device=None, memory=None)\n--\n\nA new array filled with fill_value, shaped "     \
    "like "                                                                            \
    "`a`."
#define DOC_ASARRAY                                                                    \
    "asarray(obj, dtype=None, order=None, *, device=None, copy=None, "                 \
    "memory=None, blocking=False)\n--\n\n"                                             \
    "Convert `obj` to an array: cuarray arrays, NumPy arrays, Python scalars and "     \
    "sequences, buffer-protocol objects, objects with __cuda_array_interface__ or "    \
    "__dlpack__.\n\ncopy: None copies only when needed; True always copies; False "    \
    "never copies (ValueError if it must). On a GPU, copy=False maps a NumPy array's " \
    "memory for the GPU (a pinned array kernels read in place).\n\nblocking: CuPy's "  \
    "flag, accepted; the copy from host memory is done when asarray returns."
#define DOC_ARRAY                                                                      \
    "array(obj, dtype=None, copy=True, order='K', ndmin=0, *, device=None, "           \
    "memory=None)\n--\n\nAs asarray, copying by default."
#define DOC_ASCONTIGUOUSARRAY                                                          \
    "ascontiguousarray(a, dtype=None, *, device=None, memory=None)\n--\n\n"            \
    "A C-contiguous array (at least 1-d), copying only when needed."
#define DOC_ASFORTRANARRAY                                                             \
    "asfortranarray(a, dtype=None, *, device=None, memory=None)\n--\n\n"               \
    "A Fortran-contiguous array (at least 1-d), copying only when needed."
#define DOC_ARANGE                                                                     \
    "arange(start, stop=None, step=None, dtype=None, *, device=None, "                 \
    "memory=None)\n--\n\n"                                                             \
    "Evenly spaced values in [start, stop), with NumPy's length, dtype and values."
#define DOC_LINSPACE                                                                   \
    "linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, " \
    "*, "                                                                              \
    "device=None, memory=None)\n--\n\n`num` evenly spaced samples over [start, "       \
    "stop], "                                                                          \
    "as NumPy computes them."
#define DOC_EYE                                                                        \
    "eye(N, M=None, k=0, dtype=float64, order='C', *, device=None, "                   \
    "memory=None)\n--\n\n"                                                             \
    "A 2-d array with ones on the k-th diagonal and zeros elsewhere."
#define DOC_IDENTITY                                                                   \
    "identity(n, dtype=float64, *, device=None, memory=None)\n--\n\n"                  \
    "The n x n identity matrix."

static PyMethodDef creation_functions[] = {
    { "empty", CA_FASTKW(py_empty), DOC_EMPTY },
    { "zeros", CA_FASTKW(py_zeros), DOC_ZEROS },
    { "ones", CA_FASTKW(py_ones), DOC_ONES },
    { "full", CA_FASTKW(py_full), DOC_FULL },
    { "empty_like", CA_FASTKW(py_empty_like), DOC_EMPTY_LIKE },
    { "zeros_like", CA_FASTKW(py_zeros_like), DOC_ZEROS_LIKE },
    { "ones_like", CA_FASTKW(py_ones_like), DOC_ONES_LIKE },
    { "full_like", CA_FASTKW(py_full_like), DOC_FULL_LIKE },
    { "asarray", CA_FASTKW(py_asarray), DOC_ASARRAY },
    { "array", CA_FASTKW(py_array), DOC_ARRAY },
    { "ascontiguousarray", CA_FASTKW(py_ascontiguousarray), DOC_ASCONTIGUOUSARRAY },
    { "asfortranarray", CA_FASTKW(py_asfortranarray), DOC_ASFORTRANARRAY },
    { "arange", CA_FASTKW(py_arange), DOC_ARANGE },
    { "linspace", CA_FASTKW(py_linspace), DOC_LINSPACE },
    { "eye", CA_FASTKW(py_eye), DOC_EYE },
    { "identity", CA_FASTKW(py_identity), DOC_IDENTITY },
    { NULL, NULL, 0, NULL },
};

int
ca_creation_init(PyObject *m)
{
    PyObject *one = PyLong_FromLong(1);
    if (one == NULL) {
        return -1;
    }
    /* 1.0 in ml_dtypes' formats: set here, ml_dtypes may not be loaded yet */
    ca_one_bytes[CA_BFLOAT16][0] = 0x3f80;
    ca_one_bytes[CA_FLOAT8_E4M3FN][0] = 0x38;
    ca_one_bytes[CA_FLOAT8_E5M2][0] = 0x3c;
    for (int t = 0; t < CA_NNUMPY_TYPES; t++) {
        if (ca_value_to_bytes(t == CA_BOOL ? Py_True : one, t, ca_one_bytes[t]) < 0) {
            Py_DECREF(one);
            return -1;
        }
    }
    Py_DECREF(one);
    return PyModule_AddFunctions(m, creation_functions);
}

/*
 * args.c: arguments and messages, at the bottom of array/. Converters of Python
 * arguments (the hand-written METH_FASTCALL parser, shapes, dtypes' element
 * values, memory kinds, orders, axes, out=), AxisError, and the alignment
 * rule of the kernels. (Device names as messages
 * print them are inline in cuarray.h's section of this file: device.c, which
 * this file calls, uses them too.)
 *
 * It calls only dtype.c, shape.c and runtime/ (errors.c, device.c) and the C
 * API: every file above may use it (tests/test_layers.py checks that).
 * No CUDA here.
 */
#include "cuarray.h"

#include <string.h>

/* ======================================================================== */
/* Arguments of METH_FASTCALL | METH_KEYWORDS functions                      */
/* ======================================================================== */

/* The index of the str s among names[0:n], or -1. */
static inline int
ascii_index(PyObject *s, const char *const *names, int n)
{
    for (int i = 0; i < n; i++) {
        if (PyUnicode_CompareWithASCIIString(s, names[i]) == 0) {
            return i;
        }
    }
    return -1;
}

int
ca_parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames, const char *const *names, int npos, int nreq,
              PyObject **out)
{
    int n = 0;
    while (names[n] != NULL) {
        n++;
    }
    for (int i = 0; i < n; i++) {
        out[i] = NULL;
    }
    if (nargs > npos) {
        PyErr_Format(PyExc_TypeError,
                     "%s() takes at most %d positional argument%s (%zd given)", fname,
                     npos, npos == 1 ? "" : "s", nargs);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        out[i] = args[i];
    }
    if (kwnames != NULL) {
        Py_ssize_t nk = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nk; k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            const int found = ascii_index(key, names, n);
            if (found < 0) {
                PyErr_Format(PyExc_TypeError,
                             "%s() got an unexpected keyword argument %R", fname, key);
                return -1;
            }
            if (out[found] != NULL) {
                PyErr_Format(PyExc_TypeError,
                             "%s() got multiple values for argument '%s'", fname,
                             names[found]);
                return -1;
            }
            out[found] = args[nargs + k];
        }
    }
    for (int i = 0; i < nreq; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s'", fname,
                         names[i]);
            return -1;
        }
    }
    return 0;
}

int
ca_intp_from_object(PyObject *o, Py_ssize_t *out)
{
    if (PyBool_Check(o) || (!PyLong_Check(o) && !PyIndex_Check(o))) {
        PyErr_Format(PyExc_TypeError,
                     "'%.200s' object cannot be interpreted as an integer",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    *out = PyNumber_AsSsize_t(o, PyExc_ValueError);
    if (*out == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_SetString(PyExc_ValueError, "Maximum allowed dimension exceeded");
        }
        return -1;
    }
    return 0;
}

static Py_ssize_t
dim_from_object(PyObject *o)
{
    Py_ssize_t v;
    if (ca_intp_from_object(o, &v) < 0) {
        return -1;
    }
    if (v < 0) {
        PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
        return -1;
    }
    return v;
}

int
ca_shape_from_object(PyObject *obj, Py_ssize_t *shape)
{
    if (PyLong_Check(obj)) {
        shape[0] = dim_from_object(obj);
        return shape[0] < 0 ? -1 : 1;
    }
    if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
        if (PyIndex_Check(obj)) {
            shape[0] = dim_from_object(obj);
            return shape[0] < 0 ? -1 : 1;
        }
        if (!PySequence_Check(obj)) {
            PyErr_Format(PyExc_TypeError,
                         "'%.200s' object cannot be interpreted as an integer",
                         Py_TYPE(obj)->tp_name);
            return -1;
        }
    }
    PyObject *seq = PySequence_Fast(obj, "shape must be an int or a sequence of ints");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > CA_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError,
                     "maximum supported dimension for an ndarray is %d, found %zd",
                     CA_MAX_DIMS, n);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        shape[i] = dim_from_object(PySequence_Fast_GET_ITEM(seq, i));
        if (shape[i] < 0) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)n;
}

int
ca_memkind_from_object(PyObject *obj, int device)
{
    if (obj == NULL || obj == Py_None) {
        return device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    }
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "memory must be None or one of 'device', 'managed', 'pinned', "
                     "'host', not %.200s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    const int kind = ascii_index(obj, ca_memkind_name, CA_MEM_NKINDS);
    if (kind < 0) {
        PyErr_Format(PyExc_ValueError,
                     "memory must be 'device', 'managed', 'pinned' or 'host', not %R",
                     obj);
        return -1;
    }
    if (device == CA_CPU && kind != CA_MEM_HOST) {
        PyErr_Format(PyExc_ValueError,
                     "memory=%R needs a CUDA device; arrays on the cpu device use "
                     "memory='host'",
                     obj);
        return -1;
    }
    if (device != CA_CPU && kind == CA_MEM_HOST) {
        PyErr_SetString(
            PyExc_ValueError,
            "memory='host' is the cpu device's memory: use device='cpu', or "
            "memory='pinned' (or 'managed') for host-accessible GPU arrays");
        return -1;
    }
    return kind;
}

int
ca_order_from_object(PyObject *obj, char dflt)
{
    if (obj == NULL || obj == Py_None) {
        return dflt;
    }
    if (!PyUnicode_Check(obj) && !PyBytes_Check(obj)) { /* NumPy: a TypeError */
        PyErr_Format(PyExc_TypeError, "order must be str, not %.200s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t len =
        PyUnicode_Check(obj) ? PyUnicode_GET_LENGTH(obj) : PyBytes_GET_SIZE(obj);
    if (len == 1) {
        Py_UCS4 c = PyUnicode_Check(obj)
                        ? PyUnicode_READ_CHAR(obj, 0)
                        : (Py_UCS4)(unsigned char)PyBytes_AS_STRING(obj)[0];
        switch (c) {
        case 'C':
        case 'c': return 'C';
        case 'F':
        case 'f': return 'F';
        case 'A':
        case 'a': return 'A';
        case 'K':
        case 'k': return 'K';
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "order must be one of 'C', 'F', 'A', or 'K' (got %R)", obj);
    return -1;
}

int
ca_fastcall_tuple_dict(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                       PyObject **pos, PyObject **kw)
{
    *pos = PyTuple_New(nargs);
    *kw = *pos != NULL ? PyDict_New() : NULL;
    if (*kw == NULL) {
        Py_CLEAR(*pos);
        return -1;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) {
        PyTuple_SET_ITEM(*pos, i, Py_NewRef(args[i]));
    }
    for (Py_ssize_t k = 0; kwnames != NULL && k < PyTuple_GET_SIZE(kwnames); k++) {
        if (PyDict_SetItem(*kw, PyTuple_GET_ITEM(kwnames, k), args[nargs + k]) < 0) {
            Py_CLEAR(*pos);
            Py_CLEAR(*kw);
            return -1;
        }
    }
    return 0;
}

int
ca_copy_from_object(PyObject *obj, int dflt)
{
    if (obj == NULL) {
        return dflt;
    }
    if (obj == Py_None) {
        return -1;
    }
    if (PyUnicode_Check(obj)) { /* NumPy 2 removed copy="never" and friends */
        PyErr_SetString(
            PyExc_ValueError,
            "strings are not allowed for 'copy' keyword. Use True/False/None "
            "instead.");
        return -1;
    }
    return PyObject_IsTrue(obj);
}

int
ca_device_kind_from_objects(PyObject *dev, PyObject *mem, int *device, int *kind)
{
    *device = (dev == NULL || dev == Py_None) ? ca_current_device()
                                              : ca_device_from_object(dev);
    if (*device == CA_DEVICE_ERROR) {
        return -1;
    }
    *kind = ca_memkind_from_object(mem, *device);
    return *kind < 0 ? -1 : 0;
}

int
ca_new_array_args(PyObject **v, int dflt, int *dtype, int *fortran, int *device,
                  int *kind)
{
    int order;
    if (ca_dtype_order_from_objects(v[0], dflt, v[1], 'C', dtype, &order) < 0) {
        return -1;
    }
    if (order != 'C' && order != 'F') {
        PyErr_SetString(PyExc_ValueError, "only 'C' or 'F' order is permitted");
        return -1;
    }
    *fortran = order == 'F';
    return ca_device_kind_from_objects(v[2], v[3], device, kind);
}

/* ======================================================================== */
/* Python values -> element bytes                                             */
/* ======================================================================== */

static PyObject *np_copyto = NULL;

/* *(T *)buf = v when v lies in [LO, HI] (0), else 1 (out of range). */
#define STORE_IN_RANGE(T, LO, HI) ((v < (LO) || v > (HI)) ? 1 : (*(T *)buf = (T)v, 0))

static int
store_int(int dtype, long long v, void *buf)
{
    switch (dtype) {
    case CA_INT8: return STORE_IN_RANGE(int8_t, INT8_MIN, INT8_MAX);
    case CA_UINT8: return STORE_IN_RANGE(uint8_t, 0, UINT8_MAX);
    case CA_INT16: return STORE_IN_RANGE(int16_t, INT16_MIN, INT16_MAX);
    case CA_UINT16: return STORE_IN_RANGE(uint16_t, 0, UINT16_MAX);
    case CA_INT32: return STORE_IN_RANGE(int32_t, INT32_MIN, INT32_MAX);
    case CA_UINT32: return STORE_IN_RANGE(uint32_t, 0, (long long)UINT32_MAX);
    case CA_INT64: *(int64_t *)buf = (int64_t)v; return 0;
    case CA_UINT64:
        if (v < 0) {
            return 1;
        }
        *(uint64_t *)buf = (uint64_t)v;
        return 0;
    case CA_FLOAT32: *(float *)buf = (float)v; return 0;
    case CA_FLOAT64: *(double *)buf = (double)v; return 0;
    case CA_COMPLEX64:
        ((float *)buf)[0] = (float)v;
        ((float *)buf)[1] = 0.0f;
        return 0;
    case CA_COMPLEX128:
        ((double *)buf)[0] = (double)v;
        ((double *)buf)[1] = 0.0;
        return 0;
    case CA_BOOL: *(uint8_t *)buf = v != 0; return 0;
    }
    return 1; /* float16: NumPy's conversion */
}

/* as_setitem: convert as `arr[...] = value` / ndarray.fill do (complex into a
 * real dtype and NaN into an integer raise); else as np.full's unsafe copyto. */
static int value_to_bytes(PyObject *value, int dtype, void *buf, int as_setitem);

int
ca_value_to_bytes(PyObject *value, int dtype, void *buf)
{
    return value_to_bytes(value, dtype, buf, 0);
}

int
ca_value_to_bytes_setitem(PyObject *value, int dtype, void *buf)
{
    return value_to_bytes(value, dtype, buf, 1);
}

static int
value_to_bytes(PyObject *value, int dtype, void *buf, int as_setitem)
{
    /* Fast paths for the exact Python scalar types where C's conversion is
     * NumPy's; everything else (float16, float -> int, complex -> real, NumPy
     * scalars, overflow) goes through np.copyto(casting='unsafe'). */
    if (PyLong_CheckExact(value) || PyBool_Check(value)) {
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (!overflow && (PyBool_Check(value) || dtype != CA_BOOL) &&
            store_int(dtype, v, buf) == 0) {
            return 0;
        }
    }
    else if (PyFloat_CheckExact(value)) {
        double v = PyFloat_AS_DOUBLE(value);
        switch (dtype) {
        case CA_FLOAT32: *(float *)buf = (float)v; return 0;
        case CA_FLOAT64: *(double *)buf = v; return 0;
        case CA_COMPLEX64:
            ((float *)buf)[0] = (float)v;
            ((float *)buf)[1] = 0.0f;
            return 0;
        case CA_COMPLEX128:
            ((double *)buf)[0] = v;
            ((double *)buf)[1] = 0.0;
            return 0;
        }
    }
    else if (PyComplex_CheckExact(value) && ca_is_complex(dtype)) {
        Py_complex c = PyComplex_AsCComplex(value);
        if (dtype == CA_COMPLEX64) {
            ((float *)buf)[0] = (float)c.real;
            ((float *)buf)[1] = (float)c.imag;
        }
        else {
            ((double *)buf)[0] = c.real;
            ((double *)buf)[1] = c.imag;
        }
        return 0;
    }
    if (ca_array_check(value)) {
        PyErr_SetString(PyExc_TypeError, "expected a Python or NumPy scalar");
        return -1;
    }
    if (ca_import_attr(&np_copyto, "numpy", "copyto") < 0) {
        return -1;
    }
    PyArray_Descr *d = ca_descr(dtype);
    Py_INCREF(d);
    PyObject *t = PyArray_Zeros(0, NULL, d, 0);
    if (t == NULL) {
        return -1;
    }
    if (as_setitem) {
        if (PyObject_SetItem(t, Py_Ellipsis, value) < 0) {
            Py_DECREF(t);
            return -1;
        }
    }
    else {
        PyObject *kw = Py_BuildValue("{s:s}", "casting", "unsafe");
        PyObject *args = kw ? PyTuple_Pack(2, t, value) : NULL;
        PyObject *r = args ? PyObject_Call(np_copyto, args, kw) : NULL;
        Py_XDECREF(kw);
        Py_XDECREF(args);
        if (r == NULL) {
            Py_DECREF(t);
            return -1;
        }
        Py_DECREF(r);
    }
    memcpy(buf, PyArray_DATA((PyArrayObject *)t), (size_t)ca_dtype_size[dtype]);
    Py_DECREF(t);
    return 0;
}

/* ======================================================================== */
/* Axes                                                                      */
/* ======================================================================== */

/* numpy.exceptions.AxisError, imported on the first error (never on a path
 * that succeeds). */
static PyObject *axis_error_type = NULL;

int
ca_axis_error(Py_ssize_t axis, int ndim)
{
    return ca_axis_error_in(NULL, axis, ndim);
}

int
ca_axis_error_in(const char *fname, Py_ssize_t axis, int ndim)
{
    if (ca_import_attr(&axis_error_type, "numpy.exceptions", "AxisError") < 0) {
        return -1;
    }
    /* AxisError(axis, ndim, msg_prefix): NumPy's message, "fname: axis 3 is out of
     * bounds for array of dimension 2" */
    PyObject *exc = PyObject_CallFunction(axis_error_type, "niz", axis, ndim, fname);
    if (exc != NULL) {
        PyErr_SetObject(axis_error_type, exc);
        Py_DECREF(exc);
    }
    return -1;
}

int
ca_normalize_axis(Py_ssize_t axis, int ndim, int *out)
{
    if (axis < -ndim || axis >= ndim) {
        return ca_axis_error(axis, ndim);
    }
    *out = (int)(axis < 0 ? axis + ndim : axis);
    return 0;
}

int
ca_axis_from_object(PyObject *obj, int ndim, int *out)
{
    Py_ssize_t v = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
    if (v == -1 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(PyExc_TypeError,
                         "'%.100s' object cannot be interpreted as an "
                         "integer axis",
                         Py_TYPE(obj)->tp_name);
        }
        return -1;
    }
    return ca_normalize_axis(v, ndim, out);
}

/* ======================================================================== */
/* out=                                                                      */
/* ======================================================================== */

/* "name(): " before a message, or nothing when the caller has no name. */
#define FNAME_FMT     "%s%s"
#define FNAME_ARGS(f) ((f) != NULL ? (f) : ""), ((f) != NULL ? "(): " : "")

int
ca_out_from_object(const char *fname, PyObject *obj, int device, CaArray **out)
{
    *out = NULL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (PyTuple_Check(obj)) {
        if (PyTuple_GET_SIZE(obj) != 1) {
            PyErr_Format(PyExc_ValueError,
                         FNAME_FMT "out= must be an array or a 1-tuple, not a tuple "
                                   "of %zd",
                         FNAME_ARGS(fname), PyTuple_GET_SIZE(obj));
            return -1;
        }
        obj = PyTuple_GET_ITEM(obj, 0);
        if (obj == Py_None) {
            return 0;
        }
    }
    if (!ca_array_check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     FNAME_FMT "out= must be a cuarray.ndarray, not %.200s",
                     FNAME_ARGS(fname), Py_TYPE(obj)->tp_name);
        return -1;
    }
    CaArray *o = (CaArray *)obj;
    if (device != CA_DEVICE_UNSET && o->device != device) {
        char b1[CA_DEVICE_NAME_LEN], b2[CA_DEVICE_NAME_LEN];
        PyErr_Format(PyExc_ValueError,
                     FNAME_FMT "out= is on %s but the operands are on %s: operands "
                               "must be on one device",
                     FNAME_ARGS(fname), ca_device_name(o->device, b1),
                     ca_device_name(device, b2));
        return -1;
    }
    if (!(o->flags & CA_WRITEABLE)) {
        PyErr_Format(PyExc_ValueError, FNAME_FMT "output array is read-only",
                     FNAME_ARGS(fname));
        return -1;
    }
    *out = o;
    return 0;
}

int
ca_out_check_shape(const char *fname, const CaArray *out, int ndim,
                   const Py_ssize_t *shape)
{
    int same = CA_NDIM(out) == ndim;
    for (int d = 0; same && d < ndim; d++) {
        same = CA_SHAPE(out)[d] == shape[d];
    }
    if (same) {
        return 0;
    }
    PyObject *got = ca_shape_tuple(CA_NDIM(out), CA_SHAPE(out));
    PyObject *want = got != NULL ? ca_shape_tuple(ndim, shape) : NULL;
    if (want != NULL) {
        PyErr_Format(PyExc_ValueError,
                     FNAME_FMT "out= has shape %S, but the result has shape %S",
                     FNAME_ARGS(fname), got, want);
    }
    Py_XDECREF(got);
    Py_XDECREF(want);
    return -1;
}

/* NumPy's own exception for a ufunc error (a UFuncTypeError, a TypeError), made
 * by cuarray._ufunc_errors.<fn>(*args) (args: a new tuple, taken): 0 when it
 * set one, -1 with no error set when it could not (the caller raises its own
 * TypeError of the same meaning). Only error paths come here. */
int
ca_numpy_ufunc_error(const char *fn, PyObject *args)
{
    PyObject *exc = NULL;
    if (args != NULL) {
        PyObject *mod = PyImport_ImportModule("cuarray._ufunc_errors");
        PyObject *f = mod != NULL ? PyObject_GetAttrString(mod, fn) : NULL;
        exc = f != NULL ? PyObject_CallObject(f, args) : NULL;
        Py_XDECREF(f);
        Py_XDECREF(mod);
        Py_DECREF(args);
    }
    if (exc != NULL && PyExceptionInstance_Check(exc)) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
        return 0;
    }
    Py_XDECREF(exc);
    PyErr_Clear();
    return -1;
}

int
ca_out_check_cast(const char *fname, const CaArray *out, int dtype)
{
    if (out->dtype == dtype ||
        PyArray_CanCastTypeTo(ca_descr(dtype), ca_descr(out->dtype),
                              NPY_SAME_KIND_CASTING)) {
        return 0;
    }
    if (fname != NULL &&
        ca_numpy_ufunc_error("cast_error",
                             Py_BuildValue("(sssssi)", fname, "output", "same_kind",
                                           ca_dtype_name[dtype],
                                           ca_dtype_name[out->dtype], 0)) == 0) {
        return -1;
    }
    PyErr_Format(PyExc_TypeError,
                 "Cannot cast %s output from dtype('%s') to dtype('%s') with casting "
                 "rule 'same_kind'",
                 fname != NULL ? fname : "the", ca_dtype_name[dtype],
                 ca_dtype_name[out->dtype]);
    return -1;
}

/* ======================================================================== */
/* Alignment                                                                 */
/* ======================================================================== */

/* Kernels load elements with their natural alignment (complex: that of its parts);
 * a view whose pointer or strides break it must be copied first. */
int
ca_array_misaligned(const CaArray *a)
{
    static const int align[CA_NTYPES] = { 1, 1, 1, 2, 2, 4, 4, 8, 8,
                                          2, 4, 8, 4, 8, 2, 1, 1 };
    return !ca_layout_aligned(a->data, CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a),
                              align[a->dtype]);
}

int
ca_import_attr(PyObject **slot, const char *module, const char *name)
{
    if (*slot != NULL) {
        return 0;
    }
    PyObject *mod = PyImport_ImportModule(module);
    if (mod == NULL) {
        return -1;
    }
    *slot = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    return *slot != NULL ? 0 : -1;
}

CaArray *
ca_require_array(const char *fname, PyObject *o)
{
    if (!ca_array_check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "%s() requires a cuarray.ndarray, not %.200s (use cuarray.asarray "
                     "to make one)",
                     fname, Py_TYPE(o)->tp_name);
        return NULL;
    }
    return (CaArray *)o;
}

int
ca_parse_array_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames, const char *const *names, int npos, int nreq,
                    PyObject **out, CaArray **a)
{
    if (ca_parse_args(fname, args, nargs, kwnames, names, npos, nreq, out) < 0) {
        return -1;
    }
    *a = ca_require_array(fname, out[0]);
    return *a != NULL ? 0 : -1;
}

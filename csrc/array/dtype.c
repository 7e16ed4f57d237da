/*
 * dtype.c: NumPy dtypes <-> cuarray's 14 type codes, and NumPy's promotion.
 *
 * cuarray uses NumPy's dtype objects themselves (`x.dtype` is a numpy.dtype and
 * `cuarray.float32 is numpy.float32`), so the only state here is the table of
 * the 14 native descriptors and a promotion table computed once from NumPy.
 */
#include "cuarray.h"
#include "datetime_hook.h"

/* NumPy type numbers of the 14 supported types, in ca_dtype order. int64 and
 * uint64 use NPY_LONG/NPY_ULONG where long is 64-bit (Linux, macOS), else
 * NPY_LONGLONG, so the descriptor is the one `np.dtype(np.int64)` gives. */
#if NPY_SIZEOF_LONG == 8
#define CA_NPY_INT64  NPY_LONG
#define CA_NPY_UINT64 NPY_ULONG
#else
#define CA_NPY_INT64  NPY_LONGLONG
#define CA_NPY_UINT64 NPY_ULONGLONG
#endif

static const int ca_npy_typenum[CA_NNUMPY_TYPES] = {
    NPY_BOOL,  NPY_BYTE,   NPY_UBYTE,    NPY_SHORT,     NPY_USHORT,
    NPY_INT,   NPY_UINT,   CA_NPY_INT64, CA_NPY_UINT64, NPY_HALF,
    NPY_FLOAT, NPY_DOUBLE, NPY_CFLOAT,   NPY_CDOUBLE,
};

/* The scalar types (numpy.float32 ...) per ca_dtype, borrowed from the
 * descriptors; used to recognise `dtype=numpy.float32` without np.dtype(). */
static PyTypeObject *ca_scalar_type[CA_NTYPES];

/* dtype strings NumPy reads as one of ours ("float32", "f4", "<f4", "f", ...)
 * -> code, so `dtype="float32"` skips NumPy's parser. Filled at init with the
 * spellings np.dtype() itself maps to each descriptor. */
static PyObject *ca_dtype_names = NULL;

/* ca_promote's table, filled at init from PyArray_PromoteTypes (the ml_dtypes
 * rows and columns when ml_dtypes is loaded: NumPy then promotes by its rules). */
static signed char ca_promote_table[CA_NTYPES][CA_NTYPES];

static int
unsupported(PyArray_Descr *d)
{
    if (d->kind == 'M' || d->kind == 'm') {
        return ca_dt_raise((PyObject *)d);
    }
    PyErr_Format(PyExc_TypeError,
                 "cuarray does not support dtype %R: arrays hold bool, int8-int64, "
                 "uint8-uint64, float16, float32, float64, complex64, complex128, "
                 "and with ml_dtypes bfloat16, float8_e4m3fn and float8_e5m2 "
                 "(native byte order)",
                 (PyObject *)d);
    return -1;
}

/* ---- ml_dtypes' types, loaded on first use -------------------------------------
 * `import cuarray` does not import ml_dtypes (0.1-0.4 s): its descriptors are
 * taken when a dtype names one (an ml_dtypes type or descriptor means it is
 * imported already; the strings and cuarray.bfloat16 import it), or a DLPack
 * import brings one. */
static int ml_loaded = 0;

static int fill_promotions(int first, int last);

/* 0 once loaded; -1 with ImportError naming the package when `required`, else
 * 1 (not imported yet) without an exception. */
int
ca_ml_dtypes_load(int required)
{
    static const char *const names[] = { "bfloat16", "float8_e4m3fn", "float8_e5m2" };
    if (ml_loaded) {
        return 0;
    }
    static PyObject *modname = NULL;
    PyObject *mod = NULL;
    if (modname == NULL &&
        (modname = PyUnicode_InternFromString("ml_dtypes")) == NULL) {
        return -1;
    }
    if (!required) {
        mod = PyImport_GetModule(modname);
        if (mod == NULL) {
            return PyErr_Occurred() ? -1 : 1;
        }
    }
    else if ((mod = PyImport_ImportModule("ml_dtypes")) == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ImportError)) {
            PyErr_SetString(PyExc_ImportError,
                            "cuarray's bfloat16 and float8 dtypes are ml_dtypes' NumPy "
                            "dtypes: install the ml_dtypes package (pip install "
                            "ml_dtypes)");
        }
        return -1;
    }
    for (int k = 0; k < 3; k++) {
        PyObject *t = PyObject_GetAttrString(mod, names[k]);
        PyArray_Descr *d = t == NULL ? NULL : PyArray_DescrFromTypeObject(t);
        Py_XDECREF(t);
        if (d == NULL) {
            Py_DECREF(mod);
            return -1;
        }
        ca_st->descr[CA_BFLOAT16 + k] = d; /* owned by the state */
        ca_scalar_type[CA_BFLOAT16 + k] = d->typeobj;
    }
    Py_DECREF(mod);
    ml_loaded = 1;
    return fill_promotions(CA_BFLOAT16, CA_NTYPES);
}

/* The code of an ml_dtypes descriptor, -2 if d is none of them. */
static int
ml_dtype_of(PyArray_Descr *d)
{
    if (d->type_num < NPY_USERDEF || ca_ml_dtypes_load(0) != 0) {
        return PyErr_Occurred() ? -1 : -2;
    }
    for (int i = CA_BFLOAT16; i < CA_NTYPES; i++) {
        if (d == ca_st->descr[i] || d->typeobj == ca_scalar_type[i]) {
            return i;
        }
    }
    return -2;
}

int
ca_own_dtype(PyArray_Descr *d)
{
    for (int i = 0; i < CA_NTYPES; i++) {
        if (d == ca_st->descr[i]) {
            return i;
        }
    }
    return -1;
}

int
ca_dtype_from_descr(PyArray_Descr *d)
{
    const int own = ca_own_dtype(d); /* the fast path */
    if (own >= 0) {
        return own;
    }
    const int ml = ml_dtype_of(d);
    if (ml != -2) {
        return ml;
    }
    if (!PyArray_ISNBO(d->byteorder) || PyDataType_HASFIELDS(d) ||
        PyDataType_HASSUBARRAY(d)) {
        return unsupported(d);
    }
    Py_ssize_t size = PyDataType_ELSIZE(d);
    switch (d->type_num) {
    case NPY_BOOL: return CA_BOOL;
    case NPY_BYTE:
    case NPY_SHORT:
    case NPY_INT:
    case NPY_LONG:
    case NPY_LONGLONG:
        switch (size) {
        case 1: return CA_INT8;
        case 2: return CA_INT16;
        case 4: return CA_INT32;
        case 8: return CA_INT64;
        }
        break;
    case NPY_UBYTE:
    case NPY_USHORT:
    case NPY_UINT:
    case NPY_ULONG:
    case NPY_ULONGLONG:
        switch (size) {
        case 1: return CA_UINT8;
        case 2: return CA_UINT16;
        case 4: return CA_UINT32;
        case 8: return CA_UINT64;
        }
        break;
    case NPY_HALF: return CA_FLOAT16;
    case NPY_FLOAT: return CA_FLOAT32;
    case NPY_DOUBLE: return CA_FLOAT64;
    case NPY_CFLOAT: return CA_COMPLEX64;
    case NPY_CDOUBLE: return CA_COMPLEX128;
    }
    return unsupported(d);
}

int
ca_dtype_converter(PyObject *obj, int dflt)
{
    if (obj == Py_None) {
        return dflt;
    }
    if (PyArray_DescrCheck(obj)) {
        return ca_dtype_from_descr((PyArray_Descr *)obj);
    }
    if (PyType_Check(obj)) {
        for (int i = 0; i < CA_NTYPES; i++) {
            if ((PyTypeObject *)obj == ca_scalar_type[i]) {
                return i;
            }
        }
        /* Python's own types, as np.dtype() reads them. */
        if (obj == (PyObject *)&PyFloat_Type) {
            return CA_FLOAT64;
        }
        if (obj == (PyObject *)&PyLong_Type) {
            return CA_INT64;
        }
        if (obj == (PyObject *)&PyBool_Type) {
            return CA_BOOL;
        }
        if (obj == (PyObject *)&PyComplex_Type) {
            return CA_COMPLEX128;
        }
    }
    if (PyUnicode_CheckExact(obj) && ca_dtype_names != NULL) {
        PyObject *code = PyDict_GetItemWithError(ca_dtype_names, obj);
        if (code != NULL) {
            return (int)PyLong_AsLong(code);
        }
        if (PyErr_Occurred()) {
            return -1;
        }
        for (int i = CA_BFLOAT16; i < CA_NTYPES; i++) {
            if (PyUnicode_CompareWithASCIIString(obj, ca_dtype_name[i]) == 0) {
                return ca_ml_dtypes_load(1) < 0 ? -1 : i;
            }
        }
    }
    PyArray_Descr *d = NULL;
    if (PyArray_DescrConverter2(obj, &d) == NPY_FAIL) {
        return -1; /* NumPy's TypeError: data type ... not understood */
    }
    if (d == NULL) { /* None, handled above; defensive */
        return dflt;
    }
    int r = ca_dtype_from_descr(d);
    Py_DECREF(d);
    return r;
}

int
ca_promote(int a, int b)
{
    if (a < 0 || a >= CA_NTYPES || b < 0 || b >= CA_NTYPES) {
        PyErr_SetString(PyExc_SystemError, "ca_promote: bad dtype code");
        return -1;
    }
    if (ca_promote_table[a][b] < 0) {
        PyErr_Format(PyExc_TypeError, "The DTypes %s and %s do not have a common DType",
                     ca_dtype_name[a], ca_dtype_name[b]);
        return -1;
    }
    return ca_promote_table[a][b];
}

/* ---- datetime64 / timedelta64 (datetime_hook.h) ----------------------------- */
static PyObject *dt_error = NULL;    /* _core._DatetimeDtypeError */
static PyTypeObject *dt_type = NULL; /* cuarray._datetime's subclass */

int
ca_dt_raise(PyObject *what)
{
    PyErr_Format(dt_error,
                 "cuarray's C functions do not take %R: datetime64 and timedelta64 "
                 "arrays are made by cuarray.asarray, array, empty, zeros, ones and "
                 "full (cuarray._datetime)",
                 what);
    return -1;
}

int
ca_dt_is(PyObject *o)
{
    return dt_type != NULL && PyObject_TypeCheck(o, dt_type);
}

/* cuarray._datetime.<fname> (new ref) when the error set is _DatetimeDtypeError,
 * that error cleared; NULL otherwise (the other error kept, or the lookup's). */
static PyObject *
dt_function(const char *fname)
{
    if (!PyErr_ExceptionMatches(dt_error)) {
        return NULL;
    }
    PyErr_Clear();
    PyObject *mod = PyImport_ImportModule("cuarray._datetime");
    PyObject *f = mod == NULL ? NULL : PyObject_GetAttrString(mod, fname);
    Py_XDECREF(mod);
    return f;
}

PyObject *
ca_dt_retry(PyObject *r, const char *fname, PyObject *const *args, Py_ssize_t nargs,
            PyObject *kwnames)
{
    if (r != NULL) {
        return r;
    }
    PyObject *f = dt_function(fname);
    if (f == NULL) {
        return NULL;
    }
    r = PyObject_Vectorcall(f, args, (size_t)nargs, kwnames);
    Py_DECREF(f);
    return r;
}

PyObject *
ca_dt_retry_self(PyObject *r, const char *fname, PyObject *self, PyObject *const *args,
                 Py_ssize_t nargs, PyObject *kwnames)
{
    if (r != NULL || !PyErr_ExceptionMatches(dt_error)) {
        return r;
    }
    Py_ssize_t n = nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject **all = PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *));
    if (all == NULL) {
        return PyErr_NoMemory();
    }
    all[0] = self;
    for (Py_ssize_t i = 0; i < n; i++) {
        all[i + 1] = args[i];
    }
    r = ca_dt_retry(NULL, fname, all, nargs + 1, kwnames);
    PyMem_Free(all);
    return r;
}

PyObject *
ca_dt_retry_tuple(PyObject *r, const char *fname, PyObject *args, PyObject *kwargs)
{
    if (r != NULL) {
        return r;
    }
    PyObject *f = dt_function(fname);
    if (f == NULL) {
        return NULL;
    }
    r = PyObject_Call(f, args, kwargs);
    Py_DECREF(f);
    return r;
}

/* _core._datetime_setup(cls): the subclass ca_dt_is recognises. */
static PyObject *
py_datetime_setup(PyObject *self, PyObject *cls)
{
    if (!PyType_Check(cls) ||
        !PyType_IsSubtype((PyTypeObject *)cls, ca_st->ndarray_type)) {
        PyErr_SetString(PyExc_TypeError, "_datetime_setup: an ndarray subclass");
        return NULL;
    }
    Py_XSETREF(dt_type, (PyTypeObject *)Py_NewRef(cls));
    Py_RETURN_NONE;
}

static int
dt_init(PyObject *m)
{
    dt_error =
        PyErr_NewException("cuarray._core._DatetimeDtypeError", PyExc_TypeError, NULL);
    return dt_error == NULL ? -1
                            : PyModule_AddObjectRef(m, "_DatetimeDtypeError", dt_error);
}

/* ---- Python-level helpers ------------------------------------------------- */

/* _core._dtype_code(dtype) -> int: the internal code; TypeError if unsupported.
 * Used by the Python layer and the tests. */
static PyObject *
py_dtype_code(PyObject *self, PyObject *obj)
{
    int t = ca_dtype_converter(obj, CA_FLOAT64);
    if (t < 0) {
        return NULL;
    }
    return PyLong_FromLong(t);
}

/* _core._ml_dtype(name) -> the ml_dtypes scalar type (cuarray.bfloat16 & co.),
 * importing ml_dtypes; ImportError naming the package without it. */
static PyObject *
py_ml_dtype(PyObject *self, PyObject *name)
{
    for (int i = CA_BFLOAT16; i < CA_NTYPES; i++) {
        if (PyUnicode_Check(name) &&
            PyUnicode_CompareWithASCIIString(name, ca_dtype_name[i]) == 0) {
            if (ca_ml_dtypes_load(1) < 0) {
                return NULL;
            }
            return Py_NewRef((PyObject *)ca_scalar_type[i]);
        }
    }
    PyErr_Format(PyExc_AttributeError, "no ml_dtypes type %R in cuarray", name);
    return NULL;
}

static PyMethodDef dtype_functions[] = {
    { "_datetime_setup", py_datetime_setup, METH_O,
      "_datetime_setup(cls)\n--\n\nThe ndarray subclass of datetime64/timedelta64 "
      "arrays." },
    { "_ml_dtype", py_ml_dtype, METH_O,
      "_ml_dtype(name)\n--\n\nml_dtypes' scalar type `name`, importing ml_dtypes." },
    { "_dtype_code", py_dtype_code, METH_O,
      "_dtype_code(dtype)\n--\n\nThe internal type code of a supported dtype." },
    { NULL, NULL, 0, NULL },
};

/* Names under which the scalar types are exported, beside NumPy's. */
static const char *const export_names[CA_NNUMPY_TYPES] = {
    "bool_", "int8",   "uint8",   "int16",   "uint16",  "int32",     "uint32",
    "int64", "uint64", "float16", "float32", "float64", "complex64", "complex128",
};

unsigned char ca_cast_safe[CA_NTYPES][CA_NTYPES];
unsigned char ca_cast_same_kind[CA_NTYPES][CA_NTYPES];

/* Rows and columns [first, last) of the promotion and casting tables (with every
 * loaded type). */
static int
fill_promotions(int first, int last)
{
    const int n = ml_loaded ? CA_NTYPES : CA_NNUMPY_TYPES;
    for (int a = 0; a < n; a++) {
        for (int b = 0; b < n; b++) {
            if ((a < first || a >= last) && (b < first || b >= last)) {
                continue;
            }
            ca_cast_safe[a][b] = (unsigned char)PyArray_CanCastTypeTo(
                ca_st->descr[a], ca_st->descr[b], NPY_SAFE_CASTING);
            ca_cast_same_kind[a][b] = (unsigned char)PyArray_CanCastTypeTo(
                ca_st->descr[a], ca_st->descr[b], NPY_SAME_KIND_CASTING);
            PyArray_Descr *r = PyArray_PromoteTypes(ca_st->descr[a], ca_st->descr[b]);
            int t = r == NULL ? -1 : ca_dtype_from_descr(r);
            Py_XDECREF(r);
            if (t < 0) {
                /* e.g. bfloat16 with complex128 under an ml_dtypes without the
                 * promotion: no common type, as NumPy says */
                if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                    return -1;
                }
                PyErr_Clear();
                t = -1;
            }
            ca_promote_table[a][b] = (signed char)t;
        }
    }
    return 0;
}

int
ca_dtype_init(PyObject *m)
{
    for (int i = 0; i < CA_NNUMPY_TYPES; i++) {
        PyArray_Descr *d = PyArray_DescrFromType(ca_npy_typenum[i]);
        if (d == NULL) {
            return -1;
        }
        ca_st->descr[i] = d; /* owned by the state */
        ca_scalar_type[i] = d->typeobj;
        if (PyModule_AddObjectRef(m, export_names[i], (PyObject *)d->typeobj) < 0) {
            return -1;
        }
    }
    /* The Array API's name for the boolean type. */
    if (PyModule_AddObjectRef(m, "bool", (PyObject *)ca_scalar_type[CA_BOOL]) < 0) {
        return -1;
    }
    if (fill_promotions(0, CA_NNUMPY_TYPES) < 0) {
        return -1;
    }
    ca_dtype_names = PyDict_New();
    if (ca_dtype_names == NULL) {
        return -1;
    }
    for (int i = 0; i < CA_NNUMPY_TYPES; i++) {
        PyArray_Descr *d = ca_st->descr[i];
        PyObject *str = PyObject_GetAttrString((PyObject *)d, "str"); /* '<f4' */
        if (str == NULL) {
            return -1;
        }
        PyObject *cands[4] = {
            PyUnicode_FromString(ca_dtype_name[i]),
            PyUnicode_FromFormat("%c", d->type),
            Py_NewRef(str),
            PyUnicode_Substring(str, 1, PyUnicode_GET_LENGTH(str)),
        };
        Py_DECREF(str);
        for (int k = 0; k < 4; k++) {
            PyArray_Descr *got = NULL;
            int ok = cands[k] != NULL && PyArray_DescrConverter2(cands[k], &got) &&
                     got != NULL && PyArray_EquivTypes(got, d);
            Py_XDECREF(got);
            PyErr_Clear();
            if (ok) {
                PyObject *code = PyLong_FromLong(i);
                if (code == NULL ||
                    PyDict_SetItem(ca_dtype_names, cands[k], code) < 0) {
                    Py_XDECREF(code);
                    for (int j = k; j < 4; j++) {
                        Py_XDECREF(cands[j]);
                    }
                    return -1;
                }
                Py_DECREF(code);
            }
            Py_XDECREF(cands[k]);
        }
    }
    if (dt_init(m) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(m, dtype_functions);
}

/*
 * interop.c: zero-copy exchange with other array libraries.
 *
 *   __cuda_array_interface__ (CAI v3)   export: a getter on ndarray
 *                                       import: ca_from_cai (asarray calls it)
 *   DLPack (1.x versioned and legacy)   export: ndarray.__dlpack__, __dlpack_device__
 *                                       import: ca_from_dlpack_obj, from_dlpack()
 *
 * Streams. Both protocols hand a pointer to memory that may still be written by
 * queued GPU work. We never block the host for that: on import we record an
 * event on the producer's stream and make our current stream wait on it; on
 * export (DLPack) we record on our current stream and make the consumer's
 * stream wait. CAI export names our current stream: cuarray does not track
 * which stream last wrote an array, so the current stream is the conservative
 * answer (pending work may be on it), as CuPy does.
 *
 * Validation order. Everything that can be checked without CUDA (the
 * interface's keys and values, the capsule's fields) is checked before any
 * CUDA call, so malformed input gives the same clear error on every machine,
 * and a capsule is only renamed (consumed) once it is known to be usable.
 */
#include "cuarray.h"
#include "datetime_hook.h"
#include "dlpack.h"
#include "launch.h"
#include "watch.h"

#include <stdlib.h>
#include <string.h>

/* ======================================================================== */
/* Module-level caches                                                       */
/* ======================================================================== */
/* One state per process (see module.c), so plain statics are that state. */

/* CAI dict keys, interned so both our dict building and the producers'
 * lookups hit the string-identity fast path. */
static PyObject *k_shape, *k_typestr, *k_descr, *k_data, *k_strides, *k_version,
    *k_stream, *k_mask;
/* __dlpack__ keyword names. */
static PyObject *k_max_version, *k_dl_device, *k_copy;
/* kwnames tuples for calling a producer's __dlpack__. */
static PyObject *kw_stream_maxver, *kw_stream, *kw_maxver;
static PyObject *max_version_obj; /* (1, 0) */
static PyObject *cai_version_obj; /* 3 */
static PyObject *typestr_obj[CA_NTYPES];
static PyObject *descr_item[CA_NTYPES]; /* ('', typestr), immutable so shared */

/* CUARRAY_CUDA_ARRAY_INTERFACE_SYNC=0 turns off the wait on a CAI `stream`. */
static int cai_sync = 1;

#define PTR_NAME_V   "dltensor_versioned"
#define PTR_NAME_L   "dltensor"
#define USED_NAME_V  "used_dltensor_versioned"
#define USED_NAME_L  "used_dltensor"
#define OWNER_NAME_V "cuarray.dlpack_owner_versioned"
#define OWNER_NAME_L "cuarray.dlpack_owner"

#if PY_BIG_ENDIAN
#define CA_ORDER_CHAR '>'
#else
#define CA_ORDER_CHAR '<'
#endif

/* ======================================================================== */
/* Small helpers                                                             */
/* ======================================================================== */

/* A CUDA stream as the protocols name it: the legacy default stream (our
 * NULL) is 1, the per-thread default 2, any other stream its handle. */
static inline uintptr_t
stream_id(ca_stream_t s)
{
    return s == NULL ? (uintptr_t)1 : (uintptr_t)s;
}

/* The handle CUDA accepts for a protocol stream id: 1 and 2 are exactly the
 * values of cudaStreamLegacy and cudaStreamPerThread. */
static inline ca_stream_t
stream_from_id(uintptr_t id)
{
    return (ca_stream_t)id;
}

/* Make `consumer` wait for the work queued so far on `producer` (their device
 * must be current). No host synchronization. */
static int
stream_wait(uintptr_t producer, uintptr_t consumer)
{
    if (producer == consumer) {
        return 0;
    }
    return ca_run_stream_wait_stream(stream_from_id(consumer),
                                     stream_from_id(producer));
}

/* Block the host until `stream` of `device` is idle (GIL released). */
static int
stream_sync_host(int device, ca_stream_t stream)
{
    if (ca_use_device(device) < 0) {
        return -1;
    }
    return ca_run_stream_sync(stream);
}

/* An int-like -> Py_ssize_t; TypeError naming `what` for non-integers,
 * ValueError when out of range. */
static int
get_ssize(PyObject *o, Py_ssize_t *out, const char *what)
{
    Py_ssize_t v;
    if (!PyLong_Check(o) && !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    v = PyNumber_AsSsize_t(o, PyExc_ValueError);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = v;
    return 0;
}

/* A pointer-sized unsigned int (a device pointer or stream handle). */
static int
get_uintptr(PyObject *o, uintptr_t *out, const char *what)
{
    PyObject *idx = NULL;
    unsigned long long v;
    if (!PyLong_Check(o) && !PyIndex_Check(o)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int, not %.100s", what,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    idx = PyNumber_Index(o);
    if (idx == NULL) {
        return -1;
    }
    v = PyLong_AsUnsignedLongLong(idx);
    Py_DECREF(idx);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a non-negative pointer-sized int",
                     what);
        return -1;
    }
    if (v > (unsigned long long)UINTPTR_MAX) {
        PyErr_Format(PyExc_ValueError, "%s is too large for a pointer", what);
        return -1;
    }
    *out = (uintptr_t)v;
    return 0;
}

/* Number of elements of a shape; -1 with ValueError when it overflows, or
 * when size * itemsize does. */
static Py_ssize_t
shape_size(int ndim, const Py_ssize_t *shape, int itemsize)
{
    Py_ssize_t n = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            return 0;
        }
    }
    for (int i = 0; i < ndim; i++) {
        if (__builtin_mul_overflow(n, shape[i], &n)) {
            goto overflow;
        }
    }
    Py_ssize_t bytes;
    if (__builtin_mul_overflow(n, (Py_ssize_t)itemsize, &bytes)) {
        goto overflow;
    }
    return n;
overflow:
    PyErr_SetString(PyExc_ValueError, "array is too large (its size overflows)");
    return -1;
}

/* The byte range a non-empty strided layout touches, relative to its first
 * element: [*lo, *hi). ValueError on overflow. */
static int
layout_extent(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
              int itemsize, Py_ssize_t *lo, Py_ssize_t *hi)
{
    if (ca_layout_extent(ndim, shape, strides, itemsize, lo, hi) < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "strides and shape overflow the address space");
        return -1;
    }
    return 0;
}

/* Kernels load whole elements, so foreign data must be element-aligned (as
 * every cuarray allocation and view is). Strides of length-1 dimensions are
 * never used to address anything and are not checked. */
static int
check_alignment(uintptr_t ptr, int ndim, const Py_ssize_t *shape,
                const Py_ssize_t *strides, int itemsize, PyObject *exc)
{
    if (ptr % (uintptr_t)itemsize != 0) {
        /* %p: PyErr_Format has no %llx before Python 3.12 (it printed the
           format raw); %p is "0x..." on every version */
        PyErr_Format(exc,
                     "the data pointer %p is not aligned to the element size "
                     "(%d bytes)",
                     (void *)ptr, itemsize);
        return -1;
    }
    for (int i = 0; i < ndim; i++) {
        if (shape[i] > 1 && strides[i] % itemsize != 0) {
            PyErr_Format(exc,
                         "stride %zd (bytes) of dimension %d is not a multiple of "
                         "the element size (%d bytes)",
                         strides[i], i, itemsize);
            return -1;
        }
    }
    return 0;
}

static void
c_strides(int ndim, const Py_ssize_t *shape, int itemsize, Py_ssize_t *strides)
{
    ca_contiguous_strides(ndim, shape, itemsize, 0, strides);
}

/* An array over foreign memory [ptr + lo, ptr + hi) kept alive by `owner`, or
 * an empty array when size == 0 (zero-size arrays hold no Memory). */
static CaArray *
wrap_foreign(char *ptr, char *host_ptr, Py_ssize_t lo, Py_ssize_t hi, Py_ssize_t size,
             int dtype, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
             int device, ca_memkind kind, PyObject *owner, int readonly)
{
    CaMemory *mem = NULL;
    CaArray *arr = NULL;
    if (size == 0) {
        arr = ca_array_empty(dtype, ndim, shape, 0, device, kind);
    }
    else {
        mem = ca_memory_foreign(ptr + lo, host_ptr ? host_ptr + lo : NULL,
                                (size_t)(hi - lo), device, kind, owner);
        if (mem == NULL) {
            return NULL;
        }
        arr = ca_array_from_memory(mem, ptr, dtype, ndim, shape, strides, NULL);
        Py_DECREF(mem);
    }
    if (arr != NULL && readonly) {
        arr->flags = (arr->flags & ~CA_WRITEABLE) | CA_NEVER_WRITEABLE;
    }
    return arr;
}

/* ======================================================================== */
/* __cuda_array_interface__ export                                           */
/* ======================================================================== */

/* d[key] = v, taking the new reference v (NULL: its exception is set). */
static int
dict_set_new(PyObject *d, PyObject *key, PyObject *v)
{
    int rc = v == NULL ? -1 : PyDict_SetItem(d, key, v);
    Py_XDECREF(v);
    return rc;
}

/* descr: [('', typestr)]. */
static PyObject *
cai_descr(int dtype)
{
    PyObject *l = PyList_New(1);
    if (l != NULL) {
        PyList_SET_ITEM(l, 0, Py_NewRef(descr_item[dtype]));
    }
    return l;
}

/* data: (pointer, readonly); zero-size arrays give 0 as the spec asks. */
static PyObject *
cai_data(CaArray *self)
{
    PyObject *p = PyLong_FromVoidPtr(self->size == 0 ? NULL : (void *)self->data);
    if (p == NULL) {
        return NULL;
    }
    PyObject *t = PyTuple_Pack(2, p, (self->flags & CA_WRITEABLE) ? Py_False : Py_True);
    Py_DECREF(p);
    return t;
}

static PyObject *
Ndarray_get_cai(CaArray *self, void *closure)
{
    PyObject *d = NULL;
    int ndim = CA_NDIM(self);

    if (self->kind == CA_MEM_HOST || self->device == CA_CPU) {
        PyErr_SetString(PyExc_AttributeError,
                        "__cuda_array_interface__ is only offered by arrays in GPU "
                        "memory (device, managed or pinned); this array is in host "
                        "memory");
        return NULL;
    }
    /* the consumer reads what deferred kernels will write, and may write it */
    ca_hook.export_memory(self->mem);
    d = PyDict_New();
    if (d == NULL) {
        return NULL;
    }
    /* stream: our current stream on the array's device, never 0; strides:
     * None when C-contiguous, else bytes (negative allowed) */
    size_t stream = (size_t)stream_id(ca_current_stream(self->device));
    if (dict_set_new(d, k_shape, ca_shape_tuple(ndim, CA_SHAPE(self))) < 0 ||
        PyDict_SetItem(d, k_typestr, typestr_obj[self->dtype]) < 0 ||
        dict_set_new(d, k_descr, cai_descr(self->dtype)) < 0 ||
        dict_set_new(d, k_data, cai_data(self)) < 0 ||
        dict_set_new(d, k_strides,
                     (self->flags & CA_C_CONTIGUOUS)
                         ? Py_NewRef(Py_None)
                         : ca_shape_tuple(ndim, CA_STRIDES(self))) < 0 ||
        PyDict_SetItem(d, k_version, cai_version_obj) < 0 ||
        dict_set_new(d, k_stream, PyLong_FromSize_t(stream)) < 0) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
}

PyGetSetDef ca_interop_array_getset[] = {
    { "__cuda_array_interface__", (getter)Ndarray_get_cai, NULL,
      "The CUDA Array Interface (version 3) of a GPU-accessible array.\n\n"
      "Offered by device, managed and pinned arrays; host arrays have none\n"
      "(AttributeError). `stream` is the current stream of the array's device\n"
      "(1 for the legacy default stream): conservative, as pending work may be\n"
      "on it.",
      NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* ======================================================================== */
/* __cuda_array_interface__ import                                           */
/* ======================================================================== */

/* The dtype of NumPy kind `kind` ('b', 'i', 'u', 'f', 'c') and `size` bytes,
 * or -1 where cuarray has none: what both imports (a CAI typestr, a DLPack
 * dtype) read their standard types through. */
static int
dtype_of_kind(char kind, int size)
{
    switch (kind) {
    case 'b': return size == 1 ? CA_BOOL : -1;
    case 'i':
        return size == 1   ? CA_INT8
               : size == 2 ? CA_INT16
               : size == 4 ? CA_INT32
               : size == 8 ? CA_INT64
                           : -1;
    case 'u':
        return size == 1   ? CA_UINT8
               : size == 2 ? CA_UINT16
               : size == 4 ? CA_UINT32
               : size == 8 ? CA_UINT64
                           : -1;
    case 'f':
        return size == 2   ? CA_FLOAT16
               : size == 4 ? CA_FLOAT32
               : size == 8 ? CA_FLOAT64
                           : -1;
    case 'c': return size == 8 ? CA_COMPLEX64 : size == 16 ? CA_COMPLEX128 : -1;
    default: return -1;
    }
}

/* typestr -> ca_dtype. ValueError for malformed strings and foreign byte
 * order, TypeError for types cuarray does not have. */
static int
parse_typestr(PyObject *s)
{
    const char *p;
    Py_ssize_t n;
    int size = 0, dtype = -1;
    if (!PyUnicode_Check(s)) {
        PyErr_Format(PyExc_TypeError,
                     "__cuda_array_interface__['typestr'] must be a str, not %.100s",
                     Py_TYPE(s)->tp_name);
        return -1;
    }
    p = PyUnicode_AsUTF8AndSize(s, &n);
    if (p == NULL) {
        return -1;
    }
    if (n >= 3 && (p[1] == 'M' || p[1] == 'm') && strchr("<>|=", p[0]) != NULL) {
        return ca_dt_raise(s); /* '<M8[ns]': cuarray._datetime's */
    }
    if (n < 3 || n > 5 || strchr("<>|=", p[0]) == NULL) {
        goto malformed;
    }
    for (Py_ssize_t i = 2; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            goto malformed;
        }
        size = size * 10 + (p[i] - '0');
    }
    if (size > 1 && (p[0] == '<' || p[0] == '>') && p[0] != CA_ORDER_CHAR) {
        PyErr_Format(PyExc_ValueError,
                     "__cuda_array_interface__ typestr %R has non-native byte order; "
                     "cuarray arrays are native-endian ('%c')",
                     s, CA_ORDER_CHAR);
        return -1;
    }
    /* NumPy's strings for ml_dtypes' types: bfloat16 is '<V2' (PyTorch writes
     * it too), float8_e5m2 '<f1'; float8_e4m3fn's '<V1' names no one type */
    if (p[1] == 'V') {
        dtype = size == 2 ? CA_BFLOAT16 : -1;
    }
    else if (p[1] == 'f' && size == 1) {
        dtype = CA_FLOAT8_E5M2;
    }
    else {
        dtype = dtype_of_kind(p[1], size);
    }
    if (dtype >= 0 && ca_is_ml(dtype)) {
        return ca_ml_dtypes_load(1) < 0 ? -1 : dtype;
    }
    if (dtype < 0) {
        PyErr_Format(PyExc_TypeError,
                     "__cuda_array_interface__ typestr %R is not a cuarray dtype "
                     "(bool, int8-64, uint8-64, float16/32/64, complex64/128, "
                     "bfloat16 as '<V2'; float8_e4m3fn goes through DLPack)",
                     s);
    }
    return dtype;
malformed:
    PyErr_Format(PyExc_ValueError, "malformed __cuda_array_interface__ typestr %R", s);
    return -1;
}

/* Parse an int tuple/list of length ndim (ndim < 0: any length <= CA_MAX_DIMS,
 * returned). Entries must be >= 0 when `nonneg`. */
static int
parse_int_seq(PyObject *o, int ndim, Py_ssize_t *out, int nonneg, const char *what)
{
    Py_ssize_t n;
    if (!PyTuple_Check(o) && !PyList_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "__cuda_array_interface__['%s'] must be a tuple of ints, "
                     "not %.100s",
                     what, Py_TYPE(o)->tp_name);
        return -1;
    }
    n = PySequence_Fast_GET_SIZE(o);
    if (ndim < 0 && n > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError,
                     "__cuda_array_interface__ has %zd dimensions; cuarray supports "
                     "at most %d",
                     n, CA_MAX_DIMS);
        return -1;
    }
    if (ndim >= 0 && n != ndim) {
        PyErr_Format(PyExc_ValueError,
                     "__cuda_array_interface__['%s'] has %zd entries for %d "
                     "dimensions",
                     what, n, ndim);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* The list may not change under us: get_ssize can run __index__, so
         * re-check the size each time. */
        if (i >= PySequence_Fast_GET_SIZE(o)) {
            PyErr_Format(PyExc_ValueError,
                         "__cuda_array_interface__['%s'] changed "
                         "size while being read",
                         what);
            return -1;
        }
        PyObject *item = PySequence_Fast_GET_ITEM(o, i);
        Py_INCREF(item);
        int r =
            get_ssize(item, &out[i], "__cuda_array_interface__ shape/strides entry");
        Py_DECREF(item);
        if (r < 0) {
            return -1;
        }
        if (nonneg && out[i] < 0) {
            PyErr_Format(PyExc_ValueError,
                         "__cuda_array_interface__['%s'] has a negative entry", what);
            return -1;
        }
    }
    return (int)n;
}

/* Borrowed dict item; NULL without exception when absent. */
static inline PyObject *
dict_get(PyObject *d, PyObject *key)
{
    return PyDict_GetItemWithError(d, key);
}

static PyObject *
missing_key(const char *key)
{
    PyErr_Format(PyExc_ValueError, "__cuda_array_interface__ has no '%s'", key);
    return NULL;
}

/* The parsed interface, before anything touches CUDA. */
typedef struct {
    int dtype;
    int itemsize;
    int ndim;
    int version;
    int readonly;
    int has_stream; /* version 3 with a non-None stream */
    uintptr_t ptr;
    uintptr_t stream;
    Py_ssize_t size;
    Py_ssize_t lo, hi; /* byte extent around ptr (size > 0) */
    Py_ssize_t shape[CA_MAX_DIMS];
    Py_ssize_t strides[CA_MAX_DIMS];
} cai_desc;

/* A non-empty foreign layout at ptr: not NULL, element-aligned and inside the
 * address space, with its byte extent around ptr in [*lo, *hi). `exc` and the
 * two messages are the protocol's, so each names its own source. */
static int
check_foreign_extent(uintptr_t ptr, int ndim, const Py_ssize_t *shape,
                     const Py_ssize_t *strides, int itemsize, PyObject *exc,
                     const char *null_msg, const char *range_msg, Py_ssize_t *lo,
                     Py_ssize_t *hi)
{
    if (ptr == 0) {
        PyErr_SetString(exc, null_msg);
        return -1;
    }
    if (check_alignment(ptr, ndim, shape, strides, itemsize, exc) < 0 ||
        layout_extent(ndim, shape, strides, itemsize, lo, hi) < 0) {
        return -1;
    }
    if ((*lo < 0 && ptr < (uintptr_t)(-*lo)) || (uintptr_t)*hi > UINTPTR_MAX - ptr) {
        PyErr_SetString(exc, range_msg);
        return -1;
    }
    return 0;
}

/* Borrowed dict item that must be there: NULL with ValueError when absent. */
static PyObject *
dict_require(PyObject *d, PyObject *key, const char *name)
{
    PyObject *v = dict_get(d, key);
    if (v == NULL && !PyErr_Occurred()) {
        return missing_key(name);
    }
    return v;
}

/* version (0-3; absent is read as 0, the oldest) and mask (only None). */
static int
cai_parse_version(PyObject *iface, cai_desc *c)
{
    PyObject *v;
    Py_ssize_t version = 0;

    v = dict_get(iface, k_version);
    if (v == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (v != NULL &&
        get_ssize(v, &version, "__cuda_array_interface__['version']") < 0) {
        return -1;
    }
    if (version < 0 || version > 3) {
        PyErr_Format(PyExc_ValueError,
                     "__cuda_array_interface__ version %zd is not supported (0-3)",
                     version);
        return -1;
    }
    c->version = (int)version;
    v = dict_get(iface, k_mask);
    if (v == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (v != NULL && v != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "__cuda_array_interface__ with a mask is not supported");
        return -1;
    }
    return 0;
}

/* typestr, shape and strides (absent or None: C-contiguous). */
static int
cai_parse_layout(PyObject *iface, cai_desc *c)
{
    PyObject *v;

    if ((v = dict_require(iface, k_typestr, "typestr")) == NULL ||
        (c->dtype = parse_typestr(v)) < 0) {
        return -1;
    }
    c->itemsize = ca_dtype_size[c->dtype];
    if ((v = dict_require(iface, k_shape, "shape")) == NULL ||
        (c->ndim = parse_int_seq(v, -1, c->shape, 1, "shape")) < 0 ||
        (c->size = shape_size(c->ndim, c->shape, c->itemsize)) < 0) {
        return -1;
    }
    v = dict_get(iface, k_strides);
    if (v == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (v == NULL || v == Py_None) {
        c_strides(c->ndim, c->shape, c->itemsize, c->strides);
    }
    else if (parse_int_seq(v, c->ndim, c->strides, 0, "strides") < 0) {
        return -1;
    }
    return 0;
}

/* data: (pointer, readonly); None for an array of no elements (as CuPy and
 * Numba take it: there is no memory to point to). After the layout (c->size). */
static int
cai_parse_data(PyObject *iface, cai_desc *c)
{
    PyObject *v = dict_require(iface, k_data, "data");
    if (v == NULL) {
        return -1;
    }
    if (v == Py_None && c->size == 0) {
        c->ptr = 0;
        c->readonly = 0;
        return 0;
    }
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) {
        PyErr_SetString(PyExc_TypeError,
                        "__cuda_array_interface__['data'] must be a tuple "
                        "(pointer: int, readonly: bool)");
        return -1;
    }
    if (get_uintptr(PyTuple_GET_ITEM(v, 0), &c->ptr,
                    "__cuda_array_interface__ data pointer") < 0) {
        return -1;
    }
    if ((c->readonly = PyObject_IsTrue(PyTuple_GET_ITEM(v, 1))) < 0) {
        return -1;
    }
    return 0;
}

/* stream (version 3 only): None = nothing to wait for; 0 is ambiguous. */
static int
cai_parse_stream(PyObject *iface, cai_desc *c)
{
    PyObject *v;

    c->has_stream = 0;
    if (c->version < 3) {
        return 0;
    }
    v = dict_get(iface, k_stream);
    if (v == NULL && PyErr_Occurred()) {
        return -1;
    }
    if (v == NULL || v == Py_None) {
        return 0;
    }
    if (PyBool_Check(v)) {
        PyErr_SetString(PyExc_TypeError,
                        "__cuda_array_interface__['stream'] must be an int or None, "
                        "not bool");
        return -1;
    }
    if (get_uintptr(v, &c->stream, "__cuda_array_interface__['stream']") < 0) {
        return -1;
    }
    if (c->stream == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "__cuda_array_interface__['stream'] is 0, which the "
                        "interface forbids (ambiguous); use 1 for the legacy "
                        "default stream, 2 for the per-thread one");
        return -1;
    }
    c->has_stream = 1;
    return 0;
}

static int
cai_parse(PyObject *iface, cai_desc *c)
{
    if (!PyDict_Check(iface)) {
        PyErr_Format(PyExc_TypeError,
                     "__cuda_array_interface__ must be a dict, not %.100s",
                     Py_TYPE(iface)->tp_name);
        return -1;
    }
    if (cai_parse_version(iface, c) < 0 || cai_parse_layout(iface, c) < 0 ||
        cai_parse_data(iface, c) < 0 || cai_parse_stream(iface, c) < 0) {
        return -1;
    }
    c->lo = c->hi = 0;
    if (c->size > 0 &&
        check_foreign_extent(c->ptr, c->ndim, c->shape, c->strides, c->itemsize,
                             PyExc_ValueError,
                             "__cuda_array_interface__ data pointer is NULL for a "
                             "non-empty array",
                             "__cuda_array_interface__ data extends outside the "
                             "address space",
                             &c->lo, &c->hi) < 0) {
        return -1;
    }
    return 0;
}

/* The array for a parsed interface: ask CUDA what the pointer is, wait on the
 * producer's stream, wrap. */
static CaArray *
cai_build(PyObject *owner, const cai_desc *c)
{
    ca_pointer_info attr;
    char *ptr = (char *)c->ptr, *host = NULL;
    int device;
    ca_memkind kind;

    if (c->size == 0) {
        /* Nothing to point at or wait for: an empty array where we are. */
        device = ca_current_device();
        kind = device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
        return wrap_foreign(NULL, NULL, 0, 0, 0, c->dtype, c->ndim, c->shape,
                            c->strides, device, kind, owner, c->readonly);
    }
    int st = ca_rt_pointer_info(ptr, &attr);
    if (st != 0) {
        ca_cuda_error_int(st, "cudaPointerGetAttributes(__cuda_array_interface__ "
                              "data pointer)");
        return NULL;
    }
    switch (attr.type) {
    case CA_PTR_DEVICE: kind = CA_MEM_DEVICE; break;
    case CA_PTR_MANAGED:
        kind = CA_MEM_MANAGED;
        host = ptr;
        break;
    case CA_PTR_HOST:
        kind = CA_MEM_PINNED;
        host = (char *)attr.host_ptr;
        if (attr.device_ptr == NULL) {
            PyErr_SetString(PyExc_ValueError,
                            "__cuda_array_interface__ points to pinned host memory "
                            "that is not mapped into the device address space");
            return NULL;
        }
        break;
    default:
        PyErr_Format(PyExc_ValueError,
                     "__cuda_array_interface__ data pointer 0x%llx is not CUDA "
                     "memory (pageable host memory or an invalid pointer)",
                     (unsigned long long)c->ptr);
        return NULL;
    }
    device = attr.device;
    if (c->has_stream && cai_sync) {
        if (ca_use_device(device) < 0 ||
            stream_wait(c->stream, stream_id(ca_current_stream(device))) < 0) {
            return NULL;
        }
    }
    return wrap_foreign(ptr, host, c->lo, c->hi, c->size, c->dtype, c->ndim, c->shape,
                        c->strides, device, kind, owner, c->readonly);
}

/* obj.<name> of an optional protocol (a new reference), or NULL. *found is 0
 * when obj has no such attribute (no error set), else 1: a property that
 * exists and raised is reported, not taken for a missing protocol. */
static PyObject *
protocol_attr(PyObject *obj, PyObject *name, int *found)
{
    PyObject *v = PyObject_GetAttr(obj, name);
    *found = v != NULL || !PyErr_ExceptionMatches(PyExc_AttributeError);
    if (!*found) {
        PyErr_Clear();
    }
    return v;
}

CaArray *
ca_from_cai(PyObject *obj, int *found)
{
    PyObject *iface = NULL;
    CaArray *res = NULL;
    cai_desc c;

    iface = protocol_attr(obj, ca_st->str_cai, found);
    if (iface == NULL) {
        return NULL;
    }
    if (cai_parse(iface, &c) == 0) {
        res = cai_build(obj, &c);
    }
    Py_DECREF(iface);
    return res;
}

/* ======================================================================== */
/* DLPack: dtype and device mapping                                          */
/* ======================================================================== */

static DLDataType
dl_dtype(int dtype)
{
    DLDataType t;
    t.lanes = 1;
    t.bits = (uint8_t)(8 * ca_dtype_size[dtype]);
    if (dtype == CA_BOOL) {
        t.code = kDLBool;
    }
    else if (ca_is_ml(dtype)) {
        t.code = dtype == CA_BFLOAT16        ? kDLBfloat
                 : dtype == CA_FLOAT8_E4M3FN ? kDLFloat8_e4m3fn
                                             : kDLFloat8_e5m2;
    }
    else if (ca_is_complex(dtype)) {
        t.code = kDLComplex;
    }
    else if (ca_is_float(dtype)) {
        t.code = kDLFloat;
    }
    else if (ca_is_unsigned(dtype)) {
        t.code = kDLUInt;
    }
    else {
        t.code = kDLInt;
    }
    return t;
}

/* DLDataType -> ca_dtype, -1 with TypeError when cuarray has no such dtype. */
static int
dtype_from_dl(DLDataType t)
{
    int bits = t.bits, dtype = -1;
    if (t.lanes == 1 && bits % 8 == 0) {
        switch (t.code) {
        case kDLBool: dtype = dtype_of_kind('b', bits / 8); break;
        case kDLInt: dtype = dtype_of_kind('i', bits / 8); break;
        case kDLUInt: dtype = dtype_of_kind('u', bits / 8); break;
        case kDLFloat: dtype = dtype_of_kind('f', bits / 8); break;
        case kDLComplex: dtype = dtype_of_kind('c', bits / 8); break;
        case kDLBfloat: dtype = bits == 16 ? CA_BFLOAT16 : -1; break;
        case kDLFloat8_e4m3fn: dtype = bits == 8 ? CA_FLOAT8_E4M3FN : -1; break;
        case kDLFloat8_e5m2: dtype = bits == 8 ? CA_FLOAT8_E5M2 : -1; break;
        default: break;
        }
    }
    if (dtype >= 0 && ca_is_ml(dtype) && ca_ml_dtypes_load(1) < 0) {
        return -1; /* the array's dtype is ml_dtypes' */
    }
    if (dtype < 0) {
        PyErr_Format(PyExc_TypeError,
                     "DLPack tensor has a dtype cuarray does not support "
                     "(code %d, bits %d, lanes %d)",
                     (int)t.code, bits, (int)t.lanes);
    }
    return dtype;
}

/* The (device_type, device_id) an array exports. */
static DLDevice
array_dl_device(CaArray *a)
{
    DLDevice d;
    switch (a->kind) {
    case CA_MEM_DEVICE:
        d.device_type = kDLCUDA;
        d.device_id = a->device;
        break;
    case CA_MEM_MANAGED:
        d.device_type = kDLCUDAManaged;
        d.device_id = 0;
        break;
    case CA_MEM_PINNED:
        d.device_type = kDLCUDAHost;
        d.device_id = 0;
        break;
    default:
        d.device_type = kDLCPU;
        d.device_id = 0;
        break;
    }
    return d;
}

/* The host-side address of an element of a host-accessible array. */
static char *
array_host_ptr(CaArray *a, char *p)
{
    if (a->kind == CA_MEM_HOST || a->mem == NULL || a->mem->host_ptr == NULL) {
        return p;
    }
    return a->mem->host_ptr + (p - a->mem->ptr);
}

static PyObject *
Ndarray_dlpack_device(CaArray *self, PyObject *Py_UNUSED(ignored))
{
    DLDevice d = array_dl_device(self);
    return Py_BuildValue("(ii)", (int)d.device_type, (int)d.device_id);
}

/* ======================================================================== */
/* DLPack export                                                             */
/* ======================================================================== */

/* What one exported capsule owns: the managed tensor (first, so the deleter's
 * `self` is the context), a reference to the exported object, and the shape and
 * strides arrays the tensor points to. */
typedef struct {
    union {
        DLManagedTensorVersioned v;
        DLManagedTensor l;
    } mt;
    PyObject *owner;
    int64_t dims[]; /* shape[ndim], strides[ndim] */
} export_ctx;

/* Called by the consumer (any thread, maybe at interpreter exit) or by the
 * capsule destructor of an unconsumed capsule. */
static void
export_free(export_ctx *ctx)
{
    if (ctx == NULL) {
        return;
    }
    /* After (or during) finalization Python objects may not be touched: leak
     * the reference rather than crash; the process is ending anyway. */
#if PY_VERSION_HEX >= 0x030D0000
    if (Py_IsInitialized() && !Py_IsFinalizing()) {
#else
    if (Py_IsInitialized()) {
#endif
        PyGILState_STATE g = PyGILState_Ensure();
        Py_XDECREF(ctx->owner);
        PyGILState_Release(g);
    }
    free(ctx);
}

static void
deleter_versioned(DLManagedTensorVersioned *self)
{
    export_free((export_ctx *)self->manager_ctx);
}

static void
deleter_legacy(DLManagedTensor *self)
{
    export_free((export_ctx *)self->manager_ctx);
}

/* Call the deleter of the tensor in `cap` when the capsule is named name_v (a
 * versioned tensor) or name_l (a legacy one); under any other name it is not
 * the destructor's to delete. */
static void
call_deleter(PyObject *cap, const char *name_v, const char *name_l)
{
    if (PyCapsule_IsValid(cap, name_v)) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, name_v);
        if (m->deleter != NULL) {
            m->deleter(m);
        }
    }
    else if (PyCapsule_IsValid(cap, name_l)) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, name_l);
        if (m->deleter != NULL) {
            m->deleter(m);
        }
    }
}

/* The destructor of an exported capsule: only an unconsumed one (still named
 * dltensor*) owns its tensor; a consumer renamed it and calls the deleter. */
static void
capsule_dtor(PyObject *cap)
{
    call_deleter(cap, PTR_NAME_V, PTR_NAME_L);
}

/* Build the capsule for `owner`'s data (a reference is taken). */
static PyObject *
make_capsule(PyObject *owner, void *data, int dtype, int ndim, const Py_ssize_t *shape,
             const Py_ssize_t *byte_strides, DLDevice dev, uint64_t flags,
             int versioned)
{
    export_ctx *ctx = NULL;
    DLTensor *t;
    PyObject *cap;
    int itemsize = ca_dtype_size[dtype];

    for (int i = 0; i < ndim; i++) {
        if (byte_strides[i] % itemsize != 0) {
            PyErr_Format(PyExc_BufferError,
                         "cannot export through DLPack: stride %zd (bytes) of "
                         "dimension %d is not a multiple of the element size",
                         byte_strides[i], i);
            return NULL;
        }
    }
    ctx = malloc(sizeof(export_ctx) + 2 * (size_t)ndim * sizeof(int64_t));
    if (ctx == NULL) {
        return PyErr_NoMemory();
    }
    memset(&ctx->mt, 0, sizeof ctx->mt);
    if (versioned) {
        ctx->mt.v.version.major = CA_DLPACK_MAJOR_VERSION;
        ctx->mt.v.version.minor = CA_DLPACK_MINOR_VERSION;
        ctx->mt.v.manager_ctx = ctx;
        ctx->mt.v.deleter = deleter_versioned;
        ctx->mt.v.flags = flags;
        t = &ctx->mt.v.dl_tensor;
    }
    else {
        ctx->mt.l.manager_ctx = ctx;
        ctx->mt.l.deleter = deleter_legacy;
        t = &ctx->mt.l.dl_tensor;
    }
    for (int i = 0; i < ndim; i++) {
        ctx->dims[i] = (int64_t)shape[i];
        ctx->dims[ndim + i] = (int64_t)(byte_strides[i] / itemsize);
    }
    t->data = data;
    t->device = dev;
    t->ndim = ndim;
    t->dtype = dl_dtype(dtype);
    t->shape = ndim > 0 ? ctx->dims : NULL;
    t->strides = ndim > 0 ? ctx->dims + ndim : NULL;
    t->byte_offset = 0;
    ctx->owner = Py_NewRef(owner);
    cap = PyCapsule_New(&ctx->mt, versioned ? PTR_NAME_V : PTR_NAME_L, capsule_dtor);
    if (cap == NULL) {
        Py_DECREF(ctx->owner);
        free(ctx);
    }
    return cap;
}

/* A __dlpack__ `stream` argument -> protocol id; 0 = no synchronization (-1). */
static int
parse_dlpack_stream(PyObject *o, uintptr_t *id)
{
    long long v;
    int overflow;
    if (o == NULL || o == Py_None) {
        *id = 1; /* None means the legacy default stream for CUDA */
        return 0;
    }
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError,
                     "__dlpack__: stream must be an int or None, not "
                     "%.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (overflow > 0) {
        return get_uintptr(o, id, "__dlpack__: stream");
    }
    if (v == -1) {
        *id = 0;
        return 0;
    }
    if (v == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "__dlpack__: stream=0 is ambiguous and not allowed; use 1 "
                        "for the legacy default stream, 2 for the per-thread one");
        return -1;
    }
    if (overflow < 0 || v < 0) {
        PyErr_Format(PyExc_ValueError, "__dlpack__: invalid stream %R", o);
        return -1;
    }
    *id = (uintptr_t)v;
    return 0;
}

/* A 2-int tuple (a, b); TypeError otherwise. */
static int
parse_int_pair(PyObject *o, long *a, long *b, const char *what)
{
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 2 ||
        !PyLong_Check(PyTuple_GET_ITEM(o, 0)) ||
        !PyLong_Check(PyTuple_GET_ITEM(o, 1))) {
        PyErr_Format(PyExc_TypeError, "%s must be a tuple of two ints", what);
        return -1;
    }
    *a = PyLong_AsLong(PyTuple_GET_ITEM(o, 0));
    if (*a == -1 && PyErr_Occurred()) {
        return -1;
    }
    *b = PyLong_AsLong(PyTuple_GET_ITEM(o, 1));
    if (*b == -1 && PyErr_Occurred()) {
        return -1;
    }
    return 0;
}

/* Wrap a NumPy array as a cuarray host array on the cpu device (zero-copy). */
static CaArray *
wrap_numpy_host(PyArrayObject *arr, int dtype, int readonly)
{
    int ndim = PyArray_NDIM(arr);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS], lo = 0, hi = 0, size;
    if (ndim > CA_MAX_DIMS) {
        PyErr_SetString(PyExc_ValueError, "too many dimensions");
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        shape[i] = PyArray_DIMS(arr)[i];
        strides[i] = PyArray_STRIDES(arr)[i];
    }
    size = PyArray_SIZE(arr);
    if (size > 0 &&
        layout_extent(ndim, shape, strides, ca_dtype_size[dtype], &lo, &hi) < 0) {
        return NULL;
    }
    return wrap_foreign(PyArray_BYTES(arr), PyArray_BYTES(arr), lo, hi, size, dtype,
                        ndim, shape, strides, CA_CPU, CA_MEM_HOST, (PyObject *)arr,
                        readonly);
}

/* A __dlpack__ call's arguments, parsed. */
typedef struct {
    PyObject *stream;   /* borrowed; NULL when not given */
    int versioned;      /* max_version asks for 1.x */
    int copy;           /* -1 None, 0 False, 1 True */
    uintptr_t consumer; /* the consumer's stream id; 0 = no synchronization */
    int to_cpu;         /* dl_device asks for the CPU */
    DLDevice out;       /* the device the capsule names */
} dlpack_args;

/* The keyword-only arguments: o[0..3] = stream, max_version, dl_device, copy
 * (borrowed, NULL when not given). */
static int
dlpack_kwargs(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, PyObject **o)
{
    PyObject *const names[4] = { k_stream, k_max_version, k_dl_device, k_copy };

    o[0] = o[1] = o[2] = o[3] = NULL;
    if (nargs != 0) {
        PyErr_SetString(PyExc_TypeError, "__dlpack__() takes keyword arguments only");
        return -1;
    }
    for (Py_ssize_t i = 0; kwnames != NULL && i < PyTuple_GET_SIZE(kwnames); i++) {
        PyObject *k = PyTuple_GET_ITEM(kwnames, i);
        int j = 0;
        while (j < 4 && k != names[j] && PyUnicode_Compare(k, names[j]) != 0) {
            j++;
        }
        if (j == 4) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_TypeError,
                             "__dlpack__() got an unexpected keyword argument %R", k);
            }
            return -1;
        }
        o[j] = args[i];
    }
    return 0;
}

/* dl_device: our own, (kDLCUDA, ours) for GPU-accessible host memory, or the
 * CPU (a copy unless the memory is host-accessible). */
static int
dlpack_target(CaArray *self, PyObject *o, dlpack_args *r)
{
    DLDevice own = array_dl_device(self);
    long type, id;

    r->out = own;
    r->to_cpu = 0;
    if (o == NULL || o == Py_None) {
        return 0;
    }
    if (parse_int_pair(o, &type, &id, "__dlpack__: dl_device") < 0) {
        return -1;
    }
    if (type == own.device_type && id == own.device_id) {
        return 0;
    }
    if (type == kDLCPU && id == 0) {
        r->to_cpu = 1;
        r->out.device_type = kDLCPU;
        r->out.device_id = 0;
        return 0;
    }
    if (type == kDLCUDA && id == self->device &&
        (self->kind == CA_MEM_MANAGED || self->kind == CA_MEM_PINNED)) {
        r->out.device_type = kDLCUDA;
        r->out.device_id = (int32_t)self->device;
        return 0;
    }
    PyErr_Format(PyExc_BufferError,
                 "__dlpack__: cannot export to device (%ld, %ld); the array is on "
                 "(%d, %d)%s",
                 type, id, (int)own.device_type, (int)own.device_id,
                 own.device_type != kDLCPU ? " and can only be copied to the CPU (1, 0)"
                                           : "");
    return -1;
}

static int
dlpack_parse(CaArray *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
             dlpack_args *r)
{
    PyObject *o[4];

    if (dlpack_kwargs(args, nargs, kwnames, o) < 0) {
        return -1;
    }
    r->stream = o[0];
    r->versioned = 0;
    r->copy = -1;
    r->consumer = 1;
    /* max_version: None or (major, minor) */
    if (o[1] != NULL && o[1] != Py_None) {
        long major, minor;
        if (parse_int_pair(o[1], &major, &minor, "__dlpack__: max_version") < 0) {
            return -1;
        }
        r->versioned = major >= 1;
    }
    /* copy: None, True, False */
    if ((r->copy = ca_copy_from_object(o[3], -1)) == -1 && PyErr_Occurred()) {
        return -1;
    }
    /* stream: checked whatever the device, so bad values never pass silently */
    if (parse_dlpack_stream(o[0], &r->consumer) < 0) {
        return -1;
    }
    return dlpack_target(self, o[2], r);
}

/* A NumPy copy on the host (it synchronizes), whose memory belongs to the
 * capsule. */
static PyObject *
export_host_copy(CaArray *self, const dlpack_args *r)
{
    if (ca_guard(CA_TG_D2H, 0, "a DLPack export to the host",
                 (size_t)self->size * (size_t)self->itemsize, self->device) < 0) {
        return NULL;
    }
    PyObject *host = ca_array_to_numpy(self), *res;
    if (host == NULL) {
        return NULL;
    }
    PyArrayObject *h = (PyArrayObject *)host;
    res = make_capsule(host, PyArray_DATA(h), self->dtype, PyArray_NDIM(h),
                       PyArray_DIMS(h), PyArray_STRIDES(h), r->out,
                       DLPACK_FLAG_BITMASK_IS_COPIED, r->versioned);
    Py_DECREF(host);
    return res;
}

/* The CPU reads the array in place: only host-accessible memory can be, and
 * the CPU cannot wait on an event, so the host waits here for the work queued
 * on our stream. */
static int
prepare_cpu_read(CaArray *self)
{
    if (self->kind == CA_MEM_DEVICE) {
        PyErr_SetString(PyExc_BufferError,
                        "__dlpack__: copy=False but the array is in device memory, "
                        "which the CPU cannot read; allow a copy or use a managed "
                        "or pinned array");
        return -1;
    }
    if (self->kind != CA_MEM_HOST && self->size > 0) {
        return stream_sync_host(self->device, ca_current_stream(self->device));
    }
    return 0;
}

/* What the capsule exports: a copy for copy=True (flagged in *flags), else the
 * array itself; read-only arrays need a versioned capsule to say so. */
static CaArray *
dlpack_source(CaArray *self, dlpack_args *r, uint64_t *flags)
{
    CaArray *src;
    DLDevice own = array_dl_device(self);

    if (r->copy == 1 && !r->to_cpu) {
        src = ca_array_copy(self, self->dtype, 'K');
        if (src == NULL) {
            return NULL;
        }
        *flags |= DLPACK_FLAG_BITMASK_IS_COPIED;
    }
    else {
        src = (CaArray *)Py_NewRef(self);
    }
    if (r->out.device_type == own.device_type && r->out.device_id == own.device_id) {
        r->out = array_dl_device(src); /* a copy lives where it was made */
    }
    if (!(src->flags & CA_WRITEABLE)) {
        if (!r->versioned) {
            PyErr_SetString(PyExc_BufferError,
                            "__dlpack__: a read-only array cannot be exported as a "
                            "legacy (unversioned) DLPack capsule, which has no "
                            "read-only flag; ask for max_version=(1, 0) or copy=True");
            Py_DECREF(src);
            return NULL;
        }
        *flags |= DLPACK_FLAG_BITMASK_READ_ONLY;
    }
    return src;
}

/* Stream order: the consumer's stream waits for our current stream. A
 * consumer of host-accessible memory that names no stream may well be a CPU
 * library (NumPy reads kDLCUDAHost/kDLCUDAManaged in place), which cannot wait
 * on an event: the host waits instead, as for the buffer protocol. */
static int
dlpack_order(CaArray *src, const dlpack_args *r)
{
    if (r->to_cpu || src->kind == CA_MEM_HOST || r->consumer == 0 || src->size == 0) {
        return 0;
    }
    ca_stream_t ours = ca_current_stream(src->device);
    int host_reader = (r->stream == NULL || r->stream == Py_None) &&
                      (src->kind == CA_MEM_MANAGED || src->kind == CA_MEM_PINNED);
    if (host_reader) {
        return stream_sync_host(src->device, ours);
    }
    if (ca_use_device(src->device) < 0) {
        return -1;
    }
    return stream_wait(stream_id(ours), r->consumer);
}

static PyObject *
Ndarray_dlpack(CaArray *self, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    PyObject *res = NULL;
    CaArray *src = NULL;
    uint64_t flags = 0;
    dlpack_args r;

    if (dlpack_parse(self, args, nargs, kwnames, &r) < 0) {
        return NULL;
    }
    if (r.to_cpu) {
        if (r.copy == 1 || (r.copy == -1 && self->kind == CA_MEM_DEVICE)) {
            return export_host_copy(self, &r);
        }
        if (prepare_cpu_read(self) < 0) {
            return NULL;
        }
    }
    src = dlpack_source(self, &r, &flags);
    if (src == NULL) {
        return NULL;
    }
    /* The consumer reads what deferred kernels will write (this flushes). */
    ca_hook.export_memory(src->mem);
    if (dlpack_order(src, &r) < 0) {
        goto error;
    }
    res = make_capsule((PyObject *)src,
                       r.out.device_type == kDLCPU || r.out.device_type == kDLCUDAHost
                           ? array_host_ptr(src, src->data)
                           : src->data,
                       src->dtype, CA_NDIM(src), CA_SHAPE(src), CA_STRIDES(src), r.out,
                       flags, r.versioned);
error:
    Py_XDECREF(src);
    return res;
}

PyMethodDef ca_interop_array_methods[] = {
    { "__dlpack__", CA_FASTKW(Ndarray_dlpack),
      "__dlpack__($self, /, *, stream=None, max_version=None, dl_device=None, "
      "copy=None)\n--\n\n"
      "Export the array as a DLPack capsule (Python array API).\n\n"
      "Parameters\n----------\n"
      "stream : int or None\n    The consumer's stream: None or 1 for the legacy "
      "default stream, 2\n    for the per-thread default, a stream handle, or -1 for "
      "no\n    synchronization. The consumer's stream waits (on the GPU) for work\n"
      "    queued on the array's current stream.\n"
      "max_version : tuple of two ints, optional\n    (1, x) or newer gives a "
      "'dltensor_versioned' capsule, else the\n    legacy 'dltensor'.\n"
      "dl_device : tuple of two ints, optional\n    The array's own device, or "
      "(1, 0) for the CPU (a copy of device\n    memory; host-accessible memory is "
      "shared).\n"
      "copy : bool, optional\n    True always copies (flagged IS_COPIED), False never "
      "does." },
    { "__dlpack_device__", (PyCFunction)Ndarray_dlpack_device, METH_NOARGS,
      "__dlpack_device__($self, /)\n--\n\n"
      "(device_type, device_id): (2, n) for device memory, (13, 0) managed,\n"
      "(3, 0) pinned, (1, 0) host." },
    { NULL, NULL, 0, NULL },
};

/* ======================================================================== */
/* DLPack import                                                             */
/* ======================================================================== */

/* The owner of a consumed capsule's tensor: a capsule of our own whose
 * destructor calls the producer's deleter once, when the last array over the
 * memory is gone. */
/* The producer's deleter may run Python code (a ctypes callback, a Python-level
 * producer): an owner dropped on an error path must not lose the exception being
 * raised (seen on the GPU machine as "returned NULL without setting an exception"
 * when cudaHostGetDevicePointer refused a forged kDLCUDAHost capsule). */
typedef struct {
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc;
#else
    PyObject *type, *value, *tb;
#endif
} saved_error;

static saved_error
save_error(void)
{
    saved_error e;
#if PY_VERSION_HEX >= 0x030C0000
    e.exc = PyErr_GetRaisedException();
#else
    PyErr_Fetch(&e.type, &e.value, &e.tb);
#endif
    return e;
}

static void
restore_error(saved_error e)
{
#if PY_VERSION_HEX >= 0x030C0000
    if (e.exc != NULL) {
        if (PyErr_Occurred()) {
            PyErr_WriteUnraisable(NULL); /* the deleter's own error */
        }
        PyErr_SetRaisedException(e.exc);
    }
#else
    if (e.type != NULL) {
        if (PyErr_Occurred()) {
            PyErr_WriteUnraisable(NULL);
        }
        PyErr_Restore(e.type, e.value, e.tb);
    }
#endif
}

/* The destructor of an imported tensor's owner: the deleter may run while an
 * exception is set (a failed import), which it must neither see nor lose. */
static void
owner_dtor(PyObject *cap)
{
    saved_error e = save_error();
    call_deleter(cap, OWNER_NAME_V, OWNER_NAME_L);
    restore_error(e);
}

/* Device id for memory that belongs to no one GPU (managed, pinned): the
 * requested GPU, else the current one, else GPU 0. */
static int
any_gpu(int requested)
{
    if (requested >= 0) {
        return requested;
    }
    int cur = ca_current_device();
    return cur >= 0 ? cur : 0;
}

/* A NumPy view of host memory of a (not yet wrapped) foreign tensor, owned by
 * `owner`; used to copy host data to a GPU. */
static PyObject *
numpy_view(char *ptr, int dtype, int ndim, const Py_ssize_t *shape,
           const Py_ssize_t *strides, PyObject *owner)
{
    npy_intp dims[CA_MAX_DIMS], st[CA_MAX_DIMS];
    PyArray_Descr *descr = ca_descr(dtype);
    PyObject *arr;
    for (int i = 0; i < ndim; i++) {
        dims[i] = shape[i];
        st[i] = strides[i];
    }
    Py_INCREF(descr);
    arr = PyArray_NewFromDescr(&PyArray_Type, descr, ndim, dims, st, ptr, 0, NULL);
    if (arr == NULL) {
        return NULL;
    }
    if (PyArray_SetBaseObject((PyArrayObject *)arr, Py_NewRef(owner)) < 0) {
        Py_DECREF(arr);
        return NULL;
    }
    return arr;
}

/* Call x.__dlpack__(...) the way the array API asks, falling back to the
 * pre-1.0 signature for producers that reject max_version. `stream` NULL:
 * do not pass one (CPU producers). */
static PyObject *
call_dlpack(PyObject *meth, PyObject *stream)
{
    PyObject *args[2];
    PyObject *cap;
    if (stream != NULL) {
        args[0] = stream;
        args[1] = max_version_obj;
        cap = PyObject_Vectorcall(meth, args, 0, kw_stream_maxver);
    }
    else {
        args[0] = max_version_obj;
        cap = PyObject_Vectorcall(meth, args, 0, kw_maxver);
    }
    if (cap == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        if (stream != NULL) {
            args[0] = stream;
            cap = PyObject_Vectorcall(meth, args, 0, kw_stream);
        }
        else {
            cap = PyObject_Vectorcall(meth, NULL, 0, NULL);
        }
    }
    return cap;
}

/* A DLPack tensor being imported, as read from its capsule. */
typedef struct {
    void *mt; /* the managed tensor, of either version */
    DLTensor *t;
    int versioned;
    int readonly;
    int dtype, itemsize, ndim;
    Py_ssize_t shape[CA_MAX_DIMS];
    Py_ssize_t strides[CA_MAX_DIMS]; /* bytes */
    Py_ssize_t size;
    Py_ssize_t lo, hi; /* byte extent around ptr (size > 0) */
    uintptr_t ptr;     /* data + byte_offset */
    int dev;           /* where it lands: CA_CPU or a GPU */
    ca_memkind kind;
} dl_import;

/* The tensor of an unconsumed capsule, versioned or legacy. BufferError for a
 * used capsule or a major version cuarray cannot read, TypeError for anything
 * that is not a DLPack capsule. */
static int
capsule_tensor(PyObject *cap, dl_import *d)
{
    d->readonly = 0;
    if (PyCapsule_IsValid(cap, PTR_NAME_V)) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, PTR_NAME_V);
        if (m == NULL) {
            return -1;
        }
        if (m->version.major != CA_DLPACK_MAJOR_VERSION) {
            PyErr_Format(PyExc_BufferError,
                         "DLPack capsule has version %u.%u; cuarray reads %d.x",
                         (unsigned)m->version.major, (unsigned)m->version.minor,
                         CA_DLPACK_MAJOR_VERSION);
            return -1;
        }
        d->versioned = 1;
        d->mt = m;
        d->t = &m->dl_tensor;
        d->readonly = (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) != 0;
        return 0;
    }
    if (PyCapsule_IsValid(cap, PTR_NAME_L)) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, PTR_NAME_L);
        if (m == NULL) {
            return -1;
        }
        d->versioned = 0;
        d->mt = m;
        d->t = &m->dl_tensor;
        return 0;
    }
    if (!PyCapsule_CheckExact(cap)) {
        PyErr_Format(PyExc_TypeError,
                     "__dlpack__() returned %.100s, not a DLPack capsule",
                     Py_TYPE(cap)->tp_name);
        return -1;
    }
    const char *name = PyCapsule_GetName(cap);
    if (name != NULL &&
        (strcmp(name, USED_NAME_V) == 0 || strcmp(name, USED_NAME_L) == 0)) {
        PyErr_SetString(PyExc_BufferError,
                        "DLPack capsule was already consumed (a capsule can be "
                        "imported only once)");
    }
    else {
        PyErr_Format(PyExc_TypeError, "not a DLPack capsule (name %s)",
                     name ? name : "NULL");
    }
    return -1;
}

/* Element strides -> bytes. A corrupt capsule is refused, not reinterpreted:
 * CuPy up to at least 14.2 computes a negative stride as (2**64 + bytes) /
 * itemsize in unsigned arithmetic (cupy/cupy#10172), which lands here for
 * every item wider than a byte. */
static int
tensor_strides(dl_import *d)
{
    for (int i = 0; i < d->ndim; i++) {
        if (__builtin_mul_overflow((Py_ssize_t)d->t->strides[i],
                                   (Py_ssize_t)d->itemsize, &d->strides[i])) {
            PyErr_Format(PyExc_BufferError,
                         "DLPack tensor strides overflow: stride %lld (elements) "
                         "of dimension %d times the item size %d does not fit "
                         "in 64 bits; the producer's capsule is corrupt (CuPy "
                         "exports negative strides this way, cupy/cupy#10172: "
                         "use cuarray.asarray(), which reads "
                         "__cuda_array_interface__)",
                         (long long)d->t->strides[i], i, d->itemsize);
            return -1;
        }
    }
    return 0;
}

/* ndim, shape, dtype and strides (none: C order), checked. */
static int
tensor_layout(dl_import *d)
{
    const DLTensor *t = d->t;

    d->ndim = t->ndim;
    if (d->ndim < 0 || d->ndim > CA_MAX_DIMS) {
        PyErr_Format(PyExc_BufferError,
                     "DLPack tensor has %d dimensions; cuarray supports 0 to %d",
                     d->ndim, CA_MAX_DIMS);
        return -1;
    }
    if (d->ndim > 0 && t->shape == NULL) {
        PyErr_SetString(PyExc_BufferError, "DLPack tensor has no shape");
        return -1;
    }
    if ((d->dtype = dtype_from_dl(t->dtype)) < 0) {
        return -1;
    }
    d->itemsize = ca_dtype_size[d->dtype];
    for (int i = 0; i < d->ndim; i++) {
        if (t->shape[i] < 0) {
            PyErr_SetString(PyExc_BufferError, "DLPack tensor has a negative extent");
            return -1;
        }
        d->shape[i] = (Py_ssize_t)t->shape[i];
    }
    if ((d->size = shape_size(d->ndim, d->shape, d->itemsize)) < 0) {
        return -1;
    }
    if (t->strides == NULL) {
        c_strides(d->ndim, d->shape, d->itemsize, d->strides);
        return 0;
    }
    return tensor_strides(d);
}

/* The data pointer (data + byte_offset) and the bytes the tensor covers. */
static int
tensor_extent(dl_import *d)
{
    const DLTensor *t = d->t;

    if (t->byte_offset > (uint64_t)(UINTPTR_MAX - (uintptr_t)t->data)) {
        PyErr_SetString(PyExc_BufferError, "DLPack tensor byte_offset overflows");
        return -1;
    }
    d->ptr = (uintptr_t)t->data + (uintptr_t)t->byte_offset;
    d->lo = d->hi = 0;
    if (d->size == 0) {
        return 0;
    }
    return check_foreign_extent(
        d->ptr, d->ndim, d->shape, d->strides, d->itemsize, PyExc_BufferError,
        "DLPack tensor has a NULL data pointer",
        "DLPack tensor extends outside the address space", &d->lo, &d->hi);
}

/* Where the tensor lands (d->dev, d->kind) for from_dlpack's `device` and
 * `copy` (see import_capsule); BufferError for a device cuarray cannot use, or
 * for copy=False when the data is not on the requested device. */
static int
tensor_placement(dl_import *d, int device, int copy)
{
    switch (d->t->device.device_type) {
    case kDLCPU:
        d->dev = CA_CPU;
        d->kind = CA_MEM_HOST;
        break;
    case kDLCUDA:
        d->dev = d->t->device.device_id;
        d->kind = CA_MEM_DEVICE;
        if (d->dev < 0 || d->dev >= ca_device_count()) {
            PyErr_Format(PyExc_BufferError,
                         "DLPack tensor is on CUDA device %d, which this process "
                         "cannot use (%d CUDA devices)",
                         d->dev, ca_device_count());
            return -1;
        }
        break;
    case kDLCUDAManaged:
    case kDLCUDAHost:
        if (device == CA_CPU || (device < 0 && ca_current_device() == CA_CPU)) {
            /* Host-accessible: the CPU reads it in place. */
            d->dev = CA_CPU;
            d->kind = CA_MEM_HOST;
        }
        else {
            d->dev = any_gpu(device);
            d->kind = d->t->device.device_type == kDLCUDAManaged ? CA_MEM_MANAGED
                                                                 : CA_MEM_PINNED;
        }
        break;
    default:
        PyErr_Format(PyExc_BufferError,
                     "DLPack tensor is on device type %d, which cuarray cannot use "
                     "(CPU 1, CUDA 2, CUDAHost 3, CUDAManaged 13)",
                     (int)d->t->device.device_type);
        return -1;
    }
    if (copy == 0 && device != CA_DEVICE_AUTO && device != d->dev) {
        PyErr_Format(PyExc_BufferError,
                     "from_dlpack: copy=False but the data is on %s, not on the "
                     "requested device",
                     d->dev == CA_CPU ? "the CPU" : "another GPU");
        return -1;
    }
    return 0;
}

/* Consume the capsule: from here on the tensor is ours, and the returned owner
 * calls its deleter. */
static PyObject *
consume_capsule(PyObject *cap, const dl_import *d)
{
    PyObject *owner =
        PyCapsule_New(d->mt, d->versioned ? OWNER_NAME_V : OWNER_NAME_L, owner_dtor);
    if (owner == NULL) {
        return NULL;
    }
    if (PyCapsule_SetName(cap, d->versioned ? USED_NAME_V : USED_NAME_L) < 0) {
        /* Cannot happen for a valid capsule; do not let `owner` free it too. */
        (void)PyCapsule_SetDestructor(owner, NULL);
        Py_DECREF(owner);
        return NULL;
    }
    return owner;
}

/* The array over the consumed tensor, where it lands. Host reads of
 * GPU-written memory first wait for the stream the producer ordered its work
 * before (`stream_dev`'s current stream). */
static CaArray *
wrap_tensor(const dl_import *d, PyObject *owner, int stream_dev)
{
    char *dptr = (char *)d->ptr, *host = NULL;

    if (d->dev == CA_CPU && d->t->device.device_type != kDLCPU && stream_dev >= 0 &&
        d->size > 0 &&
        stream_sync_host(stream_dev, ca_current_stream(stream_dev)) < 0) {
        return NULL;
    }
    if (d->kind == CA_MEM_MANAGED || (d->kind == CA_MEM_HOST && d->dev == CA_CPU)) {
        host = (char *)d->ptr;
    }
    else if (d->kind == CA_MEM_PINNED) {
        void *mapped = NULL;
        host = (char *)d->ptr;
        if (d->size > 0) {
            if (ca_use_device(d->dev) < 0 ||
                ca_launch_status(ca_rt_host_device_pointer(&mapped, host),
                                 "cudaHostGetDevicePointer(&d, host, 0)") < 0) {
                return NULL;
            }
            dptr = (char *)mapped;
        }
    }
    return wrap_foreign(dptr, host, d->lo, d->hi, d->size, d->dtype, d->ndim, d->shape,
                        d->strides, d->dev, d->kind, owner, d->readonly);
}

/* What from_dlpack returns for `arr`, the wrapped tensor: a copy when asked
 * for or when needed to reach the requested device, else arr itself. */
static CaArray *
import_result(CaArray *arr, const dl_import *d, int device, int copy)
{
    PyObject *tmp = NULL;
    CaArray *res = NULL;

    if (device == CA_DEVICE_AUTO || device == d->dev) {
        return copy == 1 ? ca_array_copy(arr, d->dtype, 'K')
                         : (CaArray *)Py_NewRef(arr);
    }
    if (d->dev == CA_CPU) {
        /* host data -> a GPU */
        tmp = numpy_view((char *)d->ptr, d->dtype, d->ndim, d->shape, d->strides,
                         (PyObject *)arr);
        if (tmp != NULL) {
            res = ca_array_from_numpy((PyArrayObject *)tmp, d->dtype, device,
                                      CA_MEM_DEVICE);
        }
    }
    else {
        /* GPU data -> the CPU, or another GPU through the host */
        tmp = ca_array_to_numpy(arr);
        if (tmp != NULL) {
            res = device == CA_CPU ? wrap_numpy_host((PyArrayObject *)tmp, d->dtype, 0)
                                   : ca_array_from_numpy((PyArrayObject *)tmp, d->dtype,
                                                         device, CA_MEM_DEVICE);
        }
    }
    Py_XDECREF(tmp);
    return res;
}

/* Import a DLPack capsule. `device`: CA_DEVICE_AUTO = where the data is, CA_CPU
 * or a GPU ordinal; `copy`: -1 None, 0 False, 1 True; `stream_dev` >= 0: the GPU whose
 * current stream the producer synchronized with (needed for host reads). */
static CaArray *
import_capsule(PyObject *cap, int device, int copy, int stream_dev)
{
    PyObject *owner = NULL;
    CaArray *arr = NULL, *res = NULL;
    dl_import d;

    /* Everything is checked before the capsule is consumed. */
    if (capsule_tensor(cap, &d) < 0 || tensor_layout(&d) < 0 || tensor_extent(&d) < 0 ||
        tensor_placement(&d, device, copy) < 0) {
        return NULL;
    }
    owner = consume_capsule(cap, &d);
    if (owner == NULL) {
        return NULL;
    }
    arr = wrap_tensor(&d, owner, stream_dev);
    if (arr != NULL) {
        res = import_result(arr, &d, device, copy);
    }
    Py_XDECREF(arr);
    Py_DECREF(owner);
    return res;
}

/* ---- PyTorch tensors: the export without torch's Python method -------------
 *
 * torch.Tensor.__dlpack__ is Python (torch/_tensor.py): with a consumer stream it
 * builds torch.cuda stream and event objects for the handshake, most of the
 * 14.5 us an import of a tensor took on the H200. For an exact torch.Tensor this
 * does the same in C: it leaves everything torch's method refuses to that
 * method (requires_grad, conjugate or negative bits, non-strided layouts, tensors
 * off CUDA: the generic path then raises torch's own error or handles them),
 * makes our current stream wait for the tensor's device's current torch stream
 * (an event, as torch's method does), and calls torch._C's exporter directly.
 * torch's names are looked up once, from an already imported torch (a tensor
 * cannot exist otherwise); if any is missing the fast path turns itself off. */
static struct {
    int state; /* 0: not looked up yet, 1: ready, -1: off */
    PyObject *tensor_type, *export, *raw_stream, *strided;
    PyObject *s_requires_grad, *s_is_conj, *s_is_neg, *s_layout, *s_is_cuda,
        *s_get_device;
} torch_fast;

/* Resolve torch's objects (state 1), or turn the fast path off (state -1). */
static void
torch_lookup(void)
{
    PyObject *name = NULL, *torch = NULL, *C = NULL;

    torch_fast.state = -1;
    if ((name = PyUnicode_InternFromString("torch")) == NULL) {
        goto done;
    }
    torch = PyImport_GetModule(name); /* NULL without an error: not imported */
    if (torch == NULL) {
        torch_fast.state = 0; /* some other "Tensor": look again next time */
        goto done;
    }
    if ((C = PyObject_GetAttrString(torch, "_C")) == NULL ||
        (torch_fast.tensor_type = PyObject_GetAttrString(torch, "Tensor")) == NULL ||
        (torch_fast.strided = PyObject_GetAttrString(torch, "strided")) == NULL ||
        (torch_fast.raw_stream =
             PyObject_GetAttrString(C, "_cuda_getCurrentRawStream")) == NULL ||
        !PyType_Check(torch_fast.tensor_type)) {
        goto done;
    }
    /* the versioned capsule (torch 2.6 on), else the legacy one */
    torch_fast.export = PyObject_GetAttrString(C, "_to_dlpack_versioned");
    if (torch_fast.export == NULL) {
        PyErr_Clear();
        if ((torch_fast.export = PyObject_GetAttrString(C, "_to_dlpack")) == NULL) {
            goto done;
        }
    }
    if (!(torch_fast.s_requires_grad = PyUnicode_InternFromString("requires_grad")) ||
        !(torch_fast.s_is_conj = PyUnicode_InternFromString("is_conj")) ||
        !(torch_fast.s_is_neg = PyUnicode_InternFromString("is_neg")) ||
        !(torch_fast.s_layout = PyUnicode_InternFromString("layout")) ||
        !(torch_fast.s_is_cuda = PyUnicode_InternFromString("is_cuda")) ||
        !(torch_fast.s_get_device = PyUnicode_InternFromString("get_device"))) {
        goto done;
    }
    torch_fast.state = 1;
done:
    PyErr_Clear(); /* the fast path is an optimisation: never an error */
    Py_XDECREF(C);
    Py_XDECREF(torch);
    Py_XDECREF(name);
}

/* 1 when `obj`'s attribute (or, `call`, method result) `name` is true, 0 when
 * false, -1 (exception cleared) when it cannot be read. */
static int
torch_flag(PyObject *obj, PyObject *name, int call)
{
    PyObject *v =
        call ? PyObject_CallMethodNoArgs(obj, name) : PyObject_GetAttr(obj, name);
    int r = v == NULL ? -1 : PyObject_IsTrue(v);
    Py_XDECREF(v);
    if (r < 0) {
        PyErr_Clear();
    }
    return r;
}

/* The tensor's CUDA device when the fast path applies to it, else -1. */
static int
torch_cuda_device(PyObject *t)
{
    if (torch_flag(t, torch_fast.s_requires_grad, 0) != 0 ||
        torch_flag(t, torch_fast.s_is_conj, 1) != 0 ||
        torch_flag(t, torch_fast.s_is_neg, 1) != 0 ||
        torch_flag(t, torch_fast.s_is_cuda, 0) != 1) {
        return -1;
    }
    PyObject *layout = PyObject_GetAttr(t, torch_fast.s_layout);
    PyObject *dev = layout == NULL || layout != torch_fast.strided
                        ? NULL
                        : PyObject_CallMethodNoArgs(t, torch_fast.s_get_device);
    long id = dev != NULL ? PyLong_AsLong(dev) : -1;
    Py_XDECREF(layout);
    Py_XDECREF(dev);
    PyErr_Clear();
    return id >= 0 && id < ca_device_count() ? (int)id : -1;
}

/* torch's export of CUDA tensor `t` on `dev`, ordered before our current
 * stream: 1 with *cap set, 0 when the generic path must do it, -1 on error. */
static int
torch_export(PyObject *t, PyObject **cap, int *stream_dev)
{
    int dev = torch_cuda_device(t);
    if (dev < 0) {
        return 0;
    }
    PyObject *o = PyLong_FromLong(dev), *raw = NULL;
    if (o != NULL) {
        raw = PyObject_CallOneArg(torch_fast.raw_stream, o);
        Py_DECREF(o);
    }
    uintptr_t producer = raw != NULL ? (uintptr_t)PyLong_AsUnsignedLongLong(raw) : 0;
    Py_XDECREF(raw);
    if (raw == NULL || PyErr_Occurred()) {
        PyErr_Clear();
        torch_fast.state = -1;
        return 0;
    }
    /* torch's stream 0 is the legacy default stream, the protocols' 1 */
    if (ca_use_device(dev) < 0 || stream_wait(producer == 0 ? 1 : producer,
                                              stream_id(ca_current_stream(dev))) < 0) {
        return -1;
    }
    *cap = PyObject_CallOneArg(torch_fast.export, t);
    if (*cap == NULL) {
        /* torch refused: its own method raises the error it means (a TypeError
         * here says the exporter's signature changed: stop using it) */
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            torch_fast.state = -1;
        }
        PyErr_Clear();
        return 0;
    }
    *stream_dev = dev;
    return 1;
}

/* from_dlpack of a writeable, aligned NumPy array of one of our dtypes (its
 * descriptor one of ours), strides in whole elements, onto the cpu device
 * without a copy: the zero-copy view the protocol would give, made without the
 * capsule (NumPy's export allocates the tensor and our import unpacks it, most
 * of the call). 0: not such a call (nothing set), the protocol decides. */
static int
numpy_direct(PyArrayObject *arr, int device, int copy, CaArray **res)
{
    if (copy == 1 || (device != CA_DEVICE_AUTO && device != CA_CPU) ||
        !PyArray_ISWRITEABLE(arr) || !PyArray_ISALIGNED(arr)) {
        return 0;
    }
    const int dtype = ca_own_dtype(PyArray_DESCR(arr));
    if (dtype < 0) {
        return 0;
    }
    for (int k = 0; k < PyArray_NDIM(arr); k++) {
        if (PyArray_STRIDES(arr)[k] % ca_dtype_size[dtype] != 0) {
            return 0;
        }
    }
    *res = wrap_numpy_host(arr, dtype, 0);
    return 1;
}

CaArray *
ca_from_dlpack_obj(PyObject *obj, int device, int copy, int *found)
{
    PyObject *meth = NULL, *devt = NULL, *cap = NULL, *stream = NULL;
    CaArray *res = NULL;
    long type = 0, id = 0;
    int stream_dev = -1;

    *found = 0;
    if (PyCapsule_CheckExact(obj)) {
        /* A bare capsule (the pre-array-API way): no stream handshake. */
        *found = 1;
        return import_capsule(obj, device, copy, -1);
    }
    if (PyArray_CheckExact(obj) &&
        numpy_direct((PyArrayObject *)obj, device, copy, &res)) {
        *found = 1;
        return res;
    }
    if (PyArray_CheckExact(obj)) {
        /* A NumPy array is on the CPU (its __dlpack_device__ is always
         * (kDLCPU, 0)): its own __dlpack__, called without the bound method
         * and the device query (most of a host import's few hundred ns). */
        PyObject *args[2] = { obj, max_version_obj };
        *found = 1;
        cap = PyObject_VectorcallMethod(ca_st->str_dlpack, args, 1, kw_maxver);
        if (cap == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear(); /* a NumPy without max_version= */
            cap = PyObject_VectorcallMethod(ca_st->str_dlpack, args, 1, NULL);
        }
        res = cap != NULL ? import_capsule(cap, device, copy, -1) : NULL;
        Py_XDECREF(cap);
        return res;
    }
    if (torch_fast.state == 0 && strcmp(Py_TYPE(obj)->tp_name, "Tensor") == 0) {
        torch_lookup();
    }
    if (torch_fast.state == 1 &&
        Py_IS_TYPE(obj, (PyTypeObject *)torch_fast.tensor_type)) {
        int r = torch_export(obj, &cap, &stream_dev);
        if (r != 0) {
            *found = 1;
            res = r > 0 ? import_capsule(cap, device, copy, stream_dev) : NULL;
            Py_XDECREF(cap);
            return res;
        }
    }
    meth = protocol_attr(obj, ca_st->str_dlpack, found);
    if (meth == NULL) {
        return NULL;
    }
    devt = PyObject_CallMethodNoArgs(obj, ca_st->str_dlpack_device);
    if (devt == NULL) {
        goto error;
    }
    if (parse_int_pair(devt, &type, &id, "__dlpack_device__()") < 0) {
        goto error;
    }
    /* Our current stream, for producers on a CUDA device type. */
    if (type == kDLCUDA) {
        if (id < 0 || id >= ca_device_count()) {
            PyErr_Format(PyExc_BufferError,
                         "DLPack producer is on CUDA device %ld, which this process "
                         "cannot use",
                         id);
            goto error;
        }
        stream_dev = (int)id;
    }
    else if ((type == kDLCUDAManaged || type == kDLCUDAHost) && ca_device_count() > 0) {
        stream_dev = any_gpu(device);
    }
    if (stream_dev >= 0) {
        stream = PyLong_FromSize_t((size_t)stream_id(ca_current_stream(stream_dev)));
        if (stream == NULL) {
            goto error;
        }
    }
    cap = call_dlpack(meth, stream);
    if (cap == NULL) {
        goto error;
    }
    res = import_capsule(cap, device, copy, stream_dev);
error:
    Py_XDECREF(meth);
    Py_XDECREF(devt);
    Py_XDECREF(stream);
    Py_XDECREF(cap);
    return res;
}

/* ======================================================================== */
/* Module functions                                                          */
/* ======================================================================== */

static PyObject *
interop_from_dlpack(PyObject *mod, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    static const char *const names[] = { "x", "device", "copy", NULL };
    PyObject *v[3];
    int device = CA_DEVICE_AUTO, copy = -1, found;
    CaArray *res;
    if (nargs < 1) {
        PyErr_SetString(PyExc_TypeError,
                        "from_dlpack() missing required positional argument 'x'");
        return NULL;
    }
    if (ca_parse_args("from_dlpack", args, nargs, kwnames, names, 1, 1, v) < 0) {
        return NULL;
    }
    if (v[1] != NULL && v[1] != Py_None &&
        (device = ca_device_from_object(v[1])) == CA_DEVICE_ERROR) {
        return NULL;
    }
    if ((copy = ca_copy_from_object(v[2], -1)) == -1 && PyErr_Occurred()) {
        return NULL;
    }
    res = ca_from_dlpack_obj(v[0], device, copy, &found);
    if (res == NULL && !found) {
        PyErr_Format(PyExc_TypeError,
                     "from_dlpack: %.100s object is not a DLPack producer (it has no "
                     "__dlpack__ method)",
                     Py_TYPE(v[0])->tp_name);
    }
    return (PyObject *)res;
}

/* The torch fast path's state (tests): 0 not looked up, 1 in use, -1 off. */
static PyObject *
interop_torch_dlpack_state(PyObject *mod, PyObject *unused)
{
    return PyLong_FromLong(torch_fast.state);
}

static PyObject *
interop_from_cai(PyObject *mod, PyObject *obj)
{
    int found;
    CaArray *res = ca_from_cai(obj, &found);
    if (res == NULL && !found) {
        PyErr_Format(PyExc_TypeError, "%.100s object has no __cuda_array_interface__",
                     Py_TYPE(obj)->tp_name);
    }
    return (PyObject *)res;
}

static PyObject *
interop_cai_sync(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    int old = cai_sync;
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "_cai_sync(flag=None)");
        return NULL;
    }
    if (nargs == 1 && args[0] != Py_None) {
        int v = PyObject_IsTrue(args[0]);
        if (v < 0) {
            return NULL;
        }
        cai_sync = v;
    }
    return PyBool_FromLong(old);
}

static PyMethodDef interop_functions[] = {
    { "from_dlpack", CA_FASTKW(interop_from_dlpack),
      "from_dlpack(x, /, *, device=None, copy=None)\n--\n\n"
      "An array sharing the memory of a DLPack producer `x`.\n\n"
      "Calls ``x.__dlpack__(stream=<current stream>, max_version=(1, 0))`` (the\n"
      "legacy signature for older producers) so the producer's pending work is\n"
      "ordered before ours without a host synchronize. Device memory gives a\n"
      "device array, managed and pinned memory managed and pinned arrays, CPU\n"
      "memory a host array on the cpu device. A read-only tensor gives a\n"
      "non-writeable array.\n\n"
      "Parameters\n----------\n"
      "device : device, optional\n    Where the result lives; data elsewhere is copied "
      "(default: where\n    the data is).\n"
      "copy : bool, optional\n    True always copies; False never does (BufferError "
      "when a copy\n    would be needed); None copies only to change device." },
    { "_torch_dlpack_state", (PyCFunction)interop_torch_dlpack_state, METH_NOARGS,
      "_torch_dlpack_state()\n--\n\nfrom_dlpack's PyTorch fast path: 0 not looked up, "
      "1 in use,\n-1 off (testing hook)." },
    { "_from_cai", (PyCFunction)interop_from_cai, METH_O,
      "_from_cai(obj)\n--\n\nImport through __cuda_array_interface__ (testing hook)." },
    { "_cai_sync", (PyCFunction)(void (*)(void))interop_cai_sync, METH_FASTCALL,
      "_cai_sync(flag=None)\n--\n\n"
      "Get (and set) whether a CAI import waits on the producer's stream\n"
      "(CUARRAY_CUDA_ARRAY_INTERFACE_SYNC=0 turns it off). Returns the old value." },
    { NULL, NULL, 0, NULL },
};

static PyObject *
intern(const char *s)
{
    return PyUnicode_InternFromString(s);
}

int
ca_interop_init(PyObject *m)
{
    static const char *const typestr[CA_NTYPES] = {
        "|b1", "|i1", "|u1", "<i2", "<u2",  "<i4", "<u4", "<i8", "<u8",
        "<f2", "<f4", "<f8", "<c8", "<c16", "<V2", "|V1", "|f1", /* NumPy's for ml_dtypes' (bfloat16 as PyTorch's) */
    };
    const char *env = getenv("CUARRAY_CUDA_ARRAY_INTERFACE_SYNC");
    PyObject *empty = NULL;

    cai_sync = !(env != NULL && strcmp(env, "0") == 0);
    if (!(k_shape = intern("shape")) || !(k_typestr = intern("typestr")) ||
        !(k_descr = intern("descr")) || !(k_data = intern("data")) ||
        !(k_strides = intern("strides")) || !(k_version = intern("version")) ||
        !(k_stream = intern("stream")) || !(k_mask = intern("mask")) ||
        !(k_max_version = intern("max_version")) ||
        !(k_dl_device = intern("dl_device")) || !(k_copy = intern("copy"))) {
        return -1;
    }
    kw_stream_maxver = PyTuple_Pack(2, k_stream, k_max_version);
    kw_stream = PyTuple_Pack(1, k_stream);
    kw_maxver = PyTuple_Pack(1, k_max_version);
    max_version_obj = Py_BuildValue("(ii)", CA_DLPACK_MAJOR_VERSION, 0);
    cai_version_obj = PyLong_FromLong(3);
    if (!kw_stream_maxver || !kw_stream || !kw_maxver || !max_version_obj ||
        !cai_version_obj) {
        return -1;
    }
    if ((empty = intern("")) == NULL) {
        return -1;
    }
    for (int i = 0; i < CA_NTYPES; i++) {
        char buf[8];
        strcpy(buf, typestr[i]);
        if (buf[0] == '<') {
            buf[0] = CA_ORDER_CHAR;
        }
        typestr_obj[i] = intern(buf);
        if (typestr_obj[i] == NULL) {
            goto error;
        }
        descr_item[i] = PyTuple_Pack(2, empty, typestr_obj[i]);
        if (descr_item[i] == NULL) {
            goto error;
        }
    }
    Py_DECREF(empty);
    return PyModule_AddFunctions(m, interop_functions);
error:
    Py_XDECREF(empty);
    return -1;
}

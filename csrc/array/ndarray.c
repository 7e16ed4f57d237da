/*
 * ndarray.c: the cuarray.ndarray type: metadata, views, attributes, iteration,
 * the buffer protocol and NumPy's __array__.
 *
 * An array is a variable-size object (ob_size = ndim) whose tail holds shape
 * then strides. It references the CaMemory that owns its buffer (NULL when it
 * has no elements) and, for views, the array it views. Other files add methods
 * and slots through the tables declared in cuarray.h; ca_ndarray_init merges
 * them into the type's spec: reading elements back (readback.c), printing and
 * pickling (format.c), copies and transfers (transfer.c), operators, ...
 *
 * This file is the array core: it calls only runtime/ (device.c, errors.c,
 * launch.c), memory/ and array/'s dtype.c, shape.c and args.c, never the files
 * built on it (tests/test_layers.py). What they attach to an array (a deferred kernel, a
 * readback mirror) is released through ca_hook (module.c).
 */
#include "cuarray.h"

#include <string.h>

#include "structmember.h"

#include "datetime_hook.h"
#include "launch.h"

/* The iterator type (file-local: only ndarray.c creates iterators). */
static PyTypeObject *ca_iter_type = NULL;

/* ======================================================================== */
/* Allocation and construction                                               */
/* ======================================================================== */

/* A new, uninitialised array object with room for ndim dimensions. The
 * allocation is done here rather than through tp_alloc: arrays are not
 * garbage-collected (they reference only Memory objects and bases, which
 * cannot point back), and skipping the GC header and zeroing keeps creation
 * cheap. */
static CaArray *
array_alloc(int ndim)
{
    size_t n = offsetof(CaArray, dims) + 2 * (size_t)ndim * sizeof(Py_ssize_t);
    CaArray *a = (CaArray *)PyObject_Malloc(n < sizeof(CaArray) ? sizeof(CaArray) : n);
    if (a == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    PyObject_InitVar((PyVarObject *)a, ca_st->ndarray_type, ndim);
    a->data = NULL;
    a->mem = NULL;
    a->base = NULL;
    a->weakreflist = NULL;
    a->pending = NULL;
    a->rb_slot = -1;
    a->flags = 0;
    return a;
}

static void
Ndarray_dealloc(CaArray *a)
{
    PyTypeObject *tp = ca_dealloc_start((PyObject *)a, a->weakreflist);
    if (a->pending != NULL) {
        /* a deferred kernel of a (fusion.c): launch it, or drop it if fused */
        ca_hook.pending_dealloc(a);
    }
    if (a->rb_slot >= 0) {
        ca_hook.mirror_drop(a->rb_slot);
    }
    Py_XDECREF(a->mem);
    Py_XDECREF(a->base);
    /* PyObject_Free for ndarray's own (array_alloc); a subclass's instance came
     * from its tp_alloc (GC header, __dict__) and goes back through its tp_free */
    tp->tp_free(a);
    Py_DECREF(tp);
}

void
ca_array_update_flags(CaArray *a)
{
    a->flags &= ~(CA_C_CONTIGUOUS | CA_F_CONTIGUOUS);
    a->flags |= ca_layout_flags(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), a->itemsize);
}

/* Validate a shape and return the element count, or -1 with ValueError. */
Py_ssize_t
ca_shape_size(int ndim, const Py_ssize_t *shape, int itemsize)
{
    if (ndim < 0 || ndim > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays may have at most %d dimensions, got %d",
                     CA_MAX_DIMS, ndim);
        return -1;
    }
    int zero = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError, "negative dimensions are not allowed");
            return -1;
        }
        zero |= shape[i] == 0;
    }
    /* As NumPy: the product of the nonzero extents times the itemsize must fit,
     * even when another extent is 0 (np.empty((0, 2**62, 4)) is "too big"). */
    Py_ssize_t size = 1;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            continue;
        }
        if (size > PY_SSIZE_T_MAX / shape[i]) {
            goto too_big;
        }
        size *= shape[i];
    }
    if (size > PY_SSIZE_T_MAX / itemsize) {
        goto too_big;
    }
    return zero ? 0 : size;
too_big:
    PyErr_SetString(PyExc_ValueError,
                    "array is too big; `arr.size * arr.dtype.itemsize` is larger than "
                    "the maximum possible size.");
    return -1;
}

/* C (or F) order strides for shape; all zero when the array has no elements,
 * as NumPy 2 does. */
static void
fill_strides(int ndim, const Py_ssize_t *shape, Py_ssize_t *strides, int itemsize,
             int fortran, Py_ssize_t size)
{
    if (size == 0) {
        for (int i = 0; i < ndim; i++) {
            strides[i] = 0;
        }
        return;
    }
    ca_contiguous_strides(ndim, shape, itemsize, fortran, strides);
}

/* A new array object of a checked dtype and shape, with no memory yet: dtype,
 * itemsize, size and shape set, the rest left to the caller (`who`, named in
 * the SystemError of a bad dtype). Inline: it is the start of every creation. */
static inline CaArray *
array_new_shaped(const char *who, int dtype, int ndim, const Py_ssize_t *shape)
{
    if (dtype < 0 || dtype >= CA_NTYPES) {
        PyErr_Format(PyExc_SystemError, "%s: bad dtype", who);
        return NULL;
    }
    int itemsize = ca_dtype_size[dtype];
    Py_ssize_t size = ca_shape_size(ndim, shape, itemsize);
    if (size < 0) {
        return NULL;
    }
    CaArray *a = array_alloc(ndim);
    if (a == NULL) {
        return NULL;
    }
    a->dtype = dtype;
    a->itemsize = itemsize;
    a->size = size;
    if (ndim > 0) { /* memcpy from NULL is UB even for 0 bytes */
        memcpy(CA_SHAPE(a), shape, (size_t)ndim * sizeof(Py_ssize_t));
    }
    return a;
}

CaArray *
ca_array_empty(int dtype, int ndim, const Py_ssize_t *shape, int fortran, int device,
               ca_memkind kind)
{
    CaArray *a = array_new_shaped("ca_array_empty", dtype, ndim, shape);
    if (a == NULL) {
        return NULL;
    }
    int itemsize = a->itemsize;
    Py_ssize_t size = a->size;
    a->device = device;
    a->kind = kind;
    a->flags = CA_OWNDATA | CA_WRITEABLE;
    fill_strides(ndim, shape, CA_STRIDES(a), itemsize, fortran, size);
    if (size == 0) {
        a->flags |= CA_C_CONTIGUOUS | CA_F_CONTIGUOUS;
        return a;
    }
    if (ndim <= 1) {
        a->flags |= CA_C_CONTIGUOUS | CA_F_CONTIGUOUS;
    }
    else {
        a->flags |= fortran ? CA_F_CONTIGUOUS : CA_C_CONTIGUOUS;
        ca_array_update_flags(a); /* (n, 1) shapes are both */
    }
    a->mem = ca_memory_alloc(device, kind, (size_t)size * (size_t)itemsize,
                             ca_current_stream(device));
    if (a->mem == NULL) {
        Py_DECREF(a);
        return NULL;
    }
    a->data = a->mem->ptr;
    return a;
}

CaArray *
ca_array_view(CaArray *base, int dtype, int ndim, const Py_ssize_t *shape,
              const Py_ssize_t *strides, char *data)
{
    if (ndim < 0 || ndim > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays may have at most %d dimensions, got %d",
                     CA_MAX_DIMS, ndim);
        return NULL;
    }
    CaArray *a = array_alloc(ndim);
    if (a == NULL) {
        return NULL;
    }
    Py_ssize_t size = 1;
    for (int i = 0; i < ndim; i++) {
        size *= shape[i];
    }
    a->data = data;
    a->dtype = dtype;
    a->itemsize = ca_dtype_size[dtype];
    a->device = base->device;
    a->kind = base->kind;
    a->size = size;
    a->flags = base->flags & (CA_WRITEABLE | CA_NEVER_WRITEABLE);
    if (ndim > 0) { /* memcpy from NULL is UB even for 0 bytes */
        memcpy(CA_SHAPE(a), shape, (size_t)ndim * sizeof(Py_ssize_t));
        memcpy(CA_STRIDES(a), strides, (size_t)ndim * sizeof(Py_ssize_t));
    }
    ca_array_update_flags(a);
    /* As NumPy: a view's base is the array that owns the memory, not a chain
     * of views. */
    PyObject *root = (PyObject *)base;
    if (!(base->flags & CA_OWNDATA) && base->base != NULL) {
        root = base->base;
    }
    Py_INCREF(root);
    a->base = root;
    Py_XINCREF(base->mem);
    a->mem = base->mem;
    if (!Py_IS_TYPE(base, ca_st->ndarray_type)) {
        return ca_array_as_type(a, Py_TYPE(base), (PyObject *)base);
    }
    return a;
}

/* ======================================================================== */
/* Subclasses                                                                */
/* ======================================================================== */

/* type.__array_finalize__(parent) on a new instance; ndarray's own (a no-op
 * set from Python) may be absent while the package is still importing. */
static int
array_finalize(CaArray *a, PyObject *parent)
{
    PyObject *name = PyUnicode_InternFromString("__array_finalize__");
    if (name == NULL) {
        return -1;
    }
    PyObject *f = PyObject_GetAttr((PyObject *)a, name);
    Py_DECREF(name);
    if (f == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return -1;
        }
        PyErr_Clear();
        return 0;
    }
    PyObject *r = PyObject_CallOneArg(f, parent != NULL ? parent : Py_None);
    Py_DECREF(f);
    Py_XDECREF(r);
    return r == NULL ? -1 : 0;
}

CaArray *
ca_array_as_type(CaArray *src, PyTypeObject *type, PyObject *parent)
{
    if (Py_IS_TYPE(src, type)) {
        return src;
    }
    if (src->pending != NULL) {
        /* a deferred kernel's output is referenced by its program (fusion.c) */
        Py_DECREF(src);
        PyErr_SetString(PyExc_SystemError, "ca_array_as_type: a pending array");
        return NULL;
    }
    int nd = CA_NDIM(src);
    /* tp_alloc: for ndarray itself PyType_GenericAlloc over PyObject_Malloc,
     * which its tp_free (PyObject_Free) matches, as array_alloc's memory does */
    CaArray *a = (CaArray *)type->tp_alloc(type, nd);
    if (a == NULL) {
        Py_DECREF(src);
        return NULL;
    }
    a->data = src->data;
    a->dtype = src->dtype;
    a->itemsize = src->itemsize;
    a->flags = src->flags;
    a->device = src->device;
    a->kind = src->kind;
    a->size = src->size;
    a->mem = (CaMemory *)Py_XNewRef(src->mem);
    a->base = Py_XNewRef(src->base);
    a->weakreflist = NULL;
    a->pending = NULL;
    a->rb_slot = -1;
    if (nd > 0) {
        memcpy(a->dims, src->dims, 2 * (size_t)nd * sizeof(Py_ssize_t));
    }
    Py_DECREF(src);
    if (type != ca_st->ndarray_type && array_finalize(a, parent) < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return a;
}

CaArray *
ca_array_from_memory(CaMemory *mem, char *data, int dtype, int ndim,
                     const Py_ssize_t *shape, const Py_ssize_t *strides, PyObject *base)
{
    CaArray *a = array_new_shaped("ca_array_from_memory", dtype, ndim, shape);
    if (a == NULL) {
        return NULL;
    }
    if (mem == NULL && a->size != 0) {
        Py_DECREF(a);
        PyErr_SetString(PyExc_SystemError, "ca_array_from_memory: no memory");
        return NULL;
    }
    a->data = data;
    if (mem != NULL) {
        a->device = mem->device;
        a->kind = mem->kind;
    }
    else {
        a->device = ca_current_device();
        a->kind = a->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    }
    a->flags = CA_WRITEABLE | (base == NULL ? CA_OWNDATA : 0);
    if (strides != NULL && ndim > 0) {
        memcpy(CA_STRIDES(a), strides, (size_t)ndim * sizeof(Py_ssize_t));
    }
    else {
        fill_strides(ndim, shape, CA_STRIDES(a), a->itemsize, 0, a->size);
    }
    ca_array_update_flags(a);
    Py_XINCREF(mem);
    a->mem = mem;
    Py_XINCREF(base);
    a->base = base;
    return a;
}

void
ca_strided_set_operand(ca_strided *s, int op, CaArray *a)
{
    Py_ssize_t strides[CA_MAX_DIMS];
    ca_broadcast_strides(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), s->ndim, NULL,
                         strides);
    for (int i = 0; i < s->ndim; i++) {
        s->strides[op][i] = strides[i];
    }
    s->data[op] = a->data;
    if (s->nops < op + 1) {
        s->nops = op + 1;
    }
}

/* ======================================================================== */
/* Host access helpers                                                       */
/* ======================================================================== */

char *
ca_array_host_data(CaArray *a)
{
    static char empty_buffer[16];
    if (a->mem == NULL) {
        return a->size == 0 ? empty_buffer : NULL;
    }
    if (a->mem->host_ptr == NULL) {
        return NULL;
    }
    return a->mem->host_ptr + (a->data - a->mem->ptr);
}

/* Wait until the array's device has finished the work queued on its current
 * stream, so that the host may read or write host-accessible memory. */
static int
array_wait_host(CaArray *a)
{
    if (a->device == CA_CPU) {
        return 0; /* host kernels are synchronous */
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    return ca_run_stream_sync(ca_current_stream(a->device));
}

PyObject *
ca_array_numpy_view(CaArray *a)
{
    char *p = ca_array_host_data(a);
    if (p == NULL) {
        PyErr_SetString(PyExc_TypeError, "array memory is not host-accessible");
        return NULL;
    }
    if (array_wait_host(a) < 0) {
        return NULL;
    }
    PyArray_Descr *d = ca_descr(a->dtype);
    Py_INCREF(d);
    int flags = (a->flags & CA_WRITEABLE) ? NPY_ARRAY_WRITEABLE : 0;
    PyObject *v = PyArray_NewFromDescr(&PyArray_Type, d, CA_NDIM(a), CA_SHAPE(a),
                                       CA_STRIDES(a), p, flags, NULL);
    if (v == NULL) {
        return NULL;
    }
    Py_INCREF(a);
    if (PyArray_SetBaseObject((PyArrayObject *)v, (PyObject *)a) < 0) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

PyObject *
ca_cpu_numpy_view(CaArray *x)
{
    PyArray_Descr *d = ca_descr(x->dtype);
    Py_INCREF(d);
    int flags = (x->flags & CA_WRITEABLE) ? NPY_ARRAY_WRITEABLE : 0;
    PyObject *v = PyArray_NewFromDescr(&PyArray_Type, d, CA_NDIM(x), CA_SHAPE(x),
                                       x->size ? CA_STRIDES(x) : NULL,
                                       x->size ? x->data : NULL, flags, NULL);
    if (v != NULL && x->size) {
        Py_INCREF(x);
        if (PyArray_SetBaseObject((PyArrayObject *)v, (PyObject *)x) < 0) {
            Py_DECREF(v);
            return NULL;
        }
    }
    return v;
}

/* ======================================================================== */
/* Attributes                                                                */
/* ======================================================================== */

CA_GETTER(get_shape, CaArray, ca_shape_tuple(CA_NDIM(self), CA_SHAPE(self)))
CA_GETTER(get_strides, CaArray, ca_shape_tuple(CA_NDIM(self), CA_STRIDES(self)))
CA_GETTER(get_ndim, CaArray, PyLong_FromLong(CA_NDIM(self)))
CA_GETTER(get_size, CaArray, PyLong_FromSsize_t(self->size))
CA_GETTER(get_itemsize, CaArray, PyLong_FromLong(self->itemsize))
CA_GETTER(get_nbytes, CaArray, PyLong_FromSsize_t(self->size * self->itemsize))
CA_GETTER(get_dtype, CaArray, Py_NewRef((PyObject *)ca_descr(self->dtype)))
CA_GETTER(get_device, CaArray, ca_device_object(self->device))
CA_GETTER(get_memory, CaArray, PyUnicode_FromString(ca_memkind_name[self->kind]))
CA_GETTER(get_base, CaArray, Py_NewRef(self->base ? self->base : Py_None))

/* ---- flags: a snapshot object, as NumPy's flagsobj but read-only ---------- */

typedef struct {
    PyObject_HEAD int flags;
} CaFlags;

static PyObject *
get_flags(CaArray *a, void *c)
{
    CaFlags *f = PyObject_New(CaFlags, ca_st->flags_type);
    if (f == NULL) {
        return NULL;
    }
    f->flags =
        a->flags & (CA_C_CONTIGUOUS | CA_F_CONTIGUOUS | CA_OWNDATA | CA_WRITEABLE);
    return (PyObject *)f;
}

static void
Flags_dealloc(CaFlags *f)
{
    PyTypeObject *tp = Py_TYPE(f);
    PyObject_Free(f);
    Py_DECREF(tp);
}

static PyObject *
Flags_get(CaFlags *f, void *bit)
{
    int b = (int)(intptr_t)bit;
    if (b == 0) { /* aligned: every cuarray buffer is aligned */
        Py_RETURN_TRUE;
    }
    return PyBool_FromLong((f->flags & b) != 0);
}

static PyObject *
Flags_getitem(CaFlags *f, PyObject *key)
{
    static const struct {
        const char *name;
        int bit;
    } names[] = {
        { "C_CONTIGUOUS", CA_C_CONTIGUOUS },
        { "C", CA_C_CONTIGUOUS },
        { "CONTIGUOUS", CA_C_CONTIGUOUS },
        { "F_CONTIGUOUS", CA_F_CONTIGUOUS },
        { "F", CA_F_CONTIGUOUS },
        { "FORTRAN", CA_F_CONTIGUOUS },
        { "OWNDATA", CA_OWNDATA },
        { "O", CA_OWNDATA },
        { "WRITEABLE", CA_WRITEABLE },
        { "W", CA_WRITEABLE },
        { "ALIGNED", 0 },
        { "A", 0 },
    };
    if (PyUnicode_Check(key)) {
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
            if (PyUnicode_CompareWithASCIIString(key, names[i].name) == 0) {
                return Flags_get(f, (void *)(intptr_t)names[i].bit);
            }
        }
    }
    PyErr_Format(PyExc_KeyError, "%R", key);
    return NULL;
}

static PyObject *
Flags_repr(CaFlags *f)
{
    return PyUnicode_FromFormat(
        "  C_CONTIGUOUS : %s\n  F_CONTIGUOUS : %s\n  OWNDATA : %s\n"
        "  WRITEABLE : %s\n  ALIGNED : True\n",
        (f->flags & CA_C_CONTIGUOUS) ? "True" : "False",
        (f->flags & CA_F_CONTIGUOUS) ? "True" : "False",
        (f->flags & CA_OWNDATA) ? "True" : "False",
        (f->flags & CA_WRITEABLE) ? "True" : "False");
}

static PyObject *
Flags_richcompare(CaFlags *a, PyObject *b, int op)
{
    if (!PyObject_TypeCheck(b, ca_st->flags_type) || (op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    int eq = a->flags == ((CaFlags *)b)->flags;
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyGetSetDef flags_getset[] = {
    { "c_contiguous", (getter)Flags_get, NULL, NULL,
      (void *)(intptr_t)CA_C_CONTIGUOUS },
    { "f_contiguous", (getter)Flags_get, NULL, NULL,
      (void *)(intptr_t)CA_F_CONTIGUOUS },
    { "contiguous", (getter)Flags_get, NULL, NULL, (void *)(intptr_t)CA_C_CONTIGUOUS },
    { "fortran", (getter)Flags_get, NULL, NULL, (void *)(intptr_t)CA_F_CONTIGUOUS },
    { "owndata", (getter)Flags_get, NULL, NULL, (void *)(intptr_t)CA_OWNDATA },
    { "writeable", (getter)Flags_get, NULL, NULL, (void *)(intptr_t)CA_WRITEABLE },
    { "aligned", (getter)Flags_get, NULL, NULL, (void *)(intptr_t)0 },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyType_Slot flags_slots[] = {
    { Py_tp_dealloc, Flags_dealloc },
    { Py_tp_getset, flags_getset },
    { Py_tp_repr, Flags_repr },
    { Py_mp_subscript, Flags_getitem },
    { Py_tp_richcompare, Flags_richcompare },
    { Py_tp_doc, "The flags of an array (a snapshot): c_contiguous, f_contiguous, "
                 "owndata, writeable; also readable as flags['C_CONTIGUOUS']." },
    { 0, NULL },
};

CA_TYPE_SPEC(flags_spec, "cuarray.flagsobj", CaFlags,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, flags_slots);

/* ---- data: a MemoryPointer (memptr.c), as CuPy's ---------------------------- */

CA_GETTER(get_data, CaArray, ca_memptr_new(self->mem, self->data, self->device))

/* ---- T, mT ------------------------------------------------------------------ */

static PyObject *
get_T(CaArray *a, void *c)
{
    int nd = CA_NDIM(a);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        shape[i] = CA_SHAPE(a)[nd - 1 - i];
        strides[i] = CA_STRIDES(a)[nd - 1 - i];
    }
    return (PyObject *)ca_array_view(a, a->dtype, nd, shape, strides, a->data);
}

static PyObject *
get_mT(CaArray *a, void *c)
{
    int nd = CA_NDIM(a);
    if (nd < 2) {
        PyErr_Format(PyExc_ValueError,
                     "matrix transpose with ndim < 2 is undefined (ndim is %d)", nd);
        return NULL;
    }
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    memcpy(shape, CA_SHAPE(a), (size_t)nd * sizeof(Py_ssize_t));
    memcpy(strides, CA_STRIDES(a), (size_t)nd * sizeof(Py_ssize_t));
    shape[nd - 1] = CA_SHAPE(a)[nd - 2];
    shape[nd - 2] = CA_SHAPE(a)[nd - 1];
    strides[nd - 1] = CA_STRIDES(a)[nd - 2];
    strides[nd - 2] = CA_STRIDES(a)[nd - 1];
    return (PyObject *)ca_array_view(a, a->dtype, nd, shape, strides, a->data);
}

static PyGetSetDef ndarray_getset[] = {
    { "shape", (getter)get_shape, NULL, "Tuple of array dimensions.", NULL },
    { "strides", (getter)get_strides, NULL,
      "Tuple of bytes to step in each dimension (as NumPy).", NULL },
    { "ndim", (getter)get_ndim, NULL, "Number of dimensions.", NULL },
    { "size", (getter)get_size, NULL, "Number of elements.", NULL },
    { "itemsize", (getter)get_itemsize, NULL, "Bytes per element.", NULL },
    { "nbytes", (getter)get_nbytes, NULL, "Bytes of all elements.", NULL },
    { "dtype", (getter)get_dtype, NULL, "The numpy.dtype of the elements.", NULL },
    { "device", (getter)get_device, NULL, "The Device the array lives on.", NULL },
    { "memory", (getter)get_memory, NULL,
      "The memory kind: 'device', 'managed', 'pinned' or 'host'.", NULL },
    { "flags", (getter)get_flags, NULL, "Memory layout flags (a snapshot).", NULL },
    { "base", (getter)get_base, NULL, "The array this one views, or None.", NULL },
    { "data", (getter)get_data, NULL, "Pointer to the first element (.ptr).", NULL },
    { "T", (getter)get_T, NULL, "The transposed array (a view).", NULL },
    { "mT", (getter)get_mT, NULL, "Transpose of the last two axes (a view).", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

/* ======================================================================== */
/* len, iteration                                                            */
/* ======================================================================== */

static Py_ssize_t
Ndarray_length(CaArray *a)
{
    if (CA_NDIM(a) == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of unsized object");
        return -1;
    }
    return CA_SHAPE(a)[0];
}

/* The sub-array a[i] (a view), for iteration. */
static PyObject *
array_subarray(CaArray *a, Py_ssize_t i)
{
    int nd = CA_NDIM(a);
    return (PyObject *)ca_array_view(a, a->dtype, nd - 1, CA_SHAPE(a) + 1,
                                     CA_STRIDES(a) + 1, a->data + i * CA_STRIDES(a)[0]);
}

typedef struct {
    PyObject_HEAD CaArray *array;
    Py_ssize_t index;
} CaIter;

static PyObject *
Ndarray_iter(CaArray *a)
{
    if (CA_NDIM(a) == 0) {
        PyErr_SetString(PyExc_TypeError, "iteration over a 0-d array");
        return NULL;
    }
    CaIter *it = PyObject_New(CaIter, ca_iter_type);
    if (it == NULL) {
        return NULL;
    }
    Py_INCREF(a);
    it->array = a;
    it->index = 0;
    return (PyObject *)it;
}

static void
Iter_dealloc(CaIter *it)
{
    PyTypeObject *tp = Py_TYPE(it);
    Py_XDECREF(it->array);
    PyObject_Free(it);
    Py_DECREF(tp);
}

static PyObject *
Iter_next(CaIter *it)
{
    if (it->array == NULL) {
        return NULL;
    }
    if (it->index >= CA_SHAPE(it->array)[0]) {
        Py_CLEAR(it->array);
        return NULL;
    }
    return array_subarray(it->array, it->index++);
}

static PyObject *
Iter_length_hint(CaIter *it, PyObject *unused)
{
    Py_ssize_t n = it->array ? CA_SHAPE(it->array)[0] - it->index : 0;
    return PyLong_FromSsize_t(n);
}

static PyMethodDef iter_methods[] = {
    { "__length_hint__", (PyCFunction)Iter_length_hint, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};

static PyType_Slot iter_slots[] = {
    { Py_tp_dealloc, Iter_dealloc },
    { Py_tp_iter, PyObject_SelfIter },
    { Py_tp_iternext, Iter_next },
    { Py_tp_methods, iter_methods },
    { 0, NULL },
};

CA_TYPE_SPEC(iter_spec, "cuarray.ndarray_iterator", CaIter,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, iter_slots);

/* ======================================================================== */
/* setflags                                                                   */
/* ======================================================================== */

/* Whether the writeable flag may be set: not for arrays that are read-only by
 * nature (CA_NEVER_WRITEABLE), nor for a view of a read-only array or of a
 * read-only NumPy array, as NumPy refuses. */
static int
may_write(CaArray *a)
{
    PyObject *b = a->base;
    if (a->flags & CA_NEVER_WRITEABLE) {
        return 0;
    }
    if (b == NULL) {
        return 1;
    }
    if (ca_array_check(b)) {
        return (((CaArray *)b)->flags & (CA_WRITEABLE | CA_NEVER_WRITEABLE)) ==
               CA_WRITEABLE;
    }
    return PyArray_Check(b) && PyArray_ISWRITEABLE((PyArrayObject *)b);
}

static PyObject *
Ndarray_setflags(CaArray *a, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "write", "align", "uic", NULL };
    PyObject *write = Py_None, *align = Py_None, *uic = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OOO:setflags", kwlist, &write,
                                     &align, &uic)) {
        return NULL;
    }
    int w = write == Py_None ? -1 : PyObject_IsTrue(write);
    int al = align == Py_None ? -1 : PyObject_IsTrue(align);
    int u = uic == Py_None ? -1 : PyObject_IsTrue(uic);
    if ((write != Py_None && w < 0) || (align != Py_None && al < 0) ||
        (uic != Py_None && u < 0)) {
        return NULL;
    }
    if (u == 1) {
        PyErr_SetString(PyExc_ValueError, "cannot set WRITEBACKIFCOPY flag to True");
        return NULL;
    }
    if (al == 0) {
        /* every cuarray buffer is aligned, and the flag says so */
        PyErr_SetString(PyExc_ValueError,
                        "cuarray arrays are always aligned: the ALIGNED flag cannot "
                        "be cleared");
        return NULL;
    }
    if (w == 1 && !(a->flags & CA_WRITEABLE)) {
        if (!may_write(a)) {
            PyErr_SetString(PyExc_ValueError,
                            "cannot set WRITEABLE flag to True of this array");
            return NULL;
        }
        a->flags |= CA_WRITEABLE;
    }
    else if (w == 0) {
        a->flags &= ~CA_WRITEABLE;
    }
    Py_RETURN_NONE;
}

/* ======================================================================== */
/* Array API                                                                  */
/* ======================================================================== */

static PyObject *
Ndarray_array_namespace(CaArray *a, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "api_version", NULL };
    PyObject *version = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:__array_namespace__", kwlist,
                                     &version)) {
        return NULL;
    }
    if (version != Py_None) {
        if (!PyUnicode_Check(version)) {
            PyErr_SetString(PyExc_ValueError, "api_version must be None or a string");
            return NULL;
        }
        static const char *const known[] = { "2021.12", "2022.12", "2023.12",
                                             "2024.12" };
        int ok = 0;
        for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++) {
            ok |= PyUnicode_CompareWithASCIIString(version, known[i]) == 0;
        }
        if (!ok) {
            PyErr_Format(PyExc_ValueError, "unsupported Array API version %R", version);
            return NULL;
        }
    }
    return PyImport_ImportModule("cuarray");
}

/* ======================================================================== */
/* NumPy: buffer protocol and __array__                                      */
/* ======================================================================== */

static const char *
buffer_format(int dtype)
{
    static const char *const fmt[CA_NTYPES] = {
        "?",
        "b",
        "B",
        "h",
        "H",
        "i",
        "I",
#if NPY_SIZEOF_LONG == 8
        "l",
        "L",
#else
        "q",
        "Q",
#endif
        "e",
        "f",
        "d",
        "Zf",
        "Zd",
    };
    return dtype < CA_NNUMPY_TYPES ? fmt[dtype] : NULL;
}

static int
Ndarray_getbuffer(CaArray *a, Py_buffer *view, int flags)
{
    view->obj = NULL;
    if (a->dtype >= CA_NNUMPY_TYPES || ca_dt_is((PyObject *)a)) {
        /* PEP 3118 has no code for them or datetime64 (NumPy refuses too);
         * np.asarray takes __array__ instead, zero-copy. */
        PyErr_Format(PyExc_BufferError, "cannot include dtype %s in a buffer",
                     ca_dt_is((PyObject *)a) ? "datetime64/timedelta64"
                                             : ca_dtype_name[a->dtype]);
        return -1;
    }
    char *p = ca_array_host_data(a);
    if (p == NULL) {
        PyErr_SetString(PyExc_BufferError,
                        "cuarray array in device memory: the buffer protocol needs "
                        "host-accessible memory. Copy it to NumPy with .get() (or "
                        "cuarray.asnumpy), or create it with memory='managed' or "
                        "memory='pinned'");
        return -1;
    }
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE && !(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_BufferError, "array is not writeable");
        return -1;
    }
    if ((flags & PyBUF_C_CONTIGUOUS) == PyBUF_C_CONTIGUOUS &&
        !(a->flags & CA_C_CONTIGUOUS)) {
        PyErr_SetString(PyExc_BufferError, "array is not C-contiguous");
        return -1;
    }
    if ((flags & PyBUF_F_CONTIGUOUS) == PyBUF_F_CONTIGUOUS &&
        !(a->flags & CA_F_CONTIGUOUS)) {
        PyErr_SetString(PyExc_BufferError, "array is not Fortran-contiguous");
        return -1;
    }
    if ((flags & PyBUF_ANY_CONTIGUOUS) == PyBUF_ANY_CONTIGUOUS &&
        !(a->flags & (CA_C_CONTIGUOUS | CA_F_CONTIGUOUS))) {
        PyErr_SetString(PyExc_BufferError, "array is not contiguous");
        return -1;
    }
    if ((flags & PyBUF_STRIDES) != PyBUF_STRIDES && !(a->flags & CA_C_CONTIGUOUS)) {
        PyErr_SetString(PyExc_BufferError, "array is not C-contiguous");
        return -1;
    }
    /* Kernels may still be writing managed or pinned memory. */
    if (array_wait_host(a) < 0) {
        return -1;
    }
    view->buf = p;
    view->len = a->size * a->itemsize;
    view->itemsize = a->itemsize;
    view->readonly = !(a->flags & CA_WRITEABLE);
    view->ndim = CA_NDIM(a);
    view->format = (flags & PyBUF_FORMAT) ? (char *)buffer_format(a->dtype) : NULL;
    view->shape = (flags & PyBUF_ND) ? CA_SHAPE(a) : NULL;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? CA_STRIDES(a) : NULL;
    view->suboffsets = NULL;
    view->internal = NULL;
    if (a->mem != NULL) {
        a->mem->exports++;
    }
    Py_INCREF(a);
    view->obj = (PyObject *)a;
    return 0;
}

static void
Ndarray_releasebuffer(CaArray *a, Py_buffer *view)
{
    if (a->mem != NULL) {
        a->mem->exports--;
    }
}

static PyObject *
Ndarray_array(CaArray *a, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "dtype", "copy", NULL };
    PyObject *dtype = Py_None, *copy = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:__array__", kwlist, &dtype,
                                     &copy)) {
        return NULL;
    }
    if (ca_array_host_data(a) == NULL) {
        PyErr_SetString(PyExc_TypeError,
                        "Implicit conversion of a cuarray array in device memory to a "
                        "NumPy array is not allowed: use .get() (or cuarray.asnumpy) "
                        "to copy it to the host explicitly");
        return NULL;
    }
    PyObject *v = ca_array_numpy_view(a);
    if (v == NULL) {
        return NULL;
    }
    int want_copy = copy != Py_None && PyObject_IsTrue(copy);
    PyArray_Descr *d = NULL;
    if (dtype != Py_None) {
        if (PyArray_DescrConverter(dtype, &d) == NPY_FAIL) {
            Py_DECREF(v);
            return NULL;
        }
        if (PyArray_EquivTypes(d, PyArray_DESCR((PyArrayObject *)v))) {
            Py_CLEAR(d);
        }
    }
    if (d != NULL) {
        if (copy == Py_False) {
            Py_DECREF(d);
            Py_DECREF(v);
            PyErr_SetString(
                PyExc_ValueError,
                "Unable to avoid copy while creating an array as requested.");
            return NULL;
        }
        Py_SETREF(v, PyArray_CastToType((PyArrayObject *)v, d, 0));
    }
    else if (want_copy) {
        Py_SETREF(v, PyArray_NewCopy((PyArrayObject *)v, NPY_KEEPORDER));
    }
    return v;
}

/* ======================================================================== */
/* Construction from Python: ndarray(shape, dtype=float, ...) = empty        */
/* ======================================================================== */

/* The extent check of ndarray(..., memptr=, strides=): every element within
 * the `avail` bytes from data. */
static int
memptr_extent_ok(int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
                 int itemsize, Py_ssize_t before, Py_ssize_t avail)
{
    Py_ssize_t lo = 0, hi = 0;
    for (int i = 0; i < ndim; i++) {
        if (shape[i] == 0) {
            return 1;
        }
        Py_ssize_t span = (shape[i] - 1) * strides[i];
        if (span < 0) {
            lo += span;
        }
        else {
            hi += span;
        }
    }
    return lo >= -before && hi + itemsize <= avail;
}

/* ndarray(shape, dtype, memptr=m, strides=s): an array over existing memory. */
static PyObject *
array_over_memptr(PyObject *memptr, PyObject *strides_obj, int dtype, int ndim,
                  const Py_ssize_t *shape, int fortran)
{
    Py_ssize_t strides[CA_MAX_DIMS];
    int itemsize = ca_dtype_size[dtype];
    char *data = NULL;
    Py_ssize_t avail = 0, before = 0;
    if (strides_obj != NULL && strides_obj != Py_None) {
        /* negative strides are fine: only the extent check below limits them */
        PyObject *t = PySequence_Tuple(strides_obj);
        if (t == NULL) {
            return NULL;
        }
        int n = (int)PyTuple_GET_SIZE(t);
        for (int i = 0; i < n && i < CA_MAX_DIMS; i++) {
            strides[i] = PyNumber_AsSsize_t(PyTuple_GET_ITEM(t, i), NULL);
        }
        Py_DECREF(t);
        if (PyErr_Occurred()) {
            return NULL;
        }
        if (n != ndim) {
            PyErr_Format(PyExc_ValueError, "strides has %d entries for %d dimensions",
                         n, ndim);
            return NULL;
        }
    }
    else {
        ca_contiguous_strides(ndim, shape, itemsize, fortran, strides);
    }
    CaMemory *mem = ca_memptr_memory(memptr, &data, &before, &avail);
    if (mem == NULL) {
        return NULL;
    }
    if (!memptr_extent_ok(ndim, shape, strides, itemsize, before, avail)) {
        Py_DECREF(mem);
        PyErr_Format(PyExc_ValueError,
                     "ndarray: the shape and strides reach outside the %zd bytes of "
                     "memory from memptr",
                     avail);
        return NULL;
    }
    CaArray *a = ca_array_from_memory(mem, data, dtype, ndim, shape, strides, NULL);
    Py_DECREF(mem);
    return (PyObject *)a;
}

static PyObject *
Ndarray_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    /* CuPy's order (shape, dtype, memptr, strides, order); a string third is
     * the order (cuarray's older form). */
    static char *kwlist[] = { "shape", "dtype",  "memptr", "strides",
                              "order", "device", "memory", NULL };
    PyObject *shape_obj, *memptr = NULL, *strides = NULL;
    PyObject *v[4] = { NULL, NULL, NULL, NULL }; /* dtype, order, device, memory */
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|OOOO$OO:ndarray", kwlist,
                                     &shape_obj, &v[0], &memptr, &strides, &v[1], &v[2],
                                     &v[3])) {
        return NULL;
    }
    if (memptr != NULL && PyUnicode_Check(memptr)) {
        if (v[1] != NULL || strides != NULL) {
            PyErr_SetString(PyExc_TypeError,
                            "ndarray(shape, dtype, memptr, strides, order): the order "
                            "may come third only alone");
            return NULL;
        }
        v[1] = memptr;
        memptr = NULL;
    }
    Py_ssize_t shape[CA_MAX_DIMS];
    int ndim = ca_shape_from_object(shape_obj, shape);
    if (ndim < 0) {
        return NULL;
    }
    int dtype, fortran, device, kind;
    if (ca_new_array_args(v, CA_FLOAT64, &dtype, &fortran, &device, &kind) < 0) {
        return NULL;
    }
    CaArray *a;
    if (memptr != NULL && memptr != Py_None) {
        a = (CaArray *)array_over_memptr(memptr, strides, dtype, ndim, shape, fortran);
    }
    else if (strides != NULL && strides != Py_None) {
        PyErr_SetString(PyExc_ValueError, "ndarray: strides needs memptr");
        return NULL;
    }
    else {
        a = ca_array_empty(dtype, ndim, shape, fortran, device, (ca_memkind)kind);
    }
    if (a == NULL || type == ca_st->ndarray_type) {
        return (PyObject *)a;
    }
    return (PyObject *)ca_array_as_type(a, type, NULL); /* a subclass: finalize(None) */
}

/* ======================================================================== */
/* The type                                                                   */
/* ======================================================================== */

static PyMethodDef ndarray_methods[] = {
    { "__array_namespace__", CA_VARKW(Ndarray_array_namespace),
      "__array_namespace__(*, api_version=None)\n--\n\nThe cuarray module." },
    { "setflags", CA_VARKW(Ndarray_setflags),
      "setflags(write=None, align=None, uic=None)\n--\n\nSet the WRITEABLE flag "
      "(True only where the memory may be written:\nnot for read-only imports, "
      "broadcast views or views of read-only arrays),\nas NumPy's; every array "
      "stays ALIGNED." },
    { "__array__", CA_VARKW(Ndarray_array),
      "__array__(dtype=None, copy=None)\n--\n\nA NumPy view of host-accessible memory; "
      "TypeError for device memory (use .get())." },
    { NULL, NULL, 0, NULL },
};

static PyType_Slot ndarray_own_slots[] = {
    { Py_tp_dealloc, Ndarray_dealloc },
    { Py_tp_iter, Ndarray_iter },
    { Py_tp_new, Ndarray_new },
    { Py_mp_length, Ndarray_length },
    { Py_sq_length, Ndarray_length },
    { Py_bf_getbuffer, Ndarray_getbuffer },
    { Py_bf_releasebuffer, Ndarray_releasebuffer },
    { Py_tp_doc,
      "ndarray(shape, dtype=float, memptr=None, strides=None, order='C', *, "
      "device=None, memory=None)\n--\n\n"
      "An N-dimensional array on a CUDA device or the host (see cuarray.empty).\n"
      "With memptr (a MemoryPointer, or a Memory), the array views that memory\n"
      "with `strides` in bytes (default: C or F order) and keeps it alive." },
    { 0, NULL },
};

/* The rows of a table before its sentinel, whose `field` is zero. */
#define COUNT_ROWS(fn, T, field)                                                       \
    static Py_ssize_t fn(const T *t)                                                   \
    {                                                                                  \
        Py_ssize_t n = 0;                                                              \
        while (t[n].field) {                                                           \
            n++;                                                                       \
        }                                                                              \
        return n;                                                                      \
    }
COUNT_ROWS(count_methods, PyMethodDef, ml_name)
COUNT_ROWS(count_getset, PyGetSetDef, name)
COUNT_ROWS(count_slots, PyType_Slot, slot)

/* Append the slots of `src` whose ids are not in out[0:*n] yet. */
static void
append_slots(PyType_Slot *out, Py_ssize_t *n, const PyType_Slot *src)
{
    for (; src->slot != 0; src++) {
        int dup = 0;
        for (Py_ssize_t i = 0; i < *n; i++) {
            dup |= out[i].slot == src->slot;
        }
        if (!dup) {
            out[(*n)++] = *src;
        }
    }
}

static PyMemberDef ndarray_members[] = {
    { "__weaklistoffset__", T_PYSSIZET, offsetof(CaArray, weakreflist), READONLY,
      NULL },
    { NULL, 0, 0, 0, NULL },
};

int
ca_ndarray_init(PyObject *m)
{
    /* Merged tables live as long as the process (the type points into them). */
    static const PyMethodDef *const method_tables[] = {
        ndarray_methods,
        ca_transfer_array_methods,
        ca_convert_array_methods,
        ca_manip_array_methods,
        ca_elementwise_array_methods,
        ca_ufunc_array_methods,
        ca_reduction_array_methods,
        ca_interop_array_methods,
        ca_linalg_array_methods,
        ca_search_array_methods,
        ca_readback_array_methods,
        ca_format_array_methods,
        ca_sort_array_methods,
    };
    static const PyGetSetDef *const getset_tables[] = {
        ndarray_getset,
        ca_interop_array_getset,
    };
    /* The contributed slots first: where a contributor implements a slot this
     * file also fills, the contributor's wins (and among contributors, the
     * first listed). */
    static const PyType_Slot *const slot_tables[] = {
        ca_elementwise_number_slots, ca_index_slots,  ca_linalg_number_slots,
        ca_readback_number_slots,    ca_format_slots, ndarray_own_slots,
    };
    const size_t nmt = sizeof(method_tables) / sizeof(method_tables[0]);
    const size_t ngt = sizeof(getset_tables) / sizeof(getset_tables[0]);
    const size_t nst = sizeof(slot_tables) / sizeof(slot_tables[0]);
    Py_ssize_t nm = 1, ng = 1, ns = 0;
    for (size_t i = 0; i < nmt; i++) {
        nm += count_methods(method_tables[i]);
    }
    for (size_t i = 0; i < ngt; i++) {
        ng += count_getset(getset_tables[i]);
    }
    PyMethodDef *methods = PyMem_RawCalloc((size_t)nm, sizeof(PyMethodDef));
    PyGetSetDef *getset = PyMem_RawCalloc((size_t)ng, sizeof(PyGetSetDef));
    Py_ssize_t nslots = 4; /* methods, getset, members, the end */
    for (size_t i = 0; i < nst; i++) {
        nslots += count_slots(slot_tables[i]);
    }
    PyType_Slot *slots = PyMem_RawCalloc((size_t)nslots, sizeof(PyType_Slot));
    if (methods == NULL || getset == NULL || slots == NULL) {
        PyMem_RawFree(methods);
        PyMem_RawFree(getset);
        PyMem_RawFree(slots);
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t k = 0;
    for (size_t i = 0; i < nmt; i++) {
        for (const PyMethodDef *d = method_tables[i]; d->ml_name != NULL; d++) {
            methods[k++] = *d;
        }
    }
    k = 0;
    for (size_t i = 0; i < ngt; i++) {
        for (const PyGetSetDef *d = getset_tables[i]; d->name != NULL; d++) {
            getset[k++] = *d;
        }
    }
    for (size_t i = 0; i < nst; i++) {
        append_slots(slots, &ns, slot_tables[i]);
    }
    slots[ns++] = (PyType_Slot){ Py_tp_methods, methods };
    slots[ns++] = (PyType_Slot){ Py_tp_getset, getset };
    slots[ns++] = (PyType_Slot){ Py_tp_members, ndarray_members };
    slots[ns] = (PyType_Slot){ 0, NULL };

    static PyType_Spec spec = {
        .name = "cuarray.ndarray",
        .basicsize = (int)offsetof(CaArray, dims),
        .itemsize = (int)(2 * sizeof(Py_ssize_t)),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    };
    spec.slots = slots;
    ca_st->ndarray_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &spec, NULL);
    if (ca_st->ndarray_type == NULL) {
        return -1;
    }
    ca_st->flags_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &flags_spec, NULL);
    ca_iter_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &iter_spec, NULL);
    if (ca_st->flags_type == NULL || ca_iter_type == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "ndarray", (PyObject *)ca_st->ndarray_type) < 0 ||
        PyModule_AddStringConstant(m, "__array_api_version__", "2024.12") < 0) {
        return -1;
    }
    return 0;
}

/*
 * convert.c: conversion of arbitrary objects to arrays, the one home of
 * ca_asarray (cuarray arrays, sequences holding them, CUDA Array Interface and
 * DLPack producers, NumPy arrays and whatever NumPy reads) and of the array's
 * to_device. creation.c's asarray/array/ascontiguousarray and every other
 * caller convert through here; it sits above transfer.c (host <-> device
 * copies) and interop.c (the protocols' readers), which never call it.
 */
#include "launch.h"
#include "watch.h"

static PyObject *
copy_error(void)
{
    PyErr_SetString(PyExc_ValueError,
                    "Unable to avoid copy while creating an array as requested.");
    return NULL;
}

static int
order_satisfied(int flags, char order)
{
    switch (order) {
    case 'C': return (flags & CA_C_CONTIGUOUS) != 0;
    case 'F': return (flags & CA_F_CONTIGUOUS) != 0;
    case 'A': return (flags & (CA_C_CONTIGUOUS | CA_F_CONTIGUOUS)) != 0;
    }
    return 1;
}


/* asarray of a cuarray array: itself when nothing must change. */
static CaArray *
from_array(CaArray *a, int dtype, int device, int copy, char order, int kind)
{
    int tdt = dtype < 0 ? a->dtype : dtype;
    int tdev = device == CA_DEVICE_AUTO ? a->device : device;
    int tkind = kind >= 0           ? kind
                : tdev == a->device ? (int)a->kind
                : tdev == CA_CPU    ? CA_MEM_HOST
                                    : CA_MEM_DEVICE;
    int need = tdt != a->dtype || tdev != a->device || tkind != (int)a->kind ||
               !order_satisfied(a->flags, order);
    if (!need && copy != 1) {
        Py_INCREF(a);
        return a;
    }
    if (copy == 0) {
        return (CaArray *)copy_error();
    }
    if (tdev == a->device) {
        CaArray *r = ca_array_empty_like(a, tdt, order, tdev, (ca_memkind)tkind);
        if (r != NULL && ca_assign(r, a) < 0) {
            Py_CLEAR(r);
        }
        return r;
    }
    size_t nbytes = (size_t)a->size * (size_t)a->itemsize;
    if ((a->device != CA_CPU &&
         ca_guard(CA_TG_D2H, 0, "a copy across devices", nbytes, a->device) < 0) ||
        (tdev != CA_CPU &&
         ca_guard(CA_TG_H2D, 0, "a copy across devices", nbytes, tdev) < 0)) {
        return NULL;
    }
    /* Across devices: through a NumPy array on the host. A cpu array is read
     * in place; a GPU array is copied to a fresh NumPy array first. */
    PyObject *h;
    int fresh;
    if (a->device == CA_CPU && a->mem != NULL && a->mem->host_ptr != NULL) {
        PyArray_Descr *d = ca_descr(a->dtype);
        Py_INCREF(d);
        h = PyArray_NewFromDescr(&PyArray_Type, d, CA_NDIM(a), CA_SHAPE(a),
                                 CA_STRIDES(a),
                                 a->mem->host_ptr + (a->data - a->mem->ptr), 0, NULL);
        if (h != NULL) {
            Py_INCREF(a);
            if (PyArray_SetBaseObject((PyArrayObject *)h, (PyObject *)a) < 0) {
                Py_CLEAR(h);
            }
        }
        fresh = 0;
    }
    else {
        h = ca_array_to_numpy(a);
        fresh = 1;
    }
    if (h == NULL) {
        return NULL;
    }
    CaArray *r =
        ca_asarray_numpy((PyArrayObject *)h, fresh, tdt, tdev, -1, order, tkind);
    Py_DECREF(h);
    return r;
}

/* Wrap (cpu) or register (GPU) the memory of NumPy array h. `fresh`: h is a
 * private temporary, so the result owns the memory (no visible base). */
static CaArray *
wrap_numpy(PyArrayObject *h, int dtype, int device, int fresh)
{
    PyObject *base = fresh ? NULL : (PyObject *)h;
    int nd = PyArray_NDIM(h);
    npy_intp *shape = PyArray_DIMS(h), *strides = PyArray_STRIDES(h);
    char *data = PyArray_DATA(h);
    /* a NumPy array's layout lies inside its buffer: it cannot overflow */
    Py_ssize_t l = 0, end = PyArray_ITEMSIZE(h);
    (void)ca_layout_extent(nd, shape, strides, PyArray_ITEMSIZE(h), &l, &end);
    char *lo = data + l;
    size_t extent = (size_t)(end - l);
    CaMemory *mem = NULL;
    CaArray *r = NULL;
    int registered = 0;
    if (device == CA_CPU) {
        mem = ca_memory_foreign(lo, lo, extent, CA_CPU, CA_MEM_HOST, (PyObject *)h);
        if (mem == NULL) {
            return NULL;
        }
        r = ca_array_from_memory(mem, data, dtype, nd, shape, strides, base);
    }
    else {
        if (ca_use_device(device) < 0) {
            return NULL;
        }
        ca_pointer_info attr;
        void *dptr = NULL;
        ca_memkind kind = CA_MEM_PINNED;
        if (ca_rt_pointer_info(lo, &attr) != 0) {
            attr.type = CA_PTR_UNREGISTERED; /* older runtimes: not a CUDA pointer */
        }
        if (attr.type == CA_PTR_MANAGED) {
            dptr = lo;
            kind = CA_MEM_MANAGED;
        }
        else if (attr.type == CA_PTR_HOST && attr.device_ptr != NULL) {
            dptr = attr.device_ptr; /* already pinned and mapped */
        }
        else if (attr.type == CA_PTR_UNREGISTERED) {
            unsigned flags = CA_HOST_REGISTER_MAPPED | CA_HOST_REGISTER_PORTABLE;
            if (!PyArray_ISWRITEABLE(h)) {
                flags |= CA_HOST_REGISTER_READ_ONLY;
            }
            int rs;
            Py_BEGIN_ALLOW_THREADS
                rs = ca_rt_host_register(lo, extent, flags);
            Py_END_ALLOW_THREADS
            if (rs != 0) {
                PyErr_Format(
                    PyExc_ValueError,
                    "copy=False: cannot page-lock this NumPy array's memory for "
                    "the GPU (cudaHostRegister: %s); use copy=None to copy it",
                    ca_cuda_status_text(rs));
                return NULL;
            }
            registered = 1;
            int st = ca_rt_host_device_pointer(&dptr, lo);
            if (st != 0) {
                (void)ca_rt_host_unregister(lo);
                return (CaArray *)ca_cuda_error(st, "cudaHostGetDevicePointer");
            }
        }
        else {
            PyErr_SetString(PyExc_ValueError,
                            "copy=False: this memory cannot be mapped for the GPU");
            return NULL;
        }
        mem = ca_memory_foreign(dptr, lo, extent, device, kind, (PyObject *)h);
        if (mem == NULL) {
            if (registered) {
                (void)ca_rt_host_unregister(lo);
            }
            return NULL;
        }
        mem->registered = registered;
        r = ca_array_from_memory(mem, (char *)dptr + (data - lo), dtype, nd, shape,
                                 strides, base);
    }
    Py_DECREF(mem);
    if (r != NULL && !PyArray_ISWRITEABLE(h)) {
        r->flags = (r->flags & ~CA_WRITEABLE) | CA_NEVER_WRITEABLE;
    }
    return r;
}

CaArray *
ca_asarray_numpy(PyArrayObject *h, int fresh, int dtype, int device, int copy,
                 char order, int kind)
{
    int hd = ca_dtype_from_descr(PyArray_DESCR(h));
    if (hd < 0 && dtype < 0 && !PyArray_ISNBO(PyArray_DESCR(h)->byteorder)) {
        /* A byte-swapped NumPy array: its native twin, byte-swapped on the
         * host while copying. */
        PyErr_Clear();
        PyArray_Descr *nd = PyArray_DescrNewByteorder(PyArray_DESCR(h), NPY_NATIVE);
        if (nd == NULL) {
            return NULL;
        }
        dtype = ca_dtype_from_descr(nd);
        Py_DECREF(nd);
    }
    if (hd < 0) {
        if (dtype < 0) {
            return NULL;
        }
        PyErr_Clear(); /* cast on the host below */
    }
    int tdt = dtype < 0 ? hd : dtype;
    int tdev = device == CA_DEVICE_AUTO ? ca_current_device() : device;
    int dflt = tdev == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    int tkind = kind < 0 ? dflt : kind;
    if (PyArray_SIZE(h) == 0) {
        /* Nothing to copy or share. */
        int fortran = PyArray_IS_F_CONTIGUOUS(h) && !PyArray_IS_C_CONTIGUOUS(h);
        fortran = order == 'F' || (order != 'C' && fortran);
        return ca_array_empty(tdt, PyArray_NDIM(h), PyArray_DIMS(h), fortran, tdev,
                              (ca_memkind)tkind);
    }
    int flags = (PyArray_IS_C_CONTIGUOUS(h) ? CA_C_CONTIGUOUS : 0) |
                (PyArray_IS_F_CONTIGUOUS(h) ? CA_F_CONTIGUOUS : 0);
    int wrappable = hd == tdt && PyArray_ISALIGNED(h) && order_satisfied(flags, order);
    if (tdev == CA_CPU) {
        if (wrappable && (copy != 1 || fresh)) {
            return wrap_numpy(h, tdt, CA_CPU, fresh);
        }
        if (copy == 0) {
            return (CaArray *)copy_error();
        }
    }
    else if (copy == 0) {
        if (!wrappable || (kind >= 0 && kind != CA_MEM_PINNED)) {
            return (CaArray *)copy_error();
        }
        return wrap_numpy(h, tdt, tdev, 0);
    }
    /* A copy into fresh memory of (tdev, tkind). */
    PyArrayObject *src = h;
    Py_INCREF(src);
    if (order == 'C' || order == 'F') {
        int want = order == 'C' ? NPY_ARRAY_C_CONTIGUOUS : NPY_ARRAY_F_CONTIGUOUS;
        if (!PyArray_CHKFLAGS(h, want)) {
            Py_SETREF(src, (PyArrayObject *)PyArray_NewCopy(
                               h, order == 'C' ? NPY_CORDER : NPY_FORTRANORDER));
            if (src == NULL) {
                return NULL;
            }
        }
    }
    CaArray *r = ca_array_from_numpy(src, tdt, tdev, (ca_memkind)tkind);
    Py_DECREF(src);
    return r;
}

static int
is_python_literal(PyObject *obj)
{
    return PyFloat_CheckExact(obj) || PyLong_CheckExact(obj) || PyBool_Check(obj) ||
           PyComplex_CheckExact(obj) || PyList_CheckExact(obj) ||
           PyTuple_CheckExact(obj);
}

/* A Python or NumPy scalar: a value, not data to transfer (the guard passes it,
 * as element-wise operators take scalars by value). */
static int
is_host_scalar(PyObject *obj)
{
    return PyFloat_CheckExact(obj) || PyLong_CheckExact(obj) || PyBool_Check(obj) ||
           PyComplex_CheckExact(obj) || PyArray_IsScalar(obj, Generic);
}

/* Another library's device array (CuPy's, PyTorch's CUDA tensors, Numba's): an
 * object with __cuda_array_interface__. Python's and NumPy's own values are
 * passed over without the attribute lookup. */
static int
is_foreign_device_array(PyObject *o)
{
    if (is_python_literal(o) || PyUnicode_Check(o) || PyBytes_Check(o) ||
        o == Py_None || PyArray_Check(o) || PyArray_IsScalar(o, Generic)) {
        return 0;
    }
    return PyObject_HasAttr(o, ca_st->str_cai);
}

/* A list or tuple holding cuarray arrays (or other libraries' device arrays) at
 * some depth ([x, y], [[x], [y]]): NumPy cannot read those (device memory), so
 * they are stacked here. */
static int
seq_holds_arrays(PyObject *obj, int depth)
{
    if (depth > CA_MAX_DIMS || !(PyList_CheckExact(obj) || PyTuple_CheckExact(obj))) {
        return 0;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(obj, i);
        if (ca_array_check(item) || seq_holds_arrays(item, depth + 1) ||
            is_foreign_device_array(item)) {
            return 1;
        }
    }
    return 0;
}

/* np.array([x, y, ...]) for cuarray items (and nested lists of them): each item
 * converted, same shapes, copied into one new array on the items' device. */
static CaArray *
stack_sequence(PyObject *obj, int device)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(obj);
    CaArray **items = PyMem_Calloc((size_t)(n ? n : 1), sizeof(CaArray *));
    CaArray *out = NULL;
    int fill_device = device;
    if (items == NULL) {
        return (CaArray *)PyErr_NoMemory();
    }
    int dt = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* arrays stay where they are (no silent transfer); scalars and plain
         * lists go to the device asked for, else the first item's */
        PyObject *o = PySequence_Fast_GET_ITEM(obj, i);
        int dev =
            ca_array_check(o) || seq_holds_arrays(o, 1) || is_foreign_device_array(o)
                ? device
                : fill_device;
        items[i] = ca_asarray(o, -1, dev, -1, 'K', -1);
        if (items[i] == NULL) {
            goto done;
        }
        CaArray *x = items[i], *f = items[0];
        if (fill_device == CA_DEVICE_AUTO) {
            fill_device = f->device;
        }
        if (x->device != f->device) {
            PyErr_SetString(
                PyExc_ValueError,
                "array: the arrays of the sequence are on different devices");
            goto done;
        }
        if (!ca_same_shape(CA_NDIM(x), CA_SHAPE(x), CA_NDIM(f), CA_SHAPE(f))) {
            PyErr_SetString(PyExc_ValueError,
                            "setting an array element with a sequence: the requested "
                            "array has an inhomogeneous shape");
            goto done;
        }
        /* NumPy's discovery: an empty list or tuple ([], [[], []]) adds no
         * dtype (its float64 is only the default when nothing else has one) */
        if (x->size == 0 && (PyList_CheckExact(o) || PyTuple_CheckExact(o)) &&
            !seq_holds_arrays(o, 1)) {
            continue;
        }
        if ((dt = dt < 0 ? x->dtype : ca_promote(dt, x->dtype)) < 0) {
            goto done;
        }
    }
    if (dt < 0) {
        dt = items[0]->dtype;
    }
    int nd = n ? CA_NDIM(items[0]) + 1 : 1;
    if (nd > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays may have at most %d dimensions",
                     CA_MAX_DIMS);
        goto done;
    }
    Py_ssize_t shape[CA_MAX_DIMS];
    shape[0] = n;
    for (int d = 1; d < nd; d++) {
        shape[d] = CA_SHAPE(items[0])[d - 1];
    }
    out = ca_array_empty(dt, nd, shape, 0, items[0]->device, items[0]->kind);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        CaArray *row = ca_array_restride(out, nd - 1, shape + 1, CA_STRIDES(out) + 1,
                                         out->data + i * CA_STRIDES(out)[0]);
        int rc = row == NULL ? -1 : ca_assign(row, items[i]);
        Py_XDECREF(row);
        if (rc < 0) {
            Py_CLEAR(out);
        }
    }
done:
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_XDECREF(items[i]);
    }
    PyMem_Free(items);
    return out;
}

CaArray *
ca_asarray(PyObject *obj, int dtype, int device, int copy, char order, int kind)
{
    if (ca_array_check(obj)) {
        return from_array((CaArray *)obj, dtype, device, copy, order, kind);
    }
    if (seq_holds_arrays(obj, 0)) {
        if (copy == 0) {
            return (CaArray *)copy_error();
        }
        CaArray *s = stack_sequence(obj, device);
        CaArray *r = s == NULL ? NULL : from_array(s, dtype, device, -1, order, kind);
        Py_XDECREF(s);
        return r;
    }
    if (!PyArray_Check(obj) && !is_python_literal(obj)) {
        int found = 0;
        CaArray *r = ca_from_cai(obj, &found);
        if (found || r != NULL) {
            if (r == NULL) {
                return NULL;
            }
            CaArray *res = from_array(r, dtype, device, copy, order, kind);
            Py_DECREF(r);
            return res;
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
        r = ca_from_dlpack_obj(obj, device, copy, &found);
        if (found || r != NULL) {
            if (r == NULL) {
                return NULL;
            }
            /* from_dlpack honoured device and copy=True already. */
            CaArray *res =
                from_array(r, dtype, device, copy == 1 ? -1 : copy, order, kind);
            Py_DECREF(r);
            return res;
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    PyArrayObject *h;
    int fresh;
    if (PyArray_Check(obj)) {
        h = (PyArrayObject *)obj;
        Py_INCREF(h);
        fresh = 0;
    }
    else {
        /* Python scalars and sequences, buffer-protocol objects, __array__ and
         * __array_interface__ objects: NumPy reads them (zero-copy for buffers). */
        PyArray_Descr *d = NULL;
        if (dtype >= 0) {
            d = ca_descr(dtype);
            Py_INCREF(d);
        }
        h = (PyArrayObject *)PyArray_FromAny(obj, d, 0, 0, 0, NULL);
        if (h == NULL) {
            return NULL;
        }
        fresh = is_python_literal(obj) || PyArray_BASE(h) == NULL;
        if (fresh && copy == 0) {
            Py_DECREF(h);
            return (CaArray *)copy_error();
        }
    }
    if (ca_tguard != 0 && !is_host_scalar(obj) &&
        ca_guard(CA_TG_H2D, 0, "a host operand", (size_t)PyArray_NBYTES(h),
                 device == CA_DEVICE_AUTO ? ca_current_device() : device) < 0) {
        Py_DECREF(h);
        return NULL;
    }
    CaArray *r = ca_asarray_numpy(h, fresh, dtype, device, copy, order, kind);
    Py_DECREF(h);
    return r;
}


/* Array API: the array on another device (a copy), or itself. */
static PyObject *
Ndarray_to_device(CaArray *a, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "device", "stream", NULL };
    PyObject *devobj, *stream = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|$O:to_device", kwlist, &devobj,
                                     &stream)) {
        return NULL;
    }
    int device = ca_device_from_object(devobj);
    if (device == CA_DEVICE_ERROR) {
        return NULL;
    }
    if (stream != Py_None) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "to_device(stream=...) is not supported; use `with stream:`");
        return NULL;
    }
    if (device == a->device) {
        Py_INCREF(a);
        return (PyObject *)a;
    }
    int had = ca_guard_explicit_begin();
    PyObject *r = (PyObject *)ca_asarray((PyObject *)a, -1, device, -1, 'K', -1);
    ca_guard_explicit_end(had);
    return r;
}

PyMethodDef ca_convert_array_methods[] = {
    { "to_device", CA_VARKW(Ndarray_to_device),
      "to_device(device, /, *, stream=None)\n--\n\nThe array on `device` (a copy "
      "unless it is there already)." },
    { NULL, NULL, 0, NULL },
};

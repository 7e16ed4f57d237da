/*
 * format.c: an array as Python text and objects: repr and str (NumPy's
 * printing of a host copy, summarised on the device first when large),
 * tolist() and pickling. The formatting itself is NumPy's, through the
 * Python-level glue in cuarray/_creation.py.
 *
 * Plugged into the ndarray type through ca_format_slots and
 * ca_format_array_methods (ndarray.c merges them).
 */
#include "cuarray.h"
#include "watch.h"

#include <string.h>

/* The Python-level glue (cuarray._creation: NumPy's print options and
 * formatting, the unpickler), imported on first use. */
static PyObject *glue_module = NULL;

static PyObject *
glue(const char *name)
{
    if (glue_module == NULL) {
        glue_module = PyImport_ImportModule("cuarray._creation");
        if (glue_module == NULL) {
            return NULL;
        }
    }
    return PyObject_GetAttrString(glue_module, name);
}

/* A view of `a` restricted to [start, start + len) along axis ax. */
static CaArray *
axis_slice(CaArray *a, int ax, Py_ssize_t start, Py_ssize_t len)
{
    Py_ssize_t shape[CA_MAX_DIMS];
    memcpy(shape, CA_SHAPE(a), (size_t)CA_NDIM(a) * sizeof(Py_ssize_t));
    shape[ax] = len;
    return ca_array_view(a, a->dtype, CA_NDIM(a), shape, CA_STRIDES(a),
                         a->data + start * CA_STRIDES(a)[ax]);
}

/* The part of a device array that NumPy's summarised print shows: along each
 * axis longer than 2*edge, the first edge+1 and the last edge elements (the
 * middle one only makes NumPy summarise that axis; it is never printed). */
static CaArray *
summarize(CaArray *a, Py_ssize_t edge)
{
    CaArray *cur = a, *out = NULL, *src = NULL, *dst = NULL;
    Py_INCREF(cur);
    for (int ax = 0; ax < CA_NDIM(a); ax++) {
        Py_ssize_t n = CA_SHAPE(cur)[ax];
        if (n <= 2 * edge + 1) {
            continue;
        }
        Py_ssize_t shape[CA_MAX_DIMS];
        memcpy(shape, CA_SHAPE(cur), (size_t)CA_NDIM(cur) * sizeof(Py_ssize_t));
        shape[ax] = 2 * edge + 1;
        out =
            ca_array_empty(cur->dtype, CA_NDIM(cur), shape, 0, cur->device, cur->kind);
        if (out == NULL) {
            goto error;
        }
        for (int part = 0; part < 2; part++) {
            Py_ssize_t s0 = part ? n - edge : 0, d0 = part ? edge + 1 : 0;
            Py_ssize_t len = part ? edge : edge + 1;
            src = axis_slice(cur, ax, s0, len);
            dst = src ? axis_slice(out, ax, d0, len) : NULL;
            if (dst == NULL || ca_assign(dst, src) < 0) {
                goto error;
            }
            Py_CLEAR(src);
            Py_CLEAR(dst);
        }
        Py_SETREF(cur, out);
        out = NULL;
    }
    return cur;
error:
    Py_XDECREF(src);
    Py_XDECREF(dst);
    Py_XDECREF(out);
    Py_XDECREF(cur);
    return NULL;
}

/* NumPy's repr (or str) of the array, with the device appended to repr. */
static PyObject *
array_format(CaArray *a, int is_repr, int force_copy)
{
    PyObject *params = NULL, *h = NULL, *fn = NULL, *dev = NULL, *res = NULL;
    CaArray *small = NULL;
    int summarized = 0;
    /* printing is a transfer wherever the array lives (the guard's sites are
     * where a GPU program would transfer) */
    if (ca_guard(CA_TG_D2H, 0, is_repr ? "repr()" : "str()",
                 (size_t)a->size * (size_t)a->itemsize, a->device) < 0) {
        return NULL;
    }
    if (ca_array_host_data(a) != NULL && !force_copy) {
        /* Host-accessible memory: NumPy reads (and summarises) it in place. */
        h = ca_array_numpy_view(a);
    }
    else {
        params = glue("_print_params");
        Py_XSETREF(params, params ? PyObject_CallNoArgs(params) : NULL);
        if (params == NULL) {
            goto error;
        }
        Py_ssize_t threshold = PyLong_AsSsize_t(PyTuple_GET_ITEM(params, 0));
        Py_ssize_t edge = PyLong_AsSsize_t(PyTuple_GET_ITEM(params, 1));
        if (PyErr_Occurred()) {
            goto error;
        }
        if (a->size > threshold) {
            small = summarize(a, edge);
            if (small == NULL) {
                goto error;
            }
            summarized = 1;
            h = ca_array_to_numpy(small);
        }
        else {
            h = ca_array_to_numpy(a);
        }
    }
    if (h == NULL) {
        goto error;
    }
    fn = glue("_format");
    if (fn == NULL) {
        goto error;
    }
    dev = ca_device_str(a->device);
    if (dev == NULL) {
        goto error;
    }
    const char *kind = a->kind == (a->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE)
                           ? NULL
                           : ca_memkind_name[a->kind];
    PyObject *shape = ca_shape_tuple(CA_NDIM(a), CA_SHAPE(a));
    if (shape == NULL) {
        goto error;
    }
    res = PyObject_CallFunction(fn, "OiiOzO", h, is_repr, summarized, dev, kind, shape);
    Py_DECREF(shape);
error:
    Py_XDECREF(params);
    Py_XDECREF(h);
    Py_XDECREF(fn);
    Py_XDECREF(dev);
    Py_XDECREF(small);
    return res;
}

static PyObject *
array_repr(CaArray *a)
{
    return array_format(a, 1, 0);
}

static PyObject *
array_str(CaArray *a)
{
    return array_format(a, 0, 0);
}

/* _core._format_copied(x, is_repr): repr/str through the device-memory path
 * (copy or summarise, then print), whatever x's memory; for the tests. */
static PyObject *
py_format_copied(PyObject *self, PyObject *args)
{
    PyObject *x;
    int is_repr;
    if (!PyArg_ParseTuple(args, "O!p", ca_st->ndarray_type, &x, &is_repr)) {
        return NULL;
    }
    return array_format((CaArray *)x, is_repr, 1);
}

static PyObject *
array_tolist(CaArray *a, PyObject *unused)
{
    if (ca_guard(CA_TG_D2H, 0, "tolist()", (size_t)a->size * (size_t)a->itemsize,
                 a->device) < 0) {
        return NULL;
    }
    PyObject *h = ca_array_to_numpy(a);
    if (h == NULL) {
        return NULL;
    }
    PyObject *r = PyArray_ToList((PyArrayObject *)h);
    Py_DECREF(h);
    return r;
}

static PyObject *
array_reduce(CaArray *a, PyObject *unused)
{
    /* Pickle through NumPy: (cuarray.asarray, (host copy,), device). */
    PyObject *h = NULL, *fn = NULL, *dev = NULL, *res = NULL;
    if (ca_guard(CA_TG_D2H, 0, "pickling", (size_t)a->size * (size_t)a->itemsize,
                 a->device) < 0) {
        return NULL;
    }
    h = ca_array_to_numpy(a);
    fn = h ? glue("_unpickle") : NULL;
    dev = fn ? ca_device_str(a->device) : NULL;
    if (dev != NULL) {
        res = Py_BuildValue("O(OOs)", fn, h, dev, ca_memkind_name[a->kind]);
    }
    Py_XDECREF(h);
    Py_XDECREF(fn);
    Py_XDECREF(dev);
    return res;
}

PyMethodDef ca_format_array_methods[] = {
    { "tolist", (PyCFunction)array_tolist, METH_NOARGS,
      "tolist()\n--\n\nThe array as nested Python lists. Synchronizes." },
    { "__reduce__", (PyCFunction)array_reduce, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};

PyType_Slot ca_format_slots[] = {
    { Py_tp_repr, array_repr },
    { Py_tp_str, array_str },
    { 0, NULL },
};

static PyMethodDef format_functions[] = {
    { "_format_copied", py_format_copied, METH_VARARGS, NULL },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(format, format_functions)

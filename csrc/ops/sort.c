/*
 * sort.c: the sorting and searching primitives: sort, argsort, partition,
 * argpartition, searchsorted, the ndarray methods of the same names, and the
 * counting kernel behind bincount/histogram (_bincount). The compositions
 * (unique, sets, histograms, order statistics) are Python, in
 * cuarray/_sorting.py, _sets.py and _statistics.py.
 *
 * A sort along any axis is one ca_sort call over rows: the axis is moved last
 * (a copy when the array is not already C-ordered that way), every row is
 * sorted by one segmented sort on the GPU, and the result is handed back as a
 * view with the axis in its place again. The GPU needs scratch (keys,
 * positions, CUB's storage), asked for first and taken from the pool on the
 * current stream. Sorts are always stable, so kind= only has to be valid.
 *
 * The cpu device sorts with NumPy on zero-copy views, of the kind the call
 * names (kind=None is NumPy's quicksort, so results are NumPy's own), except
 * for descending order, which NumPy lacks: that, and everything when
 * _sort_host_kernels(True) is set (tests), runs kernels/host/host_sort.c, which
 * orders the same keys as the GPU does (stably).
 *
 * partition and argpartition run NumPy's introselect on the cpu device; a GPU
 * sorts fully (a sorted row is a valid partition for every kth); kth is
 * checked as NumPy checks it.
 */
#include "launch.h"
#include "datetime_hook.h"

#include <string.h>

static int use_host_kernels = 0; /* _sort_host_kernels(): cpu through host_sort.c */

/* ======================================================================== */
/* Helpers                                                                   */
/* ======================================================================== */


/* axis= of a sort: an int, normalized into [0, ndim), or None (*flat = 1). */
static int
parse_axis(PyObject *o, int ndim, int *axis, int *flat)
{
    *flat = 0;
    *axis = 0;
    if (o == Py_None) {
        *flat = 1;
        return 0;
    }
    Py_ssize_t ax = -1;
    if (o != NULL) {
        ax = PyNumber_AsSsize_t(o, PyExc_OverflowError);
        if (ax == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    if (ax < -ndim || ax >= ndim) {
        return ca_axis_error(ax, ndim);
    }
    *axis = (int)(ax < 0 ? ax + ndim : ax);
    return 0;
}

/* cpu-device bits of sort_run's flags (stripped before ca_run_sort): the call
 * asked for NumPy's quicksort or heapsort (kind=None or 'q...'/'h...', or
 * stable=False), which NumPy then runs, so the result is NumPy's own. Without
 * them the cpu device runs NumPy's stable sort; a GPU always sorts stably. */
#define SORT_NP_QUICK (1 << 20)
#define SORT_NP_HEAP  (2 << 20)
#define SORT_NP_MASK  (3 << 20)

/* kind=, stable= and order= as NumPy checks them: -1 on error, else the
 * SORT_NP_* bit the call asks for (0: stable; always 0 for select). */
static int
check_kind(PyObject *kind, PyObject *stable, PyObject *order, int select)
{
    if (order != NULL && order != Py_None) {
        PyErr_SetString(PyExc_ValueError, "Cannot specify order when the array has no "
                                          "fields.");
        return -1;
    }
    if (kind == NULL || kind == Py_None) {
        if (stable != NULL && stable != Py_None) {
            int t = PyObject_IsTrue(stable);
            return t < 0 ? -1 : (t || select ? 0 : SORT_NP_QUICK);
        }
        return select ? 0 : SORT_NP_QUICK;
    }
    if (stable != NULL && stable != Py_None) {
        PyErr_SetString(PyExc_ValueError,
                        "`kind` and keyword parameters can't be provided at the same "
                        "time. Use only one of them.");
        return -1;
    }
    const char *k = PyUnicode_Check(kind) ? PyUnicode_AsUTF8(kind) : NULL;
    if (k == NULL) {
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "kind must be a str, not %.200s",
                     Py_TYPE(kind)->tp_name);
        return -1;
    }
    if (select) {
        if (strcmp(k, "introselect") != 0) {
            PyErr_Format(PyExc_ValueError, "select kind must be 'introselect' (got %R)",
                         kind);
            return -1;
        }
        return 0;
    }
    /* NumPy accepts any prefix-free spelling starting with q, m, h or s. */
    if (k[0] != 'q' && k[0] != 'm' && k[0] != 'h' && k[0] != 's') {
        PyErr_Format(PyExc_ValueError,
                     "sort kind must be one of 'quick', 'heap', or 'stable' (got %R)",
                     kind);
        return -1;
    }
    return k[0] == 'q' ? SORT_NP_QUICK : k[0] == 'h' ? SORT_NP_HEAP : 0;
}

/* descending= (Array API): 0 or CA_SORT_DESCENDING, -1 on error. */
static int
parse_descending(PyObject *o)
{
    if (o == NULL) {
        return 0;
    }
    int t = PyObject_IsTrue(o);
    return t < 0 ? -1 : (t ? CA_SORT_DESCENDING : 0);
}


/* ======================================================================== */
/* The sort of rows                                                          */
/* ======================================================================== */

/* a with `axis` moved last, C-contiguous and aligned: a itself or a copy.
 * `flat`: a.ravel() instead. */
static CaArray *
rows_of(CaArray *a, int axis, int flat)
{
    const int nd = CA_NDIM(a);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    CaArray *v = NULL, *c = NULL;
    int ok = (a->flags & CA_C_CONTIGUOUS) && !ca_array_misaligned(a);
    if (flat) {
        if (ok) {
            Py_ssize_t n = a->size, st = a->itemsize;
            return ca_array_view(a, a->dtype, 1, &n, &st, a->data);
        }
        c = ca_array_copy(a, a->dtype, 'C');
        if (c == NULL) {
            return NULL;
        }
        Py_ssize_t n = a->size, st = a->itemsize;
        v = ca_array_view(c, a->dtype, 1, &n, &st, c->data);
        Py_DECREF(c);
        return v;
    }
    if (ok && axis == nd - 1) {
        Py_INCREF(a);
        return a;
    }
    int j = 0;
    for (int d = 0; d < nd; d++) {
        if (d != axis) {
            shape[j] = CA_SHAPE(a)[d];
            strides[j++] = CA_STRIDES(a)[d];
        }
    }
    shape[nd - 1] = CA_SHAPE(a)[axis];
    strides[nd - 1] = CA_STRIDES(a)[axis];
    v = ca_array_view(a, a->dtype, nd, shape, strides, a->data);
    if (v == NULL) {
        return NULL;
    }
    c = ca_array_copy(v, a->dtype, 'C');
    Py_DECREF(v);
    return c;
}

/* r (rows along its last axis) as an array shaped like the input again, with
 * the last axis back at `axis` (a view; r itself when axis is last). */
static CaArray *
unrows(CaArray *r, int axis)
{
    if (r == NULL || axis == CA_NDIM(r) - 1) {
        return r;
    }
    const int nd = CA_NDIM(r);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    for (int d = 0, j = 0; d < nd; d++) {
        int s = d == axis ? nd - 1 : j++;
        shape[d] = CA_SHAPE(r)[s];
        strides[d] = CA_STRIDES(r)[s];
    }
    CaArray *v = ca_array_view(r, r->dtype, nd, shape, strides, r->data);
    Py_DECREF(r);
    return v;
}

/* Copy r, a NumPy result (NULL: its error is set), into dst; -1 on error. */
static int
numpy_result_into(PyObject *r, CaArray *dst)
{
    PyObject *vo = r != NULL ? ca_cpu_numpy_view(dst) : NULL;
    int rc =
        vo != NULL && PyArray_CopyInto((PyArrayObject *)vo, (PyArrayObject *)r) == 0
            ? 0
            : -1;
    Py_XDECREF(vo);
    return rc;
}

/* NumPy's sort / argsort of the rows of w into vals / idx, of the kind the
 * SORT_NP_* bits of flags name (stable without them); with kth, its partition /
 * argpartition (introselect) at kth as numpy.partition runs it on each row, into
 * vals, else idx. */
static int
numpy_rows(CaArray *w, PyObject *kth, CaArray *vals, CaArray *idx, int flags)
{
    const int np = flags & SORT_NP_MASK;
    const NPY_SORTKIND kind = np == SORT_NP_QUICK  ? NPY_QUICKSORT
                              : np == SORT_NP_HEAP ? NPY_HEAPSORT
                                                   : NPY_STABLESORT;
    PyObject *vw = ca_cpu_numpy_view(w), *vo = NULL, *r = NULL, *k = NULL;
    int rc = -1;
    if (vw == NULL ||
        (kth != NULL &&
         (k = PyArray_FromAny(kth, NULL, 0, 1, NPY_ARRAY_DEFAULT, NULL)) == NULL)) {
        goto finish;
    }
    if (vals != NULL) {
        vo = ca_cpu_numpy_view(vals);
        if (vo == NULL ||
            PyArray_CopyInto((PyArrayObject *)vo, (PyArrayObject *)vw) < 0 ||
            (k != NULL ? PyArray_Partition((PyArrayObject *)vo, (PyArrayObject *)k, -1,
                                           NPY_INTROSELECT)
                       : PyArray_Sort((PyArrayObject *)vo, -1, kind)) < 0) {
            goto finish;
        }
        Py_CLEAR(vo);
    }
    if (idx != NULL && (k == NULL || vals == NULL)) {
        r = k != NULL ? PyArray_ArgPartition((PyArrayObject *)vw, (PyArrayObject *)k,
                                             -1, NPY_INTROSELECT)
                      : PyArray_ArgSort((PyArrayObject *)vw, -1, kind);
        if (numpy_result_into(r, idx) < 0) {
            goto finish;
        }
    }
    rc = 0;
finish:
    Py_XDECREF(vw);
    Py_XDECREF(vo);
    Py_XDECREF(r);
    Py_XDECREF(k);
    return rc;
}

/* ca_sort over the rows of w (C-contiguous, rows along the last axis). */
static int
kernel_rows(CaArray *w, CaArray *vals, CaArray *idx, int flags)
{
    const int dev = w->device;
    const int64_t n = CA_NDIM(w) ? (int64_t)CA_SHAPE(w)[CA_NDIM(w) - 1] : 1;
    const int64_t nseg = n ? (int64_t)w->size / n : 0;
    ca_stream_t st = ca_current_stream(dev);
    void *out = vals ? vals->data : NULL;
    int64_t *ix = idx ? (int64_t *)idx->data : NULL;
    size_t bytes = 0;
    if (ca_run_sort(dev, w->dtype, w->data, nseg, n, out, ix, flags, NULL, &bytes, st) <
        0) {
        return -1;
    }
    CaMemory *tmp = NULL;
    if (bytes > 0) {
        tmp = ca_memory_alloc(dev, ca_index_scratch_kind(dev), bytes, st);
        if (tmp == NULL) {
            return -1;
        }
    }
    int rc = ca_run_sort(dev, w->dtype, w->data, nseg, n, out, ix, flags,
                         tmp ? tmp->ptr : NULL, &bytes, st);
    /* The pool reuses the block on this stream only after the sort (stream order). */
    Py_XDECREF(tmp);
    return rc;
}

/* Sort `a` along `axis` (flat: the flattened array): *vals gets the sorted
 * values, *idx the int64 positions, each only when its pointer is not NULL.
 * Results are shaped like a (1-D when flat). kth (partition's, checked) lets
 * the cpu device partition with NumPy instead; other devices sort fully.
 * 0, or -1 with an exception. */
static int sort_run_keys(CaArray *a, int axis, int flat, int flags, PyObject *kth,
                         CaArray **vals, CaArray **idx);

/* ml_dtypes' types sort as their float32 values (exact and in the same order);
 * sorted values come back to the type exactly (NaNs as the canonical NaN). */
static int
sort_run(CaArray *a, int axis, int flat, int flags, PyObject *kth, CaArray **vals,
         CaArray **idx)
{
    if (!ca_is_ml(a->dtype)) {
        return sort_run_keys(a, axis, flat, flags, kth, vals, idx);
    }
    CaArray *a32 = ca_array_copy(a, CA_FLOAT32, 'K');
    if (a32 == NULL) {
        return -1;
    }
    int rc = sort_run_keys(a32, axis, flat, flags, kth, vals, idx);
    Py_DECREF(a32);
    if (rc == 0 && vals != NULL) {
        CaArray *m = ca_array_copy(*vals, a->dtype, 'K');
        Py_SETREF(*vals, m);
        rc = m == NULL ? -1 : 0;
        if (m == NULL && idx != NULL) {
            Py_CLEAR(*idx);
        }
    }
    return rc;
}

static int
sort_run_keys(CaArray *a, int axis, int flat, int flags, PyObject *kth, CaArray **vals,
              CaArray **idx)
{
    CaArray *w = NULL, *v = NULL, *x = NULL;
    if (vals) {
        *vals = NULL;
    }
    if (idx) {
        *idx = NULL;
    }
    if (ca_use_device(a->device) < 0 || (w = rows_of(a, axis, flat)) == NULL) {
        return -1;
    }
    const int nd = CA_NDIM(w);
    const ca_memkind kind = ca_gather_result_kind(a);
    if (vals &&
        (v = ca_array_empty(a->dtype, nd, CA_SHAPE(w), 0, a->device, kind)) == NULL) {
        goto error;
    }
    if (idx &&
        (x = ca_array_empty(CA_INT64, nd, CA_SHAPE(w), 0, a->device, kind)) == NULL) {
        goto error;
    }
    if (w->size > 0) {
        int np_path =
            w->device == CA_CPU && !use_host_kernels && !(flags & CA_SORT_DESCENDING);
        int rc = np_path ? numpy_rows(w, kth, v, x, flags)
                         : kernel_rows(w, v, x, flags & ~SORT_NP_MASK);
        if (rc < 0) {
            goto error;
        }
    }
    Py_DECREF(w);
    if (!flat) {
        v = unrows(v, axis);
        x = unrows(x, axis);
        if ((vals && v == NULL) || (idx && x == NULL)) {
            Py_XDECREF(v);
            Py_XDECREF(x);
            return -1;
        }
    }
    if (vals) {
        *vals = v;
    }
    if (idx) {
        *idx = x;
    }
    return 0;
error:
    Py_XDECREF(w);
    Py_XDECREF(v);
    Py_XDECREF(x);
    return -1;
}

/* ======================================================================== */
/* sort, argsort, partition, argpartition                                    */
/* ======================================================================== */

/* The positions asked for by argsort (or argpartition) of a 0-d array: NumPy gives
 * [0], treating the array as a 1-d one: the axis is checked against one dimension
 * (axis=1 is an AxisError). */
static PyObject *
argsort_0d(CaArray *a, PyObject *axis)
{
    int ax, flat;
    if (parse_axis(axis, 1, &ax, &flat) < 0) {
        return NULL;
    }
    Py_ssize_t one = 1;
    CaArray *r =
        ca_array_empty(CA_INT64, 1, &one, 0, a->device, ca_gather_result_kind(a));
    int64_t zero = 0;
    if (r == NULL || ca_array_fill(r, &zero) < 0) {
        Py_XDECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

/* Shared by the functions and the methods: want 1 = values, 2 = positions. */
static PyObject *
sort_impl(CaArray *a, PyObject *axis, int flags, int want)
{
    int ax, flat;
    CaArray *r = NULL;
    if (want == 2 && CA_NDIM(a) == 0) {
        return argsort_0d(a, axis);
    }
    if (parse_axis(axis, CA_NDIM(a), &ax, &flat) < 0) {
        return NULL;
    }
    if (sort_run(a, ax, flat, flags, NULL, want == 1 ? &r : NULL,
                 want == 2 ? &r : NULL) < 0) {
        return NULL;
    }
    return (PyObject *)r;
}

/* kth (an int or a sequence of ints) checked against the axis length n. */
static int
check_kth(PyObject *kth, Py_ssize_t n)
{
    PyObject *seq = ca_ints_tuple(kth);
    if (seq == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(seq); i++) {
        PyObject *item = PyTuple_GET_ITEM(seq, i);
        if (!PyIndex_Check(item)) {
            PyErr_SetString(PyExc_TypeError, "Partition index must be integer");
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t k = PyNumber_AsSsize_t(item, PyExc_OverflowError);
        if (k == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (k < 0) {
            k += n;
        }
        if (k < 0 || k >= n) {
            PyErr_Format(PyExc_ValueError, "kth(=%zd) out of bounds (%zd)", k, n);
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

static PyObject *
partition_impl(CaArray *a, PyObject *kth, PyObject *axis, int want)
{
    int ax, flat;
    CaArray *r = NULL;
    if (parse_axis(axis, CA_NDIM(a), &ax, &flat) < 0) {
        return NULL;
    }
    Py_ssize_t n = flat ? a->size : CA_SHAPE(a)[ax];
    if (check_kth(kth, n) < 0) {
        return NULL;
    }
    if (sort_run(a, ax, flat, 0, kth, want == 1 ? &r : NULL, want == 2 ? &r : NULL) <
        0) {
        return NULL;
    }
    return (PyObject *)r;
}

/* ======================================================================== */
/* searchsorted                                                              */
/* ======================================================================== */

/* The dtype both sides are compared in: NumPy's promotion, where a Python
 * scalar of a's kind (or a lower one) takes a's dtype if it fits. */
static int
search_dtype(CaArray *a, PyObject *v, CaArray **varr)
{
    *varr = NULL;
    if (ca_array_check(v)) {
        Py_INCREF(v);
        *varr = (CaArray *)v;
        return ca_promote(a->dtype, ((CaArray *)v)->dtype);
    }
    int t = -1;
    unsigned char buf[16];
    if (PyBool_Check(v) || (PyLong_Check(v) && ca_is_integer(a->dtype)) ||
        (PyLong_Check(v) && ca_is_inexact(a->dtype)) ||
        (PyFloat_Check(v) && ca_is_inexact(a->dtype)) ||
        (PyComplex_Check(v) && ca_is_complex(a->dtype))) {
        if (ca_value_to_bytes(v, a->dtype, buf) == 0) {
            t = a->dtype;
        }
        else if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
        }
        else {
            return -1;
        }
    }
    *varr = ca_asarray(v, t, a->device, -1, 'K', -1);
    if (*varr == NULL) {
        return -1;
    }
    return t >= 0 ? t : ca_promote(a->dtype, (*varr)->dtype);
}

/* x as a C-contiguous, aligned array of dtype t (x itself when it is one). */
static CaArray *
dense_as(CaArray *x, int t)
{
    if (x->dtype == t && (x->flags & CA_C_CONTIGUOUS) && !ca_array_misaligned(x)) {
        Py_INCREF(x);
        return x;
    }
    return ca_array_copy(x, t, 'C');
}

static int
search_numpy(CaArray *a, CaArray *v, CaArray *sorter, int right, CaArray *out)
{
    PyObject *va = ca_cpu_numpy_view(a), *vv = ca_cpu_numpy_view(v), *vs = NULL,
             *r = NULL;
    int rc = -1;
    if (va != NULL && vv != NULL &&
        (sorter == NULL || (vs = ca_cpu_numpy_view(sorter)) != NULL)) {
        r = PyArray_SearchSorted((PyArrayObject *)va, vv,
                                 right ? NPY_SEARCHRIGHT : NPY_SEARCHLEFT, vs);
        rc = numpy_result_into(r, out);
    }
    Py_XDECREF(va);
    Py_XDECREF(vv);
    Py_XDECREF(vs);
    Py_XDECREF(r);
    return rc;
}

/* The search on the kernels (a GPU, or the cpu device's host loops), with the
 * scratch they ask for (a GPU's sampled levels of a big array) from the pool. */
static int
search_kernels(CaArray *a, CaArray *v, CaArray *sorter, int t, int right, CaArray *out)
{
    const int dev = a->device;
    const ca_stream_t st = ca_current_stream(dev);
    const int64_t n = (int64_t)a->size, nv = (int64_t)v->size;
    const int64_t bytes = ca_searchsorted_temp_bytes(dev, t, n, sorter != NULL, nv);
    CaMemory *tmp = NULL;
    if (bytes > 0 && (tmp = ca_memory_alloc(dev, ca_index_scratch_kind(dev),
                                            (size_t)bytes, st)) == NULL) {
        return -1;
    }
    int rc = ca_run_searchsorted(
        dev, t, a->data, n, sorter ? (const int64_t *)sorter->data : NULL, v->data, nv,
        right, (int64_t *)out->data, tmp ? tmp->ptr : NULL, st);
    Py_XDECREF(tmp); /* the pool reuses it on this stream only after the search */
    return rc;
}

static int
parse_side(PyObject *side, int *right)
{
    *right = 0;
    if (side == NULL || side == Py_None) {
        return 0;
    }
    const char *s = PyUnicode_Check(side) ? PyUnicode_AsUTF8(side) : NULL;
    if (s != NULL && (s[0] == 'l' || s[0] == 'L' || s[0] == 'r' || s[0] == 'R')) {
        *right = s[0] == 'r' || s[0] == 'R';
        return 0;
    }
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "search side must be 'left' or 'right' (got %R)",
                 side);
    return -1;
}

static PyObject *
searchsorted_impl(CaArray *a, PyObject *v, PyObject *side, PyObject *sorter_obj)
{
    CaArray *vin = NULL, *ad = NULL, *vd = NULL, *sd = NULL, *out = NULL;
    int right;
    if (parse_side(side, &right) < 0) {
        return NULL;
    }
    if (CA_NDIM(a) != 1) {
        PyErr_SetString(PyExc_ValueError,
                        CA_NDIM(a) == 0 ? "object of too small depth for desired array"
                                        : "object too deep for desired array");
        return NULL;
    }
    if (ca_use_device(a->device) < 0) {
        return NULL;
    }
    int t = search_dtype(a, v, &vin);
    if (t < 0) {
        goto error;
    }
    if (ca_is_ml(t)) {
        t = CA_FLOAT32; /* exact, same order: the float32 keys' kernels */
    }
    if (vin->device != a->device) {
        PyErr_SetString(PyExc_ValueError,
                        "searchsorted: a and v are on different devices");
        goto error;
    }
    if (sorter_obj != NULL && sorter_obj != Py_None) {
        CaArray *s = (CaArray *)ca_asarray(sorter_obj, -1, a->device, -1, 'K', -1);
        if (s == NULL) {
            goto error;
        }
        if (!ca_is_integer(s->dtype) || CA_NDIM(s) != 1 || s->size != a->size) {
            PyErr_SetString(
                ca_is_integer(s->dtype) ? PyExc_ValueError : PyExc_TypeError,
                ca_is_integer(s->dtype) ? "sorter.size must equal a.size"
                                        : "sorter must only contain integers");
            Py_DECREF(s);
            goto error;
        }
        sd = dense_as(s, CA_INT64);
        Py_DECREF(s);
        if (sd == NULL) {
            goto error;
        }
    }
    if ((ad = dense_as(a, t)) == NULL || (vd = dense_as(vin, t)) == NULL) {
        goto error;
    }
    out = ca_array_empty(CA_INT64, CA_NDIM(vin), CA_SHAPE(vin), 0, a->device,
                         ca_gather_result_kind(a));
    if (out == NULL) {
        goto error;
    }
    if (out->size > 0) {
        int rc;
        if (a->device == CA_CPU && !use_host_kernels) {
            rc = search_numpy(ad, vd, sd, right, out);
        }
        else {
            rc = search_kernels(ad, vd, sd, t, right, out);
        }
        if (rc < 0) {
            goto error;
        }
    }
    Py_XDECREF(vin);
    Py_XDECREF(ad);
    Py_XDECREF(vd);
    Py_XDECREF(sd);
    return (PyObject *)out;
error:
    Py_XDECREF(vin);
    Py_XDECREF(ad);
    Py_XDECREF(vd);
    Py_XDECREF(sd);
    Py_XDECREF(out);
    return NULL;
}

/* ======================================================================== */
/* _bincount                                                                 */
/* ======================================================================== */

/* _bincount(x, weights, nbins): counts (int64) or weight sums (float64) of the
 * values of x in [0, nbins). bincount (_sorting.py) checks and sizes. */
static PyObject *
bincount_impl(CaArray *x, PyObject *weights, Py_ssize_t nbins)
{
    CaArray *xd = NULL, *wd = NULL, *out = NULL;
    if (ca_use_device(x->device) < 0) {
        return NULL;
    }
    int xt = x->dtype == CA_INT32 ? CA_INT32 : CA_INT64;
    if ((xd = dense_as(x, xt)) == NULL) {
        return NULL;
    }
    if (weights != Py_None) {
        CaArray *w = ca_require_array("_bincount", weights);
        if (w == NULL || w->size != x->size || w->device != x->device) {
            if (w != NULL) {
                PyErr_SetString(PyExc_ValueError,
                                "The weights and list don't have the same length.");
            }
            goto error;
        }
        if ((wd = dense_as(w, CA_FLOAT64)) == NULL) {
            goto error;
        }
    }
    out = ca_array_empty(wd ? CA_FLOAT64 : CA_INT64, 1, &nbins, 0, x->device,
                         ca_gather_result_kind(x));
    if (out == NULL) {
        goto error;
    }
    if (nbins > 0 &&
        ca_run_bincount(x->device, xt, xd->data, (int64_t)xd->size,
                        wd ? (const double *)wd->data : NULL, (int64_t)nbins, out->data,
                        ca_current_stream(x->device)) < 0) {
        goto error;
    }
    Py_DECREF(xd);
    Py_XDECREF(wd);
    return (PyObject *)out;
error:
    Py_XDECREF(xd);
    Py_XDECREF(wd);
    Py_XDECREF(out);
    return NULL;
}

/* ======================================================================== */
/* Python entry points                                                       */
/* ======================================================================== */

static const char *const names_sort[] = { "a",      "axis",       "kind", "order",
                                          "stable", "descending", NULL };
static const char *const names_msort[] = { "axis",   "kind",       "order",
                                           "stable", "descending", NULL };
static const char *const names_part[] = { "a", "kth", "axis", "kind", "order", NULL };
static const char *const names_mpart[] = { "kth", "axis", "kind", "order", NULL };
static const char *const names_search[] = { "a", "v", "side", "sorter", NULL };
static const char *const names_msearch[] = { "v", "side", "sorter", NULL };

/* v: axis, kind, order, stable, descending. */
static PyObject *
sort_entry(CaArray *a, PyObject **v, int want)
{
    int flags, desc;
    if ((flags = check_kind(v[1], v[3], v[2], 0)) < 0 ||
        (desc = parse_descending(v[4])) < 0) {
        return NULL;
    }
    return sort_impl(a, v[0], flags | desc, want);
}

/* The module functions and methods of this block, as FASTCALL entry points:
 * FN(PyObject *self_or_module, args, nargs, kwnames) calling BODY. */
#define ENTRY(FN, BODY)                                                                \
    static PyObject *FN(PyObject *self, PyObject *const *args, Py_ssize_t nargs,       \
                        PyObject *kwnames)                                             \
    {                                                                                  \
        return BODY;                                                                   \
    }

/* sort(a, axis, kind, order, *, stable, descending) and argsort: want 1 the
 * sorted values, 2 the positions. */
static PyObject *
sort_call(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
          int want)
{
    PyObject *v[6];
    CaArray *a;
    if (ca_parse_array_args(fname, args, nargs, kwnames, names_sort, 4, 1, v, &a) < 0) {
        return NULL;
    }
    return sort_entry(a, v + 1, want);
}

/* partition(a, kth, axis, kind, order) and argpartition (want 2). */
static PyObject *
partition_call(const char *fname, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames, int want)
{
    PyObject *v[5];
    CaArray *a;
    if (ca_parse_array_args(fname, args, nargs, kwnames, names_part, 5, 2, v, &a) < 0 ||
        check_kind(v[3], NULL, v[4], 1) < 0) {
        return NULL;
    }
    if (!Py_IS_TYPE(a, ca_st->ndarray_type) && ca_dt_is((PyObject *)a)) {
        ca_dt_raise((PyObject *)a); /* cuarray._datetime's: NaT last */
        return ca_dt_retry(NULL, fname, args, nargs, kwnames);
    }
    if (want == 2 && CA_NDIM(a) == 0) {
        return argsort_0d(a, v[2]);
    }
    return partition_impl(a, v[1], v[2], want);
}

static int
check_writeable(CaArray *a)
{
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    return 0;
}

/* a.argpartition(kth, axis, kind, order) and, into a copy, a.partition. */
static PyObject *
partition_method(const char *fname, CaArray *a, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames, int want)
{
    PyObject *v[4];
    if (ca_parse_args(fname, args, nargs, kwnames, names_mpart, 4, 1, v) < 0 ||
        check_kind(v[2], NULL, v[3], 1) < 0) {
        return NULL;
    }
    if (want == 1 && check_writeable(a) < 0) {
        return NULL;
    }
    if (want == 1 && v[1] == Py_None) {
        PyErr_SetString(PyExc_ValueError, "partition axis must be an int, not None");
        return NULL;
    }
    if (want == 2 && CA_NDIM(a) == 0) {
        return argsort_0d(a, v[1]);
    }
    return partition_impl(a, v[0], v[1], want);
}

/* a.sort() and a.partition(): a = r, its sorted copy; None. */
static PyObject *
assign_sorted(CaArray *a, PyObject *r)
{
    if (r == NULL) {
        return NULL;
    }
    int rc = ca_assign(a, (CaArray *)r);
    Py_DECREF(r);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* a.sort(): in place, through a sorted copy. */
static PyObject *
Ndarray_sort(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[5];
    CaArray *a = (CaArray *)self;
    if (ca_parse_args("sort", args, nargs, kwnames, names_msort, 3, 0, v) < 0 ||
        check_writeable(a) < 0) {
        return NULL;
    }
    if (CA_NDIM(a) == 0 || a->size == 0) {
        int ax, flat;
        return parse_axis(v[0], CA_NDIM(a), &ax, &flat) < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (v[0] == Py_None) {
        /* NumPy's type: ndarray.sort takes an int axis (np.sort flattens None) */
        return PyErr_Format(PyExc_TypeError, "sort axis must be an int, not None");
    }
    return assign_sorted(a, sort_entry(a, v, 1));
}

static PyObject *
Ndarray_argsort(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                PyObject *kwnames)
{
    PyObject *v[5];
    if (ca_parse_args("argsort", args, nargs, kwnames, names_msort, 3, 0, v) < 0) {
        return NULL;
    }
    return sort_entry((CaArray *)self, v, 2);
}

/* a.partition(): in place, as a.sort(). */
static PyObject *
Ndarray_partition(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames)
{
    CaArray *a = (CaArray *)self;
    return assign_sorted(a, partition_method("partition", a, args, nargs, kwnames, 1));
}

static PyObject *
py_searchsorted(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[4];
    CaArray *a;
    (void)m;
    if (ca_parse_array_args("searchsorted", args, nargs, kwnames, names_search, 4, 2, v,
                            &a) < 0) {
        return NULL;
    }
    return searchsorted_impl(a, v[1], v[2], v[3]);
}

static PyObject *
Ndarray_searchsorted(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    PyObject *v[3];
    if (ca_parse_args("searchsorted", args, nargs, kwnames, names_msearch, 3, 1, v) <
        0) {
        return NULL;
    }
    return searchsorted_impl((CaArray *)self, v[0], v[1], v[2]);
}

ENTRY(py_sort, sort_call("sort", args, nargs, kwnames, 1))
ENTRY(py_argsort, sort_call("argsort", args, nargs, kwnames, 2))
ENTRY(py_partition, partition_call("partition", args, nargs, kwnames, 1))
ENTRY(py_argpartition, partition_call("argpartition", args, nargs, kwnames, 2))
ENTRY(Ndarray_argpartition,
      partition_method("argpartition", (CaArray *)self, args, nargs, kwnames, 2))

/* The start of the private METH_FASTCALL functions below: exactly n arguments
 * (TypeError showing `usage` else), the first a cuarray array (returned,
 * borrowed). NULL on error. */
static CaArray *
fixed_args(const char *fname, const char *usage, PyObject *const *args,
           Py_ssize_t nargs, Py_ssize_t n)
{
    if (nargs != n) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    return ca_require_array(fname, args[0]);
}

static PyObject *
py_bincount(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    CaArray *x;
    Py_ssize_t nbins;
    (void)m;
    if ((x = fixed_args("_bincount", "_bincount(x, weights, nbins)", args, nargs, 3)) ==
        NULL) {
        return NULL;
    }
    nbins = PyNumber_AsSsize_t(args[2], PyExc_OverflowError);
    if (nbins == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (!ca_is_integer(x->dtype) || CA_NDIM(x) != 1 || nbins < 0) {
        PyErr_SetString(PyExc_ValueError,
                        "_bincount: x must be 1-D integers, nbins >= 0");
        return NULL;
    }
    return bincount_impl(x, args[1], nbins);
}

/* _sort_bits(a, bits, positions): the flattened a sorted (positions 0), the
 * positions that sort it, stably (1), or both as (values, positions) from one
 * sort (2), when the caller knows its keys agree above their low `bits` bits
 * (unique() of integers, from their min and max; random permutations). */
static PyObject *
py_sort_bits(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    CaArray *a, *r = NULL;
    (void)m;
    if ((a = fixed_args("_sort_bits", "_sort_bits(a, bits, positions)", args, nargs,
                        3)) == NULL) {
        return NULL;
    }
    long bits = PyLong_AsLong(args[1]);
    long pos = PyLong_AsLong(args[2]);
    if ((bits == -1 || pos == -1) && PyErr_Occurred()) {
        return NULL;
    }
    if (bits < 1 || bits > 127 || pos < 0 || pos > 2) {
        PyErr_SetString(PyExc_ValueError,
                        "_sort_bits: bits must be in [1, 127], positions 0, 1 or 2");
        return NULL;
    }
    int flags = CA_SORT_KEY_BITS(bits);
    CaArray *x = NULL;
    if (sort_run(a, 0, 1, flags, NULL, pos != 1 ? &r : NULL, pos != 0 ? &x : NULL) <
        0) {
        return NULL;
    }
    if (pos == 0) {
        return (PyObject *)r;
    }
    if (pos == 1) {
        return (PyObject *)x;
    }
    PyObject *t = PyTuple_Pack(2, (PyObject *)r, (PyObject *)x);
    Py_DECREF(r);
    Py_DECREF(x);
    return t;
}

/* One vector operand of _perm_sort or _merge_runs (`fn`): 1-D, C-contiguous, of
 * `dtype`, n long (n < 0: any length), on `device`; ValueError naming it else. */
static int
vector_operand(CaArray *a, const char *fn, const char *name, Py_ssize_t n, int dtype,
               int device)
{
    if (a->dtype != dtype || CA_NDIM(a) != 1 || !(a->flags & CA_C_CONTIGUOUS) ||
        (n >= 0 && a->size != n) || a->device != device) {
        PyErr_Format(PyExc_ValueError,
                     "%s: %s must be a 1-D C-contiguous %s array of the keys' size "
                     "and device",
                     fn, name, ca_dtype_name[dtype]);
        return -1;
    }
    return 0;
}

/* _perm_sort(k, w, shift) -> (perm, tied): ca_perm_sort (kernels.h) of the keys k
 * and slot words w (uint32, n in [2, 2**31 - 1]; neither is modified): perm
 * (int64) and tied, a 0-d int32 array on their device, nonzero when perm is not
 * valid and the caller must take the generic path (cuarray.random). */
static PyObject *
py_perm_sort(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    CaArray *k, *w, *perm = NULL, *flag = NULL;
    CaMemory *tmp = NULL;
    (void)m;
    if ((k = fixed_args("_perm_sort", "_perm_sort(k, w, shift)", args, nargs, 3)) ==
            NULL ||
        (w = ca_require_array("_perm_sort", args[1])) == NULL) {
        return NULL;
    }
    long shift = PyLong_AsLong(args[2]);
    if (shift == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const int dev = k->device;
    const Py_ssize_t n = k->size;
    if (vector_operand(k, "_perm_sort", "k", -1, CA_UINT32, dev) < 0 ||
        vector_operand(w, "_perm_sort", "w", n, CA_UINT32, dev) < 0) {
        return NULL;
    }
    if (n < 2 || n > INT32_MAX || shift < 0 || shift > 24) {
        PyErr_SetString(PyExc_ValueError,
                        "_perm_sort: 2 <= size <= 2**31 - 1 and 0 <= shift <= 24");
        return NULL;
    }
    if (ca_use_device(dev) < 0) {
        return NULL;
    }
    const ca_memkind kind = ca_gather_result_kind(k);
    ca_stream_t st = ca_current_stream(dev);
    size_t bytes = 0;
    if ((perm = ca_array_empty(CA_INT64, 1, &n, 0, dev, kind)) == NULL ||
        (flag = ca_array_empty(CA_INT32, 0, NULL, 0, dev, kind)) == NULL ||
        ca_run_perm_sort(dev, NULL, NULL, n, (int)shift, NULL, NULL, NULL, &bytes, st) <
            0 ||
        (tmp = ca_memory_alloc(dev, ca_index_scratch_kind(dev), bytes, st)) == NULL ||
        ca_run_perm_sort(dev, (const uint32_t *)k->data, (const uint32_t *)w->data, n,
                         (int)shift, (int64_t *)perm->data, (int32_t *)flag->data,
                         tmp->ptr, &bytes, st) < 0) {
        goto error;
    }
    /* The pool reuses the block on this stream only after the sort (stream order). */
    Py_DECREF(tmp);
    PyObject *t = PyTuple_Pack(2, (PyObject *)perm, (PyObject *)flag);
    Py_DECREF(perm);
    Py_DECREF(flag);
    return t;
error:
    Py_XDECREF(tmp);
    Py_XDECREF(perm);
    Py_XDECREF(flag);
    return NULL;
}

/* _merge_runs(keys, h, idx, out): ca_host_merge (kernels.h) of the sorted runs
 * keys[:h] and keys[h:] into out: the merged keys (idx None) or the entries of
 * idx in merged order (out int64). The cpu device's split sorts
 * (cuarray/_sort_threads.py); the GIL is released while it runs. */
static PyObject *
py_merge_runs(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    CaArray *keys, *idx = NULL, *out;
    (void)m;
    if ((keys = fixed_args("_merge_runs", "_merge_runs(keys, h, idx, out)", args, nargs,
                           4)) == NULL ||
        (args[2] != Py_None &&
         (idx = ca_require_array("_merge_runs", args[2])) == NULL) ||
        (out = ca_require_array("_merge_runs", args[3])) == NULL) {
        return NULL;
    }
    const Py_ssize_t n = keys->size;
    const Py_ssize_t h = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
    if (h == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const int odt = idx != NULL ? CA_INT64 : keys->dtype;
    if (vector_operand(keys, "_merge_runs", "keys", n, keys->dtype, CA_CPU) < 0 ||
        (idx != NULL &&
         vector_operand(idx, "_merge_runs", "idx", n, CA_INT64, CA_CPU) < 0) ||
        vector_operand(out, "_merge_runs", "out", n, odt, CA_CPU) < 0) {
        return NULL;
    }
    if (h < 0 || h > n) {
        PyErr_SetString(PyExc_ValueError, "_merge_runs: 0 <= h <= keys.size");
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
        rc = ca_host_merge(keys->dtype, keys->data, n, h,
                           idx != NULL ? (const int64_t *)idx->data : NULL,
                           idx != NULL ? NULL : out->data,
                           idx != NULL ? (int64_t *)out->data : NULL);
    Py_END_ALLOW_THREADS
    if (rc != 0) {
        PyErr_SetString(PyExc_ValueError, "_merge_runs: unsupported arguments");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
py_sort_host_kernels(PyObject *m, PyObject *arg)
{
    (void)m;
    return ca_swap_flag(&use_host_kernels, arg);
}

#define CA_FC    (PyCFunction)(void (*)(void))
#define CA_FLAGS (METH_FASTCALL | METH_KEYWORDS)

#define DOC_SORT                                                                       \
    "sort(a, axis=-1, kind=None, order=None, *, stable=None, "                         \
    "descending=False)\n--\n\n"                                                        \
    "A sorted copy of a along axis (None: the flattened array), as numpy.sort.\n"      \
    "NaNs sort last, -0.0 equals +0.0, complex numbers sort by (real, imag).\n"        \
    "A GPU always sorts stably (kind= is only checked); the cpu device runs\n"         \
    "NumPy's sort of the kind asked for. descending=True (the Array API's) gives\n"    \
    "the exact reverse order, NaNs first. On a GPU, all rows of the axis are\n"        \
    "sorted by one CUB segmented sort."
#define DOC_ARGSORT                                                                    \
    "argsort(a, axis=-1, kind=None, order=None, *, stable=None, descending=False)\n"   \
    "--\n\nThe int64 indices that sort a along axis (numpy.argsort): stably on a\n"    \
    "GPU, by NumPy's argsort of the kind asked for on the cpu device."
#define DOC_PARTITION                                                                  \
    "partition(a, kth, axis=-1, kind='introselect', order=None)\n--\n\n"               \
    "A partitioned copy of a (numpy.partition). On a GPU the result is fully\n"        \
    "sorted along axis, which satisfies every kth; the cpu device runs NumPy's."
#define DOC_ARGPARTITION                                                               \
    "argpartition(a, kth, axis=-1, kind='introselect', order=None)\n--\n\n"            \
    "Indices that partition a (numpy.argpartition); on a GPU they fully sort it\n"     \
    "(stably), on the cpu device they are NumPy's."
#define DOC_SEARCHSORTED                                                               \
    "searchsorted(a, v, side='left', sorter=None)\n--\n\n"                             \
    "Insertion points of v into the sorted 1-D a (numpy.searchsorted): int64, "        \
    "shaped\n"                                                                         \
    "like v. Both are compared in their common dtype, in sort's order (NaNs last)."

/* _select(a, ranks, nan_poison=False) -> a 1-D array of a's dtype: the elements
 * of a (flattened; C-contiguous, on a GPU, a real dtype) at `ranks` (a tuple of
 * one or two ints in [0, a.size)) in sort order (NaNs last), by the radix select
 * (kernels.h: ca_select), with no sort; with nan_poison true, all NaN when a
 * holds a NaN (median's rule; found by the select's first pass). None where
 * there is none (the cpu device, complex, other layouts): the caller sorts
 * instead. */
static PyObject *
py_select(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs < 2 || nargs > 3 || !ca_array_check(args[0]) || !PyTuple_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_select(a, ranks: tuple, nan_poison=False)");
        return NULL;
    }
    const int poison = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if (poison < 0) {
        return NULL;
    }
    CaArray *a = (CaArray *)args[0];
    const Py_ssize_t nk = PyTuple_GET_SIZE(args[1]);
    int64_t ks[CA_SELECT_MAX_RANKS];
    if (nk < 1 || nk > CA_SELECT_MAX_RANKS) {
        PyErr_SetString(PyExc_ValueError, "_select takes one or two ranks");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nk; i++) {
        ks[i] = (int64_t)PyLong_AsLongLong(PyTuple_GET_ITEM(args[1], i));
        if (ks[i] == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (ks[i] < 0 || ks[i] >= (int64_t)a->size) {
            PyErr_Format(PyExc_IndexError, "rank %lld is out of range for size %zd",
                         (long long)ks[i], a->size);
            return NULL;
        }
    }
    if (a->device == CA_CPU || !(a->flags & CA_C_CONTIGUOUS) ||
        a->dtype == CA_COMPLEX64 || a->dtype == CA_COMPLEX128 || ca_is_ml(a->dtype) ||
        ca_array_misaligned(a)) {
        Py_RETURN_NONE;
    }
    if (ca_use_device(a->device) < 0) {
        return NULL;
    }
    ca_stream_t st = ca_current_stream(a->device);
    Py_ssize_t len = nk;
    CaArray *out =
        ca_array_empty(a->dtype, 1, &len, 0, a->device, ca_gather_result_kind(a));
    if (out == NULL) {
        return NULL;
    }
    CaMemory *tmp = ca_memory_alloc(a->device, ca_index_scratch_kind(a->device),
                                    CA_SELECT_SCRATCH_BYTES, st);
    int rc = tmp == NULL ? -1
                         : ca_run_select(a->device, a->dtype, a->data, (int64_t)a->size,
                                         ks, (int)nk, poison ? CA_SELECT_NAN_POISON : 0,
                                         out->data, tmp->ptr, st);
    /* the pool reuses the scratch on this stream only after the select */
    Py_XDECREF(tmp);
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

#define DOC_BINCOUNT                                                                   \
    "_bincount(x, weights, nbins)\n--\n\nbincount's kernel (see cuarray.bincount)."
#define DOC_SORT_BITS                                                                  \
    "_sort_bits(a, bits, positions)\n--\n\nsort (positions 0), argsort (1) or both "   \
    "as (values,\npositions) from one sort (2) of a.ravel(), whose keys agree above "  \
    "their\nlow `bits` bits (fewer radix passes on a GPU)."
#define DOC_PERM_SORT                                                                  \
    "_perm_sort(k, w, shift)\n--\n\n(perm, tied): a random permutation from the "      \
    "uint32 keys k and\nslot words w (one radix sort over key bits [shift, 32) and "   \
    "a placement\npass, kernels/shared/perm_impl.h); tied (0-d int32) nonzero: perm "  \
    "is not\nvalid, take the generic path."
#define DOC_MERGE_RUNS                                                                 \
    "_merge_runs(keys, h, idx, out)\n--\n\nThe stable merge of the sorted runs "       \
    "keys[:h] and keys[h:]\n(cpu arrays) into out: the keys, or idx's entries in "     \
    "that order\nwhen idx is not None (kernels.h: ca_host_merge)."
#define DOC_SELECT                                                                     \
    "_select(a, ranks, nan_poison=False)\n--\n\nThe elements of a contiguous GPU "     \
    "array at 1 or 2 sorted\nranks (NaNs last), by a radix select; all NaN when "      \
    "nan_poison and a\nholds a NaN; None where there is none."
#define DOC_SORT_HOST_KERNELS                                                          \
    "_sort_host_kernels(flag)\n--\n\nRoute the cpu device's sorts through the host\n"  \
    "kernels (the GPU's key order) instead of NumPy; returns the old setting."

#define DOC_M_SORT                                                                     \
    "sort($self, /, axis=-1, kind=None, order=None, *, stable=None)\n--\n\n"           \
    "Sort in place along axis (see cuarray.sort)."
#define DOC_M_ARGSORT                                                                  \
    "argsort($self, /, axis=-1, kind=None, order=None, *, stable=None)\n--\n\n"        \
    "The indices that sort the array (see cuarray.argsort)."
#define DOC_M_PARTITION                                                                \
    "partition($self, /, kth, axis=-1, kind='introselect', order=None)\n--\n\n"        \
    "Partition in place (see cuarray.partition)."
#define DOC_M_ARGPARTITION                                                             \
    "argpartition($self, /, kth, axis=-1, kind='introselect', order=None)\n--\n\n"     \
    "Indices that partition the array (see cuarray.argpartition)."
#define DOC_M_SEARCHSORTED                                                             \
    "searchsorted($self, /, v, side='left', sorter=None)\n--\n\n"                      \
    "Insertion points of v (see cuarray.searchsorted)."


PyMethodDef ca_sort_array_methods[] = {
    { "sort", CA_FC Ndarray_sort, CA_FLAGS, DOC_M_SORT },
    { "argsort", CA_FC Ndarray_argsort, CA_FLAGS, DOC_M_ARGSORT },
    { "partition", CA_FC Ndarray_partition, CA_FLAGS, DOC_M_PARTITION },
    { "argpartition", CA_FC Ndarray_argpartition, CA_FLAGS, DOC_M_ARGPARTITION },
    { "searchsorted", CA_FC Ndarray_searchsorted, CA_FLAGS, DOC_M_SEARCHSORTED },
    { NULL, NULL, 0, NULL },
};

static PyMethodDef sort_functions[] = {
    { "sort", CA_FC py_sort, CA_FLAGS, DOC_SORT },
    { "argsort", CA_FC py_argsort, CA_FLAGS, DOC_ARGSORT },
    { "partition", CA_FC py_partition, CA_FLAGS, DOC_PARTITION },
    { "argpartition", CA_FC py_argpartition, CA_FLAGS, DOC_ARGPARTITION },
    { "searchsorted", CA_FC py_searchsorted, CA_FLAGS, DOC_SEARCHSORTED },
    { "_bincount", CA_FC py_bincount, METH_FASTCALL, DOC_BINCOUNT },
    { "_sort_bits", CA_FC py_sort_bits, METH_FASTCALL, DOC_SORT_BITS },
    { "_perm_sort", CA_FC py_perm_sort, METH_FASTCALL, DOC_PERM_SORT },
    { "_merge_runs", CA_FC py_merge_runs, METH_FASTCALL, DOC_MERGE_RUNS },
    { "_select", CA_FC py_select, METH_FASTCALL, DOC_SELECT },
    { "_sort_host_kernels", py_sort_host_kernels, METH_O, DOC_SORT_HOST_KERNELS },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(sort, sort_functions)

/*
 * shape.c: the shape layer (shape.h says what it is for). Pure arithmetic over
 * shapes and strides; the only Python it touches is the messages and tuples it
 * is asked for.
 */
#define PY_SSIZE_T_CLEAN
#include "shape.h"

/* ======================================================================== */
/* Broadcasting                                                              */
/* ======================================================================== */

PyObject *
ca_shape_text(int nd, const Py_ssize_t *shape)
{
    PyObject *t = ca_shape_tuple(nd, shape);
    if (t == NULL) {
        return NULL;
    }
    PyObject *r = PyObject_Repr(t);
    Py_DECREF(t);
    return r;
}

int
ca_broadcast_error(int n, const int *nds, const Py_ssize_t *const *shapes,
                   const char *tail)
{
    PyObject *parts = PyUnicode_FromString("");
    for (int i = 0; i < n && parts != NULL; i++) {
        PyObject *s = ca_shape_text(nds[i], shapes[i]);
        PyObject *p = s != NULL ? PyUnicode_FromFormat("%U%U ", parts, s) : NULL;
        Py_XDECREF(s);
        Py_SETREF(parts, p);
    }
    if (parts != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "operands could not be broadcast together with shapes %U%s", parts,
                     tail);
        Py_DECREF(parts);
    }
    return -1;
}

int
ca_broadcast_shapes(int n, const int *nds, const Py_ssize_t *const *shapes, int *out_nd,
                    Py_ssize_t *out)
{
    *out_nd = 0;
    for (int i = 0; i < n; i++) {
        if (ca_broadcast_into(out_nd, out, nds[i], shapes[i]) < 0) {
            return ca_broadcast_error(n, nds, shapes, "");
        }
    }
    return 0;
}

int
ca_broadcasts_to(int nd, const Py_ssize_t *shape, int out_nd,
                 const Py_ssize_t *out_shape)
{
    if (nd > out_nd) {
        return 0;
    }
    const int off = out_nd - nd;
    for (int i = 0; i < nd; i++) {
        if (shape[i] != 1 && shape[i] != out_shape[off + i]) {
            return 0;
        }
    }
    return 1;
}

int
ca_broadcast_strides(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                     int out_nd, const Py_ssize_t *out_shape, Py_ssize_t *out_strides)
{
    if (out_shape != NULL && !ca_broadcasts_to(nd, shape, out_nd, out_shape)) {
        return -1;
    }
    const int off = out_nd - nd;
    for (int i = 0; i < out_nd; i++) {
        const int j = i - off;
        /* a stretched length-1 dimension repeats its one element: stride 0 */
        out_strides[i] = (j < 0 || shape[j] == 1) ? 0 : strides[j];
    }
    return 0;
}

/* ======================================================================== */
/* Contiguity                                                                */
/* ======================================================================== */

void
ca_contiguous_strides(int nd, const Py_ssize_t *shape, Py_ssize_t itemsize, int fortran,
                      Py_ssize_t *strides)
{
    Py_ssize_t s = itemsize;
    for (int k = 0; k < nd; k++) {
        const int i = fortran ? k : nd - 1 - k;
        strides[i] = s;
        s *= shape[i] > 0 ? shape[i] : 1;
    }
}

/* Do the dimensions other than length-1 ones step as a dense layout in C
 * (fortran = 0) or F order? */
static int
dense_in_order(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
               Py_ssize_t itemsize, int fortran)
{
    Py_ssize_t sd = itemsize;
    for (int k = 0; k < nd; k++) {
        const int i = fortran ? k : nd - 1 - k;
        if (shape[i] != 1) {
            if (strides[i] != sd) {
                return 0;
            }
            sd *= shape[i];
        }
    }
    return 1;
}

int
ca_layout_flags(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                Py_ssize_t itemsize)
{
    for (int i = 0; i < nd; i++) {
        if (shape[i] == 0) {
            return CA_LAYOUT_C | CA_LAYOUT_F;
        }
    }
    return (dense_in_order(nd, shape, strides, itemsize, 0) ? CA_LAYOUT_C : 0) |
           (dense_in_order(nd, shape, strides, itemsize, 1) ? CA_LAYOUT_F : 0);
}

/* |x| of a stride (no valid stride is PY_SSIZE_T_MIN). */
static Py_ssize_t
abs_stride(Py_ssize_t x)
{
    return x < 0 ? -x : x;
}

void
ca_axes_by_stride(int nd, const Py_ssize_t *strides, int *perm)
{
    /* insertion sort: stable, and nd is small */
    for (int i = 0; i < nd; i++) {
        const Py_ssize_t sp = abs_stride(strides[i]);
        int j = i;
        while (j > 0 && abs_stride(strides[perm[j - 1]]) < sp) {
            perm[j] = perm[j - 1];
            j--;
        }
        perm[j] = i;
    }
}

int
ca_layout_aligned(const void *ptr, int nd, const Py_ssize_t *shape,
                  const Py_ssize_t *strides, Py_ssize_t align)
{
    if ((uintptr_t)ptr % (uintptr_t)align != 0) {
        return 0;
    }
    for (int i = 0; i < nd; i++) {
        /* a length-1 dimension's stride is never multiplied by anything */
        if (shape[i] > 1 && strides[i] % align != 0) {
            return 0;
        }
    }
    return 1;
}

/* ======================================================================== */
/* Extent                                                                    */
/* ======================================================================== */

int
ca_layout_extent(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                 Py_ssize_t itemsize, Py_ssize_t *lo, Py_ssize_t *hi)
{
    Py_ssize_t l = 0, h = 0, ext, span;
    for (int i = 0; i < nd; i++) {
        if (__builtin_mul_overflow(shape[i] - 1, strides[i], &ext)) {
            goto overflow;
        }
        if (ext < 0 ? __builtin_add_overflow(l, ext, &l)
                    : __builtin_add_overflow(h, ext, &h)) {
            goto overflow;
        }
    }
    /* the span itself must be representable too, not only its ends */
    if (__builtin_add_overflow(h, itemsize, &h) ||
        __builtin_sub_overflow(h, l, &span)) {
        goto overflow;
    }
    *lo = l;
    *hi = h;
    return 0;
overflow:
    return -1;
}

/* ======================================================================== */
/* Merging dimensions                                                        */
/* ======================================================================== */

int
ca_merge_dims(const Py_ssize_t *shape, const Py_ssize_t *strides, int lo, int hi,
              Py_ssize_t *len, Py_ssize_t *stride)
{
    Py_ssize_t total = 1, st = 0, inner = 1;
    int have = 0;
    for (int d = lo; d < hi; d++) {
        total *= shape[d];
    }
    *len = total;
    if (total <= 1) {
        *stride = 0;
        return 1;
    }
    for (int d = hi - 1; d >= lo; d--) {
        if (shape[d] == 1) {
            continue;
        }
        if (!have) {
            st = strides[d];
            have = 1;
        }
        else if (strides[d] != st * inner) {
            /* the next outer dimension must step over everything inside it */
            return 0;
        }
        inner *= shape[d];
    }
    *stride = st;
    return 1;
}

int
ca_reshape_strides(int nd, const Py_ssize_t *shape, const Py_ssize_t *strides,
                   Py_ssize_t itemsize, int newnd, const Py_ssize_t *newshape,
                   int fortran, Py_ssize_t *newstrides)
{
    Py_ssize_t olddims[CA_MAX_DIMS], oldstrides[CA_MAX_DIMS];
    int oldnd = 0;

    for (int i = 0; i < nd; i++) {
        if (shape[i] != 1) {
            olddims[oldnd] = shape[i];
            oldstrides[oldnd] = strides[i];
            oldnd++;
        }
    }
    /* Walk both shapes in groups whose products agree; each group of old axes
     * must be one strided run to be re-split into the new axes. */
    int oi = 0, oj = 1, ni = 0, nj = 1;
    while (ni < newnd && oi < oldnd) {
        Py_ssize_t np_ = newshape[ni];
        Py_ssize_t op = olddims[oi];
        while (np_ != op) {
            if (np_ < op) {
                np_ *= newshape[nj++];
            }
            else {
                op *= olddims[oj++];
            }
        }
        for (int k = oi; k < oj - 1; k++) {
            if (fortran) {
                if (oldstrides[k + 1] != olddims[k] * oldstrides[k]) {
                    return 0;
                }
            }
            else if (oldstrides[k] != olddims[k + 1] * oldstrides[k + 1]) {
                return 0;
            }
        }
        if (fortran) {
            newstrides[ni] = oldstrides[oi];
            for (int k = ni + 1; k < nj; k++) {
                newstrides[k] = newstrides[k - 1] * newshape[k - 1];
            }
        }
        else {
            newstrides[nj - 1] = oldstrides[oj - 1];
            for (int k = nj - 1; k > ni; k--) {
                newstrides[k - 1] = newstrides[k] * newshape[k];
            }
        }
        ni = nj++;
        oi = oj++;
    }
    /* Trailing new axes of length 1. */
    Py_ssize_t last = ni >= 1 ? newstrides[ni - 1] : itemsize;
    if (fortran && ni >= 1) {
        last *= newshape[ni - 1];
    }
    for (int k = ni; k < newnd; k++) {
        newstrides[k] = last;
    }
    return 1;
}

/* ======================================================================== */
/* Python values                                                             */
/* ======================================================================== */

PyObject *
ca_shape_tuple(int ndim, const Py_ssize_t *shape)
{
    PyObject *t = PyTuple_New(ndim);
    if (t == NULL) {
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *v = PyLong_FromSsize_t(shape[i]);
        if (v == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/*
 * manip.c: shape manipulation. Module functions (reshape, ravel, transpose,
 * permute_dims, swapaxes, moveaxis, squeeze, expand_dims, broadcast_to,
 * broadcast_arrays, broadcast_shapes, concatenate, concat, stack, flip) and the
 * ndarray methods in ca_manip_array_methods (reshape, ravel, flatten,
 * transpose, swapaxes, squeeze, view).
 *
 * Everything that can be a view is one (metadata only: no device work, no
 * synchronization); reshape and ravel copy only where NumPy would. Errors are
 * NumPy's: numpy.exceptions.AxisError for an axis out of range, ValueError for
 * impossible shapes, mixed devices and repeated axes.
 */
#include "cuarray.h"
#include "datetime_hook.h"
#include "launch.h"

/* ======================================================================== */
/* Small helpers                                                             */
/* ======================================================================== */

/* An int or a sequence of ints -> normalized axes; repeated axes raise
 * ValueError(`repeat_msg`). Returns the count, or -1. */
static int
axes_from_object(PyObject *obj, int ndim, int *axes, const char *repeat_msg)
{
    int n = 0;
    if (PyIndex_Check(obj)) {
        if (ca_axis_from_object(obj, ndim, &axes[0]) < 0) {
            return -1;
        }
        return 1;
    }
    PyObject *seq =
        PySequence_Fast(obj, "axis must be an integer or a tuple of integers");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > CA_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, repeat_msg);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        if (ca_axis_from_object(PySequence_Fast_GET_ITEM(seq, i), ndim, &axes[n]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
        for (int j = 0; j < n; j++) {
            if (axes[j] == axes[n]) {
                Py_DECREF(seq);
                PyErr_SetString(PyExc_ValueError, repeat_msg);
                return -1;
            }
        }
        n++;
    }
    Py_DECREF(seq);
    return n;
}

/* An int or a sequence of ints (negatives kept: reshape's -1). Returns ndim. */
static int
shape_from_object(PyObject *obj, Py_ssize_t *shape)
{
    if (PyIndex_Check(obj) && !PyBool_Check(obj)) {
        shape[0] = PyNumber_AsSsize_t(obj, PyExc_ValueError);
        return shape[0] == -1 && PyErr_Occurred() ? -1 : 1;
    }
    PyObject *seq = PySequence_Fast(obj, "shape must be an integer or a sequence of "
                                         "integers");
    if (seq == NULL) {
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > CA_MAX_DIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError,
                     "maximum supported dimension for an ndarray is "
                     "currently %d, found %zd",
                     CA_MAX_DIMS, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyIndex_Check(o) || PyBool_Check(o)) { /* NumPy refuses bools too */
            Py_DECREF(seq);
            PyErr_Format(PyExc_TypeError,
                         "'%.100s' object cannot be interpreted as an "
                         "integer",
                         Py_TYPE(o)->tp_name);
            return -1;
        }
        shape[i] = PyNumber_AsSsize_t(o, PyExc_ValueError);
        if (shape[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    Py_DECREF(seq);
    return (int)len;
}

/* order= for reshape/ravel/flatten: None -> dflt; one of `allowed`. */
static int
order_from_object(PyObject *obj, char dflt, const char *allowed, char *out)
{
    if (obj == NULL || obj == Py_None) {
        *out = dflt;
        return 0;
    }
    const int c = ca_order_from_object(obj, dflt); /* NumPy's TypeError/ValueError */
    if (c < 0) {
        return -1;
    }
    if (strchr(allowed, c) == NULL) { /* only 'K' is ever left out */
        PyErr_SetString(PyExc_ValueError, "order 'K' is not permitted for reshaping");
        return -1;
    }
    *out = (char)c;
    return 0;
}

/* The argument as a cuarray array (array-likes go through asarray). New ref. */
static CaArray *
as_array(PyObject *obj)
{
    if (ca_array_check(obj)) {
        Py_INCREF(obj);
        return (CaArray *)obj;
    }
    return ca_asarray(obj, -1, CA_DEVICE_AUTO, -1, 'K', -1);
}

/* A new array holding a copy's memory under a new (contiguous) shape: owns its
 * data, no base, as NumPy's reshape-with-copy result. */
static CaArray *
rewrap_copy(CaArray *c, int nd, const Py_ssize_t *shape, int fortran)
{
    Py_ssize_t strides[CA_MAX_DIMS];
    ca_contiguous_strides(nd, shape, c->itemsize, fortran, strides);
    if (c->size == 0) {
        return ca_array_empty(c->dtype, nd, shape, fortran, c->device, c->kind);
    }
    return ca_array_from_memory(c->mem, c->data, c->dtype, nd, shape, strides, NULL);
}

/* ======================================================================== */
/* reshape                                                                   */
/* ======================================================================== */

static int
reshape_error(CaArray *a, int nd, const Py_ssize_t *shape)
{
    PyObject *parts = PyUnicode_FromString("(");
    for (int i = 0; parts != NULL && i < nd; i++) {
        PyObject *s = shape[i] < 0
                          ? PyUnicode_FromFormat("%U%s%s", parts, "newaxis",
                                                 i + 1 < nd || nd == 1 ? "," : "")
                          : PyUnicode_FromFormat("%U%zd%s", parts, shape[i],
                                                 i + 1 < nd || nd == 1 ? "," : "");
        Py_SETREF(parts, s);
    }
    if (parts != NULL) {
        PyErr_Format(PyExc_ValueError,
                     "cannot reshape array of size %zd into shape %U)", a->size, parts);
        Py_DECREF(parts);
    }
    return -1;
}

/* reshape `a` to (nd, shape) (one negative entry is inferred) in C or F index
 * order ('A': F when a is F- and not C-contiguous). copy: -1 when needed,
 * 0 never (ValueError if needed), 1 always. */
static CaArray *
reshape_impl(CaArray *a, int nd, const Py_ssize_t *shape_in, char order, int copy)
{
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    int unknown = -1;
    Py_ssize_t known = 1;

    for (int i = 0; i < nd; i++) {
        shape[i] = shape_in[i];
        if (shape[i] < 0) {
            if (unknown >= 0) {
                PyErr_SetString(PyExc_ValueError,
                                "can only specify one unknown dimension");
                return NULL;
            }
            unknown = i;
        }
        else {
            if (shape[i] != 0 && known > PY_SSIZE_T_MAX / shape[i]) {
                reshape_error(a, nd, shape_in);
                return NULL;
            }
            known *= shape[i];
        }
    }
    if (unknown >= 0) {
        if (known == 0 || a->size % known != 0) {
            reshape_error(a, nd, shape_in);
            return NULL;
        }
        shape[unknown] = a->size / known;
    }
    else if (known != a->size) {
        reshape_error(a, nd, shape_in);
        return NULL;
    }
    if (order == 'A') {
        order =
            (a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS) ? 'F' : 'C';
    }
    int fortran = order == 'F';
    if (copy != 1) {
        if (a->size == 0) {
            if (ca_shape_size(nd, shape, a->itemsize) < 0) { /* "array is too big" */
                return NULL;
            }
            ca_contiguous_strides(nd, shape, a->itemsize, fortran, strides);
            return ca_array_restride(a, nd, shape, strides, a->data);
        }
        if (ca_reshape_strides(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), a->itemsize, nd,
                               shape, fortran, strides)) {
            return ca_array_restride(a, nd, shape, strides, a->data);
        }
        if (copy == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "Unable to avoid creating a copy while reshaping.");
            return NULL;
        }
    }
    CaArray *c = ca_array_copy(a, a->dtype, fortran ? 'F' : 'C');
    if (c == NULL) {
        return NULL;
    }
    CaArray *out = rewrap_copy(c, nd, shape, fortran);
    Py_DECREF(c);
    return out;
}

/* ravel: a view where a is contiguous in the order asked ('K': in its own
 * memory order with positive strides), else a copy. */
static CaArray *
ravel_impl(CaArray *a, char order, int force_copy)
{
    Py_ssize_t n = a->size;
    Py_ssize_t one = a->itemsize;
    int nd = CA_NDIM(a);

    if (order == 'A') {
        order =
            (a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS) ? 'F' : 'C';
    }
    if (order == 'K') {
        /* Axes by decreasing |stride| (stable): the memory order NumPy's 'K'
         * means, each axis kept in its logical direction. */
        int perm[CA_MAX_DIMS];
        ca_axes_by_stride(nd, CA_STRIDES(a), perm);
        Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
        for (int i = 0; i < nd; i++) {
            shape[i] = CA_SHAPE(a)[perm[i]];
            strides[i] = CA_STRIDES(a)[perm[i]];
        }
        CaArray *t = ca_array_restride(a, nd, shape, strides, a->data);
        if (t == NULL) {
            return NULL;
        }
        CaArray *out = ravel_impl(t, 'C', force_copy);
        Py_DECREF(t);
        return out;
    }
    int fortran = order == 'F';
    if (!force_copy && (a->flags & (fortran ? CA_F_CONTIGUOUS : CA_C_CONTIGUOUS))) {
        return ca_array_restride(a, 1, &n, &one, a->data);
    }
    CaArray *c = ca_array_copy(a, a->dtype, fortran ? 'F' : 'C');
    if (c == NULL) {
        return NULL;
    }
    CaArray *out = rewrap_copy(c, 1, &n, 0);
    Py_DECREF(c);
    return out;
}

/* ======================================================================== */
/* Axis permutations                                                         */
/* ======================================================================== */

static CaArray *
permute(CaArray *a, const int *perm)
{
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
    for (int i = 0; i < CA_NDIM(a); i++) {
        shape[i] = CA_SHAPE(a)[perm[i]];
        strides[i] = CA_STRIDES(a)[perm[i]];
    }
    return ca_array_restride(a, CA_NDIM(a), shape, strides, a->data);
}

/* NumPy converts transpose's axes to ints before it counts them: a str, float or
 * bool axis is a TypeError, one beyond intp a ValueError (not "axes don't match"
 * or OverflowError). */
static int
transpose_axes_are_ints(PyObject *seq)
{
    Py_ssize_t v;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
        if (ca_intp_from_object(PySequence_Fast_GET_ITEM(seq, i), &v) < 0) {
            return -1;
        }
    }
    return 0;
}

/* axes None (reverse), or a sequence that is a permutation of range(ndim). */
static CaArray *
transpose_impl(CaArray *a, PyObject *axes)
{
    int nd = CA_NDIM(a);
    int perm[CA_MAX_DIMS];

    if (axes == NULL || axes == Py_None) {
        for (int i = 0; i < nd; i++) {
            perm[i] = nd - 1 - i;
        }
        return permute(a, perm);
    }
    PyObject *seq = PySequence_Fast(axes, "axes must be a sequence of integers");
    if (seq == NULL) {
        return NULL;
    }
    if (transpose_axes_are_ints(seq) < 0) {
        Py_DECREF(seq);
        return NULL;
    }
    if (PySequence_Fast_GET_SIZE(seq) != nd) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "axes don't match array");
        return NULL;
    }
    int seen[CA_MAX_DIMS] = { 0 };
    for (int i = 0; i < nd; i++) {
        if (ca_axis_from_object(PySequence_Fast_GET_ITEM(seq, i), nd, &perm[i]) < 0) {
            Py_DECREF(seq);
            return NULL;
        }
        if (seen[perm[i]]++) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "repeated axis in transpose");
            return NULL;
        }
    }
    Py_DECREF(seq);
    return permute(a, perm);
}

static CaArray *
swapaxes_impl(CaArray *a, PyObject *o1, PyObject *o2)
{
    int nd = CA_NDIM(a), a1, a2;
    int perm[CA_MAX_DIMS];
    if (ca_axis_from_object(o1, nd, &a1) < 0 || ca_axis_from_object(o2, nd, &a2) < 0) {
        return NULL;
    }
    for (int i = 0; i < nd; i++) {
        perm[i] = i;
    }
    perm[a1] = a2;
    perm[a2] = a1;
    return permute(a, perm);
}

static CaArray *
moveaxis_impl(CaArray *a, PyObject *src, PyObject *dst)
{
    int nd = CA_NDIM(a);
    int s[CA_MAX_DIMS], d[CA_MAX_DIMS], perm[CA_MAX_DIMS];
    int ns = axes_from_object(src, nd, s, "repeated axis in `source` argument");
    if (ns < 0) {
        return NULL;
    }
    int ndst = axes_from_object(dst, nd, d, "repeated axis in `destination` argument");
    if (ndst < 0) {
        return NULL;
    }
    if (ns != ndst) {
        PyErr_SetString(PyExc_ValueError,
                        "`source` and `destination` arguments must have "
                        "the same number of elements");
        return NULL;
    }
    /* The axes not moved keep their order and fill the free slots. */
    int taken[CA_MAX_DIMS] = { 0 }, moved[CA_MAX_DIMS] = { 0 };
    for (int i = 0; i < nd; i++) {
        perm[i] = -1;
    }
    for (int i = 0; i < ns; i++) {
        perm[d[i]] = s[i];
        taken[d[i]] = 1;
        moved[s[i]] = 1;
    }
    int next = 0;
    for (int i = 0; i < nd; i++) {
        if (taken[i]) {
            continue;
        }
        while (moved[next]) {
            next++;
        }
        perm[i] = next++;
    }
    return permute(a, perm);
}

/* mask[i] = 1 for each axis `axis` names (an int or a sequence, no repeats).
 * Returns 1, mask untouched, for axis None or absent (every axis); 0 when mask
 * was set; -1 on error. */
static int
axes_mask(PyObject *axis, int nd, int *mask)
{
    if (axis == NULL || axis == Py_None) {
        return 1;
    }
    int axes[CA_MAX_DIMS];
    int n = axes_from_object(axis, nd, axes, "repeated axis");
    if (n < 0) {
        return -1;
    }
    for (int i = 0; i < n; i++) {
        mask[axes[i]] = 1;
    }
    return 0;
}

static CaArray *
squeeze_impl(CaArray *a, PyObject *axis)
{
    int nd = CA_NDIM(a);
    int drop[CA_MAX_DIMS] = { 0 };
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];

    const int all = axes_mask(axis, nd, drop);
    if (all < 0) {
        return NULL;
    }
    for (int i = 0; i < nd; i++) {
        if (all) {
            drop[i] = CA_SHAPE(a)[i] == 1;
        }
        else if (drop[i] && CA_SHAPE(a)[i] != 1) {
            PyErr_SetString(PyExc_ValueError, "cannot select an axis to squeeze out "
                                              "which has size not equal to one");
            return NULL;
        }
    }
    int k = 0;
    for (int i = 0; i < nd; i++) {
        if (!drop[i]) {
            shape[k] = CA_SHAPE(a)[i];
            strides[k] = CA_STRIDES(a)[i];
            k++;
        }
    }
    return ca_array_restride(a, k, shape, strides, a->data);
}

static CaArray *
expand_dims_impl(CaArray *a, PyObject *axis)
{
    int nd = CA_NDIM(a);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];

    /* The axes count in the result's dimensions. */
    Py_ssize_t n_new = 1;
    if (!PyIndex_Check(axis)) {
        n_new = PySequence_Size(axis);
        if (n_new < 0) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError,
                            "axis must be an integer or a tuple of integers");
            return NULL;
        }
    }
    if (nd + n_new > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays may have at most %d dimensions",
                     CA_MAX_DIMS);
        return NULL;
    }
    const int out_nd = nd + (int)n_new;
    int is_new[CA_MAX_DIMS] = { 0 };
    if (axes_mask(axis, out_nd, is_new) < 0) {
        return NULL;
    }
    for (int i = 0, k = 0; i < out_nd; i++) {
        shape[i] = is_new[i] ? 1 : CA_SHAPE(a)[k];
        strides[i] = is_new[i] ? 0 : CA_STRIDES(a)[k++];
    }
    return ca_array_restride(a, out_nd, shape, strides, a->data);
}

static CaArray *
flip_impl(CaArray *a, PyObject *axis)
{
    int nd = CA_NDIM(a);
    int flip[CA_MAX_DIMS] = { 0 };
    Py_ssize_t strides[CA_MAX_DIMS];
    char *data = a->data;

    const int all = axes_mask(axis, nd, flip);
    if (all < 0) {
        return NULL;
    }
    for (int i = 0; i < nd; i++) {
        strides[i] = CA_STRIDES(a)[i];
        if (all || flip[i]) {
            if (CA_SHAPE(a)[i] > 0 && a->size > 0) {
                data += (CA_SHAPE(a)[i] - 1) * strides[i];
            }
            strides[i] = -strides[i];
        }
    }
    return ca_array_restride(a, nd, CA_SHAPE(a), strides, data);
}

/* ======================================================================== */
/* Broadcasting                                                              */
/* ======================================================================== */

/* A view of a broadcast to (nd, shape), or ValueError. */
static CaArray *
broadcast_view(CaArray *a, int nd, const Py_ssize_t *shape)
{
    Py_ssize_t strides[CA_MAX_DIMS];
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 0) {
            PyErr_SetString(PyExc_ValueError,
                            "all elements of broadcast shape must be non-negative");
            return NULL;
        }
    }
    if (ca_broadcast_strides(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), nd, shape,
                             strides) < 0) {
        ca_two_shapes_error("cannot broadcast an array of shape %R to shape %R",
                            CA_NDIM(a), CA_SHAPE(a), nd, shape);
        return NULL;
    }
    return ca_array_restride(a, nd, shape, strides, a->data);
}

/* ======================================================================== */
/* Joining: concatenate, stack                                               */
/* ======================================================================== */

/* The list of input arrays (cuarray arrays only: no silent transfers; at least
 * one, else ValueError saying what could not be done: `verb`). */
static PyObject *
join_inputs(PyObject *arrays, const char *fname, const char *verb)
{
    PyObject *seq = PySequence_Fast(arrays, "arrays must be a sequence of arrays");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0) {
        PyErr_Format(PyExc_ValueError, "need at least one array to %s", verb);
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (!ca_array_check(o)) {
            PyErr_Format(PyExc_TypeError,
                         "%s: expected cuarray arrays, got '%.100s' at "
                         "index %zd (convert it with cuarray.asarray)",
                         fname, Py_TYPE(o)->tp_name, i);
            Py_DECREF(seq);
            return NULL;
        }
        if (!Py_IS_TYPE(o, ca_st->ndarray_type) && ca_dt_is(o)) {
            ca_dt_raise(o); /* the caller hands the call to cuarray._datetime */
            Py_DECREF(seq);
            return NULL;
        }
        if (((CaArray *)o)->device !=
            ((CaArray *)PySequence_Fast_GET_ITEM(seq, 0))->device) {
            PyErr_Format(PyExc_ValueError,
                         "%s: the arrays are on different devices "
                         "(index 0 and index %zd)",
                         fname, i);
            Py_DECREF(seq);
            return NULL;
        }
    }
    return seq;
}

/* The result dtype: dtype= if given, else NumPy's promotion of the inputs;
 * checks casting= for every input. */
static int
join_dtype(PyObject *seq, PyObject *dtype_obj, PyObject *casting_obj)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int dt;
    NPY_CASTING casting = NPY_SAME_KIND_CASTING;

    if (casting_obj != NULL && casting_obj != Py_None &&
        !PyArray_CastingConverter(casting_obj, &casting)) {
        return -1;
    }
    if (dtype_obj != NULL && dtype_obj != Py_None) {
        dt = ca_dtype_converter(dtype_obj, -1);
        if (dt < 0) {
            return -1;
        }
    }
    else {
        dt = ((CaArray *)PySequence_Fast_GET_ITEM(seq, 0))->dtype;
        for (Py_ssize_t i = 1; i < n; i++) {
            dt = ca_promote(dt, ((CaArray *)PySequence_Fast_GET_ITEM(seq, i))->dtype);
            if (dt < 0) {
                return -1;
            }
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int from = ((CaArray *)PySequence_Fast_GET_ITEM(seq, i))->dtype;
        if (!PyArray_CanCastTypeTo(ca_descr(from), ca_descr(dt), casting)) {
            static const char *const names[] = { "no", "equiv", "safe", "same_kind",
                                                 "unsafe" };
            int c = (int)casting;
            PyErr_Format(PyExc_TypeError,
                         "Cannot cast array data from dtype('%s') to "
                         "dtype('%s') according to the rule '%s'",
                         ca_dtype_name[from], ca_dtype_name[dt],
                         c >= 0 && c < 5 ? names[c] : "?");
            return -1;
        }
    }
    return dt;
}

/* The output: `out` if given (checked), else a new array. */
static CaArray *
join_output(PyObject *out_obj, int dtype, int nd, const Py_ssize_t *shape,
            CaArray *first)
{
    CaArray *o;
    if (ca_out_from_object(NULL, out_obj, first->device, &o) < 0 ||
        (o != NULL && ca_out_check_shape(NULL, o, nd, shape) < 0)) {
        return NULL;
    }
    if (o != NULL) {
        Py_INCREF(o);
        return o;
    }
    ca_memkind kind = first->device == CA_CPU         ? CA_MEM_HOST
                      : first->kind == CA_MEM_MANAGED ? CA_MEM_MANAGED
                                                      : CA_MEM_DEVICE;
    return ca_array_empty(dtype, nd, shape, 0, first->device, kind);
}

/* Copy src into out[..., off:off+len, ...] along `axis` (one strided
 * copy-and-cast). */
static int
assign_slab(CaArray *out, int axis, Py_ssize_t off, CaArray *src)
{
    if (src->size == 0) {
        return 0;
    }
    Py_ssize_t shape[CA_MAX_DIMS];
    int nd = CA_NDIM(out);
    memcpy(shape, CA_SHAPE(out), (size_t)nd * sizeof(Py_ssize_t));
    shape[axis] = CA_SHAPE(src)[axis];
    CaArray *dst = ca_array_restride(out, nd, shape, CA_STRIDES(out),
                                     out->data + off * CA_STRIDES(out)[axis]);
    if (dst == NULL) {
        return -1;
    }
    int rc = ca_assign(dst, src);
    Py_DECREF(dst);
    return rc;
}

/* The inputs raveled, as a new fast sequence (concatenate's axis=None). */
static PyObject *
ravel_all(PyObject *seq)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject *flat = PyList_New(n);
    if (flat == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *r = ravel_impl((CaArray *)PySequence_Fast_GET_ITEM(seq, i), 'C', 0);
        if (r == NULL) {
            Py_DECREF(flat);
            return NULL;
        }
        PyList_SET_ITEM(flat, i, (PyObject *)r);
    }
    return flat;
}

/* The joined shape: the first input's, with the inputs' lengths along `axis`
 * added up; every other dimension must match. */
static int
concat_shape(PyObject *seq, int axis, Py_ssize_t *shape)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    CaArray *first = (CaArray *)PySequence_Fast_GET_ITEM(seq, 0);
    const int nd = CA_NDIM(first);
    memcpy(shape, CA_SHAPE(first), (size_t)nd * sizeof(Py_ssize_t));
    for (Py_ssize_t i = 1; i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        if (CA_NDIM(x) != nd) {
            PyErr_Format(
                PyExc_ValueError,
                "all the input arrays must have same number of "
                "dimensions, but the array at index 0 has %d dimension(s) and the "
                "array at index %zd has %d dimension(s)",
                nd, i, CA_NDIM(x));
            return -1;
        }
        for (int d = 0; d < nd; d++) {
            if (d != axis && CA_SHAPE(x)[d] != shape[d]) {
                PyErr_Format(PyExc_ValueError,
                             "all the input array dimensions except for "
                             "the concatenation axis must match exactly, but along "
                             "dimension %d, the array at index 0 has size %zd and the "
                             "array at index %zd has size %zd",
                             d, shape[d], i, CA_SHAPE(x)[d]);
                return -1;
            }
        }
        shape[axis] += CA_SHAPE(x)[axis];
    }
    return 0;
}

/* The joining copies as ca_copy_pieces launches (one per CA_COPY_MAX_PIECES
 * inputs) when every input is C-contiguous, of out's dtype and memory kind, and
 * out is a fresh C-ordered array: input i is `outer` rows of its own bytes along
 * `axis`, landing at its offset in each of out's rows. 1 when it does not apply
 * (nothing done), 0 done, -1 with an exception. */
static int
join_pieces(CaArray *out, PyObject *seq, int axis)
{
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const int nd = CA_NDIM(out);
    if (!(out->flags & CA_C_CONTIGUOUS)) {
        return 1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        if (x->dtype != out->dtype || x->kind != out->kind ||
            !(x->flags & CA_C_CONTIGUOUS)) {
            return 1;
        }
    }
    int64_t outer = 1, inner = out->itemsize;
    for (int d = 0; d < axis; d++) {
        outer *= CA_SHAPE(out)[d];
    }
    for (int d = axis + 1; d < nd; d++) {
        inner *= CA_SHAPE(out)[d];
    }
    if (out->size == 0) {
        return 0;
    }
    if (ca_use_device(out->device) < 0) {
        return -1;
    }
    const int64_t pitch = CA_SHAPE(out)[axis] * inner;
    ca_copy_piece p[CA_COPY_MAX_PIECES];
    int np = 0;
    int64_t off = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        const int64_t row = CA_SHAPE(x)[axis] * inner;
        if (row > 0) {
            p[np].dst = out->data + off;
            p[np].src = x->data;
            p[np].rows = outer;
            p[np].row_bytes = row;
            p[np].dst_pitch = pitch;
            p[np].src_pitch = row;
            np++;
        }
        off += row;
        if (np == CA_COPY_MAX_PIECES || (i == n - 1 && np > 0)) {
            if (ca_run_copy_pieces(out->device, p, np, ca_current_stream(out->device)) <
                0) {
                return -1;
            }
            np = 0;
        }
    }
    return 0;
}

static PyObject *
concatenate_impl(PyObject *arrays, PyObject *axis_obj, PyObject *out_obj,
                 PyObject *dtype_obj, PyObject *casting_obj, const char *fname)
{
    PyObject *seq = NULL, *flat = NULL;
    CaArray *out = NULL;
    Py_ssize_t shape[CA_MAX_DIMS];

    seq = join_inputs(arrays, fname, "concatenate");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (axis_obj == Py_None) {
        /* axis=None: the raveled inputs, joined. */
        flat = ravel_all(seq);
        Py_SETREF(seq, flat != NULL ? PySequence_Fast(flat, "") : NULL);
        if (seq == NULL) {
            goto error;
        }
    }
    CaArray *first = (CaArray *)PySequence_Fast_GET_ITEM(seq, 0);
    int nd = CA_NDIM(first);
    if (nd == 0) {
        PyErr_SetString(PyExc_ValueError,
                        "zero-dimensional arrays cannot be concatenated");
        goto error;
    }
    int axis = 0;
    if ((axis_obj != NULL && axis_obj != Py_None &&
         ca_axis_from_object(axis_obj, nd, &axis) < 0) ||
        concat_shape(seq, axis, shape) < 0) {
        goto error;
    }
    int dt = join_dtype(seq, dtype_obj, casting_obj);
    if (dt < 0) {
        goto error;
    }
    out = join_output(out_obj, dt, nd, shape, first);
    if (out == NULL) {
        goto error;
    }
    /* a fresh output overlaps no input: the pieces copy straight in */
    int rc = out_obj == NULL || out_obj == Py_None ? join_pieces(out, seq, axis) : 1;
    if (rc < 0) {
        goto error;
    }
    Py_ssize_t off = 0;
    for (Py_ssize_t i = 0; rc == 1 && i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        if (assign_slab(out, axis, off, x) < 0) {
            goto error;
        }
        off += CA_SHAPE(x)[axis];
    }
    Py_DECREF(seq);
    Py_XDECREF(flat);
    return (PyObject *)out;
error:
    Py_XDECREF(seq);
    Py_XDECREF(flat);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *
stack_impl(PyObject *arrays, PyObject *axis_obj, PyObject *out_obj, PyObject *dtype_obj,
           PyObject *casting_obj)
{
    PyObject *seq = NULL;
    CaArray *out = NULL;

    seq = join_inputs(arrays, "stack", "stack");
    if (seq == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    CaArray *first = (CaArray *)PySequence_Fast_GET_ITEM(seq, 0);
    int nd = CA_NDIM(first);
    for (Py_ssize_t i = 1; i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        if (!ca_same_shape(CA_NDIM(x), CA_SHAPE(x), nd, CA_SHAPE(first))) {
            PyErr_SetString(PyExc_ValueError,
                            "all input arrays must have the same shape");
            goto error;
        }
    }
    if (nd + 1 > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "arrays may have at most %d dimensions",
                     CA_MAX_DIMS);
        goto error;
    }
    int axis = 0;
    if (axis_obj != NULL && ca_axis_from_object(axis_obj, nd + 1, &axis) < 0) {
        goto error;
    }
    Py_ssize_t shape[CA_MAX_DIMS];
    for (int d = 0, k = 0; d < nd + 1; d++) {
        shape[d] = d == axis ? n : CA_SHAPE(first)[k++];
    }
    int dt = join_dtype(seq, dtype_obj, casting_obj);
    if (dt < 0) {
        goto error;
    }
    out = join_output(out_obj, dt, nd + 1, shape, first);
    if (out == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *x = (CaArray *)PySequence_Fast_GET_ITEM(seq, i);
        if (x->size == 0) {
            continue;
        }
        /* out[(:,)*axis, i] as an array of x's shape. */
        Py_ssize_t sh[CA_MAX_DIMS], st[CA_MAX_DIMS];
        for (int d = 0, k = 0; d < nd + 1; d++) {
            if (d != axis) {
                sh[k] = CA_SHAPE(out)[d];
                st[k] = CA_STRIDES(out)[d];
                k++;
            }
        }
        CaArray *dst =
            ca_array_restride(out, nd, sh, st, out->data + i * CA_STRIDES(out)[axis]);
        if (dst == NULL) {
            goto error;
        }
        int rc = ca_assign(dst, x);
        Py_DECREF(dst);
        if (rc < 0) {
            goto error;
        }
    }
    Py_DECREF(seq);
    return (PyObject *)out;
error:
    Py_XDECREF(seq);
    Py_XDECREF(out);
    return NULL;
}

/* ======================================================================== */
/* view(dtype)                                                               */
/* ======================================================================== */

static CaArray *
view_dtype_impl(CaArray *a, PyObject *dtype_obj)
{
    int nd = CA_NDIM(a);
    Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];

    if (dtype_obj == NULL || dtype_obj == Py_None ||
        (PyType_Check(dtype_obj) &&
         PyType_IsSubtype((PyTypeObject *)dtype_obj, ca_st->ndarray_type))) {
        return ca_array_restride(a, nd, CA_SHAPE(a), CA_STRIDES(a), a->data);
    }
    int dt = ca_dtype_converter(dtype_obj, -1);
    if (dt < 0) {
        return NULL;
    }
    int old = a->itemsize, new_ = ca_dtype_size[dt];
    memcpy(shape, CA_SHAPE(a), (size_t)nd * sizeof(Py_ssize_t));
    memcpy(strides, CA_STRIDES(a), (size_t)nd * sizeof(Py_ssize_t));
    if (new_ != old) {
        if (nd == 0) {
            PyErr_SetString(PyExc_ValueError,
                            "Changing the dtype of a 0d array is only "
                            "supported if the itemsize is unchanged");
            return NULL;
        }
        Py_ssize_t last = shape[nd - 1];
        if (last != 1 && strides[nd - 1] != old && a->size != 0) {
            PyErr_SetString(PyExc_ValueError,
                            "To change to a dtype of a different size, "
                            "the last axis must be contiguous");
            return NULL;
        }
        if (new_ < old) {
            if (old % new_ != 0) {
                PyErr_SetString(PyExc_ValueError,
                                "When changing to a smaller dtype, its "
                                "size must be a divisor of the size of original dtype");
                return NULL;
            }
        }
        else if ((last * old) % new_ != 0) {
            PyErr_SetString(PyExc_ValueError,
                            "When changing to a larger dtype, its size "
                            "must be a divisor of the total size in bytes of the last "
                            "axis of the array.");
            return NULL;
        }
        shape[nd - 1] = last * old / new_;
        strides[nd - 1] = new_;
    }
    /* Kernels load elements with their natural alignment (8 at most); a view
     * that breaks it would fault on the GPU, so it is refused everywhere. */
    Py_ssize_t align = new_ < 8 ? new_ : 8;
    /* an empty view's pointer addresses nothing */
    if (!ca_layout_aligned(a->size == 0 ? NULL : a->data, nd, shape, strides, align)) {
        PyErr_Format(PyExc_ValueError,
                     "a view as %s would not be aligned to %zd bytes "
                     "(cuarray needs aligned elements)",
                     ca_dtype_name[dt], align);
        return NULL;
    }
    return ca_array_view(a, dt, nd, shape, strides, a->data);
}

/* ======================================================================== */
/* Python entry points                                                       */
/* ======================================================================== */

/* shape given as `*shape` (ints) or one sequence. */
static int
shape_from_args(PyObject *args, Py_ssize_t start, Py_ssize_t *shape)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args) - start;
    if (n == 1) {
        return shape_from_object(PyTuple_GET_ITEM(args, start), shape);
    }
    PyObject *rest = PyTuple_GetSlice(args, start, PyTuple_GET_SIZE(args));
    if (rest == NULL) {
        return -1;
    }
    int nd = shape_from_object(rest, shape);
    Py_DECREF(rest);
    return nd;
}

static int
kw_only(PyObject *kwargs, const char *const *names, PyObject **out, const char *fname)
{
    for (int i = 0; names[i] != NULL; i++) {
        out[i] = NULL;
    }
    if (kwargs == NULL) {
        return 0;
    }
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (PyDict_Next(kwargs, &pos, &k, &v)) {
        int found = 0;
        for (int i = 0; names[i] != NULL; i++) {
            if (PyUnicode_Check(k) &&
                PyUnicode_CompareWithASCIIString(k, names[i]) == 0) {
                out[i] = v;
                found = 1;
                break;
            }
        }
        if (!found) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R",
                         fname, k);
            return -1;
        }
    }
    return 0;
}

static PyObject *
Ndarray_reshape(CaArray *self, PyObject *args, PyObject *kwargs)
{
    static const char *const names[] = { "order", "copy", "shape", NULL };
    PyObject *kw[3];
    Py_ssize_t shape[CA_MAX_DIMS];
    char order;
    int copy, nd;

    if (kw_only(kwargs, names, kw, "reshape") < 0 ||
        order_from_object(kw[0], 'C', "CFA", &order) < 0 ||
        ((copy = ca_copy_from_object(kw[1], -1)) == -1 && PyErr_Occurred())) {
        return NULL;
    }
    if (kw[2] != NULL) {
        if (PyTuple_GET_SIZE(args) != 0) {
            PyErr_SetString(PyExc_TypeError, "reshape() got shape both by position and "
                                             "by keyword");
            return NULL;
        }
        nd = shape_from_object(kw[2], shape);
    }
    else if (PyTuple_GET_SIZE(args) == 0) {
        PyErr_SetString(PyExc_TypeError,
                        "reshape() takes exactly 1 argument (0 given)");
        return NULL;
    }
    else if (PyTuple_GET_SIZE(args) == 1 && PyTuple_GET_ITEM(args, 0) == Py_None) {
        nd = CA_NDIM(self); /* NumPy: reshape(None) keeps the shape */
        memcpy(shape, CA_SHAPE(self), (size_t)nd * sizeof(Py_ssize_t));
    }
    else {
        nd = shape_from_args(args, 0, shape);
    }
    if (nd < 0) {
        return NULL;
    }
    return (PyObject *)reshape_impl(self, nd, shape, order, copy);
}

/* a.ravel(order) (copy 0: a view when possible) and a.flatten(order) (copy 1);
 * format names the method for PyArg's messages. */
static PyObject *
ravel_method(CaArray *self, PyObject *args, PyObject *kwargs, const char *format,
             int copy)
{
    static char *kwlist[] = { "order", NULL };
    PyObject *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, &order_obj) ||
        order_from_object(order_obj, 'C', "CFAK", &order) < 0) {
        return NULL;
    }
    return (PyObject *)ravel_impl(self, order, copy);
}

#define RAVEL_METHOD(fn, format, copy)                                                 \
    static PyObject *fn(CaArray *self, PyObject *args, PyObject *kwargs)               \
    {                                                                                  \
        return ravel_method(self, args, kwargs, format, copy);                         \
    }
RAVEL_METHOD(Ndarray_ravel, "|O:ravel", 0)
RAVEL_METHOD(Ndarray_flatten, "|O:flatten", 1)

static PyObject *
Ndarray_transpose(CaArray *self, PyObject *args)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    if (n == 0) {
        return (PyObject *)transpose_impl(self, NULL);
    }
    if (n == 1) {
        PyObject *o = PyTuple_GET_ITEM(args, 0);
        if (o == Py_None || !PyIndex_Check(o)) {
            return (PyObject *)transpose_impl(self, o);
        }
    }
    return (PyObject *)transpose_impl(self, args);
}

static PyObject *
Ndarray_swapaxes(CaArray *self, PyObject *args)
{
    PyObject *a1, *a2;
    if (!PyArg_ParseTuple(args, "OO:swapaxes", &a1, &a2)) {
        return NULL;
    }
    return (PyObject *)swapaxes_impl(self, a1, a2);
}

static PyObject *
Ndarray_squeeze(CaArray *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "axis", NULL };
    PyObject *axis = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:squeeze", kwlist, &axis)) {
        return NULL;
    }
    return (PyObject *)squeeze_impl(self, axis);
}

static PyObject *
Ndarray_view(CaArray *self, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "dtype", "type", NULL };
    PyObject *dtype = NULL, *type = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OO:view", kwlist, &dtype, &type)) {
        return NULL;
    }
    if (type != NULL && type != Py_None &&
        !(PyType_Check(type) &&
          PyType_IsSubtype((PyTypeObject *)type, ca_st->ndarray_type))) {
        PyErr_SetString(PyExc_TypeError,
                        "view: type must be cuarray.ndarray or a subclass of it");
        return NULL;
    }
    if ((type == NULL || type == Py_None) && dtype != NULL && PyType_Check(dtype) &&
        PyType_IsSubtype((PyTypeObject *)dtype, ca_st->ndarray_type)) {
        type = dtype; /* a.view(Subclass), as NumPy's */
    }
    CaArray *v = view_dtype_impl(self, dtype);
    if (v == NULL) { /* as datetime64: cuarray._datetime.view(a, dtype, type) */
        PyObject *w[2] = { dtype != NULL ? dtype : Py_None,
                           type != NULL ? type : Py_None };
        return ca_dt_retry_self(NULL, "view", (PyObject *)self, w, 2, NULL);
    }
    if (v != NULL && type != NULL && type != Py_None) {
        v = ca_array_as_type(v, (PyTypeObject *)type, (PyObject *)self);
    }
    return (PyObject *)v;
}

#define DOC_M_RAVEL                                                                    \
    "ravel(order='C')\n--\n\nThe array as 1-D: a view when contiguous in that order, " \
    "else a copy."
#define DOC_M_TRANSPOSE                                                                \
    "transpose(*axes)\n--\n\nA view with the axes permuted (reversed by default)."
#define DOC_M_SWAPAXES                                                                 \
    "swapaxes(axis1, axis2)\n--\n\nA view with two axes interchanged."
#define DOC_M_VIEW                                                                     \
    "view(dtype=None, type=None)\n--\n\n"                                              \
    "A view of the same memory, optionally as another dtype. With a different item\n"  \
    "size the last axis must be contiguous and is rescaled (NumPy's rules); the\n"     \
    "elements must also stay aligned."

PyMethodDef ca_manip_array_methods[] = {
    { "reshape", (PyCFunction)(void (*)(void))Ndarray_reshape,
      METH_VARARGS | METH_KEYWORDS,
      "reshape(*shape, order='C', copy=None)\n--\n\n"
      "The array with a new shape (one dimension may be -1): a view when the strides\n"
      "allow, else a copy (copy=False raises instead, copy=True always copies)." },
    { "ravel", (PyCFunction)(void (*)(void))Ndarray_ravel, METH_VARARGS | METH_KEYWORDS,
      DOC_M_RAVEL },
    { "flatten", (PyCFunction)(void (*)(void))Ndarray_flatten,
      METH_VARARGS | METH_KEYWORDS,
      "flatten(order='C')\n--\n\nA 1-D copy of the array." },
    { "transpose", (PyCFunction)Ndarray_transpose, METH_VARARGS, DOC_M_TRANSPOSE },
    { "swapaxes", (PyCFunction)Ndarray_swapaxes, METH_VARARGS, DOC_M_SWAPAXES },
    { "squeeze", (PyCFunction)(void (*)(void))Ndarray_squeeze,
      METH_VARARGS | METH_KEYWORDS,
      "squeeze(axis=None)\n--\n\nA view without the given (default: all) size-1 "
      "axes." },
    { "view", (PyCFunction)(void (*)(void))Ndarray_view, METH_VARARGS | METH_KEYWORDS,
      DOC_M_VIEW },
    { NULL, NULL, 0, NULL },
};

/* ---- module functions ------------------------------------------------------- */

/* r (a module function's result), after releasing its asarray() operand a. */
static PyObject *
release_array(CaArray *a, PyObject *r)
{
    Py_DECREF(a);
    return r;
}

static PyObject *
mod_reshape(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "a", "shape", "order", "newshape", "copy", NULL };
    PyObject *a_obj, *shape_obj = NULL, *order_obj = NULL, *newshape = NULL,
                     *copy_obj = NULL;
    Py_ssize_t shape[CA_MAX_DIMS];
    char order;
    int copy;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO$OO:reshape", kwlist, &a_obj,
                                     &shape_obj, &order_obj, &newshape, &copy_obj)) {
        return NULL;
    }
    if (shape_obj == NULL && newshape == NULL) {
        PyErr_SetString(PyExc_TypeError, "reshape() missing required argument 'shape'");
        return NULL;
    }
    if (shape_obj == NULL || (shape_obj == Py_None && newshape != NULL)) {
        shape_obj = newshape;
    }
    if (order_from_object(order_obj, 'C', "CFA", &order) < 0 ||
        ((copy = ca_copy_from_object(copy_obj, -1)) == -1 && PyErr_Occurred())) {
        return NULL;
    }
    CaArray *a = as_array(a_obj);
    if (a == NULL) {
        return NULL;
    }
    /* NumPy: a shape of None keeps the array's shape */
    int nd = shape_obj == Py_None ? CA_NDIM(a) : shape_from_object(shape_obj, shape);
    if (shape_obj == Py_None) {
        memcpy(shape, CA_SHAPE(a), (size_t)nd * sizeof(Py_ssize_t));
    }
    if (nd < 0) {
        Py_DECREF(a);
        return NULL;
    }
    return release_array(a, (PyObject *)reshape_impl(a, nd, shape, order, copy));
}

static PyObject *
mod_ravel(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "a", "order", NULL };
    PyObject *a_obj, *order_obj = NULL;
    char order;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:ravel", kwlist, &a_obj,
                                     &order_obj) ||
        order_from_object(order_obj, 'C', "CFAK", &order) < 0) {
        return NULL;
    }
    CaArray *a = as_array(a_obj);
    return a == NULL ? NULL : release_array(a, (PyObject *)ravel_impl(a, order, 0));
}

/* f(asarray(a_obj), x[, y]) for the module functions that take one array. */
static PyObject *
on_array1(PyObject *a_obj, CaArray *(*f)(CaArray *, PyObject *), PyObject *x)
{
    CaArray *a = as_array(a_obj);
    return a == NULL ? NULL : release_array(a, (PyObject *)f(a, x));
}

static PyObject *
on_array2(PyObject *a_obj, CaArray *(*f)(CaArray *, PyObject *, PyObject *),
          PyObject *x, PyObject *y)
{
    CaArray *a = as_array(a_obj);
    return a == NULL ? NULL : release_array(a, (PyObject *)f(a, x, y));
}

/* The module functions that parse (array, x) or (array, x, y) by keyword and call
 * IMPL on asarray(array): one definition each, as a table (FMT: PyArg's format for
 * the arguments, e.g. "O|O" where x is optional). */
#define ARRAY_FUNCTION1(NAME, IMPL, FMT, ARRAY, X)                                     \
    static PyObject *mod_##NAME(PyObject *m, PyObject *args, PyObject *kwargs)         \
    {                                                                                  \
        static char *kwlist[] = { ARRAY, X, NULL };                                    \
        PyObject *a_obj, *x = NULL;                                                    \
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, FMT ":" #NAME, kwlist, &a_obj,  \
                                         &x)) {                                        \
            return NULL;                                                               \
        }                                                                              \
        return on_array1(a_obj, IMPL, x);                                              \
    }
#define ARRAY_FUNCTION2(NAME, IMPL, ARRAY, X, Y)                                       \
    static PyObject *mod_##NAME(PyObject *m, PyObject *args, PyObject *kwargs)         \
    {                                                                                  \
        static char *kwlist[] = { ARRAY, X, Y, NULL };                                 \
        PyObject *a_obj, *x, *y;                                                       \
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOO:" #NAME, kwlist, &a_obj,   \
                                         &x, &y)) {                                    \
            return NULL;                                                               \
        }                                                                              \
        return on_array2(a_obj, IMPL, x, y);                                           \
    }

ARRAY_FUNCTION1(transpose, transpose_impl, "O|O", "a", "axes")
ARRAY_FUNCTION1(permute_dims, transpose_impl, "O|O", "a", "axes")
ARRAY_FUNCTION1(squeeze, squeeze_impl, "O|O", "a", "axis")
ARRAY_FUNCTION1(expand_dims, expand_dims_impl, "OO", "a", "axis")
ARRAY_FUNCTION1(flip, flip_impl, "O|O", "m", "axis")
ARRAY_FUNCTION2(swapaxes, swapaxes_impl, "a", "axis1", "axis2")
ARRAY_FUNCTION2(moveaxis, moveaxis_impl, "a", "source", "destination")

static PyObject *
mod_broadcast_to(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "array", "shape", NULL };
    PyObject *a_obj, *shape_obj;
    Py_ssize_t shape[CA_MAX_DIMS];
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:broadcast_to", kwlist, &a_obj,
                                     &shape_obj)) {
        return NULL;
    }
    int nd = shape_from_object(shape_obj, shape);
    if (nd < 0) {
        return NULL;
    }
    CaArray *a = as_array(a_obj);
    if (a == NULL) {
        return NULL;
    }
    CaArray *out = broadcast_view(a, nd, shape);
    Py_DECREF(a);
    if (out != NULL) {
        /* As NumPy: several elements may share memory, so writing is refused. */
        out->flags = (out->flags & ~CA_WRITEABLE) | CA_NEVER_WRITEABLE;
    }
    return (PyObject *)out;
}

static PyObject *
mod_broadcast_shapes(PyObject *m, PyObject *args)
{
    Py_ssize_t out[CA_MAX_DIMS], shape[CA_MAX_DIMS];
    int out_nd = 0;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(args); i++) {
        int nd = shape_from_object(PyTuple_GET_ITEM(args, i), shape);
        if (nd < 0) {
            return NULL;
        }
        if (ca_broadcast_into(&out_nd, out, nd, shape) < 0) {
            PyErr_SetString(PyExc_ValueError, "shape mismatch: objects cannot be "
                                              "broadcast to a single shape");
            return NULL;
        }
    }
    return ca_shape_tuple(out_nd, out);
}

static PyObject *
mod_broadcast_arrays(PyObject *m, PyObject *args, PyObject *kwargs)
{
    Py_ssize_t n = PyTuple_GET_SIZE(args);
    Py_ssize_t shape[CA_MAX_DIMS];
    int nd = 0;
    PyObject *arrays = NULL, *out = NULL;

    if (kwargs != NULL && PyDict_GET_SIZE(kwargs) > 0) {
        PyErr_SetString(PyExc_TypeError,
                        "broadcast_arrays() takes no keyword arguments");
        return NULL;
    }
    arrays = PyTuple_New(n);
    out = PyTuple_New(n);
    if (arrays == NULL || out == NULL) {
        goto error;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *a = as_array(PyTuple_GET_ITEM(args, i));
        if (a == NULL) {
            goto error;
        }
        PyTuple_SET_ITEM(arrays, i, (PyObject *)a);
        if (a->device != ((CaArray *)PyTuple_GET_ITEM(arrays, 0))->device) {
            PyErr_SetString(PyExc_ValueError, "broadcast_arrays: the arrays are on "
                                              "different devices");
            goto error;
        }
        if (ca_broadcast_into(&nd, shape, CA_NDIM(a), CA_SHAPE(a)) < 0) {
            PyErr_SetString(PyExc_ValueError, "shape mismatch: objects cannot be "
                                              "broadcast to a single shape");
            goto error;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        CaArray *a = (CaArray *)PyTuple_GET_ITEM(arrays, i);
        PyObject *r = ca_same_shape(CA_NDIM(a), CA_SHAPE(a), nd, shape)
                          ? Py_NewRef((PyObject *)a)
                          : (PyObject *)broadcast_view(a, nd, shape);
        if (r == NULL) {
            goto error;
        }
        PyTuple_SET_ITEM(out, i, r);
    }
    Py_DECREF(arrays);
    return out;
error:
    Py_XDECREF(arrays);
    Py_XDECREF(out);
    return NULL;
}

static PyObject *
mod_concatenate(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "arrays", "axis", "out", "dtype", "casting", NULL };
    PyObject *arrays, *axis = NULL, *out = NULL, *dtype = NULL, *casting = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO$OO:concatenate", kwlist,
                                     &arrays, &axis, &out, &dtype, &casting)) {
        return NULL;
    }
    if (out != NULL && out != Py_None && dtype != NULL && dtype != Py_None) {
        PyErr_SetString(PyExc_TypeError, "concatenate() only takes `out` or `dtype` as "
                                         "an argument, but both were provided.");
        return NULL;
    }
    return ca_dt_retry_tuple(
        concatenate_impl(arrays, axis, out, dtype, casting, "concatenate"),
        "concatenate", args, kwargs);
}

static PyObject *
mod_concat(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "arrays", "axis", NULL };
    PyObject *arrays, *axis = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|$O:concat", kwlist, &arrays,
                                     &axis)) {
        return NULL;
    }
    return ca_dt_retry_tuple(concatenate_impl(arrays, axis, NULL, NULL, NULL, "concat"),
                             "concatenate", args, kwargs);
}

static PyObject *
mod_stack(PyObject *m, PyObject *args, PyObject *kwargs)
{
    static char *kwlist[] = { "arrays", "axis", "out", "dtype", "casting", NULL };
    PyObject *arrays, *axis = NULL, *out = NULL, *dtype = NULL, *casting = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|OO$OO:stack", kwlist, &arrays,
                                     &axis, &out, &dtype, &casting)) {
        return NULL;
    }
    return ca_dt_retry_tuple(stack_impl(arrays, axis, out, dtype, casting), "stack",
                             args, kwargs);
}

/* _tri_copy(m, k, lower): tril (lower true) or triu of m (ndim >= 2) as one
 * kernel: a new C-ordered array, m's elements where col - row <= k (>= k for
 * triu) along the last two axes, zeros elsewhere. */
static PyObject *
mod_tri_copy(PyObject *mod, PyObject *const *args, Py_ssize_t nargs)
{
    (void)mod;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_tri_copy(m, k, lower) takes 3 arguments");
        return NULL;
    }
    CaArray *a = ca_require_array("_tri_copy", args[0]);
    if (a == NULL) {
        return NULL;
    }
    /* OverflowError past int64, as NumPy's arange(-k, M - k) */
    long long k = PyLong_AsLongLong(args[1]);
    if (k == -1 && PyErr_Occurred()) {
        return NULL;
    }
    const int lower = PyObject_IsTrue(args[2]);
    if (lower < 0) {
        return NULL;
    }
    const int nd = CA_NDIM(a);
    if (nd < 2) {
        PyErr_SetString(PyExc_ValueError, "_tri_copy needs at least two dimensions");
        return NULL;
    }
    /* col - row lies in [-(M - 1), N - 1]: k clamped to [-M, N] keeps the answer */
    const long long rows = CA_SHAPE(a)[nd - 2], cols = CA_SHAPE(a)[nd - 1];
    if (k > cols) {
        k = cols;
    }
    if (k < -rows) {
        k = -rows;
    }
    if (a->device != CA_CPU && ca_use_device(a->device) < 0) {
        return NULL;
    }
    ca_memkind kind = a->device == CA_CPU         ? CA_MEM_HOST
                      : a->kind == CA_MEM_MANAGED ? CA_MEM_MANAGED
                                                  : CA_MEM_DEVICE;
    CaArray *out = ca_array_empty(a->dtype, nd, CA_SHAPE(a), 0, a->device, kind);
    if (out == NULL || out->size == 0) {
        return (PyObject *)out;
    }
    ca_strided s;
    memset(&s, 0, sizeof s);
    s.ndim = nd;
    s.nops = 2;
    s.data[0] = out->data;
    s.data[1] = a->data;
    for (int d = 0; d < nd; d++) {
        s.shape[d] = CA_SHAPE(a)[d];
        s.strides[0][d] = CA_STRIDES(out)[d];
        s.strides[1][d] = CA_STRIDES(a)[d];
    }
    if (ca_run_tri_copy(a->device, &s, a->itemsize, (int64_t)k, lower,
                        ca_current_stream(a->device)) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

#define CA_KW(f) (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

#define DOC_RESHAPE                                                                    \
    "reshape(a, /, shape=None, order='C', *, newshape=None, copy=None)\n--\n\n"        \
    "Gives a new shape to an array: a view when the strides allow, else a copy."
#define DOC_RAVEL                                                                      \
    "ravel(a, order='C')\n--\n\nThe array as 1-D: a view when possible, else a "       \
    "copy."
#define DOC_TRANSPOSE "transpose(a, axes=None)\n--\n\nA view with the axes permuted."
#define DOC_PERMUTE_DIMS                                                               \
    "permute_dims(a, axes=None)\n--\n\nA view with the axes permuted (Array API; "     \
    "NumPy's spelling: axes=None reverses them)."
#define DOC_SWAPAXES                                                                   \
    "swapaxes(a, axis1, axis2)\n--\n\nA view with two axes interchanged."
#define DOC_MOVEAXIS                                                                   \
    "moveaxis(a, source, destination)\n--\n\nA view with axes moved to new "           \
    "positions."
#define DOC_SQUEEZE "squeeze(a, axis=None)\n--\n\nA view without size-1 axes."
#define DOC_EXPAND_DIMS                                                                \
    "expand_dims(a, axis)\n--\n\nA view with size-1 axes inserted at `axis`."
#define DOC_FLIP                                                                       \
    "flip(m, axis=None)\n--\n\nA view with the order of elements reversed along the "  \
    "axes (negative strides)."
#define DOC_BROADCAST_TO                                                               \
    "broadcast_to(array, shape)\n--\n\nA read-only view broadcast to `shape`."
#define DOC_BROADCAST_ARRAYS                                                           \
    "broadcast_arrays(*args)\n--\n\nA tuple of the arrays broadcast against each "     \
    "other "                                                                           \
    "(views; arrays already of the common shape are returned as they are)."
#define DOC_BROADCAST_SHAPES                                                           \
    "broadcast_shapes(*shapes)\n--\n\nThe shape the given shapes broadcast to."
#define DOC_CONCATENATE                                                                \
    "concatenate(arrays, /, axis=0, out=None, *, dtype=None, "                         \
    "casting='same_kind')\n--\n\n"                                                     \
    "Join arrays along an existing axis (axis=None: the raveled arrays). The "         \
    "result's\n"                                                                       \
    "dtype is NumPy's promotion of the inputs. All arrays must be on one device."
#define DOC_CONCAT                                                                     \
    "concat(arrays, /, *, axis=0)\n--\n\nJoin arrays along an existing axis (Array "   \
    "API)."
#define DOC_TRI_COPY                                                                   \
    "_tri_copy(m, k, lower)\n--\n\ntril (lower) or triu of m (ndim >= 2) in one "      \
    "kernel."
#define DOC_STACK                                                                      \
    "stack(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')\n--\n\n"      \
    "Join arrays of one shape along a new axis."

static PyMethodDef manip_functions[] = {
    { "reshape", CA_KW(mod_reshape), DOC_RESHAPE },
    { "ravel", CA_KW(mod_ravel), DOC_RAVEL },
    { "transpose", CA_KW(mod_transpose), DOC_TRANSPOSE },
    { "permute_dims", CA_KW(mod_permute_dims), DOC_PERMUTE_DIMS },
    { "swapaxes", CA_KW(mod_swapaxes), DOC_SWAPAXES },
    { "moveaxis", CA_KW(mod_moveaxis), DOC_MOVEAXIS },
    { "squeeze", CA_KW(mod_squeeze), DOC_SQUEEZE },
    { "expand_dims", CA_KW(mod_expand_dims), DOC_EXPAND_DIMS },
    { "flip", CA_KW(mod_flip), DOC_FLIP },
    { "broadcast_to", CA_KW(mod_broadcast_to), DOC_BROADCAST_TO },
    { "broadcast_arrays", CA_KW(mod_broadcast_arrays), DOC_BROADCAST_ARRAYS },
    { "broadcast_shapes", (PyCFunction)mod_broadcast_shapes, METH_VARARGS,
      DOC_BROADCAST_SHAPES },
    { "concatenate", CA_KW(mod_concatenate), DOC_CONCATENATE },
    { "concat", CA_KW(mod_concat), DOC_CONCAT },
    { "_tri_copy", (PyCFunction)(void (*)(void))mod_tri_copy, METH_FASTCALL,
      DOC_TRI_COPY },
    { "stack", CA_KW(mod_stack), DOC_STACK },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(manip, manip_functions)

/*
 * index.c: ndarray.__getitem__ and __setitem__ (the type's mp_subscript and
 * mp_ass_subscript slots, handed to ndarray.c through ca_index_slots).
 *
 * Basic indexing (integers, slices, Ellipsis, None and tuples of them) returns a
 * view built straight from the key: no temporary Python objects, no device work,
 * no synchronization. A 0-d result stays a 0-d array (as CuPy; NumPy would return
 * a scalar, which would need the value on the host).
 *
 * Advanced indexing (integer arrays, lists, NumPy arrays, boolean masks) gathers
 * into a new array or scatters into the indexed one, with NumPy's rules for the
 * result's shape (index arrays broadcast together; their dimensions go where the
 * first one was when they are adjacent, first otherwise; integers beside index
 * arrays count as index arrays for that rule).
 *
 * Where this synchronizes with the device, and why:
 * - Integer index arrays: every index is checked against its axis in the kernel,
 *   which records an offender in a flag in device memory; reading the flag back
 *   waits for the stream, so that an out-of-range index raises IndexError (as
 *   NumPy) instead of reading or writing out of bounds. For assignment the check
 *   runs before anything is written, so a failed assignment changes nothing.
 * - Boolean masks: the result's size is the number of true elements, which must
 *   be known on the host to allocate it, so counting them waits for the stream.
 *   The exception is `a[mask] = scalar` (one mask, a scalar value): a masked
 *   fill that never synchronizes.
 * - Basic indexing and assignment through basic indexing never synchronize.
 */
#include "cuarray.h"
#include "launch.h"
#include "watch.h"
#include "device_flag.h"

/* ======================================================================== */
/* Parsed index items                                                        */
/* ======================================================================== */

enum {
    IT_INT,   /* an integer: value in start */
    IT_SLICE, /* start, stop, step from PySlice_Unpack */
    IT_NEW,   /* None */
    IT_ELL,   /* Ellipsis */
    IT_ARR,   /* an integer index array (int64, on the array's device) */
    IT_MASK,  /* a boolean mask (on the array's device); 0-d masks too */
    IT_BOOL,  /* a Python or NumPy bool scalar: value in start */
};

/* NumPy never accepts more than this many index items either. */
#define CA_MAX_ITEMS (2 * CA_MAX_DIMS)

typedef struct {
    int type;
    Py_ssize_t start, stop, step;
    CaArray *arr; /* IT_ARR, IT_MASK: owned */
} idx_item;

typedef struct {
    int n;
    int nfancy; /* IT_ARR, IT_MASK, IT_BOOL items */
    idx_item it[CA_MAX_ITEMS];
} idx_key;

static void
key_clear(idx_key *k)
{
    for (int i = 0; i < k->n; i++) {
        Py_CLEAR(k->it[i].arr);
    }
    k->n = 0;
}

static const char invalid_index_msg[] =
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
    "integer or boolean arrays are valid indices";

ca_memkind
ca_index_scratch_kind(int device)
{
    return device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
}

ca_memkind
ca_gather_result_kind(const CaArray *a)
{
    if (a->device == CA_CPU) {
        return CA_MEM_HOST;
    }
    return a->kind == CA_MEM_MANAGED ? CA_MEM_MANAGED : CA_MEM_DEVICE;
}

static int
same_device(const CaArray *a, const CaArray *b, const char *what)
{
    if (a->device != b->device) {
        char b1[CA_DEVICE_NAME_LEN], b2[CA_DEVICE_NAME_LEN];
        PyErr_Format(PyExc_ValueError,
                     "%s is on device %s but the array is on device %s; move it "
                     "with to_device() first",
                     what, ca_device_name(b->device, b1),
                     ca_device_name(a->device, b2));
        return -1;
    }
    return 0;
}

/* Int64 with aligned data and strides (kernels load the indices directly). */
static CaArray *
as_index_array(CaArray *x)
{
    int ok = x->dtype == CA_INT64 && ((uintptr_t)x->data % 8) == 0;
    for (int d = 0; ok && d < CA_NDIM(x); d++) {
        ok = (CA_STRIDES(x)[d] % 8) == 0;
    }
    if (ok) {
        Py_INCREF(x);
        return x;
    }
    return ca_array_copy(x, CA_INT64, 'K');
}

/* A NumPy array (bool or integer) -> an item on `device`. from_list: h came from
 * a Python list, where NumPy takes an empty one ([], [[], []]: float64 by
 * discovery) as intp; an empty float array given as such is an IndexError. */
static int
item_from_numpy(CaArray *a, PyArrayObject *h, idx_item *it, int from_list)
{
    PyArray_Descr *d = PyArray_DESCR(h);
    PyArrayObject *c = NULL;
    int dtype;

    if (d->kind == 'b') {
        it->type = IT_MASK;
        dtype = CA_BOOL;
    }
    else if (d->kind == 'i' || d->kind == 'u' ||
             (from_list && PyArray_SIZE(h) == 0 && d->kind == 'f')) {
        it->type = IT_ARR;
        dtype = CA_INT64;
    }
    else {
        PyErr_SetString(PyExc_IndexError,
                        "arrays used as indices must be of integer (or boolean) type");
        return -1;
    }
    if (ca_guard(CA_TG_H2D, 0, "an index array",
                 (size_t)PyArray_SIZE(h) * (dtype == CA_BOOL ? 1 : 8), a->device) < 0) {
        return -1;
    }
    PyArray_Descr *want = ca_descr(dtype);
    Py_INCREF(want);
    c = (PyArrayObject *)PyArray_FromAny(
        (PyObject *)h, want, 0, 0, NPY_ARRAY_FORCECAST | NPY_ARRAY_CARRAY_RO, NULL);
    if (c == NULL) {
        return -1;
    }
    it->arr =
        ca_array_from_numpy(c, dtype, a->device, ca_index_scratch_kind(a->device));
    Py_DECREF(c);
    return it->arr == NULL ? -1 : 0;
}

/* A cuarray index: a mask as it is, an integer array as int64. */
static int
item_from_cuarray(CaArray *a, CaArray *x, idx_item *it)
{
    if (same_device(a, x, "the index array") < 0) {
        return -1;
    }
    if (x->dtype == CA_BOOL) {
        it->type = IT_MASK;
        Py_INCREF(x);
        it->arr = x;
        return 0;
    }
    if (!ca_is_integer(x->dtype)) {
        PyErr_SetString(PyExc_IndexError,
                        "arrays used as indices must be of integer (or boolean) type");
        return -1;
    }
    it->type = IT_ARR;
    it->arr = as_index_array(x);
    return it->arr == NULL ? -1 : 0;
}

/* A NumPy index: 0-d bools and integers are scalars, anything else an array. */
static int
item_from_ndarray(CaArray *a, PyArrayObject *h, idx_item *it)
{
    if (PyArray_NDIM(h) == 0) {
        char kind = PyArray_DESCR(h)->kind;
        if (kind == 'b') {
            it->type = IT_BOOL;
            it->start = PyObject_IsTrue((PyObject *)h);
            return it->start < 0 ? -1 : 0;
        }
        if (kind == 'i' || kind == 'u') {
            it->type = IT_INT;
            it->start = PyNumber_AsSsize_t((PyObject *)h, PyExc_IndexError);
            return it->start == -1 && PyErr_Occurred() ? -1 : 0;
        }
    }
    return item_from_numpy(a, h, it, 0);
}

/* A list (or other sequence) of indices or bools, through NumPy. */
static int
item_from_sequence(CaArray *a, PyObject *o, idx_item *it)
{
    PyObject *h = PyArray_FromAny(o, NULL, 0, 0, 0, NULL);
    int rc;
    if (h == NULL) {
        return -1;
    }
    if (PyArray_NDIM((PyArrayObject *)h) == 0) {
        PyErr_SetString(PyExc_IndexError, invalid_index_msg);
        rc = -1;
    }
    else {
        rc = item_from_numpy(a, (PyArrayObject *)h, it, 1);
    }
    Py_DECREF(h);
    return rc;
}

/* Classify one index object. Integer arrays are converted to int64 arrays on
 * the indexed array's device, boolean ones to bool arrays there. */
static int
parse_item(CaArray *a, PyObject *o, idx_item *it)
{
    it->arr = NULL;
    if (PyLong_CheckExact(o)) {
        it->type = IT_INT;
        it->start = PyLong_AsSsize_t(o);
        if (it->start == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_SetString(PyExc_IndexError,
                                "cannot fit 'int' into an index-sized integer");
            }
            return -1;
        }
        return 0;
    }
    if (PySlice_Check(o)) {
        it->type = IT_SLICE;
        return PySlice_Unpack(o, &it->start, &it->stop, &it->step);
    }
    if (o == Py_None) {
        it->type = IT_NEW;
        return 0;
    }
    if (o == Py_Ellipsis) {
        it->type = IT_ELL;
        return 0;
    }
    if (PyBool_Check(o) || PyArray_IsScalar(o, Bool)) {
        it->type = IT_BOOL;
        it->start = PyObject_IsTrue(o);
        return it->start < 0 ? -1 : 0;
    }
    if (ca_array_check(o)) {
        return item_from_cuarray(a, (CaArray *)o, it);
    }
    if (PyArray_Check(o)) {
        return item_from_ndarray(a, (PyArrayObject *)o, it);
    }
    if (!PyArray_IsScalar(o, Generic) && !PyLong_Check(o)) {
        /* another library's device array (CuPy's, a CUDA tensor): before
         * __index__, which CuPy defines for its 0-d arrays only */
        int found = 0;
        CaArray *x = ca_from_cai(o, &found);
        if (found) {
            int rc = x == NULL ? -1 : item_from_cuarray(a, x, it);
            Py_XDECREF(x);
            return rc;
        }
    }
    if (PyIndex_Check(o)) {
        it->type = IT_INT;
        it->start = PyNumber_AsSsize_t(o, PyExc_IndexError);
        return it->start == -1 && PyErr_Occurred() ? -1 : 0;
    }
    if (PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o)) {
        return item_from_sequence(a, o, it);
    }
    PyErr_SetString(PyExc_IndexError, invalid_index_msg);
    return -1;
}

static int
parse_key(CaArray *a, PyObject *key, idx_key *k)
{
    k->n = 0;
    k->nfancy = 0;
    if (PyTuple_Check(key)) {
        Py_ssize_t n = PyTuple_GET_SIZE(key);
        if (n > CA_MAX_ITEMS) {
            PyErr_Format(PyExc_IndexError,
                         "too many indices for array: array is "
                         "%d-dimensional, but %zd were indexed",
                         CA_NDIM(a), n);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            if (parse_item(a, PyTuple_GET_ITEM(key, i), &k->it[i]) < 0) {
                key_clear(k);
                return -1;
            }
            k->n = (int)i + 1;
        }
    }
    else {
        if (parse_item(a, key, &k->it[0]) < 0) {
            return -1;
        }
        k->n = 1;
    }
    for (int i = 0; i < k->n; i++) {
        int t = k->it[i].type;
        k->nfancy += t == IT_ARR || t == IT_MASK || t == IT_BOOL;
    }
    return 0;
}

/* ======================================================================== */
/* Applying the basic part: the view `v`                                     */
/* ======================================================================== */

/* One fancy item after the basic part is applied: it covers dimensions
 * [vdim, vdim + nd) of v (a boolean scalar or a 0-d mask covers one new
 * dimension of size 1). */
typedef struct {
    int item; /* index into idx_key.it */
    int vdim, nd;
    int axis; /* the first axis of the indexed array it covers */
} fancy_ref;

typedef struct {
    int ndim;
    Py_ssize_t shape[CA_MAX_DIMS];
    Py_ssize_t strides[CA_MAX_DIMS];
    char *data;
    int nref;
    fancy_ref ref[CA_MAX_DIMS];
    int consec; /* where the broadcast index dimensions go in the result */
} idx_view;

static int
too_many_dims(int n)
{
    PyErr_Format(PyExc_IndexError,
                 "number of dimensions must be within [0, %d], indexing result "
                 "would have %d",
                 CA_MAX_DIMS, n);
    return -1;
}

/* How many axes of `a` the key's items index (an ellipsis stands for the
 * rest); IndexError for a second ellipsis or too many indices. */
static int
count_indexed(const CaArray *a, const idx_key *k, int *consumed)
{
    int n = 0, ell = 0;
    for (int i = 0; i < k->n; i++) {
        const idx_item *it = &k->it[i];
        switch (it->type) {
        case IT_INT:
        case IT_SLICE:
        case IT_ARR: n++; break;
        case IT_MASK: n += CA_NDIM(it->arr); break;
        case IT_ELL:
            if (ell) {
                PyErr_SetString(PyExc_IndexError,
                                "an index can only have a single ellipsis ('...')");
                return -1;
            }
            ell = 1;
            break;
        default: break;
        }
    }
    if (n > CA_NDIM(a)) {
        PyErr_Format(PyExc_IndexError,
                     "too many indices for array: array is "
                     "%d-dimensional, but %d were indexed",
                     CA_NDIM(a), n);
        return -1;
    }
    *consumed = n;
    return 0;
}

/* NumPy's rule for where the broadcast index dimensions go: where the first
 * fancy item is when the fancy items are adjacent, first otherwise. *status:
 * -1 none seen yet, 0 in the first run of them, 1 after it, 2 split. */
static void
note_consec(idx_view *v, int fancy, int result_dim, int *status)
{
    if (fancy) {
        if (*status == -1) {
            v->consec = result_dim;
            *status = 0;
        }
        else if (*status == 1) {
            *status = 2;
            v->consec = 0;
        }
    }
    else if (*status == 0) {
        *status = 1;
    }
}

/* A view being built from a key, item by item. */
typedef struct {
    const Py_ssize_t *shape, *strides; /* the indexed array's */
    int in;                            /* its next axis to index */
    int result_dim;                    /* dimensions the basic items made so far */
    idx_view *v;                       /* v->ndim: the view's dimensions so far */
} view_build;

/* IndexError when n more dimensions would make the view too large. */
static int
view_reserve(const view_build *b, int n)
{
    if (b->v->ndim + n > CA_MAX_DIMS) {
        return too_many_dims(b->v->ndim + n);
    }
    return 0;
}

static void
view_push(view_build *b, Py_ssize_t shape, Py_ssize_t stride)
{
    b->v->shape[b->v->ndim] = shape;
    b->v->strides[b->v->ndim] = stride;
    b->v->ndim++;
}

/* The next cnt axes of the array pass into the view unchanged. */
static void
view_keep_axes(view_build *b, int cnt)
{
    for (int j = 0; j < cnt; j++) {
        view_push(b, b->shape[b->in], b->strides[b->in]);
        b->in++;
    }
}

static int
view_int(view_build *b, const idx_item *it)
{
    Py_ssize_t n = b->shape[b->in];
    Py_ssize_t x = it->start < 0 ? it->start + n : it->start;
    if (x < 0 || x >= n) {
        PyErr_Format(PyExc_IndexError,
                     "index %zd is out of bounds for axis %d with size %zd", it->start,
                     b->in, n);
        return -1;
    }
    b->v->data += x * b->strides[b->in];
    b->in++;
    return 0;
}

static int
view_slice(view_build *b, const idx_item *it)
{
    if (view_reserve(b, 1) < 0) {
        return -1;
    }
    Py_ssize_t start = it->start, stop = it->stop;
    Py_ssize_t len = PySlice_AdjustIndices(b->shape[b->in], &start, &stop, it->step);
    if (len > 0) {
        b->v->data += start * b->strides[b->in];
    }
    view_push(b, len, b->strides[b->in] * it->step);
    b->in++;
    b->result_dim++;
    return 0;
}

/* None: a new dimension of length 1. */
static int
view_newaxis(view_build *b)
{
    if (view_reserve(b, 1) < 0) {
        return -1;
    }
    view_push(b, 1, 0);
    b->result_dim++;
    return 0;
}

/* An ellipsis: the next cnt axes as they are. */
static int
view_ellipsis(view_build *b, int cnt)
{
    if (view_reserve(b, cnt) < 0) {
        return -1;
    }
    view_keep_axes(b, cnt);
    b->result_dim += cnt;
    return 0;
}

/* As NumPy, a mask dimension of length 0 is not compared with its axis (it
 * selects nothing whatever the axis' size). */
static int
check_mask_axes(const view_build *b, const CaArray *mask)
{
    const Py_ssize_t *msh = CA_SHAPE(mask);
    for (int j = 0; j < CA_NDIM(mask); j++) {
        Py_ssize_t n = b->shape[b->in + j];
        if (msh[j] != n && msh[j] != 0) {
            PyErr_Format(PyExc_IndexError,
                         "boolean index did not match indexed array along axis %d; "
                         "size of axis is %zd but size of corresponding boolean axis "
                         "is %zd",
                         b->in + j, n, msh[j]);
            return -1;
        }
    }
    return 0;
}

/* An index array, mask or boolean scalar (item i): its dimensions stay in the
 * view, recorded in v->ref for the advanced pass. */
static int
view_fancy(view_build *b, const idx_item *it, int i)
{
    int cover = it->type == IT_ARR ? 1 : it->type == IT_MASK ? CA_NDIM(it->arr) : 0;
    int add = cover == 0 ? 1 : cover;
    if (view_reserve(b, add) < 0) {
        return -1;
    }
    fancy_ref *r = &b->v->ref[b->v->nref++];
    r->item = i;
    r->vdim = b->v->ndim;
    r->nd = add;
    r->axis = b->in;
    if (cover == 0) {
        /* A boolean scalar indexes a new dimension of size 1. */
        view_push(b, 1, 0);
        return 0;
    }
    if (it->type == IT_MASK && check_mask_axes(b, it->arr) < 0) {
        return -1;
    }
    view_keep_axes(b, cover);
    return 0;
}

/* Apply the integers, slices, None and Ellipsis of k to a. Fancy items keep
 * their dimensions in v (recorded in v->ref); integers among fancy items are
 * applied here as well, but still count as fancy for where the result's index
 * dimensions go (NumPy's rule). */
static int
apply_basic(CaArray *a, idx_key *k, idx_view *v)
{
    view_build b = { CA_SHAPE(a), CA_STRIDES(a), 0, 0, v };
    int consumed, consec_status = -1, rc = 0;

    if (count_indexed(a, k, &consumed) < 0) {
        return -1;
    }
    v->ndim = 0;
    v->data = a->data;
    v->nref = 0;
    v->consec = 0;
    for (int i = 0; rc == 0 && i < k->n; i++) {
        const idx_item *it = &k->it[i];
        if (k->nfancy > 0) {
            int fancy = it->type == IT_ARR || it->type == IT_MASK ||
                        it->type == IT_BOOL || it->type == IT_INT;
            note_consec(v, fancy, b.result_dim, &consec_status);
        }
        switch (it->type) {
        case IT_INT: rc = view_int(&b, it); break;
        case IT_SLICE: rc = view_slice(&b, it); break;
        case IT_NEW: rc = view_newaxis(&b); break;
        case IT_ELL:
            /* what the other items leave */
            rc = view_ellipsis(&b, CA_NDIM(a) - consumed);
            break;
        case IT_ARR:
        case IT_MASK:
        case IT_BOOL: rc = view_fancy(&b, it, i); break;
        default: break;
        }
    }
    if (rc < 0) {
        return -1;
    }
    /* The implicit Ellipsis at the end: the axes no item reached (it has no
     * effect on consec). */
    return view_ellipsis(&b, CA_NDIM(a) - b.in);
}

/* The fast path: a key that is one slice or one integer. Returns 1 and sets
 * *out (NULL on error) when it applies, 0 otherwise. */
static int
fast_subscript(CaArray *a, PyObject *key, PyObject **out)
{
    int nd = CA_NDIM(a);
    Py_ssize_t shape[CA_MAX_DIMS];
    Py_ssize_t strides[CA_MAX_DIMS];
    char *data = a->data;

    if (nd == 0) {
        return 0;
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start, stop, step;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0) {
            *out = NULL;
            return 1;
        }
        Py_ssize_t len = PySlice_AdjustIndices(CA_SHAPE(a)[0], &start, &stop, step);
        memcpy(shape, CA_SHAPE(a), nd * sizeof(Py_ssize_t));
        memcpy(strides, CA_STRIDES(a), nd * sizeof(Py_ssize_t));
        shape[0] = len;
        if (len > 0) {
            data += start * strides[0];
        }
        strides[0] *= step;
        *out = (PyObject *)ca_array_view(a, a->dtype, nd, shape, strides, data);
        return 1;
    }
    if (PyLong_CheckExact(key)) {
        Py_ssize_t i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
                PyErr_SetString(PyExc_IndexError,
                                "cannot fit 'int' into an index-sized integer");
            }
            *out = NULL;
            return 1;
        }
        Py_ssize_t n = CA_SHAPE(a)[0];
        Py_ssize_t x = i < 0 ? i + n : i;
        if (x < 0 || x >= n) {
            PyErr_Format(PyExc_IndexError,
                         "index %zd is out of bounds for axis 0 with size %zd", i, n);
            *out = NULL;
            return 1;
        }
        data += x * CA_STRIDES(a)[0];
        *out = (PyObject *)ca_array_view(a, a->dtype, nd - 1, CA_SHAPE(a) + 1,
                                         CA_STRIDES(a) + 1, data);
        return 1;
    }
    return 0;
}

/* ======================================================================== */
/* Advanced indexing                                                         */
/* ======================================================================== */

/* One index of the gather/scatter: an int64 array (or NULL: constant 0) whose
 * values index axis `axis` (extent, scale) or are byte offsets (extent -1). */
typedef struct {
    CaArray *idx; /* owned, or NULL */
    int nd;
    Py_ssize_t shape[CA_MAX_DIMS];
    Py_ssize_t strides[CA_MAX_DIMS];
    int64_t extent, scale;
    int axis;
} idx_entry;

typedef struct {
    int device;
    ca_stream_t stream;
    idx_key key;
    idx_view v;
    int nent;
    idx_entry ent[CA_MAX_DIMS];
    int nb; /* broadcast index shape */
    Py_ssize_t bshape[CA_MAX_DIMS];
    int rnd; /* the result */
    Py_ssize_t rshape[CA_MAX_DIMS];
    int bpos;       /* where the index dims sit in the result */
    int need_check; /* some index values need a range check */
    int doomed;     /* an index into an axis of length 0 */
    CaArray *off;   /* combined byte offsets (several indexes) */
} idx_plan;

static void
plan_clear(idx_plan *P)
{
    key_clear(&P->key);
    for (int i = 0; i < P->nent; i++) {
        Py_CLEAR(P->ent[i].idx);
    }
    P->nent = 0;
    Py_CLEAR(P->off);
}

/* The true positions of a mask as byte offsets into v (covering the mask's
 * dimensions of v). Counting waits for the stream: the size is data. */
static CaArray *
mask_offsets(idx_plan *P, CaArray *mask, const fancy_ref *r, int64_t *witness)
{
    CaArray *m = NULL, *scratch = NULL, *out = NULL;
    int64_t sh[CA_MAX_DIMS], st[CA_MAX_DIMS];
    int64_t total = 0;
    int mnd = CA_NDIM(mask);
    Py_ssize_t n = mask->size;

    if (mask->flags & CA_C_CONTIGUOUS) {
        Py_INCREF(mask);
        m = mask;
    }
    else {
        m = ca_array_copy(mask, CA_BOOL, 'C');
        if (m == NULL) {
            goto error;
        }
    }
    *witness = 0;
    for (int j = 0; j < mnd; j++) {
        sh[j] = CA_SHAPE(mask)[j];
        st[j] = P->v.strides[r->vdim + j];
        *witness |= st[j];
    }
    Py_ssize_t ns = (Py_ssize_t)ca_mask_scratch_size(P->device, n);
    scratch = ca_array_empty(CA_INT64, 1, &ns, 0, P->device,
                             ca_index_scratch_kind(P->device));
    if (scratch == NULL) {
        goto error;
    }
    if (ca_run_mask_count(P->device, (const uint8_t *)m->data, n,
                          (int64_t *)scratch->data, P->stream) < 0 ||
        ca_read_back_int64(P->device, P->stream, (const int64_t *)scratch->data, &total,
                           1) < 0) {
        goto error;
    }
    Py_ssize_t nt = (Py_ssize_t)total;
    out = ca_array_empty(CA_INT64, 1, &nt, 0, P->device,
                         ca_index_scratch_kind(P->device));
    if (out == NULL) {
        goto error;
    }
    if (nt > 0 && ca_run_mask_offsets(P->device, (const uint8_t *)m->data, n,
                                      (const int64_t *)scratch->data, mnd, sh, st,
                                      (int64_t *)out->data, P->stream) < 0) {
        goto error;
    }
    Py_DECREF(m);
    Py_DECREF(scratch);
    return out;
error:
    Py_XDECREF(m);
    Py_XDECREF(scratch);
    Py_XDECREF(out);
    return NULL;
}

static int
broadcast_into(int *nb, Py_ssize_t *bshape, const idx_entry *e)
{
    return ca_broadcast_into(nb, bshape, e->nd, e->shape);
}

static void
shape_mismatch(idx_plan *P)
{
    PyObject *parts = PyUnicode_FromString("");
    for (int i = 0; parts != NULL && i < P->nent; i++) {
        PyObject *t = ca_shape_tuple(P->ent[i].nd, P->ent[i].shape);
        PyObject *s = t != NULL ? PyUnicode_FromFormat("%U%R ", parts, t) : NULL;
        Py_XDECREF(t);
        Py_SETREF(parts, s);
    }
    if (parts != NULL) {
        PyErr_Format(PyExc_IndexError,
                     "shape mismatch: indexing arrays could not be broadcast together "
                     "with shapes %U",
                     parts);
        Py_DECREF(parts);
    }
}

/* Parse `key` for `a` and apply its basic part. Returns 1 for a purely basic
 * key (P->v is the view), 0 for an advanced one (then plan_entries), -1 on
 * error. plan_clear releases P in every case. */
static int
plan_make(idx_plan *P, CaArray *a, PyObject *key)
{
    P->device = a->device;
    P->stream = NULL;
    P->nent = 0;
    P->off = NULL;
    P->need_check = 0;
    P->doomed = 0;
    P->key.n = 0;
    if (parse_key(a, key, &P->key) < 0 || apply_basic(a, &P->key, &P->v) < 0) {
        return -1;
    }
    if (P->key.nfancy == 0) {
        return 1;
    }
    if (ca_use_device(P->device) < 0) {
        return -1;
    }
    P->stream = ca_current_stream(P->device);
    return 0;
}

/* Work out the advanced indexing: the entries (masks become byte offsets
 * here, which synchronizes), the broadcast index shape and the result's. */
static int
plan_entries(idx_plan *P)
{
    for (int i = 0; i < P->v.nref; i++) {
        const fancy_ref *r = &P->v.ref[i];
        idx_item *it = &P->key.it[r->item];
        idx_entry *e = &P->ent[P->nent++];
        e->idx = NULL;
        e->axis = r->axis;
        if (it->type == IT_ARR) {
            Py_INCREF(it->arr);
            e->idx = it->arr;
            e->nd = CA_NDIM(it->arr);
            memcpy(e->shape, CA_SHAPE(it->arr), e->nd * sizeof(Py_ssize_t));
            memcpy(e->strides, CA_STRIDES(it->arr), e->nd * sizeof(Py_ssize_t));
            e->extent = P->v.shape[r->vdim];
            e->scale = P->v.strides[r->vdim];
            continue;
        }
        e->nd = 1;
        e->strides[0] = 8;
        e->extent = -1;
        if (it->type == IT_BOOL) {
            e->shape[0] = it->start ? 1 : 0;
            e->scale = 0;
            continue;
        }
        /* IT_MASK (a 0-d mask covers its new dimension of size 1). */
        e->idx = mask_offsets(P, it->arr, r, &e->scale);
        if (e->idx == NULL) {
            return -1;
        }
        e->shape[0] = e->idx->size;
    }
    P->nb = 0;
    for (int i = 0; i < P->nent; i++) {
        if (broadcast_into(&P->nb, P->bshape, &P->ent[i]) < 0) {
            shape_mismatch(P);
            return -1;
        }
    }
    /* As NumPy, index values are checked where the broadcast index has
     * elements; an empty one checks nothing. */
    Py_ssize_t bsize = 1;
    for (int j = 0; j < P->nb; j++) {
        bsize *= P->bshape[j];
    }
    for (int i = 0; bsize > 0 && i < P->nent; i++) {
        if (P->ent[i].extent >= 0) {
            P->need_check = 1;
            P->doomed |= P->ent[i].extent == 0;
        }
    }
    /* The result: v's dimensions no fancy item covers, with the broadcast index
     * dimensions inserted at consec. */
    int covered[CA_MAX_DIMS] = { 0 };
    for (int i = 0; i < P->v.nref; i++) {
        for (int j = 0; j < P->v.ref[i].nd; j++) {
            covered[P->v.ref[i].vdim + j] = 1;
        }
    }
    int nbasic = 0;
    for (int d = 0; d < P->v.ndim; d++) {
        nbasic += !covered[d];
    }
    if (nbasic + P->nb > CA_MAX_DIMS) {
        return too_many_dims(nbasic + P->nb);
    }
    P->bpos = P->v.consec;
    P->rnd = nbasic + P->nb;
    return 0;
}

/* Fill the gather/scatter pass over the result's shape: v's uncovered
 * dimensions with the index dimensions at bpos. The index fields are left to
 * the caller. */
static void
plan_pass(idx_plan *P, ca_index_pass *p)
{
    int covered[CA_MAX_DIMS] = { 0 };
    for (int i = 0; i < P->v.nref; i++) {
        for (int j = 0; j < P->v.ref[i].nd; j++) {
            covered[P->v.ref[i].vdim + j] = 1;
        }
    }
    memset(p, 0, sizeof *p);
    p->ndim = P->rnd;
    p->data = P->v.data;
    int r = 0;
    for (int d = 0; d <= P->v.ndim; d++) {
        if (r == P->bpos) {
            for (int j = 0; j < P->nb; j++) {
                P->rshape[r] = P->bshape[j];
                p->shape[r] = P->bshape[j];
                p->strides[r] = 0;
                r++;
            }
        }
        if (d < P->v.ndim && !covered[d]) {
            P->rshape[r] = P->v.shape[d];
            p->shape[r] = P->v.shape[d];
            p->strides[r] = P->v.strides[d];
            r++;
        }
    }
}

/* Strides of entry e over the pass (its broadcast dimensions at bpos). */
static void
entry_istrides(const idx_plan *P, const idx_entry *e, int64_t *istrides, int ndim,
               int bpos)
{
    Py_ssize_t st[CA_MAX_DIMS];
    ca_broadcast_strides(e->nd, e->shape, e->strides, P->nb, NULL, st);
    for (int k = 0; k < ndim; k++) {
        istrides[k] = k >= bpos && k < bpos + P->nb ? st[k - bpos] : 0;
    }
}

/* Point pass p at the index: the single entry, or the combined byte offsets
 * of several (built here, range-checked into flag). */
static int
plan_index(idx_plan *P, ca_index_pass *p, int64_t *flag)
{
    if (P->nent == 1) {
        idx_entry *e = &P->ent[0];
        p->idx = e->idx != NULL ? (const int64_t *)e->idx->data : NULL;
        entry_istrides(P, e, p->istrides, p->ndim, P->bpos);
        p->extent = e->extent;
        p->scale = e->scale;
        p->axis = 0;
        return 0;
    }
    /* Several: off[b] = sum of each entry's offset, one pass per entry over the
     * broadcast shape. */
    P->off = ca_array_empty(CA_INT64, P->nb, P->bshape, 0, P->device,
                            ca_index_scratch_kind(P->device));
    if (P->off == NULL) {
        return -1;
    }
    int64_t witness = 0;
    if (P->off->size > 0) {
        for (int i = 0; i < P->nent; i++) {
            idx_entry *e = &P->ent[i];
            ca_index_pass q = { .ndim = P->nb, .axis = i };
            for (int k = 0; k < P->nb; k++) {
                q.shape[k] = P->bshape[k];
                q.vstrides[k] = CA_STRIDES(P->off)[k];
            }
            q.vals = P->off->data;
            q.idx = e->idx != NULL ? (const int64_t *)e->idx->data : NULL;
            entry_istrides(P, e, q.istrides, P->nb, 0);
            q.extent = e->extent;
            q.scale = e->scale;
            witness |= e->scale;
            if (ca_run_index_offsets(P->device, &q, i > 0, flag, P->stream) < 0) {
                return -1;
            }
        }
    }
    p->idx = (const int64_t *)P->off->data;
    for (int k = 0; k < p->ndim; k++) {
        p->istrides[k] = 0;
    }
    for (int j = 0; j < P->nb; j++) {
        p->istrides[P->bpos + j] = P->bshape[j] == 1 ? 0 : CA_STRIDES(P->off)[j];
    }
    p->extent = -1;
    p->scale = witness;
    return 0;
}

/* Check every value of the entries that index an axis, over their own
 * elements (not broadcast), without writing anything. */
static int
plan_check_entries(idx_plan *P, int64_t *flag)
{
    for (int i = 0; i < P->nent; i++) {
        idx_entry *e = &P->ent[i];
        if (!P->need_check || e->extent < 0 || e->idx == NULL || e->idx->size == 0) {
            continue;
        }
        ca_index_pass q = { .ndim = e->nd, .axis = i };
        for (int k = 0; k < e->nd; k++) {
            q.shape[k] = e->shape[k];
            q.istrides[k] = e->strides[k];
        }
        q.idx = (const int64_t *)e->idx->data;
        q.extent = e->extent;
        q.scale = e->scale;
        if (ca_run_index_offsets(P->device, &q, 0, flag, P->stream) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Read the flag back (this synchronizes) and raise IndexError for an offender. */
static int plan_flag_raise(idx_plan *P, ca_flag *f);

/* An index into an axis of length 0: every value is out of range, and the
 * combined offsets (out-of-range values count as 0) would point outside the
 * empty array, so nothing may run but the check that names the offender. */
static int
plan_raise_doomed(idx_plan *P, ca_flag *f)
{
    if (plan_check_entries(P, f->ptr) < 0 || plan_flag_raise(P, f) < 0) {
        return -1;
    }
    PyErr_SetString(PyExc_IndexError, "index out of bounds for an axis of size 0");
    return -1;
}

static int
plan_flag_raise(idx_plan *P, ca_flag *f)
{
    if (f->ptr == NULL) {
        return 0;
    }
    if (ca_flag_read(f) < 0) {
        return -1;
    }
    if (f->host[0] != 0) {
        int i = (int)(f->host[0] - 1);
        if (i < 0 || i >= P->nent) {
            i = 0;
        }
        PyErr_Format(
            PyExc_IndexError, "index %lld is out of bounds for axis %d with size %lld",
            (long long)f->host[1], P->ent[i].axis, (long long)P->ent[i].extent);
        return -1;
    }
    return 0;
}

static PyObject *
gather(CaArray *a, idx_plan *P)
{
    CaArray *out = NULL;
    ca_flag f = { 0 };
    ca_index_pass p;

    plan_pass(P, &p);
    out = ca_array_empty(a->dtype, P->rnd, P->rshape, 0, P->device,
                         ca_gather_result_kind(a));
    if (out == NULL || ca_flag_open(&f, P->device, P->stream, P->need_check) < 0) {
        goto error;
    }
    if (P->doomed) {
        plan_raise_doomed(P, &f);
        goto error;
    }
    p.vals = out->data;
    for (int k = 0; k < P->rnd; k++) {
        p.vstrides[k] = CA_STRIDES(out)[k];
    }
    if (plan_index(P, &p, f.ptr) < 0) {
        goto error;
    }
    if (out->size > 0) {
        if (ca_run_index_take(P->device, &p, a->itemsize, f.ptr, P->stream) < 0) {
            goto error;
        }
    }
    if (P->nent == 1 && out->size == 0 && plan_check_entries(P, f.ptr) < 0) {
        goto error;
    }
    if (plan_flag_raise(P, &f) < 0) {
        goto error;
    }
    ca_flag_close(&f);
    return (PyObject *)out;
error:
    ca_flag_close(&f);
    Py_XDECREF(out);
    return NULL;
}

/* ======================================================================== */
/* __getitem__                                                               */
/* ======================================================================== */

/* The cpu device's a[mask] for a key that is one mask (of one or more dims)
 * over the leading dims of a C-contiguous view: a compress of the view's
 * blocks (ca_mask_compress), with no offsets array and no gather. Returns 0
 * when the key is not of that kind, else 1 with *out the result (NULL on
 * error). */
static int
mask_compress(CaArray *a, idx_plan *P, PyObject **out)
{
    if (P->device != CA_CPU || P->key.nfancy != 1 || P->v.nref != 1) {
        return 0;
    }
    const fancy_ref *r = &P->v.ref[0];
    CaArray *mask = P->key.it[r->item].arr;
    if (P->key.it[r->item].type != IT_MASK || r->vdim != 0 || CA_NDIM(mask) < 1 ||
        CA_NDIM(mask) != r->nd || !(mask->flags & CA_C_CONTIGUOUS)) {
        return 0;
    }
    Py_ssize_t want = a->itemsize;
    for (int k = P->v.ndim - 1; k >= 0; k--) {
        if (P->v.shape[k] != 1 && P->v.strides[k] != want) {
            return 0;
        }
        want *= P->v.shape[k];
    }
    Py_ssize_t rshape[CA_MAX_DIMS];
    int64_t block = a->itemsize, count = 0;
    int rnd = 1;
    for (int k = r->nd; k < P->v.ndim; k++) {
        rshape[rnd++] = P->v.shape[k];
        block *= P->v.shape[k];
    }
    *out = NULL;
    if (mask->size > 0 && ca_run_mask_count(P->device, (const uint8_t *)mask->data,
                                            mask->size, &count, P->stream) < 0) {
        return 1;
    }
    rshape[0] = (Py_ssize_t)count;
    CaArray *res =
        ca_array_empty(a->dtype, rnd, rshape, 0, P->device, ca_gather_result_kind(a));
    if (res != NULL && block > 0 && count > 0 &&
        ca_run_mask_compress(P->device, P->v.data, (const uint8_t *)mask->data,
                             mask->size, block, count, res->data) < 0) {
        Py_CLEAR(res);
    }
    *out = (PyObject *)res;
    return 1;
}

static PyObject *
Ndarray_subscript(PyObject *self, PyObject *key)
{
    CaArray *a = (CaArray *)self;
    PyObject *out = NULL;
    idx_plan P;

    if (fast_subscript(a, key, &out)) {
        return out;
    }
    int rc = plan_make(&P, a, key);
    if (rc == 1) {
        out = (PyObject *)ca_array_view(a, a->dtype, P.v.ndim, P.v.shape, P.v.strides,
                                        P.v.data);
    }
    else if (rc == 0 && !mask_compress(a, &P, &out) && plan_entries(&P) == 0) {
        out = gather(a, &P);
    }
    plan_clear(&P);
    return out;
}

/* ======================================================================== */
/* __setitem__                                                               */
/* ======================================================================== */

/* Python and NumPy scalars are written from the host, converted to the array's
 * dtype by NumPy's rules for assignment (so 300 into uint8 raises OverflowError
 * and 1.5 into int64 writes 1). */
static int
is_scalar(PyObject *o)
{
    return PyFloat_CheckExact(o) || PyLong_CheckExact(o) || PyBool_Check(o) ||
           PyComplex_CheckExact(o) || PyArray_IsScalar(o, Generic) ||
           PyFloat_Check(o) || PyLong_Check(o) || PyComplex_Check(o);
}

static int
scalar_bytes(PyObject *value, int dtype, unsigned char *out)
{
    PyArray_Descr *d = ca_descr(dtype);
    Py_INCREF(d);
    PyObject *h = PyArray_FromAny(value, d, 0, 0, NPY_ARRAY_FORCECAST, NULL);
    if (h == NULL) {
        return -1;
    }
    memcpy(out, PyArray_DATA((PyArrayObject *)h), ca_dtype_size[dtype]);
    Py_DECREF(h);
    return 0;
}

/* Fill a view (ndim, shape, strides, data) of `a` with one host value. */
static int
fill_region(CaArray *a, int ndim, const Py_ssize_t *shape, const Py_ssize_t *strides,
            char *data, const unsigned char *value)
{
    ca_strided s;
    memset(&s, 0, sizeof s);
    s.ndim = ndim;
    s.nops = 1;
    s.data[0] = data;
    for (int k = 0; k < ndim; k++) {
        s.shape[k] = shape[k];
        s.strides[0][k] = strides[k];
        if (shape[k] == 0) {
            return 0;
        }
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    ca_strided_coalesce(&s);
    return ca_run_fill(a->device, &s, a->dtype, value, ca_current_stream(a->device));
}

/* Whether the byte ranges two arrays touch can overlap (same buffer). */
static int
may_overlap(const CaArray *a, const CaArray *b)
{
    if (a->mem == NULL || b->mem == NULL || a->size == 0 || b->size == 0) {
        return 0;
    }
    if (a->mem != b->mem) {
        return a->mem->ptr == b->mem->ptr;
    }
    char *lo[2], *hi[2];
    const CaArray *x[2] = { a, b };
    for (int i = 0; i < 2; i++) {
        lo[i] = hi[i] = x[i]->data;
        for (int d = 0; d < CA_NDIM(x[i]); d++) {
            Py_ssize_t ext = (CA_SHAPE(x[i])[d] - 1) * CA_STRIDES(x[i])[d];
            if (ext < 0) {
                lo[i] += ext;
            }
            else {
                hi[i] += ext;
            }
        }
        hi[i] += x[i]->itemsize;
    }
    return lo[0] < hi[1] && lo[1] < hi[0];
}

/* The value of an assignment as an array on a's device (any dtype; the
 * assignment casts). A cuarray array on another device is an error; anything
 * else goes through asarray onto a's device (an explicit copy, as CuPy). */
static CaArray *
value_array(CaArray *a, PyObject *value)
{
    if (ca_array_check(value)) {
        if (same_device(a, (CaArray *)value, "the value") < 0) {
            return NULL;
        }
        Py_INCREF(value);
        return (CaArray *)value;
    }
    return ca_asarray(value, -1, a->device, -1, 'K', -1);
}

static int
assign_basic(CaArray *a, idx_view *v, PyObject *value)
{
    CaArray *view = NULL, *val = NULL, *tmp = NULL;
    int rc = -1;

    if (is_scalar(value)) {
        unsigned char buf[16];
        if (scalar_bytes(value, a->dtype, buf) < 0) {
            return -1;
        }
        return fill_region(a, v->ndim, v->shape, v->strides, v->data, buf);
    }
    view = ca_array_view(a, a->dtype, v->ndim, v->shape, v->strides, v->data);
    if (view == NULL || (val = value_array(a, value)) == NULL) {
        goto error;
    }
    if (may_overlap(view, val)) {
        tmp = ca_array_copy(val, val->dtype, 'K');
        if (tmp == NULL) {
            goto error;
        }
        Py_SETREF(val, tmp);
        tmp = NULL;
    }
    rc = ca_assign(view, val);
error:
    Py_XDECREF(view);
    Py_XDECREF(val);
    return rc;
}

/* a[mask] = scalar (mask the only fancy item): a masked fill, no sync. */
static int
assign_mask_scalar(CaArray *a, idx_plan *P, const unsigned char *value)
{
    const fancy_ref *r = &P->v.ref[0];
    CaArray *mask = P->key.it[r->item].arr;
    ca_strided s;

    if (mask->size == 0) {
        return 0; /* selects nothing (a length-0 mask axis matches any axis) */
    }
    memset(&s, 0, sizeof s);
    s.ndim = P->v.ndim;
    s.nops = 2;
    s.data[0] = P->v.data;
    s.data[1] = mask->data;
    for (int k = 0; k < P->v.ndim; k++) {
        s.shape[k] = P->v.shape[k];
        s.strides[0][k] = P->v.strides[k];
        s.strides[1][k] = 0;
    }
    for (int j = 0; j < r->nd; j++) {
        s.strides[1][r->vdim + j] = CA_STRIDES(mask)[j];
    }
    return ca_run_masked_fill(P->device, &s, a->itemsize, value, P->stream);
}

/* p's value strides for `val` broadcast to the indexing result's shape;
 * ValueError with NumPy's message when it does not broadcast. */
static int
broadcast_value(idx_plan *P, const CaArray *val, ca_index_pass *p)
{
    int vnd = CA_NDIM(val);
    Py_ssize_t vst[CA_MAX_DIMS];
    if (ca_broadcast_strides(vnd, CA_SHAPE(val), CA_STRIDES(val), P->rnd, P->rshape,
                             vst) == 0) {
        for (int r = 0; r < P->rnd; r++) {
            p->vstrides[r] = vst[r];
        }
        return 0;
    }
    return ca_two_shapes_error("shape mismatch: value array of shape %R could not be "
                               "broadcast to indexing result of shape %R",
                               vnd, CA_SHAPE(val), P->rnd, P->rshape);
}

/* An array value of a scatter, in a's dtype and apart from a (a copy when it
 * is not, or might overlap), pointed to by p. */
static CaArray *
scatter_value(CaArray *a, idx_plan *P, PyObject *value, ca_index_pass *p)
{
    CaArray *val = value_array(a, value);
    if (val == NULL) {
        return NULL;
    }
    if (CA_NDIM(val) > P->rnd) {
        Py_SETREF(val, ca_drop_leading_ones(val, P->rnd));
        if (val == NULL) {
            return NULL;
        }
    }
    if (val->dtype != a->dtype || may_overlap(a, val)) {
        Py_SETREF(val, ca_array_copy(val, a->dtype, 'K'));
        if (val == NULL) {
            return NULL;
        }
    }
    if (broadcast_value(P, val, p) < 0) {
        Py_DECREF(val);
        return NULL;
    }
    p->vals = val->data;
    return val;
}

static int
scatter(CaArray *a, idx_plan *P, PyObject *value)
{
    CaArray *val = NULL;
    ca_flag f = { 0 };
    ca_index_pass p;

    plan_pass(P, &p);
    if (is_scalar(value)) {
        if (scalar_bytes(value, a->dtype, p.value) < 0) {
            goto error;
        }
    }
    else if ((val = scatter_value(a, P, value, &p)) == NULL) {
        goto error;
    }
    if (ca_flag_open(&f, P->device, P->stream, P->need_check) < 0) {
        goto error;
    }
    if (P->doomed) {
        plan_raise_doomed(P, &f);
        goto error;
    }
    /* Check every index before writing anything, so that a failed assignment
     * changes nothing. */
    if (P->nent == 1 ? plan_check_entries(P, f.ptr) < 0
                     : plan_index(P, &p, f.ptr) < 0) {
        goto error;
    }
    if (plan_flag_raise(P, &f) < 0) {
        goto error;
    }
    if (P->nent == 1 && plan_index(P, &p, f.ptr) < 0) {
        goto error;
    }
    int64_t n = 1;
    for (int k = 0; k < p.ndim; k++) {
        n *= p.shape[k];
    }
    if (n > 0 && ca_run_index_put(P->device, &p, a->itemsize, f.ptr, P->stream) < 0) {
        goto error;
    }
    ca_flag_close(&f);
    Py_XDECREF(val);
    return 0;
error:
    ca_flag_close(&f);
    Py_XDECREF(val);
    return -1;
}

static int
Ndarray_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    CaArray *a = (CaArray *)self;
    idx_plan P;
    int rc = -1;

    if (value == NULL) {
        PyErr_SetString(PyExc_ValueError, "cannot delete array elements");
        return -1;
    }
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    /* The masked fill needs no entries; decide before building them. */
    int mask_fill = 0;
    unsigned char buf[16];
    rc = plan_make(&P, a, key);
    if (rc == 1) {
        rc = assign_basic(a, &P.v, value);
        goto done;
    }
    if (rc < 0) {
        goto done;
    }
    if (P.key.nfancy == 1 && P.v.nref == 1 && is_scalar(value)) {
        idx_item *it = &P.key.it[P.v.ref[0].item];
        mask_fill = it->type == IT_MASK && CA_NDIM(it->arr) > 0;
    }
    if (mask_fill) {
        rc = scalar_bytes(value, a->dtype, buf);
        if (rc == 0) {
            rc = assign_mask_scalar(a, &P, buf);
        }
        goto done;
    }
    rc = plan_entries(&P);
    if (rc == 0) {
        rc = scatter(a, &P, value);
    }
done:
    plan_clear(&P);
    return rc < 0 ? -1 : 0;
}

/* ======================================================================== */
/* Module hookup                                                             */
/* ======================================================================== */

int
ca_index_init(PyObject *m)
{
    (void)m;
    return 0;
}

PyType_Slot ca_index_slots[] = {
    { Py_mp_subscript, (void *)Ndarray_subscript },
    { Py_mp_ass_subscript, (void *)Ndarray_ass_subscript },
    { 0, NULL },
};

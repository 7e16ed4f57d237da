/*
 * reduction.c: reductions and scans, as module functions and ndarray methods:
 * sum, prod, mean, max/amax, min/amin, argmax, argmin, var, std, any, all,
 * cumsum, cumprod.
 *
 * Arguments are parsed here in C (METH_FASTCALL); the kernels take a
 * ca_reduce_desc of kept and reduced dims (kernels/dispatch_reduce.c). The
 * compute dtype is NumPy's: sums and products of bool and small ints in int64
 * (uint64 for unsigned), mean of ints in float64, float16 accumulated in
 * float32, var/std of complex real; with out= and no dtype=, sums compute in
 * the promotion of the input and out dtypes, as NumPy's reduce does. An
 * integer result of another integer dtype is computed in 64 bits and cast
 * (the same bits modulo 2^n, i.e. NumPy's wrapping); an input whose dtype has
 * no kernel for the compute dtype is cast first. Results are new arrays (0-d
 * for full reductions); nothing here synchronizes.
 */
#include "cuarray.h"
#include "readback.h"

#include <math.h>
#include <string.h>

enum {
    F_SUM = 0,
    F_PROD,
    F_MEAN,
    F_MAX,
    F_MIN,
    F_ARGMAX,
    F_ARGMIN,
    F_VAR,
    F_STD,
    F_ANY,
    F_ALL,
    F_CUMSUM,
    F_CUMPROD,
    F_NFUNCS
};

static const char *const fn_name[F_NFUNCS] = {
    "sum", "prod", "mean", "max", "min", "argmax", "argmin",
    "var", "std", "any", "all", "cumsum", "cumprod",
};

/* ======================================================================== */
/* Small helpers                                                             */
/* ======================================================================== */

static int
one_axis(PyObject *o, int ndim, int *ax)
{
    return ca_axis_from_object(o, ndim, ax);
}

/* axis= of a reduction: None (every axis), an int, or (tuple_ok) a tuple of
 * ints; red[d] = 1 for the reduced axes. A 0-d array takes the int 0 or -1
 * and reduces nothing (NumPy's rule). */
static int
parse_axes(PyObject *axis, int ndim, unsigned char *red, int tuple_ok)
{
    memset(red, 0, CA_MAX_DIMS);
    if (axis == NULL || axis == Py_None) {
        memset(red, 1, (size_t)ndim);
        return 0;
    }
    if (PyTuple_Check(axis)) {
        if (!tuple_ok) {
            PyErr_SetString(PyExc_TypeError,
                            "'tuple' object cannot be interpreted as an integer");
            return -1;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(axis); i++) {
            int ax;
            if (one_axis(PyTuple_GET_ITEM(axis, i), ndim, &ax) < 0) {
                return -1;
            }
            if (red[ax]) {
                PyErr_SetString(PyExc_ValueError, "duplicate value in 'axis'");
                return -1;
            }
            red[ax] = 1;
        }
        return 0;
    }
    if (ndim == 0 && PyIndex_Check(axis)) {
        Py_ssize_t v = PyNumber_AsSsize_t(axis, PyExc_OverflowError);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        return (v == 0 || v == -1) ? 0 : ca_axis_error(v, 0);
    }
    int ax;
    if (one_axis(axis, ndim, &ax) < 0) {
        return -1;
    }
    red[ax] = 1;
    return 0;
}

/* NumPy's sum/prod/cumsum dtype: bool and signed ints -> int64, unsigned ->
 * uint64, the rest to themselves. */
static int
sum_dtype(int t)
{
    if (t == CA_BOOL || t == CA_INT8 || t == CA_INT16 || t == CA_INT32 || t == CA_INT64) {
        return CA_INT64;
    }
    if (ca_is_unsigned(t)) {
        return CA_UINT64;
    }
    return t;
}

static int
real_dtype(int t)
{
    return t == CA_COMPLEX64 ? CA_FLOAT32 : t == CA_COMPLEX128 ? CA_FLOAT64 : t;
}

static int
is_int_or_bool(int t)
{
    return t == CA_BOOL || ca_is_integer(t);
}


/* [lo, hi) bytes an array touches. */
static void
extent(const CaArray *a, intptr_t *lo, intptr_t *hi)
{
    /* an existing array's layout lies inside its buffer: it cannot overflow */
    Py_ssize_t l = 0, h = a->itemsize;
    (void)ca_layout_extent(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), a->itemsize, &l, &h);
    *lo = (intptr_t)a->data + l;
    *hi = (intptr_t)a->data + h;
}

static int
overlaps(const CaArray *a, const CaArray *b)
{
    if (a->size == 0 || b->size == 0) {
        return 0;
    }
    intptr_t alo, ahi, blo, bhi;
    extent(a, &alo, &ahi);
    extent(b, &blo, &bhi);
    return !(ahi <= blo || bhi <= alo);
}

static int
same_view(const CaArray *a, const CaArray *b)
{
    return a->data == b->data && a->itemsize == b->itemsize && CA_NDIM(a) == CA_NDIM(b) &&
           memcmp(CA_SHAPE(a), CA_SHAPE(b), (size_t)CA_NDIM(a) * sizeof(Py_ssize_t)) == 0 &&
           memcmp(CA_STRIDES(a), CA_STRIDES(b), (size_t)CA_NDIM(a) * sizeof(Py_ssize_t)) == 0;
}

static ca_memkind
result_kind(int device)
{
    return device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
}

/* out=: None, an ndarray on the input's device, or a 1-tuple of one. */
static int
check_out(PyObject *out_obj, const CaArray *a, CaArray **out)
{
    return ca_out_from_object(NULL, out_obj, a->device, out);
}

static int
check_out_shape(const char *fname, const CaArray *out, int nd, const Py_ssize_t *shape,
                int keepdims)
{
    if (CA_NDIM(out) != nd) {
        PyErr_Format(PyExc_ValueError,
                     "output parameter for %s has the wrong number of dimensions: Found %d "
                     "but expected %d%s",
                     fname, CA_NDIM(out), nd,
                     keepdims ? " (must match the operand's when keepdims=True)" : "");
        return -1;
    }
    for (int d = 0; d < nd; d++) {
        if (CA_SHAPE(out)[d] != shape[d]) {
            PyObject *want = ca_shape_tuple(nd, shape);
            PyObject *got = ca_shape_tuple(nd, CA_SHAPE(out));
            if (want != NULL && got != NULL) {
                PyErr_Format(PyExc_ValueError,
                             "output parameter for %s has shape %S, expected %S", fname, got,
                             want);
            }
            Py_XDECREF(want);
            Py_XDECREF(got);
            return -1;
        }
    }
    return 0;
}

/* A copy of `a` in dtype (layout kept), or a new reference to `a` when it
 * already is that dtype and aligned. */
static CaArray *
as_input(CaArray *a, int dtype)
{
    if (a->dtype == dtype && !ca_array_misaligned(a)) {
        Py_INCREF(a);
        return a;
    }
    return ca_array_copy(a, dtype, 'K');
}

/* ======================================================================== */
/* Running one reduction kernel                                              */
/* ======================================================================== */

/* The kept and reduced dims of `arr` (whose axis i is axis perm[i] of the
 * original input) into d. omap[orig axis] is the axis of res (and aux). */
static void
fill_desc(ca_reduce_desc *d, const CaArray *arr, const int *perm,
          const unsigned char *red, const int *omap, const CaArray *res,
          const CaArray *aux)
{
    d->nkeep = 0;
    d->nred = 0;
    for (int i = 0; i < CA_NDIM(arr); i++) {
        const int ax = perm ? perm[i] : i;
        if (red[ax]) {
            d->red_shape[d->nred] = CA_SHAPE(arr)[i];
            d->red_in[d->nred] = CA_STRIDES(arr)[i];
            d->nred++;
        }
        else {
            const int k = d->nkeep++;
            d->keep_shape[k] = CA_SHAPE(arr)[i];
            d->keep_in[k] = CA_STRIDES(arr)[i];
            d->keep_out[k] = CA_STRIDES(res)[omap[ax]];
            d->keep_aux[k] = aux ? CA_STRIDES(aux)[omap[ax]] : 0;
        }
    }
    d->in = arr->data;
    d->out = res->data;
    d->aux = aux ? aux->data : NULL;
}

/* res[...] = op over the reduced axes of arr, res in dtype kout. */
static int
run_reduce(const char *fname, int op, CaArray *arr, const unsigned char *red,
           const int *omap, CaArray *res, int kout, CaArray *aux, double divisor,
           int flags)
{
    ca_reduce_desc d;
    CaArray *view = NULL, *copy = NULL;
    CaMemory *ws = NULL;
    const int device = arr->device;
    int rc;

    if (res->size == 0) {
        return 0;
    }
    if (ca_use_device(device) < 0) {
        return -1;
    }
    ca_stream_t stream = device == CA_CPU ? NULL : ca_current_stream(device);
    d.divisor = divisor;
    d.flags = flags;
    fill_desc(&d, arr, NULL, red, omap, res, aux);
    rc = ca_reduce_plan(device, op, &d, arr->dtype, kout);
    if (rc == CA_KERR_UNSUPPORTED && device != CA_CPU &&
        ca_reduce_supported(op, arr->dtype, kout)) {
        /* Too many dims left after merging for the GPU kernels: copy the input
         * with the kept axes first and the reduced ones last, which merges
         * each group into one. The relative order of the reduced axes is
         * kept, so arg positions are unchanged. */
        int perm[CA_MAX_DIMS];
        Py_ssize_t shape[CA_MAX_DIMS], strides[CA_MAX_DIMS];
        int n = 0;
        for (int pass = 0; pass < 2; pass++) {
            for (int i = 0; i < CA_NDIM(arr); i++) {
                if (red[i] == pass) {
                    perm[n] = i;
                    shape[n] = CA_SHAPE(arr)[i];
                    strides[n] = CA_STRIDES(arr)[i];
                    n++;
                }
            }
        }
        view = ca_array_view(arr, arr->dtype, n, shape, strides, arr->data);
        if (view == NULL) {
            goto error;
        }
        copy = ca_array_copy(view, arr->dtype, 'C');
        if (copy == NULL) {
            goto error;
        }
        fill_desc(&d, copy, perm, red, omap, res, aux);
        rc = ca_reduce_plan(device, op, &d, copy->dtype, kout);
    }
    if (rc != 0) {
        ca_cuda_error_int(rc, fname);
        goto error;
    }
    if (d.workspace_bytes > 0) {
        ws = ca_memory_alloc(device, CA_MEM_DEVICE, d.workspace_bytes, stream);
        if (ws == NULL) {
            goto error;
        }
        d.workspace = ws->ptr;
    }
    const int in_dtype = copy ? copy->dtype : arr->dtype;
    /* A one-element result on a GPU is mirrored to host memory by the kernel
     * that computes it (readback.h): float(a.sum()) then needs no launch. */
    int mslot = -1;
    d.mirror = NULL;
    d.mirror_flag = NULL;
    d.mirror_seq = 0;
    if (device != CA_CPU && res->size == 1 && res->rb_slot < 0 &&
        res->itemsize <= CA_READBACK_VALUE_BYTES) {
        mslot = ca_readback_mirror_acquire(device, stream, &d.mirror, &d.mirror_flag,
                                           &d.mirror_seq);
        if (mslot < 0) {
            d.mirror = NULL;
        }
    }
    if (device == CA_CPU && (int64_t)d.nout * d.nred_elems >= (1 << 16)) {
        Py_BEGIN_ALLOW_THREADS
        rc = ca_reduce(device, op, &d, in_dtype, kout, stream);
        Py_END_ALLOW_THREADS
    }
    else {
        rc = ca_reduce(device, op, &d, in_dtype, kout, stream);
    }
    if (mslot >= 0) {
        if (rc != 0 && d.mirror != NULL) {
            ca_readback_mirror_retire(mslot);  /* a kernel may still write it */
        }
        else if (d.mirror == NULL) {
            ca_readback_mirror_unused(mslot);  /* the plan's kernels do not write it */
        }
        else {
            res->rb_slot = mslot;
            res->rb_epoch = ca_work_epoch;  /* after the launch's own count */
        }
    }
    if (rc != 0) {
        ca_cuda_error_int(rc, fname);
        goto error;
    }
    /* The workspace and the copy go back to the pool stream-ordered: the
     * kernels queued on `stream` finish before anything else reuses them. */
    Py_XDECREF(ws);
    Py_XDECREF(copy);
    Py_XDECREF(view);
    return 0;
error:
    Py_XDECREF(ws);
    Py_XDECREF(copy);
    Py_XDECREF(view);
    return -1;
}

/* The kernels' result kres (dtype kout) as the call's: cast to rdt, then written
 * into out when one was given (unless the kernels wrote out itself). Steals
 * kres; a new reference, or NULL with an exception. */
static CaArray *
finish_result(CaArray *kres, int kout, int rdt, CaArray *out)
{
    CaArray *res = kres;
    if (kres == out) {
        return kres;
    }
    if (kout != rdt) {
        res = ca_array_copy(kres, rdt, 'C');
        Py_DECREF(kres);
        if (res == NULL) {
            return NULL;
        }
    }
    if (out != NULL) {
        const int r = ca_assign(out, res);
        Py_DECREF(res);
        if (r < 0) {
            return NULL;
        }
        Py_INCREF(out);
        return out;
    }
    return res;
}

/* Fill an array with one Python value (identities of empty reductions). */
static int
fill_value(CaArray *a, PyObject *value)
{
    unsigned char buf[16];
    if (a->size == 0) {
        return 0;
    }
    if (ca_value_to_bytes(value, a->dtype, buf) < 0) {
        return -1;
    }
    return ca_array_fill(a, buf);
}

/* ======================================================================== */
/* Reductions                                                                */
/* ======================================================================== */

static PyObject *
reduction(int fn, CaArray *a, PyObject *axis, PyObject *dtype_obj, PyObject *out_obj,
          PyObject *keepdims_obj, PyObject *ddof_obj)
{
    CaArray *arr = NULL, *kres = NULL, *aux = NULL, *res = NULL, *out = NULL;
    PyObject *value = NULL;
    const int ndim = CA_NDIM(a);
    const int device = a->device;
    const int in = a->dtype;
    const int is_arg = fn == F_ARGMAX || fn == F_ARGMIN;
    unsigned char red[CA_MAX_DIMS];
    int omap[CA_MAX_DIMS];
    Py_ssize_t shape[CA_MAX_DIMS];
    int keepdims = 0, req = -1;
    double ddof = 0.0;

    if (parse_axes(axis, ndim, red, !is_arg) < 0) {
        return NULL;
    }
    if (keepdims_obj != NULL && (keepdims = PyObject_IsTrue(keepdims_obj)) < 0) {
        return NULL;
    }
    if (dtype_obj != NULL && dtype_obj != Py_None) {
        if ((req = ca_dtype_converter(dtype_obj, -1)) < 0) {
            return NULL;
        }
    }
    if (ddof_obj != NULL && ddof_obj != Py_None) {
        ddof = PyFloat_AsDouble(ddof_obj);
        if (ddof == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (check_out(out_obj, a, &out) < 0) {
        return NULL;
    }

    /* the result's shape */
    int rnd = 0;
    int64_t R = 1;
    for (int d = 0; d < ndim; d++) {
        if (red[d]) {
            R *= CA_SHAPE(a)[d];
            omap[d] = keepdims ? rnd : -1;
            if (keepdims) {
                shape[rnd++] = 1;
            }
        }
        else {
            omap[d] = rnd;
            shape[rnd++] = CA_SHAPE(a)[d];
        }
    }
    Py_ssize_t rsize = 1;
    for (int d = 0; d < rnd; d++) {
        rsize *= shape[d];
    }
    if (out != NULL && check_out_shape(fn_name[fn], out, rnd, shape, keepdims) < 0) {
        return NULL;
    }

    /* dtypes: the op, what the kernel reads (in_k) and writes (kout), and the
     * function's result dtype (rdt) */
    int op = CA_RED_SUM, in_k = in, kout = in, rdt = in, flags = 0;
    double divisor = 1.0;
    switch (fn) {
    case F_SUM:
    case F_PROD: {
        int C = req >= 0 ? req : out != NULL ? ca_promote(in, out->dtype) : sum_dtype(in);
        if (C < 0) {
            return NULL;
        }
        op = fn == F_SUM ? CA_RED_SUM : CA_RED_PROD;
        if (C == CA_BOOL) {
            /* + and * of bools are or and and */
            op = fn == F_SUM ? CA_RED_ANY : CA_RED_ALL;
            kout = CA_BOOL;
        }
        else if (ca_is_integer(C)) {
            if (!is_int_or_bool(in)) {
                in_k = C;
            }
            kout = sum_dtype(in_k);
        }
        else {
            if (!ca_reduce_supported(op, in, C)) {
                in_k = C;
            }
            kout = C;
        }
        rdt = C;
        break;
    }
    case F_MEAN: {
        int C;
        if (req >= 0) {
            C = req;
        }
        else if (is_int_or_bool(in)) {
            C = CA_FLOAT64;
        }
        else if (in == CA_FLOAT16 || out == NULL) {
            C = in; /* float16 sums accumulate in float32 */
        }
        else {
            C = ca_promote(in, out->dtype);
            if (C < 0) {
                return NULL;
            }
        }
        divisor = (double)R;
        if (is_int_or_bool(C)) {
            /* integer means: computed in float64, then cast */
            kout = CA_FLOAT64;
        }
        else {
            kout = C;
        }
        if (!ca_reduce_supported(CA_RED_SUM, in, kout)) {
            in_k = kout;
        }
        rdt = C;
        break;
    }
    case F_MAX:
    case F_MIN:
        op = fn == F_MAX ? CA_RED_MAX : CA_RED_MIN;
        break;
    case F_ARGMAX:
    case F_ARGMIN:
        op = fn == F_ARGMAX ? CA_RED_ARGMAX : CA_RED_ARGMIN;
        kout = rdt = CA_INT64;
        if (out != NULL && !ca_is_integer(out->dtype)) {
            PyErr_Format(PyExc_TypeError,
                         "Cannot cast array data from dtype('int64') to dtype('%s') "
                         "according to the rule 'safe'",
                         ca_dtype_name[out->dtype]);
            return NULL;
        }
        break;
    case F_ANY:
    case F_ALL:
        op = fn == F_ANY ? CA_RED_ANY : CA_RED_ALL;
        kout = rdt = CA_BOOL;
        break;
    default: { /* F_VAR, F_STD */
        int C = req >= 0 ? req : is_int_or_bool(in) ? CA_FLOAT64 : in;
        op = CA_RED_SQDEV;
        kout = ca_is_inexact(C) ? real_dtype(C) : CA_FLOAT64;
        if (!ca_reduce_supported(CA_RED_SQDEV, in, kout)) {
            in_k = ca_is_inexact(C) ? C : CA_FLOAT64;
        }
        /* NumPy sums the squared deviations in dtype= when given: a complex
         * dtype gives a complex result (with a zero imaginary part) */
        rdt = req >= 0 ? req : real_dtype(C);
        double n = (double)R - ddof;
        divisor = n > 0 ? n : 0.0;
        flags = fn == F_STD ? CA_RED_SQRT : 0;
        break;
    }
    }

    /* empty reductions */
    if (R == 0 && rsize > 0) {
        const char *msg = NULL;
        switch (fn) {
        case F_MAX:
            msg = "zero-size array to reduction operation maximum which has no identity";
            break;
        case F_MIN:
            msg = "zero-size array to reduction operation minimum which has no identity";
            break;
        case F_ARGMAX:
            msg = "attempt to get argmax of an empty sequence";
            break;
        case F_ARGMIN:
            msg = "attempt to get argmin of an empty sequence";
            break;
        default:
            break;
        }
        if (msg != NULL) {
            PyErr_SetString(PyExc_ValueError, msg);
            return NULL;
        }
        if (fn == F_MEAN &&
            PyErr_WarnEx(PyExc_RuntimeWarning, "Mean of empty slice.", 1) < 0) {
            return NULL;
        }
    }
    if ((fn == F_VAR || fn == F_STD) && rsize > 0 && (double)R - ddof <= 0 &&
        PyErr_WarnEx(PyExc_RuntimeWarning, "Degrees of freedom <= 0 for slice", 1) < 0) {
        return NULL;
    }

    /* the kernel's output: out itself when nothing stands between */
    if (out != NULL && out->dtype == kout && kout == rdt && !ca_array_misaligned(out) &&
        !overlaps(out, a)) {
        kres = out;
        Py_INCREF(kres);
    }
    else {
        kres = ca_array_empty(kout, rnd, shape, 0, device, result_kind(device));
        if (kres == NULL) {
            goto error;
        }
    }

    if (R == 0) {
        /* identities; the mean and variance of nothing are NaN */
        switch (fn) {
        case F_SUM:
        case F_ANY:
            value = PyLong_FromLong(0);
            break;
        case F_PROD:
        case F_ALL:
            value = PyLong_FromLong(1);
            break;
        default:
            value = PyFloat_FromDouble(NAN);
            break;
        }
        if (value == NULL || fill_value(kres, value) < 0) {
            goto error;
        }
    }
    else if (rsize > 0) {
        arr = as_input(a, in_k);
        if (arr == NULL) {
            goto error;
        }
        if (op == CA_RED_SQDEV) {
            /* pass 1: the means, in the aux dtype */
            const int m = ca_reduce_sqdev_aux_dtype(in_k);
            aux = ca_array_empty(m, rnd, shape, 0, device, result_kind(device));
            if (aux == NULL ||
                run_reduce(fn_name[fn], CA_RED_SUM, arr, red, omap, aux, m, NULL, (double)R,
                           0) < 0) {
                goto error;
            }
        }
        if (run_reduce(fn_name[fn], op, arr, red, omap, kres, kout, aux, divisor, flags) < 0) {
            goto error;
        }
    }

    /* casts: kernel dtype -> result dtype -> out */
    res = finish_result(kres, kout, rdt, out);
    kres = NULL;
    if (res == NULL) {
        goto error;
    }
    Py_XDECREF(kres);
    Py_XDECREF(arr);
    Py_XDECREF(aux);
    Py_XDECREF(value);
    return (PyObject *)res;
error:
    Py_XDECREF(kres);
    Py_XDECREF(arr);
    Py_XDECREF(aux);
    Py_XDECREF(value);
    Py_XDECREF(res);
    return NULL;
}

/* ======================================================================== */
/* Scans                                                                     */
/* ======================================================================== */

static PyObject *
scan(int fn, CaArray *a, PyObject *axis, PyObject *dtype_obj, PyObject *out_obj)
{
    CaArray *flat = NULL, *arr = NULL, *kres = NULL, *res = NULL, *out = NULL;
    CaMemory *ws = NULL;
    const int device = a->device;
    const int in = a->dtype;
    const int op = fn == F_CUMSUM ? CA_RED_SUM : CA_RED_PROD;
    int req = -1, ax = 0, rc;
    CaArray *src = a;

    if (dtype_obj != NULL && dtype_obj != Py_None) {
        if ((req = ca_dtype_converter(dtype_obj, -1)) < 0) {
            return NULL;
        }
    }
    if (check_out(out_obj, a, &out) < 0) {
        return NULL;
    }
    /* axis None (and any axis of a 0-d array): the flattened array */
    int flatten = axis == NULL || axis == Py_None || CA_NDIM(a) == 0;
    if (flatten && axis != NULL && axis != Py_None) {
        unsigned char red[CA_MAX_DIMS];
        if (PyTuple_Check(axis)) {
            PyErr_SetString(PyExc_TypeError,
                            "'tuple' object cannot be interpreted as an integer");
            return NULL;
        }
        if (parse_axes(axis, 0, red, 0) < 0) {
            return NULL;
        }
    }
    if (!flatten && one_axis(axis, CA_NDIM(a), &ax) < 0) {
        return NULL;
    }
    if (flatten) {
        Py_ssize_t n = a->size;
        if (!(a->flags & CA_C_CONTIGUOUS)) {
            flat = ca_array_copy(a, a->dtype, 'C');
            if (flat == NULL) {
                return NULL;
            }
            src = flat;
        }
        /* a 1-d view of the C-contiguous data */
        Py_ssize_t st = src->itemsize;
        CaArray *v = ca_array_view(src, src->dtype, 1, &n, &st, src->data);
        Py_XDECREF(flat);
        flat = v;
        if (flat == NULL) {
            return NULL;
        }
        src = flat;
        ax = 0;
    }
    const int nd = CA_NDIM(src);
    if (out != NULL && check_out_shape(fn_name[fn], out, nd, CA_SHAPE(src), 0) < 0) {
        goto error;
    }

    /* as NumPy's accumulate: out= without dtype= computes in the promotion */
    int C = req >= 0 ? req : out != NULL ? ca_promote(in, out->dtype) : sum_dtype(in);
    if (C < 0) {
        goto error;
    }
    int in_k = in, kout;
    if (C == CA_BOOL) {
        /* running or / and: the 0/1 prefix sums and products, cast to bool */
        in_k = CA_BOOL;
        kout = CA_INT64;
    }
    else if (ca_is_integer(C)) {
        if (!is_int_or_bool(in)) {
            in_k = C;
        }
        kout = sum_dtype(in_k);
    }
    else {
        if (sum_dtype(in) != C) {
            in_k = C;
        }
        kout = C;
    }

    arr = as_input(src, in_k);
    if (arr == NULL) {
        goto error;
    }
    /* out directly when it is the kernel's dtype and is either disjoint from
     * the input or exactly it (each element is read before it is written) */
    if (out != NULL && out->dtype == kout && kout == C && !ca_array_misaligned(out) &&
        (!overlaps(out, arr) || (same_view(out, arr) && arr->dtype == kout))) {
        kres = out;
        Py_INCREF(kres);
    }
    else {
        kres = ca_array_empty(kout, nd, CA_SHAPE(src), 0, device, result_kind(device));
        if (kres == NULL) {
            goto error;
        }
    }

    if (kres->size > 0) {
        ca_scan_desc d;
        d.nbatch = 0;
        for (int i = 0; i < nd; i++) {
            if (i == ax) {
                continue;
            }
            d.batch_shape[d.nbatch] = CA_SHAPE(arr)[i];
            d.batch_in[d.nbatch] = CA_STRIDES(arr)[i];
            d.batch_out[d.nbatch] = CA_STRIDES(kres)[i];
            d.nbatch++;
        }
        d.len = CA_SHAPE(arr)[ax];
        d.in_stride = CA_STRIDES(arr)[ax];
        d.out_stride = CA_STRIDES(kres)[ax];
        d.in = arr->data;
        d.out = kres->data;
        if (ca_use_device(device) < 0) {
            goto error;
        }
        ca_stream_t stream = device == CA_CPU ? NULL : ca_current_stream(device);
        rc = ca_scan_plan(device, op, &d, arr->dtype, kout);
        if (rc == CA_KERR_UNSUPPORTED && device != CA_CPU &&
            ca_scan_supported(op, arr->dtype, kout)) {
            /* too many unmergeable dims for the GPU: contiguous operands */
            CaArray *c = ca_array_copy(arr, arr->dtype, 'C');
            if (c == NULL) {
                goto error;
            }
            Py_SETREF(arr, c);
            if (kres == out) {
                Py_SETREF(kres, ca_array_empty(kout, nd, CA_SHAPE(src), 0, device,
                                               result_kind(device)));
                if (kres == NULL) {
                    goto error;
                }
            }
            int k = 0;
            for (int i = 0; i < nd; i++) {
                if (i != ax) {
                    d.batch_shape[k] = CA_SHAPE(arr)[i];
                    d.batch_in[k] = CA_STRIDES(arr)[i];
                    d.batch_out[k] = CA_STRIDES(kres)[i];
                    k++;
                }
            }
            d.nbatch = k;
            d.len = CA_SHAPE(arr)[ax];
            d.in_stride = CA_STRIDES(arr)[ax];
            d.out_stride = CA_STRIDES(kres)[ax];
            d.in = arr->data;
            d.out = kres->data;
            rc = ca_scan_plan(device, op, &d, arr->dtype, kout);
        }
        if (rc != 0) {
            ca_cuda_error_int(rc, fn_name[fn]);
            goto error;
        }
        if (d.workspace_bytes > 0) {
            ws = ca_memory_alloc(device, CA_MEM_DEVICE, d.workspace_bytes, stream);
            if (ws == NULL) {
                goto error;
            }
            d.workspace = ws->ptr;
        }
        if (device == CA_CPU && kres->size >= (1 << 16)) {
            Py_BEGIN_ALLOW_THREADS
            rc = ca_scan(device, op, &d, arr->dtype, kout, stream);
            Py_END_ALLOW_THREADS
        }
        else {
            rc = ca_scan(device, op, &d, arr->dtype, kout, stream);
        }
        Py_CLEAR(ws);
        if (rc != 0) {
            ca_cuda_error_int(rc, fn_name[fn]);
            goto error;
        }
    }

    res = finish_result(kres, kout, C, out);
    kres = NULL;
    if (res == NULL) {
        goto error;
    }
    Py_XDECREF(kres);
    Py_XDECREF(arr);
    Py_XDECREF(flat);
    return (PyObject *)res;
error:
    Py_XDECREF(ws);
    Py_XDECREF(kres);
    Py_XDECREF(arr);
    Py_XDECREF(flat);
    Py_XDECREF(res);
    return NULL;
}

/* ======================================================================== */
/* Argument parsing: functions and methods                                   */
/* ======================================================================== */

/* The signatures, as NumPy's functions (the methods drop `a`). Slot indices
 * count from `a`; -1 = not an argument of this function. */
typedef struct {
    const char *const *names;
    int npos; /* positional parameters of the function, `a` included */
    int axis, dtype, out, keepdims, ddof;
} sig;

static const char *const names_sum[] = {"a", "axis", "dtype", "out", "keepdims", NULL};
static const char *const names_max[] = {"a", "axis", "out", "keepdims", NULL};
static const char *const names_var[] = {"a", "axis", "dtype", "out", "ddof", "keepdims", NULL};
static const char *const names_cum[] = {"a", "axis", "dtype", "out", NULL};

static const sig sigs[F_NFUNCS] = {
    [F_SUM] = {names_sum, 5, 1, 2, 3, 4, -1},
    [F_PROD] = {names_sum, 5, 1, 2, 3, 4, -1},
    [F_MEAN] = {names_sum, 5, 1, 2, 3, 4, -1},
    [F_MAX] = {names_max, 4, 1, -1, 2, 3, -1},
    [F_MIN] = {names_max, 4, 1, -1, 2, 3, -1},
    /* keepdims is keyword-only for argmax/argmin */
    [F_ARGMAX] = {names_max, 3, 1, -1, 2, 3, -1},
    [F_ARGMIN] = {names_max, 3, 1, -1, 2, 3, -1},
    [F_VAR] = {names_var, 6, 1, 2, 3, 5, 4},
    [F_STD] = {names_var, 6, 1, 2, 3, 5, 4},
    [F_ANY] = {names_max, 4, 1, -1, 2, 3, -1},
    [F_ALL] = {names_max, 4, 1, -1, 2, 3, -1},
    [F_CUMSUM] = {names_cum, 4, 1, 2, 3, -1, -1},
    [F_CUMPROD] = {names_cum, 4, 1, 2, 3, -1, -1},
};

/* self: the array of a method call, NULL for the module function. */
static PyObject *
dispatch(int fn, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    PyObject *v[8] = {NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    const sig *s = &sigs[fn];
    CaArray *a;
    if (self != NULL) {
        /* the hot path: a.sum() */
        if (nargs != 0 || kwnames != NULL) {
            if (ca_parse_args(fn_name[fn], args, nargs, kwnames, s->names + 1, s->npos - 1, 0,
                              v + 1) < 0) {
                return NULL;
            }
        }
        a = (CaArray *)self;
    }
    else {
        if (ca_parse_args(fn_name[fn], args, nargs, kwnames, s->names, s->npos, 1, v) < 0) {
            return NULL;
        }
        if (!ca_array_check(v[0])) {
            PyErr_Format(PyExc_TypeError,
                         "%s() requires a cuarray.ndarray, not %.200s (use cuarray.asarray "
                         "to make one)",
                         fn_name[fn], Py_TYPE(v[0])->tp_name);
            return NULL;
        }
        a = (CaArray *)v[0];
    }
#define SLOT(i) ((i) >= 0 ? v[i] : NULL)
    if (fn == F_CUMSUM || fn == F_CUMPROD) {
        return scan(fn, a, SLOT(s->axis), SLOT(s->dtype), SLOT(s->out));
    }
    return reduction(fn, a, SLOT(s->axis), SLOT(s->dtype), SLOT(s->out), SLOT(s->keepdims),
                     SLOT(s->ddof));
#undef SLOT
}

#define CA_RED_WRAPPERS(NAME, FN)                                                        \
    static PyObject *py_##NAME(PyObject *m, PyObject *const *args, Py_ssize_t nargs,     \
                               PyObject *kwnames)                                        \
    {                                                                                    \
        (void)m;                                                                         \
        return dispatch(FN, NULL, args, nargs, kwnames);                                 \
    }                                                                                    \
    static PyObject *Ndarray_##NAME(PyObject *self, PyObject *const *args,               \
                                    Py_ssize_t nargs, PyObject *kwnames)                 \
    {                                                                                    \
        return dispatch(FN, self, args, nargs, kwnames);                                 \
    }

CA_RED_WRAPPERS(sum, F_SUM)
CA_RED_WRAPPERS(prod, F_PROD)
CA_RED_WRAPPERS(mean, F_MEAN)
CA_RED_WRAPPERS(max, F_MAX)
CA_RED_WRAPPERS(min, F_MIN)
CA_RED_WRAPPERS(argmax, F_ARGMAX)
CA_RED_WRAPPERS(argmin, F_ARGMIN)
CA_RED_WRAPPERS(var, F_VAR)
CA_RED_WRAPPERS(std, F_STD)
CA_RED_WRAPPERS(any, F_ANY)
CA_RED_WRAPPERS(all, F_ALL)
CA_RED_WRAPPERS(cumsum, F_CUMSUM)
CA_RED_WRAPPERS(cumprod, F_CUMPROD)

#define CA_FC (PyCFunction)(void (*)(void))
#define CA_FLAGS (METH_FASTCALL | METH_KEYWORDS)

#define DOC_SUM                                                                          \
    "sum(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"                    \
    "Sum over the given axes (int, tuple, None for all). Bool and integers smaller\n"   \
    "than int64 sum in int64 (unsigned in uint64), float16 accumulates in float32,\n"   \
    "float32 in double. Returns a 0-d array for a full reduction (no synchronize)."
#define DOC_PROD                                                                         \
    "prod(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"                   \
    "Product over the given axes, with sum's dtype rules."
#define DOC_MEAN                                                                         \
    "mean(a, axis=None, dtype=None, out=None, keepdims=False)\n--\n\n"                   \
    "Arithmetic mean over the given axes; integers give float64, float16 is\n"          \
    "computed in float32. The mean of nothing is NaN (RuntimeWarning)."
#define DOC_MAX                                                                          \
    "max(a, axis=None, out=None, keepdims=False)\n--\n\n"                                \
    "Largest element over the given axes; NaN propagates. Empty: ValueError."
#define DOC_MIN                                                                          \
    "min(a, axis=None, out=None, keepdims=False)\n--\n\n"                                \
    "Smallest element over the given axes; NaN propagates. Empty: ValueError."
#define DOC_ARGMAX                                                                       \
    "argmax(a, axis=None, out=None, *, keepdims=False)\n--\n\n"                          \
    "Index (int64) of the first largest element along an axis, or in the flattened\n"   \
    "array for axis=None; a NaN counts as largest."
#define DOC_ARGMIN                                                                       \
    "argmin(a, axis=None, out=None, *, keepdims=False)\n--\n\n"                          \
    "Index (int64) of the first smallest element; a NaN counts as smallest."
#define DOC_VAR                                                                          \
    "var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)\n--\n\n"            \
    "Variance: mean(|x - x.mean()|**2) with n - ddof as the divisor (two passes).\n"    \
    "Integers give float64, complex gives the real dtype."
#define DOC_STD                                                                          \
    "std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False)\n--\n\n"            \
    "Standard deviation: the square root of var."
#define DOC_ANY                                                                          \
    "any(a, axis=None, out=None, keepdims=False)\n--\n\n"                                \
    "Whether any element is true (nonzero; NaN is true)."
#define DOC_ALL                                                                          \
    "all(a, axis=None, out=None, keepdims=False)\n--\n\n"                                \
    "Whether every element is true (nonzero; NaN is true)."
#define DOC_CUMSUM                                                                       \
    "cumsum(a, axis=None, dtype=None, out=None)\n--\n\n"                                 \
    "Inclusive prefix sums along an axis (of the flattened array for None), with\n"     \
    "sum's dtype rules."
#define DOC_CUMPROD                                                                      \
    "cumprod(a, axis=None, dtype=None, out=None)\n--\n\n"                                \
    "Inclusive prefix products along an axis (of the flattened array for None)."

static PyMethodDef reduction_functions[] = {
    {"sum", CA_FC py_sum, CA_FLAGS, DOC_SUM},
    {"prod", CA_FC py_prod, CA_FLAGS, DOC_PROD},
    {"mean", CA_FC py_mean, CA_FLAGS, DOC_MEAN},
    {"max", CA_FC py_max, CA_FLAGS, DOC_MAX},
    {"amax", CA_FC py_max, CA_FLAGS, DOC_MAX},
    {"min", CA_FC py_min, CA_FLAGS, DOC_MIN},
    {"amin", CA_FC py_min, CA_FLAGS, DOC_MIN},
    {"argmax", CA_FC py_argmax, CA_FLAGS, DOC_ARGMAX},
    {"argmin", CA_FC py_argmin, CA_FLAGS, DOC_ARGMIN},
    {"var", CA_FC py_var, CA_FLAGS, DOC_VAR},
    {"std", CA_FC py_std, CA_FLAGS, DOC_STD},
    {"any", CA_FC py_any, CA_FLAGS, DOC_ANY},
    {"all", CA_FC py_all, CA_FLAGS, DOC_ALL},
    {"cumsum", CA_FC py_cumsum, CA_FLAGS, DOC_CUMSUM},
    {"cumprod", CA_FC py_cumprod, CA_FLAGS, DOC_CUMPROD},
    {NULL, NULL, 0, NULL},
};

PyMethodDef ca_reduction_array_methods[] = {
    {"sum", CA_FC Ndarray_sum, CA_FLAGS, DOC_SUM},
    {"prod", CA_FC Ndarray_prod, CA_FLAGS, DOC_PROD},
    {"mean", CA_FC Ndarray_mean, CA_FLAGS, DOC_MEAN},
    {"max", CA_FC Ndarray_max, CA_FLAGS, DOC_MAX},
    {"min", CA_FC Ndarray_min, CA_FLAGS, DOC_MIN},
    {"argmax", CA_FC Ndarray_argmax, CA_FLAGS, DOC_ARGMAX},
    {"argmin", CA_FC Ndarray_argmin, CA_FLAGS, DOC_ARGMIN},
    {"var", CA_FC Ndarray_var, CA_FLAGS, DOC_VAR},
    {"std", CA_FC Ndarray_std, CA_FLAGS, DOC_STD},
    {"any", CA_FC Ndarray_any, CA_FLAGS, DOC_ANY},
    {"all", CA_FC Ndarray_all, CA_FLAGS, DOC_ALL},
    {"cumsum", CA_FC Ndarray_cumsum, CA_FLAGS, DOC_CUMSUM},
    {"cumprod", CA_FC Ndarray_cumprod, CA_FLAGS, DOC_CUMPROD},
    {NULL, NULL, 0, NULL},
};

int
ca_reduction_init(PyObject *m)
{
    return PyModule_AddFunctions(m, reduction_functions);
}

/*
 * reduction.c: reductions and scans, as module functions and ndarray methods:
 * the functions of kernels/reductions.def (sum, prod, mean, max/amax,
 * min/amin, argmax, argmin, var, std, any, all, cumsum, cumprod), whose
 * generated table (build/generated/red_table.h) gives each one's kernel op,
 * dtype rule, NumPy's result dtypes, empty behaviour, signature and docstring.
 *
 * Arguments are parsed here in C (METH_FASTCALL); the kernels take a
 * ca_reduce_desc of kept and reduced dims (kernels/dispatch/dispatch_reduce.c), run
 * through the launch layer (launch.h). The compute dtype is NumPy's: sums and
 * products of bool and small ints in int64 (uint64 for unsigned), mean of ints
 * in float64, float16 accumulated in float32, var/std of complex real; with
 * out= and no dtype=, sums compute in the promotion of the input and out
 * dtypes, as NumPy's reduce does. An integer result of another integer dtype is
 * computed in 64 bits and cast (the same bits modulo 2^n, i.e. NumPy's
 * wrapping); an input whose dtype has no kernel for the compute dtype is cast
 * first. Results are new arrays (0-d for full reductions); nothing here
 * synchronizes.
 */
#include "cuarray.h"
#include "datetime_hook.h"
#include "launch.h"
#include "readback.h"
#include "red_table.h"

#include <math.h>
#include <string.h>

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
 * and reduces nothing when zero_d_ok (NumPy's ufunc reductions); the mean,
 * var and std raise AxisError there, as NumPy's, which counts the items of
 * each axis first. */
static int
parse_axes(PyObject *axis, int ndim, unsigned char *red, int tuple_ok, int zero_d_ok)
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
    if (ndim == 0 && zero_d_ok && PyIndex_Check(axis)) {
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
    return a->data == b->data && a->itemsize == b->itemsize &&
           CA_NDIM(a) == CA_NDIM(b) &&
           memcmp(CA_SHAPE(a), CA_SHAPE(b), (size_t)CA_NDIM(a) * sizeof(Py_ssize_t)) ==
               0 &&
           memcmp(CA_STRIDES(a), CA_STRIDES(b),
                  (size_t)CA_NDIM(a) * sizeof(Py_ssize_t)) == 0;
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
        PyErr_Format(
            PyExc_ValueError,
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
                             "output parameter for %s has shape %S, expected %S", fname,
                             got, want);
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

/* A C-contiguous copy of arr with the kept axes first and the reduced ones
 * last, which merges each group into one; perm[i] is the original axis of the
 * copy's axis i. The relative order of the reduced axes is kept, so arg
 * positions are unchanged. */
static CaArray *
reduced_last_copy(CaArray *arr, const unsigned char *red, int *perm)
{
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
    CaArray *view = ca_array_view(arr, arr->dtype, n, shape, strides, arr->data);
    if (view == NULL) {
        return NULL;
    }
    CaArray *copy = ca_array_copy(view, arr->dtype, 'C');
    Py_DECREF(view);
    return copy;
}

/* Fill and plan d for res[...] = op over the reduced axes of arr. When the GPU
 * kernels take too few dims for arr's layout, *copy (new) is the input the
 * plan was made for. */
static int
plan_reduce(const char *fname, int op, CaArray *arr, const unsigned char *red,
            const int *omap, CaArray *res, int kout, CaArray *aux, ca_reduce_desc *d,
            CaArray **copy)
{
    const int device = arr->device;
    fill_desc(d, arr, NULL, red, omap, res, aux);
    int rc = ca_reduce_plan(device, op, d, arr->dtype, kout);
    if (rc == CA_KERR_UNSUPPORTED && device != CA_CPU &&
        ca_reduce_supported(op, arr->dtype, kout)) {
        /* too many dims left after merging for the GPU kernels */
        int perm[CA_MAX_DIMS];
        *copy = reduced_last_copy(arr, red, perm);
        if (*copy == NULL) {
            return -1;
        }
        fill_desc(d, *copy, perm, red, omap, res, aux);
        rc = ca_reduce_plan(device, op, d, (*copy)->dtype, kout);
    }
    return ca_launch_status(rc, fname);
}

/* A one-element result on a GPU is mirrored to host memory by the kernel that
 * computes it (readback.h): float(a.sum()) then needs no launch. The slot, or
 * -1 (then d has no mirror). */
static int
mirror_acquire(ca_reduce_desc *d, const CaArray *res, int device, ca_stream_t stream)
{
    int mslot = -1;
    d->mirror = NULL;
    d->mirror_flag = NULL;
    d->mirror_seq = 0;
    if (device != CA_CPU && res->size == 1 && res->rb_slot < 0 &&
        res->itemsize <= CA_READBACK_VALUE_BYTES) {
        mslot = ca_readback_mirror_acquire(device, stream, &d->mirror, &d->mirror_flag,
                                           &d->mirror_seq);
        if (mslot < 0) {
            d->mirror = NULL;
        }
    }
    return mslot;
}

/* After the launch (rc its result): the slot is res's, unused, or (a failed
 * launch whose kernel may still write it) retired. */
static void
mirror_finish(int mslot, int rc, const ca_reduce_desc *d, CaArray *res)
{
    if (mslot < 0) {
        return;
    }
    if (rc != 0 && d->mirror != NULL) {
        ca_readback_mirror_retire(mslot); /* a kernel may still write it */
    }
    else if (d->mirror == NULL) {
        ca_readback_mirror_unused(mslot); /* the plan's kernels do not write it */
    }
    else {
        res->rb_slot = mslot;
        res->rb_epoch = ca_work_epoch; /* after the launch's own count */
    }
}

/* The planned reduction d of arr: a deferred array's sum runs with its program
 * in one launch (fusion.c) when the plan allows, else the plain kernels. 0, or
 * -1 with an exception. */
static int
fused_sum(int op, CaArray *arr, int in_dtype, const CaArray *copy, const CaArray *aux,
          int kout, ca_reduce_desc *d, ca_stream_t stream, const char *fname)
{
    if (arr->pending != NULL && copy == NULL && aux == NULL && op == CA_RED_SUM &&
        kout == arr->dtype) {
        const int rc = ca_fusion_sum(arr, d, stream);
        if (rc != CA_KERR_UNSUPPORTED) {
            return ca_launch_status(rc, fname);
        }
    }
    return ca_run_reduce(arr->device, op, d, in_dtype, kout, stream,
                         (int64_t)d->nout * d->nred_elems, fname);
}

/* res[...] = op over the reduced axes of arr, res in dtype kout. */
static int
run_reduce(const char *fname, int op, CaArray *arr, const unsigned char *red,
           const int *omap, CaArray *res, int kout, CaArray *aux, double divisor,
           int flags)
{
    ca_reduce_desc d;
    CaArray *copy = NULL;
    CaMemory *ws = NULL;
    const int device = arr->device;

    if (res->size == 0) {
        return 0;
    }
    if (ca_use_device(device) < 0) {
        return -1;
    }
    ca_stream_t stream = device == CA_CPU ? NULL : ca_current_stream(device);
    d.divisor = divisor;
    d.flags = flags;
    if (plan_reduce(fname, op, arr, red, omap, res, kout, aux, &d, &copy) < 0 ||
        ca_scratch_alloc(device, d.workspace_bytes, stream, &ws, &d.workspace) < 0) {
        goto error;
    }
    if (d.workspace != NULL && d.splits > 1) {
        /* counters let a split row reduction finish in its one launch */
        d.tickets = ca_memory_tickets(device, stream);
    }
    const int in_dtype = copy ? copy->dtype : arr->dtype;
    const int mslot = mirror_acquire(&d, res, device, stream);
    const int rc = fused_sum(op, arr, in_dtype, copy, aux, kout, &d, stream, fname);
    mirror_finish(mslot, rc, &d, res);
    if (rc != 0) {
        goto error;
    }
    /* The workspace and the copy go back to the pool stream-ordered: the
     * kernels queued on `stream` finish before anything else reuses them. */
    Py_XDECREF(ws);
    Py_XDECREF(copy);
    return 0;
error:
    Py_XDECREF(ws);
    Py_XDECREF(copy);
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

/* One reduction call, filled stage by stage. */
typedef struct {
    const ca_red_fn *f;
    CaArray *a;
    CaArray *out; /* borrowed; NULL: none */
    /* arguments */
    unsigned char red[CA_MAX_DIMS]; /* 1 for the reduced axes */
    int keepdims, req;              /* req: dtype=, -1 for none */
    double ddof;
    /* the result's shape */
    int omap[CA_MAX_DIMS]; /* axis of the input -> axis of the result, -1 */
    Py_ssize_t shape[CA_MAX_DIMS];
    int rnd;
    Py_ssize_t rsize;
    int64_t R; /* elements reduced into each result element */
    /* dtypes: the kernel op, what it reads (in_k) and writes (kout), the
     * function's result dtype (rdt) */
    int op, in_k, kout, rdt, flags;
    double divisor;
} red_call;

/* Stage 1: axis=, keepdims=, dtype=, ddof=, out=. */
static int
parse_reduce_args(red_call *c, PyObject *axis, PyObject *dtype_obj, PyObject *out_obj,
                  PyObject *keepdims_obj, PyObject *ddof_obj)
{
    c->keepdims = 0;
    c->req = -1;
    c->ddof = 0.0;
    if (parse_axes(axis, CA_NDIM(c->a), c->red, c->f->sig != CA_RSIG_ARG,
                   c->f->divisor == CA_RDIV_ONE) < 0) {
        return -1;
    }
    if (keepdims_obj != NULL && (c->keepdims = PyObject_IsTrue(keepdims_obj)) < 0) {
        return -1;
    }
    if (dtype_obj != NULL && dtype_obj != Py_None) {
        if ((c->req = ca_dtype_converter(dtype_obj, -1)) < 0) {
            return -1;
        }
    }
    if (ddof_obj != NULL && ddof_obj != Py_None) {
        c->ddof = PyFloat_AsDouble(ddof_obj);
        if (c->ddof == -1.0 && PyErr_Occurred()) {
            return -1;
        }
    }
    return check_out(out_obj, c->a, &c->out);
}

/* Stage 2: the result's shape, and out='s. */
static int
result_shape(red_call *c)
{
    const CaArray *a = c->a;
    c->rnd = 0;
    c->R = 1;
    for (int d = 0; d < CA_NDIM(a); d++) {
        if (c->red[d]) {
            c->R *= CA_SHAPE(a)[d];
            c->omap[d] = c->keepdims ? c->rnd : -1;
            if (c->keepdims) {
                c->shape[c->rnd++] = 1;
            }
        }
        else {
            c->omap[d] = c->rnd;
            c->shape[c->rnd++] = CA_SHAPE(a)[d];
        }
    }
    c->rsize = 1;
    for (int d = 0; d < c->rnd; d++) {
        c->rsize *= c->shape[d];
    }
    if (c->out != NULL &&
        check_out_shape(c->f->name, c->out, c->rnd, c->shape, c->keepdims) < 0) {
        return -1;
    }
    return 0;
}

/* Stage 3, rule `sum`: dtype=, else out='s promotion, else NumPy's result. */
static int
resolve_sum(red_call *c, int in)
{
    const int C = c->req >= 0      ? c->req
                  : c->out != NULL ? ca_promote(in, c->out->dtype)
                                   : c->f->result[in];
    if (C < 0) {
        return -1;
    }
    if (C == CA_BOOL && c->f->bool_kernel >= 0) {
        /* + and * of bools are or and and */
        c->op = c->f->bool_kernel;
        c->kout = CA_BOOL;
    }
    else if (ca_is_integer(C)) {
        if (!is_int_or_bool(in)) {
            c->in_k = C;
        }
        c->kout = c->f->result[c->in_k];
    }
    else {
        if (!ca_reduce_supported(c->op, in, C)) {
            c->in_k = C;
        }
        c->kout = C;
    }
    c->rdt = C;
    return 0;
}

/* Rule `mean`: integers compute in float64, float16 in its own dtype (the
 * kernel accumulates in float32). */
static int
resolve_mean(red_call *c, int in)
{
    int C;
    if (c->req >= 0) {
        C = c->req;
    }
    else if (is_int_or_bool(in)) {
        C = CA_FLOAT64;
    }
    else if (in == CA_FLOAT16 || c->out == NULL) {
        C = in;
    }
    else if ((C = ca_promote(in, c->out->dtype)) < 0) {
        return -1;
    }
    /* integer means: computed in float64, then cast */
    c->kout = is_int_or_bool(C) ? CA_FLOAT64 : C;
    if (!ca_reduce_supported(c->op, in, c->kout)) {
        c->in_k = c->kout;
    }
    c->rdt = C;
    return 0;
}

/* Rule `var`: a real result, unless dtype= asks for complex. */
static void
resolve_var(red_call *c, int in)
{
    const int C = c->req >= 0 ? c->req : is_int_or_bool(in) ? CA_FLOAT64 : in;
    c->kout = ca_is_inexact(C) ? real_dtype(C) : CA_FLOAT64;
    if (!ca_reduce_supported(c->op, in, c->kout)) {
        c->in_k = ca_is_inexact(C) ? C : CA_FLOAT64;
    }
    /* NumPy sums the squared deviations in dtype= when given: a complex
     * dtype gives a complex result (with a zero imaginary part) */
    c->rdt = c->req >= 0 ? c->req : real_dtype(C);
}

/* Stage 3: the dtypes, the divisor and the flags. */
static int
resolve_dtypes(red_call *c)
{
    const int in = c->a->dtype;
    c->op = c->f->kernel;
    c->in_k = in;
    c->flags = c->f->flags;
    switch (c->f->divisor) {
    case CA_RDIV_N: c->divisor = (double)c->R; break;
    case CA_RDIV_NDDOF:
        c->divisor = (double)c->R - c->ddof > 0 ? (double)c->R - c->ddof : 0.0;
        break;
    default: c->divisor = 1.0; break;
    }
    switch (c->f->rule) {
    case CA_RR_SUM: return resolve_sum(c, in);
    case CA_RR_MEAN: return resolve_mean(c, in);
    case CA_RR_VAR: resolve_var(c, in); return 0;
    case CA_RR_INDEX:
        if (c->out != NULL && !ca_is_integer(c->out->dtype)) {
            PyErr_Format(PyExc_TypeError,
                         "Cannot cast array data from dtype('int64') to dtype('%s') "
                         "according to the rule 'safe'",
                         ca_dtype_name[c->out->dtype]);
            return -1;
        }
        break;
    default: /* CA_RR_SAME, CA_RR_BOOL */ break;
    }
    c->kout = c->rdt = c->f->result[in];
    return 0;
}

/* Stage 4: reductions over nothing that NumPy refuses or warns about. */
static int
check_empty(const red_call *c)
{
    const ca_red_fn *f = c->f;
    if (c->R == 0 && c->rsize > 0) {
        if (f->empty == CA_REMPTY_NOIDENTITY) {
            PyErr_Format(
                PyExc_ValueError,
                "zero-size array to reduction operation %s which has no identity",
                f->empty_arg);
            return -1;
        }
        if (f->empty == CA_REMPTY_NOSEQ) {
            /* noseq:<name> names the operation as NumPy does (nanargmax: argmax) */
            PyErr_Format(PyExc_ValueError, "attempt to get %s of an empty sequence",
                         f->empty_arg != NULL ? f->empty_arg : f->name);
            return -1;
        }
        if (f->empty == CA_REMPTY_NANWARN &&
            PyErr_WarnEx(PyExc_RuntimeWarning, "Mean of empty slice.", 1) < 0) {
            return -1;
        }
    }
    const double dof = (double)c->R - c->ddof;
    if (f->divisor == CA_RDIV_NDDOF && c->rsize > 0 && dof <= 0 &&
        PyErr_WarnEx(PyExc_RuntimeWarning, "Degrees of freedom <= 0 for slice", 1) <
            0) {
        return -1;
    }
    return 0;
}

/* Stage 5: the kernel's output, out itself when nothing stands between. */
static CaArray *
kernel_output(const red_call *c)
{
    CaArray *out = c->out;
    if (out != NULL && out->dtype == c->kout && c->kout == c->rdt &&
        !ca_array_misaligned(out) && !overlaps(out, c->a)) {
        Py_INCREF(out);
        return out;
    }
    return ca_array_empty(c->kout, c->rnd, c->shape, 0, c->a->device,
                          result_kind(c->a->device));
}

/* The identity of an empty reduction; the mean and variance of nothing are NaN. */
static int
fill_identity(const red_call *c, CaArray *kres)
{
    PyObject *value;
    switch (c->f->empty) {
    case CA_REMPTY_ZERO: value = PyLong_FromLong(0); break;
    case CA_REMPTY_ONE: value = PyLong_FromLong(1); break;
    default: value = PyFloat_FromDouble(NAN); break;
    }
    if (value == NULL) {
        return -1;
    }
    const int r = fill_value(kres, value);
    Py_DECREF(value);
    return r;
}

/* Stage 6: kres = the reduction, through the op's aux pass first if it has
 * one (var: the means). */
static int
compute(const red_call *c, CaArray *kres)
{
    const char *fname = c->f->name;
    CaArray *arr = NULL, *aux = NULL;
    int r = -1;
    if (c->R == 0) {
        return fill_identity(c, kres);
    }
    if (c->rsize == 0) {
        return 0;
    }
    arr = as_input(c->a, c->in_k);
    if (arr == NULL) {
        return -1;
    }
    const int aux_op = ca_reduce_aux_op(c->op);
    if (aux_op >= 0) {
        const int m = ca_reduce_aux_dtype(c->op, c->in_k);
        const int device = arr->device;
        aux = ca_array_empty(m, c->rnd, c->shape, 0, device, result_kind(device));
        if (aux == NULL || run_reduce(fname, aux_op, arr, c->red, c->omap, aux, m, NULL,
                                      (double)c->R, 0) < 0) {
            goto done;
        }
    }
    r = run_reduce(fname, c->op, arr, c->red, c->omap, kres, c->kout, aux, c->divisor,
                   c->flags);
done:
    Py_XDECREF(arr);
    Py_XDECREF(aux);
    return r;
}

static PyObject *
reduction(int fn, CaArray *a, PyObject *axis, PyObject *dtype_obj, PyObject *out_obj,
          PyObject *keepdims_obj, PyObject *ddof_obj)
{
    red_call c;
    c.f = &ca_red_fns[fn];
    c.a = a;
    if (parse_reduce_args(&c, axis, dtype_obj, out_obj, keepdims_obj, ddof_obj) < 0 ||
        result_shape(&c) < 0 || resolve_dtypes(&c) < 0 || check_empty(&c) < 0) {
        return NULL;
    }
    CaArray *kres = kernel_output(&c);
    if (kres == NULL) {
        return NULL;
    }
    if (compute(&c, kres) < 0) {
        Py_DECREF(kres);
        return NULL;
    }
    /* casts: kernel dtype -> result dtype -> out */
    return (PyObject *)finish_result(kres, c.kout, c.rdt, c.out);
}

/* ======================================================================== */
/* Scans                                                                     */
/* ======================================================================== */

/* The array a scan runs over and its axis: axis None (and any axis of a 0-d
 * array) scans the flattened array, a 1-d view of C-contiguous data (*flat
 * owns it). A borrowed reference to the source, or NULL with an exception. */
static CaArray *
scan_source(CaArray *a, PyObject *axis, int *ax, CaArray **flat)
{
    const int flatten = axis == NULL || axis == Py_None || CA_NDIM(a) == 0;
    *flat = NULL;
    *ax = 0;
    if (!flatten) {
        return one_axis(axis, CA_NDIM(a), ax) < 0 ? NULL : a;
    }
    if (axis != NULL && axis != Py_None) {
        unsigned char red[CA_MAX_DIMS];
        if (PyTuple_Check(axis)) {
            PyErr_SetString(PyExc_TypeError,
                            "'tuple' object cannot be interpreted as an integer");
            return NULL;
        }
        if (parse_axes(axis, 0, red, 0, 1) < 0) {
            return NULL;
        }
    }
    CaArray *src = a, *copy = NULL;
    if (!(a->flags & CA_C_CONTIGUOUS)) {
        copy = ca_array_copy(a, a->dtype, 'C');
        if (copy == NULL) {
            return NULL;
        }
        src = copy;
    }
    Py_ssize_t n = a->size, st = src->itemsize;
    *flat = ca_array_view(src, src->dtype, 1, &n, &st, src->data);
    Py_XDECREF(copy);
    return *flat;
}

/* As NumPy's accumulate: out= without dtype= computes in the promotion. Sets the
 * computation dtype *C, the kernel's input *in_k and output *kout. */
static int
scan_dtypes(const ca_red_fn *f, int in, int req, const CaArray *out, int *C, int *in_k,
            int *kout)
{
    *C = req >= 0 ? req : out != NULL ? ca_promote(in, out->dtype) : f->result[in];
    if (*C < 0) {
        return -1;
    }
    *in_k = in;
    if (*C == CA_BOOL) {
        /* running or / and: the 0/1 prefix sums and products, cast to bool */
        *in_k = CA_BOOL;
        *kout = f->result[CA_BOOL];
    }
    else if (ca_is_integer(*C)) {
        if (!is_int_or_bool(in)) {
            *in_k = *C;
        }
        *kout = f->result[*in_k];
    }
    else {
        if (f->result[in] != *C) {
            *in_k = *C;
        }
        *kout = *C;
    }
    return 0;
}

/* The scan's desc: axis ax of arr into kres, the other axes as batch dims. */
static void
fill_scan_desc(ca_scan_desc *d, const CaArray *arr, int ax, const CaArray *kres)
{
    d->nbatch = 0;
    for (int i = 0; i < CA_NDIM(arr); i++) {
        if (i != ax) {
            d->batch_shape[d->nbatch] = CA_SHAPE(arr)[i];
            d->batch_in[d->nbatch] = CA_STRIDES(arr)[i];
            d->batch_out[d->nbatch] = CA_STRIDES(kres)[i];
            d->nbatch++;
        }
    }
    d->len = CA_SHAPE(arr)[ax];
    d->in_stride = CA_STRIDES(arr)[ax];
    d->out_stride = CA_STRIDES(kres)[ax];
    d->in = arr->data;
    d->out = kres->data;
}

/* Fill and plan d. When the GPU kernels take too few dims for the layout, *arr
 * becomes a C-contiguous copy and *kres (if it was out) a new array. */
static int
plan_scan(const char *fname, int op, CaArray **arr, int ax, CaArray **kres,
          const CaArray *out, int kout, ca_scan_desc *d)
{
    const int device = (*arr)->device;
    fill_scan_desc(d, *arr, ax, *kres);
    int rc = ca_scan_plan(device, op, d, (*arr)->dtype, kout);
    if (rc == CA_KERR_UNSUPPORTED && device != CA_CPU &&
        ca_scan_supported(op, (*arr)->dtype, kout)) {
        /* too many unmergeable dims for the GPU: contiguous operands */
        CaArray *c = ca_array_copy(*arr, (*arr)->dtype, 'C');
        if (c == NULL) {
            return -1;
        }
        Py_SETREF(*arr, c);
        if (*kres == out) {
            Py_SETREF(*kres, ca_array_empty(kout, CA_NDIM(c), CA_SHAPE(c), 0, device,
                                            result_kind(device)));
            if (*kres == NULL) {
                return -1;
            }
        }
        fill_scan_desc(d, *arr, ax, *kres);
        rc = ca_scan_plan(device, op, d, (*arr)->dtype, kout);
    }
    return ca_launch_status(rc, fname);
}

/* *kres = the scan of *arr along ax (both may be replaced, see plan_scan). */
static int
run_scan(const char *fname, int op, CaArray **arr, int ax, CaArray **kres,
         const CaArray *out, int kout)
{
    ca_scan_desc d;
    CaMemory *ws = NULL;
    const int device = (*arr)->device;
    if ((*kres)->size == 0) {
        return 0;
    }
    if (ca_use_device(device) < 0) {
        return -1;
    }
    ca_stream_t stream = device == CA_CPU ? NULL : ca_current_stream(device);
    int rc = -1;
    if (plan_scan(fname, op, arr, ax, kres, out, kout, &d) == 0 &&
        ca_scratch_alloc(device, d.workspace_bytes, stream, &ws, &d.workspace) == 0) {
        rc = ca_run_scan(device, op, &d, (*arr)->dtype, kout, stream, (*kres)->size,
                         fname);
    }
    Py_XDECREF(ws);
    return rc;
}

static PyObject *
scan(int fn, CaArray *a, PyObject *axis, PyObject *dtype_obj, PyObject *out_obj)
{
    const ca_red_fn *f = &ca_red_fns[fn];
    CaArray *flat = NULL, *arr = NULL, *kres = NULL, *out = NULL;
    int req = -1, ax, C, in_k, kout;

    if (dtype_obj != NULL && dtype_obj != Py_None &&
        (req = ca_dtype_converter(dtype_obj, -1)) < 0) {
        return NULL;
    }
    if (check_out(out_obj, a, &out) < 0) {
        return NULL;
    }
    CaArray *src = scan_source(a, axis, &ax, &flat);
    const int nd = src != NULL ? CA_NDIM(src) : 0;
    if (src == NULL ||
        (out != NULL && check_out_shape(f->name, out, nd, CA_SHAPE(src), 0) < 0) ||
        scan_dtypes(f, a->dtype, req, out, &C, &in_k, &kout) < 0 ||
        (arr = as_input(src, in_k)) == NULL) {
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
        kres = ca_array_empty(kout, nd, CA_SHAPE(src), 0, a->device,
                              result_kind(a->device));
    }
    if (kres == NULL || run_scan(f->name, f->kernel, &arr, ax, &kres, out, kout) < 0) {
        goto error;
    }
    Py_DECREF(arr);
    Py_XDECREF(flat);
    return (PyObject *)finish_result(kres, kout, C, out);
error:
    Py_XDECREF(kres);
    Py_XDECREF(arr);
    Py_XDECREF(flat);
    return NULL;
}

/* ======================================================================== */
/* Argument parsing: functions and methods                                   */
/* ======================================================================== */

static PyObject *run_fn(int fn, CaArray *a, PyObject *const *v);
static PyObject *dispatch_parsed(int fn, CaArray *a, PyObject **v);
static PyObject *arg_as_dtype(int fn, CaArray *a, PyObject **v);

/* ml_dtypes' types (an input or dtype=) reduce in float32, as PyTorch: the input
 * cast to float32, the float32 result rounded once into the ml type (out= takes
 * it through its own cast). v: the parsed arguments (v[s->dtype] replaced). */
static PyObject *
ml_reduction(int fn, CaArray *a, PyObject **v, int dslot, int oslot)
{
    int ml = ca_is_ml(a->dtype) ? a->dtype : -1;
    PyObject *dt = dslot >= 0 ? v[dslot] : NULL;
    if (dt != NULL && dt != Py_None) {
        const int req = ca_dtype_converter(dt, -1);
        if (req < 0) {
            return NULL;
        }
        ml = ca_is_ml(req) ? req : -2; /* dtype= not ml: its own result */
        if (ca_is_ml(req)) {
            v[dslot] = (PyObject *)ca_descr(CA_FLOAT32);
        }
    }
    CaArray *a32 = ca_is_ml(a->dtype) ? ca_array_copy(a, CA_FLOAT32, 'K') : NULL;
    if (ca_is_ml(a->dtype) && a32 == NULL) {
        return NULL;
    }
    PyObject *r = run_fn(fn, a32 != NULL ? a32 : a, v);
    Py_XDECREF(a32);
    const int has_out = oslot >= 0 && v[oslot] != NULL && v[oslot] != Py_None;
    if (r != NULL && ml >= 0 && !has_out && ca_array_check(r) &&
        ((CaArray *)r)->dtype == CA_FLOAT32) {
        Py_SETREF(r, (PyObject *)ca_array_copy((CaArray *)r, ml, 'K'));
    }
    return r;
}

/* cuarray._datetime._reduce(name, a, ...): the call on a datetime64/timedelta64
 * array (datetime_hook.h); self as dispatch's. */
static PyObject *
red_datetime(const char *fname, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
             PyObject *kwnames)
{
    Py_ssize_t n = nargs + (kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0);
    PyObject *name = PyUnicode_FromString(fname);
    PyObject **all = PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *));
    PyObject *r = NULL;
    if (name != NULL && all != NULL) {
        all[0] = self;
        for (Py_ssize_t i = 0; i < n; i++) {
            all[i + 1] = args[i];
        }
        ca_dt_raise(self != NULL ? self : args[0]);
        r = self != NULL
                ? ca_dt_retry_self(NULL, "_reduce", name, all, nargs + 1, kwnames)
                : ca_dt_retry_self(NULL, "_reduce", name, args, nargs, kwnames);
    }
    else if (all == NULL) {
        PyErr_NoMemory();
    }
    Py_XDECREF(name);
    PyMem_Free(all);
    return r;
}

/* NumPy's initial= and where=, which the table's signatures lack: after
 * ca_parse_args refused the call (no cost to a call without them), one naming
 * either (or passing them by position, sum(a, 0, None, None, False, 7)) goes
 * whole to cuarray/_reduce_kw.py's composition; else the error. */
static PyObject *
numpy_kw(int fn, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    static PyObject *hook = NULL;
    int found = 0;
    for (Py_ssize_t k = 0; kwnames != NULL && k < PyTuple_GET_SIZE(kwnames); k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        found |= PyUnicode_CompareWithASCIIString(key, "initial") == 0 ||
                 PyUnicode_CompareWithASCIIString(key, "where") == 0;
    }
    const int sig = ca_red_fns[fn].sig;
    const Py_ssize_t npos = ca_red_sigs[sig].npos - (self != NULL);
    found |=
        (sig == CA_RSIG_SUM || sig == CA_RSIG_MAX) && nargs > npos && nargs <= npos + 2;
    if (!found) {
        return NULL;
    }
    PyErr_Clear();
    if (ca_import_attr(&hook, "cuarray._reduce_kw", "_reduce_numpy_kw") < 0) {
        return NULL;
    }
    PyObject *name = PyUnicode_FromString(ca_red_fns[fn].name);
    PyObject *pos = NULL, *kw = NULL, *r = NULL;
    if (name != NULL && ca_fastcall_tuple_dict(args, nargs, kwnames, &pos, &kw) == 0) {
        r = PyObject_CallFunctionObjArgs(hook, name, self != NULL ? self : Py_None, pos,
                                         kw, NULL);
    }
    Py_XDECREF(name);
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    return r;
}

/* self: the array of a method call, NULL for the module function. */
static PyObject *
dispatch(int fn, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
         PyObject *kwnames)
{
    PyObject *v[8] = { NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
    const ca_red_fn *f = &ca_red_fns[fn];
    /* the signature of the `sig` column, as NumPy's (the methods drop `a`) */
    const ca_red_sig *s = &ca_red_sigs[f->sig];
    CaArray *a;
    if (self != NULL) {
        /* the hot path: a.sum() */
        if (nargs != 0 || kwnames != NULL) {
            if (ca_parse_args(f->name, args, nargs, kwnames, s->names + 1, s->npos - 1,
                              0, v + 1) < 0) {
                return numpy_kw(fn, self, args, nargs, kwnames);
            }
        }
        a = (CaArray *)self;
        if (!Py_IS_TYPE(self, ca_st->ndarray_type) && ca_dt_is(self)) {
            return red_datetime(f->name, self, args, nargs, kwnames);
        }
    }
    else {
        if (ca_parse_args(f->name, args, nargs, kwnames, s->names, s->npos, 1, v) < 0) {
            return numpy_kw(fn, NULL, args, nargs, kwnames);
        }
        if (!ca_array_check(v[0])) {
            PyErr_Format(
                PyExc_TypeError,
                "%s() requires a cuarray.ndarray, not %.200s (use cuarray.asarray "
                "to make one)",
                f->name, Py_TYPE(v[0])->tp_name);
            return NULL;
        }
        a = (CaArray *)v[0];
        if (!Py_IS_TYPE(v[0], ca_st->ndarray_type) && ca_dt_is(v[0])) {
            return red_datetime(f->name, NULL, args, nargs, kwnames);
        }
    }
    if (f->sig == CA_RSIG_ARG && v[s->dtype] != NULL && v[s->dtype] != Py_None) {
        return arg_as_dtype(fn, a, v);
    }
    return dispatch_parsed(fn, a, v);
}

/* CuPy's argmax/argmin(dtype=): the int64 indices, then cast to that integer type
 * (NumPy has no dtype= there; with out= the out's type decides, so both at once
 * are refused). */
static PyObject *
arg_as_dtype(int fn, CaArray *a, PyObject **v)
{
    const ca_red_fn *f = &ca_red_fns[fn];
    const ca_red_sig *s = &ca_red_sigs[f->sig];
    const int dt = ca_dtype_converter(v[s->dtype], -1);
    if (dt < 0) {
        return NULL;
    }
    if (!ca_is_integer(dt)) {
        PyErr_Format(PyExc_TypeError, "%s(): dtype must be an integer type", f->name);
        return NULL;
    }
    if (v[s->out] != NULL && v[s->out] != Py_None) {
        PyErr_Format(PyExc_TypeError, "%s(): give dtype= or out=, not both", f->name);
        return NULL;
    }
    PyObject *w[8];
    memcpy(w, v, sizeof(w));
    w[s->dtype] = NULL;
    PyObject *r = dispatch_parsed(fn, a, w);
    if (r != NULL && ca_array_check(r) && ((CaArray *)r)->dtype != dt) {
        Py_SETREF(r, (PyObject *)ca_array_copy((CaArray *)r, dt, 'K'));
    }
    return r;
}

/* The row's function over parsed arguments v (v[0] is `a` for functions), by way
 * of ml_reduction for the ml_dtypes types. */
static PyObject *
dispatch_parsed(int fn, CaArray *a, PyObject **v)
{
    const ca_red_fn *f = &ca_red_fns[fn];
    const ca_red_sig *s = &ca_red_sigs[f->sig];
    /* bfloat16 has GPU kernels of its own (gen_reductions.py's bf16 twins of the
     * float16 pairs: one read of the bf16 data) but no scans; float8 none. On the
     * cpu device the float32 copy is faster (host_minmax.c's lanes, the threads:
     * max of 2^22 in 0.6 ms against 26 ms element by element). dtype= may name
     * an ml_dtypes type: ml_reduction looks (off the hot path). */
    const int ml_in =
        ca_is_ml(a->dtype) &&
        (f->result[a->dtype] < 0 || f->sig == CA_RSIG_SCAN || a->device == CA_CPU);
    if (ml_in || (s->dtype >= 0 && v[s->dtype] != NULL && v[s->dtype] != Py_None)) {
        return ml_reduction(fn, a, v, s->dtype, s->out);
    }
    return run_fn(fn, a, v);
}

/* The row's function over parsed arguments v (v[0] is `a` for functions). */
static PyObject *
run_fn(int fn, CaArray *a, PyObject *const *v)
{
    const ca_red_fn *f = &ca_red_fns[fn];
    const ca_red_sig *s = &ca_red_sigs[f->sig];
#define SLOT(i) ((i) >= 0 ? v[i] : NULL)
    if (f->sig == CA_RSIG_SCAN) {
        return scan(fn, a, SLOT(s->axis), SLOT(s->dtype), SLOT(s->out));
    }
    PyObject *ddof = SLOT(s->ddof), *correction = SLOT(s->correction);
    if (correction != NULL && correction != Py_None) {
        /* the array API's name for ddof (NumPy 2) */
        if (ddof != NULL) {
            PyErr_SetString(PyExc_ValueError,
                            "ddof and correction can't be provided simultaneously.");
            return NULL;
        }
        ddof = correction;
    }
    return reduction(fn, a, SLOT(s->axis), SLOT(s->dtype), SLOT(s->out),
                     SLOT(s->keepdims), ddof);
#undef SLOT
}

/* One module function per row of kernels/reductions.def, and one method per row
 * without the nomethod flag. */
#define CA_RED_WRAPPERS(NAME, ID, DOC)                                                 \
    static PyObject *py_##NAME(PyObject *m, PyObject *const *args, Py_ssize_t nargs,   \
                               PyObject *kwnames)                                      \
    {                                                                                  \
        (void)m;                                                                       \
        return dispatch(ID, NULL, args, nargs, kwnames);                               \
    }
#define CA_RED_METHOD_WRAPPERS(NAME, ID, DOC)                                          \
    static PyObject *Ndarray_##NAME(PyObject *self, PyObject *const *args,             \
                                    Py_ssize_t nargs, PyObject *kwnames)               \
    {                                                                                  \
        return dispatch(ID, self, args, nargs, kwnames);                               \
    }
CA_RED_FOR_EACH_FN(CA_RED_WRAPPERS)
CA_RED_FOR_EACH_METHOD(CA_RED_METHOD_WRAPPERS)
#undef CA_RED_WRAPPERS
#undef CA_RED_METHOD_WRAPPERS

#define CA_FC                              (PyCFunction)(void (*)(void))
#define CA_FLAGS                           (METH_FASTCALL | METH_KEYWORDS)
#define CA_RED_FUNCTION(NAME, ID, DOC)     { #NAME, CA_FC py_##NAME, CA_FLAGS, DOC },
#define CA_RED_ALIAS(ALIAS, NAME, ID, DOC) { #ALIAS, CA_FC py_##NAME, CA_FLAGS, DOC },
#define CA_RED_METHOD(NAME, ID, DOC)       { #NAME, CA_FC Ndarray_##NAME, CA_FLAGS, DOC },

/* _host_threads(n=None): the cpu device's thread count (kernels.h), set to n
 * when given (0: the default again). */
static PyObject *
py_host_threads(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "_host_threads takes at most 1 argument");
        return NULL;
    }
    if (nargs == 0 || args[0] == Py_None) {
        return PyLong_FromLong(ca_host_threads());
    }
    const long n = PyLong_AsLong(args[0]);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_SetString(PyExc_ValueError, "_host_threads: n must be >= 0");
        return NULL;
    }
    return PyLong_FromLong(ca_host_threads_set(n > 64 ? 64 : (int)n));
}

static PyMethodDef reduction_functions[] = {
    CA_RED_FOR_EACH_FN(CA_RED_FUNCTION) CA_RED_FOR_EACH_ALIAS(CA_RED_ALIAS){
        "_host_threads", (PyCFunction)(void (*)(void))py_host_threads, METH_FASTCALL,
        "_host_threads(n=None)\n--\n\nThe cpu device's thread count for large "
        "reductions and\nelement-wise loops (CUARRAY_HOST_THREADS, else the online "
        "CPUs, at most 8);\nn sets it (0: that default again). Returns the count." },
    { NULL, NULL, 0, NULL },
};

PyMethodDef ca_reduction_array_methods[] = {
    CA_RED_FOR_EACH_METHOD(CA_RED_METHOD){ NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(reduction, reduction_functions)

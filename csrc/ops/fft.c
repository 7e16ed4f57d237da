/*
 * fft.c: cuarray.fft's one primitive and the plan cache's controls.
 *
 * _fft(a, kind, s, axes, norm, out) is one discrete Fourier transform over the
 * given axes: complex-to-complex forward or inverse, real-to-complex (the last
 * axis halved) or complex-to-real, with NumPy's `s`/`axes` defaults, padding and
 * cropping, norm and result dtypes. python/cuarray/fft/ composes numpy.fft's
 * functions from it.
 *
 * On a GPU it is cuFFT (launch_fft.c): one plan of rank <= 3 covers the axes
 * and a batch of every other axis, read and written in place through cuFFT's
 * strides where the arrays' layouts allow it. Where they do not (batch axes
 * that do not collapse into one stride, negative strides, a cast or padding),
 * the input is copied once into a temporary whose transformed axes come last
 * (a transpose copy), and the result is laid out the same way. More than three
 * axes take several plans, the later ones in place.
 *
 * On the cpu device it is numpy.fft itself over zero-copy views, the result
 * wrapped without a copy. A test switch (_fft_emulate) sends the cpu device
 * through the GPU's path instead, with NumPy standing in for cuFFT, so the
 * layouts planned for cuFFT are checked on machines without a GPU.
 */
#include <math.h>

#include "cuarray.h"
#include "ew_table.h"
#include "launch.h"

enum { FFT_C2C_FWD = 0, FFT_C2C_INV = 1, FFT_R2C = 2, FFT_C2R = 3 };
enum { NORM_BACKWARD = 0, NORM_ORTHO = 1, NORM_FORWARD = 2 };

static int emulate = 0;

typedef struct {
    int kind; /* FFT_* */
    int naxes;
    int axes[CA_MAX_DIMS];     /* normalised, distinct */
    Py_ssize_t s[CA_MAX_DIMS]; /* logical lengths (C2R: the real output's) */
    int norm;                  /* NORM_* */
    int in_dtype;              /* what the transform reads */
    int exec_dtype;            /* what it writes */
    int res_dtype;             /* the result's dtype */
} fft_call;

static const char *const fft_names[] = { "fft", "ifft", "rfft", "irfft" };

/* ======================================================================== */
/* Arguments                                                                 */
/* ======================================================================== */
/* An int (or NumPy integer), not a sequence of them. */
static int
is_one_int(PyObject *obj)
{
    return PyLong_Check(obj) || (PyIndex_Check(obj) && !PySequence_Check(obj));
}

/* An int or a sequence of ints/None -> v[], given[] (0 for None); count or -1. */
static int
int_list(PyObject *obj, Py_ssize_t *v, int *given, const char *what)
{
    PyObject *seq = NULL;
    int n = -1;
    if (is_one_int(obj)) {
        v[0] = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
        given[0] = 1;
        return (v[0] == -1 && PyErr_Occurred()) ? -1 : 1;
    }
    seq = PySequence_Fast(obj, "");
    if (seq == NULL) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be an int or a sequence of ints, not %.100s", what,
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > CA_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "%s has more than %d entries", what,
                     CA_MAX_DIMS);
        goto done;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        PyObject *e = PySequence_Fast_GET_ITEM(seq, i);
        given[i] = e != Py_None;
        v[i] = e == Py_None ? 0 : PyNumber_AsSsize_t(e, PyExc_OverflowError);
        if (v[i] == -1 && PyErr_Occurred()) {
            goto done;
        }
    }
    n = (int)len;
done:
    Py_DECREF(seq);
    return n;
}

/* numpy.fft's _cook_nd_args: axes and lengths from s/axes and a's shape. */
static int
cook_axes(CaArray *a, PyObject *s_obj, PyObject *axes_obj, fft_call *f)
{
    const int ndim = CA_NDIM(a);
    Py_ssize_t sv[CA_MAX_DIMS], av[CA_MAX_DIMS];
    int sgiven[CA_MAX_DIMS], agiven[CA_MAX_DIMS];
    int ns = -1, na = -1;
    if (s_obj != NULL && s_obj != Py_None &&
        (ns = int_list(s_obj, sv, sgiven, "s")) < 0) {
        return -1;
    }
    const int s_scalar = ns >= 0 && is_one_int(s_obj);
    if (axes_obj != NULL && axes_obj != Py_None &&
        (na = int_list(axes_obj, av, agiven, "axes")) < 0) {
        return -1;
    }
    if (na < 0) {
        if (ns >= 0 &&
            PyErr_WarnEx(PyExc_DeprecationWarning,
                         "`axes` should not be `None` if `s` is not `None` "
                         "(Deprecated in NumPy 2.0): the last len(s) axes are "
                         "transformed",
                         2) < 0) {
            return -1;
        }
        na = ns >= 0 ? ns : ndim;
        for (int i = 0; i < na; i++) {
            av[i] = i - na;
            agiven[i] = 1;
        }
    }
    if (ns >= 0 && ns != na) {
        PyErr_SetString(PyExc_ValueError, "Shape and axes have different lengths.");
        return -1;
    }
    f->naxes = na;
    for (int i = 0; i < na; i++) {
        Py_ssize_t ax = av[i];
        if (!agiven[i]) {
            PyErr_SetString(PyExc_TypeError, "axes must be integers, not None");
            return -1;
        }
        if (ca_normalize_axis(ax, ndim, &f->axes[i]) < 0) {
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (f->axes[j] == f->axes[i]) {
                PyErr_Format(PyExc_ValueError,
                             "duplicate axes are not allowed: axis %d appears twice in "
                             "axes (transform it once per call)",
                             f->axes[i]);
                return -1;
            }
        }
    }
    for (int i = 0; i < na; i++) {
        Py_ssize_t m = CA_SHAPE(a)[f->axes[i]];
        int last_c2r = f->kind == FFT_C2R && i == na - 1;
        if (ns >= 0 && !sgiven[i] &&
            PyErr_WarnEx(
                PyExc_DeprecationWarning,
                "Passing an array containing `None` values to `s` is deprecated "
                "in NumPy 2.0: pass the default length instead",
                2) < 0) {
            return -1;
        }
        Py_ssize_t n = ns >= 0 && sgiven[i] ? sv[i] : (last_c2r ? (m - 1) * 2 : m);
        /* s[i] == -1 is the input's length (the n of one-axis calls is not) */
        f->s[i] = n == -1 && ns >= 0 && sgiven[i] && !s_scalar ? m : n;
        if (f->s[i] < 1) {
            PyErr_Format(PyExc_ValueError,
                         "Invalid number of FFT data points (%zd) specified.", f->s[i]);
            return -1;
        }
    }
    return 0;
}

static int
parse_norm(PyObject *norm)
{
    if (norm == NULL || norm == Py_None) {
        return NORM_BACKWARD;
    }
    if (PyUnicode_Check(norm)) {
        if (PyUnicode_CompareWithASCIIString(norm, "backward") == 0) {
            return NORM_BACKWARD;
        }
        if (PyUnicode_CompareWithASCIIString(norm, "ortho") == 0) {
            return NORM_ORTHO;
        }
        if (PyUnicode_CompareWithASCIIString(norm, "forward") == 0) {
            return NORM_FORWARD;
        }
    }
    PyErr_Format(
        PyExc_ValueError,
        "Invalid norm value %S; should be \"backward\", \"ortho\" or \"forward\".",
        norm);
    return -1;
}

/* numpy.fft's result dtypes: float16/float32/complex64 stay single precision,
 * integers and bools become double. */
static int
fft_dtypes(fft_call *f, int dt)
{
    int single = dt == CA_FLOAT16 || dt == CA_FLOAT32 || dt == CA_COMPLEX64;
    switch (f->kind) {
    case FFT_R2C:
        if (ca_is_complex(dt)) {
            PyErr_Format(PyExc_TypeError, "rfft needs real input, not %s",
                         ca_descr(dt)->typeobj->tp_name);
            return -1;
        }
        f->in_dtype = single ? CA_FLOAT32 : CA_FLOAT64;
        f->exec_dtype = single ? CA_COMPLEX64 : CA_COMPLEX128;
        f->res_dtype = f->exec_dtype;
        return 0;
    case FFT_C2R:
        f->in_dtype = single ? CA_COMPLEX64 : CA_COMPLEX128;
        f->exec_dtype = single ? CA_FLOAT32 : CA_FLOAT64;
        /* numpy.fft.irfft keeps float16 (irfftn's first passes make it complex64) */
        f->res_dtype = dt == CA_FLOAT16 && f->naxes == 1 ? CA_FLOAT16 : f->exec_dtype;
        return 0;
    default:
        f->in_dtype = single ? CA_COMPLEX64 : CA_COMPLEX128;
        f->exec_dtype = f->in_dtype;
        f->res_dtype = f->in_dtype;
        return 0;
    }
}

/* The result's shape (yshape) and the transform's input shape (xshape). */
static void
fft_shapes(CaArray *a, const fft_call *f, Py_ssize_t *xshape, Py_ssize_t *yshape)
{
    const int ndim = CA_NDIM(a);
    for (int d = 0; d < ndim; d++) {
        xshape[d] = yshape[d] = CA_SHAPE(a)[d];
    }
    for (int i = 0; i < f->naxes; i++) {
        int ax = f->axes[i];
        Py_ssize_t n = f->s[i], half = n / 2 + 1;
        int last = i == f->naxes - 1;
        xshape[ax] = last && f->kind == FFT_C2R ? half : n;
        yshape[ax] = last && f->kind == FFT_R2C ? half : n;
    }
}

static int
check_out(CaArray *a, CaArray *out, const fft_call *f, const Py_ssize_t *yshape)
{
    const char *fname = fft_names[f->kind];
    if (ca_out_check_shape(fname, out, CA_NDIM(a), yshape) < 0 ||
        ca_out_check_cast(fname, out, f->res_dtype) < 0) {
        return -1;
    }
    return 0;
}

/* ======================================================================== */
/* The cpu device: numpy.fft on views                                        */
/* ======================================================================== */
static PyObject *np_fft[8]; /* fft ifft rfft irfft fftn ifftn rfftn irfftn */


static int
load_numpy_fft(void)
{
    static const char *const names[8] = { "fft",  "ifft",  "rfft",  "irfft",
                                          "fftn", "ifftn", "rfftn", "irfftn" };
    if (np_fft[7] != NULL) {
        return 0;
    }
    PyObject *m = PyImport_ImportModule("numpy.fft");
    if (m == NULL) {
        return -1;
    }
    for (int i = 0; i < 8; i++) {
        if (np_fft[i] == NULL &&
            (np_fft[i] = PyObject_GetAttrString(m, names[i])) == NULL) {
            Py_DECREF(m);
            return -1;
        }
    }
    Py_DECREF(m);
    return 0;
}

/* One axis: numpy.fft's own gufuncs (numpy.fft._pocketfft_umath), called the
 * way numpy.fft's Python wrapper calls them, without the wrapper's few
 * microseconds (most of a small transform's time). The factor is computed in
 * the transform's precision as numpy.fft computes it, so results are NumPy's
 * bit for bit. Returns NULL without an exception where the module is missing
 * (another NumPy): the caller then goes through numpy.fft. */
static PyObject *np_pfu[5]; /* fft ifft rfft_n_even rfft_n_odd irfft */
static int np_pfu_state;    /* 0 not looked up, 1 present, -1 absent */

static int
load_numpy_pfu(void)
{
    static const char *const names[5] = { "fft", "ifft", "rfft_n_even", "rfft_n_odd",
                                          "irfft" };
    if (np_pfu_state != 0) {
        return np_pfu_state;
    }
    np_pfu_state = -1;
    PyObject *m = PyImport_ImportModule("numpy.fft._pocketfft_umath");
    if (m == NULL) {
        PyErr_Clear();
        return -1;
    }
    for (int i = 0; i < 5; i++) {
        if ((np_pfu[i] = PyObject_GetAttrString(m, names[i])) == NULL) {
            PyErr_Clear();
            Py_DECREF(m);
            return -1;
        }
    }
    Py_DECREF(m);
    np_pfu_state = 1;
    return 1;
}

/* numpy.fft's factor: 1, 1/sqrt(n) or 1/n in the transform's real precision. */
static double
numpy_fft_factor(const fft_call *f)
{
    int forward = f->kind == FFT_C2C_FWD || f->kind == FFT_R2C;
    int scaled = f->norm == NORM_ORTHO || (f->norm == NORM_FORWARD) == forward;
    if (!scaled) {
        return 1.0;
    }
    int single = f->exec_dtype == CA_COMPLEX64 || f->exec_dtype == CA_FLOAT32;
    if (single) {
        float n = (float)f->s[0];
        return f->norm == NORM_ORTHO ? (double)(1.0f / sqrtf(n)) : (double)(1.0f / n);
    }
    double n = (double)f->s[0];
    return f->norm == NORM_ORTHO ? 1.0 / sqrt(n) : 1.0 / n;
}

/* The factor as numpy.fft passes it: the int 1 when nothing is scaled, else a
 * NumPy scalar of the transform's precision. The gufunc's loop (and so the
 * result's last bits) depends on that type, so it is copied exactly. */
static PyObject *
numpy_fft_factor_object(const fft_call *f)
{
    int forward = f->kind == FFT_C2C_FWD || f->kind == FFT_R2C;
    if (!(f->norm == NORM_ORTHO || (f->norm == NORM_FORWARD) == forward)) {
        return PyLong_FromLong(1);
    }
    int single = f->exec_dtype == CA_COMPLEX64 || f->exec_dtype == CA_FLOAT32;
    double d = numpy_fft_factor(f);
    float x = (float)d;
    PyArray_Descr *descr = PyArray_DescrFromType(single ? NPY_FLOAT32 : NPY_FLOAT64);
    if (descr == NULL) {
        return NULL;
    }
    PyObject *r = PyArray_Scalar(single ? (void *)&x : (void *)&d, descr, NULL);
    Py_DECREF(descr);
    return r;
}

static PyObject *
fft_numpy_1d(CaArray *a, const fft_call *f, CaArray *out, const Py_ssize_t *yshape)
{
    if (load_numpy_pfu() < 0) {
        return NULL;
    }
    static const int ufunc_of[4] = { 0, 1, 2, 4 };
    PyObject *ufunc = np_pfu[ufunc_of[f->kind] + (f->kind == FFT_R2C && f->s[0] % 2)];
    CaArray *res = out;
    if (res == NULL) {
        res = ca_array_empty(f->res_dtype, CA_NDIM(a), yshape, 0, CA_CPU, CA_MEM_HOST);
    }
    else {
        Py_INCREF(res);
    }
    PyObject *view = NULL, *oview = NULL, *fct = NULL, *axes = NULL, *kw = NULL;
    PyObject *r = NULL;
    if (res == NULL || (view = ca_cpu_numpy_view(a)) == NULL ||
        (oview = ca_cpu_numpy_view(res)) == NULL ||
        (fct = numpy_fft_factor_object(f)) == NULL) {
        goto done;
    }
    axes = Py_BuildValue("[(i)()(i)]", f->axes[0], f->axes[0]);
    kw = axes ? Py_BuildValue("{sOs(O)}", "axes", axes, "out", oview) : NULL;
    if (kw != NULL) {
        PyObject *args[2] = { view, fct };
        r = PyObject_VectorcallDict(ufunc, args, 2, kw);
    }
done:
    Py_XDECREF(view);
    Py_XDECREF(oview);
    Py_XDECREF(fct);
    Py_XDECREF(axes);
    Py_XDECREF(kw);
    if (r == NULL) {
        Py_XDECREF(res);
        return NULL;
    }
    Py_DECREF(r);
    return (PyObject *)res;
}

static PyObject *
fft_numpy(CaArray *a, const fft_call *f, CaArray *out)
{
    static const char *const norms[3] = { "backward", "ortho", "forward" };
    PyObject *view = NULL, *oview = NULL, *kw = NULL, *s = NULL, *axes = NULL;
    PyObject *r = NULL, *res = NULL;
    if (load_numpy_fft() < 0 || (view = ca_cpu_numpy_view(a)) == NULL ||
        (out != NULL && (oview = ca_cpu_numpy_view(out)) == NULL)) {
        goto done;
    }
    int nd = f->naxes > 1;
    if (nd) {
        s = PyList_New(f->naxes);
        axes = PyList_New(f->naxes);
        for (int i = 0; s && axes && i < f->naxes; i++) {
            PyList_SET_ITEM(s, i, PyLong_FromSsize_t(f->s[i]));
            PyList_SET_ITEM(axes, i, PyLong_FromLong(f->axes[i]));
        }
    }
    else {
        s = PyLong_FromSsize_t(f->s[0]);
        axes = PyLong_FromLong(f->axes[0]);
    }
    /* numpy's n-dimensional functions hand `out` to each axis' pass, which
     * fails when s changes another axis' length: they write a new array. */
    kw =
        Py_BuildValue("{sOsOss}", nd ? "s" : "n", s ? s : Py_None, nd ? "axes" : "axis",
                      axes ? axes : Py_None, "norm", norms[f->norm]);
    if (kw == NULL || s == NULL || axes == NULL ||
        (oview != NULL && !nd && PyDict_SetItemString(kw, "out", oview) < 0)) {
        goto done;
    }
    PyObject *args[1] = { view };
    r = PyObject_VectorcallDict(np_fft[f->kind + (nd ? 4 : 0)], args, 1, kw);
    if (r == NULL) {
        goto done;
    }
    if (out != NULL) {
        if (nd && PyArray_CopyInto((PyArrayObject *)oview, (PyArrayObject *)r) < 0) {
            goto done;
        }
        Py_INCREF(out);
        res = (PyObject *)out;
    }
    else {
        res = (PyObject *)ca_asarray(r, -1, CA_CPU, -1, 'K', -1);
    }
done:
    Py_XDECREF(view);
    Py_XDECREF(oview);
    Py_XDECREF(kw);
    Py_XDECREF(s);
    Py_XDECREF(axes);
    Py_XDECREF(r);
    return res;
}

/* ======================================================================== */
/* Layouts for cuFFT                                                         */
/* ======================================================================== */
typedef struct {
    const Py_ssize_t *shape;
    const Py_ssize_t *strides; /* bytes */
    int itemsize;
} side;

static side
side_of(CaArray *a)
{
    side s = { CA_SHAPE(a), CA_STRIDES(a), a->itemsize };
    return s;
}

/* The stride of dimension d in elements; 0 when it is not a positive whole
 * number of elements (cuFFT's strides count elements, and we give it none
 * backwards). */
static long long
elem_stride(const side *s, int d)
{
    Py_ssize_t b = s->strides[d];
    return b > 0 && b % s->itemsize == 0 ? (long long)(b / s->itemsize) : 0;
}

/* The transformed dimensions g[0..r) as cuFFT's nesting: the innermost stride
 * and the embedding of each outer one. 0 when they do not nest. */
static int
nest(const side *s, const int *g, int r, long long *embed, long long *stride)
{
    long long st[CA_FFT_MAX_RANK];
    for (int k = 0; k < r; k++) {
        if ((st[k] = elem_stride(s, g[k])) == 0) {
            return 0;
        }
    }
    embed[0] = s->shape[g[0]];
    for (int k = 1; k < r; k++) {
        if (st[k - 1] % st[k] != 0 || st[k - 1] / st[k] < s->shape[g[k]]) {
            return 0;
        }
        embed[k] = st[k - 1] / st[k];
    }
    *stride = st[r - 1];
    return 1;
}

/* The dimensions of X other than g (length > 1), by X's stride, largest first. */
static int
batch_axes(const side *X, int ndim, const int *g, int r, int *b)
{
    int in_group[CA_MAX_DIMS] = { 0 }, nb = 0;
    for (int k = 0; k < r; k++) {
        in_group[g[k]] = 1;
    }
    for (int d = 0; d < ndim; d++) {
        if (in_group[d] || X->shape[d] == 1) {
            continue;
        }
        int j = nb++;
        while (j > 0 && X->strides[b[j - 1]] < X->strides[d]) {
            b[j] = b[j - 1];
            j--;
        }
        b[j] = d;
    }
    return nb;
}

/* Fill `l` for transforming X into Y over the dimensions g[0..r): 1 when cuFFT
 * can do it (with a C loop over outer batch dimensions if allow_loop), else 0.
 * The batch dimensions of X and Y have the same lengths. */
static int
plan_layout(const side *X, const side *Y, int ndim, const int *g, int r, int kind,
            int dbl, int allow_loop, ca_fft_layout *l)
{
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->dbl = dbl;
    l->rank = r;
    if (!nest(X, g, r, l->inembed, &l->istride) ||
        !nest(Y, g, r, l->onembed, &l->ostride)) {
        return 0;
    }
    long long xspan = l->istride, yspan = l->ostride;
    for (int k = 0; k < r; k++) {
        l->n[k] = kind == CA_FFT_C2R ? Y->shape[g[k]] : X->shape[g[k]];
        xspan *= l->inembed[k];
        yspan *= l->onembed[k];
    }
    int b[CA_MAX_DIMS];
    int i = batch_axes(X, ndim, g, r, b) - 1;
    /* cuFFT's batch: the innermost batch dimensions that collapse into one
     * stride in both arrays. */
    l->batch = 1;
    l->idist = xspan;
    l->odist = yspan;
    if (i >= 0) {
        l->idist = elem_stride(X, b[i]);
        l->odist = elem_stride(Y, b[i]);
        if (l->idist == 0 || l->odist == 0) {
            return 0;
        }
        l->batch = X->shape[b[i]];
        for (i--; i >= 0; i--) {
            if (elem_stride(X, b[i]) != l->idist * l->batch ||
                elem_stride(Y, b[i]) != l->odist * l->batch) {
                break;
            }
            l->batch *= X->shape[b[i]];
        }
    }
    /* The rest, if any, must collapse into one loop dimension. */
    l->loop = 1;
    if (i >= 0) {
        if (!allow_loop || X->strides[b[i]] <= 0 || Y->strides[b[i]] <= 0) {
            return 0;
        }
        l->loop_in = X->strides[b[i]];
        l->loop_out = Y->strides[b[i]];
        l->loop = X->shape[b[i]];
        for (i--; i >= 0; i--) {
            if (X->strides[b[i]] != l->loop_in * l->loop ||
                Y->strides[b[i]] != l->loop_out * l->loop) {
                return 0;
            }
            l->loop *= X->shape[b[i]];
        }
    }
    return 1;
}

/* P-order: the batch axes (ascending), then the transformed ones in call order. */
static void
p_order(int ndim, const fft_call *f, int *perm)
{
    int in_axes[CA_MAX_DIMS] = { 0 }, k = 0;
    for (int i = 0; i < f->naxes; i++) {
        in_axes[f->axes[i]] = 1;
    }
    for (int d = 0; d < ndim; d++) {
        if (!in_axes[d]) {
            perm[k++] = d;
        }
    }
    for (int i = 0; i < f->naxes; i++) {
        perm[k++] = f->axes[i];
    }
}

/* Dense strides for `shape` with the axes laid out in `perm` order (the last
 * fastest). */
static void
p_strides(int ndim, const Py_ssize_t *shape, const int *perm, int itemsize,
          Py_ssize_t *strides)
{
    Py_ssize_t st = itemsize;
    for (int k = ndim - 1; k >= 0; k--) {
        strides[perm[k]] = st;
        st *= shape[perm[k]];
    }
}

/* A new array of `shape` whose memory is dense in `perm` order. */
static CaArray *
p_empty(int dtype, int ndim, const Py_ssize_t *shape, const int *perm, int device,
        ca_memkind kind)
{
    Py_ssize_t pshape[CA_MAX_DIMS] = { 0 }, strides[CA_MAX_DIMS];
    for (int k = 0; k < ndim; k++) {
        pshape[k] = shape[perm[k]];
    }
    CaArray *base = ca_array_empty(dtype, ndim, pshape, 0, device, kind);
    if (base == NULL) {
        return NULL;
    }
    p_strides(ndim, shape, perm, ca_dtype_size[dtype], strides);
    CaArray *v = ca_array_view(base, dtype, ndim, shape, strides, base->data);
    Py_DECREF(base);
    return v;
}

/* cuFFT wants every buffer aligned to its complex type, the real side of an R2C or
 * C2R too: a float32 line 4 bytes off (x[1:]) got CUFFT_INVALID_VALUE from
 * cufftExecR2C on the H200. Such a view goes through an aligned temporary. */
static int
fft_aligned(const CaArray *a)
{
    const uintptr_t align = (uintptr_t)a->itemsize * (ca_is_complex(a->dtype) ? 1 : 2);
    return (uintptr_t)a->data % align == 0;
}

/* ======================================================================== */
/* The GPU path (and the emulation)                                          */
/* ======================================================================== */
typedef struct {
    CaArray *a;     /* the input (borrowed) */
    CaArray *x;     /* what the first pass reads (new reference) */
    int x_owned;    /* x is a P-order temporary of ours: passes may overwrite it */
    CaArray *y;     /* what the passes write (new reference) */
    int y_is_final; /* y is the result itself (out, or a new array of its dtype) */
    int scaled;     /* the norm's scale was applied to x already */
    int perm[CA_MAX_DIMS];
    int device;
    ca_memkind kind;
    ca_stream_t stream;
} fft_work;

static int
cufft_kind(const fft_call *f)
{
    return f->kind == FFT_R2C   ? CA_FFT_R2C
           : f->kind == FFT_C2R ? CA_FFT_C2R
                                : CA_FFT_C2C;
}

static int
is_double(const fft_call *f)
{
    return f->exec_dtype == CA_COMPLEX128 || f->exec_dtype == CA_FLOAT64;
}

/* What the transform's result is multiplied by, as `norm` says. */
static double
norm_scale(const fft_call *f)
{
    double n = 1.0;
    for (int i = 0; i < f->naxes; i++) {
        n *= (double)f->s[i];
    }
    int forward = f->kind == FFT_C2C_FWD || f->kind == FFT_R2C;
    switch (f->norm) {
    case NORM_ORTHO: return 1.0 / sqrt(n);
    case NORM_FORWARD: return forward ? 1.0 / n : 1.0;
    default: return forward ? 1.0 : 1.0 / n;
    }
}

/* dst[...] = src, with w's norm scale folded in where the copy can take it
 * (not from float16: the product would round in float16). */
static int
copy_scaled(fft_work *w, const fft_call *f, CaArray *dst, CaArray *src)
{
    double scale = w->scaled ? 1.0 : norm_scale(f);
    if (scale == 1.0 || src->dtype == CA_FLOAT16 || src->size == 0) {
        return ca_assign(dst, src);
    }
    PyObject *sc = PyFloat_FromDouble(scale);
    if (sc == NULL) {
        return -1;
    }
    PyObject *args[2] = { (PyObject *)src, sc };
    PyObject *r = ca_ew_call(CA_OP_multiply, args, (PyObject *)dst, -1);
    Py_DECREF(sc);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    w->scaled = 1;
    return 0;
}

/* x: a cropped view of a where that is what cuFFT reads, else a P-order copy
 * (padded with zeros, cast to the transform's input dtype). C2R always reads
 * a copy: cuFFT overwrites its input. */
static int
prepare_input(fft_work *w, const fft_call *f, const Py_ssize_t *xshape)
{
    CaArray *a = w->a, *src = NULL, *x = NULL, *sub = NULL;
    const int ndim = CA_NDIM(a);
    Py_ssize_t tshape[CA_MAX_DIMS];
    int pad = 0, crop = 0;
    for (int d = 0; d < ndim; d++) {
        Py_ssize_t m = CA_SHAPE(a)[d];
        tshape[d] = xshape[d] < m ? xshape[d] : m;
        pad |= xshape[d] > m;
        crop |= xshape[d] < m;
    }
    if (crop) {
        src = ca_array_view(a, a->dtype, ndim, tshape, CA_STRIDES(a), a->data);
        if (src == NULL) {
            return -1;
        }
    }
    else {
        Py_INCREF(a);
        src = a;
    }
    if (!pad && a->dtype == f->in_dtype && fft_aligned(a) && f->kind != FFT_C2R) {
        w->x = src;
        return 0;
    }
    x = p_empty(f->in_dtype, ndim, xshape, w->perm, w->device, w->kind);
    if (x == NULL) {
        goto error;
    }
    if (pad) {
        static const char zero[16] = { 0 };
        if (ca_array_fill(x, zero) < 0) {
            goto error;
        }
        sub = ca_array_view(x, x->dtype, ndim, tshape, CA_STRIDES(x), x->data);
        if (sub == NULL || (src->size > 0 && copy_scaled(w, f, sub, src) < 0)) {
            goto error;
        }
        Py_DECREF(sub);
    }
    else if (copy_scaled(w, f, x, src) < 0) {
        goto error;
    }
    Py_DECREF(src);
    w->x = x;
    w->x_owned = 1;
    return 0;
error:
    Py_XDECREF(sub);
    Py_XDECREF(x);
    Py_XDECREF(src);
    return -1;
}

/* y: `out` itself or a new C-order result when cuFFT can write it in one pass
 * from x; else a P-order array (x copied into P-order too when its own layout
 * does not fit, e.g. batch axes on both sides of the transformed one). */
static int
pick_output(fft_work *w, const fft_call *f, CaArray *out, const Py_ssize_t *yshape)
{
    const int ndim = CA_NDIM(w->a), m = f->naxes, first = m > 3 ? m - 3 : 0;
    const int kind = cufft_kind(f), dbl = is_double(f);
    const int item = ca_dtype_size[f->exec_dtype];
    int ident[CA_MAX_DIMS];
    Py_ssize_t st[CA_MAX_DIMS];
    ca_fft_layout l;
    side xs = side_of(w->x);
    int direct =
        m <= 3 && (out == NULL ? f->res_dtype == f->exec_dtype
                               : out->dtype == f->exec_dtype && fft_aligned(out) &&
                                     (out->mem == NULL || out->mem != w->a->mem));
    if (direct) {
        side ys = { yshape, st, item };
        if (out != NULL) {
            ys = side_of(out);
        }
        else {
            for (int d = 0; d < ndim; d++) {
                ident[d] = d;
            }
            p_strides(ndim, yshape, ident, item, st);
        }
        if (plan_layout(&xs, &ys, ndim, f->axes + first, m - first, kind, dbl, 0, &l)) {
            if (out != NULL) {
                Py_INCREF(out);
                w->y = out;
            }
            else {
                w->y =
                    ca_array_empty(f->exec_dtype, ndim, yshape, 0, w->device, w->kind);
            }
            w->y_is_final = 1;
            return w->y == NULL ? -1 : 0;
        }
    }
    p_strides(ndim, yshape, w->perm, item, st);
    side ys = { yshape, st, item };
    if (!plan_layout(&xs, &ys, ndim, f->axes + first, m - first, kind, dbl, 0, &l)) {
        CaArray *xp =
            p_empty(f->in_dtype, ndim, CA_SHAPE(w->x), w->perm, w->device, w->kind);
        if (xp == NULL || copy_scaled(w, f, xp, w->x) < 0) {
            Py_XDECREF(xp);
            return -1;
        }
        Py_SETREF(w->x, xp);
        w->x_owned = 1;
    }
    w->y = p_empty(f->exec_dtype, ndim, yshape, w->perm, w->device, w->kind);
    w->y_is_final = out == NULL && f->res_dtype == f->exec_dtype;
    return w->y == NULL ? -1 : 0;
}

/* Transform the groups of axes before `first` in place on `a` (C2C, with a C
 * loop over batch dimensions that do not collapse into cuFFT's one stride). */
static int
inplace_groups(fft_work *w, const fft_call *f, CaArray *a, int first, int direction)
{
    side s = side_of(a);
    ca_fft_layout l;
    for (int end = first; end > 0; end -= CA_FFT_MAX_RANK) {
        int beg = end > CA_FFT_MAX_RANK ? end - CA_FFT_MAX_RANK : 0;
        if (!plan_layout(&s, &s, CA_NDIM(a), f->axes + beg, end - beg, CA_FFT_C2C,
                         is_double(f), 1, &l)) {
            PyErr_SetString(PyExc_SystemError,
                            "fft: no cuFFT layout for an in-place pass");
            return -1;
        }
        if (ca_run_fft(w->device, w->stream, &l, direction, a->data, a->data) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The transform, x -> y: one plan over the last (up to) three axes, the
 * others (more than three axes) in place before (C2R) or after it. */
static int
run_passes(fft_work *w, const fft_call *f)
{
    const int m = f->naxes, first = m > 3 ? m - 3 : 0;
    const int direction = f->kind == FFT_C2C_INV || f->kind == FFT_C2R ? 1 : -1;
    ca_fft_layout l;
    if (f->kind == FFT_C2R && inplace_groups(w, f, w->x, first, direction) < 0) {
        return -1;
    }
    side xs = side_of(w->x), ys = side_of(w->y);
    if (!plan_layout(&xs, &ys, CA_NDIM(w->x), f->axes + first, m - first, cufft_kind(f),
                     is_double(f), 0, &l)) {
        PyErr_SetString(PyExc_SystemError,
                        "fft: no cuFFT layout for the planned arrays");
        return -1;
    }
    if (ca_run_fft(w->device, w->stream, &l, direction, w->x->data, w->y->data) < 0) {
        return -1;
    }
    if (f->kind != FFT_C2R && inplace_groups(w, f, w->y, first, direction) < 0) {
        return -1;
    }
    return 0;
}


/* Scale y by the norm into the result (out, a new array, or y itself). */
static PyObject *
finish(fft_work *w, const fft_call *f, CaArray *out, const Py_ssize_t *yshape)
{
    CaArray *final;
    if (w->y_is_final) {
        final = w->y;
        Py_INCREF(final);
    }
    else if (out != NULL) {
        final = out;
        Py_INCREF(final);
    }
    else if ((final = ca_array_empty(f->res_dtype, CA_NDIM(w->a), yshape, 0, w->device,
                                     w->kind)) == NULL) {
        return NULL;
    }
    double scale = w->scaled ? 1.0 : norm_scale(f);
    if (scale != 1.0) {
        PyObject *sc = PyFloat_FromDouble(scale);
        if (sc == NULL) {
            Py_DECREF(final);
            return NULL;
        }
        PyObject *args[2] = { (PyObject *)w->y, sc };
        PyObject *r = ca_ew_call(CA_OP_multiply, args, (PyObject *) final, -1);
        Py_DECREF(sc);
        if (r == NULL) {
            Py_DECREF(final);
            return NULL;
        }
        Py_DECREF(r);
    }
    else if (final != w->y && ca_assign(final, w->y) < 0) {
        Py_DECREF(final);
        return NULL;
    }
    return (PyObject *) final;
}

static PyObject *
fft_device(CaArray *a, const fft_call *f, CaArray *out, const Py_ssize_t *xshape,
           const Py_ssize_t *yshape)
{
    const int ndim = CA_NDIM(a);
    fft_work w;
    memset(&w, 0, sizeof w);
    w.a = a;
    w.device = a->device;
    w.kind = ca_gather_result_kind(a);
    if (a->device != CA_CPU && ca_use_device(a->device) < 0) {
        return NULL;
    }
    w.stream = ca_current_stream(a->device);
    p_order(ndim, f, w.perm);
    Py_ssize_t ysize = 1;
    for (int d = 0; d < ndim; d++) {
        ysize *= yshape[d];
    }
    if (ysize == 0) {
        if (out != NULL) {
            Py_INCREF(out);
            return (PyObject *)out;
        }
        return (PyObject *)ca_array_empty(f->res_dtype, ndim, yshape, 0, w.device,
                                          w.kind);
    }
    PyObject *res = NULL;
    if (prepare_input(&w, f, xshape) == 0 && pick_output(&w, f, out, yshape) == 0 &&
        run_passes(&w, f) == 0) {
        res = finish(&w, f, out, yshape);
    }
    Py_XDECREF(w.x);
    Py_XDECREF(w.y);
    return res;
}

/* No axes: numpy.fft.fftn(a, axes=()) is the identity (here: a cast copy). */
static PyObject *
fft_no_axes(CaArray *a, const fft_call *f, CaArray *out)
{
    if (f->kind == FFT_R2C || f->kind == FFT_C2R) {
        PyErr_SetString(PyExc_ValueError, "rfftn/irfftn need at least one axis");
        return NULL;
    }
    if (out != NULL) {
        if (ca_assign(out, a) < 0) {
            return NULL;
        }
        Py_INCREF(out);
        return (PyObject *)out;
    }
    return (PyObject *)ca_array_copy(a, f->res_dtype, 'K');
}

static PyObject *
fft_primitive(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
              PyObject *kwnames)
{
    static const char *const names[] = {
        "a", "kind", "s", "axes", "norm", "out", NULL
    };
    PyObject *v[6];
    fft_call f;
    CaArray *out = NULL;
    Py_ssize_t xshape[CA_MAX_DIMS], yshape[CA_MAX_DIMS];
    (void)self;
    if (ca_parse_args("_fft", args, nargs, kwnames, names, 6, 2, v) < 0) {
        return NULL;
    }
    if (!ca_array_check(v[0])) {
        return PyErr_Format(PyExc_TypeError,
                            "cuarray.fft needs a cuarray.ndarray, not %.100s (use "
                            "cuarray.asarray to make one)",
                            Py_TYPE(v[0])->tp_name);
    }
    CaArray *a = (CaArray *)v[0];
    memset(&f, 0, sizeof f);
    f.kind = (int)PyLong_AsLong(v[1]);
    if (f.kind < FFT_C2C_FWD || f.kind > FFT_C2R) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "_fft: kind must be 0, 1, 2 or 3");
        }
        return NULL;
    }
    if ((f.norm = parse_norm(v[4])) < 0 || cook_axes(a, v[2], v[3], &f) < 0 ||
        fft_dtypes(&f, a->dtype) < 0) {
        return NULL;
    }
    if (ca_out_from_object(fft_names[f.kind], v[5], a->device, &out) < 0) {
        return NULL;
    }
    fft_shapes(a, &f, xshape, yshape);
    if (out != NULL && check_out(a, out, &f, yshape) < 0) {
        return NULL;
    }
    if (f.naxes == 0) {
        return fft_no_axes(a, &f, out);
    }
    if (a->device == CA_CPU && !emulate) {
        PyObject *r = f.naxes == 1 ? fft_numpy_1d(a, &f, out, yshape) : NULL;
        return r != NULL || PyErr_Occurred() ? r : fft_numpy(a, &f, out);
    }
    return fft_device(a, &f, out, xshape, yshape);
}

/* ======================================================================== */
/* Plan cache controls and test hooks                                        */
/* ======================================================================== */
static int
device_arg(PyObject *const *args, Py_ssize_t nargs)
{
    return ca_device_from_object(nargs > 0 ? args[0] : Py_None);
}

static PyObject *
plan_cache_info(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int device = device_arg(args, nargs);
    return device == -2 ? NULL : ca_fft_cache_info(device);
}

static PyObject *
plan_cache_set(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "_fft_plan_cache_set(device, size, memsize)");
        return NULL;
    }
    int device = device_arg(args, nargs);
    Py_ssize_t size = PyNumber_AsSsize_t(args[1], PyExc_OverflowError);
    long long mem = PyLong_AsLongLong(args[2]);
    if (device == -2 || PyErr_Occurred()) {
        return NULL;
    }
    if (ca_fft_cache_set_limits(device, size, mem) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
plan_cache_clear(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int device = device_arg(args, nargs);
    if (device == -2) {
        return NULL;
    }
    ca_fft_cache_clear(device);
    Py_RETURN_NONE;
}

static PyObject *
set_emulate(PyObject *self, PyObject *arg)
{
    (void)self;
    return ca_swap_flag(&emulate, arg);
}

static PyObject *
cufft_path(PyObject *self, PyObject *unused)
{
    (void)self, (void)unused;
    return ca_path_or_none(ca_fft_lib_path());
}

static PyMethodDef fft_methods[] = {
    { "_fft", (PyCFunction)(void (*)(void))fft_primitive, METH_FASTCALL | METH_KEYWORDS,
      "_fft(a, kind, s=None, axes=None, norm=None, out=None)\n--\n\n"
      "One discrete Fourier transform over `axes` (cuarray.fft composes numpy.fft's\n"
      "functions from it). kind: 0 complex forward, 1 complex inverse, 2 real to\n"
      "complex, 3 complex to real (s[-1] is the real output's length). s and axes\n"
      "default as numpy.fft.fftn's (irfftn's for kind 3); an int is one axis.\n"
      "cuFFT on a GPU, numpy.fft on the cpu device." },
    { "_fft_plan_cache_info", (PyCFunction)(void (*)(void))plan_cache_info,
      METH_FASTCALL,
      "_fft_plan_cache_info(device=None)\n--\n\n"
      "(size, memsize, count, memsize in use, plans) of the device's cuFFT plan "
      "cache;\n"
      "plans most recently used first." },
    { "_fft_plan_cache_set", (PyCFunction)(void (*)(void))plan_cache_set, METH_FASTCALL,
      "_fft_plan_cache_set(device, size, memsize)\n--\n\n"
      "Set the cache's limits (plans; bytes of work areas, -1 for none) and evict\n"
      "least recently used plans until they hold." },
    { "_fft_plan_cache_clear", (PyCFunction)(void (*)(void))plan_cache_clear,
      METH_FASTCALL,
      "_fft_plan_cache_clear(device=None)\n--\n\nDestroy every cached plan of the "
      "device." },
    { "_fft_emulate", set_emulate, METH_O,
      "_fft_emulate(on)\n--\n\n"
      "Test switch: the cpu device plans cuFFT layouts and runs them with NumPy\n"
      "standing in for cuFFT (its plan cache is the cpu device's). Returns the\n"
      "previous setting." },
    { "_cufft_path", cufft_path, METH_NOARGS,
      "_cufft_path()\n--\n\nWhere cuFFT was loaded from, or None (never loads it)." },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(fft, fft_methods)

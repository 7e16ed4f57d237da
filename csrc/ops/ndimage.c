/*
 * ndimage.c: the primitives under cuarray.scipy.ndimage (issue 41): a filter
 * over a footprint (`_ndi_filter`: correlation, min/max with a structure, rank),
 * the B-spline prefilter along one axis (`_ndi_spline`), interpolation at
 * coordinates or through an affine map (`_ndi_map`), connected components
 * (`_ndi_label`) and one exact distance pass (`_ndi_edt`). Python
 * (python/cuarray/scipy/ndimage/) builds footprints, offsets, coordinates and
 * casts, and hands over only C-contiguous float64 (uint8, int64) arrays of one
 * device, allocated by it; this file checks them against each other so a wrong
 * call raises instead of reading out of bounds.
 */
#include "cuarray.h"
#include "launch.h"

/* `o` as a C-contiguous cuarray array of dtype `dt` on *device (-2: any; set);
 * NULL with an exception otherwise. Borrowed. */
static CaArray *
ndi_arg(PyObject *o, int dt, int *device, const char *what)
{
    if (!ca_array_check(o)) {
        PyErr_Format(PyExc_TypeError, "_ndi: %s must be a cuarray array", what);
        return NULL;
    }
    CaArray *x = (CaArray *)o;
    if (x->dtype != dt || !(x->flags & CA_C_CONTIGUOUS) || ca_array_misaligned(x)) {
        PyErr_Format(PyExc_ValueError, "_ndi: %s must be C-contiguous of type %d", what,
                     dt);
        return NULL;
    }
    if (*device != -2 && x->device != *device) {
        PyErr_Format(PyExc_ValueError, "_ndi: %s is on another device", what);
        return NULL;
    }
    *device = x->device;
    return x;
}

/* The same, or NULL data for None (*ok = 0 on error). */
static char *
ndi_opt(PyObject *o, int dt, int *device, const char *what, int *ok)
{
    if (o == Py_None) {
        return NULL;
    }
    CaArray *x = ndi_arg(o, dt, device, what);
    if (x == NULL) {
        *ok = 0;
        return NULL;
    }
    return x->data;
}

static int
ndi_shape(CaArray *x, int *ndim, int64_t *shape)
{
    *ndim = CA_NDIM(x);
    if (*ndim < 1 || x->size < 1) {
        PyErr_SetString(PyExc_ValueError, "_ndi: arrays must be non-empty, ndim >= 1");
        return -1;
    }
    for (int d = 0; d < *ndim; d++) {
        shape[d] = (int64_t)CA_SHAPE(x)[d];
    }
    return 0;
}

/* A tuple of ndim ints into v. */
static int
ndi_ints(PyObject *t, int ndim, int64_t *v, const char *what)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != ndim) {
        PyErr_Format(PyExc_ValueError, "_ndi: %s must be a tuple of %d ints", what,
                     ndim);
        return -1;
    }
    for (int d = 0; d < ndim; d++) {
        v[d] = PyLong_AsLongLong(PyTuple_GET_ITEM(t, d));
        if (v[d] == -1 && PyErr_Occurred()) {
            return -1;
        }
    }
    return 0;
}

/* _ndi_filter(inp, out, offs, loffs, w, op, mode, cval, rank, lo, hi, scratch,
 *             nthreads, vtype, line_axis) */
static PyObject *
ndi_filter(PyObject *m, PyObject *args)
{
    PyObject *oi, *oo, *of, *ol, *ow, *olo, *ohi, *os;
    ca_ndi_filter_args a;
    long long rank, nthreads;
    int dev = -2, ok = 1;
    (void)m;
    if (!PyArg_ParseTuple(args, "OOOOOiidLOOOLii", &oi, &oo, &of, &ol, &ow, &a.op,
                          &a.mode, &a.cval, &rank, &olo, &ohi, &os, &nthreads, &a.vtype,
                          &a.line_axis)) {
        return NULL;
    }
    CaArray *in = ndi_arg(oi, CA_FLOAT64, &dev, "input"), *out, *offs, *loffs;
    if (in == NULL || (out = ndi_arg(oo, CA_FLOAT64, &dev, "output")) == NULL ||
        (offs = ndi_arg(of, CA_INT64, &dev, "offsets")) == NULL ||
        (loffs = ndi_arg(ol, CA_INT64, &dev, "linear offsets")) == NULL ||
        ndi_shape(in, &a.ndim, a.shape) < 0 || ndi_ints(olo, a.ndim, a.lo, "lo") < 0 ||
        ndi_ints(ohi, a.ndim, a.hi, "hi") < 0) {
        return NULL;
    }
    a.nk = (int64_t)loffs->size;
    a.rank = (int64_t)rank;
    const double *w = (const double *)ndi_opt(ow, CA_FLOAT64, &dev, "weights", &ok);
    double *scratch = (double *)ndi_opt(os, CA_FLOAT64, &dev, "scratch", &ok);
    if (!ok) {
        return NULL;
    }
    if (out->size != in->size || offs->size != a.nk * a.ndim ||
        (w != NULL && ((CaArray *)ow)->size != a.nk) ||
        (scratch != NULL && ((CaArray *)os)->size < a.nk * nthreads)) {
        PyErr_SetString(PyExc_ValueError, "_ndi_filter: sizes do not agree");
        return NULL;
    }
    if (ca_use_device(dev) < 0 ||
        ca_run_ndi_filter(dev, &a, (const double *)in->data, (double *)out->data,
                          (const int64_t *)offs->data, (const int64_t *)loffs->data, w,
                          scratch, (int64_t)nthreads, ca_current_stream(dev)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _ndi_spline(c, axis, order, mode): in place */
static PyObject *
ndi_spline(PyObject *m, PyObject *args)
{
    PyObject *oc;
    int axis, order, mode, dev = -2, ndim;
    int64_t shape[CA_MAX_DIMS];
    (void)m;
    if (!PyArg_ParseTuple(args, "Oiii", &oc, &axis, &order, &mode)) {
        return NULL;
    }
    CaArray *c = ndi_arg(oc, CA_FLOAT64, &dev, "coefficients");
    if (c == NULL || ndi_shape(c, &ndim, shape) < 0) {
        return NULL;
    }
    if (axis < 0 || axis >= ndim) {
        PyErr_SetString(PyExc_ValueError, "_ndi_spline: bad axis");
        return NULL;
    }
    int64_t outer = 1, inner = 1;
    for (int d = 0; d < axis; d++) {
        outer *= shape[d];
    }
    for (int d = axis + 1; d < ndim; d++) {
        inner *= shape[d];
    }
    if (ca_use_device(dev) < 0 ||
        ca_run_ndi_spline(dev, (double *)c->data, outer, shape[axis], inner, order,
                          mode, ca_current_stream(dev)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _ndi_map(coef, out, coords, matrix, order, mode, cval) */
static PyObject *
ndi_map(PyObject *m, PyObject *args)
{
    PyObject *oc, *oo, *ox, *om;
    ca_ndi_map_args a;
    int dev = -2, ok = 1;
    (void)m;
    if (!PyArg_ParseTuple(args, "OOOOiid", &oc, &oo, &ox, &om, &a.order, &a.mode,
                          &a.cval)) {
        return NULL;
    }
    CaArray *in = ndi_arg(oc, CA_FLOAT64, &dev, "input"), *out;
    if (in == NULL || (out = ndi_arg(oo, CA_FLOAT64, &dev, "output")) == NULL ||
        ndi_shape(in, &a.ndim, a.shape) < 0 ||
        ndi_shape(out, &a.out_ndim, a.out_shape) < 0) {
        return NULL;
    }
    a.nout = (int64_t)out->size;
    const double *x = (const double *)ndi_opt(ox, CA_FLOAT64, &dev, "coordinates", &ok);
    const double *mat = (const double *)ndi_opt(om, CA_FLOAT64, &dev, "matrix", &ok);
    if (!ok) {
        return NULL;
    }
    if ((x == NULL) == (mat == NULL) ||
        (x != NULL && ((CaArray *)ox)->size != a.nout * a.ndim) ||
        (mat != NULL && ((CaArray *)om)->size != a.ndim * (a.out_ndim + 1))) {
        PyErr_SetString(PyExc_ValueError, "_ndi_map: sizes do not agree");
        return NULL;
    }
    if (ca_use_device(dev) < 0 ||
        ca_run_ndi_map(dev, &a, (const double *)in->data, x, mat, (double *)out->data,
                       ca_current_stream(dev)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _ndi_label(mask, offs, p) */
static PyObject *
ndi_label(PyObject *m, PyObject *args)
{
    PyObject *om, *of, *op;
    ca_ndi_shape s;
    int dev = -2;
    (void)m;
    if (!PyArg_ParseTuple(args, "OOO", &om, &of, &op)) {
        return NULL;
    }
    CaArray *mask = ndi_arg(om, CA_UINT8, &dev, "mask"), *offs, *p;
    if (mask == NULL || (offs = ndi_arg(of, CA_INT64, &dev, "offsets")) == NULL ||
        (p = ndi_arg(op, CA_INT64, &dev, "parents")) == NULL ||
        ndi_shape(mask, &s.ndim, s.shape) < 0) {
        return NULL;
    }
    if (p->size != mask->size || offs->size % s.ndim != 0) {
        PyErr_SetString(PyExc_ValueError, "_ndi_label: sizes do not agree");
        return NULL;
    }
    if (ca_use_device(dev) < 0 ||
        ca_run_ndi_label(dev, &s, (const uint8_t *)mask->data,
                         (const int64_t *)offs->data, (int64_t)offs->size / s.ndim,
                         (int64_t *)p->data, ca_current_stream(dev)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* _ndi_edt(f, axis, h, arg, scratch): one pass in place */
static PyObject *
ndi_edt(PyObject *m, PyObject *args)
{
    PyObject *of, *oa, *os;
    int axis, dev = -2, ndim, ok = 1;
    double h;
    int64_t shape[CA_MAX_DIMS];
    (void)m;
    if (!PyArg_ParseTuple(args, "OidOO", &of, &axis, &h, &oa, &os)) {
        return NULL;
    }
    CaArray *f = ndi_arg(of, CA_FLOAT64, &dev, "distances"), *sc;
    if (f == NULL || (sc = ndi_arg(os, CA_FLOAT64, &dev, "scratch")) == NULL ||
        ndi_shape(f, &ndim, shape) < 0) {
        return NULL;
    }
    int64_t *arg = (int64_t *)ndi_opt(oa, CA_INT64, &dev, "indices", &ok);
    if (!ok) {
        return NULL;
    }
    if (axis < 0 || axis >= ndim || (arg && ((CaArray *)oa)->size != f->size)) {
        PyErr_SetString(PyExc_ValueError, "_ndi_edt: bad axis or sizes");
        return NULL;
    }
    int64_t outer = 1, inner = 1, n = shape[axis];
    for (int d = 0; d < axis; d++) {
        outer *= shape[d];
    }
    for (int d = axis + 1; d < ndim; d++) {
        inner *= shape[d];
    }
    if (sc->size < (dev == CA_CPU ? 1 : outer * inner) * (3 * n + 1)) {
        PyErr_SetString(PyExc_ValueError, "_ndi_edt: scratch too small");
        return NULL;
    }
    if (ca_use_device(dev) < 0 ||
        ca_run_ndi_edt(dev, (double *)f->data, outer, n, inner, h, arg,
                       (double *)sc->data, ca_current_stream(dev)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef ndimage_functions[] = {
    { "_ndi_filter", ndi_filter, METH_VARARGS,
      "_ndi_filter(inp, out, offs, loffs, w, op, mode, cval, rank, lo, hi, scratch,\n"
      "            nthreads, vtype, line_axis)\n--\n\n"
      "Internal (cuarray.scipy.ndimage): out = a filter of inp (float64) over the\n"
      "taps offs (int64, (nk, ndim)); kernels.h's ca_ndi_filter." },
    { "_ndi_spline", ndi_spline, METH_VARARGS,
      "_ndi_spline(c, axis, order, mode)\n--\n\n"
      "Internal: B-spline coefficients of c (float64) along axis, in place." },
    { "_ndi_map", ndi_map, METH_VARARGS,
      "_ndi_map(coef, out, coords, matrix, order, mode, cval)\n--\n\n"
      "Internal: out = coef interpolated at coords ((ndim, out.size)) or at\n"
      "matrix @ (output index, 1)." },
    { "_ndi_label", ndi_label, METH_VARARGS,
      "_ndi_label(mask, offs, p)\n--\n\n"
      "Internal: p = the first point (C order) of each point's component, -1 off\n"
      "the mask (uint8)." },
    { "_ndi_edt", ndi_edt, METH_VARARGS,
      "_ndi_edt(f, axis, h, arg, scratch)\n--\n\n"
      "Internal: one exact squared-distance pass along axis, in place." },
    { NULL, NULL, 0, NULL }
};

int
ca_ndimage_init(PyObject *m)
{
    return PyModule_AddFunctions(m, ndimage_functions);
}

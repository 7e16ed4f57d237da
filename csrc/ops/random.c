/*
 * random.c: cuarray.random's generator type (cuarray._core.Generator).
 *
 * A generator is a Philox4x32-10 stream: (seed, offset), offset counting the
 * 128-bit Philox blocks used so far (kernels/shared/random_impl.h). Each call fills
 * a new array on the current (or given) device from the blocks at the offset,
 * on the device's current stream, without synchronizing, and advances the
 * offset past them, so successive calls continue the stream and a seed
 * reproduces it. The host path runs the same Philox code: for one seed, the
 * cpu device and a GPU give identical uniforms and integers, and normals that
 * agree to a few units in the last place (log/sin/cos differ in their last
 * bits between libm and CUDA).
 *
 * cuRAND's own uniforms and normals are not used: its uniform lies in (0, 1]
 * (NumPy's is [0, 1)), its normal wants even counts, and the cpu device could
 * not reproduce its streams. Its generators are available as bit generators
 * (CurandGenerator below, csrc/runtime/launch_rand.c): their raw words feed the same
 * transforms (the `words` argument of _dist).
 */
#include "launch.h"
#include "structmember.h"

#include <math.h>
#include <string.h>

typedef struct {
    PyObject_HEAD uint64_t seed;
    uint64_t offset;
} CaGenerator;

/* ======================================================================== */
/* Arguments                                                                  */
/* ======================================================================== */
/* obj as a Python int (a new reference), or TypeError: msg, formatted with obj's
 * type name (floats are refused, as NumPy refuses them). */
static PyObject *
integer_arg(PyObject *obj, const char *msg)
{
    if (PyFloat_Check(obj) || !PyIndex_Check(obj)) {
        PyErr_Format(PyExc_TypeError, msg, Py_TYPE(obj)->tp_name);
        return NULL;
    }
    return PyNumber_Index(obj);
}

/* A seed: None (fresh entropy from os.urandom) or an int in [0, 2**64). */
static int
seed_from_object(PyObject *obj, uint64_t *seed)
{
    if (obj == NULL || obj == Py_None) {
        PyObject *os = PyImport_ImportModule("os");
        if (os == NULL) {
            return -1;
        }
        PyObject *b = PyObject_CallMethod(os, "urandom", "i", 8);
        Py_DECREF(os);
        if (b == NULL) {
            return -1;
        }
        if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != 8) {
            Py_DECREF(b);
            PyErr_SetString(PyExc_SystemError, "os.urandom(8) gave no 8 bytes");
            return -1;
        }
        memcpy(seed, PyBytes_AS_STRING(b), 8);
        Py_DECREF(b);
        return 0;
    }
    PyObject *i = integer_arg(obj, "seed must be None or an integer, not %.100s");
    if (i == NULL) {
        return -1;
    }
    int overflow = 0;
    long long sv = PyLong_AsLongLongAndOverflow(i, &overflow);
    int neg = overflow < 0 || (overflow == 0 && sv < 0);
    unsigned long long v = 0;
    if (!neg && !(sv == -1 && PyErr_Occurred())) {
        v = PyLong_AsUnsignedLongLong(i);
    }
    Py_DECREF(i);
    if (neg || PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "Seed must be between 0 and 2**64 - 1");
        return -1;
    }
    *seed = (uint64_t)v;
    return 0;
}

/* size=: None -> a 0-d array (as CuPy; NumPy would return a Python scalar). */
static int
size_from_object(PyObject *obj, Py_ssize_t *shape)
{
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    return ca_shape_from_object(obj, shape);
}

static int
float_dtype(PyObject *obj, const char *fname)
{
    int dt = ca_dtype_converter(obj ? obj : Py_None, CA_FLOAT64);
    if (dt < 0) {
        return -1;
    }
    if (dt != CA_FLOAT32 && dt != CA_FLOAT64) {
        PyErr_Format(PyExc_TypeError, "Unsupported dtype dtype('%s') for %s",
                     ca_dtype_name[dt], fname);
        return -1;
    }
    return dt;
}

/* A scalar distribution parameter (a Python or NumPy number). */
static int
param(PyObject *obj, double dflt, const char *name, double *out)
{
    if (obj == NULL) {
        *out = dflt;
        return 0;
    }
    if (ca_array_check(obj) || PyArray_Check(obj) || PyList_Check(obj) ||
        PyTuple_Check(obj)) {
        PyErr_Format(PyExc_TypeError,
                     "%s must be a scalar: array-valued parameters are not supported",
                     name);
        return -1;
    }
    *out = PyFloat_AsDouble(obj);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int
device_arg(PyObject *obj)
{
    return ca_device_from_object(obj);
}

/* A new C-ordered array for the samples: dtype, the shape size= gives, on the
 * device device= names. */
static CaArray *
new_output(int dtype, PyObject *size, PyObject *device_obj)
{
    Py_ssize_t shape[CA_MAX_DIMS];
    int nd = size_from_object(size, shape);
    if (nd < 0) {
        return NULL;
    }
    int device = device_arg(device_obj);
    if (device == CA_DEVICE_ERROR || ca_use_device(device) < 0) {
        return NULL;
    }
    return ca_array_empty(dtype, nd, shape, 0, device,
                          device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
}

/* out once its samples are drawn (rc: the launch's status): the generator moves
 * past the `blocks` Philox blocks they used. NULL, out released, on error. */
static PyObject *
drawn(CaGenerator *g, CaArray *out, int rc, uint64_t blocks)
{
    if (rc < 0) {
        Py_DECREF(out);
        return NULL;
    }
    g->offset += blocks;
    return (PyObject *)out;
}

/* ======================================================================== */
/* Sampling                                                                   */
/* ======================================================================== */
/* uniform (normal=0) or normal (normal=1) samples: a + b * X. */
static PyObject *
sample_float(CaGenerator *g, int normal, double a, double b, PyObject *size, int dtype,
             PyObject *device_obj)
{
    CaArray *out = new_output(dtype, size, device_obj);
    if (out == NULL || out->size == 0) {
        return (PyObject *)out;
    }
    const int device = out->device;
    const int dist = normal ? CA_RANDOM_NORMAL : CA_RANDOM_UNIFORM;
    ca_stream_t stream = ca_current_stream(device);
    int rc = normal ? ca_run_random_normal(device, out->data, out->size, dtype, g->seed,
                                           g->offset, a, b, stream)
                    : ca_run_random_uniform(device, out->data, out->size, dtype,
                                            g->seed, g->offset, a, b, stream);
    return drawn(g, out, rc, ca_random_blocks(dist, dtype, 0, out->size));
}

#define FASTKW (METH_FASTCALL | METH_KEYWORDS)

/* random() (dist 0) and standard_normal() (dist 1): (size, dtype, device). */
static PyObject *
unit_sample(CaGenerator *g, int dist, const char *name, PyObject *const *args,
            Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "size", "dtype", "device", NULL };
    PyObject *v[3];
    if (ca_parse_args(name, args, nargs, kwnames, names, 2, 0, v) < 0) {
        return NULL;
    }
    int dt = float_dtype(v[1], name);
    if (dt < 0) {
        return NULL;
    }
    return sample_float(g, dist, 0.0, 1.0, v[0], dt, v[2]);
}


/* normal(loc, scale, size, dtype, device) (dist 1) and uniform(low, high, ...)
 * (dist 0): the two parameters (defaults 0 and 1, named by names[0] and
 * names[1]), NumPy's check of them, then loc + scale * (a standard sample). */
static PyObject *
affine_sample(CaGenerator *g, int dist, const char *name, const char *const *names,
              PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *v[5];
    double p0, p1;
    if (ca_parse_args(name, args, nargs, kwnames, names, 4, 0, v) < 0) {
        return NULL;
    }
    if (param(v[0], 0.0, names[0], &p0) < 0 || param(v[1], 1.0, names[1], &p1) < 0) {
        return NULL;
    }
    const double scale = dist == 1 ? p1 : p1 - p0; /* uniform: high - low */
    if (dist == 1 && scale < 0.0) {
        PyErr_SetString(PyExc_ValueError, "scale < 0");
        return NULL;
    }
    if (dist == 0 && !isfinite(scale)) {
        PyErr_SetString(PyExc_OverflowError, "high - low range exceeds valid bounds");
        return NULL;
    }
    int dt = float_dtype(v[3], name);
    if (dt < 0) {
        return NULL;
    }
    return sample_float(g, dist, p0, scale, v[2], dt, v[4]);
}

static const char *const names_normal[] = { "loc",   "scale",  "size",
                                            "dtype", "device", NULL };
static const char *const names_uniform[] = { "low",   "high",   "size",
                                             "dtype", "device", NULL };

/* The Generator methods of this block: FN(g, args, nargs, kwnames) calling BODY. */
#define GENERATOR_METHOD(FN, BODY)                                                     \
    static PyObject *FN(CaGenerator *g, PyObject *const *args, Py_ssize_t nargs,       \
                        PyObject *kwnames)                                             \
    {                                                                                  \
        return BODY;                                                                   \
    }
GENERATOR_METHOD(Generator_random, unit_sample(g, 0, "random", args, nargs, kwnames))
GENERATOR_METHOD(Generator_standard_normal,
                 unit_sample(g, 1, "standard_normal", args, nargs, kwnames))
GENERATOR_METHOD(Generator_normal,
                 affine_sample(g, 1, "normal", names_normal, args, nargs, kwnames))
GENERATOR_METHOD(Generator_uniform,
                 affine_sample(g, 0, "uniform", names_uniform, args, nargs, kwnames))

/* ---- integers ---- */
typedef __int128 ca_i128;

/* A Python int (or NumPy integer) as a 128-bit value; *big = 1 when it lies
 * beyond [-2**65, 2**65), where every dtype bound check fails anyway. */
static int
int_param(PyObject *obj, ca_i128 *out, int *big)
{
    *big = 0;
    PyObject *i = integer_arg(obj, "integer bounds are required, not %.100s");
    if (i == NULL) {
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(i, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        Py_DECREF(i);
        return -1;
    }
    if (!overflow) {
        *out = v;
        Py_DECREF(i);
        return 0;
    }
    /* Beyond 64 bits: split into the high part (i >> 64, floor) and the low
     * 64 bits, so bounds such as 2**64 (uint64's exclusive high) are exact. */
    PyObject *sixty4 = PyLong_FromLong(64),
             *mask = PyLong_FromUnsignedLongLong(UINT64_MAX);
    PyObject *hi = sixty4 ? PyNumber_Rshift(i, sixty4) : NULL;
    PyObject *lo = mask ? PyNumber_And(i, mask) : NULL;
    Py_XDECREF(sixty4);
    Py_XDECREF(mask);
    Py_DECREF(i);
    if (hi == NULL || lo == NULL) {
        Py_XDECREF(hi);
        Py_XDECREF(lo);
        return -1;
    }
    int ovh = 0;
    long long h = PyLong_AsLongLongAndOverflow(hi, &ovh);
    unsigned long long l = PyLong_AsUnsignedLongLong(lo);
    Py_DECREF(hi);
    Py_DECREF(lo);
    if (PyErr_Occurred()) {
        return -1;
    }
    if (ovh != 0 || h > 1 || h < -2) {
        *big = 1;
        *out = ovh > 0 || h > 0 ? (ca_i128)1 << 100 : -((ca_i128)1 << 100);
        return 0;
    }
    *out = (ca_i128)h * ((ca_i128)1 << 64) + (ca_i128)l;
    return 0;
}

static void
dtype_bounds(int dt, ca_i128 *lo, ca_i128 *hi)
{
    switch (dt) {
    case CA_BOOL:
        *lo = 0;
        *hi = 1;
        break;
    case CA_INT8:
        *lo = INT8_MIN;
        *hi = INT8_MAX;
        break;
    case CA_UINT8:
        *lo = 0;
        *hi = UINT8_MAX;
        break;
    case CA_INT16:
        *lo = INT16_MIN;
        *hi = INT16_MAX;
        break;
    case CA_UINT16:
        *lo = 0;
        *hi = UINT16_MAX;
        break;
    case CA_INT32:
        *lo = INT32_MIN;
        *hi = INT32_MAX;
        break;
    case CA_UINT32:
        *lo = 0;
        *hi = UINT32_MAX;
        break;
    case CA_INT64:
        *lo = INT64_MIN;
        *hi = INT64_MAX;
        break;
    default:
        *lo = 0;
        *hi = (ca_i128)UINT64_MAX;
        break;
    }
}

static PyObject *
Generator_integers(CaGenerator *g, PyObject *const *args, Py_ssize_t nargs,
                   PyObject *kwnames)
{
    static const char *const names[] = { "low",      "high",   "size", "dtype",
                                         "endpoint", "device", NULL };
    PyObject *v[6];
    ca_i128 low, high, lo_d, hi_d;
    int big_low = 0, big_high = 0;
    if (ca_parse_args("integers", args, nargs, kwnames, names, 5, 1, v) < 0) {
        return NULL;
    }
    int endpoint = v[4] ? PyObject_IsTrue(v[4]) : 0;
    if (endpoint < 0) {
        return NULL;
    }
    int dt = ca_dtype_converter(v[3] ? v[3] : Py_None, CA_INT64);
    if (dt < 0) {
        return NULL;
    }
    if (dt > CA_UINT64) {
        PyErr_Format(PyExc_TypeError, "Unsupported dtype dtype('%s') for integers",
                     ca_dtype_name[dt]);
        return NULL;
    }
    if (v[1] == NULL || v[1] == Py_None) {
        /* integers(high): [0, high) */
        if (int_param(v[0], &high, &big_high) < 0) {
            return NULL;
        }
        low = 0;
        if (!endpoint && high <= 0) {
            PyErr_SetString(PyExc_ValueError, "high <= 0");
            return NULL;
        }
    }
    else if (int_param(v[0], &low, &big_low) < 0 ||
             int_param(v[1], &high, &big_high) < 0) {
        return NULL;
    }
    dtype_bounds(dt, &lo_d, &hi_d);
    ca_i128 last = endpoint ? high : high - 1; /* the largest value drawn */
    if (big_low || low < lo_d) {
        PyErr_Format(PyExc_ValueError, "low is out of bounds for %s",
                     ca_dtype_name[dt]);
        return NULL;
    }
    if (big_high || last > hi_d) {
        PyErr_Format(PyExc_ValueError, "high is out of bounds for %s",
                     ca_dtype_name[dt]);
        return NULL;
    }
    if (last < low) {
        PyErr_SetString(PyExc_ValueError, endpoint ? "low > high" : "low >= high");
        return NULL;
    }
    const uint64_t range_m1 = (uint64_t)(last - low);
    const uint64_t ulow = (uint64_t)low; /* two's complement for negative bounds */

    CaArray *out = new_output(dt, v[2], v[5]);
    if (out == NULL || out->size == 0) {
        return (PyObject *)out;
    }
    const int device = out->device;
    int rc =
        ca_run_random_integers(device, out->data, out->size, out->itemsize, g->seed,
                               g->offset, ulow, range_m1, ca_current_stream(device));
    return drawn(g, out, rc,
                 ca_random_blocks(CA_RANDOM_INTEGERS, dt, range_m1, out->size));
}

/* ---- distributions (kernels/shared/random_dist.h) ---- */
/* Parameter k of _dist: a number, or a C-contiguous float64 array of the
 * output's size on its device. */
static int
dist_param(PyObject *obj, const CaArray *out, ca_rd_params *prm, int k)
{
    prm->p[k] = NULL;
    prm->v[k] = 0.0;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    if (!ca_array_check(obj)) {
        prm->v[k] = PyFloat_AsDouble(obj);
        return (prm->v[k] == -1.0 && PyErr_Occurred()) ? -1 : 0;
    }
    CaArray *a = (CaArray *)obj;
    if (a->dtype != CA_FLOAT64 || !(a->flags & CA_C_CONTIGUOUS) ||
        a->size != out->size || a->device != out->device) {
        PyErr_SetString(PyExc_ValueError,
                        "_dist: array parameters must be C-contiguous float64 arrays "
                        "of the output's size on its device");
        return -1;
    }
    prm->p[k] = (const double *)a->data;
    return 0;
}

/* Words from another bit generator: C-contiguous uint32, 4 per block. */
static int
dist_words(PyObject *obj, const CaArray *out, uint64_t blocks, const uint32_t **words)
{
    *words = NULL;
    if (obj == NULL || obj == Py_None) {
        return 0;
    }
    CaArray *w = ca_array_check(obj) ? (CaArray *)obj : NULL;
    if (w == NULL || w->dtype != CA_UINT32 || !(w->flags & CA_C_CONTIGUOUS) ||
        (uint64_t)w->size < 4 * blocks || w->device != out->device) {
        PyErr_SetString(PyExc_ValueError,
                        "_dist: words must be a C-contiguous uint32 array of 4 words "
                        "per block on the output's device");
        return -1;
    }
    *words = (const uint32_t *)w->data;
    return 0;
}

/* _dist(op, size, dtype, a=None, b=None, c=None, words=None, device=None): the
 * primitive under cuarray.random's distributions (python/cuarray/random/). */
static PyObject *
Generator_dist(CaGenerator *g, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    static const char *const names[] = { "op", "size",  "dtype",  "a", "b",
                                         "c",  "words", "device", NULL };
    PyObject *v[8];
    ca_rd_params prm;
    const uint32_t *words = NULL;
    if (ca_parse_args("_dist", args, nargs, kwnames, names, 8, 3, v) < 0) {
        return NULL;
    }
    long op = PyLong_AsLong(v[0]);
    if (op == -1 && PyErr_Occurred()) {
        return NULL;
    }
    int dt = ca_dtype_converter(v[2], CA_FLOAT64);
    if (dt < 0) {
        return NULL;
    }
    if (op < 0 || op >= CA_RD_COUNT ||
        (ca_random_dist_discrete((int)op) ? dt != CA_INT64
                                          : (dt != CA_FLOAT32 && dt != CA_FLOAT64))) {
        PyErr_SetString(PyExc_ValueError, "_dist: unknown op or dtype");
        return NULL;
    }
    CaArray *out = new_output(dt, v[1], v[7]);
    if (out == NULL) {
        return NULL;
    }
    const int device = out->device;
    uint64_t blocks = ca_random_dist_blocks((int)op, dt, out->size);
    if (dist_param(v[3], out, &prm, 0) < 0 || dist_param(v[4], out, &prm, 1) < 0 ||
        dist_param(v[5], out, &prm, 2) < 0 ||
        dist_words(v[6], out, blocks, &words) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (out->size == 0) {
        return (PyObject *)out;
    }
    int rc = ca_run_random_dist(device, (int)op, out->data, out->size, dt, g->seed,
                                g->offset, &prm, words, ca_current_stream(device));
    return drawn(g, out, rc, blocks);
}

static PyObject *
Generator_seed(CaGenerator *g, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    static const char *const names[] = { "seed", NULL };
    PyObject *v[1];
    uint64_t s;
    if (ca_parse_args("seed", args, nargs, kwnames, names, 1, 0, v) < 0) {
        return NULL;
    }
    if (seed_from_object(v[0], &s) < 0) {
        return NULL;
    }
    g->seed = s;
    g->offset = 0;
    Py_RETURN_NONE;
}

/* ======================================================================== */
/* The type                                                                   */
/* ======================================================================== */
static PyObject *
Generator_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "seed", NULL };
    PyObject *seed_obj = NULL;
    uint64_t s;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Generator", kwlist, &seed_obj)) {
        return NULL;
    }
    if (seed_from_object(seed_obj, &s) < 0) {
        return NULL;
    }
    CaGenerator *g = (CaGenerator *)type->tp_alloc(type, 0);
    if (g == NULL) {
        return NULL;
    }
    g->seed = s;
    g->offset = 0;
    return (PyObject *)g;
}

/* Subclasses defined in Python (RandomState) call __init__ with the seed;
 * the work is done in __new__. */
static int
Generator_init(PyObject *self, PyObject *args, PyObject *kwds)
{
    return 0;
}

static void
Generator_dealloc(CaGenerator *g)
{
    PyTypeObject *tp = Py_TYPE(g);
    tp->tp_free((PyObject *)g);
    Py_DECREF(tp);
}

static PyObject *
Generator_get_state(CaGenerator *g, void *c)
{
    return Py_BuildValue("(KK)", (unsigned long long)g->seed,
                         (unsigned long long)g->offset);
}

static int
Generator_set_state(CaGenerator *g, PyObject *v, void *c)
{
    unsigned long long s, o;
    if (v == NULL) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete state");
        return -1;
    }
    if (!PyTuple_Check(v) || PyTuple_GET_SIZE(v) != 2) {
        PyErr_SetString(PyExc_TypeError, "state must be a tuple (seed, offset)");
        return -1;
    }
    s = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(v, 0));
    if (s == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    o = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(v, 1));
    if (o == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    g->seed = s;
    g->offset = o;
    return 0;
}

static PyObject *
Generator_repr(CaGenerator *g)
{
    return PyUnicode_FromFormat("%s(Philox4x32-10, seed=%llu, offset=%llu)",
                                Py_TYPE(g)->tp_name, (unsigned long long)g->seed,
                                (unsigned long long)g->offset);
}

/* A Generator method: its name, Generator_<fn>, FASTCALL with keywords, DOC_<fn>. */
#define GEN_METHOD(name, fn)                                                           \
    {                                                                                  \
        name, (PyCFunction)(void (*)(void))Generator_##fn, FASTKW, DOC_##fn            \
    }

#define DOC_random                                                                     \
    "random(size=None, dtype=float64, *, device=None)\n--\n\n"                         \
    "Uniform samples in [0, 1): 24 random bits for float32 (never 1.0), 53 for\n"      \
    "float64, as NumPy. size=None gives a 0-d array."
#define DOC_standard_normal                                                            \
    "standard_normal(size=None, dtype=float64, *, device=None)\n--\n\n"                \
    "Standard normal samples (Box-Muller)."
#define DOC_normal                                                                     \
    "normal(loc=0.0, scale=1.0, size=None, dtype=float64, *, device=None)\n--\n\n"     \
    "Normal samples loc + scale * N(0, 1); loc and scale are scalars."
#define DOC_uniform                                                                    \
    "uniform(low=0.0, high=1.0, size=None, dtype=float64, *, device=None)\n--\n\n"     \
    "Uniform samples low + (high - low) * U[0, 1); low and high are scalars."
#define DOC_integers                                                                   \
    "integers(low, high=None, size=None, dtype=int64, endpoint=False, *, "             \
    "device=None)\n"                                                                   \
    "--\n\n"                                                                           \
    "Integers uniform in [low, high) ([low, high] with endpoint=True; [0, low)\n"      \
    "when high is None), without bias (Lemire's method). dtype: bool or any\n"         \
    "integer dtype."
#define DOC_dist                                                                       \
    "_dist(op, size, dtype, a=None, b=None, c=None, words=None, device=None)\n--\n\n"  \
    "Samples of distribution `op` (an index into _core.random_dist_ops) with up\n"     \
    "to three parameters, each a number or a C-contiguous float64 array of the\n"      \
    "output's size on its device; `words` feeds another bit generator's output\n"      \
    "(uint32, 4 per block) instead of Philox. The primitive under\n"                   \
    "cuarray.random's distributions."
#define DOC_seed                                                                       \
    "seed(seed=None)\n--\n\n"                                                          \
    "Restart the stream from `seed` (an int in [0, 2**64); None: fresh entropy)."

/* one method a row */
/* clang-format off */
static PyMethodDef generator_methods[] = {
    GEN_METHOD("random", random),
    GEN_METHOD("standard_normal", standard_normal),
    GEN_METHOD("normal", normal),
    GEN_METHOD("uniform", uniform),
    GEN_METHOD("integers", integers),
    GEN_METHOD("_dist", dist),
    GEN_METHOD("seed", seed),
    { NULL, NULL, 0, NULL },
};
/* clang-format on */

static PyGetSetDef generator_getset[] = {
    { "state", (getter)Generator_get_state, (setter)Generator_set_state,
      "(seed, offset): the Philox key and the number of 128-bit blocks used.", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

#define DOC_GENERATOR                                                                  \
    "Generator(seed=None)\n--\n\n"                                                     \
    "A Philox4x32-10 random stream producing arrays on the current device (or\n"       \
    "device=). Calls queue work on the device's current stream and do not\n"           \
    "synchronize. For one seed the cpu device and GPUs give the same uniforms\n"       \
    "and integers bit for bit, and normals equal to a few units in the last\n"         \
    "place."

static PyType_Slot generator_slots[] = {
    { Py_tp_new, Generator_new },         { Py_tp_init, Generator_init },
    { Py_tp_dealloc, Generator_dealloc }, { Py_tp_repr, Generator_repr },
    { Py_tp_methods, generator_methods }, { Py_tp_getset, generator_getset },
    { Py_tp_doc, DOC_GENERATOR },         { 0, NULL },
};

CA_TYPE_SPEC(generator_spec, "cuarray.random.Generator", CaGenerator,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, generator_slots);

/* ======================================================================== */
/* cuRAND generators (csrc/runtime/launch_rand.c): raw words for cuarray.random's bit */
/* generators                                                                 */
/* ======================================================================== */
typedef struct {
    PyObject_HEAD ca_curand_gen *gen;
    int device;
    int wide;
    int quasi;
    PyObject *kind;
} CaCurand;

static PyObject *
Curand_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "kind", "device", "seed", "offset", NULL };
    const char *kind;
    PyObject *dev_obj = Py_None;
    unsigned long long seed = 0, offset = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|OKK:CurandGenerator", kwlist, &kind,
                                     &dev_obj, &seed, &offset)) {
        return NULL;
    }
    int wide = 0, quasi = 0;
    if (ca_curand_kind_info(kind, &wide, &quasi) < 0) {
        return NULL;
    }
    int device = ca_device_from_object(dev_obj);
    if (device == CA_DEVICE_ERROR || ca_use_device(device) < 0) {
        return NULL;
    }
    CaCurand *c = (CaCurand *)type->tp_alloc(type, 0);
    if (c == NULL) {
        return NULL;
    }
    c->device = device;
    c->wide = wide;
    c->quasi = quasi;
    c->kind = PyUnicode_FromString(kind);
    if (c->kind == NULL ||
        ca_run_curand_create(kind, device, seed, offset, &c->gen) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    return (PyObject *)c;
}

static void
Curand_dealloc(CaCurand *c)
{
    PyTypeObject *tp = Py_TYPE(c);
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    ca_curand_destroy(c->gen);
    PyErr_Restore(et, ev, tb);
    Py_XDECREF(c->kind);
    tp->tp_free((PyObject *)c);
    Py_DECREF(tp);
}

/* fill(out): out (C-contiguous, uint32 or, for the 64-bit kinds, uint64, on the
 * generator's device) filled with the next words, on the current stream. */
static PyObject *
Curand_fill(CaCurand *c, PyObject *arg)
{
    if (!ca_array_check(arg)) {
        PyErr_SetString(PyExc_TypeError, "fill: out must be a cuarray.ndarray");
        return NULL;
    }
    CaArray *a = (CaArray *)arg;
    int want = c->wide ? CA_UINT64 : CA_UINT32;
    if (a->dtype != want || !(a->flags & CA_C_CONTIGUOUS) || a->device != c->device) {
        PyErr_Format(PyExc_ValueError,
                     "fill: out must be a C-contiguous %s array on the generator's "
                     "device",
                     c->wide ? "uint64" : "uint32");
        return NULL;
    }
    if (ca_use_device(c->device) < 0 ||
        ca_run_curand_generate(c->gen, a->data, a->size, c->wide,
                               ca_current_stream(c->device)) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The tail of fill_uniform: out's last `tail` samples (fewer than a block) from
 * one more block of 4 words, generated into scratch and transformed from there. */
static int
uniform_tail(CaCurand *c, char *out, int64_t tail, int dtype, ca_stream_t st)
{
    CaMemory *w = ca_memory_alloc(c->device, ca_index_scratch_kind(c->device),
                                  4 * sizeof(uint32_t), st);
    if (w == NULL) {
        return -1;
    }
    ca_rd_params prm;
    memset(&prm, 0, sizeof prm);
    prm.v[1] = 1.0; /* 0 + 1 * U */
    int rc = ca_run_curand_generate(c->gen, w->ptr, 4, 0, st);
    if (rc == 0) {
        rc = ca_run_random_dist(c->device, CA_RD_UNIFORM, out, tail, dtype, 0, 0, &prm,
                                (const uint32_t *)w->ptr, st);
    }
    /* The pool reuses the block on this stream only after the kernel. */
    Py_DECREF(w);
    return rc;
}

/* fill_uniform(out, chunk): out (C-contiguous float32 or float64 on the
 * generator's device; a 32-bit pseudo-random kind) = uniforms in [0, 1) from the
 * next words, on the current stream: random()'s samples (sample i from word i,
 * or words 2i and 2i + 1), generated into out and transformed in place. */
static PyObject *
Curand_fill_uniform(CaCurand *c, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !ca_array_check(args[0])) {
        PyErr_SetString(PyExc_TypeError,
                        "fill_uniform(out, chunk): out a cuarray.ndarray");
        return NULL;
    }
    CaArray *a = (CaArray *)args[0];
    long long chunk = PyLong_AsLongLong(args[1]);
    if (chunk == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if ((a->dtype != CA_FLOAT32 && a->dtype != CA_FLOAT64) ||
        !(a->flags & CA_C_CONTIGUOUS) || a->device != c->device) {
        PyErr_SetString(PyExc_ValueError, "fill_uniform: out must be a C-contiguous "
                                          "float32 or float64 array on the generator's "
                                          "device");
        return NULL;
    }
    if (c->wide || c->quasi) {
        PyErr_SetString(PyExc_ValueError,
                        "fill_uniform: a 32-bit pseudo-random kind only");
        return NULL;
    }
    const int64_t per = a->dtype == CA_FLOAT64 ? 2 : 4;
    const int64_t n = (int64_t)a->size, whole = n - n % per;
    if (ca_use_device(c->device) < 0) {
        return NULL;
    }
    ca_stream_t st = ca_current_stream(c->device);
    if (ca_run_curand_uniform(c->gen, a->data, whole, a->dtype, (int64_t)chunk, st) <
            0 ||
        (n > whole &&
         uniform_tail(c, a->data + whole * a->itemsize, n - whole, a->dtype, st) < 0)) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Curand_repr(CaCurand *c)
{
    return PyUnicode_FromFormat("CurandGenerator(%R, device=%d)", c->kind, c->device);
}

static PyObject *
Curand_library_path(PyObject *cls, PyObject *unused)
{
    return ca_path_or_none(ca_rand_library_path());
}

static PyMethodDef curand_methods[] = {
    { "library_path", (PyCFunction)Curand_library_path, METH_NOARGS | METH_CLASS,
      "library_path()\n--\n\n"
      "Where cuRAND was loaded from, or None when it has not been loaded." },
    { "fill", (PyCFunction)Curand_fill, METH_O,
      "fill(out)\n--\n\n"
      "Fill `out` (C-contiguous uint32, or uint64 for the Sobol64 kinds, on the\n"
      "generator's device) with the generator's next words, on the current\n"
      "stream." },
    { "fill_uniform", (PyCFunction)(void (*)(void))Curand_fill_uniform, METH_FASTCALL,
      "fill_uniform(out, chunk)\n--\n\n"
      "Fill `out` (C-contiguous float32 or float64 on the generator's device; a\n"
      "32-bit pseudo-random kind) with uniforms in [0, 1) from the next words\n"
      "(one per float32 sample, two per float64), on the current stream:\n"
      "generated into `out` and transformed in place. On a GPU, 0 < chunk < size\n"
      "makes cuRAND fill `chunk` samples' words at a time while a side stream\n"
      "transforms the previous ones." },
    { NULL, NULL, 0, NULL },
};

static PyMemberDef curand_members[] = {
    { "kind", T_OBJECT_EX, offsetof(CaCurand, kind), READONLY, "cuRAND's generator" },
    { "device", T_INT, offsetof(CaCurand, device), READONLY,
      "the device ordinal, -1 for a host generator" },
    { "wide", T_INT, offsetof(CaCurand, wide), READONLY, "1: 64-bit words" },
    { "quasi", T_INT, offsetof(CaCurand, quasi), READONLY, "1: a quasi-random kind" },
    { NULL, 0, 0, 0, NULL },
};

#define DOC_CURANDGENERATOR                                                            \
    "CurandGenerator(kind, device=None, seed=0, offset=0)\n--\n\n"                     \
    "One of cuRAND's generators ('XORWOW', 'MRG32k3a', 'MTGP32', 'MT19937',\n"         \
    "'Philox4_32_10', 'Sobol32', 'ScrambledSobol32', 'Sobol64',\n"                     \
    "'ScrambledSobol64') on a GPU, or cuRAND's host generator for the cpu\n"           \
    "device; cuRAND is loaded on first use. Quasi-random kinds have one\n"             \
    "dimension and ignore the seed."

static PyType_Slot curand_slots[] = {
    { Py_tp_new, Curand_new },
    { Py_tp_dealloc, Curand_dealloc },
    { Py_tp_repr, Curand_repr },
    { Py_tp_methods, curand_methods },
    { Py_tp_members, curand_members },
    { Py_tp_doc, DOC_CURANDGENERATOR },
    { 0, NULL },
};

CA_TYPE_SPEC(curand_spec, "cuarray.random.CurandGenerator", CaCurand,
             Py_TPFLAGS_DEFAULT, curand_slots);

int
ca_random_init(PyObject *m)
{
    ca_st->generator_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(m, &generator_spec, NULL);
    if (ca_st->generator_type == NULL) {
        return -1;
    }
    static const char *const ops[CA_RD_COUNT] = {
        "uniform",        "normal",
        "lognormal",      "exponential",
        "gumbel",         "laplace",
        "logistic",       "pareto",
        "power",          "rayleigh",
        "weibull",        "standard_cauchy",
        "triangular",     "geometric",
        "gamma",          "beta",
        "chisquare",      "f",
        "standard_t",     "noncentral_chisquare",
        "noncentral_f",   "vonmises",
        "wald",           "poisson",
        "binomial",       "negative_binomial",
        "hypergeometric", "logseries",
        "zipf",
    };
    PyObject *names = PyTuple_New(CA_RD_COUNT);
    if (names == NULL) {
        return -1;
    }
    for (int i = 0; i < CA_RD_COUNT; i++) {
        PyObject *s = PyUnicode_FromString(ops[i]);
        if (s == NULL) {
            Py_DECREF(names);
            return -1;
        }
        PyTuple_SET_ITEM(names, i, s);
    }
    int rc = PyModule_AddObjectRef(m, "random_dist_ops", names);
    Py_DECREF(names);
    if (rc < 0) {
        return -1;
    }
    PyObject *curand_type = PyType_FromModuleAndSpec(m, &curand_spec, NULL);
    if (curand_type == NULL) {
        return -1;
    }
    rc = PyModule_AddObjectRef(m, "CurandGenerator", curand_type);
    Py_DECREF(curand_type);
    if (rc < 0) {
        return -1;
    }
    return PyModule_AddObjectRef(m, "Generator", (PyObject *)ca_st->generator_type);
}

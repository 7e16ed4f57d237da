/*
 * ufunc.c: the cuarray.ufunc type, one instance per op of kernels/ops.def.
 *
 * A ufunc object is an op id and a vectorcall slot: calling it goes straight
 * to the element-wise call of elementwise.c (ca_ew_py), the same path and the
 * same cost as the plain functions it replaces. The attributes (nin, nout,
 * types, identity, ...) come from the generated op table. The methods whose
 * work is a composition of primitives (reduce, accumulate, reduceat, outer,
 * at) are Python functions of cuarray/_ufunc.py, set on the type when the
 * package is imported; the primitive `at` needs (an unbuffered scatter) is
 * _ufunc_at below, over the launch layer's ca_run_ufunc_at.
 */
#include "cuarray.h"

#include <string.h>
#include <structmember.h>

#include "ew_table.h"
#include "launch.h"
#include "device_flag.h"

typedef struct {
    PyObject_HEAD vectorcallfunc vectorcall;
    int op;
} CaUfunc;

static PyTypeObject *ufunc_type;

/* NumPy's type characters, in ca_dtype order. */
/* ml_dtypes' characters: E (bfloat16), 4 (float8_e4m3fn), 5 (float8_e5m2). */
static const char type_chars[CA_NTYPES + 1] = "?bBhHiIlLefdFDE45";

static PyObject *
ufunc_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                 PyObject *kwnames)
{
    return ca_ew_py(((CaUfunc *)self)->op, args, PyVectorcall_NARGS(nargsf), kwnames);
}

/* ======================================================================== */
/* attributes                                                                 */
/* ======================================================================== */

static const ca_ew_op *
op_of(PyObject *self)
{
    return &ca_ew_ops[((CaUfunc *)self)->op];
}

/* The name users see: the last part of the op's qualified name ("erf" of
 * scipy.special.erf, whose ops.def row is _special_erf). */
static const char *
pyname(PyObject *self)
{
    const char *q = op_of(self)->qualname, *dot = strrchr(q, '.');
    return dot != NULL ? dot + 1 : q;
}

static PyObject *
get_name(PyObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(pyname(self));
}

static PyObject *
get_nin(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(op_of(self)->nin);
}

static PyObject *
get_nout(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(op_of(self)->nout);
}

static PyObject *
get_nargs(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(op_of(self)->nin + op_of(self)->nout);
}

/* NumPy's loops: the op's first ones (its generated bfloat16 twins follow them,
 * gen_ops.py's bf16_loops, and are no NumPy ufunc's). */
static int
numpy_loops(const ca_ew_op *o)
{
    int k = 0;
    while (k < o->nloops) {
        const ca_ew_loop *L = &ca_ew_loops[o->first_loop + k];
        int ml = 0;
        for (int i = 0; i < o->nin + o->nout; i++) {
            ml |= ca_is_ml(L->types[i]);
        }
        if (ml) {
            break;
        }
        k++;
    }
    return k;
}

static PyObject *
get_ntypes(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLong(numpy_loops(op_of(self)));
}

/* ['ff->f', ...]: the op's loops in search order, as NumPy writes them. */
static PyObject *
get_types(PyObject *self, void *c)
{
    (void)c;
    const ca_ew_op *o = op_of(self);
    const int nl = numpy_loops(o);
    PyObject *list = PyList_New(nl);
    if (list == NULL) {
        return NULL;
    }
    for (int k = 0; k < nl; k++) {
        const ca_ew_loop *L = &ca_ew_loops[o->first_loop + k];
        char s[8];
        int n = 0;
        for (int i = 0; i < o->nin; i++) {
            s[n++] = type_chars[L->types[i]];
        }
        s[n++] = '-';
        s[n++] = '>';
        for (int i = 0; i < o->nout; i++) {
            s[n++] = type_chars[L->types[o->nin + i]];
        }
        PyObject *t = PyUnicode_FromStringAndSize(s, n);
        if (t == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, k, t);
    }
    return list;
}

/* NumPy's identities (the value reduce starts from for an empty axis). */
static PyObject *
get_identity(PyObject *self, void *c)
{
    (void)c;
    switch (((CaUfunc *)self)->op) {
    case CA_OP_add:
    case CA_OP_hypot:
    case CA_OP_gcd:
    case CA_OP_bitwise_or:
    case CA_OP_bitwise_xor: return PyLong_FromLong(0);
    case CA_OP_multiply: return PyLong_FromLong(1);
    case CA_OP_bitwise_and: return PyLong_FromLong(-1);
    case CA_OP_logaddexp:
    case CA_OP_logaddexp2: return PyFloat_FromDouble(-Py_HUGE_VAL);
    case CA_OP_logical_and: Py_RETURN_TRUE;
    case CA_OP_logical_or:
    case CA_OP_logical_xor: Py_RETURN_FALSE;
    default: Py_RETURN_NONE;
    }
}

static PyObject *
get_signature(PyObject *self, void *c)
{
    (void)self;
    (void)c;
    Py_RETURN_NONE; /* element-wise: no core dimensions */
}

static PyObject *
get_doc(PyObject *self, void *c)
{
    (void)c;
    const ca_ew_op *o = op_of(self);
    static const char *const params[] = { "", "x", "x1, x2", "x1, x2, x3" };
    const int ns = strchr(o->qualname, '.') != NULL; /* scipy.special.erf */
    return PyUnicode_FromFormat(
        "%s(%s, /, out=None, *, where=True, casting='same_kind', order='K', "
        "dtype=None, subok=True, signature=None)\n\n"
        "Element-wise %s as %s%s: cuarray arrays (all on one device), Python "
        "and NumPy scalars; broadcasting; NEP 50 promotion; the first loop of "
        "`types` the inputs cast to safely. where=: where it is False the result "
        "keeps out's value (without out=, 0 there: NumPy leaves those elements "
        "uninitialised).\n\n"
        "Methods: reduce, accumulate, reduceat, outer, at (as numpy.ufunc's).",
        pyname(self), params[o->nin], pyname(self), ns ? "" : "numpy.", o->qualname);
}

static PyObject *
ufunc_repr(PyObject *self)
{
    return PyUnicode_FromFormat("<ufunc '%s'>", pyname(self));
}

/* Pickled by name: cuarray.<qualname> (cuarray.scipy.special.erf). */
static PyObject *
ufunc_reduce_ex(PyObject *self, PyObject *unused)
{
    (void)unused;
    return PyUnicode_FromString(op_of(self)->qualname);
}

static PyGetSetDef ufunc_getset[] = {
    { "__name__", get_name, NULL, "The op's name.", NULL },
    { "__doc__", get_doc, NULL, NULL, NULL },
    { "nin", get_nin, NULL, "The number of inputs.", NULL },
    { "nout", get_nout, NULL, "The number of outputs.", NULL },
    { "nargs", get_nargs, NULL, "nin + nout.", NULL },
    { "ntypes", get_ntypes, NULL, "The number of loops.", NULL },
    { "types", get_types, NULL, "The loops as 'ff->f' strings, in search order.",
      NULL },
    { "identity", get_identity, NULL, "The identity of the op, or None.", NULL },
    { "signature", get_signature, NULL, "The core signature (None: element-wise).",
      NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef ufunc_methods[] = {
    { "__reduce__", ufunc_reduce_ex, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};

CA_OFFSET_MEMBERS(ufunc_members, "__vectorcalloffset__", CaUfunc, vectorcall);

static PyType_Slot ufunc_slots[] = {
    { Py_tp_call, PyVectorcall_Call }, { Py_tp_repr, ufunc_repr },
    { Py_tp_getset, ufunc_getset },    { Py_tp_methods, ufunc_methods },
    { Py_tp_members, ufunc_members },  { 0, NULL },
};

/* Not immutable: cuarray/_ufunc.py adds the methods that are compositions. */
CA_TYPE_SPEC(ufunc_spec, "cuarray.ufunc", CaUfunc,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL |
                 Py_TPFLAGS_DISALLOW_INSTANTIATION,
             ufunc_slots);

int
ca_ufunc_check(PyObject *o)
{
    return ufunc_type != NULL && Py_IS_TYPE(o, ufunc_type);
}

int
ca_ufunc_op(PyObject *o)
{
    return ((CaUfunc *)o)->op;
}

/* ======================================================================== */
/* _ufunc_at: the unbuffered scatter                                          */
/* ======================================================================== */

/* The ops the scatter kernel applies itself (kernels.h, CA_AT_*). */
static int
at_code(int op)
{
    switch (op) {
    case CA_OP_add: return CA_AT_ADD;
    case CA_OP_subtract: return CA_AT_SUBTRACT;
    case CA_OP_multiply: return CA_AT_MULTIPLY;
    case CA_OP_maximum: return CA_AT_MAXIMUM;
    case CA_OP_minimum: return CA_AT_MINIMUM;
    case CA_OP_fmax: return CA_AT_FMAX;
    case CA_OP_fmin: return CA_AT_FMIN;
    case CA_OP_bitwise_and: return CA_AT_AND;
    case CA_OP_bitwise_or: return CA_AT_OR;
    case CA_OP_bitwise_xor: return CA_AT_XOR;
    case CA_OP_logical_and: return CA_AT_LAND;
    case CA_OP_logical_or: return CA_AT_LOR;
    default: return -1;
    }
}

static int
at_contiguous(const CaArray *a, const char *what)
{
    if (!(a->flags & CA_C_CONTIGUOUS)) {
        PyErr_Format(PyExc_ValueError, "_ufunc_at: %s must be C-contiguous", what);
        return -1;
    }
    return 0;
}

/* NumPy's IndexError for a flag read back with an offender in it. */
static int
at_index_error(const ca_flag *f, int64_t extent)
{
    PyErr_Format(PyExc_IndexError,
                 "index %lld is out of bounds for axis 0 with size %lld",
                 (long long)f->host[1], (long long)extent);
    return -1;
}

/* The check pass and the scatter on a GPU, without waiting for the scatter: the
 * pass, its flag copied into pinned memory, then the scatter queued behind them,
 * which reads the flag first and applies nothing when it is set. The host waits
 * only for the copy (an event), so the GPU goes on from the check to the scatter
 * with no gap and the call returns while the scatter runs. */
static int
at_check_gated(const CaArray *t, const CaArray *p, const CaArray *v, int code,
               int64_t extent, ca_stream_t stream)
{
    Py_ssize_t two = 2;
    CaArray *seen = ca_array_empty(CA_INT64, 1, &two, 0, t->device, CA_MEM_PINNED);
    if (seen == NULL) {
        return -1;
    }
    ca_flag f;
    ca_event_t e = NULL;
    int rc = ca_flag_open(&f, t->device, stream, 1);
    if (rc == 0) {
        rc = ca_run_event_create(&e, CA_EVENT_DISABLE_TIMING);
    }
    if (rc == 0) {
        rc = ca_run_ufunc_at_check(p->device, (const int64_t *)p->data,
                                   (int64_t)p->size, extent, f.ptr, stream);
    }
    if (rc == 0) {
        rc = ca_run_memcpy_async(seen->data, f.ptr, 2 * sizeof(int64_t), stream);
    }
    if (rc == 0) {
        rc = ca_run_event_record(e, stream);
    }
    if (rc == 0) {
        rc = ca_run_ufunc_at(t->device, code, t->dtype, t->data,
                             (const int64_t *)p->data, extent, v->data,
                             (int64_t)p->size, f.ptr, stream);
    }
    if (rc == 0) {
        rc = ca_run_event_sync(e);
    }
    if (rc == 0 && ((const int64_t *)seen->data)[0] != 0) {
        f.host[1] = ((const int64_t *)seen->data)[1];
        rc = at_index_error(&f, extent);
    }
    if (e != NULL) {
        ca_event_destroy_quiet(e);
    }
    ca_flag_close(&f); /* stream-ordered: reused only after the scatter has read it */
    Py_DECREF(seen);
    return rc < 0 ? -1 : 0;
}

/* IndexError unless every index of p lies in [-extent, extent): one checking
 * pass, then the scatter (on the host: the pass, then the loop). */
static int
at_check_then_scatter(const CaArray *t, const CaArray *p, const CaArray *v, int code,
                      int64_t extent, ca_stream_t stream)
{
    if (t->device != CA_CPU) {
        return at_check_gated(t, p, v, code, extent, stream);
    }
    ca_flag f;
    if (ca_flag_open(&f, p->device, stream, 1) < 0) {
        return -1;
    }
    int rc = ca_run_ufunc_at_check(p->device, (const int64_t *)p->data,
                                   (int64_t)p->size, extent, f.ptr, stream);
    if (rc == 0) {
        rc = ca_flag_read(&f);
    }
    ca_flag_close(&f);
    if (rc == 0 && f.host[0] != 0) {
        return at_index_error(&f, extent);
    }
    return rc < 0 ? -1
                  : ca_run_ufunc_at(t->device, code, t->dtype, t->data,
                                    (const int64_t *)p->data, extent, v->data,
                                    (int64_t)p->size, NULL, stream);
}

/* n bytes between two buffers of one device, in stream order. An empty target's
 * buffers may be NULL: no copy at all then (memcpy's arguments must not be). */
static int
at_copy(int device, void *dst, const void *src, size_t n, ca_stream_t stream)
{
    if (n == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        memcpy(dst, src, n);
        return 0;
    }
    return ca_run_memcpy_async(dst, src, n, stream);
}

/* The same result by one launch: the target's first `extent` elements are copied
 * aside, the scatter checks each position as it applies it, and on a bad one
 * the copy goes back before the IndexError. The flag's read-back waits for the
 * scatter, where the pass above waits only for the check: this pays while the
 * copy is small beside the indices (H200, 2^24 updates into 2^20 float32 bins:
 * 208 us a call against 253). */
static int
at_scatter_checked(const CaArray *t, const CaArray *p, const CaArray *v, int code,
                   int64_t extent, ca_stream_t stream)
{
    Py_ssize_t nbytes = (Py_ssize_t)extent * t->itemsize;
    CaArray *saved = ca_array_empty(CA_UINT8, 1, &nbytes, 0, t->device,
                                    t->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
    if (saved == NULL) {
        return -1;
    }
    ca_flag f;
    int rc = ca_flag_open(&f, t->device, stream, 1);
    if (rc == 0) {
        rc = at_copy(t->device, saved->data, t->data, (size_t)nbytes, stream);
    }
    if (rc == 0) {
        rc = ca_run_ufunc_at(t->device, code, t->dtype, t->data,
                             (const int64_t *)p->data, extent, v->data,
                             (int64_t)p->size, f.ptr, stream);
    }
    if (rc == 0) {
        rc = ca_flag_read(&f);
    }
    if (rc == 0 && f.host[0] != 0) {
        rc = at_copy(t->device, t->data, saved->data, (size_t)nbytes, stream);
        if (rc == 0) {
            rc = at_index_error(&f, extent);
        }
    }
    ca_flag_close(&f);
    Py_DECREF(saved);
    return rc < 0 ? -1 : 0;
}

/* The cpu device's checked scatter only from this many updates: below it the copy
 * aside costs more than the host's check pass (4096 float32 updates into 1000
 * bins: 7.6 us against 6.2, NumPy 6.4). */
#define CA_AT_HOST_CHECKED_MIN ((int64_t)1 << 16)

/* The scatter of a user's indices into a 1-D target of `extent` elements: the
 * checked scatter when copying the target aside and back moves less than the
 * check pass reads (2 * extent * itemsize <= 8 * n bytes), else the pass. */
static int
at_user_indices(const CaArray *t, const CaArray *p, const CaArray *v, int code,
                int64_t extent, ca_stream_t stream)
{
    const int64_t n = (int64_t)p->size;
    if (2 * extent * (int64_t)t->itemsize <= n * (int64_t)sizeof(int64_t) &&
        (t->device != CA_CPU || n >= CA_AT_HOST_CHECKED_MIN)) {
        return at_scatter_checked(t, p, v, code, extent, stream);
    }
    return at_check_then_scatter(t, p, v, code, extent, stream);
}

/*
 * _ufunc_at(ufunc, target, positions, values[, extent]) -> bool. Applies
 * target.flat[p] = op(target.flat[p], v) for every (p, v) pair, repeated
 * positions included (atomics on a GPU). positions: int64, values: target's
 * dtype, both C-contiguous and of one size; target C-contiguous. Without
 * `extent` the positions are already checked to lie in the target; with it they
 * are a user's indices into a 1-D target of that size: checked first (IndexError,
 * nothing updated) and negatives wrapped. False (nothing done) where the kernel
 * has no way for this op and dtype: the caller takes its ordered fallback.
 */
static PyObject *
py_ufunc_at(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if ((nargs != 4 && nargs != 5) || !ca_ufunc_check(args[0]) ||
        !ca_array_check(args[1]) || !ca_array_check(args[2]) ||
        !ca_array_check(args[3])) {
        PyErr_SetString(
            PyExc_TypeError,
            "_ufunc_at(ufunc, target, positions, values[, extent]): arrays expected");
        return NULL;
    }
    int64_t extent = 0;
    if (nargs == 5) {
        extent = (int64_t)PyLong_AsSsize_t(args[4]);
        if (extent == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (extent < 0) {
            PyErr_SetString(PyExc_ValueError, "_ufunc_at: extent must be >= 0");
            return NULL;
        }
    }
    CaArray *t = (CaArray *)args[1], *p = (CaArray *)args[2], *v = (CaArray *)args[3];
    if (at_contiguous(t, "target") < 0 || at_contiguous(p, "positions") < 0 ||
        at_contiguous(v, "values") < 0) {
        return NULL;
    }
    if (nargs == 5 && extent > (int64_t)t->size) {
        PyErr_SetString(PyExc_ValueError,
                        "_ufunc_at: extent is past the target's size");
        return NULL;
    }
    if (p->dtype != CA_INT64 || v->dtype != t->dtype || v->size != p->size ||
        p->device != t->device || v->device != t->device) {
        PyErr_SetString(PyExc_ValueError,
                        "_ufunc_at: positions must be int64, values of the target's "
                        "dtype and size, all on the target's device");
        return NULL;
    }
    const int code = at_code(ca_ufunc_op(args[0]));
    if (code < 0 || !ca_at_supported(code, t->dtype) ||
        (t->device != CA_CPU && (ca_array_misaligned(t) || ca_array_misaligned(v)))) {
        Py_RETURN_FALSE;
    }
    if (p->size > 0) {
        if (ca_use_device(t->device) < 0) {
            return NULL;
        }
        ca_stream_t stream = t->device == CA_CPU ? NULL : ca_current_stream(t->device);
        int rc = nargs == 5 ? at_user_indices(t, p, v, code, extent, stream)
                            : ca_run_ufunc_at(t->device, code, t->dtype, t->data,
                                              (const int64_t *)p->data, 0, v->data,
                                              (int64_t)p->size, NULL, stream);
        if (rc < 0) {
            return NULL;
        }
    }
    Py_RETURN_TRUE;
}

/* ndarray.__array_ufunc__ (NEP 13): np.add(x, 1) with a cuarray x runs cuarray's
 * ufunc of the same name. __call__ of a ufunc seen before (the `cache` dict of
 * _dispatch.py, NumPy ufunc -> cuarray callable) is one lookup and one call
 * here; the rest (a new ufunc, other methods, their errors) is _dispatch.py's
 * `fallback`, with the same arguments. Both are set by _array_ufunc_setup. */
static PyObject *au_cache = NULL, *au_fallback = NULL, *au_call = NULL;

static PyObject *
array_ufunc_slow(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                 PyObject *kwnames)
{
    const Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject **v = PyMem_Malloc((size_t)(nargs + nkw + 1) * sizeof(PyObject *));
    if (v == NULL) {
        return PyErr_NoMemory();
    }
    v[0] = self;
    memcpy(v + 1, args, (size_t)(nargs + nkw) * sizeof(PyObject *));
    PyObject *r = PyObject_Vectorcall(au_fallback, v, (size_t)nargs + 1, kwnames);
    PyMem_Free(v);
    return r;
}

/* Whether `method` is "__call__" (NumPy passes a new string each call). */
static int
is_call(PyObject *method)
{
    return method == au_call ||
           (PyUnicode_CheckExact(method) && PyUnicode_GET_LENGTH(method) == 8 &&
            PyUnicode_KIND(method) == PyUnicode_1BYTE_KIND &&
            memcmp(PyUnicode_1BYTE_DATA(method), "__call__", 8) == 0);
}

static PyObject *
Ndarray_array_ufunc(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                    PyObject *kwnames)
{
    if (au_fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "__array_ufunc__: cuarray is not set up");
        return NULL;
    }
    if (nargs >= 2 && is_call(args[1])) {
        PyObject *f = PyDict_GetItemWithError(au_cache, args[0]); /* borrowed */
        if (f != NULL) {
            return PyObject_Vectorcall(f, args + 2, (size_t)(nargs - 2), kwnames);
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    return array_ufunc_slow(self, args, nargs, kwnames);
}

PyMethodDef ca_ufunc_array_methods[] = {
    { "__array_ufunc__", (PyCFunction)(void (*)(void))Ndarray_array_ufunc,
      METH_FASTCALL | METH_KEYWORDS,
      "__array_ufunc__(ufunc, method, *inputs, **kwargs)\n--\n\nNumPy's ufunc "
      "protocol (NEP 13): cuarray's ufunc of the same name runs "
      "(cuarray/_dispatch.py)." },
    { NULL, NULL, 0, NULL },
};

static PyObject *
py_array_ufunc_setup(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    (void)m;
    if (nargs != 2 || !PyDict_CheckExact(args[0]) || !PyCallable_Check(args[1])) {
        PyErr_SetString(PyExc_TypeError, "_array_ufunc_setup(cache: dict, fallback)");
        return NULL;
    }
    if (au_call == NULL && (au_call = PyUnicode_InternFromString("__call__")) == NULL) {
        return NULL;
    }
    Py_XSETREF(au_cache, Py_NewRef(args[0]));
    Py_XSETREF(au_fallback, Py_NewRef(args[1]));
    Py_RETURN_NONE;
}

static PyMethodDef ufunc_module_defs[] = {
    { "_array_ufunc_setup", (PyCFunction)(void (*)(void))py_array_ufunc_setup,
      METH_FASTCALL,
      "_array_ufunc_setup(cache, fallback)\n--\n\nndarray.__array_ufunc__'s cache "
      "(NumPy ufunc -> cuarray callable, for __call__) and the Python function for "
      "the rest (cuarray/_dispatch.py)." },
    { "_ufunc_at", (PyCFunction)(void (*)(void))py_ufunc_at, METH_FASTCALL,
      "_ufunc_at(ufunc, target, positions, values[, extent])\n--\n\nThe unbuffered "
      "scatter of ufunc.at (cuarray/_ufunc.py): target.flat[p] = op(target.flat[p], v) "
      "for each pair (with extent: p are checked, wrapped indices into a 1-D target); "
      "False where the kernel has no way for the op and dtype." },
    { NULL, NULL, 0, NULL },
};

/* ======================================================================== */
/* init                                                                       */
/* ======================================================================== */

/* One ufunc per op in _ops; the public names in the module, except where
 * NumPy's function is not the bare op (real, imag, round, angle, clip, where:
 * elementwise.c's richer functions). */
int
ca_ufunc_init(PyObject *m)
{
    ufunc_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &ufunc_spec, NULL);
    if (ufunc_type == NULL ||
        PyModule_AddObjectRef(m, "ufunc", (PyObject *)ufunc_type) < 0 ||
        PyModule_AddFunctions(m, ufunc_module_defs) < 0) {
        return -1;
    }
    PyObject *ops = PyDict_New();
    if (ops == NULL) {
        return -1;
    }
    for (int op = 0; op < CA_EW_NOPS; op++) {
        CaUfunc *u = PyObject_New(CaUfunc, ufunc_type);
        if (u == NULL) {
            goto error;
        }
        u->vectorcall = ufunc_vectorcall;
        u->op = op;
        const char *name = ca_ew_ops[op].name;
        int special = op == CA_OP_real || op == CA_OP_imag || op == CA_OP_round ||
                      op == CA_OP_angle || op == CA_OP_clip || op == CA_OP_where;
        int r = PyDict_SetItemString(ops, name, (PyObject *)u);
        if (r == 0 && !special) {
            r = PyModule_AddObjectRef(m, name, (PyObject *)u);
        }
        Py_DECREF(u);
        if (r < 0) {
            goto error;
        }
    }
    int rc = PyModule_AddObjectRef(m, "_ops", ops);
    Py_DECREF(ops);
    return rc;
error:
    Py_DECREF(ops);
    return -1;
}

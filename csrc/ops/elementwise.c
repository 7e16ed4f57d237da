/*
 * elementwise.c: the element-wise functions (add, sin, where, ...), the
 * ndarray's arithmetic operators, comparisons and math methods.
 *
 * Every call goes through ew_call: classify the operands (arrays, Python
 * scalars, NumPy scalars), resolve the loop with NumPy's rules (NEP 50 for
 * Python scalars, then the first loop of the op that the inputs cast to safely,
 * cached per (op, input dtypes)), broadcast (shape.c), allocate the output from
 * the pool, and launch one kernel through the launch layer (launch.h:
 * ca_run_elementwise). Python scalars travel by value
 * in the launch parameters: `v * 2.0` copies nothing to the device. Inputs
 * whose dtype differs from the loop's are cast into a temporary first; only
 * mixed-dtype calls pay that.
 */
#include <math.h>
#include <string.h>

#include "cuarray.h"
#include "datetime_hook.h"
#include "ew_table.h"
#include "launch.h"
#include "scalar.h"

/* Operand kinds: a ca_dtype, or a Python scalar whose dtype NEP 50 decides. */
enum { K_WEAK_INT = CA_NTYPES, K_WEAK_FLOAT, K_WEAK_COMPLEX };

/* Casting tables (NumPy's can_cast), filled at init. */
/* NumPy's casting tables (dtype.c fills them, the ml_dtypes rows on load) */
#define can_safe      ca_cast_safe
#define can_same_kind ca_cast_same_kind

/* Resolution cache: per op, 14^nin entries indexed by the input dtypes seen by
 * the loop search; 0 unknown, -1 no loop, else loop index + 1. */
static int16_t *ew_cache[CA_EW_NOPS];

/* Per loop: its bfloat16 twin (gen_ops.py's bf16_loops: the float32 loop with
 * every float32 replaced by bfloat16), -1 if none. */
static int16_t ew_bf16_twin[CA_EW_NLOOPS];

/* ======================================================================== */
/* small helpers                                                              */
/* ======================================================================== */

/* One value of dtype `st` at src -> dtype `dt` at dst, with NumPy's casts. */
static void
scalar_cast(int dt, void *dst, int st, const void *src)
{
    switch (dt * CA_NTYPES + st) {
#define CA_P_SC(dc, dtp, dn, sc, stp, sn)                                              \
    case dc *CA_NTYPES + sc: {                                                         \
        stp s_;                                                                        \
        memcpy(&s_, src, sizeof s_);                                                   \
        const dtp d_ = ca_cast_##dn##_##sn(s_);                                        \
        memcpy(dst, &d_, sizeof d_);                                                   \
        return;                                                                        \
    }
        CA_FOR_EACH_DTYPE_PAIR(CA_P_SC)
#undef CA_P_SC
    }
}

static const int64_t int_min[CA_NTYPES] = {
    0, INT8_MIN, 0, INT16_MIN, 0, INT32_MIN, 0, INT64_MIN, 0,
};
static const uint64_t int_max[CA_NTYPES] = {
    1,         INT8_MAX,   UINT8_MAX, INT16_MAX,  UINT16_MAX,
    INT32_MAX, UINT32_MAX, INT64_MAX, UINT64_MAX,
};

/* A Python int as int64 (*i) or, above INT64_MAX, uint64 (*u, *is_unsigned).
 * Returns 0; 1 when it fits neither (then *is_unsigned says it is positive);
 * -1 with an exception. */
static int
pylong_value(PyObject *o, int64_t *i, uint64_t *u, int *is_unsigned)
{
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *is_unsigned = overflow > 0;
    if (!overflow) {
        *i = v;
        return 0;
    }
    if (overflow > 0) {
        unsigned long long w = PyLong_AsUnsignedLongLong(o);
        if (w == (unsigned long long)-1 && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
                return -1;
            }
            PyErr_Clear();
            return 1;
        }
        *u = w;
        return 0;
    }
    return 1;
}

/* Does the Python int (value from pylong_value) fit integer dtype t? */
static int
int_fits(int t, int64_t i, uint64_t u, int is_unsigned)
{
    if (is_unsigned) {
        return u <= int_max[t];
    }
    if (i < 0) {
        return i >= int_min[t];
    }
    return (uint64_t)i <= int_max[t];
}

/* ======================================================================== */
/* operands                                                                   */
/* ======================================================================== */

typedef struct {
    CaArray *arr;          /* the array (borrowed), or NULL for a scalar */
    PyObject *obj;         /* the Python object */
    int kind;              /* a ca_dtype or K_WEAK_* */
    int sdtype;            /* a scalar's value: its dtype ... */
    unsigned char val[16]; /* ... and bytes */
} ew_in;

/* Classify one input. Returns 0, -1 with an exception, or 1 for a type this
 * library does not take as an operand (no exception set). */
static int
classify(PyObject *o, ew_in *in)
{
    in->obj = o;
    in->arr = NULL;
    if (ca_array_check(o)) {
        in->arr = (CaArray *)o;
        in->kind = in->arr->dtype;
        return 0;
    }
    if (PyBool_Check(o)) {
        in->kind = in->sdtype = CA_BOOL;
        in->val[0] = (unsigned char)(o == Py_True);
        return 0;
    }
    /* NumPy scalars before Python's: np.float64 subclasses float. */
    if (PyArray_IsScalar(o, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(o);
        if (d == NULL) {
            return -1;
        }
        int t = ca_dtype_from_descr(d);
        Py_DECREF(d);
        if (t < 0) {
            return -1;
        }
        in->kind = in->sdtype = t;
        PyArray_ScalarAsCtype(o, in->val);
        return 0;
    }
    if (PyLong_Check(o)) {
        in->kind = K_WEAK_INT;
        return 0;
    }
    if (PyFloat_Check(o)) {
        in->kind = K_WEAK_FLOAT;
        in->sdtype = CA_FLOAT64;
        double v = PyFloat_AS_DOUBLE(o);
        memcpy(in->val, &v, sizeof v);
        return 0;
    }
    if (PyComplex_Check(o)) {
        in->kind = K_WEAK_COMPLEX;
        in->sdtype = CA_COMPLEX128;
        Py_complex c = PyComplex_AsCComplex(o);
        if (c.real == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        memcpy(in->val, &c.real, sizeof(double));
        memcpy(in->val + sizeof(double), &c.imag, sizeof(double));
        return 0;
    }
    if (PyArray_Check(o)) {
        PyErr_SetString(PyExc_TypeError,
                        "cuarray functions do not take NumPy arrays (that would be a "
                        "silent copy to the device): convert with cuarray.asarray() "
                        "first");
        return -1;
    }
    return 1;
}

static int
unsupported_operand(int op, PyObject *o)
{
    PyErr_Format(PyExc_TypeError,
                 "%s(): unsupported operand type %.200s (expected a cuarray.ndarray "
                 "or a Python/NumPy scalar; convert with cuarray.asarray())",
                 ca_ew_ops[op].name, Py_TYPE(o)->tp_name);
    return -1;
}

/* The dtype the loop search sees for a Python scalar, given C, the promoted
 * dtype of the other (strong) operands or -1 (NEP 50). */
static int
weak_dtype(int kind, int c)
{
    switch (kind) {
    case K_WEAK_INT: return (c < 0 || c == CA_BOOL) ? CA_INT64 : c;
    case K_WEAK_FLOAT: return (c < 0 || !ca_is_inexact(c)) ? CA_FLOAT64 : c;
    case K_WEAK_COMPLEX:
        if (c < 0 || !ca_is_inexact(c) || c == CA_FLOAT64) {
            return c == CA_COMPLEX64 ? CA_COMPLEX64 : CA_COMPLEX128;
        }
        if (c == CA_FLOAT16 || c == CA_FLOAT32 || ca_is_ml(c)) {
            return CA_COMPLEX64;
        }
        return c;
    }
    return kind;
}

/* ======================================================================== */
/* loop resolution                                                            */
/* ======================================================================== */

static int
cache_key(int nin, const int *dt)
{
    int key = 0;
    for (int i = nin - 1; i >= 0; i--) {
        key = key * CA_NTYPES + dt[i];
    }
    return key;
}

/* First loop of `op` taking the inputs dt[] by safe casts (NumPy's linear
 * search); with dtype= (`req` >= 0): the first loop with that output type
 * that the inputs reach safely, else by same-kind casts. -1 if none. */
static int
search_loop(int op, const int *dt, int req, int exact)
{
    const ca_ew_op *o = &ca_ew_ops[op];
    const int nin = o->nin;
    if ((o->flags & CA_EWF_INTDOUBLE) && req < 0) {
        int allint = 1;
        for (int i = 0; i < nin; i++) {
            allint &= !ca_is_inexact(dt[i]);
        }
        if (allint) {
            for (int l = o->first_loop; l < o->first_loop + o->nloops; l++) {
                if (ca_ew_loops[l].types[0] == CA_FLOAT64 &&
                    ca_ew_loops[l].types[nin] == CA_FLOAT64) {
                    return l;
                }
            }
        }
    }
    if (exact && (o->flags & CA_EWF_EXACT) && req < 0) {
        /* NumPy's dispatcher takes a loop of the operands' own types before its
         * linear search: SciPy's float32 inputs reach f->f after d->d (not with
         * a Python scalar operand: xlogy(float32 array, 0.5) is float64) */
        for (int l = o->first_loop; l < o->first_loop + o->nloops; l++) {
            int same = 1;
            for (int i = 0; i < nin; i++) {
                same &= ca_ew_loops[l].types[i] == dt[i];
            }
            if (same) {
                return l;
            }
        }
    }
    for (int pass = 0; pass < (req >= 0 ? 2 : 1); pass++) {
        for (int l = o->first_loop; l < o->first_loop + o->nloops; l++) {
            const ca_ew_loop *L = &ca_ew_loops[l];
            if (req >= 0 && L->types[nin] != req) {
                continue;
            }
            int ok = 1;
            for (int i = 0; i < nin && ok; i++) {
                ok = pass == 0 ? can_safe[dt[i]][L->types[i]]
                               : can_same_kind[dt[i]][L->types[i]];
            }
            if (ok) {
                return l;
            }
        }
    }
    return -1;
}

static int
find_loop(int op, const int *dt, int req, int weak)
{
    const int nin = ca_ew_ops[op].nin;
    if (req >= 0 || (weak && (ca_ew_ops[op].flags & CA_EWF_EXACT))) {
        /* the cache is keyed by dtypes alone: these searches skip it */
        return search_loop(op, dt, req, !weak);
    }
    int16_t *slot = &ew_cache[op][cache_key(nin, dt)];
    if (*slot == 0) {
        int l = search_loop(op, dt, -1, 1);
        *slot = (int16_t)(l < 0 ? -1 : l + 1);
    }
    return *slot - 1 < 0 ? -1 : *slot - 1;
}

static int
numpy_no_loop_error(const ca_ew_op *o, const int *dt, int req)
{
    PyObject *names = PyTuple_New(o->nin);
    for (int i = 0; names != NULL && i < o->nin; i++) {
        PyObject *n = PyUnicode_FromString(ca_dtype_name[dt[i]]);
        if (n == NULL) {
            Py_CLEAR(names);
            break;
        }
        PyTuple_SET_ITEM(names, i, n);
    }
    if (names == NULL) {
        PyErr_Clear();
        return -1;
    }
    PyObject *args = req >= 0
                         ? Py_BuildValue("(sNs)", o->name, names, ca_dtype_name[req])
                         : Py_BuildValue("(sN)", o->name, names);
    return ca_numpy_ufunc_error("no_loop", args);
}

static int
no_loop_error(int op, const int *dt, int req)
{
    const ca_ew_op *o = &ca_ew_ops[op];
    if (numpy_no_loop_error(o, dt, req) == 0) {
        return -1;
    }
    char types[200] = "";
    size_t len = 0;
    for (int i = 0; i < o->nin; i++) {
        len += (size_t)PyOS_snprintf(types + len, sizeof types - len, "%s%s",
                                     i ? ", " : "", ca_dtype_name[dt[i]]);
    }
    if (req >= 0) {
        PyErr_Format(PyExc_TypeError,
                     "No loop matching the specified signature and casting was found "
                     "for ufunc %s (inputs %s, dtype=%s)",
                     o->qualname, types, ca_dtype_name[req]);
    }
    else {
        PyErr_Format(
            PyExc_TypeError,
            "ufunc '%s' not supported for the input types (%s), and the inputs "
            "could not be safely coerced to any supported types according to "
            "the casting rule 'safe'",
            o->qualname, types);
    }
    return -1;
}

static int
bool_error(int op)
{
    const int dt[3] = { CA_BOOL, CA_BOOL, CA_BOOL };
    if (numpy_no_loop_error(&ca_ew_ops[op], dt, -1) == 0) {
        return -1; /* NumPy's own exception */
    }
    switch (op) {
    case CA_OP_subtract:
        PyErr_SetString(
            PyExc_TypeError,
            "numpy boolean subtract, the `-` operator, is not supported, use "
            "the bitwise_xor, the `^` operator, or the logical_xor function "
            "instead.");
        break;
    case CA_OP_negative:
        PyErr_SetString(
            PyExc_TypeError,
            "The numpy boolean negative, the `-` operator, is not supported, "
            "use the `~` operator or the logical_not function instead.");
        break;
    default:
        PyErr_Format(PyExc_TypeError,
                     "ufunc '%s' did not contain a loop with signature matching types "
                     "bool",
                     ca_ew_ops[op].name);
    }
    return -1;
}

/* ======================================================================== */
/* the call                                                                   */
/* ======================================================================== */
/*
 * One call in stages, as CuPy's ufunc call reads: the operands and out= (with
 * their device), the routine (NEP 50 dtypes, then the loop), the scalars by
 * value, the broadcast shape, the inputs in the loop's dtypes, the result,
 * the launch. Each stage is a static function over the call's state on the
 * caller's stack; the ones on the way of every call are forced inline
 * (EW_STAGE), so the split costs `a + b` nothing: no allocation, no Python
 * call and no extra function call on the way to the kernel.
 */
#define EW_STAGE static inline __attribute__((always_inline))

typedef struct {
    int op;
    const ca_ew_op *o;
    int nin;
    ew_in in[3];
    int dt[3];    /* the dtypes the loop search sees */
    CaArray *out; /* out= (borrowed), or NULL */
    int device;
    int loop; /* index into ca_ew_loops */
    const ca_ew_loop *L;
    ca_scalar_arg scalars[3]; /* Python/NumPy scalars, in the loop's types */
    unsigned mask;            /* bit i: input i is scalars[i] */
    int ndim;                 /* the broadcast shape */
    Py_ssize_t shape[CA_MAX_DIMS];
    CaArray *tmp[3]; /* inputs cast for the loop (owned) */
    int casting;     /* casting=: one of the EW_CAST_* rules */
    int ml_out;      /* an ml_dtypes result type (the float32 loop's result
                        rounded once into it), else -1 */
    int ml_c;        /* the ml_dtypes type the operands promote to, else -1 */
} ew_args;

/* casting= rules, in NumPy's order of leniency */
enum { EW_CAST_NO, EW_CAST_EQUIV, EW_CAST_SAFE, EW_CAST_SAME_KIND, EW_CAST_UNSAFE };
static const char *const ew_cast_names[] = { "no", "equiv", "safe", "same_kind",
                                             "unsafe" };

/* May `from` be cast to `to` under rule r? (no and equiv: native byte order only,
 * so the same dtype) */
static int
cast_allowed(int from, int to, int r)
{
    return r == EW_CAST_UNSAFE      ? 1
           : r == EW_CAST_SAME_KIND ? can_same_kind[from][to]
           : r == EW_CAST_SAFE      ? can_safe[from][to]
                                    : from == to;
}

/* ---- operands, out=, device ---- */

/* 0, -1 with an exception, or 1 for an operand of a foreign type given to an
 * operator (no exception: it answers NotImplemented). */
EW_STAGE int
ew_operands(ew_args *A, PyObject *const *args, int is_operator)
{
    for (int i = 0; i < A->nin; i++) {
        int r = classify(args[i], &A->in[i]);
        if (r > 0 && !is_operator) {
            return unsupported_operand(A->op, args[i]);
        }
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

/* out_obj: NULL/None, an ndarray, or a 1-tuple of one (its device is checked
 * with the operands', by ew_device). */
EW_STAGE int
ew_out_arg(ew_args *A, PyObject *out_obj)
{
    return ca_out_from_object(A->o->name, out_obj, CA_DEVICE_UNSET, &A->out);
}

/* The one device of every array operand and out= (else the current one). */
EW_STAGE int
ew_device(ew_args *A)
{
    A->device = CA_DEVICE_UNSET;
    for (int i = 0; i <= A->nin; i++) {
        CaArray *a = i < A->nin ? A->in[i].arr : A->out;
        if (a == NULL) {
            continue;
        }
        if (A->device == CA_DEVICE_UNSET) {
            A->device = a->device;
        }
        else if (a->device != A->device) {
            char d1[CA_DEVICE_NAME_LEN], d2[CA_DEVICE_NAME_LEN];
            PyErr_Format(
                PyExc_ValueError,
                "%s(): operands are on different devices (%s and %s); move one "
                "with .to_device() or cuarray.asarray(..., device=...)",
                A->o->name, ca_device_name(A->device, d1),
                ca_device_name(a->device, d2));
            return -1;
        }
    }
    if (A->device == CA_DEVICE_UNSET) {
        A->device = ca_current_device();
    }
    return 0;
}

/* ---- guess the routine: NEP 50 dtypes, then the loop ---- */

/* dt[]: arrays and NumPy scalars as they are, Python scalars by NEP 50 from
 * the promoted dtype of the others (where's condition is always bool). */
EW_STAGE int
ew_search_dtypes(ew_args *A)
{
    int c = -1;
    const int first = A->op == CA_OP_where ? 1 : 0;
    for (int i = first; i < A->nin; i++) {
        if (A->in[i].kind < CA_NTYPES) {
            c = c < 0 ? A->in[i].kind : ca_promote(c, A->in[i].kind);
            if (c < 0) {
                return -1;
            }
        }
    }
    for (int i = 0; i < A->nin; i++) {
        A->dt[i] = weak_dtype(A->in[i].kind, c);
    }
    if (A->op == CA_OP_where) {
        A->dt[0] = CA_BOOL;
    }
    A->ml_out = A->ml_c = c >= 0 && ca_is_ml(c) ? c : -1;
    return 0;
}

/* ml_dtypes' types have no loops of their own: where the operands promote to
 * one, the search sees float32 for them (PyTorch's rule: compute in float32,
 * round once), so bfloat16 + bfloat16 takes ff->f even where ee->e comes first. */
static void
ml_search_dtypes(const ew_args *A, int *dt)
{
    for (int i = 0; i < A->nin; i++) {
        dt[i] = A->ml_out >= 0 && ca_is_ml(A->dt[i]) ? CA_FLOAT32 : A->dt[i];
    }
}

/* A Python int operand: its value (int64, uint64, or a double beyond both).
 * The comparisons and clip look at the range first: an out-of-range int
 * compares exactly / clamps; other ops check it against the loop type
 * (ew_scalar_args). */
static int
ew_pyint(ew_args *A, int i)
{
    ew_in *in = &A->in[i];
    int64_t iv = 0;
    uint64_t uv = 0;
    int is_u = 0;
    int r = pylong_value(in->obj, &iv, &uv, &is_u);
    if (r < 0) {
        return -1;
    }
    const int t = A->dt[i];
    if (ca_is_integer(t) && !(r == 0 && int_fits(t, iv, uv, is_u))) {
        if (A->o->flags & CA_EWF_CMP) {
            /* compare exactly: as int64 / uint64, or as float64 beyond */
            A->dt[i] = r == 1 ? CA_FLOAT64 : (is_u ? CA_UINT64 : CA_INT64);
        }
        else if (A->o->flags & CA_EWF_CLAMPINT) {
            if (r == 1 ? !is_u : (!is_u && iv < 0)) {
                iv = int_min[t];
                is_u = 0;
            }
            else {
                uv = int_max[t];
                is_u = 1;
            }
            r = 0;
        }
        else if (r == 0 && (A->op == CA_OP_logical_and || A->op == CA_OP_logical_or ||
                            A->op == CA_OP_logical_xor)) {
            /* only the truth of the int counts (NumPy takes any int of 64 bits) */
            A->dt[i] = CA_BOOL;
            iv = 1; /* an int that fits no integer type is not 0 */
            is_u = 0;
            r = 0;
        }
    }
    if (r == 1) {
        double d = PyLong_AsDouble(in->obj);
        if (d == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        in->sdtype = CA_FLOAT64;
        memcpy(in->val, &d, sizeof d);
    }
    else if (is_u) {
        in->sdtype = CA_UINT64;
        memcpy(in->val, &uv, sizeof uv);
    }
    else {
        in->sdtype = CA_INT64;
        memcpy(in->val, &iv, sizeof iv);
    }
    return 0;
}

/* A Python int beside floats searches as the floats' dtype (NEP 50); where no
 * loop takes that, it is NumPy's default int, as for ldexp(x, 3)'s dl->d loop.
 * 1 if an operand changed. */
static int
weak_int_as_int64(ew_args *A)
{
    int changed = 0;
    for (int i = 0; i < A->nin; i++) {
        if (A->in[i].kind == K_WEAK_INT && ca_is_inexact(A->dt[i])) {
            A->dt[i] = CA_INT64;
            changed = 1;
        }
    }
    return changed;
}

/* A->loop for the operands; req: dtype= (-1 none). */
/* casting='unsafe' with dtype=: the op's loop of that result type whose inputs
 * are all of it (else its first loop of that result type), inputs cast as asked. */
static int
unsafe_loop(int op, int req)
{
    const ca_ew_op *o = &ca_ew_ops[op];
    int first = -1;
    for (int l = o->first_loop; l < o->first_loop + o->nloops; l++) {
        const ca_ew_loop *L = &ca_ew_loops[l];
        if (L->types[o->nin] != req) {
            continue;
        }
        int all = 1;
        for (int i = 0; i < o->nin; i++) {
            all &= L->types[i] == req;
        }
        if (all) {
            return l;
        }
        first = first < 0 ? l : first;
    }
    return first;
}

/* casting= other than same_kind: each array operand's cast to its loop type must
 * be allowed (Python scalars are weak, as in NumPy: they are not checked). */
static int
check_input_casts(ew_args *A)
{
    for (int i = 0; i < A->nin; i++) {
        int from = A->dt[i], to = A->L->types[i];
        if (A->in[i].arr != NULL && !cast_allowed(from, to, A->casting)) {
            if (ca_numpy_ufunc_error("cast_error",
                                     Py_BuildValue("(sssssi)", A->o->name, "input",
                                                   ew_cast_names[A->casting],
                                                   ca_dtype_name[from],
                                                   ca_dtype_name[to], i)) == 0) {
                return -1;
            }
            PyErr_Format(PyExc_TypeError,
                         "Cannot cast ufunc '%s' input %d from dtype('%s') to "
                         "dtype('%s') with casting rule '%s'",
                         A->o->name, i, ca_dtype_name[from], ca_dtype_name[to],
                         ew_cast_names[A->casting]);
            return -1;
        }
    }
    return 0;
}

EW_STAGE int
ew_guess_routine(ew_args *A, int req)
{
    if (ew_search_dtypes(A) < 0) {
        return -1;
    }
    for (int i = 0; i < A->nin; i++) {
        if (A->in[i].kind == K_WEAK_INT && ew_pyint(A, i) < 0) {
            return -1;
        }
    }
    if ((A->o->flags & CA_EWF_NOBOOL) && req < 0) {
        int allbool = 1;
        for (int i = 0; i < A->nin; i++) {
            allbool &= A->dt[i] == CA_BOOL;
        }
        if (allbool) {
            return bool_error(A->op);
        }
    }
    int weak = 0, dt[3] = { -1, -1, -1 };
    for (int i = 0; i < A->nin; i++) {
        weak |= A->in[i].kind >= CA_NTYPES;
    }
    const int sreq = req >= 0 && ca_is_ml(req) ? CA_FLOAT32 : req;
    if (req >= 0) {
        A->ml_out = A->ml_c = ca_is_ml(req) ? req : -1; /* dtype= decides */
    }
    ml_search_dtypes(A, dt);
    A->loop = find_loop(A->op, dt, sreq, weak);
    if (A->loop < 0 && weak_int_as_int64(A)) {
        ml_search_dtypes(A, dt);
        A->loop = find_loop(A->op, dt, sreq, weak);
    }
    if (A->loop < 0 && req >= 0) {
        /* a loop of the asked type exists: casting decides (NumPy's message) */
        A->loop = unsafe_loop(A->op, sreq);
        if (A->loop >= 0 && A->casting != EW_CAST_UNSAFE) {
            A->L = &ca_ew_loops[A->loop];
            if (check_input_casts(A) < 0) {
                return -1;
            }
        }
    }
    if (A->loop < 0) {
        return no_loop_error(A->op, A->dt, req);
    }
    if (A->ml_c == CA_BFLOAT16 && ew_bf16_twin[A->loop] >= 0) {
        /* one pass in bfloat16 storage (scalars rounded to bfloat16 first, as
         * ml_dtypes' loops take them) */
        A->loop = ew_bf16_twin[A->loop];
        A->ml_out = -1;
    }
    A->L = &ca_ew_loops[A->loop];
    if (!ca_is_float(A->L->types[A->nin])) {
        A->ml_out = -1; /* comparisons, isnan, ...: their own result type */
    }
    return A->casting == EW_CAST_SAME_KIND ? 0 : check_input_casts(A);
}

/* ---- scalars by value, in the loop's input types ---- */

/* NEP 50: a Python int must fit the integer type it becomes. */
static int
pyint_fits_loop(const ew_in *in, int t)
{
    int64_t iv = 0;
    uint64_t uv = 0;
    if (in->sdtype == CA_INT64) {
        memcpy(&iv, in->val, sizeof iv);
    }
    else if (in->sdtype == CA_UINT64) {
        memcpy(&uv, in->val, sizeof uv);
    }
    if (in->sdtype == CA_FLOAT64 || !int_fits(t, iv, uv, in->sdtype == CA_UINT64)) {
        PyErr_Format(PyExc_OverflowError, "Python integer %R out of bounds for %s",
                     in->obj, ca_dtype_name[t]);
        return -1;
    }
    return 0;
}

static int
negative_power_error(void)
{
    PyErr_SetString(PyExc_ValueError,
                    "Integers to negative integer powers are not allowed.");
    return -1;
}

EW_STAGE int
ew_scalar_args(ew_args *A)
{
    const ca_ew_loop *L = A->L;
    A->mask = 0;
    for (int i = 0; i < A->nin; i++) {
        const ew_in *in = &A->in[i];
        if (in->arr != NULL) {
            continue;
        }
        if (in->kind == K_WEAK_INT && ca_is_integer(L->types[i]) &&
            pyint_fits_loop(in, L->types[i]) < 0) {
            return -1;
        }
        memset(&A->scalars[i], 0, sizeof A->scalars[i]);
        scalar_cast(L->types[i], A->scalars[i].bytes, in->sdtype, in->val);
        A->mask |= 1u << i;
    }
    if ((A->o->flags & CA_EWF_POWCHECK) && ca_is_integer(L->types[1]) &&
        !ca_is_unsigned(L->types[1]) && A->in[1].arr == NULL) {
        int64_t e = 0;
        scalar_cast(CA_INT64, &e, L->types[1], A->scalars[1].bytes);
        if (e < 0) {
            return negative_power_error();
        }
    }
    return 0;
}

/* ---- broadcast ---- */

/* NumPy's message for inputs that do not broadcast (a scalar shows as ()). */
static int
ew_broadcast_error(const ew_args *A)
{
    int nds[3];
    const Py_ssize_t *shapes[3];
    for (int i = 0; i < A->nin; i++) {
        const CaArray *a = A->in[i].arr;
        nds[i] = a != NULL ? CA_NDIM(a) : 0;
        shapes[i] = a != NULL ? CA_SHAPE(a) : NULL;
    }
    return ca_broadcast_error(A->nin, nds, shapes,
                              A->out != NULL ? "(and the output's shape)" : "");
}

/* A->ndim, A->shape: the inputs' and out='s broadcast shape, which must be
 * out='s own. */
EW_STAGE int
ew_broadcast(ew_args *A)
{
    A->ndim = 0;
    for (int i = 0; i <= A->nin; i++) {
        const CaArray *a = i < A->nin ? A->in[i].arr : A->out;
        if (a != NULL &&
            ca_broadcast_into(&A->ndim, A->shape, CA_NDIM(a), CA_SHAPE(a)) < 0) {
            return ew_broadcast_error(A);
        }
    }
    const CaArray *out = A->out;
    if (out != NULL && !ca_same_shape(CA_NDIM(out), CA_SHAPE(out), A->ndim, A->shape)) {
        return ca_two_shapes_error("non-broadcastable output operand with shape %S "
                                   "doesn't match the broadcast shape %S",
                                   CA_NDIM(out), CA_SHAPE(out), A->ndim, A->shape);
    }
    return 0;
}

/* ---- inputs and the result ---- */

/* Inputs in the loop's dtypes (and aligned, for the GPU): a cast copy where
 * they are not. */
EW_STAGE int
ew_cast_inputs(ew_args *A)
{
    for (int i = 0; i < A->nin; i++) {
        CaArray *a = A->in[i].arr;
        if (a == NULL) {
            continue;
        }
        if (a->dtype != A->L->types[i] ||
            (A->device != CA_CPU && ca_array_misaligned(a))) {
            A->tmp[i] = ca_array_copy(a, A->L->types[i], 'K');
            if (A->tmp[i] == NULL) {
                return -1;
            }
            A->in[i].arr = A->tmp[i];
        }
    }
    return 0;
}

/* May the kernel read `in` while writing `out` (broadcast to ndim)? Yes when
 * they do not overlap, or overlap as exactly the same elements. */
static int
overlap_safe(const CaArray *in, const CaArray *out, int ndim)
{
    if (in->size == 0 || out->size == 0 || in->device != out->device) {
        return 1;
    }
    /* existing arrays' layouts lie inside their buffers: no overflow */
    Py_ssize_t alo = 0, ahi = in->itemsize, blo = 0, bhi = out->itemsize;
    (void)ca_layout_extent(CA_NDIM(in), CA_SHAPE(in), CA_STRIDES(in), in->itemsize,
                           &alo, &ahi);
    (void)ca_layout_extent(CA_NDIM(out), CA_SHAPE(out), CA_STRIDES(out), out->itemsize,
                           &blo, &bhi);
    const intptr_t a0 = (intptr_t)in->data, b0 = (intptr_t)out->data;
    if (a0 + ahi <= b0 + blo || b0 + bhi <= a0 + alo) {
        return 1;
    }
    if (in->data != out->data || in->itemsize != out->itemsize) {
        return 0;
    }
    Py_ssize_t st[CA_MAX_DIMS];
    ca_broadcast_strides(CA_NDIM(in), CA_SHAPE(in), CA_STRIDES(in), ndim, NULL, st);
    for (int d = 0; d < ndim; d++) {
        if (CA_SHAPE(out)[d] != 1 && st[d] != CA_STRIDES(out)[d]) {
            return 0;
        }
    }
    return 1;
}

/* out= itself when the kernel can write it directly (its dtype, aligned, no
 * input overlapping it except element for element), else NULL. */
static CaArray *
ew_direct_out(ew_args *A, int otype)
{
    CaArray *out = A->out;
    if (out->dtype != otype || (A->device != CA_CPU && ca_array_misaligned(out))) {
        return NULL;
    }
    for (int i = 0; i < A->nin; i++) {
        if (A->in[i].arr != NULL && A->tmp[i] == NULL &&
            !overlap_safe(A->in[i].arr, out, A->ndim)) {
            return NULL;
        }
    }
    Py_INCREF(out);
    return out;
}

/* The array the kernel writes: out= (directly), or a new one, F-ordered when
 * the first input of the full shape is F- and not C-contiguous. */
EW_STAGE CaArray *
ew_result(ew_args *A)
{
    const int otype = A->L->types[A->nin];
    if (A->out != NULL) {
        const int rtype = A->ml_out >= 0 ? A->ml_out : otype;
        if (!cast_allowed(rtype, A->out->dtype, A->casting)) {
            if (ca_numpy_ufunc_error(
                    "cast_error",
                    Py_BuildValue("(sssssi)", A->o->name, "output",
                                  ew_cast_names[A->casting], ca_dtype_name[rtype],
                                  ca_dtype_name[A->out->dtype], 0)) == 0) {
                return NULL;
            }
            PyErr_Format(
                PyExc_TypeError,
                "Cannot cast ufunc '%s' output from dtype('%s') to dtype('%s') "
                "with casting rule '%s'",
                A->o->name, ca_dtype_name[rtype], ca_dtype_name[A->out->dtype],
                ew_cast_names[A->casting]);
            return NULL;
        }
        CaArray *res = ew_direct_out(A, otype);
        if (res != NULL) {
            return res;
        }
    }
    int fortran = 0;
    for (int i = 0; i < A->nin; i++) {
        const CaArray *a = A->in[i].arr;
        if (a != NULL && ca_same_shape(CA_NDIM(a), CA_SHAPE(a), A->ndim, A->shape)) {
            fortran = A->ndim > 1 && (a->flags & CA_F_CONTIGUOUS) &&
                      !(a->flags & CA_C_CONTIGUOUS);
            break;
        }
    }
    return ca_array_empty(otype, A->ndim, A->shape, fortran, A->device,
                          A->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
}

/* ---- the kernel's layout and the launch ---- */

/* Everything dense and of one shape: one flat run (the fast path). */
EW_STAGE int
ew_flat(const ew_args *A, const CaArray *res)
{
    if (!(res->flags & CA_C_CONTIGUOUS)) {
        return 0;
    }
    for (int i = 0; i < A->nin; i++) {
        const CaArray *a = A->in[i].arr;
        if (a != NULL && !((a->flags & CA_C_CONTIGUOUS) && a->size == res->size &&
                           ca_same_shape(CA_NDIM(a), CA_SHAPE(a), A->ndim, A->shape))) {
            return 0;
        }
    }
    return 1;
}

/* Operand 0 the result, operand i + 1 input i (stride 0 and no data for a
 * scalar, which travels by value). */
EW_STAGE void
ew_layout(const ew_args *A, CaArray *res, ca_strided *s)
{
    s->nops = A->nin + 1;
    if (ew_flat(A, res)) {
        s->ndim = 1;
        s->shape[0] = res->size;
        s->strides[0][0] = res->itemsize;
        s->data[0] = res->data;
        for (int i = 0; i < A->nin; i++) {
            const CaArray *a = A->in[i].arr;
            s->strides[i + 1][0] = a ? a->itemsize : 0;
            s->data[i + 1] = a ? a->data : NULL;
        }
        return;
    }
    s->ndim = A->ndim;
    for (int d = 0; d < A->ndim; d++) {
        s->shape[d] = A->shape[d];
    }
    ca_strided_set_operand(s, 0, res);
    for (int i = 0; i < A->nin; i++) {
        if (A->in[i].arr != NULL) {
            ca_strided_set_operand(s, i + 1, A->in[i].arr);
            continue;
        }
        s->data[i + 1] = NULL;
        for (int d = 0; d < A->ndim; d++) {
            s->strides[i + 1][d] = 0;
        }
    }
}

/* ---- the cpu device through NumPy's own loops ---- */

/* On the cpu device these (op, input dtype) loops run as NumPy's ufunc on
 * zero-copy views once a call has CA_EW_NUMPY_MIN elements: NumPy's SIMD
 * implementations beat the host loops' libm calls 1.3-70x there (measured
 * against NumPy 2.4 on the 2-core AVX-512 development machine, issue 15; the
 * ratios are in docs/ARCHITECTURE.md; ldexp 10-25x). The ops are NumPy's ufuncs of the same
 * name and loop, so dtypes and values are NumPy's; the call runs under
 * errstate(all="ignore") because cuarray's element-wise ops never warn. Below
 * the threshold the call's Python overhead (2-3 us) would cost more. */
#define CA_EW_NUMPY_MIN 4096

static const struct {
    const char *name;
    const char *types; /* the input dtypes (NumPy type characters) it applies to */
} ew_numpy_rows[] = {
    { "exp", "efd" },     { "exp2", "efd" },     { "expm1", "efd" },
    { "log", "efd" },     { "log2", "efd" },     { "log10", "efd" },
    { "log1p", "efd" },   { "sin", "ef" },       { "cos", "ef" },
    { "tan", "efd" },     { "arcsin", "efdD" },  { "arccos", "efd" },
    { "arctan", "efd" },  { "sinh", "efd" },     { "cosh", "efd" },
    { "tanh", "efd" },    { "arcsinh", "efdD" }, { "arccosh", "efdD" },
    { "arctanh", "efd" }, { "sqrt", "fdD" },     { "cbrt", "efd" },
    { "rint", "fd" },     { "floor", "fd" },     { "ceil", "fd" },
    { "trunc", "fd" },    { "square", "e" },     { "reciprocal", "e" },
    { "negative", "e" },  { "sign", "d" },       { "absolute", "FD" },
    { "arctan2", "efd" }, { "hypot", "e" },      { "power", "efd" },
    { "logaddexp", "e" }, { "remainder", "fd" }, { "fmax", "fd" },
    { "fmin", "fd" },     { "ldexp", "fd" },
};

/* bit t of ew_numpy_dtypes[op]: inputs of dtype t go to NumPy (set at init) */
static uint16_t ew_numpy_dtypes[CA_EW_NOPS];
static PyObject *ew_numpy_ufunc[CA_EW_NOPS]; /* numpy.<name>, on first use */
static PyObject *ew_errstate_ignore;         /* {"all": "ignore"} */

static int
init_numpy_rows(void)
{
    for (size_t r = 0; r < sizeof ew_numpy_rows / sizeof ew_numpy_rows[0]; r++) {
        for (int op = 0; op < CA_EW_NOPS; op++) {
            if (strcmp(ca_ew_ops[op].name, ew_numpy_rows[r].name) != 0) {
                continue;
            }
            for (const char *c = ew_numpy_rows[r].types; *c; c++) {
                /* NumPy's type characters in ca_dtype order */
                const char *at = strchr("?bBhHiIlLefdFD", *c);
                if (at != NULL) {
                    ew_numpy_dtypes[op] |= (uint16_t)(1u << (at - "?bBhHiIlLefdFD"));
                }
            }
        }
    }
    ew_errstate_ignore = Py_BuildValue("{s:s}", "all", "ignore");
    return ew_errstate_ignore == NULL ? -1 : 0;
}

/* Whether this call goes to NumPy: a large cpu call of a listed loop (by its
 * first input's dtype) whose inputs are arrays of the loop's input types, or
 * scalars already cast to them (`x ** 2.5`: NumPy gets a 0-d array of the loop's
 * dtype, so it runs the same loop). */
EW_STAGE int
ew_numpy_applies(const ew_args *A, const CaArray *res)
{
    if (A->device != CA_CPU || res->size < CA_EW_NUMPY_MIN ||
        ew_numpy_dtypes[A->op] == 0) {
        return 0;
    }
    const int t = A->L->types[0];
    if (!(ew_numpy_dtypes[A->op] & (1u << t))) {
        return 0;
    }
    for (int i = 0; i < A->nin; i++) {
        /* an array of the loop's own input type (ldexp's exponent is an int), or
         * a scalar (already cast to it) */
        if (!(A->mask >> i & 1u) &&
            (A->in[i].arr == NULL || A->in[i].arr->dtype != A->L->types[i])) {
            return 0;
        }
    }
    return 1;
}

/* Input i of a call ew_numpy_applies took, for NumPy: a zero-copy view of its
 * array, or a 0-d array holding its scalar (already in the loop's type). */
static PyObject *
ew_numpy_input(const ew_args *A, int i)
{
    if (!(A->mask >> i & 1u)) {
        return ca_cpu_numpy_view(A->in[i].arr);
    }
    int t = A->L->types[i];
    unsigned char bytes[16];
    memcpy(bytes, A->scalars[i].bytes, sizeof bytes);
    if (t == CA_INT64) {
        /* an int64 scalar that fits int32 goes as int32: NumPy's ldexp then runs
         * its fi loop (vectorised) instead of fl (scalar, 10x slower); the
         * values are the same */
        int64_t v;
        memcpy(&v, bytes, sizeof v);
        if (v >= INT32_MIN && v <= INT32_MAX) {
            const int32_t w = (int32_t)v;
            memcpy(bytes, &w, sizeof w);
            t = CA_INT32;
        }
    }
    PyArray_Descr *d = ca_descr(t);
    Py_INCREF(d); /* NewFromDescr steals it */
    PyObject *z = PyArray_NewFromDescr(&PyArray_Type, d, 0, NULL, NULL, NULL, 0, NULL);
    if (z != NULL) {
        memcpy(PyArray_DATA((PyArrayObject *)z), bytes, (size_t)ca_dtype_size[t]);
    }
    return z;
}

static int
ew_numpy_run(const ew_args *A, CaArray *res)
{
    PyObject *v[4] = { NULL, NULL, NULL, NULL }, *es = NULL, *r = NULL;
    int rc = -1;
    if (ca_import_attr(&ew_numpy_ufunc[A->op], "numpy", A->o->name) < 0) {
        return -1;
    }
    for (int i = 0; i < A->nin; i++) {
        if ((v[i] = ew_numpy_input(A, i)) == NULL) {
            goto finish;
        }
    }
    if ((v[A->nin] = ca_cpu_numpy_view(res)) == NULL) {
        goto finish;
    }
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *errstate = np ? PyObject_GetAttrString(np, "errstate") : NULL;
    Py_XDECREF(np);
    es = errstate ? PyObject_VectorcallDict(errstate, NULL, 0, ew_errstate_ignore)
                  : NULL;
    Py_XDECREF(errstate);
    PyObject *entered = es ? PyObject_CallMethod(es, "__enter__", NULL) : NULL;
    if (entered == NULL) {
        goto finish;
    }
    Py_DECREF(entered);
    /* positional outputs: ufunc(x, [y,] out) */
    r = PyObject_Vectorcall(ew_numpy_ufunc[A->op], v, (size_t)(A->nin + 1), NULL);
    PyObject *exit =
        r ? PyObject_CallMethod(es, "__exit__", "OOO", Py_None, Py_None, Py_None)
          : NULL;
    if (r == NULL) {
        /* leave the errstate even on failure, keeping the first exception */
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        Py_XDECREF(
            PyObject_CallMethod(es, "__exit__", "OOO", Py_None, Py_None, Py_None));
        PyErr_Restore(et, ev, tb);
        goto finish;
    }
    if (exit == NULL) {
        goto finish;
    }
    Py_DECREF(exit);
    rc = 0;
finish:
    for (int i = 0; i < 4; i++) {
        Py_XDECREF(v[i]);
    }
    Py_XDECREF(es);
    Py_XDECREF(r);
    return rc;
}

/* Run the loop's kernel over res (kernels/ picks it by loop index and device). */
EW_STAGE int
ew_launch(ew_args *A, CaArray *res)
{
    if (ew_numpy_applies(A, res)) {
        return ew_numpy_run(A, res);
    }
    ca_strided s;
    ew_layout(A, res, &s);
    if ((A->o->flags & CA_EWF_POWCHECK) && A->device == CA_CPU &&
        A->in[1].arr != NULL) {
        /* an integer exponent array: NumPy refuses negative exponents; on the
         * cpu device the elements can be looked at before the launch */
        const int t = A->L->types[1];
        if (ca_is_integer(t) && !ca_is_unsigned(t) &&
            ca_ew_host_any_negative(&s, 2, t)) {
            return negative_power_error();
        }
    }
    if (ca_use_device(A->device) < 0) {
        return -1;
    }
    ca_stream_t stream = A->device == CA_CPU ? NULL : ca_current_stream(A->device);
    return ca_run_elementwise(A->device, A->loop, &s, A->scalars, A->mask, stream,
                              (int64_t)res->size, A->o->name);
}

/* A new result on a GPU, deferred to be fused with what consumes it
 * (fusion.c): the pending result, or NULL, without an exception when the call
 * runs now. */
EW_STAGE PyObject *
ew_defer(const ew_args *A)
{
    if (A->ml_out >= 0) {
        return NULL; /* the float32 result is rounded into the ml type after */
    }
    CaArray *arrs[3] = { A->in[0].arr, A->nin > 1 ? A->in[1].arr : NULL,
                         A->nin > 2 ? A->in[2].arr : NULL };
    return ca_fusion_try(A->loop, arrs, A->scalars, A->ndim, A->shape, A->device);
}

/*
 * op(*args) with NumPy's semantics. out_obj: NULL/None, an ndarray, or a
 * 1-tuple of one. req: dtype= (-1 none). is_operator: an operand of a foreign
 * type gives NotImplemented instead of TypeError. Returns a new reference.
 */
static PyObject *
ew_run(int op, PyObject *const *args, PyObject *out_obj, int req, int is_operator,
       int casting)
{
    ew_args A;
    CaArray *res = NULL;
    PyObject *ret = NULL;

    A.casting = casting;
    A.op = op;
    A.o = &ca_ew_ops[op];
    A.nin = A.o->nin;
    A.tmp[0] = A.tmp[1] = A.tmp[2] = NULL;
    int r = ew_operands(&A, args, is_operator);
    if (r != 0) {
        if (r > 0) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        return NULL;
    }
    if (ew_out_arg(&A, out_obj) < 0 || ew_device(&A) < 0 ||
        ew_guess_routine(&A, req) < 0 || ew_scalar_args(&A) < 0 ||
        ew_broadcast(&A) < 0) {
        return NULL;
    }
    if (A.out == NULL && A.device != CA_CPU) {
        ret = ew_defer(&A);
        if (ret != NULL || PyErr_Occurred()) {
            return ret;
        }
    }
    if (ew_cast_inputs(&A) < 0 || (res = ew_result(&A)) == NULL) {
        goto finish;
    }
    if (res->size > 0 && ew_launch(&A, res) < 0) {
        goto finish;
    }
    if (A.out != NULL && res != A.out) {
        /* the result was computed aside (dtype, alignment or overlap): copy it in */
        if (ca_assign(A.out, res) < 0) {
            goto finish;
        }
        Py_INCREF(A.out);
        ret = (PyObject *)A.out;
    }
    else if (A.ml_out >= 0) {
        ret = (PyObject *)ca_array_copy(res, A.ml_out, 'K'); /* the one rounding */
    }
    else {
        ret = (PyObject *)res;
        res = NULL;
    }
finish:
    Py_XDECREF(res);
    for (int i = 0; i < 3; i++) {
        Py_XDECREF(A.tmp[i]);
    }
    return ret;
}

static PyObject *
ew_call(int op, PyObject *const *args, PyObject *out_obj, int req, int is_operator)
{
    return ew_run(op, args, out_obj, req, is_operator, EW_CAST_SAME_KIND);
}

PyObject *
ca_ew_call(int op, PyObject *const *args, PyObject *out, int dtype)
{
    if (op < 0 || op >= CA_EW_NOPS) {
        PyErr_SetString(PyExc_SystemError, "ca_ew_call: bad op");
        return NULL;
    }
    return ew_call(op, args, out, dtype, 0);
}

/* ======================================================================== */
/* Python functions                                                           */
/* ======================================================================== */

static PyObject *str_out, *str_dtype, *str_casting;

/* casting= as an EW_CAST_* rule; -1 with NumPy's exception */
static int
casting_arg(PyObject *v)
{
    if (!PyUnicode_Check(v)) {
        PyErr_Format(PyExc_TypeError, "casting must be str, not %.100s",
                     Py_TYPE(v)->tp_name);
        return -1;
    }
    for (int r = EW_CAST_NO; r <= EW_CAST_UNSAFE; r++) {
        if (PyUnicode_CompareWithASCIIString(v, ew_cast_names[r]) == 0) {
            return r;
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
                 "'unsafe' (got %R)",
                 v);
    return -1;
}

static int
kw_is(PyObject *key, PyObject *interned, const char *name)
{
    return key == interned || PyUnicode_CompareWithASCIIString(key, name) == 0;
}

/* NumPy's ufunc keywords the fast call leaves to cuarray/_ufunc.py: where=,
 * order=, subok=, signature= (compositions, so only a call that names one pays) */
static int
is_numpy_kw(PyObject *key)
{
    static const char *const names[] = { "where", "order", "subok", "signature" };
    for (int i = 0; i < 4; i++) {
        if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The whole call as cuarray._ufunc._call_numpy_kw(ufunc name, args, kwargs). */
static PyObject *
ew_py_numpy_kw(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static PyObject *hook = NULL;
    if (ca_import_attr(&hook, "cuarray._ufunc", "_call_numpy_kw") < 0) {
        return NULL;
    }
    PyObject *name = PyUnicode_FromString(ca_ew_ops[op].name);
    PyObject *pos = NULL, *kw = NULL, *r = NULL;
    if (name != NULL && ca_fastcall_tuple_dict(args, nargs, kwnames, &pos, &kw) == 0) {
        r = PyObject_CallFunctionObjArgs(hook, name, pos, kw, NULL);
    }
    Py_XDECREF(name);
    Py_XDECREF(pos);
    Py_XDECREF(kw);
    return r;
}

/* name(x1, ..., /, out=None, *, dtype=None): the arguments of every op (the
 * ufunc objects' call, ufunc.c). */
/* cuarray._datetime._ufunc(name, *args, **kwargs): the call with a datetime64 or
 * timedelta64 operand (an array of its subclass, or a NumPy scalar the C layer
 * refused: datetime_hook.h). */
static PyObject *
ew_datetime(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *name = PyUnicode_FromString(ca_ew_ops[op].name);
    if (name == NULL) {
        return NULL;
    }
    PyObject *r = ca_dt_retry_self(NULL, "_ufunc", name, args, nargs, kwnames);
    Py_DECREF(name);
    return r;
}

static PyObject *ew_py(int op, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames);

PyObject *
ca_ew_py(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    for (Py_ssize_t i = 0; i < nargs; i++) {
        if (!Py_IS_TYPE(args[i], ca_st->ndarray_type) && ca_dt_is(args[i])) {
            ca_dt_raise(args[i]);
            return ew_datetime(op, args, nargs, kwnames);
        }
    }
    PyObject *r = ew_py(op, args, nargs, kwnames);
    return r != NULL ? r : ew_datetime(op, args, nargs, kwnames);
}

static PyObject *
ew_py(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    const int nin = ca_ew_ops[op].nin;
    PyObject *out = NULL, *dtype = NULL;
    int req = -1, casting = EW_CAST_SAME_KIND;

    if (nargs < nin || nargs > nin + 1) {
        PyErr_Format(PyExc_TypeError,
                     "%s() takes %d positional argument%s (and out) but %zd %s given",
                     ca_ew_ops[op].name, nin, nin == 1 ? "" : "s", nargs,
                     nargs == 1 ? "was" : "were");
        return NULL;
    }
    if (nargs == nin + 1) {
        out = args[nin];
    }
    if (kwnames != NULL) {
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
            PyObject *key = PyTuple_GET_ITEM(kwnames, k);
            PyObject *v = args[nargs + k];
            if (kw_is(key, str_out, "out")) {
                if (out != NULL) {
                    PyErr_Format(PyExc_TypeError, "%s() got multiple values for 'out'",
                                 ca_ew_ops[op].name);
                    return NULL;
                }
                out = v;
            }
            else if (kw_is(key, str_dtype, "dtype")) {
                dtype = v;
            }
            else if (kw_is(key, str_casting, "casting")) {
                if ((casting = casting_arg(v)) < 0) {
                    return NULL;
                }
            }
            else if (is_numpy_kw(key)) {
                return ew_py_numpy_kw(op, args, nargs, kwnames);
            }
            else {
                PyErr_Format(PyExc_TypeError,
                             "%s() got an unexpected keyword argument %R",
                             ca_ew_ops[op].name, key);
                return NULL;
            }
        }
    }
    if (dtype != NULL && dtype != Py_None) {
        req = ca_dtype_converter(dtype, -1);
        if (req < 0) {
            return NULL;
        }
    }
    return ew_run(op, args, out, req, 0, casting);
}

/* ---- the functions whose public form is not the bare op --------------------- */

static PyObject *
call1(int op, PyObject *a, PyObject *out)
{
    return ew_call(op, &a, out, -1, 0);
}

static PyObject *
call2(int op, PyObject *a, PyObject *b, PyObject *out)
{
    PyObject *args[2] = { a, b };
    return ew_call(op, args, out, -1, 0);
}

static PyObject *
real_of(CaArray *a)
{
    if (!ca_is_complex(a->dtype)) {
        Py_INCREF(a);
        return (PyObject *)a;
    }
    return (PyObject *)ca_array_view(a,
                                     a->dtype == CA_COMPLEX64 ? CA_FLOAT32 : CA_FLOAT64,
                                     CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), a->data);
}

static PyObject *
imag_of(CaArray *a)
{
    if (ca_is_complex(a->dtype)) {
        char *p = a->size ? a->data + a->itemsize / 2 : a->data;
        return (PyObject *)ca_array_view(
            a, a->dtype == CA_COMPLEX64 ? CA_FLOAT32 : CA_FLOAT64, CA_NDIM(a),
            CA_SHAPE(a), CA_STRIDES(a), p);
    }
    /* NumPy: zeros, read-only */
    CaArray *r =
        ca_array_empty(a->dtype, CA_NDIM(a), CA_SHAPE(a), 0, a->device, a->kind);
    if (r == NULL) {
        return NULL;
    }
    if (r->size) {
        unsigned char zero[16] = { 0 };
        if (ca_array_fill(r, zero) < 0) {
            Py_DECREF(r);
            return NULL;
        }
    }
    r->flags = (r->flags & ~CA_WRITEABLE) | CA_NEVER_WRITEABLE;
    return (PyObject *)r;
}

/* The real and imag attributes: closure NULL for real, IMAG for imag. */
#define IMAG ((void *)1)

static PyObject *
get_part(PyObject *self, void *closure)
{
    return closure == IMAG ? imag_of((CaArray *)self) : real_of((CaArray *)self);
}

/* dst[...] = value (an array broadcast, or a scalar). */
static int
assign_value(CaArray *dst, PyObject *value)
{
    if (ca_array_check(value)) {
        return ca_assign(dst, (CaArray *)value);
    }
    if (PyArray_Check(value)) {
        PyErr_SetString(PyExc_TypeError,
                        "cannot assign a NumPy array to a cuarray array implicitly: "
                        "convert with cuarray.asarray() first");
        return -1;
    }
    unsigned char buf[16];
    if (ca_value_to_bytes(value, dst->dtype, buf) < 0) {
        return -1;
    }
    return ca_array_fill(dst, buf);
}

static int
set_part(PyObject *self, PyObject *value, void *closure)
{
    const int imag = closure == IMAG;
    CaArray *a = (CaArray *)self;
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError,
                        "cannot delete an array's real/imag part");
        return -1;
    }
    if (imag && !ca_is_complex(a->dtype)) {
        PyErr_SetString(PyExc_TypeError, "array does not have imaginary part to set");
        return -1;
    }
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    PyObject *part = imag ? imag_of(a) : real_of(a);
    if (part == NULL) {
        return -1;
    }
    int r = assign_value((CaArray *)part, value);
    Py_DECREF(part);
    return r;
}


static PyGetSetDef ew_array_getset[] = {
    { "real", get_part, set_part, "The real part (a view for complex arrays).", NULL },
    { "imag", get_part, set_part,
      "The imaginary part (a view for complex arrays; read-only zeros otherwise).",
      IMAG },
    { NULL, NULL, NULL, NULL, NULL },
};

/* cuarray.real(val) and cuarray.imag(val): the attribute of anything else. */
static PyObject *
part_of(PyObject *val, int imag)
{
    if (ca_array_check(val) &&
        (Py_IS_TYPE(val, ca_st->ndarray_type) || !ca_dt_is(val))) {
        /* (a datetime64 array: its properties) */
        return imag ? imag_of((CaArray *)val) : real_of((CaArray *)val);
    }
    return PyObject_GetAttrString(val, imag ? "imag" : "real");
}

#define PART_FUNCTION(fn, imag)                                                        \
    static PyObject *fn(PyObject *m, PyObject *val) { return part_of(val, imag); }
PART_FUNCTION(py_real, 0)
PART_FUNCTION(py_imag, 1)

static PyObject *
angle_impl(PyObject *z, int deg)
{
    if (!Py_IS_TYPE(z, ca_st->ndarray_type) && ca_dt_is(z)) {
        /* NumPy's angle of a real array: arctan2(0, z), its TypeError here */
        PyObject *zero = PyLong_FromLong(0);
        PyObject *args[2] = { zero, z };
        if (zero == NULL) {
            return NULL;
        }
        ca_dt_raise(z);
        PyObject *r = ew_datetime(CA_OP_arctan2, args, 2, NULL);
        Py_DECREF(zero);
        return r;
    }
    PyObject *r = call1(CA_OP_angle, z, NULL);
    if (r == NULL || !deg) {
        return r;
    }
    PyObject *f = PyFloat_FromDouble(180.0 / 3.14159265358979323846);
    if (f == NULL) {
        Py_DECREF(r);
        return NULL;
    }
    PyObject *r2 = call2(CA_OP_multiply, r, f, r);
    Py_DECREF(f);
    Py_DECREF(r);
    return r2;
}

static PyObject *
py_angle(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "z", "deg", NULL };
    PyObject *v[2];
    (void)m;
    if (ca_parse_args("angle", args, nargs, kwnames, names, 2, 1, v) < 0) {
        return NULL;
    }
    int deg = v[1] ? PyObject_IsTrue(v[1]) : 0;
    if (deg < 0) {
        return NULL;
    }
    return angle_impl(v[0], deg);
}

/* float32 and float64 round with decimals in one loop (ops.def's _round_up and
 * _round_down, the same three roundings) unless out= has another dtype, where
 * NumPy's passes round in out's type. */
static int
round_in_one_pass(int dtype, PyObject *out)
{
    if (dtype != CA_FLOAT32 && dtype != CA_FLOAT64) {
        return 0;
    }
    return out == NULL || out == Py_None ||
           (ca_array_check(out) && ((CaArray *)out)->dtype == dtype);
}

static PyObject *round_impl(PyObject *a, PyObject *decimals_obj, PyObject *out);

/* NumPy rounds a complex array's real and imaginary parts separately (scaling
 * the complex value would make inf * 0 a NaN): a copy (or out=), each part
 * rounded in place through its float view. */
static PyObject *
round_complex(CaArray *a, PyObject *decimals_obj, PyObject *out)
{
    CaArray *res;
    if (out == NULL || out == Py_None) {
        res = ca_array_copy(a, a->dtype, 'K');
    }
    else {
        res = (CaArray *)out;
        Py_INCREF(res);
        if (ca_assign(res, a) < 0) {
            Py_CLEAR(res);
        }
    }
    for (int part = 0; part < 2 && res != NULL; part++) {
        PyObject *view = part == 0 ? real_of(res) : imag_of(res);
        PyObject *r = view != NULL ? round_impl(view, decimals_obj, view) : NULL;
        Py_XDECREF(view);
        if (r == NULL) {
            Py_CLEAR(res);
        }
        Py_XDECREF(r);
    }
    return (PyObject *)res;
}

/* round of a datetime64/timedelta64 array: NumPy's error, from the step that
 * refuses it (the scaling by 10**decimals for datetime64, else rint). */
static PyObject *
round_datetime(PyObject *a, long decimals)
{
    if (decimals != 0) {
        PyObject *f = PyFloat_FromDouble(
            pow(10.0, (double)(decimals > 0 ? decimals : -decimals)));
        PyObject *args[2] = { a, f };
        PyObject *y = NULL;
        if (f != NULL) {
            ca_dt_raise(a);
            y = ew_datetime(decimals > 0 ? CA_OP_multiply : CA_OP_divide, args, 2,
                            NULL);
        }
        Py_XDECREF(f);
        if (y == NULL) {
            return NULL;
        }
        Py_DECREF(y);
    }
    ca_dt_raise(a);
    return ew_datetime(CA_OP_rint, &a, 1, NULL); /* (rint has no datetime loop) */
}

/* NumPy's round of an integer array to negative decimals: in float64 (a / 10^-d,
 * rint, times 10^-d), cast back to a's type; with out=, in out, which the float64
 * quotient must cast to. A bool array rounds in its own type, which the quotient
 * can not be cast to: the divide raises NumPy's output casting error. */
static PyObject *
round_int_negative(CaArray *a, long decimals, PyObject *out)
{
    const int has_out = out != NULL && out != Py_None;
    PyObject *own = NULL;
    if (a->dtype == CA_BOOL && !has_out) {
        if ((own = (PyObject *)ca_array_copy(a, CA_BOOL, 'K')) == NULL) {
            return NULL;
        }
        out = own;
    }
    PyObject *f = PyFloat_FromDouble(pow(10.0, -(double)decimals));
    PyObject *y = f != NULL ? call2(CA_OP_divide, (PyObject *)a, f, out) : NULL;
    PyObject *r = NULL;
    if (y != NULL) {
        PyObject *t = call1(CA_OP_rint, y, y);
        Py_XDECREF(t);
        t = t != NULL ? call2(CA_OP_multiply, y, f, y) : NULL;
        if (t != NULL) {
            Py_DECREF(t);
            r = has_out ? Py_NewRef(y)
                        : (PyObject *)ca_array_copy((CaArray *)y, a->dtype, 'K');
        }
    }
    Py_XDECREF(y);
    Py_XDECREF(f);
    Py_XDECREF(own);
    return r;
}

static PyObject *
round_impl(PyObject *a, PyObject *decimals_obj, PyObject *out)
{
    long decimals = 0;
    if (decimals_obj != NULL && decimals_obj != Py_None) {
        decimals = PyLong_AsLong(decimals_obj);
        if (decimals == -1 && PyErr_Occurred()) {
            return NULL;
        }
    }
    if (!Py_IS_TYPE(a, ca_st->ndarray_type) && ca_dt_is(a)) {
        return round_datetime(a, decimals);
    }
    if (decimals == 0) {
        return call1(CA_OP_round, a, out);
    }
    int dtype = ca_array_check(a) ? ((CaArray *)a)->dtype : -1;
    if (ca_is_complex(dtype) &&
        (out == NULL || out == Py_None ||
         (ca_array_check(out) && ca_is_complex(((CaArray *)out)->dtype)))) {
        return round_complex((CaArray *)a, decimals_obj, out);
    }
    if (dtype >= 0 && !ca_is_inexact(dtype)) {
        if (decimals > 0) {
            return call1(CA_OP_round, a, out);
        }
        return round_int_negative((CaArray *)a, decimals, out);
    }
    /* NumPy's way: scale, round half to even, scale back */
    PyObject *f =
        PyFloat_FromDouble(pow(10.0, (double)(decimals > 0 ? decimals : -decimals)));
    if (f == NULL) {
        return NULL;
    }
    if (round_in_one_pass(dtype, out)) {
        PyObject *r =
            call2(decimals > 0 ? CA_OP__round_up : CA_OP__round_down, a, f, out);
        Py_DECREF(f);
        return r;
    }
    PyObject *y = call2(decimals > 0 ? CA_OP_multiply : CA_OP_divide, a, f, NULL);
    PyObject *r = NULL;
    if (y != NULL) {
        PyObject *y2 = call1(CA_OP_rint, y, y);
        if (y2 != NULL) {
            Py_DECREF(y2);
            r = call2(decimals > 0 ? CA_OP_divide : CA_OP_multiply, y, f, out);
        }
    }
    Py_XDECREF(y);
    Py_DECREF(f);
    return r;
}

static PyObject *
py_round(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "a", "decimals", "out", NULL };
    PyObject *v[3];
    (void)m;
    if (ca_parse_args("round", args, nargs, kwnames, names, 3, 1, v) < 0) {
        return NULL;
    }
    return round_impl(v[0], v[1], v[2]);
}

static PyObject *
clip_impl(PyObject *a, PyObject *lo, PyObject *hi, PyObject *out, PyObject *dtype)
{
    int req = -1;
    if (dtype != NULL && dtype != Py_None) {
        req = ca_dtype_converter(dtype, -1);
        if (req < 0) {
            return NULL;
        }
    }
    const int no_lo = lo == NULL || lo == Py_None;
    const int no_hi = hi == NULL || hi == Py_None;
    if (no_lo && no_hi) {
        return ew_call(CA_OP_positive, &a, out, req, 0);
    }
    if (no_lo || no_hi) {
        PyObject *args[2] = { a, no_lo ? hi : lo };
        return ew_call(no_lo ? CA_OP_minimum : CA_OP_maximum, args, out, req, 0);
    }
    PyObject *args[3] = { a, lo, hi };
    return ew_call(CA_OP_clip, args, out, req, 0);
}

static PyObject *
py_clip(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    /* the Array API's names for the bound slots (its signature test reads them);
     * NumPy's a_min= and a_max= as keywords */
    static const char *const names[] = { "a",     "min",   "max",   "out",
                                         "a_min", "a_max", "dtype", NULL };
    PyObject *v[7];
    (void)m;
    if (ca_parse_args("clip", args, nargs, kwnames, names, 4, 1, v) < 0) {
        return NULL;
    }
    if (!Py_IS_TYPE(v[0], ca_st->ndarray_type) && ca_dt_is(v[0])) {
        ca_dt_raise(v[0]); /* cuarray._datetime.clip: NaT propagates */
        return ca_dt_retry(NULL, "clip", args, nargs, kwnames);
    }
    if ((v[1] && v[4]) || (v[2] && v[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "clip() got both a_min/a_max and min/max: pass one of each");
        return NULL;
    }
    return clip_impl(v[0], v[1] ? v[1] : v[4], v[2] ? v[2] : v[5], v[3], v[6]);
}

static PyObject *
py_where(PyObject *m, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "condition", "x", "y", NULL };
    PyObject *v[3];
    (void)m;
    if (ca_parse_args("where", args, nargs, kwnames, names, 3, 1, v) < 0) {
        return NULL;
    }
    if (v[1] == NULL && v[2] == NULL) {
        /* where(condition) is nonzero(condition) */
        return ca_nonzero(v[0], "where");
    }
    if (v[1] == NULL || v[2] == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "either both or neither of x and y should be given");
        return NULL;
    }
    for (int i = 1; i < 3; i++) { /* datetime64: cuarray._datetime.where */
        if (!Py_IS_TYPE(v[i], ca_st->ndarray_type) && ca_dt_is(v[i])) {
            ca_dt_raise(v[i]);
            return ca_dt_retry(NULL, "where", args, nargs, kwnames);
        }
    }
    return ca_dt_retry(ew_call(CA_OP_where, v, NULL, -1, 0), "where", args, nargs,
                       kwnames);
}

static PyMethodDef ew_extra_defs[] = {
    { "real", py_real, METH_O,
      "real(val, /)\n--\n\nThe real part: a view for complex arrays, `val` itself "
      "otherwise (as numpy.real)." },
    { "imag", py_imag, METH_O,
      "imag(val, /)\n--\n\nThe imaginary part: a view for complex arrays, read-only "
      "zeros otherwise (as numpy.imag)." },
    { "angle", (PyCFunction)(void (*)(void))py_angle, METH_FASTCALL | METH_KEYWORDS,
      "angle(z, deg=False)\n--\n\nThe counterclockwise angle from the positive real "
      "axis, in radians (degrees if deg)." },
    { "round", (PyCFunction)(void (*)(void))py_round, METH_FASTCALL | METH_KEYWORDS,
      "round(a, decimals=0, out=None)\n--\n\nRound half to even, as numpy.round." },
    { "clip", (PyCFunction)(void (*)(void))py_clip, METH_FASTCALL | METH_KEYWORDS,
      "clip(a, min=None, max=None, out=None, *, a_min=None, a_max=None, "
      "dtype=None)\n--\n\n"
      "Limit the values to [min, max] (a_min= and a_max=, NumPy's names, too); NaN "
      "propagates, as numpy.clip." },
    { "where", (PyCFunction)(void (*)(void))py_where, METH_FASTCALL | METH_KEYWORDS,
      "where(condition, x, y, /)\n--\n\nx where condition is true, else y "
      "(broadcast; the result dtype is NumPy's result_type(x, y))." },
    { NULL, NULL, 0, NULL },
};

/* ======================================================================== */
/* operators                                                                  */
/* ======================================================================== */

static PyObject *
nb_bin(int op, PyObject *a, PyObject *b)
{
    PyObject *args[2] = { a, b };
    PyObject *r = ew_call(op, args, NULL, -1, 1);
    return r != NULL ? r : ew_datetime(op, args, 2, NULL); /* x + np.timedelta64 */
}

static PyObject *
nb_inplace(int op, PyObject *a, PyObject *b)
{
    PyObject *args[2] = { a, b };
    return ew_call(op, args, a, -1, 1);
}

#define CA_P_NB(slot, op)                                                              \
    static PyObject *nb_##slot(PyObject *a, PyObject *b)                               \
    {                                                                                  \
        return nb_bin(CA_OP_##op, a, b);                                               \
    }                                                                                  \
    static PyObject *nb_inplace_##slot(PyObject *a, PyObject *b)                       \
    {                                                                                  \
        return nb_inplace(CA_OP_##op, a, b);                                           \
    }
CA_P_NB(add, add)
CA_P_NB(subtract, subtract)
CA_P_NB(multiply, multiply)
CA_P_NB(true_divide, divide)
CA_P_NB(floor_divide, floor_divide)
CA_P_NB(remainder, remainder)
CA_P_NB(lshift, left_shift)
CA_P_NB(rshift, right_shift)
CA_P_NB(and, bitwise_and)
CA_P_NB(or, bitwise_or)
CA_P_NB(xor, bitwise_xor)
#undef CA_P_NB

/* `x ** 2`, `x ** -1`, `x ** 0.5`: the op NumPy's ndarray.__pow__ runs for them
 * (its fast scalar power: square, reciprocal, sqrt of a float array; square of
 * an integer or bool one, whose dtype is square's: bool ** 2 is int8), or -1
 * for power itself. Only an exact Python int or float exponent qualifies, as in
 * NumPy; 2.0 and -1.0 take the same op (pow gives those values too, at a
 * quarter of the speed on the cpu device). Every device: square, sqrt and
 * division are correctly rounded there too, so the values are NumPy's. */
static int
fast_power_op(PyObject *a, PyObject *b)
{
    if (!ca_array_check(a)) {
        return -1;
    }
    const int t = ((CaArray *)a)->dtype;
    double e;
    if (PyLong_CheckExact(b)) {
        int overflow = 0;
        const long v = PyLong_AsLongAndOverflow(b, &overflow);
        if (overflow || (v != 2 && v != -1)) {
            return -1;
        }
        e = (double)v;
    }
    else if (PyFloat_CheckExact(b)) {
        e = PyFloat_AS_DOUBLE(b);
    }
    else {
        return -1;
    }
    if (ca_is_integer(t) || t == CA_BOOL) {
        /* bool ** 2 is square's int8, as in NumPy */
        return e == 2.0 && PyLong_CheckExact(b) ? CA_OP_square : -1;
    }
    if (!ca_is_float(t)) {
        return -1; /* complex: power (its square and sqrt differ from NumPy's in ulps) */
    }
    return e == 2.0    ? CA_OP_square
           : e == -1.0 ? CA_OP_reciprocal
           : e == 0.5  ? CA_OP_sqrt
                       : -1;
}

/* a ** b (into a when inplace): the fast exponents as their own ops. */
static inline PyObject *
power_op(PyObject *a, PyObject *b, PyObject *mod, int inplace)
{
    if (mod != Py_None) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    const int fast = fast_power_op(a, b);
    if (fast >= 0) {
        return ew_call(fast, &a, inplace ? a : NULL, -1, 1);
    }
    return inplace ? nb_inplace(CA_OP_power, a, b) : nb_bin(CA_OP_power, a, b);
}

#define POWER_SLOT(fn, inplace)                                                        \
    static PyObject *fn(PyObject *a, PyObject *b, PyObject *mod)                       \
    {                                                                                  \
        return power_op(a, b, mod, inplace);                                           \
    }
POWER_SLOT(nb_power, 0)
POWER_SLOT(nb_inplace_power, 1)

static PyObject *
nb_divmod(PyObject *a, PyObject *b)
{
    PyObject *q = nb_bin(CA_OP_floor_divide, a, b);
    if (q == NULL || q == Py_NotImplemented) {
        return q;
    }
    PyObject *r = nb_bin(CA_OP_remainder, a, b);
    if (r == NULL) {
        Py_DECREF(q);
        return NULL;
    }
    return Py_BuildValue("(NN)", q, r);
}

#define CA_P_UN(slot, op)                                                              \
    static PyObject *nb_##slot(PyObject *a)                                            \
    {                                                                                  \
        return ew_call(CA_OP_##op, &a, NULL, -1, 1);                                   \
    }
CA_P_UN(negative, negative)
CA_P_UN(positive, positive)
CA_P_UN(absolute, absolute)
CA_P_UN(invert, invert)
#undef CA_P_UN

/* An object with object's own == (no __eq__ of its type's), no number and no
 * array protocol: NumPy compares it as a 0-d object array (`x == object()` is
 * all False), where Python's fallback would give one False. */
static int
is_plain_object(PyObject *b)
{
    return Py_TYPE(b)->tp_richcompare == PyBaseObject_Type.tp_richcompare &&
           !PyNumber_Check(b) && !PySequence_Check(b) &&
           !PyObject_HasAttrString(b, "__array__") &&
           !PyObject_HasAttrString(b, "__array_interface__") &&
           !PyObject_HasAttrString(b, "__cuda_array_interface__") &&
           !PyObject_HasAttrString(b, "__dlpack__");
}

/* Operands whose == and != NumPy answers element by element even where no loop
 * compares them: None, strings, builtin sequences (`x == [1, 'a']`), NumPy
 * scalars and plain objects. Other objects keep NotImplemented (or their
 * conversion's error), so that their own reflected comparison runs. */
static int
compares_unequal(PyObject *b)
{
    if (b == Py_None || PyUnicode_Check(b) || PyBytes_Check(b) || PyList_Check(b) ||
        PyTuple_Check(b) || is_plain_object(b)) {
        return 1;
    }
    /* NumPy's scalars (np.str_); not its arrays, which operands refuse (a silent
     * copy to the device) */
    const char *name = Py_TYPE(b)->tp_name;
    return strncmp(name, "numpy.", 6) == 0 && strcmp(name, "numpy.ndarray") != 0;
}

/* NumPy 2's answer to == / != of an array and an operand no loop compares: every
 * element unequal, in the broadcast of the two shapes (a shape mismatch is
 * NumPy's ValueError); NotImplemented where NumPy would compare the values. */
static PyObject *
richcompare_unequal(CaArray *a, PyObject *b, int cmp)
{
    PyObject *np = PyImport_ImportModule("numpy");
    PyObject *nb = np ? PyObject_CallMethod(np, "asarray", "(O)", b) : NULL;
    if (nb == NULL) {
        Py_XDECREF(np);
        return NULL;
    }
    /* numbers in a list compare element by element in NumPy: cuarray's operators
     * refuse lists of numbers (as CuPy's), so those keep NotImplemented */
    const char kind =
        PyArray_Check(nb) ? PyArray_DESCR((PyArrayObject *)nb)->kind : 'O';
    if (b != Py_None && strchr("OUSV", kind) == NULL) {
        Py_DECREF(nb);
        Py_DECREF(np);
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyObject *bshape = PyObject_GetAttrString(nb, "shape");
    Py_DECREF(nb);
    PyObject *ashape = bshape ? PyObject_GetAttrString((PyObject *)a, "shape") : NULL;
    PyObject *shape =
        ashape ? PyObject_CallMethod(np, "broadcast_shapes", "(OO)", ashape, bshape)
               : NULL;
    Py_XDECREF(np);
    Py_XDECREF(bshape);
    Py_XDECREF(ashape);
    if (shape == NULL) {
        return NULL;
    }
    Py_ssize_t dims[CA_MAX_DIMS];
    const int nd = (int)PyTuple_GET_SIZE(shape);
    for (int i = 0; i < nd && i < CA_MAX_DIMS; i++) {
        dims[i] = PyLong_AsSsize_t(PyTuple_GET_ITEM(shape, i));
    }
    Py_DECREF(shape);
    if (nd > CA_MAX_DIMS) {
        PyErr_SetString(PyExc_ValueError, "too many dimensions");
        return NULL;
    }
    CaArray *r =
        ca_array_empty(CA_BOOL, nd, dims, 0, a->device, ca_gather_result_kind(a));
    const uint8_t v = cmp == Py_NE;
    if (r == NULL || ca_array_fill(r, &v) < 0) {
        Py_XDECREF(r);
        return NULL;
    }
    return (PyObject *)r;
}

static PyObject *
ew_richcompare(PyObject *a, PyObject *b, int cmp)
{
    static const int ops[] = {
        [Py_LT] = CA_OP_less,    [Py_LE] = CA_OP_less_equal,
        [Py_EQ] = CA_OP_equal,   [Py_NE] = CA_OP_not_equal,
        [Py_GT] = CA_OP_greater, [Py_GE] = CA_OP_greater_equal,
    };
    PyObject *r = nb_bin(ops[cmp], a, b);
    /* the result first: a comparison that ran pays one pointer test here */
    if ((r == Py_NotImplemented ||
         (r == NULL && PyErr_ExceptionMatches(PyExc_TypeError))) &&
        (cmp == Py_EQ || cmp == Py_NE) && ca_array_check(a) && compares_unequal(b)) {
        /* no loop compares them (an unsupported dtype such as a string's) */
        Py_XDECREF(r);
        PyErr_Clear();
        return richcompare_unequal((CaArray *)a, b, cmp);
    }
    return r;
}

PyType_Slot ca_elementwise_number_slots[] = {
    { Py_nb_add, nb_add },
    { Py_nb_subtract, nb_subtract },
    { Py_nb_multiply, nb_multiply },
    { Py_nb_true_divide, nb_true_divide },
    { Py_nb_floor_divide, nb_floor_divide },
    { Py_nb_remainder, nb_remainder },
    { Py_nb_divmod, nb_divmod },
    { Py_nb_power, nb_power },
    { Py_nb_lshift, nb_lshift },
    { Py_nb_rshift, nb_rshift },
    { Py_nb_and, nb_and },
    { Py_nb_or, nb_or },
    { Py_nb_xor, nb_xor },
    { Py_nb_negative, nb_negative },
    { Py_nb_positive, nb_positive },
    { Py_nb_absolute, nb_absolute },
    { Py_nb_invert, nb_invert },
    { Py_nb_inplace_add, nb_inplace_add },
    { Py_nb_inplace_subtract, nb_inplace_subtract },
    { Py_nb_inplace_multiply, nb_inplace_multiply },
    { Py_nb_inplace_true_divide, nb_inplace_true_divide },
    { Py_nb_inplace_floor_divide, nb_inplace_floor_divide },
    { Py_nb_inplace_remainder, nb_inplace_remainder },
    { Py_nb_inplace_power, nb_inplace_power },
    { Py_nb_inplace_lshift, nb_inplace_lshift },
    { Py_nb_inplace_rshift, nb_inplace_rshift },
    { Py_nb_inplace_and, nb_inplace_and },
    { Py_nb_inplace_or, nb_inplace_or },
    { Py_nb_inplace_xor, nb_inplace_xor },
    /* not a number slot, but the operators' sibling: ndarray.c merges this list */
    { Py_tp_richcompare, ew_richcompare },
    { 0, NULL },
};

/* ======================================================================== */
/* methods                                                                    */
/* ======================================================================== */

static PyObject *
m_conj(PyObject *self, PyObject *unused)
{
    (void)unused;
    return call1(CA_OP_conjugate, self, NULL);
}

static PyObject *
m_clip(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "min", "max", "out", "dtype", NULL };
    PyObject *v[4];
    if (ca_parse_args("clip", args, nargs, kwnames, names, 3, 0, v) < 0) {
        return NULL;
    }
    return clip_impl(self, v[0], v[1], v[2], v[3]);
}

static PyObject *
m_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "decimals", "out", NULL };
    PyObject *v[2];
    if (ca_parse_args("round", args, nargs, kwnames, names, 2, 0, v) < 0) {
        return NULL;
    }
    return round_impl(self, v[0], v[1]);
}

static PyObject *
m_dunder_round(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs > 1) {
        PyErr_SetString(PyExc_TypeError, "__round__() takes at most 1 argument");
        return NULL;
    }
    return round_impl(self, nargs ? args[0] : NULL, NULL);
}

PyMethodDef ca_elementwise_array_methods[] = {
    { "conj", m_conj, METH_NOARGS,
      "conj()\n--\n\nThe complex conjugate, element-wise." },
    { "conjugate", m_conj, METH_NOARGS,
      "conjugate()\n--\n\nThe complex conjugate, element-wise." },
    { "clip", (PyCFunction)(void (*)(void))m_clip, METH_FASTCALL | METH_KEYWORDS,
      "clip(min=None, max=None, out=None, *, dtype=None)\n--\n\nValues limited to "
      "[min, max] (cuarray.clip)." },
    { "round", (PyCFunction)(void (*)(void))m_round, METH_FASTCALL | METH_KEYWORDS,
      "round(decimals=0, out=None)\n--\n\nRound half to even (cuarray.round)." },
    { "__round__", (PyCFunction)(void (*)(void))m_dunder_round, METH_FASTCALL, NULL },
    { NULL, NULL, 0, NULL },
};

/* ======================================================================== */
/* init                                                                       */
/* ======================================================================== */

/* ew_bf16_twin: loop l's twin is the loop of its op whose types are l's with
 * float32 -> bfloat16. */
static void
init_bf16_twins(void)
{
    for (int l = 0; l < CA_EW_NLOOPS; l++) {
        const ca_ew_loop *L = &ca_ew_loops[l];
        const ca_ew_op *o = &ca_ew_ops[L->op];
        ew_bf16_twin[l] = -1;
        for (int t = o->first_loop; t < o->first_loop + o->nloops; t++) {
            int same = 1, any = 0;
            for (int i = 0; i < o->nin + o->nout && same; i++) {
                const int a = L->types[i], b = ca_ew_loops[t].types[i];
                any |= b == CA_BFLOAT16;
                same = a == CA_FLOAT32 ? b == CA_BFLOAT16 : a == b;
            }
            if (same && any) {
                ew_bf16_twin[l] = (int16_t)t;
            }
        }
    }
}

/* NumPy's casting tables and the empty resolution caches. */
static int
init_tables(void)
{
    init_bf16_twins();
    for (int op = 0; op < CA_EW_NOPS; op++) {
        size_t n = 1;
        for (int i = 0; i < ca_ew_ops[op].nin; i++) {
            n *= CA_NTYPES;
        }
        ew_cache[op] = PyMem_RawCalloc(n, sizeof(int16_t));
        if (ew_cache[op] == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    str_out = PyUnicode_InternFromString("out");
    str_dtype = PyUnicode_InternFromString("dtype");
    str_casting = PyUnicode_InternFromString("casting");
    if (str_out == NULL || str_dtype == NULL || str_casting == NULL) {
        return -1;
    }
    return init_numpy_rows();
}

int
ca_elementwise_init(PyObject *m)
{
    if (init_tables() < 0 || PyModule_AddFunctions(m, ew_extra_defs) < 0) {
        return -1;
    }
    /* real/imag are attributes: add them to the ndarray type (made earlier by
     * ndarray.c). NumPy's dispatch (__array_ufunc__, __array_function__) is
     * cuarray/_dispatch.py's. */
    PyTypeObject *t = ca_st->ndarray_type;
    for (PyGetSetDef *g = ew_array_getset; g->name != NULL; g++) {
        PyObject *d = PyDescr_NewGetSet(t, g);
        if (d == NULL || PyObject_SetAttrString((PyObject *)t, g->name, d) < 0) {
            Py_XDECREF(d);
            return -1;
        }
        Py_DECREF(d);
    }
    return 0;
}

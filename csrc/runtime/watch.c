/*
 * watch.c: the transfer guard's verdicts and the counters' Python side (issue 40;
 * watch.h says what each is and why they cost what they cost).
 *
 * A verdict names the line of the program that asked for the transfer: the
 * innermost Python frame outside the cuarray package (a composition in
 * cuarray/_statistics.py that calls int(x) is reported at its caller's line).
 * "log" is a warning of cuarray.TransferGuardWarning through the warnings
 * module at that file and line (no registry: each transfer is told, unless the
 * program's warning filters say otherwise); "disallow" raises
 * cuarray.TransferGuardError, a RuntimeError (JAX raises RuntimeError too).
 */
#include "watch.h"

#include <string.h>

_Thread_local int ca_tguard;
ca_counters_t ca_counters;

static PyObject *guard_error;   /* TransferGuardError(RuntimeError) */
static PyObject *guard_warning; /* TransferGuardWarning(UserWarning) */
static PyObject *package_dir;   /* ".../cuarray/": frames under it are ours */

static const char *const level_names[] = { "allow", "log", "disallow", "log_explicit",
                                           "disallow_explicit" };

/* The directory of the cuarray package, with its trailing separator (looked up on
 * the first verdict: at module exec the package is still being imported). */
static PyObject *
our_dir(void)
{
    if (package_dir == NULL) {
        PyObject *os_path = PyImport_ImportModule("os.path");
        PyObject *core = PyImport_ImportModule("cuarray._core");
        PyObject *file = core ? PyObject_GetAttrString(core, "__file__") : NULL;
        PyObject *dir =
            file && os_path ? PyObject_CallMethod(os_path, "dirname", "O", file) : NULL;
        if (dir != NULL) {
            package_dir = PyUnicode_FromFormat("%U/", dir);
        }
        Py_XDECREF(dir);
        Py_XDECREF(file);
        Py_XDECREF(core);
        Py_XDECREF(os_path);
        if (package_dir == NULL) {
            PyErr_Clear(); /* then every frame is the program's */
            package_dir = PyUnicode_FromString("\x01");
        }
    }
    return package_dir;
}

/* The program's frame: file name (new reference) and line; NULL when no Python
 * frame is running (a transfer from C called outside Python code). */
static PyObject *
caller_line(int *line)
{
    PyObject *dir = our_dir();
    PyFrameObject *f = PyEval_GetFrame();
    Py_XINCREF(f);
    PyObject *fallback = NULL;
    while (f != NULL) {
        PyCodeObject *code = PyFrame_GetCode(f);
        PyObject *name = PyObject_GetAttrString((PyObject *)code, "co_filename");
        Py_DECREF(code);
        if (name == NULL) {
            PyErr_Clear();
        }
        else if (PyUnicode_Tailmatch(name, dir, 0, PY_SSIZE_T_MAX, -1) != 1) {
            *line = PyFrame_GetLineNumber(f);
            Py_DECREF(f);
            Py_XDECREF(fallback);
            return name;
        }
        else if (fallback == NULL) {
            *line = PyFrame_GetLineNumber(f);
            fallback = name; /* only our frames: the innermost of them */
            name = NULL;
        }
        Py_XDECREF(name);
        PyFrameObject *back = PyFrame_GetBack(f);
        Py_DECREF(f);
        f = back;
    }
    return fallback;
}

int
ca_guard_check(int dir, int is_explicit, const char *what, size_t nbytes, int device)
{
    int level = (ca_tguard >> (4 * dir)) & 15;
    is_explicit |= (ca_tguard & CA_TG_EXPLICIT_CALL) != 0;
    int raise =
        level == CA_TG_DISALLOW_EXPLICIT || (level == CA_TG_DISALLOW && !is_explicit);
    int warn = level == CA_TG_LOG_EXPLICIT || (level == CA_TG_LOG && !is_explicit);
    if (!raise && !warn) {
        return 0;
    }
    char where[32];
    if (device == CA_CPU) {
        strcpy(where, "the cpu device");
    }
    else {
        PyOS_snprintf(where, sizeof where, "cuda:%d", device);
    }
    int line = 0;
    PyObject *file = caller_line(&line);
    PyObject *msg =
        PyUnicode_FromFormat("%s %s transfer of %zu bytes %s %s by %s",
                             is_explicit ? "explicit" : "implicit",
                             dir == CA_TG_H2D ? "host-to-device" : "device-to-host",
                             nbytes, dir == CA_TG_H2D ? "to" : "from", where, what);
    int rc = -1;
    if (msg == NULL) {
        goto done;
    }
    if (raise) {
        PyErr_Format(guard_error,
                     "%U at %S:%d is disallowed: the transfer guard is at '%s' for "
                     "%s transfers (cuarray.transfer_guard)%s",
                     msg, file ? file : Py_None, line, level_names[level],
                     dir == CA_TG_H2D ? "host-to-device" : "device-to-host",
                     is_explicit
                         ? ""
                         : "; copy explicitly with cuarray.asarray() (to the "
                           "device) or x.get() / cuarray.asnumpy() (to the host)");
        goto done;
    }
    if (file == NULL) {
        rc = PyErr_WarnEx(guard_warning, PyUnicode_AsUTF8(msg), 1);
    }
    else {
        rc = PyErr_WarnExplicitObject(guard_warning, msg, file, line, NULL, NULL);
    }
done:
    Py_XDECREF(msg);
    Py_XDECREF(file);
    return rc < 0 ? -1 : 0;
}

/* ---- Python: _transfer_guard, _counters ------------------------------------------ */

static int
level_arg(int v, int old)
{
    if (v < -1 || v > CA_TG_DISALLOW_EXPLICIT) {
        PyErr_Format(PyExc_ValueError, "_transfer_guard: bad level %d", v);
        return -2;
    }
    return v < 0 ? old : v;
}

/* _transfer_guard(h2d=-1, d2h=-1): set this thread's levels (-1 keeps one), and
 * return the previous (h2d, d2h). */
static PyObject *
py_transfer_guard(PyObject *self, PyObject *args)
{
    int h2d = -1, d2h = -1;
    if (!PyArg_ParseTuple(args, "|ii:_transfer_guard", &h2d, &d2h)) {
        return NULL;
    }
    int old_h = ca_tguard & 15, old_d = (ca_tguard >> 4) & 15;
    if ((h2d = level_arg(h2d, old_h)) < -1 || (d2h = level_arg(d2h, old_d)) < -1) {
        return NULL;
    }
    ca_tguard = h2d | (d2h << 4) | (ca_tguard & CA_TG_EXPLICIT_CALL);
    return Py_BuildValue("(ii)", old_h, old_d);
}

static const char *const counter_names[] = {
    "launches",  "library_calls", "transfers_h2d", "transfers_d2h",
    "bytes_h2d", "bytes_d2h",     "syncs",         "graph_launches",
};

/* _counters(reset=False): the counters as a dict (then zeroed when `reset`). */
static PyObject *
py_counters(PyObject *self, PyObject *args)
{
    int reset = 0;
    if (!PyArg_ParseTuple(args, "|p:_counters", &reset)) {
        return NULL;
    }
    const unsigned long long *v = (const unsigned long long *)&ca_counters;
    enum { N = sizeof counter_names / sizeof counter_names[0] };
    _Static_assert(N * sizeof(unsigned long long) == sizeof(ca_counters_t),
                   "one name per counter");
    PyObject *d = PyDict_New();
    for (int i = 0; d != NULL && i < N; i++) {
        PyObject *x = PyLong_FromUnsignedLongLong(v[i]);
        if (x == NULL || PyDict_SetItemString(d, counter_names[i], x) < 0) {
            Py_CLEAR(d);
        }
        Py_XDECREF(x);
    }
    if (d != NULL && reset) {
        memset(&ca_counters, 0, sizeof ca_counters);
    }
    return d;
}

static PyMethodDef watch_functions[] = {
    { "_transfer_guard", py_transfer_guard, METH_VARARGS,
      "_transfer_guard(h2d=-1, d2h=-1)\n--\n\nSet this thread's transfer guard "
      "levels (0 allow, 1 log, 2 disallow, 3 log_explicit, 4 disallow_explicit; -1 "
      "keeps one); returns the previous (h2d, d2h)." },
    { "_counters", py_counters, METH_VARARGS,
      "_counters(reset=False)\n--\n\nThe launch and transfer counters since the "
      "process started or the last reset, as a dict." },
    { NULL, NULL, 0, NULL },
};

int
ca_watch_init(PyObject *m)
{
    guard_error = PyErr_NewExceptionWithDoc(
        "cuarray.TransferGuardError",
        "A transfer between host and device that cuarray.transfer_guard disallows.",
        PyExc_RuntimeError, NULL);
    guard_warning = PyErr_NewExceptionWithDoc(
        "cuarray.TransferGuardWarning",
        "A transfer between host and device that cuarray.transfer_guard logs.",
        PyExc_UserWarning, NULL);
    if (guard_error == NULL || guard_warning == NULL ||
        PyModule_AddObjectRef(m, "TransferGuardError", guard_error) < 0 ||
        PyModule_AddObjectRef(m, "TransferGuardWarning", guard_warning) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(m, watch_functions);
}

/*
 * fault_control.c: the Python controls of faults.h's points,
 * `_core._fault_inject(point, n, times=1)` and `_core._fault_calls(point)`, and
 * CUARRAY_FAULT=point:n[:times][,...] read at import (a whole program under a fault).
 */
#include "cuarray.h"
#include "faults.h"

#include <stdlib.h>
#include <string.h>

static int
point_arg(PyObject *name)
{
    Py_ssize_t len;
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
    int i = s ? ca_fault_point_index(s, (size_t)len) : -1;
    if (i < 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError,
                     "fault point must be one of 'device_alloc', 'pinned_alloc', "
                     "'host_alloc', 'library_load', 'library_call' (got %R)",
                     name);
    }
    return i;
}

static PyObject *
fault_inject(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = { "point", "n", "times", NULL };
    PyObject *name;
    long long n, times = 1;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OL|L:_fault_inject", kwlist, &name, &n,
                                     &times)) {
        return NULL;
    }
    int i = point_arg(name);
    if (i < 0) {
        return NULL;
    }
    if (n < 0 || times < 1) {
        PyErr_SetString(PyExc_ValueError, "n must be >= 0 and times >= 1");
        return NULL;
    }
    ca_fault_arm(i, n, times);
    Py_RETURN_NONE;
}

static PyObject *
fault_calls(PyObject *self, PyObject *name)
{
    (void)self;
    int i = point_arg(name);
    return i < 0 ? NULL : PyLong_FromLongLong(ca_fault_calls(i));
}

static PyMethodDef faults_methods[] = {
    { "_fault_inject", (PyCFunction)(void (*)(void))fault_inject,
      METH_VARARGS | METH_KEYWORDS,
      "_fault_inject(point, n, times=1)\n--\n\n"
      "Test hook: make calls n .. n + times - 1 at `point` (counted from now) fail;\n"
      "n = 0 disarms it. Points: device_alloc, pinned_alloc, host_alloc,\n"
      "library_load, library_call." },
    { "_fault_calls", fault_calls, METH_O,
      "_fault_calls(point)\n--\n\nCalls counted at `point` since it was armed." },
    { NULL, NULL, 0, NULL },
};

/* CUARRAY_FAULT=point:n[:times][,...]; a malformed entry is an ImportError, so a
 * typo never runs a program unfaulted by mistake. */
static int
arm_from_environment(void)
{
    const char *env = getenv("CUARRAY_FAULT");
    while (env != NULL && *env != '\0') {
        const char *end = strchr(env, ',');
        size_t len = end ? (size_t)(end - env) : strlen(env);
        const char *colon = memchr(env, ':', len);
        long long n = 0, times = 1;
        char tail[64] = "";
        int point = colon ? ca_fault_point_index(env, (size_t)(colon - env)) : -1;
        size_t rest = colon ? len - (size_t)(colon - env) - 1 : 0;
        if (point >= 0 && rest < sizeof tail) {
            memcpy(tail, colon + 1, rest);
            tail[rest] = '\0';
        }
        if (point < 0 || rest >= sizeof tail ||
            sscanf(tail, "%lld:%lld", &n, &times) < 1 || n < 0 || times < 1) {
            PyErr_Format(PyExc_ImportError,
                         "CUARRAY_FAULT: bad entry '%.*s' (want point:n[:times])",
                         (int)len, env);
            return -1;
        }
        ca_fault_arm(point, n, times);
        env = end ? end + 1 : NULL;
    }
    return 0;
}

int
ca_faults_init(PyObject *m)
{
    if (arm_from_environment() < 0) {
        return -1;
    }
    return PyModule_AddFunctions(m, faults_methods);
}

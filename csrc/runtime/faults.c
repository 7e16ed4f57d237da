/*
 * faults.c: the counters behind faults.h and their Python controls,
 * `_core._fault_inject(point, n, times=1)` and `_core._fault_calls(point)`, plus
 * CUARRAY_FAULT=point:n[:times][,...] read at import (a whole program under a fault).
 *
 * Counting starts when a point is armed: call number n (1-based) and the times - 1
 * after it fail. n = 0 disarms the point. Counters are atomics: the allocation
 * upstreams run without the GIL.
 */
#include "cuarray.h"
#include "faults.h"

#include <stdlib.h>
#include <string.h>

int ca_faults_armed = 0;

static long long seen[CA_FAULT_NPOINTS];  /* calls since the point was armed */
static long long first[CA_FAULT_NPOINTS]; /* first failing call, 0: unarmed */
static long long last[CA_FAULT_NPOINTS];  /* last failing call */

static const char *const point_names[CA_FAULT_NPOINTS] = {
    "device_alloc", "pinned_alloc", "host_alloc", "library_load", "library_call",
};

int
ca_fault_hit(ca_fault_point point)
{
    long long f = __atomic_load_n(&first[point], __ATOMIC_RELAXED);
    long long n = __atomic_add_fetch(&seen[point], 1, __ATOMIC_RELAXED);
    return f > 0 && n >= f && n <= __atomic_load_n(&last[point], __ATOMIC_RELAXED);
}

static void
arm(int point, long long n, long long times)
{
    __atomic_store_n(&first[point], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&seen[point], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&last[point], n + times - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&first[point], n, __ATOMIC_RELAXED);
    int any = 0;
    for (int i = 0; i < CA_FAULT_NPOINTS; i++) {
        any |= __atomic_load_n(&first[i], __ATOMIC_RELAXED) > 0;
    }
    /* Calls are counted only while some point is armed: a test counts a
     * workload's calls at a point by arming it with an n it never reaches. */
    __atomic_store_n(&ca_faults_armed, any, __ATOMIC_RELAXED);
}

static int
point_index(const char *name, size_t len)
{
    for (int i = 0; i < CA_FAULT_NPOINTS; i++) {
        if (strlen(point_names[i]) == len && strncmp(point_names[i], name, len) == 0) {
            return i;
        }
    }
    return -1;
}

static int
point_arg(PyObject *name)
{
    Py_ssize_t len;
    const char *s = PyUnicode_Check(name) ? PyUnicode_AsUTF8AndSize(name, &len) : NULL;
    int i = s ? point_index(s, (size_t)len) : -1;
    if (i < 0 && !PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError,
                     "fault point must be one of 'device_alloc', 'pinned_alloc', "
                     "'host_alloc', 'library_load', 'library_call' (got %R)", name);
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
    arm(i, n, times);
    Py_RETURN_NONE;
}

static PyObject *
fault_calls(PyObject *self, PyObject *name)
{
    (void)self;
    int i = point_arg(name);
    return i < 0 ? NULL
                 : PyLong_FromLongLong(__atomic_load_n(&seen[i], __ATOMIC_RELAXED));
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
        int point = colon ? point_index(env, (size_t)(colon - env)) : -1;
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
        arm(point, n, times);
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

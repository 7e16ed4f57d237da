/*
 * device.c: devices, streams and events; the current device and stream of each
 * thread.
 *
 * Nothing here touches CUDA at import: the device count, and with it the
 * default device, are found on first use. The current device and stream are
 * kept in C thread-locals so the hot paths (every operation asks for them) cost
 * a TLS read; the `with` stacks that restore them, and the strong references
 * that keep the current Stream objects alive, live in the thread's state dict,
 * which Python clears when the thread ends.
 */
#include "cuarray.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef cudaEventInterprocess
#define cudaEventInterprocess 0x04
#endif

/* Ordinals at or above this are refused (no real machine has that many GPUs);
 * it bounds the per-thread tables. */
#define CA_MAX_DEVICES 64
/* A stream not tied to one device (Stream.null, Stream.ptds): it means that
 * stream of whatever device is current when it is used. */
#define CA_ANY_DEVICE (-2)
#define CA_UNSET (-100)

/* ======================================================================== */
/* Device count and the default device                                       */
/* ======================================================================== */

static int ndev = -1;                  /* cached cudaGetDeviceCount, -1 = not asked */
static int ndev_status = 0;            /* what cudaGetDeviceCount returned */
static int cuda_touched = 0;           /* any CUDA runtime call that may initialize it */
static int env_device = CA_UNSET;      /* CUARRAY_DEVICE parsed at import */
static int env_any_cuda = 0;           /* CUARRAY_DEVICE=cuda (no ordinal) */
static int default_device = CA_UNSET;  /* resolved on first use */

/* The `with Device(...)` override of this thread, CA_UNSET when none. */
static _Thread_local int tl_device = CA_UNSET;
/* The device this thread last made current with cudaSetDevice, -1 = unknown. */
static _Thread_local int tl_cuda_device = -1;
/* Current stream per device of this thread, slot d + 1 (slot 0: the cpu). The
 * handle for the hot path, and the Stream object (borrowed: the thread dict
 * holds it) for get_current_stream. */
static _Thread_local ca_stream_t tl_stream[CA_MAX_DEVICES + 1];
/* static _Thread_local PyObject *tl_stream_obj[CA_MAX_DEVICES + 1]; */

int
ca_device_count(void)
{
    if (ndev >= 0) {
        return ndev;
    }
    int n = 0;
    cudaError_t st;
    cuda_touched = 1;
    /* The first call loads the driver, which can take a while. */
    Py_BEGIN_ALLOW_THREADS
    st = cudaGetDeviceCount(&n);
    if (st != cudaSuccess) {
        /* No driver (cudaErrorInsufficientDriver) or no GPU (cudaErrorNoDevice):
         * the cpu device still works. Clear the runtime's last error so it does
         * not surface in an unrelated check later. */
        (void)cudaGetLastError();
        n = 0;
    }
    Py_END_ALLOW_THREADS
    ndev_status = (int)st;
    ndev = n < 0 ? 0 : n;
    return ndev;
}

/* The reason there is no GPU, as a CUDA status (for messages). */
static int
no_gpu_status(void)
{
    return ndev_status != 0 ? ndev_status : cudaErrorNoDevice;
}

/* Raise the error for a GPU ordinal that does not exist here. */
static int
bad_ordinal(int device, const char *what)
{
    char call[96];
    char hint[256];
    int n = ca_device_count();
    PyOS_snprintf(call, sizeof call, "%s cuda:%d", what ? what : "device", device);
    if (n == 0) {
        return ca_cuda_error_hint(no_gpu_status(), call, NULL);
    }
    PyOS_snprintf(hint, sizeof hint,
                  "This machine has %d CUDA device(s), cuda:0 to cuda:%d; for the "
                  "host use device='cpu' (or CUARRAY_DEVICE=cpu)",
                  n, n - 1);
    return ca_cuda_error_hint(cudaErrorInvalidDevice, call, hint);
}

static int
resolve_default(void)
{
    if (env_device != CA_UNSET) {
        default_device = env_device;
    }
    else {
        default_device = ca_device_count() > 0 ? 0 : CA_CPU;
    }
    return default_device;
}

int
ca_current_device(void)
{
    int d = tl_device;
    if (d != CA_UNSET) {
        return d;
    }
    d = default_device;
    return d != CA_UNSET ? d : resolve_default();
}

int
ca_use_device(int device)
{
    if (device == CA_CPU) {
        return 0;
    }
    if (device < 0 || device >= ca_device_count()) {
        return bad_ordinal(device, NULL);
    }
    if (device == tl_cuda_device) {
        /* Another library in this thread may have switched devices behind our
         * back; with one GPU there is nothing to switch to. */
        if (ndev == 1) {
            return 0;
        }
        int cur = -1;
        if (cudaGetDevice(&cur) == cudaSuccess && cur == device) {
            return 0;
        }
        (void)cudaGetLastError();
    }
    CA_CUDA_CHECK(cudaSetDevice(device));
    tl_cuda_device = device;
    return 0;
error:
    tl_cuda_device = -1;
    return -1;
}

ca_stream_t
ca_current_stream(int device)
{
    if (device < 0 || device >= CA_MAX_DEVICES) {
        return NULL;
    }
    return tl_stream[device + 1];
}

int
ca_stream_is_null(ca_stream_t s)
{
    return s == NULL || s == (ca_stream_t)cudaStreamLegacy;
}

/* Parse "cpu", "cuda", "cuda:N" (no CUDA calls). Returns the ordinal, CA_CPU,
 * CA_ANY_DEVICE for a bare "cuda", or CA_UNSET when it is not a device name. */
static int
parse_device_name(const char *s)
{
    if (strcmp(s, "cpu") == 0) {
        return CA_CPU;
    }
    if (strcmp(s, "cuda") == 0 || strcmp(s, "gpu") == 0) {
        return CA_ANY_DEVICE;
    }
    if (strncmp(s, "cuda:", 5) == 0 || strncmp(s, "gpu:", 4) == 0) {
        const char *p = s + (s[0] == 'c' ? 5 : 4);
        if (*p < '0' || *p > '9') {
            return CA_UNSET;
        }
        long v = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            v = v * 10 + (*p - '0');
            if (v >= CA_MAX_DEVICES) {
                return CA_UNSET;
            }
        }
        return *p == '\0' ? (int)v : CA_UNSET;
    }
    return CA_UNSET;
}

/* The CUDA device a bare "cuda" means: the current one if it is a GPU, else 0. */
static int
any_cuda_device(void)
{
    int d = ca_current_device();
    return d >= 0 ? d : 0;
}

static PyObject *str_device_stack;   /* thread-dict keys */
static PyObject *str_stream_stack;
static PyObject *str_stream_current;

typedef struct {
    PyObject_HEAD
    int id;                 /* ordinal or CA_CPU */
} CaDevice;

int
ca_device_from_object(PyObject *obj)
{
    int d;
    if (obj == NULL || obj == Py_None) {
        return ca_current_device();
    }
    if (Py_IS_TYPE(obj, ca_st->device_type)) {
        return ((CaDevice *)obj)->id;
    }
    if (PyUnicode_Check(obj)) {
        const char *s = PyUnicode_AsUTF8(obj);
        if (s == NULL) {
            return -2;
        }
        d = parse_device_name(s);
        if (d == CA_UNSET) {
            PyErr_Format(PyExc_ValueError,
                         "unknown device %R: expected 'cpu', 'cuda' or 'cuda:N'", obj);
            return -2;
        }
        if (d == CA_ANY_DEVICE) {
            d = any_cuda_device();
        }
        if (d != CA_CPU && d >= ca_device_count()) {
            bad_ordinal(d, "device");
            return -2;
        }
        return d;
    }
    if (PyLong_Check(obj) && !PyBool_Check(obj)) {
        long v = PyLong_AsLong(obj);
        if (v == -1 && PyErr_Occurred()) {
            return -2;
        }
        if (v < 0) {
            PyErr_Format(PyExc_ValueError,
                         "invalid CUDA device ordinal %ld: use 'cpu' for the host", v);
            return -2;
        }
        if (v >= ca_device_count()) {
            bad_ordinal(v >= INT_MAX ? INT_MAX : (int)v, "device");
            return -2;
        }
        return (int)v;
    }
    PyErr_Format(PyExc_TypeError,
                 "expected a device ('cpu', 'cuda:N', an int or a Device), got %.100s",
                 Py_TYPE(obj)->tp_name);
    return -2;
}

/* ======================================================================== */
/* Device type                                                               */
/* ======================================================================== */

static PyObject *device_cache[CA_MAX_DEVICES + 1]; /* slot d + 1, strong refs */

PyObject *
ca_device_object(int device)
{
    if (device < CA_CPU || device >= CA_MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "invalid device ordinal %d", device);
        return NULL;
    }
    PyObject *o = device_cache[device + 1];
    if (o == NULL) {
        CaDevice *d = PyObject_New(CaDevice, ca_st->device_type);
        if (d == NULL) {
            return NULL;
        }
        d->id = device;
        o = device_cache[device + 1] = (PyObject *)d;
    }
    return Py_NewRef(o);
}

/* ---- module functions ---------------------------------------------------- */

static PyObject *
py_device_count(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(ca_device_count());
}

static PyObject *
py_is_available(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(ca_device_count() > 0);
}

static PyObject *
py_cuda_initialized(PyObject *self, PyObject *unused)
{
    return PyBool_FromLong(cuda_touched);
}

static PyObject *
py_get_device_id(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(ca_current_device());
}

static PyMethodDef device_methods[] = {
    {"device_count", py_device_count, METH_NOARGS,
     "device_count()\n--\n\nNumber of usable CUDA devices (0 without a driver or GPU)."},
    {"is_available", py_is_available, METH_NOARGS,
     "is_available()\n--\n\nTrue if at least one CUDA device is usable."},
    {"get_device_id", py_get_device_id, METH_NOARGS,
     "get_device_id()\n--\n\nOrdinal of the current device of this thread (-1: cpu)."},
    {"_cuda_initialized", py_cuda_initialized, METH_NOARGS,
     "_cuda_initialized()\n--\n\nTest hook: True once cuarray has called into CUDA."},
    {NULL, NULL, 0, NULL},
};

/* ======================================================================== */
/* init                                                                      */
/* ======================================================================== */

static int
parse_env_device(void)
{
    const char *s = getenv("CUARRAY_DEVICE");
    if (s == NULL || *s == '\0') {
        return 0;
    }
    int d = parse_device_name(s);
    if (d == CA_UNSET) {
        PyErr_Format(PyExc_ValueError,
                     "CUARRAY_DEVICE=%s is not a device: use 'cpu', 'cuda' or 'cuda:N'",
                     s);
        return -1;
    }
    if (d == CA_ANY_DEVICE) {
        env_any_cuda = 1;
        d = 0;
    }
    env_device = d;
    return 0;
}

static PyType_Slot device_slots[] = {
    {Py_tp_doc, "Device(id=None)\n--\n\nA CUDA GPU ('cuda:N') or the host ('cpu')."},
    {0, NULL},
};

static PyType_Spec device_spec = {
    .name = "cuarray.cuda.Device",
    .basicsize = sizeof(CaDevice),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = device_slots,
};

int
ca_device_init(PyObject *m)
{
    if (parse_env_device() < 0) {
        return -1;
    }
    str_device_stack = PyUnicode_InternFromString("cuarray.device_stack");
    str_stream_stack = PyUnicode_InternFromString("cuarray.stream_stack");
    str_stream_current = PyUnicode_InternFromString("cuarray.stream_current");
    if (!str_device_stack || !str_stream_stack || !str_stream_current) {
        return -1;
    }
    ca_st->device_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(m, &device_spec, NULL);
    if (ca_st->device_type == NULL) {
        return -1;
    }
    if (PyModule_AddType(m, ca_st->device_type) < 0) {
        return -1;
    }
    return PyModule_AddFunctions(m, device_methods);
}

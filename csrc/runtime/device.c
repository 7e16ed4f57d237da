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
#include "launch.h"
#include "watch.h"

#include <structmember.h>

#include <pthread.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Ordinals at or above this are refused (no real machine has that many GPUs);
 * it bounds the per-thread tables. */
#define CA_MAX_DEVICES 64

/* ======================================================================== */
/* Device count and the default device                                       */
/* ======================================================================== */

static int ndev = -1;        /* cached cudaGetDeviceCount, -1 = not asked */
static int ndev_status = 0;  /* what cudaGetDeviceCount returned */
static int cuda_touched = 0; /* any CUDA runtime call that may initialize it */
static int env_device = CA_DEVICE_UNSET;     /* CUARRAY_DEVICE parsed at import */
static int default_device = CA_DEVICE_UNSET; /* resolved on first use */

/* The `with Device(...)` override of this thread, CA_DEVICE_UNSET when none. */
static _Thread_local int tl_device = CA_DEVICE_UNSET;
/* The device this thread last made current with cudaSetDevice, -1 = unknown. */
static _Thread_local int tl_cuda_device = -1;
/* Current stream per device of this thread, slot d + 1 (slot 0: the cpu). The
 * handle for the hot path, and the Stream object (borrowed: the thread dict
 * holds it) for get_current_stream. */
static _Thread_local ca_stream_t tl_stream[CA_MAX_DEVICES + 1];
static _Thread_local PyObject *tl_stream_obj[CA_MAX_DEVICES + 1];

int
ca_device_count(void)
{
    if (ndev >= 0) {
        return ndev;
    }
    int n = 0;
    int st;
    cuda_touched = 1;
    /* The first call loads the driver, which can take a while: let other
     * threads run (if this one holds the GIL; C callers without it are fine). */
    PyThreadState *ts = PyGILState_Check() ? PyEval_SaveThread() : NULL;
    /* No driver or no GPU (n = 0 with a status): the cpu device still works. */
    st = ca_rt_device_count(&n);
    if (ts != NULL) {
        PyEval_RestoreThread(ts);
    }
    ndev_status = st;
    ndev = n < 0 ? 0 : n;
    return ndev;
}

/* The reason there is no GPU, as a CUDA status (for messages). */
static int
no_gpu_status(void)
{
    return ndev_status != 0 ? ndev_status : CA_CUDA_ERROR_NO_DEVICE;
}

/* Raise the error for a GPU ordinal that does not exist here. */
static int
bad_ordinal(int device, const char *what)
{
    char call[96];
    char hint[256];
    int n = ca_device_count();
    PyOS_snprintf(call, sizeof call, "cuda:%d%s", device,
                  (what == NULL && device == env_device && tl_device == CA_DEVICE_UNSET)
                      ? " (the default device, from CUARRAY_DEVICE)"
                      : "");
    if (n == 0) {
        return ca_cuda_error_hint(no_gpu_status(), call, NULL);
    }
    PyOS_snprintf(hint, sizeof hint,
                  "This machine has %d CUDA device(s), cuda:0 to cuda:%d; for the "
                  "host use device='cpu' (or CUARRAY_DEVICE=cpu)",
                  n, n - 1);
    return ca_cuda_error_hint(CA_CUDA_ERROR_INVALID_DEVICE, call, hint);
}

static int
resolve_default(void)
{
    if (env_device != CA_DEVICE_UNSET) {
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
    if (d != CA_DEVICE_UNSET) {
        return d;
    }
    d = default_device;
    return d != CA_DEVICE_UNSET ? d : resolve_default();
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
        if (ca_rt_get_device(&cur) == 0 && cur == device) {
            return 0;
        }
    }
    if (ca_run_set_device(device) < 0) {
        tl_cuda_device = -1;
        return -1;
    }
    tl_cuda_device = device;
    return 0;
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
    return s == NULL || s == CA_STREAM_LEGACY;
}

/* Parse "cpu", "cuda", "cuda:N" (no CUDA calls). Returns the ordinal, CA_CPU,
 * CA_ANY_DEVICE for a bare "cuda", or CA_DEVICE_UNSET when it is not a device name. */
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
            return CA_DEVICE_UNSET;
        }
        long v = 0;
        for (; *p >= '0' && *p <= '9'; p++) {
            v = v * 10 + (*p - '0');
            if (v >= CA_MAX_DEVICES) {
                return CA_DEVICE_UNSET;
            }
        }
        return *p == '\0' ? (int)v : CA_DEVICE_UNSET;
    }
    return CA_DEVICE_UNSET;
}

/* The CUDA device a bare "cuda" means: the current one if it is a GPU, else 0. */
static int
any_cuda_device(void)
{
    int d = ca_current_device();
    return d >= 0 ? d : 0;
}

static PyObject *str_device_stack; /* thread-dict keys */
static PyObject *str_stream_stack;
static PyObject *str_stream_current;

typedef struct {
    PyObject_HEAD int id; /* ordinal or CA_CPU */
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
            return CA_DEVICE_ERROR;
        }
        d = parse_device_name(s);
        if (d == CA_DEVICE_UNSET) {
            PyErr_Format(PyExc_ValueError,
                         "unknown device %R: expected 'cpu', 'cuda' or 'cuda:N'", obj);
            return CA_DEVICE_ERROR;
        }
        if (d == CA_ANY_DEVICE) {
            d = any_cuda_device();
        }
        if (d != CA_CPU && d >= ca_device_count()) {
            bad_ordinal(d, "device");
            return CA_DEVICE_ERROR;
        }
        return d;
    }
    if (PyLong_Check(obj) && !PyBool_Check(obj)) {
        long v = PyLong_AsLong(obj);
        if (v == -1 && PyErr_Occurred()) {
            return CA_DEVICE_ERROR;
        }
        if (v < 0) {
            PyErr_Format(PyExc_ValueError,
                         "invalid CUDA device ordinal %ld: use 'cpu' for the host", v);
            return CA_DEVICE_ERROR;
        }
        if (v >= ca_device_count()) {
            bad_ordinal(v >= INT_MAX ? INT_MAX : (int)v, "device");
            return CA_DEVICE_ERROR;
        }
        return (int)v;
    }
    PyErr_Format(PyExc_TypeError,
                 "expected a device ('cpu', 'cuda:N', an int or a Device), got %.100s",
                 Py_TYPE(obj)->tp_name);
    return CA_DEVICE_ERROR;
}

/* ======================================================================== */
/* Helpers                                                                   */
/* ======================================================================== */

/* Make `device` CUDA's current device for a query or a sync on an object that
 * belongs to it, remembering what was current so that restore_device() leaves
 * the thread as it was (other libraries in the thread see CUDA's device). */
static int
enter_device(int device, int *prev)
{
    *prev = tl_cuda_device;
    return ca_use_device(device);
}

static void
restore_device(int device, int prev)
{
    if (prev >= 0 && prev != device) {
        tl_cuda_device = ca_rt_set_device(prev) == 0 ? prev : -1;
    }
}

/* A container kept in the thread's state dict (borrowed), made on first use. */
static PyObject *
thread_item(PyObject *key, int want_dict)
{
    PyObject *td = PyThreadState_GetDict();
    if (td == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "cuarray: no thread state dict");
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(td, key);
    if (v == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        v = want_dict ? PyDict_New() : PyList_New(0);
        if (v == NULL) {
            return NULL;
        }
        int rc = PyDict_SetItem(td, key, v);
        Py_DECREF(v);
        if (rc < 0) {
            return NULL;
        }
    }
    return v;
}

/* Pop the last item of a thread stack (new reference), or raise. */
static PyObject *
stack_pop(PyObject *key, const char *what)
{
    PyObject *stack = thread_item(key, 0);
    if (stack == NULL) {
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(stack);
    if (n == 0) {
        PyErr_Format(PyExc_RuntimeError,
                     "%s.__exit__ without a matching __enter__ "
                     "in this thread",
                     what);
        return NULL;
    }
    PyObject *item = Py_NewRef(PyList_GET_ITEM(stack, n - 1));
    if (PyList_SetSlice(stack, n - 1, n, NULL) < 0) {
        Py_DECREF(item);
        return NULL;
    }
    return item;
}

static double
monotonic_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* ======================================================================== */
/* Device type                                                               */
/* ======================================================================== */

static PyObject *device_cache[CA_MAX_DEVICES + 1]; /* slot d + 1, strong refs */

typedef struct {
    int have;
    char name[256];
    int major, minor;
    size_t total;
} device_props;
static device_props props_cache[CA_MAX_DEVICES];

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

static const device_props *
get_props(int device)
{
    device_props *p = &props_cache[device];
    if (!p->have) {
        ca_device_props prop;
        if (ca_run_device_props(device, &prop) < 0) {
            return NULL;
        }
        memcpy(p->name, prop.name, sizeof p->name);
        p->name[sizeof p->name - 1] = '\0';
        p->major = prop.major;
        p->minor = prop.minor;
        p->total = prop.total_memory;
        p->have = 1;
    }
    return p;
}

static PyObject *
Device_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "id", NULL };
    PyObject *id = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:Device", kwlist, &id)) {
        return NULL;
    }
    int d = ca_device_from_object(id);
    if (d == CA_DEVICE_ERROR) {
        return NULL;
    }
    /* None means the current device, which CUARRAY_DEVICE may name wrongly. */
    if (d >= 0 && d >= ca_device_count()) {
        bad_ordinal(d, NULL);
        return NULL;
    }
    return ca_device_object(d);
}

static PyObject *
Device_get_id(CaDevice *self, void *c)
{
    return PyLong_FromLong(self->id);
}

static PyObject *
Device_get_type(CaDevice *self, void *c)
{
    return PyUnicode_FromString(self->id == CA_CPU ? "cpu" : "cuda");
}

static PyObject *
Device_get_name(CaDevice *self, void *c)
{
    if (self->id == CA_CPU) {
        return PyUnicode_FromString("cpu");
    }
    const device_props *p = get_props(self->id);
    return p ? PyUnicode_FromString(p->name) : NULL;
}

static PyObject *
Device_get_cc(CaDevice *self, void *c)
{
    if (self->id == CA_CPU) {
        Py_RETURN_NONE;
    }
    const device_props *p = get_props(self->id);
    return p ? PyUnicode_FromFormat("%d%d", p->major, p->minor) : NULL;
}

static PyObject *
Device_get_mem_info(CaDevice *self, void *c)
{
    size_t free_b = 0, total_b = 0;
    if (self->id == CA_CPU) {
#if defined(_SC_AVPHYS_PAGES) && defined(_SC_PHYS_PAGES)
        long page = sysconf(_SC_PAGESIZE);
        long avail = sysconf(_SC_AVPHYS_PAGES);
        long phys = sysconf(_SC_PHYS_PAGES);
        if (page > 0 && avail >= 0 && phys >= 0) {
            free_b = (size_t)avail * (size_t)page;
            total_b = (size_t)phys * (size_t)page;
        }
#endif
        return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
    }
    int prev;
    if (enter_device(self->id, &prev) < 0) {
        return NULL;
    }
    int rc = ca_run_mem_get_info(&free_b, &total_b);
    restore_device(self->id, prev);
    if (rc < 0) {
        return NULL;
    }
    return Py_BuildValue("(nn)", (Py_ssize_t)free_b, (Py_ssize_t)total_b);
}

static PyObject *
Device_synchronize(CaDevice *self, PyObject *unused)
{
    if (self->id == CA_CPU) {
        CA_COUNT(syncs); /* synchronous already; counted as a GPU's would be */
        Py_RETURN_NONE;
    }
    int prev;
    if (enter_device(self->id, &prev) < 0) {
        return NULL;
    }
    int rc = ca_run_device_sync();
    restore_device(self->id, prev);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Device_use(CaDevice *self, PyObject *unused)
{
    if (self->id >= 0 && ca_use_device(self->id) < 0) {
        return NULL;
    }
    tl_device = self->id;
    return Py_NewRef(self);
}

static PyObject *
Device_enter(CaDevice *self, PyObject *unused)
{
    PyObject *stack = thread_item(str_device_stack, 0);
    PyObject *prev = NULL;
    if (stack == NULL) {
        return NULL;
    }
    /* Make it CUDA's device too, so other libraries used inside the block (and
     * raw handles) follow it, as in CuPy. */
    if (self->id >= 0 && ca_use_device(self->id) < 0) {
        return NULL;
    }
    prev = PyLong_FromLong(tl_device);
    if (prev == NULL || PyList_Append(stack, prev) < 0) {
        Py_XDECREF(prev);
        return NULL;
    }
    Py_DECREF(prev);
    tl_device = self->id;
    return Py_NewRef(self);
}

static PyObject *
Device_exit(CaDevice *self, PyObject *args)
{
    PyObject *prev = stack_pop(str_device_stack, "Device");
    if (prev == NULL) {
        return NULL;
    }
    long d = PyLong_AsLong(prev);
    Py_DECREF(prev);
    if (d == -1 && PyErr_Occurred()) {
        return NULL;
    }
    tl_device = (int)d;
    /* Only when the block switched CUDA's device (a GPU was entered) is there
     * something to switch back; a cpu block must not initialize CUDA here. */
    if (self->id >= 0) {
        int now = ca_current_device();
        if (now >= 0 && now != self->id && ca_use_device(now) < 0) {
            /* Not raised from __exit__ (it would hide the block's own exception);
             * the next operation on that device reports it. */
            PyErr_Clear();
        }
    }
    Py_RETURN_FALSE;
}

static PyObject *
Device_reduce(CaDevice *self, PyObject *unused)
{
    PyObject *s = PyObject_Str((PyObject *)self);
    if (s == NULL) {
        return NULL;
    }
    return Py_BuildValue("(O(N))", (PyObject *)Py_TYPE(self), s);
}

static PyObject *
Device_str(CaDevice *self)
{
    return ca_device_str(self->id);
}

static PyObject *
Device_repr(CaDevice *self)
{
    if (self->id == CA_CPU) {
        return PyUnicode_FromString("<CPU Device>");
    }
    return PyUnicode_FromFormat("<CUDA Device %d>", self->id);
}

static Py_hash_t
Device_hash(CaDevice *self)
{
    /* Equal to the hash of its name, since it compares equal to its name. */
    PyObject *s = Device_str(self);
    if (s == NULL) {
        return -1;
    }
    Py_hash_t h = PyObject_Hash(s);
    Py_DECREF(s);
    return h;
}

static PyObject *
Device_richcompare(CaDevice *self, PyObject *other, int op)
{
    int od;
    if (op != Py_EQ && op != Py_NE) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (Py_IS_TYPE(other, ca_st->device_type)) {
        od = ((CaDevice *)other)->id;
    }
    else if (PyUnicode_Check(other)) {
        const char *s = PyUnicode_AsUTF8(other);
        if (s == NULL) {
            return NULL;
        }
        od = parse_device_name(s);
        if (od == CA_ANY_DEVICE) {
            od = self->id >= 0 ? any_cuda_device() : CA_DEVICE_UNSET;
        }
        if (od == CA_DEVICE_UNSET) {
            return PyBool_FromLong(op == Py_NE);
        }
    }
    else {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return PyBool_FromLong((od == self->id) == (op == Py_EQ));
}

static PyGetSetDef Device_getset[] = {
    { "id", (getter)Device_get_id, NULL, "The CUDA ordinal (-1 for the cpu).", NULL },
    { "type", (getter)Device_get_type, NULL, "'cuda' or 'cpu'.", NULL },
    { "name", (getter)Device_get_name, NULL, "The GPU's name ('cpu' for the host).",
      NULL },
    { "compute_capability", (getter)Device_get_cc, NULL,
      "Compute capability as a string, e.g. '90' (None for the cpu).", NULL },
    { "mem_info", (getter)Device_get_mem_info, NULL,
      "(free, total) memory in bytes (host memory for the cpu).", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Device_methods[] = {
    { "synchronize", (PyCFunction)Device_synchronize, METH_NOARGS,
      "synchronize()\n--\n\nWait for all work queued on the device (GIL released)." },
    { "use", (PyCFunction)Device_use, METH_NOARGS,
      "use()\n--\n\nMake this the current device of the thread (until changed)." },
    { "__enter__", (PyCFunction)Device_enter, METH_NOARGS, NULL },
    { "__exit__", (PyCFunction)Device_exit, METH_VARARGS, NULL },
    { "__reduce__", (PyCFunction)Device_reduce, METH_NOARGS, NULL },
    { NULL, NULL, 0, NULL },
};

static PyType_Slot device_slots[] = {
    { Py_tp_doc,
      "Device(id=None)\n--\n\n"
      "A CUDA GPU ('cuda:N', or an ordinal) or the host ('cpu'); None means the\n"
      "current device. `with Device(...)` makes it the thread's current device;\n"
      "nested blocks restore the previous one." },
    { Py_tp_new, Device_new },
    { Py_tp_str, Device_str },
    { Py_tp_repr, Device_repr },
    { Py_tp_hash, Device_hash },
    { Py_tp_richcompare, Device_richcompare },
    { Py_tp_getset, Device_getset },
    { Py_tp_methods, Device_methods },
    { 0, NULL },
};

CA_TYPE_SPEC(device_spec, "cuarray.cuda.Device", CaDevice,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, device_slots);

/* ======================================================================== */
/* Stream type                                                               */
/* ======================================================================== */

typedef struct {
    PyObject_HEAD ca_stream_t
        handle; /* NULL: legacy default stream; 0x2: per-thread default */
    int device; /* ordinal, CA_CPU, or CA_ANY_DEVICE */
    int owned;  /* created here: destroyed in dealloc */
    int non_blocking;
    PyObject *weakreflist;
} CaStream;

typedef struct {
    PyObject_HEAD ca_event_t handle; /* NULL on the cpu */
    int device;                      /* ordinal or CA_CPU */
    unsigned flags;
    int recorded; /* cpu: a timestamp was taken */
    double t;     /* cpu: monotonic seconds at record() */
    PyObject *weakreflist;
} CaEvent;

static PyObject *null_stream; /* Stream.null */
static PyObject *ptds_stream; /* Stream.ptds */

static int
stream_device(CaStream *s)
{
    return s->device == CA_ANY_DEVICE ? ca_current_device() : s->device;
}

/* ---- the streams cuarray created ---- */
/* Live handles of owned Streams (any thread, so a mutex): a pool block tagged
 * with any other non-default stream is foreign (pool.h), because its owner may
 * destroy it without telling us. Few streams live at once: a plain list. */
static pthread_mutex_t owned_mu = PTHREAD_MUTEX_INITIALIZER;
static ca_stream_t *owned_list;
static size_t n_owned, cap_owned;

static void
owned_add(ca_stream_t h)
{
    pthread_mutex_lock(&owned_mu);
    if (n_owned == cap_owned) {
        size_t cap = cap_owned ? 2 * cap_owned : 16;
        ca_stream_t *l = realloc(owned_list, cap * sizeof *l);
        if (l != NULL) {
            owned_list = l;
            cap_owned = cap;
        }
    }
    if (n_owned < cap_owned) {
        owned_list[n_owned++] = h; /* else unlisted: treated as foreign, still safe */
    }
    pthread_mutex_unlock(&owned_mu);
}

static void
owned_remove(ca_stream_t h)
{
    pthread_mutex_lock(&owned_mu);
    for (size_t i = 0; i < n_owned; i++) {
        if (owned_list[i] == h) {
            owned_list[i] = owned_list[--n_owned];
            break;
        }
    }
    pthread_mutex_unlock(&owned_mu);
}

ca_stream_t
ca_stream_pool_tag(ca_stream_t s)
{
    if (ca_stream_is_null(s)) {
        return NULL; /* the legacy default stream (never dies; its handle 0x1 would
                        read as foreign) */
    }
    if (s == CA_STREAM_PER_THREAD) {
        return s;
    }
    int found = 0;
    pthread_mutex_lock(&owned_mu);
    for (size_t i = 0; i < n_owned && !found; i++) {
        found = owned_list[i] == s;
    }
    pthread_mutex_unlock(&owned_mu);
    return found ? s : (ca_stream_t)((uintptr_t)s | CA_STREAM_FOREIGN_BIT);
}

static CaStream *
stream_alloc(ca_stream_t handle, int device, int owned, int non_blocking)
{
    CaStream *s = PyObject_New(CaStream, ca_st->stream_type);
    if (s == NULL) {
        return NULL;
    }
    s->handle = handle;
    s->device = device;
    s->owned = owned;
    s->non_blocking = non_blocking;
    s->weakreflist = NULL;
    return s;
}

ca_stream_t
ca_stream_from_object(PyObject *o, int *ok)
{
    *ok = 1;
    if (o == NULL || o == Py_None) {
        return ca_current_stream(ca_current_device());
    }
    if (Py_IS_TYPE(o, ca_st->stream_type)) {
        return ((CaStream *)o)->handle;
    }
    if (PyLong_Check(o) && !PyBool_Check(o)) {
        unsigned long long v = PyLong_AsUnsignedLongLong(o);
        if (v == (unsigned long long)-1 && PyErr_Occurred()) {
            *ok = 0;
            return NULL;
        }
        return (ca_stream_t)(uintptr_t)v;
    }
    PyErr_Format(PyExc_TypeError,
                 "expected a Stream, None or a stream handle (int), "
                 "got %.100s",
                 Py_TYPE(o)->tp_name);
    *ok = 0;
    return NULL;
}

/* Make `obj` (a Stream, or NULL for none) the current stream of device slot d. */
static int
set_current_stream(int d, PyObject *obj)
{
    PyObject *cur = thread_item(str_stream_current, 1);
    PyObject *key = NULL, *old = NULL;
    int rc = -1;
    if (cur == NULL || (key = PyLong_FromLong(d)) == NULL) {
        return -1;
    }
    /* Deferred kernels (fusion.c) name the stream current when they were asked
     * for: launch them while it is still the current one (a foreign stream may
     * be destroyed once the caller leaves it). */
    ca_fusion_flush();
    /* Keep the old one alive until the C thread-locals no longer point at it. */
    old = Py_XNewRef(tl_stream_obj[d + 1]);
    if (obj != NULL) {
        if (PyDict_SetItem(cur, key, obj) < 0) {
            goto error;
        }
    }
    else if (PyDict_DelItem(cur, key) < 0) {
        if (!PyErr_ExceptionMatches(PyExc_KeyError)) {
            goto error;
        }
        PyErr_Clear();
    }
    tl_stream_obj[d + 1] = obj;
    tl_stream[d + 1] = (obj != NULL && d >= 0) ? ((CaStream *)obj)->handle : NULL;
    rc = 0;
error:
    Py_XDECREF(key);
    Py_XDECREF(old);
    return rc;
}

static PyObject *
Stream_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {
        "null", "non_blocking", "ptds", "ptr", "device_id", NULL
    };
    int null = 0, non_blocking = 0, ptds = 0;
    PyObject *ptr = Py_None, *device_id = Py_None;
    ca_stream_t h = NULL;
    int d, prev;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|pppOO:Stream", kwlist, &null,
                                     &non_blocking, &ptds, &ptr, &device_id)) {
        return NULL;
    }
    if (null + ptds + (ptr != Py_None) > 1) {
        PyErr_SetString(PyExc_ValueError,
                        "Stream: give at most one of null, ptds, ptr");
        return NULL;
    }
    if (null) {
        return Py_NewRef(null_stream);
    }
    if (ptds) {
        return Py_NewRef(ptds_stream);
    }
    if (ptr != Py_None) {
        /* A stream made elsewhere (another library's): not ours to destroy. */
        int ok;
        if (!PyLong_Check(ptr)) {
            PyErr_SetString(PyExc_TypeError, "Stream(ptr=...) takes an int handle");
            return NULL;
        }
        ca_stream_t raw = ca_stream_from_object(ptr, &ok);
        if (!ok) {
            return NULL;
        }
        d = ca_device_from_object(device_id);
        if (d == CA_DEVICE_ERROR) {
            return NULL;
        }
        return (PyObject *)stream_alloc(raw, d, 0, non_blocking);
    }
    d = ca_device_from_object(device_id);
    if (d == CA_DEVICE_ERROR) {
        return NULL;
    }
    if (d == CA_CPU) {
        /* The cpu device runs everything synchronously: its streams are tokens. */
        return (PyObject *)stream_alloc(NULL, CA_CPU, 0, non_blocking);
    }
    if (enter_device(d, &prev) < 0) {
        return NULL;
    }
    int rc = ca_run_stream_create(&h, non_blocking ? CA_STREAM_NON_BLOCKING : 0);
    restore_device(d, prev);
    if (rc < 0) {
        return NULL;
    }
    CaStream *s = stream_alloc(h, d, 1, non_blocking);
    if (s == NULL) {
        ca_stream_destroy_quiet(h);
        return NULL;
    }
    owned_add(h);
    return (PyObject *)s;
}

static void
Stream_dealloc(CaStream *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    if (self->owned && self->handle != NULL) {
        /* deferred kernels (fusion.c) may still name this stream */
        ca_fusion_flush();
        /* The pools tag cached blocks with their stream: drop this handle from them
         * first, or a later cross-stream reuse would record an event on a dead
         * (or recycled) stream handle. */
        if (ca_hook.stream_destroyed(self->device, self->handle) < 0) {
            PyErr_WriteUnraisable((PyObject *)self);
        }
        owned_remove(self->handle);
        /* Returns at once; CUDA frees the stream once its queued work is done. */
        ca_stream_destroy_quiet(self->handle);
    }
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *
Stream_synchronize(CaStream *self, PyObject *unused)
{
    int d = stream_device(self), prev;
    if (d == CA_CPU) {
        CA_COUNT(syncs);
        Py_RETURN_NONE;
    }
    if (enter_device(d, &prev) < 0) {
        return NULL;
    }
    int rc = ca_run_stream_sync(self->handle);
    restore_device(d, prev);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Stream_get_done(CaStream *self, void *c)
{
    int d = stream_device(self), prev;
    if (d == CA_CPU) {
        Py_RETURN_TRUE;
    }
    if (enter_device(d, &prev) < 0) {
        return NULL;
    }
    int done = ca_run_stream_query(self->handle);
    restore_device(d, prev);
    if (done < 0) {
        return NULL;
    }
    return PyBool_FromLong(done);
}

static int
event_synchronize(CaEvent *e)
{
    if (e->device == CA_CPU) {
        CA_COUNT(syncs);
        return 0;
    }
    return ca_run_event_sync(e->handle);
}

static PyObject *
Stream_wait_event(CaStream *self, PyObject *ev)
{
    int d, prev;
    if (!Py_IS_TYPE(ev, ca_st->event_type)) {
        PyErr_Format(PyExc_TypeError, "wait_event() takes an Event, got %.100s",
                     Py_TYPE(ev)->tp_name);
        return NULL;
    }
    CaEvent *e = (CaEvent *)ev;
    d = stream_device(self);
    if (e->device == CA_CPU) {
        /* Work of the cpu device is done when record() returns. */
        Py_RETURN_NONE;
    }
    if (d == CA_CPU) {
        /* cpu work runs on the host, in order: make the host wait. */
        if (event_synchronize(e) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    if (enter_device(d, &prev) < 0) {
        return NULL;
    }
    int rc = ca_run_stream_wait_event(self->handle, e->handle);
    restore_device(d, prev);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *event_new_on(int device, int block, int disable_timing,
                              int interprocess);
static int event_record(CaEvent *e, PyObject *stream);

static PyObject *
Stream_record(CaStream *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "event", NULL };
    PyObject *ev = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:record", kwlist, &ev)) {
        return NULL;
    }
    if (ev == Py_None) {
        ev = event_new_on(stream_device(self), 0, 0, 0);
        if (ev == NULL) {
            return NULL;
        }
    }
    else if (!Py_IS_TYPE(ev, ca_st->event_type)) {
        PyErr_Format(PyExc_TypeError, "record() takes an Event or None, got %.100s",
                     Py_TYPE(ev)->tp_name);
        return NULL;
    }
    else {
        Py_INCREF(ev);
    }
    if (event_record((CaEvent *)ev, (PyObject *)self) < 0) {
        Py_DECREF(ev);
        return NULL;
    }
    return ev;
}

static PyObject *
Stream_enter(CaStream *self, PyObject *unused)
{
    int d = stream_device(self);
    PyObject *stack = thread_item(str_stream_stack, 0);
    PyObject *entry = NULL;
    if (stack == NULL) {
        return NULL;
    }
    if (d < CA_CPU || d >= CA_MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "invalid device %d for a stream", d);
        return NULL;
    }
    PyObject *prev = tl_stream_obj[d + 1];
    /* The entry holds the previous stream strongly so __exit__ can restore it. */
    entry = Py_BuildValue("(iO)", d, prev ? prev : Py_None);
    if (entry == NULL || PyList_Append(stack, entry) < 0) {
        Py_XDECREF(entry);
        return NULL;
    }
    Py_DECREF(entry);
    if (set_current_stream(d, (PyObject *)self) < 0) {
        Py_ssize_t n = PyList_GET_SIZE(stack);
        (void)PyList_SetSlice(stack, n - 1, n, NULL);
        return NULL;
    }
    return Py_NewRef(self);
}

static PyObject *
Stream_exit(CaStream *self, PyObject *args)
{
    int d;
    PyObject *prev;
    PyObject *entry = stack_pop(str_stream_stack, "Stream");
    if (entry == NULL) {
        return NULL;
    }
    if (!PyArg_ParseTuple(entry, "iO", &d, &prev)) {
        Py_DECREF(entry);
        return NULL;
    }
    int rc = set_current_stream(d, prev == Py_None ? NULL : prev);
    Py_DECREF(entry);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_FALSE;
}

static PyObject *
Stream_use(CaStream *self, PyObject *unused)
{
    int d = stream_device(self);
    if (d < CA_CPU || d >= CA_MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "invalid device %d for a stream", d);
        return NULL;
    }
    if (set_current_stream(d, (PyObject *)self) < 0) {
        return NULL;
    }
    return Py_NewRef(self);
}

/* CUDA graphs (graph.c): CuPy's capture methods */
static PyObject *
Stream_begin_capture(CaStream *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "mode", NULL };
    PyObject *mode = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:begin_capture", kwlist, &mode)) {
        return NULL;
    }
    long m = mode == Py_None ? 2 : PyLong_AsLong(mode); /* relaxed by default */
    if (m == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return ca_graph_begin_capture(self->handle, stream_device(self), (int)m);
}

static PyObject *
Stream_end_capture(CaStream *self, PyObject *unused)
{
    return ca_graph_end_capture(self->handle, stream_device(self));
}

static PyObject *
Stream_is_capturing(CaStream *self, PyObject *unused)
{
    return ca_graph_is_capturing(self->handle, stream_device(self));
}

/* _graph_launch(graph, stream=None) / _graph_upload: Graph's methods
 * (cuda/graph.py), here where streams are parsed */
static PyObject *
graph_launch_or_upload(PyObject *args, int launch)
{
    PyObject *g, *so = Py_None;
    int ok;
    if (!PyArg_ParseTuple(args, launch ? "O|O:launch" : "O|O:upload", &g, &so)) {
        return NULL;
    }
    ca_stream_t s = ca_stream_from_object(so, &ok);
    if (!ok) {
        return NULL;
    }
    return launch ? ca_graph_launch(g, s) : ca_graph_upload(g, s);
}

static PyObject *
py_graph_launch(PyObject *m, PyObject *args)
{
    return graph_launch_or_upload(args, 1);
}

static PyObject *
py_graph_upload(PyObject *m, PyObject *args)
{
    return graph_launch_or_upload(args, 0);
}

static PyObject *
Stream_get_ptr(CaStream *self, void *c)
{
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)self->handle);
}

static PyObject *
Stream_get_device_id(CaStream *self, void *c)
{
    return PyLong_FromLong(stream_device(self));
}

static PyObject *
Stream_get_non_blocking(CaStream *self, void *c)
{
    return PyBool_FromLong(self->non_blocking);
}

static PyObject *
Stream_repr(CaStream *self)
{
    if ((PyObject *)self == null_stream) {
        return PyUnicode_FromString("<cuarray.cuda.Stream null>");
    }
    if ((PyObject *)self == ptds_stream) {
        return PyUnicode_FromString("<cuarray.cuda.Stream ptds>");
    }
    if (self->device == CA_CPU) {
        return PyUnicode_FromFormat("<cuarray.cuda.Stream at %p (cpu)>", self);
    }
    return PyUnicode_FromFormat("<cuarray.cuda.Stream %p (cuda:%d)>", self->handle,
                                self->device);
}

static Py_hash_t
Stream_hash(CaStream *self)
{
    if (self->device == CA_CPU) {
        Py_hash_t p = (Py_hash_t)((uintptr_t)self >> 4);
        return p == -1 ? -2 : p;
    }
    Py_hash_t h = (Py_hash_t)(uintptr_t)self->handle;
    return h == -1 ? -2 : h;
}

static PyObject *
Stream_richcompare(CaStream *self, PyObject *other, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !Py_IS_TYPE(other, ca_st->stream_type)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    CaStream *o = (CaStream *)other;
    int eq;
    if (self->device == CA_CPU || o->device == CA_CPU) {
        /* cpu streams have no handle: each is itself. */
        eq = self == o;
    }
    else {
        eq = self->handle == o->handle &&
             (self->device == o->device || self->device == CA_ANY_DEVICE ||
              o->device == CA_ANY_DEVICE);
    }
    return PyBool_FromLong(eq == (op == Py_EQ));
}

/* The CUDA stream protocol (cuda.core's __cuda_stream__): (version 0, handle). */
static PyObject *
Stream_cuda_stream(CaStream *self, PyObject *unused)
{
    if (self->device == CA_CPU) {
        PyErr_SetString(PyExc_AttributeError,
                        "a cpu-device stream has no CUDA stream handle");
        return NULL;
    }
    return Py_BuildValue("(iN)", 0, PyLong_FromVoidPtr((void *)self->handle));
}

/* Stream.from_external(obj, device_id=None): a Stream over the handle that
 * obj.__cuda_stream__() names (not ours to destroy). */
static PyObject *
Stream_from_external(PyObject *cls, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "obj", "device_id", NULL };
    PyObject *obj, *device_id = Py_None, *res = NULL, *kw = NULL, *empty = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:from_external", kwlist, &obj,
                                     &device_id)) {
        return NULL;
    }
    PyObject *t = PyObject_CallMethod(obj, "__cuda_stream__", NULL);
    if (t == NULL) {
        return NULL;
    }
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 2 ||
        !PyLong_Check(PyTuple_GET_ITEM(t, 1))) {
        PyErr_SetString(PyExc_TypeError,
                        "__cuda_stream__() must return a (version, handle) tuple");
        goto done;
    }
    kw = Py_BuildValue("{sOsO}", "ptr", PyTuple_GET_ITEM(t, 1), "device_id", device_id);
    empty = PyTuple_New(0);
    if (kw != NULL && empty != NULL) {
        res = PyObject_Call(cls, empty, kw);
    }
done:
    Py_XDECREF(kw);
    Py_XDECREF(empty);
    Py_DECREF(t);
    return res;
}

static PyGetSetDef Stream_getset[] = {
    { "ptr", (getter)Stream_get_ptr, NULL,
      "The cudaStream_t as an int (0: the legacy default stream).", NULL },
    { "device_id", (getter)Stream_get_device_id, NULL,
      "Ordinal of the stream's device (-1: cpu; the current one for null/ptds).",
      NULL },
    { "done", (getter)Stream_get_done, NULL,
      "True if all work queued on the stream has finished.", NULL },
    { "non_blocking", (getter)Stream_get_non_blocking, NULL,
      "True if the stream does not synchronize with the legacy default stream.", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Stream_methods[] = {
    { "synchronize", (PyCFunction)Stream_synchronize, METH_NOARGS,
      "synchronize()\n--\n\nWait for the stream's work to finish (GIL released)." },
    { "wait_event", (PyCFunction)Stream_wait_event, METH_O,
      "wait_event(event)\n--\n\nMake later work on this stream wait for `event`." },
    { "record", (PyCFunction)(void (*)(void))Stream_record,
      METH_VARARGS | METH_KEYWORDS,
      "record(event=None)\n--\n\nRecord `event` (a new one if None) on this stream; "
      "return it." },
    { "begin_capture", (PyCFunction)(void (*)(void))Stream_begin_capture,
      METH_VARARGS | METH_KEYWORDS,
      "begin_capture(mode=None)\n--\n\nStart capturing the work queued on this stream "
      "into a CUDA graph\n(cuarray.cuda.graph; mode: cudaStreamCaptureMode, relaxed "
      "by default)." },
    { "end_capture", (PyCFunction)Stream_end_capture, METH_NOARGS,
      "end_capture()\n--\n\nStop capturing; return the cuarray.cuda.Graph." },
    { "is_capturing", (PyCFunction)Stream_is_capturing, METH_NOARGS,
      "is_capturing()\n--\n\nTrue while this stream is being captured." },
    { "use", (PyCFunction)Stream_use, METH_NOARGS,
      "use()\n--\n\nMake this the current stream of its device in this thread." },
    { "__enter__", (PyCFunction)Stream_enter, METH_NOARGS, NULL },
    { "__exit__", (PyCFunction)Stream_exit, METH_VARARGS, NULL },
    { "__cuda_stream__", (PyCFunction)Stream_cuda_stream, METH_NOARGS,
      "__cuda_stream__()\n--\n\nThe CUDA stream protocol: (0, the cudaStream_t as an "
      "int)." },
    { "from_external", (PyCFunction)(void (*)(void))Stream_from_external,
      METH_VARARGS | METH_KEYWORDS | METH_CLASS,
      "from_external(obj, device_id=None)\n--\n\nA Stream over the stream of any "
      "object with __cuda_stream__ (not\ndestroyed here)." },
    { NULL, NULL, 0, NULL },
};

CA_OFFSET_MEMBERS(Stream_members, "__weaklistoffset__", CaStream, weakreflist);

static PyType_Slot stream_slots[] = {
    { Py_tp_doc,
      "Stream(null=False, non_blocking=False, ptds=False, ptr=None, device_id=None)\n"
      "--\n\n"
      "A CUDA stream of the current device (or of `device_id`). `with stream:`\n"
      "makes it the thread's current stream on its device; nested blocks restore\n"
      "the previous one. Stream.null is the legacy default stream (ptr 0),\n"
      "Stream.ptds the per-thread default stream. ptr wraps a stream made by\n"
      "another library (not destroyed here). On the cpu device every call is\n"
      "synchronous: done is always True." },
    { Py_tp_new, Stream_new },
    { Py_tp_dealloc, Stream_dealloc },
    { Py_tp_repr, Stream_repr },
    { Py_tp_hash, Stream_hash },
    { Py_tp_richcompare, Stream_richcompare },
    { Py_tp_getset, Stream_getset },
    { Py_tp_methods, Stream_methods },
    { Py_tp_members, Stream_members },
    { 0, NULL },
};

CA_TYPE_SPEC(stream_spec, "cuarray.cuda.Stream", CaStream,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, stream_slots);

/* ======================================================================== */
/* Event type                                                                */
/* ======================================================================== */

static PyObject *
event_new_on(int device, int block, int disable_timing, int interprocess)
{
    unsigned flags = (block ? CA_EVENT_BLOCKING_SYNC : 0) |
                     (disable_timing ? CA_EVENT_DISABLE_TIMING : 0) |
                     (interprocess ? CA_EVENT_INTERPROCESS : 0);
    ca_event_t h = NULL;
    int prev;
    if (interprocess && !disable_timing) {
        PyErr_SetString(PyExc_ValueError,
                        "an interprocess event needs disable_timing=True");
        return NULL;
    }
    if (device >= 0) {
        if (enter_device(device, &prev) < 0) {
            return NULL;
        }
        int rc = ca_run_event_create(&h, flags);
        restore_device(device, prev);
        if (rc < 0) {
            return NULL;
        }
    }
    CaEvent *e = PyObject_New(CaEvent, ca_st->event_type);
    if (e == NULL) {
        if (h != NULL) {
            ca_event_destroy_quiet(h);
        }
        return NULL;
    }
    e->handle = h;
    e->device = device;
    e->flags = flags;
    e->recorded = 0;
    e->t = 0.0;
    e->weakreflist = NULL;
    return (PyObject *)e;
}

static PyObject *
Event_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "block", "disable_timing", "interprocess", NULL };
    int block = 0, disable_timing = 0, interprocess = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|ppp:Event", kwlist, &block,
                                     &disable_timing, &interprocess)) {
        return NULL;
    }
    return event_new_on(ca_current_device(), block, disable_timing, interprocess);
}

static void
Event_dealloc(CaEvent *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    if (self->handle != NULL) {
        ca_event_destroy_quiet(self->handle);
    }
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static int
event_record(CaEvent *e, PyObject *stream)
{
    ca_stream_t s;
    int sd, prev;
    if (stream == NULL || stream == Py_None) {
        sd = e->device;
        s = ca_current_stream(e->device);
    }
    else if (Py_IS_TYPE(stream, ca_st->stream_type)) {
        CaStream *cs = (CaStream *)stream;
        sd = cs->device == CA_ANY_DEVICE ? e->device : cs->device;
        s = cs->handle;
    }
    else {
        PyErr_Format(PyExc_TypeError, "record() takes a Stream or None, got %.100s",
                     Py_TYPE(stream)->tp_name);
        return -1;
    }
    if (sd != e->device) {
        char b1[CA_DEVICE_NAME_LEN], b2[CA_DEVICE_NAME_LEN];
        PyErr_Format(PyExc_ValueError,
                     "an event of %s cannot be recorded on a stream of %s",
                     ca_device_name(e->device, b1), ca_device_name(sd, b2));
        return -1;
    }
    if (e->device == CA_CPU) {
        /* Everything queued on the cpu device has already run. */
        e->t = monotonic_seconds();
        e->recorded = 1;
        return 0;
    }
    if (enter_device(e->device, &prev) < 0) {
        return -1;
    }
    int rc = ca_run_event_record(e->handle, s);
    restore_device(e->device, prev);
    if (rc < 0) {
        return -1;
    }
    e->recorded = 1;
    return 0;
}

static PyObject *
Event_record(CaEvent *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "stream", NULL };
    PyObject *stream = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:record", kwlist, &stream)) {
        return NULL;
    }
    if (event_record(self, stream) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Event_synchronize(CaEvent *self, PyObject *unused)
{
    if (event_synchronize(self) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Event_get_done(CaEvent *self, void *c)
{
    if (self->device == CA_CPU) {
        Py_RETURN_TRUE;
    }
    int done = ca_run_event_query(self->handle);
    if (done < 0) {
        return NULL;
    }
    return PyBool_FromLong(done);
}

static PyObject *
Event_get_ptr(CaEvent *self, void *c)
{
    return PyLong_FromUnsignedLongLong((unsigned long long)(uintptr_t)self->handle);
}

static PyObject *
Event_get_device_id(CaEvent *self, void *c)
{
    return PyLong_FromLong(self->device);
}

static PyObject *
Event_repr(CaEvent *self)
{
    if (self->device == CA_CPU) {
        return PyUnicode_FromFormat("<cuarray.cuda.Event at %p (cpu)>", self);
    }
    return PyUnicode_FromFormat("<cuarray.cuda.Event %p (cuda:%d)>", self->handle,
                                self->device);
}

static PyGetSetDef Event_getset[] = {
    { "ptr", (getter)Event_get_ptr, NULL, "The cudaEvent_t as an int (0 on the cpu).",
      NULL },
    { "device_id", (getter)Event_get_device_id, NULL, "Ordinal of the event's device.",
      NULL },
    { "done", (getter)Event_get_done, NULL,
      "True if the work recorded before the event has finished.", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMethodDef Event_methods[] = {
    { "record", (PyCFunction)(void (*)(void))Event_record, METH_VARARGS | METH_KEYWORDS,
      "record(stream=None)\n--\n\nRecord the event on `stream` (None: the current "
      "stream)." },
    { "synchronize", (PyCFunction)Event_synchronize, METH_NOARGS,
      "synchronize()\n--\n\nWait until the event has happened (GIL released)." },
    { NULL, NULL, 0, NULL },
};

CA_OFFSET_MEMBERS(Event_members, "__weaklistoffset__", CaEvent, weakreflist);

static PyType_Slot event_slots[] = {
    { Py_tp_doc,
      "Event(block=False, disable_timing=False, interprocess=False)\n--\n\n"
      "A CUDA event of the current device. On the cpu device record() takes a\n"
      "host timestamp, so get_elapsed_time works there too." },
    { Py_tp_new, Event_new },
    { Py_tp_dealloc, Event_dealloc },
    { Py_tp_repr, Event_repr },
    { Py_tp_getset, Event_getset },
    { Py_tp_methods, Event_methods },
    { Py_tp_members, Event_members },
    { 0, NULL },
};

CA_TYPE_SPEC(event_spec, "cuarray.cuda.Event", CaEvent,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, event_slots);

/* ======================================================================== */
/* Module functions                                                          */
/* ======================================================================== */

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

static PyObject *
py_get_current_stream(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "device", NULL };
    PyObject *dev = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:get_current_stream", kwlist,
                                     &dev)) {
        return NULL;
    }
    int d = ca_device_from_object(dev);
    if (d == CA_DEVICE_ERROR) {
        return NULL;
    }
    PyObject *s = (d >= CA_CPU && d < CA_MAX_DEVICES) ? tl_stream_obj[d + 1] : NULL;
    return Py_NewRef(s != NULL ? s : null_stream);
}

static PyObject *
py_get_elapsed_time(PyObject *self, PyObject *args)
{
    PyObject *a, *b;
    if (!PyArg_ParseTuple(args, "OO:get_elapsed_time", &a, &b)) {
        return NULL;
    }
    if (!Py_IS_TYPE(a, ca_st->event_type) || !Py_IS_TYPE(b, ca_st->event_type)) {
        PyErr_SetString(PyExc_TypeError,
                        "get_elapsed_time(start, end) takes two Events");
        return NULL;
    }
    CaEvent *s = (CaEvent *)a, *e = (CaEvent *)b;
    if (s->device != e->device) {
        PyErr_SetString(PyExc_ValueError,
                        "get_elapsed_time: the events belong to different devices");
        return NULL;
    }
    if (!s->recorded || !e->recorded) {
        PyErr_SetString(PyExc_ValueError,
                        "get_elapsed_time: both events must have been recorded");
        return NULL;
    }
    if (s->device == CA_CPU) {
        return PyFloat_FromDouble((e->t - s->t) * 1e3);
    }
    float ms = 0.0f;
    /* Wait for `end` first so the answer is ready (CUDA would say not ready). */
    if (event_synchronize(e) < 0) {
        return NULL;
    }
    if (ca_run_event_elapsed(&ms, s->handle, e->handle) < 0) {
        return NULL;
    }
    return PyFloat_FromDouble((double)ms);
}

static PyObject *
py_runtime_version(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(ca_runtime_version());
}

static PyObject *
py_driver_version(PyObject *self, PyObject *unused)
{
    return PyLong_FromLong(ca_driver_version());
}

static PyObject *
py_build_info(PyObject *self, PyObject *unused)
{
    const char *cuda_version = NULL, *archs = NULL, *compiler = "unknown";
    int cudart = 0, sanitize = 0;
    cudart = ca_runtime_build_version();
#if CA_HAVE_CUDA && defined(CA_BUILD_CUDA_VERSION)
    cuda_version = CA_BUILD_CUDA_VERSION;
#endif
#if CA_HAVE_CUDA && defined(CA_BUILD_CUDA_ARCHS)
    archs = CA_BUILD_CUDA_ARCHS;
#endif
#if defined(__VERSION__)
    compiler = __VERSION__;
#endif
#if defined(__SANITIZE_ADDRESS__)
    sanitize = 1;
#endif
    return Py_BuildValue("{sssNszszsisNss}", "version", CA_VERSION, "cuda",
                         PyBool_FromLong(CA_HAVE_CUDA), "cuda_version", cuda_version,
                         "cuda_archs", archs, "cudart_version", cudart, "sanitize",
                         PyBool_FromLong(sanitize), "compiler", compiler);
}

static PyMethodDef device_methods[] = {
    { "_graph_launch", py_graph_launch, METH_VARARGS,
      "_graph_launch(graph, stream=None): cuarray.cuda.Graph.launch" },
    { "_graph_upload", py_graph_upload, METH_VARARGS,
      "_graph_upload(graph, stream=None): cuarray.cuda.Graph.upload" },
    { "device_count", py_device_count, METH_NOARGS,
      "device_count()\n--\n\nNumber of usable CUDA devices (0 without a driver or "
      "GPU)." },
    { "is_available", py_is_available, METH_NOARGS,
      "is_available()\n--\n\nTrue if at least one CUDA device is usable." },
    { "get_device_id", py_get_device_id, METH_NOARGS,
      "get_device_id()\n--\n\nOrdinal of the current device of this thread (-1: "
      "cpu)." },
    { "get_current_stream", (PyCFunction)(void (*)(void))py_get_current_stream,
      METH_VARARGS | METH_KEYWORDS,
      "get_current_stream(device=None)\n--\n\n"
      "The thread's current stream on `device` (Stream.null unless one is in use)." },
    { "get_elapsed_time", py_get_elapsed_time, METH_VARARGS,
      "get_elapsed_time(start, end)\n--\n\n"
      "Milliseconds between two recorded events (waits for `end`)." },
    { "runtime_version", py_runtime_version, METH_NOARGS,
      "runtime_version()\n--\n\nThe CUDA runtime's version, e.g. 13000 (0 without "
      "CUDA)." },
    { "driver_version", py_driver_version, METH_NOARGS,
      "driver_version()\n--\n\nThe CUDA driver's version, e.g. 13000 (0 without a "
      "driver)." },
    { "build_info", py_build_info, METH_NOARGS,
      "build_info()\n--\n\nFacts about this build of cuarray._core, as a dict." },
    { "_cuda_initialized", py_cuda_initialized, METH_NOARGS,
      "_cuda_initialized()\n--\n\nTest hook: True once cuarray has called into CUDA." },
    { NULL, NULL, 0, NULL },
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
    if (d == CA_DEVICE_UNSET) {
        PyErr_Format(PyExc_ValueError,
                     "CUARRAY_DEVICE=%s is not a device: use 'cpu', 'cuda' or 'cuda:N'",
                     s);
        return -1;
    }
    env_device = d == CA_ANY_DEVICE ? 0 : d;
    return 0;
}

static int
add_type(PyObject *m, PyType_Spec *spec, PyTypeObject **slot)
{
    *slot = (PyTypeObject *)PyType_FromModuleAndSpec(m, spec, NULL);
    if (*slot == NULL) {
        return -1;
    }
    return PyModule_AddType(m, *slot);
}

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
    if (add_type(m, &device_spec, &ca_st->device_type) < 0 ||
        add_type(m, &stream_spec, &ca_st->stream_type) < 0 ||
        add_type(m, &event_spec, &ca_st->event_type) < 0) {
        return -1;
    }
    /* Stream.null and Stream.ptds: usable on whichever device is current. */
    null_stream = (PyObject *)stream_alloc(NULL, CA_ANY_DEVICE, 0, 0);
    if (null_stream == NULL) {
        return -1;
    }
    ptds_stream = (PyObject *)stream_alloc(CA_STREAM_PER_THREAD, CA_ANY_DEVICE, 0, 0);
    if (ptds_stream == NULL) {
        return -1;
    }
    PyObject *tdict = ca_st->stream_type->tp_dict;
    if (PyDict_SetItemString(tdict, "null", null_stream) < 0 ||
        PyDict_SetItemString(tdict, "ptds", ptds_stream) < 0) {
        return -1;
    }
    PyType_Modified(ca_st->stream_type);
    return PyModule_AddFunctions(m, device_methods);
}

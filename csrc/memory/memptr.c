/*
 * memptr.c: MemoryPointer, CuPy's pointer into a memory object (x.data,
 * cuarray.cuda.MemoryPointer(mem, offset)), with its copies and memsets, and
 * the memory behind ndarray(shape, dtype, memptr=...).
 *
 * `mem` is one of our Memory objects (pool blocks, foreign memory) or any
 * object with `ptr` and `size` (and optionally `device_id`) attributes, as
 * CuPy's BaseMemory subclasses and other libraries' allocations are: an array
 * made over such a pointer keeps the MemoryPointer (and so the memory) alive.
 * Copies go through the launch layer on the device's current stream (or the
 * stream given to the _async forms); the plain forms wait for that stream.
 */
#include "launch.h"

#include <string.h>
#include <structmember.h>

typedef struct {
    PyObject_HEAD char *ptr;
    PyObject *mem; /* the memory object, or None */
    Py_ssize_t offset;
    int device;
    PyObject *dict; /* Python subclasses (PinnedMemoryPointer) */
} CaMemPtr;

static PyTypeObject *memptr_type;

static int
is_memory(PyObject *o)
{
    return Py_IS_TYPE(o, ca_st->memory_type);
}

/* The address an object stands for: a MemoryPointer's ptr, an int, a ctypes
 * pointer (.value), or an object with an int `ptr`. */
static int
address_of(PyObject *o, char **out)
{
    PyObject *v = NULL;
    *out = NULL;
    if (PyObject_TypeCheck(o, memptr_type)) {
        *out = ((CaMemPtr *)o)->ptr;
        return 0;
    }
    if (PyLong_Check(o)) {
        v = Py_NewRef(o);
    }
    else if (PyObject_HasAttrString(o, "value")) {
        v = PyObject_GetAttrString(o, "value"); /* ctypes.c_void_p */
        if (v == Py_None) {
            Py_SETREF(v, PyLong_FromLong(0));
        }
    }
    else if (PyObject_HasAttrString(o, "ptr")) {
        v = PyObject_GetAttrString(o, "ptr");
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "expected a pointer (MemoryPointer, int, ctypes.c_void_p or an "
                     "object with .ptr), got %.100s",
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    void *p;
    if (ca_pointer_from_long(v, &p) < 0) {
        return -1;
    }
    *out = (char *)p;
    return 0;
}

/* mem's base address, size and device. */
static int
memory_info(PyObject *mem, char **base, Py_ssize_t *size, int *device)
{
    if (is_memory(mem)) {
        CaMemory *m = (CaMemory *)mem;
        *base = m->ptr, *size = (Py_ssize_t)m->size, *device = m->device;
        return 0;
    }
    PyObject *s = NULL, *d = NULL;
    if (address_of(mem, base) < 0 ||
        (s = PyObject_GetAttrString(mem, "size")) == NULL) {
        return -1;
    }
    *size = PyNumber_AsSsize_t(s, PyExc_OverflowError);
    Py_DECREF(s);
    if (*size == -1 && PyErr_Occurred()) {
        return -1;
    }
    *device = ca_current_device();
    d = PyObject_GetAttrString(mem, "device_id");
    if (d == NULL) {
        PyErr_Clear();
        return 0;
    }
    long v = PyLong_AsLong(d);
    Py_DECREF(d);
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *device = (int)v;
    return 0;
}

static CaMemPtr *
memptr_make(PyTypeObject *tp, PyObject *mem, char *ptr, Py_ssize_t offset, int device)
{
    CaMemPtr *p = (CaMemPtr *)tp->tp_alloc(tp, 0);
    if (p == NULL) {
        return NULL;
    }
    p->ptr = ptr;
    p->mem = Py_NewRef(mem);
    p->offset = offset;
    p->device = device;
    return p;
}

PyObject *
ca_memptr_new(CaMemory *mem, char *ptr, int device)
{
    if (mem == NULL) {
        return (PyObject *)memptr_make(memptr_type, Py_None, ptr, 0, device);
    }
    /* the address may reach other code: no deferred kernels behind it */
    ca_hook.export_memory(mem);
    return (PyObject *)memptr_make(memptr_type, (PyObject *)mem, ptr,
                                   (Py_ssize_t)(ptr - mem->ptr), device);
}

static PyObject *
MemPtr_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "mem", "offset", NULL };
    PyObject *mem;
    Py_ssize_t offset = 0, size = 0;
    char *base = NULL;
    int device;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|n:MemoryPointer", kwlist, &mem,
                                     &offset)) {
        return NULL;
    }
    if (mem == Py_None) {
        return (PyObject *)memptr_make(tp, mem, NULL, offset, ca_current_device());
    }
    if (memory_info(mem, &base, &size, &device) < 0) {
        return NULL;
    }
    if (is_memory(mem)) {
        ca_hook.export_memory((CaMemory *)mem);
    }
    return (PyObject *)memptr_make(tp, mem, base + offset, offset, device);
}

static int
MemPtr_traverse(CaMemPtr *p, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(p));
    Py_VISIT(p->mem);
    Py_VISIT(p->dict);
    return 0;
}

static int
MemPtr_clear(CaMemPtr *p)
{
    Py_CLEAR(p->mem);
    Py_CLEAR(p->dict);
    return 0;
}

static void
MemPtr_dealloc(CaMemPtr *p)
{
    PyTypeObject *tp = Py_TYPE(p);
    PyObject_GC_UnTrack(p);
    MemPtr_clear(p);
    tp->tp_free(p);
    Py_DECREF(tp);
}

/* ---- copies ------------------------------------------------------------------ */

/* The stream a copy of self's device goes on (NULL on the cpu device). */
static int
copy_stream(CaMemPtr *self, PyObject *stream_obj, ca_stream_t *s)
{
    int ok = 1;
    *s = NULL;
    if (self->device == CA_CPU) {
        return 0;
    }
    if (ca_use_device(self->device) < 0) {
        return -1;
    }
    *s = (stream_obj == NULL || stream_obj == Py_None)
             ? ca_current_stream(self->device)
             : ca_stream_from_object(stream_obj, &ok);
    return ok ? 0 : -1;
}

/* The start of a copy or memset of `size` bytes on self's device: 1 when there
 * is nothing to do (size 0); 0 to go on, with *s the stream (the cpu device:
 * deferred work flushed first, *s unused); -1 on error. */
static int
transfer_start(CaMemPtr *self, Py_ssize_t size, PyObject *stream_obj, ca_stream_t *s)
{
    if (size < 0) {
        PyErr_Format(PyExc_ValueError, "size must be >= 0, not %zd", size);
        return -1;
    }
    if (size == 0) {
        return 1;
    }
    if (copy_stream(self, stream_obj, s) < 0) {
        return -1;
    }
    if (self->device == CA_CPU) {
        ca_launch_flush();
    }
    return 0;
}

/* Copy `size` bytes dst <- src on self's device. */
static PyObject *
do_copy(CaMemPtr *self, char *dst, const char *src, Py_ssize_t size, PyObject *stream,
        int wait)
{
    ca_stream_t s;
    const int st = transfer_start(self, size, stream, &s);
    if (st != 0) {
        return st < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (self->device == CA_CPU) {
        memmove(dst, src, (size_t)size);
        Py_RETURN_NONE;
    }
    int rc = wait ? ca_run_memcpy_wait(dst, src, (size_t)size, s)
                  : ca_run_memcpy_async(dst, src, (size_t)size, s);
    return rc < 0 ? NULL : Py_NewRef(Py_None);
}

/* A host address from `o`: a buffer (bounds checked against size), else a
 * pointer. */
static int
host_address(PyObject *o, Py_ssize_t size, int writable, char **out)
{
    /* pointers first: a MemoryPointer or a ctypes pointer is a buffer too, but
     * of something else */
    if (!PyObject_TypeCheck(o, memptr_type) && !PyLong_Check(o) &&
        !PyObject_HasAttrString(o, "value") && PyObject_CheckBuffer(o)) {
        Py_buffer b;
        if (PyObject_GetBuffer(o, &b, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) {
            return -1;
        }
        *out = (char *)b.buf;
        Py_ssize_t len = b.len;
        PyBuffer_Release(&b);
        if (len < size) {
            PyErr_Format(PyExc_ValueError,
                         "the host buffer holds %zd bytes; %zd were asked for", len,
                         size);
            return -1;
        }
        return 0;
    }
    return address_of(o, out);
}

/* (mem, size[, stream]) of the copy methods. */
static int
copy_args(PyObject *args, PyObject *kwds, const char *fmt, PyObject **mem,
          Py_ssize_t *size, PyObject **stream)
{
    static char *kwlist[] = { "mem", "size", "stream", NULL };
    *stream = Py_None;
    return PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, mem, size, stream) ? 0
                                                                                   : -1;
}

#define COPY_METHOD(name, fmt, to_host, host_side, wait)                               \
    static PyObject *MemPtr_##name(CaMemPtr *self, PyObject *args, PyObject *kwds)     \
    {                                                                                  \
        PyObject *mem, *stream;                                                        \
        Py_ssize_t size;                                                               \
        char *other;                                                                   \
        if (copy_args(args, kwds, fmt, &mem, &size, &stream) < 0) {                    \
            return NULL;                                                               \
        }                                                                              \
        if ((host_side ? host_address(mem, size, to_host, &other)                      \
                       : address_of(mem, &other)) < 0) {                               \
            return NULL;                                                               \
        }                                                                              \
        return to_host ? do_copy(self, other, self->ptr, size, stream, wait)           \
                       : do_copy(self, self->ptr, other, size, stream, wait);          \
    }

COPY_METHOD(copy_from_device, "On|$O:copy_from_device", 0, 0, 1)
COPY_METHOD(copy_from_device_async, "On|O:copy_from_device_async", 0, 0, 0)
COPY_METHOD(copy_from_host, "On|$O:copy_from_host", 0, 1, 1)
COPY_METHOD(copy_from_host_async, "On|O:copy_from_host_async", 0, 1, 0)
COPY_METHOD(copy_from, "On|$O:copy_from", 0, 1, 1)
COPY_METHOD(copy_from_async, "On|O:copy_from_async", 0, 1, 0)
COPY_METHOD(copy_to_host, "On|$O:copy_to_host", 1, 1, 1)
COPY_METHOD(copy_to_host_async, "On|O:copy_to_host_async", 1, 1, 0)

static PyObject *
memset_impl(CaMemPtr *self, PyObject *args, PyObject *kwds, int wait)
{
    static char *kwlist[] = { "value", "size", "stream", NULL };
    int value;
    Py_ssize_t size;
    PyObject *stream = Py_None;
    ca_stream_t s;
    if (!PyArg_ParseTupleAndKeywords(args, kwds,
                                     wait ? "in|$O:memset" : "in|O:memset_async",
                                     kwlist, &value, &size, &stream)) {
        return NULL;
    }
    const int st = transfer_start(self, size, stream, &s);
    if (st != 0) {
        return st < 0 ? NULL : Py_NewRef(Py_None);
    }
    if (self->device == CA_CPU) {
        memset(self->ptr, value, (size_t)size);
        Py_RETURN_NONE;
    }
    return ca_run_memset(self->ptr, value, (size_t)size, s, wait) < 0
               ? NULL
               : Py_NewRef(Py_None);
}

static PyObject *
MemPtr_memset(CaMemPtr *self, PyObject *args, PyObject *kwds)
{
    return memset_impl(self, args, kwds, 1);
}

static PyObject *
MemPtr_memset_async(CaMemPtr *self, PyObject *args, PyObject *kwds)
{
    return memset_impl(self, args, kwds, 0);
}

/* ---- arithmetic, attributes ------------------------------------------------- */

static PyObject *
shifted(PyObject *a, PyObject *b, int sign)
{
    if (!PyObject_TypeCheck(a, memptr_type) || !PyLong_Check(b)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    CaMemPtr *p = (CaMemPtr *)a;
    Py_ssize_t n = PyLong_AsSsize_t(b);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    n *= sign;
    if (p->mem == Py_None || Py_IS_TYPE(a, memptr_type)) {
        return (PyObject *)memptr_make(Py_TYPE(a), p->mem, p->ptr + n, p->offset + n,
                                       p->device);
    }
    /* a Python subclass (PinnedMemoryPointer): its own constructor */
    return PyObject_CallFunction((PyObject *)Py_TYPE(a), "On", p->mem, p->offset + n);
}

static PyObject *
MemPtr_add(PyObject *a, PyObject *b)
{
    if (PyLong_Check(a)) {
        return shifted(b, a, 1);
    }
    return shifted(a, b, 1);
}

static PyObject *
MemPtr_sub(PyObject *a, PyObject *b)
{
    return shifted(a, b, -1);
}

static PyObject *
MemPtr_int(CaMemPtr *p)
{
    return PyLong_FromVoidPtr(p->ptr);
}

CA_GETTER(MemPtr_get_ptr, CaMemPtr, PyLong_FromVoidPtr(self->ptr))
CA_GETTER(MemPtr_get_device, CaMemPtr, ca_device_object(self->device))

static PyObject *
MemPtr_repr(CaMemPtr *p)
{
    char buf[CA_DEVICE_NAME_LEN];
    return PyUnicode_FromFormat("<%s %p on %s>", Py_TYPE(p)->tp_name, (void *)p->ptr,
                                ca_device_name(p->device, buf));
}

static PyObject *
MemPtr_richcompare(PyObject *a, PyObject *b, int op)
{
    char *x, *y;
    if (!PyObject_TypeCheck(a, memptr_type) || !PyObject_TypeCheck(b, memptr_type)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    x = ((CaMemPtr *)a)->ptr, y = ((CaMemPtr *)b)->ptr;
    Py_RETURN_RICHCOMPARE((uintptr_t)x, (uintptr_t)y, op);
}

static Py_hash_t
MemPtr_hash(CaMemPtr *p)
{
    Py_hash_t h = (Py_hash_t)(uintptr_t)p->ptr;
    return h == -1 ? -2 : h;
}

/* Host-accessible memory (pinned, managed, host) exports a buffer: what
 * numpy.frombuffer(alloc_pinned_memory(n), ...) reads. */
static int
MemPtr_getbuffer(CaMemPtr *self, Py_buffer *view, int flags)
{
    char *host = NULL;
    Py_ssize_t size = 0;
    view->obj = NULL;
    if (self->mem == Py_None) {
        PyErr_SetString(PyExc_BufferError, "a MemoryPointer without memory");
        return -1;
    }
    if (is_memory(self->mem)) {
        Py_buffer inner; /* Memory's checks: device memory refuses, managed syncs */
        if (PyObject_GetBuffer(self->mem, &inner, PyBUF_SIMPLE) < 0) {
            return -1;
        }
        host = (char *)inner.buf + self->offset;
        size = inner.len - self->offset;
        PyBuffer_Release(&inner);
    }
    else {
        ca_pointer_info info;
        int device;
        if (memory_info(self->mem, &host, &size, &device) < 0) {
            return -1;
        }
        if (ca_rt_pointer_info(host, &info) != 0 ||
            (info.type != CA_PTR_HOST && info.type != CA_PTR_MANAGED &&
             device != CA_CPU)) {
            PyErr_SetString(PyExc_BufferError,
                            "this memory is not host-accessible: no buffer");
            return -1;
        }
        host =
            (info.type == CA_PTR_HOST && info.host_ptr ? (char *)info.host_ptr : host) +
            self->offset;
        size -= self->offset;
    }
    return PyBuffer_FillInfo(view, (PyObject *)self, host, size < 0 ? 0 : size, 0,
                             flags);
}

/* ---- ndarray(shape, dtype, memptr=...) --------------------------------------- */

/* The kind of foreign memory at `ptr` (and its host address). */
static int
foreign_kind(char *ptr, int device, ca_memkind *kind, char **host)
{
    ca_pointer_info info;
    *host = NULL;
    if (device == CA_CPU) {
        *kind = CA_MEM_HOST, *host = ptr;
        return 0;
    }
    int st = ca_rt_pointer_info(ptr, &info);
    if (st != 0) {
        return ca_cuda_error_int(st, "cudaPointerGetAttributes(memptr.ptr)");
    }
    switch (info.type) {
    case CA_PTR_DEVICE: *kind = CA_MEM_DEVICE; return 0;
    case CA_PTR_MANAGED: *kind = CA_MEM_MANAGED, *host = ptr; return 0;
    case CA_PTR_HOST: *kind = CA_MEM_PINNED, *host = (char *)info.host_ptr; return 0;
    default:
        PyErr_Format(PyExc_ValueError,
                     "memptr 0x%llx is not CUDA memory (pageable host memory or an "
                     "invalid pointer)",
                     (unsigned long long)(uintptr_t)ptr);
        return -1;
    }
}

CaMemory *
ca_memptr_memory(PyObject *obj, char **data, Py_ssize_t *before, Py_ssize_t *avail)
{
    PyObject *mem = obj;
    Py_ssize_t offset = 0, size = 0;
    char *base = NULL, *host = NULL;
    int device;
    ca_memkind kind = CA_MEM_DEVICE;
    if (PyObject_TypeCheck(obj, memptr_type)) {
        mem = ((CaMemPtr *)obj)->mem;
        offset = ((CaMemPtr *)obj)->offset;
        if (mem == Py_None) {
            PyErr_SetString(PyExc_ValueError, "memptr has no memory");
            return NULL;
        }
    }
    if (is_memory(mem)) {
        CaMemory *m = (CaMemory *)mem;
        *data = m->ptr + offset;
        *avail = (Py_ssize_t)m->size - offset;
        *before = offset;
        return (CaMemory *)Py_NewRef(mem);
    }
    if (memory_info(mem, &base, &size, &device) < 0) {
        return NULL;
    }
    *data = base + offset;
    *avail = size - offset;
    *before = offset;
    if (foreign_kind(base, device, &kind, &host) < 0) {
        return NULL;
    }
    if (kind != CA_MEM_HOST && kind != CA_MEM_DEVICE && device == CA_CPU) {
        device = 0;
    }
    return ca_memory_foreign(base, host, (size_t)size, device, kind, obj);
}

/* ---- the type ----------------------------------------------------------------- */

#define M(name, doc)                                                                   \
    {                                                                                  \
#name, CA_VARKW(MemPtr_##name), doc                                            \
    }

static PyMethodDef memptr_methods[] = {
    M(copy_from_device, "copy_from_device(src, size)\n--\n\nCopy `size` bytes from "
                        "the device pointer `src`; waits for the copy."),
    M(copy_from_device_async, "copy_from_device_async(src, size, stream=None)\n--\n\n"
                              "The same, queued on `stream` (default: current)."),
    M(copy_from_host, "copy_from_host(mem, size)\n--\n\nCopy `size` bytes from host "
                      "memory (a pointer or a buffer)."),
    M(copy_from_host_async, "copy_from_host_async(mem, size, stream=None)\n--\n\n"
                            "The same, queued on `stream`."),
    M(copy_from, "copy_from(mem, size)\n--\n\nCopy from a device or host pointer."),
    M(copy_from_async, "copy_from_async(mem, size, stream=None)\n--\n\nThe same, "
                       "queued on `stream`."),
    M(copy_to_host, "copy_to_host(mem, size)\n--\n\nCopy `size` bytes to host memory "
                    "(a pointer or a writable buffer); waits."),
    M(copy_to_host_async, "copy_to_host_async(mem, size, stream=None)\n--\n\nThe "
                          "same, queued on `stream`."),
    M(memset,
      "memset(value, size)\n--\n\nSet `size` bytes to `value` (a byte); waits."),
    M(memset_async, "memset_async(value, size, stream=None)\n--\n\nThe same, queued on "
                    "`stream`."),
    { NULL, NULL, 0, NULL },
};

static PyGetSetDef memptr_getset[] = {
    { "ptr", (getter)MemPtr_get_ptr, NULL, "the address, an int", NULL },
    { "device", (getter)MemPtr_get_device, NULL, "the Device", NULL },
    { NULL, NULL, NULL, NULL, NULL },
};

static PyMemberDef memptr_members[] = {
    { "__dictoffset__", T_PYSSIZET, offsetof(CaMemPtr, dict), READONLY, NULL },
    { "mem", T_OBJECT, offsetof(CaMemPtr, mem), READONLY,
      "the memory the address lies in" },
    { "offset", T_PYSSIZET, offsetof(CaMemPtr, offset), READONLY,
      "bytes from mem's start" },
    { "device_id", T_INT, offsetof(CaMemPtr, device), READONLY,
      "device ordinal (-1: cpu)" },
    { NULL, 0, 0, 0, NULL },
};

static PyType_Slot memptr_slots[] = {
    { Py_tp_new, MemPtr_new },
    { Py_tp_dealloc, MemPtr_dealloc },
    { Py_tp_traverse, MemPtr_traverse },
    { Py_tp_clear, MemPtr_clear },
    { Py_tp_methods, memptr_methods },
    { Py_tp_getset, memptr_getset },
    { Py_tp_members, memptr_members },
    { Py_tp_repr, MemPtr_repr },
    { Py_tp_richcompare, MemPtr_richcompare },
    { Py_tp_hash, MemPtr_hash },
    { Py_nb_int, MemPtr_int },
    { Py_nb_index, MemPtr_int },
    { Py_nb_add, MemPtr_add },
    { Py_nb_subtract, MemPtr_sub },
    { Py_bf_getbuffer, MemPtr_getbuffer },
    { Py_tp_doc, "MemoryPointer(mem, offset)\n--\n\nA pointer `offset` bytes into the "
                 "memory `mem` (CuPy's): .ptr, .mem,\n.offset, .device_id; copies and "
                 "memsets; `p + n` is another pointer." },
    { 0, NULL },
};

CA_TYPE_SPEC(memptr_spec, "cuarray.cuda.MemoryPointer", CaMemPtr,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
             memptr_slots);

int
ca_memptr_init(PyObject *m)
{
    memptr_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &memptr_spec, NULL);
    if (memptr_type == NULL) {
        return -1;
    }
    ca_st->memptr_type = memptr_type;
    Py_INCREF(memptr_type); /* the state and this file each hold one */
    return PyModule_AddObjectRef(m, "MemoryPointer", (PyObject *)memptr_type);
}

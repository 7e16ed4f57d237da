/*
 * memory.c: the Memory object (a pool block, or foreign memory kept alive by its
 * owner) and the upstream allocators for each memory kind.
 *
 * Milestone 1: blocks come straight from the upstream (cudaMalloc,
 * cudaMallocManaged, cudaHostAlloc, malloc). The pool (pool.c) goes under it next.
 */
#include "cuarray.h"

#include <stdlib.h>
#include <structmember.h>

const char *const ca_memkind_name[CA_MEM_NKINDS] = {"device", "managed", "pinned", "host"};

/* ======================================================================== */
/* Upstreams: one per memory kind                                           */
/* ======================================================================== */
/*
 * Each returns 0 or a status (a cudaError_t, or CA_KERR_NOMEM for malloc). They
 * are called with the GIL held and release it around the blocking CUDA calls.
 * The caller has made `device` current on this thread.
 */
typedef struct {
    int device;
    ca_memkind kind;
} mem_ctx;

static int
upstream_alloc(void *vctx, size_t size, char **out)
{
    mem_ctx *ctx = (mem_ctx *)vctx;
    void *p = NULL;
    int st = 0;
    *out = NULL;
    switch (ctx->kind) {
    case CA_MEM_DEVICE:
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaMalloc(&p, size);
        Py_END_ALLOW_THREADS
        break;
    case CA_MEM_MANAGED:
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaMallocManaged(&p, size, cudaMemAttachGlobal);
        Py_END_ALLOW_THREADS
        break;
    case CA_MEM_PINNED: {
        void *dp = NULL;
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaHostAlloc(&p, size, cudaHostAllocMapped | cudaHostAllocPortable);
        if (st == 0) {
            /* Kernels get the device pointer; with unified addressing (every
             * 64-bit platform CUDA supports) it equals the host pointer, which
             * lets one address serve both sides. */
            st = (int)cudaHostGetDevicePointer(&dp, p, 0);
            if (st == 0 && dp != p) {
                st = (int)cudaErrorInvalidValue;
            }
            if (st != 0) {
                (void)cudaFreeHost(p);
                p = NULL;
            }
        }
        Py_END_ALLOW_THREADS
        break;
    }
    case CA_MEM_HOST:
    default:
        /* 512-byte alignment like the device allocations; size is a multiple
         * of 512 so aligned_alloc's rule holds. */
        p = aligned_alloc(512, size);
        st = p == NULL ? CA_KERR_NOMEM : 0;
        break;
    }
    if (st != 0 && ctx->kind != CA_MEM_HOST) {
        /* A failed cudaMalloc also sets the runtime's last error; clear it so a
         * later launch check does not report this allocation failure. */
        (void)cudaGetLastError();
    }
    *out = (char *)p;
    return st;
}

static int
upstream_free(void *vctx, char *ptr, size_t size)
{
    mem_ctx *ctx = (mem_ctx *)vctx;
    int st = 0;
    (void)size;
    switch (ctx->kind) {
    case CA_MEM_DEVICE:
    case CA_MEM_MANAGED:
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaFree(ptr);
        Py_END_ALLOW_THREADS
        break;
    case CA_MEM_PINNED:
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaFreeHost(ptr);
        Py_END_ALLOW_THREADS
        break;
    case CA_MEM_HOST:
    default:
        free(ptr);
        break;
    }
    return st;
}

static int
kind_valid_for(int device, ca_memkind kind)
{
    if (kind < 0 || kind >= CA_MEM_NKINDS) {
        PyErr_Format(PyExc_ValueError, "invalid memory kind %d", (int)kind);
        return -1;
    }
    if (device == CA_CPU && kind != CA_MEM_HOST) {
        PyErr_Format(PyExc_ValueError,
                     "%s memory needs a CUDA device; the cpu device has host memory "
                     "only",
                     ca_memkind_name[kind]);
        return -1;
    }
    if (device != CA_CPU && kind == CA_MEM_HOST) {
        PyErr_SetString(PyExc_ValueError,
                        "host memory belongs to the cpu device; for host memory a GPU "
                        "can reach, use pinned or managed memory");
        return -1;
    }
    return 0;
}

/* ======================================================================== */
/* The Memory object                                                        */
/* ======================================================================== */

static CaMemory *
memory_new(char *ptr, char *host_ptr, size_t size, int device, ca_memkind kind)
{
    CaMemory *m = PyObject_New(CaMemory, ca_st->memory_type);
    if (m == NULL) {
        return NULL;
    }
    m->ptr = ptr;
    m->host_ptr = host_ptr;
    m->size = size;
    m->device = device;
    m->kind = kind;
    m->pool = NULL;
    m->block = NULL;
    m->owner = NULL;
    m->registered = 0;
    m->exports = 0;
    m->weakreflist = NULL;
    return m;
}

CaMemory *
ca_memory_alloc(int device, ca_memkind kind, size_t nbytes, ca_stream_t stream)
{
    mem_ctx ctx = {device, kind};
    char *p = NULL;
    int st;
    CaMemory *m = NULL;
    (void)stream;
    if (kind_valid_for(device, kind) < 0) {
        return NULL;
    }
    if (nbytes == 0) {
        PyErr_SetString(PyExc_SystemError, "ca_memory_alloc: zero-size request");
        return NULL;
    }
    if (device != CA_CPU && ca_use_device(device) < 0) {
        return NULL;
    }
    st = upstream_alloc(&ctx, (nbytes + 511) & ~(size_t)511, &p);
    if (st != 0) {
        if (st == CA_KERR_NOMEM || st == cudaErrorMemoryAllocation) {
            PyErr_Format(ca_st->OutOfMemoryError,
                         "out of memory allocating %zu bytes of %s memory", nbytes,
                         ca_memkind_name[kind]);
            return NULL;
        }
        return (CaMemory *)ca_cuda_error(st, "cudaMalloc");
    }
    m = memory_new(p, kind == CA_MEM_DEVICE ? NULL : p, nbytes, device, kind);
    if (m == NULL) {
        (void)upstream_free(&ctx, p, nbytes);
        return NULL;
    }
    return m;
}

CaMemory *
ca_memory_foreign(char *ptr, char *host_ptr, size_t size, int device, ca_memkind kind,
                  PyObject *owner)
{
    CaMemory *m = memory_new(ptr, host_ptr, size, device, kind);
    if (m == NULL) {
        return NULL;
    }
    Py_XINCREF(owner);
    m->owner = owner;
    return m;
}

static void
Memory_dealloc(CaMemory *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    if (self->owner != NULL || self->registered) {
        if (self->registered) {
            int st = (int)cudaHostUnregister(self->host_ptr);
            if (st != 0) {
                ca_cuda_warn_unraisable(st, "cudaHostUnregister");
            }
        }
        Py_CLEAR(self->owner);
    }
    else if (self->ptr != NULL || self->host_ptr != NULL) {
        mem_ctx ctx = {self->device, self->kind};
        char *base = self->kind == CA_MEM_DEVICE ? self->ptr : self->host_ptr;
        int st = upstream_free(&ctx, base, self->size);
        if (st != 0) {
            ca_cuda_warn_unraisable(st, "cudaFree");
        }
    }
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *
Memory_get_ptr(CaMemory *self, void *closure)
{
    return PyLong_FromVoidPtr(self->ptr);
}

static PyObject *
Memory_get_size(CaMemory *self, void *closure)
{
    return PyLong_FromSize_t(self->size);
}

static PyObject *
Memory_get_device(CaMemory *self, void *closure)
{
    return ca_device_object(self->device);
}

static PyObject *
Memory_get_kind(CaMemory *self, void *closure)
{
    return PyUnicode_FromString(ca_memkind_name[self->kind]);
}

/* The CAI `stream` entry: the stream that may hold pending work on this memory.
 * Foreign memory and memory without a stream export None. */
static PyObject *
memory_cai_stream(CaMemory *self)
{
    Py_RETURN_NONE;
}

static PyObject *
Memory_get_cai(CaMemory *self, void *closure)
{
    PyObject *stream = NULL, *res = NULL;
    if (self->kind == CA_MEM_HOST) {
        PyErr_SetString(PyExc_AttributeError,
                        "host memory has no __cuda_array_interface__: a GPU cannot "
                        "address it");
        return NULL;
    }
    stream = memory_cai_stream(self);
    if (stream == NULL) {
        return NULL;
    }
    res = Py_BuildValue("{s:(n),s:s,s:[(s,s)],s:(NO),s:i,s:O,s:O}", "shape",
                        (Py_ssize_t)self->size, "typestr", "|u1", "descr", "", "|u1",
                        "data", PyLong_FromVoidPtr(self->ptr), Py_False, "version", 3,
                        "strides", Py_None, "stream", stream);
    Py_DECREF(stream);
    return res;
}

static PyObject *
Memory_repr(CaMemory *self)
{
    if (self->device == CA_CPU) {
        return PyUnicode_FromFormat("<cuarray.cuda.Memory ptr=%p size=%zu kind='%s' "
                                    "device=cpu>",
                                    self->ptr, self->size, ca_memkind_name[self->kind]);
    }
    return PyUnicode_FromFormat("<cuarray.cuda.Memory ptr=%p size=%zu kind='%s' "
                                "device=cuda:%d>",
                                self->ptr, self->size, ca_memkind_name[self->kind],
                                self->device);
}

static int
Memory_getbuffer(CaMemory *self, Py_buffer *view, int flags)
{
    if (self->kind == CA_MEM_DEVICE) {
        PyErr_SetString(PyExc_BufferError,
                        "device memory is not host-accessible and cannot export a "
                        "buffer; copy it to the host first (an array's .get()), or "
                        "allocate managed or pinned memory");
        view->obj = NULL;
        return -1;
    }
    if (self->kind == CA_MEM_MANAGED && self->size > 0) {
        /* The GPU may still be writing this memory: the host must not touch
         * managed memory while kernels that use it run. */
        ca_stream_t s;
        int st;
        if (ca_use_device(self->device) < 0) {
            view->obj = NULL;
            return -1;
        }
        s = ca_current_stream(self->device);
        Py_BEGIN_ALLOW_THREADS
        st = (int)cudaStreamSynchronize((cudaStream_t)s);
        Py_END_ALLOW_THREADS
        if (st != 0) {
            ca_cuda_error(st, "cudaStreamSynchronize");
            view->obj = NULL;
            return -1;
        }
    }
    if (PyBuffer_FillInfo(view, (PyObject *)self, self->host_ptr,
                          (Py_ssize_t)self->size, 0, flags) < 0) {
        return -1;
    }
    self->exports++;
    return 0;
}

static void
Memory_releasebuffer(CaMemory *self, Py_buffer *view)
{
    self->exports--;
}

static PyGetSetDef Memory_getset[] = {
    {"ptr", (getter)Memory_get_ptr, NULL, "The address kernels use (int).", NULL},
    {"size", (getter)Memory_get_size, NULL, "Size in bytes (as requested).", NULL},
    {"device", (getter)Memory_get_device, NULL, "The Device the memory belongs to.",
     NULL},
    {"kind", (getter)Memory_get_kind, NULL,
     "'device', 'managed', 'pinned' or 'host'.", NULL},
    {"__cuda_array_interface__", (getter)Memory_get_cai, NULL,
     "CUDA Array Interface v3 (1-D bytes) for GPU-accessible memory.", NULL},
    {NULL},
};

static PyMemberDef Memory_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(CaMemory, weakreflist), READONLY},
    {NULL},
};

PyDoc_STRVAR(Memory_doc,
"Memory\n"
"--\n\n"
"A block of memory on a device: a pool block, or foreign memory kept alive by a\n"
"reference to its owner. Made by ``MemoryPool.malloc``, never directly.\n\n"
"Attributes\n"
"----------\n"
"ptr : int\n    The address kernels use.\n"
"size : int\n    Bytes requested.\n"
"device : Device\n"
"kind : str\n    'device', 'managed', 'pinned' or 'host'.\n\n"
"Host-accessible memory (managed, pinned, host) exports the buffer protocol as\n"
"writable unsigned bytes; GPU-accessible memory (device, managed, pinned) has\n"
"``__cuda_array_interface__``.");

static PyType_Slot Memory_slots[] = {
    {Py_tp_dealloc, Memory_dealloc},
    {Py_tp_repr, Memory_repr},
    {Py_tp_getset, Memory_getset},
    {Py_tp_members, Memory_members},
    {Py_tp_doc, (void *)Memory_doc},
    {Py_bf_getbuffer, Memory_getbuffer},
    {Py_bf_releasebuffer, Memory_releasebuffer},
    {0, NULL},
};

static PyType_Spec Memory_spec = {
    .name = "cuarray.cuda.Memory",
    .basicsize = sizeof(CaMemory),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE |
             Py_TPFLAGS_DISALLOW_INSTANTIATION,
    .slots = Memory_slots,
};

/* ======================================================================== */
/* Module init                                                              */
/* ======================================================================== */

int
ca_memory_init(PyObject *m)
{
    ca_st->memory_type = (PyTypeObject *)PyType_FromModuleAndSpec(m, &Memory_spec, NULL);
    if (ca_st->memory_type == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "Memory", (PyObject *)ca_st->memory_type) < 0) {
        return -1;
    }
    return 0;
}

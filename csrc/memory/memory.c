/*
 * memory.c: the Memory object (a pool block, or foreign memory kept alive by its
 * owner), the pools of each (device, memory kind) with their CUDA upstreams, and
 * the Python MemoryPool handles.
 *
 * Pools live as long as the process: a Memory may be freed during interpreter
 * shutdown, and freeing into a pool never calls CUDA, so that is always safe.
 * All pool calls here hold the GIL; the upstreams release it around the blocking
 * CUDA calls (pool.c drops its own mutex around them, see pool.h).
 */
#include "launch.h"
#include "memory_hooks.h"
#include "pool_upstream.h"

#include <stdlib.h>
#include <string.h>
#include <structmember.h>
#include <unistd.h>

_Static_assert(CA_STREAM_FOREIGN_BIT == CA_POOL_STREAM_FOREIGN_BIT,
               "device.c tags foreign streams with the bit the pools test");

const char *const ca_memkind_name[CA_MEM_NKINDS] = { "device", "managed", "pinned",
                                                     "host" };

#define MAX_DEVICES  64             /* as device.c */
#define SLOT(device) ((device) + 1) /* slot 0: the cpu */

static ca_pool *pools[MAX_DEVICES + 1][CA_MEM_NKINDS];

/* ======================================================================== */
/* Pools per (device, kind)                                                  */
/* ======================================================================== */

static int
check_kind(int device, int kind)
{
    if (kind < 0 || kind >= CA_MEM_NKINDS) {
        PyErr_Format(PyExc_ValueError, "invalid memory kind %d", kind);
        return -1;
    }
    if (device < CA_CPU || device >= MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "invalid device ordinal %d", device);
        return -1;
    }
    if (device == CA_CPU && kind != CA_MEM_HOST) {
        PyErr_Format(PyExc_ValueError,
                     "%s memory needs a CUDA device; the cpu device has host "
                     "memory only",
                     ca_memkind_name[kind]);
        return -1;
    }
    if (device != CA_CPU && kind == CA_MEM_HOST) {
        PyErr_SetString(PyExc_ValueError,
                        "host memory belongs to the cpu device; for host memory a "
                        "GPU can reach, use pinned or managed memory");
        return -1;
    }
    return 0;
}

/* Total bytes a `fraction` or percentage limit refers to: the GPU's memory for
 * device and managed pools, the machine's RAM for pinned and host pools. */
static int
capacity_of(int device, ca_memkind kind, size_t *out)
{
    if (kind == CA_MEM_DEVICE || kind == CA_MEM_MANAGED) {
        size_t free_b = 0, total_b = 0;
        if (ca_run_mem_get_info(&free_b, &total_b) < 0) {
            return -1;
        }
        *out = total_b;
        return 0;
    }
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || page <= 0) {
        PyErr_SetString(PyExc_OSError, "cannot read the size of the machine's memory");
        return -1;
    }
    *out = (size_t)pages * (size_t)page;
    return 0;
}

/* CUARRAY_GPU_MEMORY_LIMIT: bytes, or a percentage of the GPU's memory ("50%").
 * 0 when unset. -1 with ValueError when malformed. */
static int
env_limit(int device, size_t *out)
{
    const char *v = getenv("CUARRAY_GPU_MEMORY_LIMIT");
    char *end = NULL;
    *out = 0;
    if (v == NULL || *v == '\0') {
        return 0;
    }
    size_t n = strlen(v);
    if (v[n - 1] == '%') {
        double pct = strtod(v, &end);
        size_t cap = 0;
        if (end != v + n - 1 || !(pct > 0.0 && pct <= 100.0)) {
            goto bad;
        }
        if (capacity_of(device, CA_MEM_DEVICE, &cap) < 0) {
            return -1;
        }
        *out = (size_t)((double)cap * pct / 100.0);
        return 0;
    }
    if (v[0] < '0' || v[0] > '9') {
        goto bad;
    }
    unsigned long long b = strtoull(v, &end, 10);
    if (*end != '\0') {
        goto bad;
    }
    *out = (size_t)b;
    return 0;
bad:
    PyErr_Format(PyExc_ValueError,
                 "CUARRAY_GPU_MEMORY_LIMIT=%s: expected a number of bytes or a "
                 "percentage of the GPU's memory such as '50%%'",
                 v);
    return -1;
}

/* The pool of (device, kind), created on first use. For a GPU, the caller has
 * made the device current (ca_use_device). */
static ca_pool *
get_pool(int device, ca_memkind kind)
{
    ca_pool *p = pools[SLOT(device)][kind];
    if (p != NULL) {
        return p;
    }
    size_t limit = 0;
    if (kind == CA_MEM_DEVICE && env_limit(device, &limit) < 0) {
        return NULL;
    }
    if (kind == CA_MEM_HOST) {
        p = ca_pool_new(&ca_pool_malloc_upstream);
    }
    else {
        ca_pool_upstream up = ca_pool_cuda_upstream(device, kind);
        p = ca_pool_new(&up);
    }
    if (p == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    ca_pool_set_limit(p, limit);
    pools[SLOT(device)][kind] = p;
    return p;
}

static int
use_device(int device)
{
    return device == CA_CPU ? 0 : ca_use_device(device);
}

static void
format_bytes(char *buf, size_t n, size_t bytes)
{
    if (bytes >= ((size_t)1 << 30)) {
        snprintf(buf, n, "%zu bytes (%.2f GiB)", bytes, (double)bytes / (1 << 30));
    }
    else if (bytes >= ((size_t)1 << 20)) {
        snprintf(buf, n, "%zu bytes (%.2f MiB)", bytes, (double)bytes / (1 << 20));
    }
    else {
        snprintf(buf, n, "%zu bytes", bytes);
    }
}

/* OutOfMemoryError naming what was asked, what is in use, what is cached and
 * the limit; any other upstream status becomes a CUDAError. */
static void
alloc_error(ca_pool *p, int st, int device, ca_memkind kind, size_t nbytes)
{
    static const char *const calls[CA_MEM_NKINDS] = {
        "cudaMalloc(&ptr, size)", "cudaMallocManaged(&ptr, size, cudaMemAttachGlobal)",
        "cudaHostAlloc(&ptr, size, cudaHostAllocMapped | cudaHostAllocPortable)",
        "aligned_alloc(512, size)"
    };
    ca_pool_stats s;
    char req[64], used[64], cached[64], limit[96], where[32];
    if (st != CA_POOL_ELIMIT && st != CA_POOL_ENOMEM && st != CA_POOL_EINVAL &&
        !ca_pool_upstream_out_of_memory(st)) {
        ca_cuda_error(st, calls[kind]);
        return;
    }
    ca_pool_get_stats(p, &s);
    format_bytes(req, sizeof(req), nbytes);
    format_bytes(used, sizeof(used), s.used_bytes);
    format_bytes(cached, sizeof(cached), s.free_bytes);
    if (s.limit) {
        format_bytes(limit, sizeof(limit), s.limit);
    }
    else {
        snprintf(limit, sizeof(limit), "none");
    }
    PyErr_Format(ca_st->OutOfMemoryError,
                 "out of memory allocating %s of %s memory on %s (%s): %s in use, %s "
                 "cached in the pool after releasing what it could, limit %s. Free "
                 "arrays you no longer need, or raise the limit with "
                 "pool.set_limit() / CUARRAY_GPU_MEMORY_LIMIT.",
                 req, ca_memkind_name[kind], ca_device_name(device, where),
                 st == CA_POOL_ELIMIT ? "the pool's limit would be exceeded"
                                      : "the allocator has no more",
                 used, cached, limit);
}

/* ======================================================================== */
/* The Memory object                                                        */
/* ======================================================================== */

static inline CaMemory *
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
    m->shared = 0;
    m->pending = 0;
    return m;
}

/* A Memory from pool p (device already current). nbytes == 0: no block. */
static CaMemory *
memory_from_pool(ca_pool *p, int device, ca_memkind kind, size_t nbytes,
                 ca_stream_t stream)
{
    ca_block *b = NULL;
    CaMemory *m;
    /* While this thread captures a graph (graph.c), the pool must not wait for
     * another stream or the device: CUDA refuses both during a capture. */
    ca_stream_t tag = ca_stream_pool_tag(stream);
    int st = ca_capture_keep != NULL ? ca_pool_alloc_capturing(p, nbytes, tag, &b)
                                     : ca_pool_alloc(p, nbytes, tag, &b);
    if (st != 0) {
        alloc_error(p, st, device, kind, nbytes);
        return NULL;
    }
    if (b == NULL) {
        return memory_new(NULL, NULL, 0, device, kind);
    }
    m = memory_new(b->ptr, kind == CA_MEM_DEVICE ? NULL : b->ptr, nbytes, device, kind);
    if (m == NULL) {
        ca_pool_free(p, b);
        return NULL;
    }
    m->pool = p;
    m->block = b;
    if (ca_capture_keep != NULL && PyList_Append(ca_capture_keep, (PyObject *)m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

/* ---- set_allocator: a Python allocator in place of the device pools ------------ */

/* The process-wide allocator (cuarray.cuda.set_allocator) and this thread's
 * override (using_allocator); NULL: the pools. */
static PyObject *g_allocator;
static _Thread_local PyObject *tl_allocator;
static _Thread_local int tl_allocator_set;
/* Inside an allocator call: its own allocations come from the pools. */
static _Thread_local int in_allocator;

/* Device memory from `f(nbytes)` (a MemoryPointer, a Memory or an object with
 * ptr/size/device_id), wrapped as the Memory of an array. */
static CaMemory *
memory_from_allocator(PyObject *f, int device, size_t nbytes)
{
    char *data = NULL;
    Py_ssize_t avail = 0, before = 0;
    in_allocator = 1;
    PyObject *r = PyObject_CallFunction(f, "n", (Py_ssize_t)nbytes);
    in_allocator = 0;
    if (r == NULL) {
        return NULL;
    }
    CaMemory *m = ca_hook.memptr_memory(r, &data, &before, &avail);
    if (m == NULL) {
        Py_DECREF(r);
        return NULL;
    }
    if (avail < (Py_ssize_t)nbytes || m->device != device ||
        (m->kind != CA_MEM_DEVICE && m->kind != CA_MEM_MANAGED)) {
        PyErr_Format(
            PyExc_ValueError,
            "the allocator set by set_allocator returned %zd bytes of %s memory "
            "on device %d for a request of %zu bytes of device memory on "
            "device %d",
            avail, ca_memkind_name[m->kind], m->device, nbytes, device);
        Py_DECREF(m);
        Py_DECREF(r);
        return NULL;
    }
    if (data != m->ptr) { /* a pointer into the middle: an array starts at ptr */
        Py_SETREF(m, ca_memory_foreign(data, m->host_ptr ? data : NULL, nbytes, device,
                                       m->kind, r));
    }
    Py_DECREF(r);
    return m;
}

static PyObject *
set_allocator(PyObject *mod, PyObject *args)
{
    PyObject *f;
    int thread_local, clear = 0;
    if (!PyArg_ParseTuple(args, "Op|p:_set_allocator", &f, &thread_local, &clear)) {
        return NULL;
    }
    PyObject *v = f == Py_None ? NULL : Py_NewRef(f);
    if (thread_local) {
        Py_XSETREF(tl_allocator, v);
        tl_allocator_set = !clear;
    }
    else {
        Py_XSETREF(g_allocator, v);
    }
    Py_RETURN_NONE;
}

/* memory_from_pool with this thread's memory hooks told (memory_hooks.c). */
static CaMemory *
memory_from_pool_hooked(ca_pool *p, int device, ca_memkind kind, size_t nbytes,
                        ca_stream_t stream)
{
    size_t mem_size = (nbytes + CA_POOL_ALIGN - 1) & ~(CA_POOL_ALIGN - 1);
    ca_pool_stats before, after;
    if (ca_memory_hook_call("malloc_preprocess", device, nbytes, mem_size, NULL, NULL) <
        0) {
        return NULL;
    }
    ca_pool_get_stats(p, &before);
    CaMemory *m = memory_from_pool(p, device, kind, nbytes, stream);
    if (m == NULL) {
        return NULL;
    }
    ca_pool_get_stats(p, &after);
    size_t reserved = after.total_bytes > before.total_bytes
                          ? after.total_bytes - before.total_bytes
                          : 0;
    if ((reserved > 0 && (ca_memory_hook_call("alloc_preprocess", device, 0, reserved,
                                              NULL, NULL) < 0 ||
                          ca_memory_hook_call("alloc_postprocess", device, 0, reserved,
                                              m->ptr, NULL) < 0)) ||
        ca_memory_hook_call("malloc_postprocess", device, nbytes, mem_size, m->ptr, m) <
            0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

CaMemory *
ca_memory_alloc(int device, ca_memkind kind, size_t nbytes, ca_stream_t stream)
{
    ca_pool *p;
    if (nbytes == 0) {
        PyErr_SetString(PyExc_SystemError,
                        "ca_memory_alloc: zero-size request (zero-size arrays hold "
                        "no memory)");
        return NULL;
    }
    if (check_kind(device, (int)kind) < 0 || use_device(device) < 0) {
        return NULL;
    }
    PyObject *f = tl_allocator_set ? tl_allocator : g_allocator;
    if (f != NULL && kind == CA_MEM_DEVICE && !in_allocator) {
        return memory_from_allocator(f, device, nbytes);
    }
    p = get_pool(device, kind);
    if (p == NULL) {
        return NULL;
    }
    if (ca_memory_hook != NULL && kind != CA_MEM_PINNED) {
        return memory_from_pool_hooked(p, device, kind, nbytes, stream);
    }
    return memory_from_pool(p, device, kind, nbytes, stream);
}

CaMemory *
ca_memory_foreign(char *ptr, char *host_ptr, size_t size, int device, ca_memkind kind,
                  PyObject *owner)
{
    CaMemory *m = memory_new(ptr, host_ptr, size, device, kind);
    if (m == NULL) {
        return NULL;
    }
    m->owner = Py_XNewRef(owner);
    return m;
}

/* ---- counters of one-launch reductions ------------------------------------ */
/* A set is only ever used by kernels on its stream, which run one after another,
 * and each such kernel leaves every counter it took tickets from at 0: so a set
 * needs zeroing once, when it is made (memset on its own stream, ordered before
 * its first kernel). Two streams never share a set; the per-thread default stream
 * gets none, its one handle naming a different stream in every host thread. A
 * set dies with its stream (ca_memory_stream_destroyed: before the pools wait
 * for the stream, so the block goes back as that stream's and is then retagged).
 * A stream cuarray does not own keeps its set for the process; it is as safe as
 * the pool's own stream tags, which also go by the handle. GIL held. */
#define TICKET_SETS 32 /* per device; more streams get none (two launches) */

typedef struct {
    ca_stream_t stream; /* NULL (the legacy stream) is stored as CA_STREAM_LEGACY */
    CaMemory *mem;      /* NULL: a free entry */
} ticket_set;

static ticket_set ticket_sets[MAX_DEVICES][TICKET_SETS];

static ca_stream_t
ticket_key(ca_stream_t s)
{
    return s == NULL ? CA_STREAM_LEGACY : s;
}

unsigned int *
ca_memory_tickets(int device, ca_stream_t stream)
{
    if (device < 0 || device >= MAX_DEVICES || stream == CA_STREAM_PER_THREAD) {
        return NULL;
    }
    if ((tl_allocator_set ? tl_allocator : g_allocator) != NULL) {
        return NULL; /* a user's allocator: nothing of it is kept for the process */
    }
    const ca_stream_t key = ticket_key(stream);
    ticket_set *t = ticket_sets[device];
    int free_i = -1;
    for (int i = 0; i < TICKET_SETS; i++) {
        if (t[i].mem != NULL && t[i].stream == key) {
            return (unsigned int *)t[i].mem->ptr;
        }
        if (t[i].mem == NULL && free_i < 0) {
            free_i = i;
        }
    }
    if (free_i < 0) {
        return NULL;
    }
    const size_t bytes = CA_REDUCE_TICKETS * sizeof(unsigned int);
    CaMemory *m = ca_memory_alloc(device, CA_MEM_DEVICE, bytes, stream);
    if (m == NULL) {
        PyErr_Clear(); /* the two-launch path needs no counters */
        return NULL;
    }
    if (ca_run_memset_async(m->ptr, 0, bytes, stream) < 0) {
        PyErr_Clear(); /* the reduction's own launch reports a broken context */
        Py_DECREF(m);
        return NULL;
    }
    t[free_i].stream = key;
    t[free_i].mem = m;
    return (unsigned int *)m->ptr;
}

static void
tickets_forget(int device, ca_stream_t stream)
{
    const ca_stream_t key = ticket_key(stream);
    ticket_set *t = ticket_sets[device];
    for (int i = 0; i < TICKET_SETS; i++) {
        if (t[i].mem != NULL && t[i].stream == key) {
            CaMemory *m = t[i].mem;
            t[i].mem = NULL;
            t[i].stream = NULL;
            Py_DECREF(m);
        }
    }
}

int
ca_memory_stream_destroyed(int device, ca_stream_t stream)
{
    int st = 0;
    if (device < 0 || device >= MAX_DEVICES) {
        return 0;
    }
    tickets_forget(device, stream);
    for (int k = 0; k < CA_MEM_NKINDS; k++) {
        ca_pool *p = pools[SLOT(device)][k];
        if (p != NULL) {
            int s = ca_pool_forget_stream(p, stream);
            if (st == 0) {
                st = s;
            }
        }
    }
    if (st != 0) {
        return ca_cuda_error_int(st, "cudaStreamSynchronize(stream)");
    }
    return 0;
}

/* The block back to its pool between this thread's free hooks. */
static void
free_hooked(CaMemory *self)
{
    size_t size = self->block->size;
    char *ptr = self->ptr;
    ca_memory_hook_report("free_preprocess", self->device, size, ptr, self);
    ca_pool_free(self->pool, self->block);
    ca_memory_hook_report("free_postprocess", self->device, size, ptr, self);
}

static void
Memory_dealloc(CaMemory *self)
{
    PyTypeObject *tp = ca_dealloc_start((PyObject *)self, self->weakreflist);
    if (self->block != NULL) {
        if (ca_memory_hook != NULL && self->kind != CA_MEM_PINNED) {
            free_hooked(self);
        }
        else {
            ca_pool_free(self->pool, self->block);
        }
    }
    else {
        if (self->registered) {
            int st = ca_rt_host_unregister(self->host_ptr);
            if (st != 0) {
                ca_cuda_warn_unraisable(st, "cudaHostUnregister(ptr)");
            }
        }
        Py_CLEAR(self->owner);
    }
    PyObject_Free(self);
    Py_DECREF(tp);
}

static PyObject *
Memory_get_ptr(CaMemory *self, void *closure)
{
    ca_hook.export_memory(self);
    return PyLong_FromVoidPtr(self->ptr);
}

CA_GETTER(Memory_get_size, CaMemory, PyLong_FromSize_t(self->size))
CA_GETTER(Memory_get_device, CaMemory, ca_device_object(self->device))
CA_GETTER(Memory_get_device_id, CaMemory, PyLong_FromLong(self->device))
CA_GETTER(Memory_get_kind, CaMemory, PyUnicode_FromString(ca_memkind_name[self->kind]))

/* A stream as CAI v3 writes it: 1 for the legacy default stream, 2 for the
 * per-thread default stream, else the handle. */
static PyObject *
cai_stream_int(ca_stream_t s)
{
    if (s == NULL || s == CA_STREAM_LEGACY) {
        return PyLong_FromLong(1);
    }
    if (s == CA_STREAM_PER_THREAD) {
        return PyLong_FromLong(2);
    }
    return PyLong_FromVoidPtr((void *)s);
}

static PyObject *
Memory_get_cai(CaMemory *self, void *closure)
{
    PyObject *stream = NULL, *res = NULL;
    ca_hook.export_memory(self);
    if (self->kind == CA_MEM_HOST) {
        PyErr_SetString(PyExc_AttributeError,
                        "host memory has no __cuda_array_interface__: a GPU cannot "
                        "address it");
        return NULL;
    }
    /* The stream that may hold pending work on this memory: the one its pool
     * block was allocated on. Foreign memory and zero-size memory: None. */
    if (self->block != NULL && self->block->stream != CA_POOL_STREAM_ANY) {
        stream = cai_stream_int(ca_pool_stream_handle(self->block->stream));
        if (stream == NULL) {
            return NULL;
        }
    }
    else {
        stream = Py_NewRef(Py_None);
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
    char buf[160], dev[CA_DEVICE_NAME_LEN];
    snprintf(buf, sizeof(buf),
             "<cuarray.cuda.Memory ptr=0x%llx size=%zu kind='%s' device=%s>",
             (unsigned long long)(uintptr_t)self->ptr, self->size,
             ca_memkind_name[self->kind], ca_device_name(self->device, dev));
    return PyUnicode_FromString(buf);
}

/* Before the host reads managed memory: the GPU may still be writing it, and
 * the host must not touch managed memory while kernels that use it run. */
static int
sync_for_host(CaMemory *self)
{
    ca_stream_t cur, mine = NULL;
    int have_mine = 0;
    if (use_device(self->device) < 0) {
        return -1;
    }
    cur = ca_current_stream(self->device);
    if (self->block != NULL && self->block->stream != CA_POOL_STREAM_ANY &&
        self->block->stream != cur) {
        mine = self->block->stream;
        have_mine = 1;
    }
    if (ca_run_stream_sync(cur) < 0 || (have_mine && ca_run_stream_sync(mine) < 0)) {
        return -1;
    }
    return 0;
}

static int
Memory_getbuffer(CaMemory *self, Py_buffer *view, int flags)
{
    view->obj = NULL;
    if (self->kind == CA_MEM_DEVICE) {
        PyErr_SetString(PyExc_BufferError,
                        "device memory is not host-accessible and cannot export a "
                        "buffer: copy it to the host first (an array's .get() or "
                        "cuarray.asnumpy), or allocate managed or pinned memory");
        return -1;
    }
    if (self->kind == CA_MEM_MANAGED && self->size > 0 && sync_for_host(self) < 0) {
        return -1;
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

CA_GETTER(Memory_get_exports, CaMemory, PyLong_FromSsize_t(self->exports))

static PyGetSetDef Memory_getset[] = {
    { "ptr", (getter)Memory_get_ptr, NULL, "The address kernels use (int).", NULL },
    { "size", (getter)Memory_get_size, NULL, "Size in bytes, as requested.", NULL },
    { "device", (getter)Memory_get_device, NULL, "The Device the memory belongs to.",
      NULL },
    { "device_id", (getter)Memory_get_device_id, NULL,
      "The device ordinal (CuPy's name); -1 for the cpu.", NULL },
    { "kind", (getter)Memory_get_kind, NULL, "'device', 'managed', 'pinned' or 'host'.",
      NULL },
    { "_exports", (getter)Memory_get_exports, NULL, "Live buffer exports.", NULL },
    { "__cuda_array_interface__", (getter)Memory_get_cai, NULL,
      "CUDA Array Interface v3 (1-D unsigned bytes) of GPU-accessible memory.", NULL },
    { NULL },
};

static PyMemberDef Memory_members[] = {
    { "__weaklistoffset__", T_PYSSIZET, offsetof(CaMemory, weakreflist), READONLY },
    { NULL },
};

PyDoc_STRVAR(
    Memory_doc,
    "A block of memory of one device: a pool block, or foreign memory kept alive\n"
    "by a reference to its owner. Made by ``MemoryPool.malloc`` (and by arrays),\n"
    "never directly; freed back to its pool when the last reference goes.\n\n"
    "Attributes\n"
    "----------\n"
    "ptr : int\n    The address kernels use (0 for zero-size memory).\n"
    "size : int\n    Bytes requested.\n"
    "device : Device\n"
    "kind : str\n    'device', 'managed', 'pinned' or 'host'.\n\n"
    "Host-accessible memory (managed, pinned, host) exports the buffer protocol as\n"
    "writable unsigned bytes (``np.frombuffer(mem, np.uint8)``; managed memory\n"
    "first waits for the device's streams); device memory raises BufferError.\n"
    "GPU-accessible memory (device, managed, pinned) has\n"
    "``__cuda_array_interface__`` (version 3, 1-D bytes; ``stream`` is the stream\n"
    "the block was allocated on); host memory has none.");

/* Memory(size): CuPy's constructor. From the pool of the current device
 * (device memory on a GPU, host memory on the cpu device), where CuPy calls
 * cudaMalloc directly: freeing it returns it to the pool. */
static PyObject *
Memory_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "size", NULL };
    Py_ssize_t size;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "n:Memory", kwlist, &size)) {
        return NULL;
    }
    if (size < 0) {
        PyErr_Format(PyExc_ValueError, "Memory: size must be >= 0, not %zd", size);
        return NULL;
    }
    int device = ca_current_device();
    ca_memkind kind = device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    if (size == 0) {
        return (PyObject *)memory_new(NULL, NULL, 0, device, kind);
    }
    if (device != CA_CPU && ca_use_device(device) < 0) {
        return NULL;
    }
    return (PyObject *)ca_memory_alloc(device, kind, (size_t)size,
                                       device == CA_CPU ? NULL
                                                        : ca_current_stream(device));
}

static PyType_Slot Memory_slots[] = {
    { Py_tp_new, Memory_new },
    { Py_tp_dealloc, Memory_dealloc },
    { Py_tp_repr, Memory_repr },
    { Py_tp_getset, Memory_getset },
    { Py_tp_members, Memory_members },
    { Py_tp_doc, (void *)Memory_doc },
    { Py_bf_getbuffer, Memory_getbuffer },
    { Py_bf_releasebuffer, Memory_releasebuffer },
    { 0, NULL },
};

CA_TYPE_SPEC(Memory_spec, "cuarray.cuda.Memory", CaMemory,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE, Memory_slots);

/* ======================================================================== */
/* MemoryPool: a Python handle on the pool of one (device, kind)            */
/* ======================================================================== */

typedef struct {
    PyObject_HEAD int device;
    ca_memkind kind;
} CaPoolHandle;

static PyTypeObject *pinned_pool_type; /* PinnedMemoryPool */
static PyObject *handles[MAX_DEVICES + 1][CA_MEM_NKINDS];

/* The natural memory kind of a device: device memory on a GPU, host on cpu. */
static ca_memkind
default_kind(int device)
{
    return device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
}

static PyObject *
handle_new(PyTypeObject *type, int device, ca_memkind kind)
{
    CaPoolHandle *h = (CaPoolHandle *)type->tp_alloc(type, 0);
    if (h == NULL) {
        return NULL;
    }
    h->device = device;
    h->kind = kind;
    return (PyObject *)h;
}

/* The shared handle of (device, kind) (a new reference). */
static PyObject *
get_handle(int device, ca_memkind kind)
{
    PyObject **slot;
    if (check_kind(device, (int)kind) < 0) {
        return NULL;
    }
    slot = &handles[SLOT(device)][kind];
    if (*slot == NULL) {
        *slot = handle_new(kind == CA_MEM_PINNED ? pinned_pool_type : ca_st->pool_type,
                           device, kind);
        if (*slot == NULL) {
            return NULL;
        }
    }
    return Py_NewRef(*slot);
}

static int
kind_from_object(PyObject *obj, int device, ca_memkind *out)
{
    if (obj == NULL || obj == Py_None) {
        *out = default_kind(device);
        return 0;
    }
    if (PyUnicode_Check(obj)) {
        for (int k = 0; k < CA_MEM_NKINDS; k++) {
            if (PyUnicode_CompareWithASCIIString(obj, ca_memkind_name[k]) == 0) {
                *out = (ca_memkind)k;
                return 0;
            }
        }
    }
    PyErr_Format(PyExc_ValueError,
                 "memory kind must be 'device', 'managed', 'pinned' or 'host', not %R",
                 obj);
    return -1;
}

/* The GPU a pinned or managed pool belongs to when none is named: the current
 * device if it is a GPU, else GPU 0. */
static int
gpu_or_zero(int device)
{
    return device == CA_CPU ? 0 : device;
}

static PyObject *
MemoryPool_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "kind", "device", NULL };
    PyObject *kind_obj = Py_None, *dev_obj = Py_None;
    ca_memkind kind;
    int device;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:MemoryPool", kwlist, &kind_obj,
                                     &dev_obj)) {
        return NULL;
    }
    device = ca_device_from_object(dev_obj);
    if (device == CA_DEVICE_ERROR) {
        return NULL;
    }
    if (kind_from_object(kind_obj, device, &kind) < 0) {
        return NULL;
    }
    if ((kind == CA_MEM_PINNED || kind == CA_MEM_MANAGED) && dev_obj == Py_None) {
        device = gpu_or_zero(device);
    }
    if (type == ca_st->pool_type) {
        return get_handle(device, kind);
    }
    /* A Python subclass gets its own handle object on the same pool. */
    if (check_kind(device, (int)kind) < 0) {
        return NULL;
    }
    return handle_new(type, device, kind);
}

/* The optional `device` argument of a pinned or managed pool's constructor or
 * getter (fmt: "|O:name"): when not given, the current GPU (0 without one). */
static int
pool_device_arg(PyObject *args, PyObject *kwds, const char *fmt, int *device)
{
    static char *kwlist[] = { "device", NULL };
    PyObject *dev_obj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, fmt, kwlist, &dev_obj)) {
        return -1;
    }
    *device = ca_device_from_object(dev_obj);
    if (*device == CA_DEVICE_ERROR) {
        return -1;
    }
    if (dev_obj == Py_None) {
        *device = gpu_or_zero(*device);
    }
    return 0;
}

static PyObject *
PinnedMemoryPool_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    int device;
    if (pool_device_arg(args, kwds, "|O:PinnedMemoryPool", &device) < 0) {
        return NULL;
    }
    if (type == pinned_pool_type) {
        return get_handle(device, CA_MEM_PINNED);
    }
    if (check_kind(device, CA_MEM_PINNED) < 0) {
        return NULL;
    }
    return handle_new(type, device, CA_MEM_PINNED);
}

static void
MemoryPool_dealloc(PyObject *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    tp->tp_free(self);
    Py_DECREF(tp);
}

/* The pool behind a handle, created if needed, its device made current. */
static ca_pool *
handle_pool(CaPoolHandle *h)
{
    if (use_device(h->device) < 0) {
        return NULL;
    }
    return get_pool(h->device, h->kind);
}

static PyObject *
MemoryPool_malloc(CaPoolHandle *self, PyObject *arg)
{
    ca_pool *p;
    ca_stream_t stream;
    Py_ssize_t n = PyNumber_AsSsize_t(arg, PyExc_OverflowError);
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "malloc: size must be >= 0, not %zd", n);
        return NULL;
    }
    p = pools[SLOT(self->device)][self->kind];
    if (self->device != CA_CPU) {
        if (ca_use_device(self->device) < 0) {
            return NULL;
        }
        stream = ca_current_stream(self->device);
    }
    else {
        stream = NULL;
    }
    if (p == NULL && (p = get_pool(self->device, self->kind)) == NULL) {
        return NULL;
    }
    return (PyObject *)memory_from_pool(p, self->device, self->kind, (size_t)n, stream);
}

static PyObject *
MemoryPool_free_all_blocks(CaPoolHandle *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "stream", NULL };
    PyObject *stream = Py_None;
    ca_pool *p;
    int st;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:free_all_blocks", kwlist,
                                     &stream)) {
        return NULL;
    }
    p = pools[SLOT(self->device)][self->kind];
    if (p == NULL) {
        Py_RETURN_NONE;
    }
    if (use_device(self->device) < 0) {
        return NULL;
    }
    st = ca_pool_release_cached(p);
    if (st != 0) {
        return ca_cuda_error(st, self->kind == CA_MEM_PINNED ? "cudaFreeHost(ptr)"
                                                             : "cudaFree(ptr)");
    }
    Py_RETURN_NONE;
}

static void
handle_stats(CaPoolHandle *self, ca_pool_stats *s)
{
    ca_pool *p = pools[SLOT(self->device)][self->kind];
    if (p == NULL) {
        memset(s, 0, sizeof(*s));
    }
    else {
        ca_pool_get_stats(p, s);
    }
}

/* MemoryPool.<field>(): that number of the pool's stats. */
#define CA_POOL_STAT_METHOD(field)                                                     \
    static PyObject *MemoryPool_##field(CaPoolHandle *self, PyObject *unused)          \
    {                                                                                  \
        ca_pool_stats s;                                                               \
        handle_stats(self, &s);                                                        \
        return PyLong_FromSize_t(s.field);                                             \
    }
CA_POOL_STAT_METHOD(used_bytes)
CA_POOL_STAT_METHOD(total_bytes)
CA_POOL_STAT_METHOD(free_bytes)
CA_POOL_STAT_METHOD(n_free_blocks)

static PyObject *
MemoryPool_stats(CaPoolHandle *self, PyObject *unused)
{
    ca_pool_stats s;
    handle_stats(self, &s);
    return Py_BuildValue(
        "{s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,s:n,"
        "s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K}",
        "used_bytes", (Py_ssize_t)s.used_bytes, "requested_bytes",
        (Py_ssize_t)s.requested_bytes, "total_bytes", (Py_ssize_t)s.total_bytes,
        "free_bytes", (Py_ssize_t)s.free_bytes, "peak_used_bytes",
        (Py_ssize_t)s.peak_used_bytes, "peak_requested_bytes",
        (Py_ssize_t)s.peak_requested_bytes, "peak_total_bytes",
        (Py_ssize_t)s.peak_total_bytes, "largest_free_block",
        (Py_ssize_t)s.largest_free_block, "limit", (Py_ssize_t)s.limit, "n_segments",
        (Py_ssize_t)s.n_segments, "n_used_blocks", (Py_ssize_t)s.n_used_blocks,
        "n_free_blocks", (Py_ssize_t)s.n_free_blocks, "n_allocs",
        (unsigned long long)s.n_allocs, "n_frees", (unsigned long long)s.n_frees,
        "n_upstream_allocs", (unsigned long long)s.n_upstream_allocs,
        "n_upstream_frees", (unsigned long long)s.n_upstream_frees, "n_stream_waits",
        (unsigned long long)s.n_stream_waits, "n_trims", (unsigned long long)s.n_trims,
        "n_oom_retries", (unsigned long long)s.n_oom_retries, "n_oom_errors",
        (unsigned long long)s.n_oom_errors, "n_cached_reuses",
        (unsigned long long)(s.n_allocs - s.n_upstream_allocs));
}

static PyObject *
MemoryPool_reset_peak_stats(CaPoolHandle *self, PyObject *unused)
{
    ca_pool *p = pools[SLOT(self->device)][self->kind];
    if (p != NULL) {
        ca_pool_reset_peaks(p);
    }
    Py_RETURN_NONE;
}

static PyObject *
MemoryPool_set_limit(CaPoolHandle *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = { "size", "fraction", NULL };
    PyObject *size_obj = Py_None, *frac_obj = Py_None;
    size_t limit = 0;
    ca_pool *p;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:set_limit", kwlist, &size_obj,
                                     &frac_obj)) {
        return NULL;
    }
    if (size_obj != Py_None && frac_obj != Py_None) {
        PyErr_SetString(PyExc_ValueError, "set_limit: give size or fraction, not both");
        return NULL;
    }
    p = handle_pool(self);
    if (p == NULL) {
        return NULL;
    }
    if (size_obj != Py_None) {
        Py_ssize_t n = PyNumber_AsSsize_t(size_obj, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (n < 0) {
            PyErr_Format(PyExc_ValueError, "set_limit: size must be >= 0, not %zd", n);
            return NULL;
        }
        limit = (size_t)n;
    }
    else if (frac_obj != Py_None) {
        size_t cap = 0;
        double f = PyFloat_AsDouble(frac_obj);
        if (f == -1.0 && PyErr_Occurred()) {
            return NULL;
        }
        if (!(f >= 0.0 && f <= 1.0)) {
            PyErr_Format(PyExc_ValueError,
                         "set_limit: fraction must be in [0, 1], not %R", frac_obj);
            return NULL;
        }
        if (capacity_of(self->device, self->kind, &cap) < 0) {
            return NULL;
        }
        limit = (size_t)((double)cap * f);
    }
    ca_pool_set_limit(p, limit);
    Py_RETURN_NONE;
}

static PyObject *
MemoryPool_get_limit(CaPoolHandle *self, PyObject *unused)
{
    ca_pool *p = handle_pool(self);
    if (p == NULL) {
        return NULL;
    }
    return PyLong_FromSize_t(ca_pool_get_limit(p));
}

CA_GETTER(MemoryPool_get_device, CaPoolHandle, ca_device_object(self->device))
CA_GETTER(MemoryPool_get_kind, CaPoolHandle,
          PyUnicode_FromString(ca_memkind_name[self->kind]))

static PyObject *
MemoryPool_repr(CaPoolHandle *self)
{
    ca_pool_stats s;
    handle_stats(self, &s);
    if (self->device == CA_CPU) {
        return PyUnicode_FromFormat("<%s kind='%s' device=cpu used=%zu total=%zu>",
                                    Py_TYPE(self)->tp_name, ca_memkind_name[self->kind],
                                    s.used_bytes, s.total_bytes);
    }
    return PyUnicode_FromFormat("<%s kind='%s' device=cuda:%d used=%zu total=%zu>",
                                Py_TYPE(self)->tp_name, ca_memkind_name[self->kind],
                                self->device, s.used_bytes, s.total_bytes);
}

static PyMethodDef MemoryPool_methods[] = {
    { "malloc", (PyCFunction)MemoryPool_malloc, METH_O,
      "malloc(nbytes)\n--\n\nA Memory of `nbytes` bytes from this pool, ordered on the "
      "device's\ncurrent stream. 0 gives a Memory with ptr 0 and size 0. Raises\n"
      "OutOfMemoryError when neither the cache nor the upstream can serve it." },
    { "free_all_blocks", CA_VARKW(MemoryPool_free_all_blocks),
      "free_all_blocks(stream=None)\n--\n\nReturn every wholly free segment to CUDA "
      "(or the system), after\nwaiting for the device. `stream` is accepted for CuPy "
      "compatibility;\nthe cached blocks of every stream are released." },
    { "used_bytes", (PyCFunction)MemoryPool_used_bytes, METH_NOARGS,
      "used_bytes()\n--\n\nBytes in blocks in use (requests rounded up to 512)." },
    { "total_bytes", (PyCFunction)MemoryPool_total_bytes, METH_NOARGS,
      "total_bytes()\n--\n\nBytes reserved from the upstream (in use + cached)." },
    { "free_bytes", (PyCFunction)MemoryPool_free_bytes, METH_NOARGS,
      "free_bytes()\n--\n\nBytes cached in free blocks (total - used)." },
    { "n_free_blocks", (PyCFunction)MemoryPool_n_free_blocks, METH_NOARGS,
      "n_free_blocks()\n--\n\nNumber of cached free blocks." },
    { "stats", (PyCFunction)MemoryPool_stats, METH_NOARGS,
      "stats()\n--\n\nA dict of the pool's statistics: used/requested/total/free "
      "bytes,\ntheir peaks, the largest free block, the limit, block and segment "
      "counts,\nupstream allocations and frees, cross-stream waits, out-of-memory\n"
      "retries and errors." },
    { "reset_peak_stats", (PyCFunction)MemoryPool_reset_peak_stats, METH_NOARGS,
      "reset_peak_stats()\n--\n\nRestart the peak statistics of stats() from the "
      "current values." },
    { "set_limit", CA_VARKW(MemoryPool_set_limit),
      "set_limit(size=None, fraction=None)\n--\n\nCap the bytes this pool reserves: "
      "`size` in bytes, or `fraction` of\nthe device's memory (the machine's RAM for "
      "pinned and host pools).\nNo argument, or 0, removes the limit. For device pools "
      "the environment\nvariable CUARRAY_GPU_MEMORY_LIMIT (bytes, or a percentage "
      "like '50%')\nsets the initial limit." },
    { "get_limit", (PyCFunction)MemoryPool_get_limit, METH_NOARGS,
      "get_limit()\n--\n\nThe limit in bytes; 0 means none." },
    { NULL },
};

static PyGetSetDef MemoryPool_getset[] = {
    { "device", (getter)MemoryPool_get_device, NULL, "The pool's Device.", NULL },
    { "kind", (getter)MemoryPool_get_kind, NULL, "The pool's memory kind.", NULL },
    { NULL },
};

PyDoc_STRVAR(
    MemoryPool_doc,
    "MemoryPool(kind=None, device=None)\n"
    "--\n\n"
    "A handle on the memory pool of one device and memory kind.\n\n"
    "cuarray keeps exactly one pool per (device, kind): 'device' (cudaMalloc),\n"
    "'managed' (cudaMallocManaged), 'pinned' (cudaHostAlloc, mapped) and 'host'\n"
    "(malloc, the cpu device). Unlike CuPy, ``MemoryPool()`` does not create a\n"
    "separate pool: it returns the shared handle of that pool, the same object\n"
    "``get_default_memory_pool()`` returns, and arrays allocate from it.\n\n"
    "Parameters\n"
    "----------\n"
    "kind : str, optional\n"
    "    Default: 'device' on a GPU, 'host' on the cpu device.\n"
    "device : Device, int or str, optional\n"
    "    Default: the current device (GPU 0 for pinned or managed memory when\n"
    "    the current device is the cpu).\n\n"
    "The pool rounds requests up to 512 bytes, caches freed blocks (reused on\n"
    "the same stream at once, on another stream after a device-side wait), and\n"
    "raises OutOfMemoryError after releasing its cache and retrying once.");

static PyType_Slot MemoryPool_slots[] = {
    { Py_tp_new, MemoryPool_new },
    { Py_tp_dealloc, MemoryPool_dealloc },
    { Py_tp_repr, MemoryPool_repr },
    { Py_tp_methods, MemoryPool_methods },
    { Py_tp_getset, MemoryPool_getset },
    { Py_tp_doc, (void *)MemoryPool_doc },
    { 0, NULL },
};

CA_TYPE_SPEC(MemoryPool_spec, "cuarray.cuda.MemoryPool", CaPoolHandle,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
             MemoryPool_slots);

PyDoc_STRVAR(
    PinnedMemoryPool_doc,
    "PinnedMemoryPool(device=None)\n"
    "--\n\n"
    "The handle of the pinned (page-locked, mapped) host memory pool of a GPU;\n"
    "``MemoryPool('pinned', device)``. Requests are rounded to 512 bytes, never\n"
    "to powers of two.");

static PyType_Slot PinnedMemoryPool_slots[] = {
    { Py_tp_new, PinnedMemoryPool_new },
    { Py_tp_doc, (void *)PinnedMemoryPool_doc },
    { 0, NULL },
};

CA_TYPE_SPEC(PinnedMemoryPool_spec, "cuarray.cuda.PinnedMemoryPool", CaPoolHandle,
             Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_IMMUTABLETYPE,
             PinnedMemoryPool_slots);

/* ======================================================================== */
/* Module functions                                                         */
/* ======================================================================== */

static PyObject *
get_default_memory_pool(PyObject *m, PyObject *unused)
{
    int device = ca_current_device();
    return get_handle(device, default_kind(device));
}

static PyObject *
get_default_pinned_memory_pool(PyObject *m, PyObject *unused)
{
    return get_handle(gpu_or_zero(ca_current_device()), CA_MEM_PINNED);
}

static PyObject *
get_managed_memory_pool(PyObject *m, PyObject *args, PyObject *kwds)
{
    int device;
    if (pool_device_arg(args, kwds, "|O:get_managed_memory_pool", &device) < 0) {
        return NULL;
    }
    return get_handle(device, CA_MEM_MANAGED);
}

static PyMethodDef memory_functions[] = {
    { "_set_allocator", set_allocator, METH_VARARGS,
      "_set_allocator(f, thread_local, clear=False): the allocator of device memory "
      "(None: the pools); cuarray.cuda.set_allocator / using_allocator." },
    { "get_default_memory_pool", get_default_memory_pool, METH_NOARGS,
      "get_default_memory_pool()\n--\n\nThe pool arrays of the current device use: "
      "device memory on a GPU,\nhost memory on the cpu device. The handle is bound to "
      "the device that\nwas current when it was asked for." },
    { "get_default_pinned_memory_pool", get_default_pinned_memory_pool, METH_NOARGS,
      "get_default_pinned_memory_pool()\n--\n\nThe pinned host memory pool of the "
      "current GPU (GPU 0 when the cpu\ndevice is current)." },
    { "get_managed_memory_pool", CA_VARKW(get_managed_memory_pool),
      "get_managed_memory_pool(device=None)\n--\n\nThe managed (unified) memory pool "
      "of a GPU (default: the current GPU,\nGPU 0 when the cpu device is current). "
      "Arrays made with\nmemory='managed' allocate from it." },
    { NULL },
};

/* ======================================================================== */
/* Module init                                                              */
/* ======================================================================== */

/* One of this file's heap types (base: its base type, or NULL), added to the
 * module under its short name; a strong reference kept for the process's
 * lifetime, like the module state. NULL on error. */
static PyTypeObject *
add_type(PyObject *m, PyType_Spec *spec, PyTypeObject *base)
{
    PyObject *t = PyType_FromModuleAndSpec(m, spec, (PyObject *)base);
    if (t != NULL && PyModule_AddType(m, (PyTypeObject *)t) < 0) {
        Py_CLEAR(t);
    }
    return (PyTypeObject *)t;
}

int
ca_memory_init(PyObject *m)
{
    if (!(ca_st->memory_type = add_type(m, &Memory_spec, NULL)) ||
        !(ca_st->pool_type = add_type(m, &MemoryPool_spec, NULL)) ||
        !(pinned_pool_type = add_type(m, &PinnedMemoryPool_spec, ca_st->pool_type)) ||
        PyModule_AddFunctions(m, memory_functions) < 0 ||
        PyModule_AddFunctions(m, ca_memory_hook_functions) < 0) {
        return -1;
    }
    return 0;
}

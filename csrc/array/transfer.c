/*
 * transfer.c: copies. The strided copy-and-cast path (ca_assign, which every
 * copy, astype, fill and contiguous conversion goes through), host <-> device
 * transfers (get, set, asnumpy, ca_array_from_numpy) and the array methods
 * built on them.
 */
#include "datetime_hook.h"
#include "launch.h"
#include "watch.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

/* ======================================================================== */
/* Helpers                                                                    */
/* ======================================================================== */

static int
same_shape(CaArray *a, CaArray *b)
{
    return ca_same_shape(CA_NDIM(a), CA_SHAPE(a), CA_NDIM(b), CA_SHAPE(b));
}

/* [lo, hi) byte range an array's elements occupy. */
static void
array_extent(CaArray *a, char **lo, char **hi)
{
    /* an existing array's layout lies inside its buffer: it cannot overflow */
    Py_ssize_t l = 0, h = a->itemsize;
    (void)ca_layout_extent(CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a), a->itemsize, &l, &h);
    *lo = a->data + l;
    *hi = a->data + h;
}

static int
arrays_overlap(CaArray *a, CaArray *b)
{
    if (a->size == 0 || b->size == 0 || a->device != b->device) {
        return 0;
    }
    char *alo, *ahi, *blo, *bhi;
    array_extent(a, &alo, &ahi);
    array_extent(b, &blo, &bhi);
    return alo < bhi && blo < ahi;
}

/* A host pointer to a's first element (host-accessible memory), else NULL. */
static char *
host_data(CaArray *a)
{
    if (a->mem == NULL || a->mem->host_ptr == NULL) {
        return NULL;
    }
    return a->mem->host_ptr + (a->data - a->mem->ptr);
}

/* A NumPy array viewing host memory `p` with a's layout and dtype (no
 * reference to `a`: for use while `a` is alive). */
static PyObject *
numpy_alias(CaArray *a, char *p, int writeable)
{
    PyArray_Descr *d = ca_descr(a->dtype);
    Py_INCREF(d);
    return PyArray_NewFromDescr(&PyArray_Type, d, CA_NDIM(a), CA_SHAPE(a),
                                CA_STRIDES(a), p, writeable ? NPY_ARRAY_WRITEABLE : 0,
                                NULL);
}

/* Stream from a `stream=` argument: None -> the current stream of `device`;
 * a cuarray Stream or an int handle (device.c); else any object with an
 * integer `.ptr` (a CuPy stream, say). */
static int
stream_from_object(PyObject *obj, int device, ca_stream_t *out)
{
    if (obj == NULL || obj == Py_None) {
        *out = ca_current_stream(device);
        return 0;
    }
    if (Py_IS_TYPE(obj, ca_st->stream_type) || PyLong_Check(obj)) {
        int ok;
        *out = ca_stream_from_object(obj, &ok);
        return ok ? 0 : -1;
    }
    PyObject *p = PyObject_GetAttrString(obj, "ptr");
    if (p == NULL) {
        PyErr_SetString(PyExc_TypeError, "stream must be None or a Stream");
        return -1;
    }
    void *v = NULL;
    int r = ca_pointer_from_long(p, &v);
    *out = (ca_stream_t)v; /* NULL when r is -1 */
    return r;
}

/* ======================================================================== */
/* The strided copy-and-cast path                                            */
/* ======================================================================== */

static int
check_assign(CaArray *dst, CaArray *src)
{
    if (dst->device != src->device) {
        char b1[CA_DEVICE_NAME_LEN], b2[CA_DEVICE_NAME_LEN];
        PyErr_Format(PyExc_ValueError,
                     "arrays are on different devices (%s and %s): move one "
                     "explicitly with to_device() or cuarray.asarray(x, device=...)",
                     ca_device_name(dst->device, b1), ca_device_name(src->device, b2));
        return -1;
    }
    if (!(dst->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (!ca_broadcasts_to(CA_NDIM(src), CA_SHAPE(src), CA_NDIM(dst), CA_SHAPE(dst))) {
        PyObject *ds = PyObject_GetAttrString((PyObject *)dst, "shape");
        PyObject *ss = PyObject_GetAttrString((PyObject *)src, "shape");
        if (ds && ss) {
            PyErr_Format(PyExc_ValueError,
                         "could not broadcast input array from shape %R into shape %R",
                         ss, ds);
        }
        Py_XDECREF(ds);
        Py_XDECREF(ss);
        return -1;
    }
    return 0;
}

/* A strided loop over a's shape with a as operand 0 (the destination of the
 * copy and fill kernels); set_operand counts the operands. */
static inline void
strided_over(ca_strided *s, CaArray *a)
{
    s->ndim = CA_NDIM(a);
    s->nops = 0;
    for (int i = 0; i < s->ndim; i++) {
        s->shape[i] = CA_SHAPE(a)[i];
    }
    ca_strided_set_operand(s, 0, a);
}

/* The one strided copy-and-cast call (kernels/gpu/copy.cu, kernels/host/host_copy.c). */
static int
assign_kernel(CaArray *dst, CaArray *src)
{
    ca_strided s;
    strided_over(&s, dst);
    ca_strided_set_operand(&s, 1, src);
    if (ca_use_device(dst->device) < 0) {
        return -1;
    }
    if (ca_run_copy_cast(dst->device, &s, dst->dtype, src->dtype,
                         ca_current_stream(dst->device)) < 0) {
        return -1;
    }
    return 0;
}

CaArray *
ca_drop_leading_ones(CaArray *v, int nd)
{
    int extra = CA_NDIM(v) - nd;
    for (int i = 0; i < extra; i++) {
        if (CA_SHAPE(v)[i] != 1) {
            extra = 0; /* not droppable: the broadcast check reports it */
        }
    }
    if (extra <= 0) {
        Py_INCREF(v);
        return v;
    }
    return ca_array_restride(v, nd, CA_SHAPE(v) + extra, CA_STRIDES(v) + extra,
                             v->data);
}

static int assign_same_rank(CaArray *dst, CaArray *src);

int
ca_assign(CaArray *dst, CaArray *src)
{
    if (CA_NDIM(src) <= CA_NDIM(dst)) {
        return assign_same_rank(dst, src);
    }
    CaArray *v = ca_drop_leading_ones(src, CA_NDIM(dst));
    if (v == NULL) {
        return -1;
    }
    int r = assign_same_rank(dst, v);
    Py_DECREF(v);
    return r;
}

/* ca_assign once src has no more dimensions than dst (or cannot lose them). */
static int
assign_same_rank(CaArray *dst, CaArray *src)
{
    if (check_assign(dst, src) < 0) {
        return -1;
    }
    if (dst->size == 0) {
        return 0;
    }
    if (arrays_overlap(dst, src)) {
        /* An element-parallel copy between overlapping buffers would read
         * elements already overwritten: go through a temporary, as NumPy. */
        int same = dst->data == src->data && same_shape(dst, src) &&
                   memcmp(CA_STRIDES(dst), CA_STRIDES(src),
                          (size_t)CA_NDIM(dst) * sizeof(Py_ssize_t)) == 0;
        if (same && dst->dtype == src->dtype) {
            return 0;
        }
        CaArray *tmp = ca_array_copy(src, src->dtype, 'K');
        if (tmp == NULL) {
            return -1;
        }
        int r = assign_kernel(dst, tmp);
        Py_DECREF(tmp);
        return r;
    }
    if (dst->device != CA_CPU && dst->kind != src->kind && dst->dtype == src->dtype &&
        same_shape(dst, src) &&
        ((dst->flags & src->flags & CA_C_CONTIGUOUS) ||
         (dst->flags & src->flags & CA_F_CONTIGUOUS))) {
        /* Between host-side (pinned, managed) and device memory the DMA
         * engine beats a kernel reading over the bus. */
        if (ca_use_device(dst->device) < 0) {
            return -1;
        }
        return ca_run_memcpy_async(dst->data, src->data,
                                   (size_t)dst->size * (size_t)dst->itemsize,
                                   ca_current_stream(dst->device));
    }
    return assign_kernel(dst, src);
}

/* Allocate an array shaped like `a` with dtype and layout from `order`:
 * 'C', 'F', 'A' (F if a is F- and not C-contiguous) or 'K' (a's axis order,
 * strides made positive and dense, as NumPy). */
CaArray *
ca_array_empty_like(CaArray *a, int dtype, char order, int device, ca_memkind kind)
{
    int nd = CA_NDIM(a);
    if (order == 'A') {
        order =
            ((a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS)) ? 'F' : 'C';
    }
    if (order == 'K') {
        if (a->flags & CA_C_CONTIGUOUS) {
            order = 'C';
        }
        else if (a->flags & CA_F_CONTIGUOUS) {
            order = 'F';
        }
    }
    if (order != 'K') {
        return ca_array_empty(dtype, nd, CA_SHAPE(a), order == 'F', device, kind);
    }
    /* Sort axes by |stride|, largest first (stable), then lay out C-order in
     * that permutation. */
    int perm[CA_MAX_DIMS];
    Py_ssize_t pshape[CA_MAX_DIMS] = { 0 };
    ca_axes_by_stride(nd, CA_STRIDES(a), perm);
    for (int i = 0; i < nd; i++) {
        pshape[i] = CA_SHAPE(a)[perm[i]];
    }
    CaArray *r = ca_array_empty(dtype, nd, pshape, 0, device, kind);
    if (r == NULL) {
        return NULL;
    }
    Py_ssize_t pstrides[CA_MAX_DIMS];
    memcpy(pstrides, CA_STRIDES(r), (size_t)nd * sizeof(Py_ssize_t));
    for (int i = 0; i < nd; i++) {
        CA_SHAPE(r)[perm[i]] = pshape[i];
        CA_STRIDES(r)[perm[i]] = pstrides[i];
    }
    ca_array_update_flags(r);
    return r;
}

CaArray *
ca_array_copy(CaArray *a, int dtype, char order)
{
    CaArray *r = ca_array_empty_like(a, dtype, order, a->device, a->kind);
    if (r == NULL) {
        return NULL;
    }
    if (ca_assign(r, a) < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

int
ca_array_fill(CaArray *a, const void *value)
{
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (a->size == 0) {
        return 0;
    }
    ca_strided s;
    strided_over(&s, a);
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    if (ca_run_fill(a->device, &s, a->dtype, value, ca_current_stream(a->device)) < 0) {
        return -1;
    }
    return 0;
}

int
ca_array_fill_object(CaArray *a, PyObject *value, int setitem)
{
    if (ca_array_check(value)) {
        return ca_assign(a, (CaArray *)value);
    }
    uint64_t buf[2];
    if ((setitem ? ca_value_to_bytes_setitem(value, a->dtype, buf)
                 : ca_value_to_bytes(value, a->dtype, buf)) < 0) {
        return -1;
    }
    return ca_array_fill(a, buf);
}

/* ======================================================================== */
/* Device <-> host                                                            */
/* ======================================================================== */

/* ---- parallel memcpy: a small pool of worker threads ------------------------ */
/*
 * Large host copies are limited by what one core can move (and, into fresh
 * NumPy memory, by page faults, which several threads take in parallel). The
 * workers are started on first use and live until the process ends; a fork
 * leaves the child without them, so they are restarted there.
 */

#define CA_PAR_MIN     ((size_t)1 << 20) /* below: one memcpy */
#define CA_MAX_WORKERS 15

static struct {
    pthread_mutex_t call; /* one parallel copy at a time */
    pthread_mutex_t mu;
    pthread_cond_t work, done;
    int nworkers;      /* started workers */
    pid_t pid;         /* the process that started them */
    unsigned long gen; /* bumped per job */
    int pending;       /* workers still copying the job */
    char *dst;
    const char *src;
    size_t n, slice; /* slice: bytes per part (64-aligned) */
} ca_par = { PTHREAD_MUTEX_INITIALIZER,
             PTHREAD_MUTEX_INITIALIZER,
             PTHREAD_COND_INITIALIZER,
             PTHREAD_COND_INITIALIZER,
             0,
             0,
             0,
             0,
             NULL,
             NULL,
             0,
             0 };

static void
par_part(int part)
{
    size_t off = (size_t)part * ca_par.slice;
    if (off < ca_par.n) {
        size_t len = ca_par.n - off < ca_par.slice ? ca_par.n - off : ca_par.slice;
        memcpy(ca_par.dst + off, ca_par.src + off, len);
    }
}

static void *
par_worker(void *arg)
{
    int part = (int)(intptr_t)arg; /* parts 1..nworkers; the caller copies 0 */
    /* Workers start while gen is 0 (par_start); reading gen here instead
     * would miss a job posted before this thread first ran. */
    unsigned long seen = 0;
    pthread_mutex_lock(&ca_par.mu);
    for (;;) {
        while (ca_par.gen == seen) {
            pthread_cond_wait(&ca_par.work, &ca_par.mu);
        }
        seen = ca_par.gen;
        pthread_mutex_unlock(&ca_par.mu);
        par_part(part);
        pthread_mutex_lock(&ca_par.mu);
        if (--ca_par.pending == 0) {
            pthread_cond_signal(&ca_par.done);
        }
    }
    return NULL;
}

/* A forked child has the parent's memory but none of its threads, and the
 * locks may have been held by one of them: start over. */
static void
par_atfork_child(void)
{
    pthread_mutex_init(&ca_par.call, NULL);
    pthread_mutex_init(&ca_par.mu, NULL);
    pthread_cond_init(&ca_par.work, NULL);
    pthread_cond_init(&ca_par.done, NULL);
    ca_par.nworkers = 0;
    ca_par.gen = 0;
    ca_par.pid = 0;
}

/* Start the workers if needed (call with ca_par.call held); returns how many
 * there are (0 if threads cannot be started: the copy is then serial). */
static int
par_start(void)
{
    if (ca_par.pid == 0) {
        ca_par.pid = getpid();
        long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
        int want = ncpu > 1 ? (int)(ncpu < 8 ? ncpu : 8) - 1 : 0;
        if (want > CA_MAX_WORKERS) {
            want = CA_MAX_WORKERS;
        }
        for (int i = 0; i < want; i++) {
            pthread_t t;
            pthread_attr_t attr;
            pthread_attr_init(&attr);
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            pthread_attr_setstacksize(&attr, 64 * 1024);
            int rc = pthread_create(&t, &attr, par_worker, (void *)(intptr_t)(i + 1));
            pthread_attr_destroy(&attr);
            if (rc != 0) {
                break;
            }
            ca_par.nworkers++;
        }
    }
    return ca_par.nworkers;
}

/* memcpy(dst, src, n) on several threads. Call without the GIL. */
static void
par_memcpy(char *dst, const char *src, size_t n)
{
    if (n < CA_PAR_MIN) {
        memcpy(dst, src, n);
        return;
    }
    pthread_mutex_lock(&ca_par.call);
    int nw = par_start();
    if (nw == 0) {
        pthread_mutex_unlock(&ca_par.call);
        memcpy(dst, src, n);
        return;
    }
    int parts = nw + 1;
    size_t slice = (n + (size_t)parts - 1) / (size_t)parts;
    slice = (slice + 63) & ~(size_t)63;
    pthread_mutex_lock(&ca_par.mu);
    ca_par.dst = dst;
    ca_par.src = src;
    ca_par.n = n;
    ca_par.slice = slice;
    ca_par.pending = nw;
    ca_par.gen++;
    pthread_cond_broadcast(&ca_par.work);
    pthread_mutex_unlock(&ca_par.mu);
    par_part(0);
    pthread_mutex_lock(&ca_par.mu);
    while (ca_par.pending > 0) {
        pthread_cond_wait(&ca_par.done, &ca_par.mu);
    }
    pthread_mutex_unlock(&ca_par.mu);
    pthread_mutex_unlock(&ca_par.call);
}

/* ---- staged transfers through pinned buffers --------------------------------- */
/*
 * Pageable host memory moves at a fraction of the bus speed when handed to
 * cudaMemcpy (the driver stages it through a small pinned buffer with one
 * thread). Here the stage is ours: chunks of pinned memory from the pinned
 * pool, filled or drained by par_memcpy while the DMA engine moves the
 * previous chunk. Pinned (page-locked) host memory skips all this.
 */

#define CA_STAGE_MIN   ((size_t)4 << 20) /* below: one cudaMemcpyAsync */
#define CA_STAGE_CHUNK ((size_t)16 << 20)
#define CA_STAGE_NBUF  2

/* True when host pointer p is page-locked (cudaHostAlloc or registered) or
 * managed, so the DMA engine can read or write it directly. */
static int
host_is_pinned(const void *p)
{
    ca_pointer_info info;
    if (ca_rt_pointer_info(p, &info) != 0) {
        return 0;
    }
    return info.type == CA_PTR_HOST || info.type == CA_PTR_MANAGED;
}

/* Queue one chunk's DMA between the device and a pinned stage on s, then record
 * the stage's event behind it so the host waits for that chunk alone. Runs
 * without the GIL; *call names the runtime call that failed. */
static int
stage_dma(void *dst, const void *src, size_t len, int to_host, ca_event_t ev,
          ca_stream_t s, const char **call)
{
    *call = to_host ? "cudaMemcpyAsync(pinned stage, device, chunk, "
                      "cudaMemcpyDeviceToHost)"
                    : "cudaMemcpyAsync(device, pinned stage, chunk, "
                      "cudaMemcpyHostToDevice)";
    int st = ca_rt_memcpy_async(dst, src, len, s);
    if (st == 0) {
        *call = "cudaEventRecord";
        st = ca_rt_event_record(ev, s);
    }
    return st;
}

/* Move n bytes between host memory `host` (pageable) and device memory `dev`
 * of `device` through pinned staging buffers; waits for completion. Called
 * with the GIL held (allocates the staging Memory), releases it to copy. */
static int
staged_copy(int device, char *dev, char *host, size_t n, int to_host,
            ca_stream_t stream)
{
    size_t chunk = n < CA_STAGE_CHUNK * CA_STAGE_NBUF ? (n + 1) / 2 : CA_STAGE_CHUNK;
    chunk = (chunk + 4095) & ~(size_t)4095;
    CaMemory *stage =
        ca_memory_alloc(device, CA_MEM_PINNED, chunk * CA_STAGE_NBUF, stream);
    if (stage == NULL) {
        return -1;
    }
    ca_event_t ev[CA_STAGE_NBUF] = { NULL };
    int st = 0;
    const char *call = "cudaEventCreateWithFlags";
    char *buf[CA_STAGE_NBUF];
    for (int b = 0; b < CA_STAGE_NBUF; b++) {
        buf[b] = stage->host_ptr + (size_t)b * chunk;
    }
    /* The staging block is new to this stream but may still be in use by work
     * queued earlier on it (the pool is stream-ordered, the host is not). */
    ca_stream_t s = stream;
    size_t nchunks = (n + chunk - 1) / chunk;
    ca_launch_flush(); /* the raw calls below enqueue without the GIL */
    Py_BEGIN_ALLOW_THREADS
        for (int b = 0; b < CA_STAGE_NBUF && st == 0; b++) {
            st = ca_rt_event_create(&ev[b], CA_EVENT_DISABLE_TIMING);
        }
        if (st == 0) {
            call = "cudaStreamSynchronize(stream)";
            st = ca_rt_stream_sync(s);
        }
        if (st == 0 && !to_host) {
            /* host -> pinned (threads) then pinned -> device (DMA), two chunks in
         * flight: the threads fill one while the DMA drains the other. */
            for (size_t i = 0; i < nchunks && st == 0; i++) {
                int b = (int)(i % CA_STAGE_NBUF);
                size_t off = i * chunk, len = n - off < chunk ? n - off : chunk;
                if (i >= CA_STAGE_NBUF) {
                    call = "cudaEventSynchronize";
                    st = ca_rt_event_sync(ev[b]);
                    if (st != 0) {
                        break;
                    }
                }
                par_memcpy(buf[b], host + off, len);
                st = stage_dma(dev + off, buf[b], len, 0, ev[b], s, &call);
            }
        }
        else if (st == 0) {
            /* device -> pinned (DMA) ahead of pinned -> host (threads). */
            for (size_t i = 0; i < nchunks && i < CA_STAGE_NBUF && st == 0; i++) {
                size_t off = i * chunk, len = n - off < chunk ? n - off : chunk;
                st = stage_dma(buf[i], dev + off, len, 1, ev[i], s, &call);
            }
            for (size_t i = 0; i < nchunks && st == 0; i++) {
                int b = (int)(i % CA_STAGE_NBUF);
                size_t off = i * chunk, len = n - off < chunk ? n - off : chunk;
                call = "cudaEventSynchronize";
                st = ca_rt_event_sync(ev[b]);
                if (st != 0) {
                    break;
                }
                par_memcpy(host + off, buf[b], len);
                size_t next = i + CA_STAGE_NBUF;
                if (next < nchunks) {
                    size_t noff = next * chunk;
                    size_t nlen = n - noff < chunk ? n - noff : chunk;
                    st = stage_dma(buf[b], dev + noff, nlen, 1, ev[b], s, &call);
                }
            }
        }
        /* Whatever happened, the DMA must be done with the stage before the pool
     * may hand it out again. */
        for (int b = 0; b < CA_STAGE_NBUF; b++) {
            if (ev[b] != NULL) {
                int s2 = ca_rt_event_sync(ev[b]);
                if (st == 0 && s2 != 0) {
                    st = s2;
                    call = "cudaEventSynchronize";
                }
                (void)ca_rt_event_destroy(ev[b]);
            }
        }
    Py_END_ALLOW_THREADS
    Py_DECREF(stage);
    if (st != 0) {
        return ca_cuda_error_int(st, call);
    }
    return 0;
}

/* ---- small transfers through pinned bounce buffers ------------------------------ */
/*
 * A copy between pageable host memory and the device costs the driver a second
 * trip: for device -> pageable host it waits for the stream to drain before it
 * can even start the DMA into its own staging buffer, then copies out. From
 * page-locked memory the copy is queued behind the work like a kernel, and one
 * stream synchronization covers both (about 2-3 us instead of ~10 us per call).
 * So small transfers (scalar conversions, get() and NumPy -> GPU of up to
 * CA_BOUNCE_MAX bytes) go through one of a few page-locked slots owned by the
 * process. A slot is claimed with an atomic flag, never waited for: when all are
 * in use by other threads the caller takes the ordinary path. Slots are
 * allocated on first use (portable: valid on every device) and kept for the
 * life of the process.
 */
#define CA_BOUNCE_SLOTS 4

static char *bounce_buf[CA_BOUNCE_SLOTS];
static atomic_int bounce_busy[CA_BOUNCE_SLOTS];

int
ca_bounce_copy(void *dst, const void *src, size_t n, int to_host, ca_stream_t stream)
{
    int slot = -1;
    for (int i = 0; i < CA_BOUNCE_SLOTS; i++) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&bounce_busy[i], &expected, 1)) {
            slot = i;
            break;
        }
    }
    if (slot < 0) {
        return 1; /* all in use: nothing done */
    }
    ca_stream_t s = stream;
    int st = 0;
    const char *call = "cudaHostAlloc(&bounce, CA_BOUNCE_MAX, cudaHostAllocPortable)";
    ca_launch_flush(); /* the raw calls below enqueue without the GIL */
    Py_BEGIN_ALLOW_THREADS
        /* The claim orders this thread after the slot's previous owner, so the
     * plain pointer is safe to read and set here. */
        char *buf = bounce_buf[slot];
        if (buf == NULL) {
            void *p = NULL;
            st = ca_rt_host_alloc(&p, CA_BOUNCE_MAX, 0);
            if (st == 0) {
                buf = (char *)p;
                bounce_buf[slot] = buf;
            }
        }
        if (st == 0) {
            if (to_host) {
                call = "cudaMemcpyAsync(pinned bounce, device, n, cudaMemcpyDefault)";
                st = ca_rt_memcpy_async(buf, src, n, s);
            }
            else {
                memcpy(buf, src, n);
                call = "cudaMemcpyAsync(device, pinned bounce, n, cudaMemcpyDefault)";
                st = ca_rt_memcpy_async(dst, buf, n, s);
            }
        }
        if (st == 0) {
            /* Also what keeps the slot from being reused while the DMA reads it. */
            call = "cudaStreamSynchronize(stream)";
            st = ca_rt_stream_sync(s);
        }
        if (st == 0 && to_host) {
            memcpy(dst, buf, n);
        }
    Py_END_ALLOW_THREADS
    atomic_store(&bounce_busy[slot], 0);
    if (st != 0) {
        return ca_cuda_error_int(st, call);
    }
    CA_COUNT(syncs); /* its raw wait (the launch layer counts its own) */
    return 0;
}

/* Copy all of a's (contiguous) buffer to or from host memory `host`;
 * to_host selects the direction. The GIL is released while copying. With
 * blocking = 0 a transfer that can be asynchronous (pinned host memory) is
 * left running on `stream`. */
static int
copy_contiguous(CaArray *a, char *host, int to_host, ca_stream_t stream, int blocking)
{
    size_t n = (size_t)a->size * (size_t)a->itemsize;
    if (n == 0) {
        return 0;
    }
    if (to_host) {
        ca_count_d2h(n);
    }
    else {
        ca_count_h2d(n);
    }
    if (a->device == CA_CPU) {
        char *hp = host_data(a);
        if (blocking) {
            CA_COUNT(syncs); /* the cpu device's copy is a GPU's blocking one */
        }
        Py_BEGIN_ALLOW_THREADS
            if (to_host) {
                par_memcpy(host, hp, n);
            }
            else {
                par_memcpy(hp, host, n);
            }
        Py_END_ALLOW_THREADS
        return 0;
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    if (n >= CA_STAGE_MIN && a->kind == CA_MEM_DEVICE && !host_is_pinned(host)) {
        int r = staged_copy(a->device, a->data, host, n, to_host, stream);
        if (r == 0) {
            CA_COUNT(syncs); /* its raw waits, one transfer */
        }
        return r;
    }
    /* Small and blocking: through a pinned slot, unless `host` is page-locked
     * already (asked only above 4 KiB, where copying twice would cost more than
     * the query). */
    if (blocking && n <= CA_BOUNCE_MAX && (n <= 4096 || !host_is_pinned(host))) {
        int r = to_host ? ca_bounce_copy(host, a->data, n, 1, stream)
                        : ca_bounce_copy(a->data, host, n, 0, stream);
        if (r <= 0) {
            return r;
        }
    }
    char *dst = to_host ? host : a->data;
    const char *src = to_host ? a->data : host;
    return blocking ? ca_run_memcpy_wait(dst, src, n, stream)
                    : ca_run_memcpy_async(dst, src, n, stream);
}

/* get(): a new NumPy array (order 'C', 'F', 'A' or 'K'), or a copy into `out`. */
static PyObject *
to_numpy_ex(CaArray *a, char order, PyArrayObject *out, ca_stream_t stream,
            int blocking)
{
    CaArray *tmp = NULL;
    PyObject *res = NULL;
    int nd = CA_NDIM(a);
    if (order == 'A' || order == 'K') {
        order =
            ((a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS)) ? 'F' : 'C';
    }
    if (out != NULL) {
        if (PyArray_NDIM(out) != nd ||
            !PyArray_CompareLists(PyArray_DIMS(out), CA_SHAPE(a), nd)) {
            PyErr_SetString(PyExc_ValueError,
                            "out= has a different shape than the array");
            return NULL;
        }
        if (ca_dtype_from_descr(PyArray_DESCR(out)) != a->dtype) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError,
                            "out= has a different dtype than the array");
            return NULL;
        }
        if (!PyArray_ISWRITEABLE(out)) {
            PyErr_SetString(PyExc_ValueError, "out= is read-only");
            return NULL;
        }
        if (PyArray_IS_C_CONTIGUOUS(out)) {
            order = 'C';
        }
        else if (PyArray_IS_F_CONTIGUOUS(out)) {
            order = 'F';
        }
        else {
            /* Through a temporary, then NumPy's strided copy. */
            PyObject *h = to_numpy_ex(a, 'C', NULL, stream, 1);
            if (h == NULL) {
                return NULL;
            }
            int r = PyArray_CopyInto(out, (PyArrayObject *)h);
            Py_DECREF(h);
            if (r < 0) {
                return NULL;
            }
            Py_INCREF(out);
            return (PyObject *)out;
        }
        Py_INCREF(out);
        res = (PyObject *)out;
    }
    else {
        PyArray_Descr *d = ca_descr(a->dtype);
        Py_INCREF(d);
        res = PyArray_Empty(nd, CA_SHAPE(a), d, order == 'F');
        if (res == NULL) {
            return NULL;
        }
    }
    if (a->size == 0) {
        return res;
    }
    char *hp = host_data(a);
    if (hp != NULL && a->device == CA_CPU) {
        /* Host memory: NumPy's strided copy (counted as a GPU's copy would be). */
        ca_count_d2h((size_t)a->size * (size_t)a->itemsize);
        CA_COUNT(syncs);
        PyObject *v = numpy_alias(a, hp, 0);
        if (v == NULL ||
            PyArray_CopyInto((PyArrayObject *)res, (PyArrayObject *)v) < 0) {
            Py_XDECREF(v);
            goto error;
        }
        Py_DECREF(v);
        return res;
    }
    int contig =
        order == 'F' ? (a->flags & CA_F_CONTIGUOUS) : (a->flags & CA_C_CONTIGUOUS);
    CaArray *src = a;
    if (!contig) {
        tmp = ca_array_copy(a, a->dtype, order);
        if (tmp == NULL) {
            goto error;
        }
        src = tmp;
        /* The copy was queued on the current stream: read it there. */
        stream = ca_current_stream(a->device);
    }
    if (copy_contiguous(src, PyArray_DATA((PyArrayObject *)res), 1, stream, blocking) <
        0) {
        goto error;
    }
    Py_XDECREF(tmp);
    return res;
error:
    Py_XDECREF(tmp);
    Py_XDECREF(res);
    return NULL;
}

PyObject *
ca_array_to_numpy(CaArray *a)
{
    return to_numpy_ex(a, 'K', NULL, ca_current_stream(a->device), 1);
}

CaArray *
ca_array_from_numpy(PyArrayObject *arr, int dtype, int device, ca_memkind kind)
{
    PyArrayObject *src = NULL;
    CaArray *r = NULL;
    int hd = ca_dtype_from_descr(PyArray_DESCR(arr));
    if (hd < 0) {
        PyErr_Clear(); /* not ours (byte-swapped, object...): NumPy casts below */
    }
    else if (hd != dtype && device != CA_CPU && PyArray_SIZE(arr) > 0) {
        /* Move the source bytes, then cast on the GPU. */
        CaArray *tmp = ca_array_from_numpy(arr, hd, device, CA_MEM_DEVICE);
        if (tmp == NULL) {
            return NULL;
        }
        r = ca_array_empty_like(tmp, dtype, 'K', device, kind);
        if (r != NULL && ca_assign(r, tmp) < 0) {
            Py_CLEAR(r);
        }
        Py_DECREF(tmp);
        return r;
    }
    int fortran = PyArray_IS_F_CONTIGUOUS(arr) && !PyArray_IS_C_CONTIGUOUS(arr);
    int flags = (fortran ? NPY_ARRAY_F_CONTIGUOUS : NPY_ARRAY_C_CONTIGUOUS) |
                NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST;
    PyArray_Descr *d = ca_descr(dtype);
    Py_INCREF(d);
    src = (PyArrayObject *)PyArray_FromAny((PyObject *)arr, d, 0, 0, flags, NULL);
    if (src == NULL) {
        return NULL;
    }
    r = ca_array_empty(dtype, PyArray_NDIM(src), PyArray_DIMS(src), fortran, device,
                       kind);
    if (r == NULL) {
        goto error;
    }
    if (copy_contiguous(r, PyArray_DATA(src), 0, ca_current_stream(device), 1) < 0) {
        goto error;
    }
    Py_DECREF(src);
    return r;
error:
    Py_XDECREF(src);
    Py_XDECREF(r);
    return NULL;
}

/* ======================================================================== */
/* Methods                                                                    */
/* ======================================================================== */

static PyObject *
get_impl(CaArray *a, PyObject *const *v, const char *what)
{
    ca_stream_t stream;
    if (stream_from_object(v[0], a->device, &stream) < 0) {
        return NULL;
    }
    int order = ca_order_from_object(v[1], 'C');
    if (order < 0) {
        return NULL;
    }
    if (v[2] != NULL && v[2] != Py_None && !PyArray_Check(v[2])) {
        PyErr_SetString(PyExc_TypeError, "out= must be a numpy.ndarray");
        return NULL;
    }
    int blocking = 1;
    if (v[3] != NULL && (blocking = PyObject_IsTrue(v[3])) < 0) {
        return NULL;
    }
    PyArrayObject *out = (v[2] && v[2] != Py_None) ? (PyArrayObject *)v[2] : NULL;
    if (ca_guard(CA_TG_D2H, 1, what, (size_t)a->size * (size_t)a->itemsize, a->device) <
        0) {
        return NULL;
    }
    return to_numpy_ex(a, (char)order, out, stream, blocking);
}

static PyObject *
Ndarray_get(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "stream", "order", "out", "blocking", NULL };
    PyObject *v[4];
    if (ca_parse_args("get", args, nargs, kwnames, names, 4, 0, v) < 0) {
        return NULL;
    }
    return get_impl(a, v, "get()");
}

static PyObject *
Ndarray_set(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "arr", "stream", NULL };
    PyObject *v[2];
    if (ca_parse_args("set", args, nargs, kwnames, names, 2, 1, v) < 0) {
        return NULL;
    }
    ca_stream_t stream;
    if (stream_from_object(v[1], a->device, &stream) < 0) {
        return NULL;
    }
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return NULL;
    }
    PyArrayObject *arr = NULL;
    if (!PyArray_Check(v[0])) {
        PyErr_SetString(PyExc_TypeError, "set() takes a numpy.ndarray");
        return NULL;
    }
    arr = (PyArrayObject *)v[0];
    if (PyArray_NDIM(arr) != CA_NDIM(a) ||
        !PyArray_CompareLists(PyArray_DIMS(arr), CA_SHAPE(a), CA_NDIM(a))) {
        PyErr_SetString(PyExc_ValueError, "set(): shape mismatch");
        return NULL;
    }
    int dt = ca_dtype_from_descr(PyArray_DESCR(arr));
    if (dt != a->dtype) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "set(): dtype mismatch");
        return NULL;
    }
    if (ca_guard(CA_TG_H2D, 1, "set()", (size_t)PyArray_NBYTES(arr), a->device) < 0) {
        return NULL;
    }
    int c = a->flags & CA_C_CONTIGUOUS, f = a->flags & CA_F_CONTIGUOUS;
    if ((c && PyArray_IS_C_CONTIGUOUS(arr)) || (f && PyArray_IS_F_CONTIGUOUS(arr))) {
        if (copy_contiguous(a, PyArray_DATA(arr), 0, stream, 1) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    /* Different layouts: transfer, then the strided copy on the device. */
    CaArray *tmp = ca_array_from_numpy(
        arr, a->dtype, a->device, a->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
    if (tmp == NULL) {
        return NULL;
    }
    int r = ca_assign(a, tmp);
    Py_DECREF(tmp);
    if (r < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
Ndarray_copy(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "order", NULL };
    PyObject *v[1];
    if (ca_parse_args("copy", args, nargs, kwnames, names, 1, 0, v) < 0) {
        return NULL;
    }
    int order = ca_order_from_object(v[0], 'C');
    if (order < 0) {
        return NULL;
    }
    return (PyObject *)ca_array_copy(a, a->dtype, (char)order);
}

static PyObject *
Ndarray_copy_noargs(CaArray *a, PyObject *unused)
{
    return (PyObject *)ca_array_copy(a, a->dtype, 'K');
}

static PyObject *
Ndarray_deepcopy(CaArray *a, PyObject *memo)
{
    return (PyObject *)ca_array_copy(a, a->dtype, 'K');
}

/* NumPy's ComplexWarning for a cast that drops imaginary parts; -1 when the
 * warnings filter turned it into an error. */
static int
complex_warning(void)
{
    static PyObject *category;
    if (category == NULL) {
        PyObject *mod = PyImport_ImportModule("numpy.exceptions");
        category = mod ? PyObject_GetAttrString(mod, "ComplexWarning") : NULL;
        Py_XDECREF(mod);
        if (category == NULL) {
            return -1;
        }
    }
    return PyErr_WarnEx(
        category, "Casting complex values to real discards the imaginary part", 1);
}

static PyObject *
Ndarray_astype(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = { "dtype", "order", "casting",
                                         "subok", "copy",  NULL };
    PyObject *v[5];
    if (ca_parse_args("astype", args, nargs, kwnames, names, 5, 1, v) < 0) {
        return NULL;
    }
    int dtype, order;
    if (ca_dtype_order_from_objects(v[0], CA_FLOAT64, v[1], 'K', &dtype, &order) < 0) {
        /* to datetime64: cuarray._datetime.astype(a, ...); other errors stay */
        return ca_dt_retry_self(NULL, "astype", (PyObject *)a, args, nargs, kwnames);
    }
    if (v[2] != NULL && v[2] != Py_None) {
        /* casting=: checked against NumPy's rule, then the cast is the same. */
        PyObject *cs = v[2];
        NPY_CASTING casting;
        if (!PyUnicode_Check(cs)) {
            PyErr_SetString(PyExc_TypeError, "casting must be a string");
            return NULL;
        }
        if (!PyArray_CastingConverter(cs, &casting)) {
            return NULL;
        }
        if (!PyArray_CanCastTypeTo(ca_descr(a->dtype), ca_descr(dtype), casting)) {
            PyErr_Format(
                PyExc_TypeError,
                "Cannot cast array data from %R to %R according to the rule %R",
                (PyObject *)ca_descr(a->dtype), (PyObject *)ca_descr(dtype), cs);
            return NULL;
        }
    }
    int copy = 1;
    if (v[4] != NULL && (copy = PyObject_IsTrue(v[4])) < 0) {
        return NULL;
    }
    if (!copy && dtype == a->dtype) {
        int ok = order == 'K' || order == 'A' ||
                 (order == 'C' && (a->flags & CA_C_CONTIGUOUS)) ||
                 (order == 'F' && (a->flags & CA_F_CONTIGUOUS));
        if (order == 'A') {
            ok = (a->flags & (CA_C_CONTIGUOUS | CA_F_CONTIGUOUS)) != 0;
        }
        if (ok) {
            Py_INCREF(a);
            return (PyObject *)a;
        }
    }
    if (ca_is_complex(a->dtype) && !ca_is_complex(dtype) && dtype != CA_BOOL &&
        complex_warning() < 0) {
        return NULL;
    }
    return (PyObject *)ca_array_copy(a, dtype, (char)order);
}

static PyObject *
Ndarray_fill(CaArray *a, PyObject *value)
{
    if (ca_array_fill_object(a, value, 1) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}


PyMethodDef ca_transfer_array_methods[] = {
    { "get", CA_FASTKW(Ndarray_get),
      "get(stream=None, order='C', out=None, blocking=True)\n--\n\n"
      "Copy the array to a NumPy array on the host (into `out` if given). Waits for "
      "the copy unless blocking=False (only meaningful with a pinned `out`)." },
    { "set", CA_FASTKW(Ndarray_set),
      "set(arr, stream=None)\n--\n\nCopy the NumPy array `arr` (same shape and dtype) "
      "into this array." },
    { "copy", CA_FASTKW(Ndarray_copy),
      "copy(order='C')\n--\n\nA copy of the array, on the same device and memory "
      "kind." },
    { "__copy__", (PyCFunction)Ndarray_copy_noargs, METH_NOARGS, NULL },
    { "__deepcopy__", (PyCFunction)Ndarray_deepcopy, METH_O, NULL },
    { "astype", CA_FASTKW(Ndarray_astype),
      "astype(dtype, order='K', casting='unsafe', subok=True, copy=True)\n--\n\n"
      "The array cast to `dtype` with NumPy's cast results." },
    { "fill", (PyCFunction)Ndarray_fill, METH_O,
      "fill(value)\n--\n\nSet every element to `value`." },
    { NULL, NULL, 0, NULL },
};

/* ======================================================================== */
/* Module functions                                                           */
/* ======================================================================== */

static PyObject *
py_asnumpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {
        "a", "stream", "order", "out", "blocking", NULL
    };
    PyObject *v[5];
    if (ca_parse_args("asnumpy", args, nargs, kwnames, names, 5, 1, v) < 0) {
        return NULL;
    }
    if (!ca_array_check(v[0])) {
        /* As CuPy: anything else goes through numpy.asarray. */
        return PyArray_FROM_O(v[0]);
    }
    if (ca_dt_is(v[0])) { /* cuarray._datetime's: its get() */
        ca_dt_raise(v[0]);
        return ca_dt_retry(NULL, "asnumpy", args, nargs, kwnames);
    }
    return get_impl((CaArray *)v[0], v + 1, "asnumpy()");
}

static PyMethodDef transfer_functions[] = {
    { "asnumpy", CA_FASTKW(py_asnumpy),
      "asnumpy(a, stream=None, order='C', out=None, blocking=True)\n--\n\n"
      "A NumPy array with the contents of `a` (a copy for cuarray arrays)." },
    { NULL, NULL, 0, NULL },
};

int
ca_transfer_init(PyObject *m)
{
    if (pthread_atfork(NULL, NULL, par_atfork_child) != 0) {
        PyErr_SetString(PyExc_RuntimeError, "pthread_atfork failed");
        return -1;
    }
    return PyModule_AddFunctions(m, transfer_functions);
}

/*
 * launch_fft.c: the launch layer's cuFFT calls (launch.h) and the plan cache.
 *
 * cuFFT is loaded on first use (dynlib.c). Plans live in one LRU cache per
 * device, keyed by everything cufftMakePlanMany64 is told (type, rank, lengths,
 * embeddings, strides, distances, batch); the stream is not part of a plan and
 * is set per call. Plans are made with cufftSetAutoAllocation(plan, 0): their
 * work area comes from our pool, allocated on the stream the plan runs on.
 * When a cached plan is next used on another stream, its work area goes back
 * to the pool (stream-ordered on the old stream, so the pool hands it to other
 * streams only after the old work passed it) and a fresh one is taken on the
 * new stream: one work area is never used by two streams without ordering.
 *
 * The GIL serializes every use of a cache and of a plan.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"
#include "faults.h"

#include <string.h>

#define CA_FFT_MAX_DEVICES  64
#define CA_FFT_DEFAULT_SIZE 16 /* plans per device, as CuPy */

typedef struct {
    int kind, dbl, rank;
    long long n[CA_FFT_MAX_RANK];
    long long inembed[CA_FFT_MAX_RANK], onembed[CA_FFT_MAX_RANK];
    long long istride, idist, ostride, odist, batch;
} plan_key;

typedef struct fft_plan {
    plan_key key;
    int handle;     /* cufftHandle; -1 for the emulation's plans */
    size_t ws_size; /* bytes of work area the plan needs */
    CaMemory *ws;   /* its work area, for work queued on ws_stream */
    ca_stream_t ws_stream;
    int users;  /* calls running it: the pool's upstreams and the emulation's NumPy
                 * may let another thread run (and evict it) meanwhile */
    int doomed; /* evicted while in use: the last user destroys it */
    struct fft_plan *prev, *next; /* most recently used first */
} fft_plan;

typedef struct {
    int ready;
    fft_plan *head, *tail;
    Py_ssize_t count, size_limit;
    long long mem, memsize_limit; /* bytes of work areas; limit -1: none */
} plan_cache;

/* [CA_FFT_MAX_DEVICES] is the cpu device's (the emulation). */
static plan_cache caches[CA_FFT_MAX_DEVICES + 1];

static plan_cache *
cache_of(int device)
{
    int i = device == CA_CPU ? CA_FFT_MAX_DEVICES : device;
    if (i < 0 || i > CA_FFT_MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "device %d is out of cuFFT's range", device);
        return NULL;
    }
    plan_cache *c = &caches[i];
    if (!c->ready) {
        c->ready = 1;
        c->size_limit = CA_FFT_DEFAULT_SIZE;
        c->memsize_limit = -1;
    }
    return c;
}

static const char *
type_name(const plan_key *k)
{
    static const char *const names[3][2] = { { "C2C", "Z2Z" },
                                             { "R2C", "D2Z" },
                                             { "C2R", "Z2D" } };
    return names[k->kind][k->dbl ? 1 : 0];
}

/* ======================================================================== */
/* Making and destroying plans                                               */
/* ======================================================================== */
#if CA_HAVE_CUDA
static cufftType
cufft_type(const plan_key *k)
{
    static const cufftType t[3][2] = { { CUFFT_C2C, CUFFT_Z2Z },
                                       { CUFFT_R2C, CUFFT_D2Z },
                                       { CUFFT_C2R, CUFFT_Z2D } };
    return t[k->kind][k->dbl ? 1 : 0];
}
#endif

/* A new plan for `k` (not in any cache yet). */
static fft_plan *
plan_make(int device, const plan_key *k)
{
    fft_plan *p = (fft_plan *)PyMem_Calloc(1, sizeof(fft_plan));
    if (p == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(&p->key, k, sizeof *k); /* padding too: keys are compared with memcmp */
    p->handle = -1;
    if (device == CA_CPU) {
        /* The emulation's work area: a size that grows with the transform, so
         * the memsize limit can be tested. */
        long long m = 16;
        for (int i = 0; i < k->rank; i++) {
            m *= k->n[i];
        }
        p->ws_size = (size_t)m;
        return p;
    }
#if CA_HAVE_CUDA
    const ca_cufft_api *api = ca_cufft();
    if (api == NULL) {
        PyMem_Free(p);
        return NULL;
    }
    cufftHandle h;
    cufftResult st = api->Create(&h);
    if (st != CUFFT_SUCCESS) {
        PyMem_Free(p);
        ca_cufft_error((int)st, "cufftCreate");
        return NULL;
    }
    const char *call = "cufftSetAutoAllocation(plan, 0)";
    st = api->SetAutoAllocation(h, 0);
    if (st == CUFFT_SUCCESS) {
        /* cuFFT takes non-const arrays; the key keeps its own copy. */
        long long n[CA_FFT_MAX_RANK], ie[CA_FFT_MAX_RANK], oe[CA_FFT_MAX_RANK];
        memcpy(n, k->n, sizeof n);
        memcpy(ie, k->inembed, sizeof ie);
        memcpy(oe, k->onembed, sizeof oe);
        size_t ws = 0;
        call = "cufftMakePlanMany64";
        st = api->MakePlanMany64(h, k->rank, n, ie, k->istride, k->idist, oe,
                                 k->ostride, k->odist, cufft_type(k), k->batch, &ws);
        p->ws_size = ws;
    }
    if (st != CUFFT_SUCCESS) {
        (void)api->Destroy(h);
        PyMem_Free(p);
        ca_cufft_error((int)st, call);
        return NULL;
    }
    p->handle = h;
    return p;
#else
    PyMem_Free(p);
    ca_launch_status(CA_KERR_NO_CUDA, "cufftMakePlanMany64");
    return NULL;
#endif
}

/* Never raises. cufftDestroy frees the plan's own device memory, which waits
 * for work that may still use it (cudaFree synchronizes); the work area goes
 * back to the pool stream-ordered. */
static void
plan_destroy(fft_plan *p)
{
#if CA_HAVE_CUDA
    if (p->handle >= 0) {
        const ca_cufft_api *api = ca_cufft();
        if (api != NULL) {
            (void)api->Destroy(p->handle);
        }
        else {
            PyErr_Clear();
        }
    }
#endif
    Py_CLEAR(p->ws);
    PyMem_Free(p);
}

/* A plan out of the cache: destroyed now, or by its last user. */
static void
plan_retire(fft_plan *p)
{
    if (p->users > 0) {
        p->doomed = 1;
    }
    else {
        plan_destroy(p);
    }
}

/* ======================================================================== */
/* The LRU cache                                                             */
/* ======================================================================== */
static void
cache_unlink(plan_cache *c, fft_plan *p)
{
    if (p->prev != NULL) {
        p->prev->next = p->next;
    }
    else {
        c->head = p->next;
    }
    if (p->next != NULL) {
        p->next->prev = p->prev;
    }
    else {
        c->tail = p->prev;
    }
    p->prev = p->next = NULL;
    c->count--;
    c->mem -= (long long)p->ws_size;
}

static void
cache_push_front(plan_cache *c, fft_plan *p)
{
    p->prev = NULL;
    p->next = c->head;
    if (c->head != NULL) {
        c->head->prev = p;
    }
    c->head = p;
    if (c->tail == NULL) {
        c->tail = p;
    }
    c->count++;
    c->mem += (long long)p->ws_size;
}

/* Evict least recently used plans until `plans` more plans with `bytes` more
 * work area fit the limits. */
static void
cache_make_room(plan_cache *c, Py_ssize_t plans, long long bytes)
{
    while (c->tail != NULL &&
           (c->count + plans > c->size_limit ||
            (c->memsize_limit >= 0 && c->mem + bytes > c->memsize_limit))) {
        fft_plan *p = c->tail;
        cache_unlink(c, p);
        plan_retire(p);
    }
}

static fft_plan *
cache_find(plan_cache *c, const plan_key *k)
{
    for (fft_plan *p = c->head; p != NULL; p = p->next) {
        if (memcmp(&p->key, k, sizeof *k) == 0) {
            if (p != c->head) {
                cache_unlink(c, p);
                cache_push_front(c, p);
            }
            return p;
        }
    }
    return NULL;
}

/* The plan for `k`: cached, or made now. *uncached = 1 when it does not fit the
 * cache's limits (the caller destroys it after use). */
static fft_plan *
cache_get(int device, const plan_key *k, int *uncached)
{
    *uncached = 0;
    plan_cache *c = cache_of(device);
    if (c == NULL) {
        return NULL;
    }
    fft_plan *p = cache_find(c, k);
    if (p != NULL) {
        return p;
    }
    p = plan_make(device, k);
    if (p == NULL) {
        return NULL;
    }
    if (c->size_limit < 1 ||
        (c->memsize_limit >= 0 && (long long)p->ws_size > c->memsize_limit)) {
        *uncached = 1;
        return p;
    }
    cache_make_room(c, 1, (long long)p->ws_size);
    cache_push_front(c, p);
    return p;
}

int
ca_fft_cache_set_limits(int device, Py_ssize_t size, long long memsize)
{
    plan_cache *c = cache_of(device);
    if (c == NULL) {
        return -1;
    }
    c->size_limit = size < 0 ? 0 : size;
    c->memsize_limit = memsize < 0 ? -1 : memsize;
    cache_make_room(c, 0, 0);
    return 0;
}

void
ca_fft_cache_clear(int device)
{
    plan_cache *c = cache_of(device);
    if (c == NULL) {
        PyErr_Clear();
        return;
    }
    while (c->tail != NULL) {
        fft_plan *p = c->tail;
        cache_unlink(c, p);
        plan_retire(p);
    }
}

static PyObject *
plan_info(const fft_plan *p)
{
    const plan_key *k = &p->key;
    PyObject *n = PyTuple_New(k->rank);
    if (n == NULL) {
        return NULL;
    }
    for (int i = 0; i < k->rank; i++) {
        PyObject *v = PyLong_FromLongLong(k->n[i]);
        if (v == NULL) {
            Py_DECREF(n);
            return NULL;
        }
        PyTuple_SET_ITEM(n, i, v);
    }
    return Py_BuildValue("(siNLLLLLn)", type_name(k), k->rank, n, k->batch, k->istride,
                         k->idist, k->ostride, k->odist, (Py_ssize_t)p->ws_size);
}

PyObject *
ca_fft_cache_info(int device)
{
    plan_cache *c = cache_of(device);
    if (c == NULL) {
        return NULL;
    }
    PyObject *plans = PyList_New(0);
    if (plans == NULL) {
        return NULL;
    }
    for (fft_plan *p = c->head; p != NULL; p = p->next) {
        PyObject *e = plan_info(p);
        if (e == NULL || PyList_Append(plans, e) < 0) {
            Py_XDECREF(e);
            Py_DECREF(plans);
            return NULL;
        }
        Py_DECREF(e);
    }
    return Py_BuildValue("(nLnLN)", c->size_limit, c->memsize_limit, c->count, c->mem,
                         plans);
}

const char *
ca_fft_lib_path(void)
{
    return ca_cufft_path();
}

/* ======================================================================== */
/* Running a plan                                                            */
/* ======================================================================== */
/* The plan's work area, for work queued on `stream`. */
static int
plan_work_area(int device, fft_plan *p, ca_stream_t stream)
{
    if (p->ws_size == 0 || (p->ws != NULL && p->ws_stream == stream)) {
        return 0;
    }
    /* The old area may still be in use by work on the old stream: releasing it
     * to the stream-ordered pool is safe, reusing it here is not. */
    Py_CLEAR(p->ws);
    ca_memkind kind = device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE;
    CaMemory *ws = ca_hook.memory_alloc(device, kind, p->ws_size, stream);
    if (ws == NULL) {
        return -1;
    }
#if CA_HAVE_CUDA
    if (p->handle >= 0) {
        const ca_cufft_api *api = ca_cufft();
        if (api == NULL) {
            Py_DECREF(ws);
            return -1;
        }
        cufftResult st = api->SetWorkArea(p->handle, ws->ptr);
        if (st != CUFFT_SUCCESS) {
            Py_DECREF(ws);
            return ca_cufft_error((int)st, "cufftSetWorkArea");
        }
    }
#endif
    /* (another user may have set one while the pool let the GIL go) */
    Py_XSETREF(p->ws, ws);
    p->ws_stream = stream;
    return 0;
}

#if CA_HAVE_CUDA
static int
exec_gpu(const fft_plan *p, const ca_fft_layout *l, ca_stream_t stream, int direction,
         char *in, char *out)
{
    const ca_cufft_api *api = ca_cufft();
    if (api == NULL) {
        return -1;
    }
    cufftResult st =
        CA_FAULT(CA_FAULT_LIBRARY_CALL)
            ? CUFFT_INTERNAL_ERROR /* the injected fault: as a failed call */
            : api->SetStream(p->handle, (cudaStream_t)stream);
    if (st != CUFFT_SUCCESS) {
        return ca_cufft_error((int)st, "cufftSetStream");
    }
    const char *call = "cufftExec";
    for (long long i = 0; i < l->loop && st == CUFFT_SUCCESS; i++) {
        char *x = in + i * l->loop_in, *y = out + i * l->loop_out;
        switch (l->kind * 2 + (l->dbl ? 1 : 0)) {
        case 0:
            call = "cufftExecC2C";
            st = api->ExecC2C(p->handle, (cufftComplex *)x, (cufftComplex *)y,
                              direction);
            break;
        case 1:
            call = "cufftExecZ2Z";
            st = api->ExecZ2Z(p->handle, (cufftDoubleComplex *)x,
                              (cufftDoubleComplex *)y, direction);
            break;
        case 2:
            call = "cufftExecR2C";
            st = api->ExecR2C(p->handle, (cufftReal *)x, (cufftComplex *)y);
            break;
        case 3:
            call = "cufftExecD2Z";
            st = api->ExecD2Z(p->handle, (cufftDoubleReal *)x, (cufftDoubleComplex *)y);
            break;
        case 4:
            call = "cufftExecC2R";
            st = api->ExecC2R(p->handle, (cufftComplex *)x, (cufftReal *)y);
            break;
        default:
            call = "cufftExecZ2D";
            st = api->ExecZ2D(p->handle, (cufftDoubleComplex *)x, (cufftDoubleReal *)y);
            break;
        }
    }
    return st == CUFFT_SUCCESS ? 0 : ca_cufft_error((int)st, call);
}
#endif

/* ---- NumPy standing in for cuFFT (the emulation test switch) ---- */
static PyObject *np_fft_mod = NULL;

/* A NumPy view of one side of the layout at `data`: (batch, lengths...). */
static PyObject *
host_side(const ca_fft_layout *l, int complex_side, int input, char *data)
{
    const int r = l->rank;
    npy_intp dims[CA_FFT_MAX_RANK + 1], strides[CA_FFT_MAX_RANK + 1];
    const long long *embed = input ? l->inembed : l->onembed;
    long long st = input ? l->istride : l->ostride;
    int type = complex_side ? (l->dbl ? NPY_CDOUBLE : NPY_CFLOAT)
                            : (l->dbl ? NPY_DOUBLE : NPY_FLOAT);
    int item = (l->dbl ? 8 : 4) * (complex_side ? 2 : 1);
    dims[0] = (npy_intp)l->batch;
    strides[0] = (npy_intp)((input ? l->idist : l->odist) * item);
    for (int k = r - 1; k >= 0; k--) {
        dims[k + 1] = (npy_intp)l->n[k];
        strides[k + 1] = (npy_intp)(st * item);
        st *= embed[k];
    }
    if (complex_side && l->kind != CA_FFT_C2C) {
        dims[r] = (npy_intp)(l->n[r - 1] / 2 + 1);
    }
    return PyArray_New(&PyArray_Type, r + 1, dims, type, strides, data, 0,
                       NPY_ARRAY_WRITEABLE, NULL);
}

static PyObject *
host_transform(const ca_fft_layout *l, int direction, PyObject *xv)
{
    PyObject *axes = NULL, *s = NULL, *r = NULL;
    const char *fn = l->kind == CA_FFT_R2C   ? "rfftn"
                     : l->kind == CA_FFT_C2R ? "irfftn"
                     : direction < 0         ? "fftn"
                                             : "ifftn";
    axes = PyTuple_New(l->rank);
    s = PyTuple_New(l->rank);
    if (axes == NULL || s == NULL) {
        goto done;
    }
    for (int k = 0; k < l->rank; k++) {
        PyTuple_SET_ITEM(axes, k, PyLong_FromLong(k + 1));
        PyTuple_SET_ITEM(s, k, PyLong_FromLongLong(l->n[k]));
    }
    /* cuFFT does not normalise: "forward" leaves the inverse unscaled. */
    r = PyObject_CallMethod(np_fft_mod, fn, "OOOs", xv, s, axes,
                            direction < 0 ? "backward" : "forward");
done:
    Py_XDECREF(axes);
    Py_XDECREF(s);
    return r;
}

static int
exec_host(const ca_fft_layout *l, int direction, char *in, char *out)
{
    if (np_fft_mod == NULL &&
        (np_fft_mod = PyImport_ImportModule("numpy.fft")) == NULL) {
        return -1;
    }
    for (long long i = 0; i < l->loop; i++) {
        PyObject *xv = host_side(l, l->kind != CA_FFT_R2C, 1, in + i * l->loop_in);
        PyObject *yv = host_side(l, l->kind != CA_FFT_C2R, 0, out + i * l->loop_out);
        PyObject *r = xv && yv ? host_transform(l, direction, xv) : NULL;
        int rc = r == NULL ? -1 : 0;
        if (rc == 0 && l->kind == CA_FFT_C2R) {
            /* cuFFT may overwrite a C2R input: so does its stand-in. */
            PyObject *nan = PyFloat_FromDouble(Py_NAN);
            rc = nan == NULL ? -1 : PyArray_FillWithScalar((PyArrayObject *)xv, nan);
            Py_XDECREF(nan);
        }
        if (rc == 0) {
            rc = PyArray_CopyInto((PyArrayObject *)yv, (PyArrayObject *)r);
        }
        Py_XDECREF(xv);
        Py_XDECREF(yv);
        Py_XDECREF(r);
        if (rc < 0) {
            return -1;
        }
    }
    return 0;
}

int
ca_run_fft(int device, ca_stream_t stream, const ca_fft_layout *l, int direction,
           void *in, void *out)
{
    CA_COUNT(library_calls);
    plan_key k;
    memset(&k, 0, sizeof k); /* the key is compared with memcmp */
    k.kind = l->kind;
    k.dbl = l->dbl;
    k.rank = l->rank;
    for (int i = 0; i < l->rank; i++) {
        k.n[i] = l->n[i];
        k.inembed[i] = l->inembed[i];
        k.onembed[i] = l->onembed[i];
    }
    k.istride = l->istride;
    k.idist = l->idist;
    k.ostride = l->ostride;
    k.odist = l->odist;
    k.batch = l->batch;
    /* cuFFT enqueues behind deferred element-wise work (fusion.c) */
    ca_launch_flush();
    int uncached;
    fft_plan *p = cache_get(device, &k, &uncached);
    if (p == NULL) {
        return -1;
    }
    p->users++;
    int rc = plan_work_area(device, p, stream);
    if (rc == 0) {
#if CA_HAVE_CUDA
        rc = device == CA_CPU
                 ? exec_host(l, direction, (char *)in, (char *)out)
                 : exec_gpu(p, l, stream, direction, (char *)in, (char *)out);
#else
        rc = exec_host(l, direction, (char *)in, (char *)out);
#endif
    }
    if (--p->users == 0 && (uncached || p->doomed)) {
        plan_destroy(p);
    }
    return rc;
}

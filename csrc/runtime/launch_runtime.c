/*
 * launch_runtime.c: the CUDA runtime calls behind cuarray.cuda.runtime, the
 * memory objects of cuarray.cuda.memory, cuda.nvtx and cuda.profiler (launch.h
 * says the rules). They are what CuPy code reaches for beside the arrays: raw
 * allocations outside the pools, copies with an explicit direction, device
 * properties as a dict.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"

#include <string.h>

#if CA_HAVE_CUDA
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>
#endif

/* Flush deferred work, then run and check `call`. */
#define RUN(call) (ca_launch_flush(), CA_LAUNCH_CHECK(call))

#if CA_HAVE_CUDA

/* Run `call` into `st` without the GIL, then check it against its text. */
#define RUN_NOGIL(call)                                                                \
    do {                                                                               \
        cudaError_t st;                                                                \
        Py_BEGIN_ALLOW_THREADS                                                         \
            st = (call);                                                               \
        Py_END_ALLOW_THREADS                                                           \
        return ca_launch_status((int)st, #call);                                       \
    } while (0)

int
ca_run_malloc(void **p, size_t n)
{
    *p = NULL;
    RUN_NOGIL(cudaMalloc(p, n));
}

int
ca_run_free(void *p)
{
    ca_launch_flush(); /* deferred kernels may still write it */
    RUN_NOGIL(cudaFree(p));
}

int
ca_run_malloc_managed(void **p, size_t n, unsigned flags)
{
    *p = NULL;
    RUN_NOGIL(cudaMallocManaged(p, n, flags));
}

int
ca_run_malloc_async(void **p, size_t n, ca_stream_t stream)
{
    *p = NULL;
    return RUN(cudaMallocAsync(p, n, (cudaStream_t)stream));
}

int
ca_run_free_async(void *p, ca_stream_t stream)
{
    return RUN(cudaFreeAsync(p, (cudaStream_t)stream));
}

/* st, or, when it is a success and `wait` is set, the wait for the stream (then
 * named in *call). Runs without the GIL. */
static cudaError_t
then_sync(cudaError_t st, int wait, ca_stream_t stream, const char **call)
{
    if (st == cudaSuccess && wait) {
        *call = "cudaStreamSynchronize(stream)";
        st = cudaStreamSynchronize((cudaStream_t)stream);
    }
    return st;
}

int
ca_run_memcpy_kind(void *dst, const void *src, size_t n, int kind, ca_stream_t stream,
                   int wait)
{
    cudaError_t st;
    const char *call = "cudaMemcpyAsync(dst, src, size, kind, stream)";
    if (kind < (int)cudaMemcpyHostToHost || kind > (int)cudaMemcpyDefault) {
        PyErr_Format(PyExc_ValueError, "invalid cudaMemcpyKind %d (expected 0..4)",
                     kind);
        return -1;
    }
    /* counted by kind: cudaMemcpyDefault's direction is the pointers' */
    if (kind == (int)cudaMemcpyHostToDevice) {
        ca_count_h2d(n);
    }
    else if (kind == (int)cudaMemcpyDeviceToHost) {
        ca_count_d2h(n);
    }
    if (wait) {
        CA_COUNT(syncs);
    }
    ca_launch_flush();
    Py_BEGIN_ALLOW_THREADS
        st = cudaMemcpyAsync(dst, src, n, (enum cudaMemcpyKind)kind,
                             (cudaStream_t)stream);
        st = then_sync(st, wait, stream, &call);
    Py_END_ALLOW_THREADS
    return ca_launch_status((int)st, call);
}

int
ca_run_memset(void *dst, int value, size_t n, ca_stream_t stream, int wait)
{
    cudaError_t st;
    const char *call = "cudaMemsetAsync(dst, value, size, stream)";
    ca_launch_flush();
    Py_BEGIN_ALLOW_THREADS
        st = cudaMemsetAsync(dst, value, n, (cudaStream_t)stream);
        st = then_sync(st, wait, stream, &call);
    Py_END_ALLOW_THREADS
    return ca_launch_status((int)st, call);
}

int
ca_run_device_attribute(int *value, int attr, int device)
{
    *value = 0;
    return CA_LAUNCH_CHECK(
        cudaDeviceGetAttribute(value, (enum cudaDeviceAttr)attr, device));
}

/* d[key] = o, a new reference (stolen; NULL: the error it raised); -1 on failure. */
static int
put(PyObject *d, const char *key, PyObject *o)
{
    int rc = o == NULL ? -1 : PyDict_SetItemString(d, key, o);
    Py_XDECREF(o);
    return rc;
}

static int
put_int(PyObject *d, const char *key, long long v)
{
    return put(d, key, PyLong_FromLongLong(v));
}

static int
put_triple(PyObject *d, const char *key, const int *v)
{
    return put(d, key, Py_BuildValue("(iii)", v[0], v[1], v[2]));
}

PyObject *
ca_device_props_dict(int device)
{
    struct cudaDeviceProp p;
    cudaError_t st;
    PyObject *d = NULL, *name = NULL;
    memset(&p, 0, sizeof p);
    Py_BEGIN_ALLOW_THREADS /* the first query may create the context */
        st = cudaGetDeviceProperties(&p, device);
    Py_END_ALLOW_THREADS
    if (ca_launch_status((int)st, "cudaGetDeviceProperties(&prop, device)") < 0) {
        return NULL;
    }
    p.name[sizeof p.name - 1] = '\0';
    d = PyDict_New();
    /* CuPy gives the name as bytes */
    name = PyBytes_FromString(p.name);
    if (d == NULL || name == NULL || PyDict_SetItemString(d, "name", name) < 0) {
        goto error;
    }
    Py_CLEAR(name);
    const struct {
        const char *key;
        long long v;
    } ints[] = {
        { "totalGlobalMem", (long long)p.totalGlobalMem },
        { "sharedMemPerBlock", (long long)p.sharedMemPerBlock },
        { "regsPerBlock", p.regsPerBlock },
        { "warpSize", p.warpSize },
        { "memPitch", (long long)p.memPitch },
        { "maxThreadsPerBlock", p.maxThreadsPerBlock },
        { "totalConstMem", (long long)p.totalConstMem },
        { "major", p.major },
        { "minor", p.minor },
        { "textureAlignment", (long long)p.textureAlignment },
        { "multiProcessorCount", p.multiProcessorCount },
        { "integrated", p.integrated },
        { "canMapHostMemory", p.canMapHostMemory },
        { "concurrentKernels", p.concurrentKernels },
        { "ECCEnabled", p.ECCEnabled },
        { "pciBusID", p.pciBusID },
        { "pciDeviceID", p.pciDeviceID },
        { "pciDomainID", p.pciDomainID },
        { "asyncEngineCount", p.asyncEngineCount },
        { "unifiedAddressing", p.unifiedAddressing },
        { "memoryBusWidth", p.memoryBusWidth },
        { "l2CacheSize", p.l2CacheSize },
        { "maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor },
        { "sharedMemPerMultiprocessor", (long long)p.sharedMemPerMultiprocessor },
        { "regsPerMultiprocessor", p.regsPerMultiprocessor },
        { "managedMemory", p.managedMemory },
        { "isMultiGpuBoard", p.isMultiGpuBoard },
        { "concurrentManagedAccess", p.concurrentManagedAccess },
        { "sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin },
        { "maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor },
    };
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        if (put_int(d, ints[i].key, ints[i].v) < 0) {
            goto error;
        }
    }
    if (put_triple(d, "maxThreadsDim", p.maxThreadsDim) < 0 ||
        put_triple(d, "maxGridSize", p.maxGridSize) < 0) {
        goto error;
    }
    return d;
error:
    Py_XDECREF(name);
    Py_XDECREF(d);
    return NULL;
}

int
ca_run_profiler(int start)
{
    return start ? RUN(cudaProfilerStart()) : RUN(cudaProfilerStop());
}

static void
nvtx_attributes(nvtxEventAttributes_t *a, const char *message, long long argb)
{
    memset(a, 0, sizeof *a);
    a->version = NVTX_VERSION;
    a->size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    if (argb >= 0) {
        a->colorType = NVTX_COLOR_ARGB;
        a->color = (uint32_t)argb;
    }
    a->messageType = NVTX_MESSAGE_TYPE_ASCII;
    a->message.ascii = message;
}

int
ca_nvtx_range_push(const char *message, long long argb)
{
    nvtxEventAttributes_t a;
    nvtx_attributes(&a, message, argb);
    return nvtxRangePushEx(&a);
}

int
ca_nvtx_range_pop(void)
{
    return nvtxRangePop();
}

void
ca_nvtx_mark(const char *message, long long argb)
{
    nvtxEventAttributes_t a;
    nvtx_attributes(&a, message, argb);
    nvtxMarkEx(&a);
}

#else /* !CA_HAVE_CUDA: no device, so every call says so */

static int
no_device(const char *call)
{
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, call);
}

int
ca_run_malloc(void **p, size_t n)
{
    *p = NULL;
    return no_device("cudaMalloc");
}

int
ca_run_free(void *p)
{
    return p == NULL ? 0 : no_device("cudaFree");
}

int
ca_run_malloc_managed(void **p, size_t n, unsigned flags)
{
    *p = NULL;
    return no_device("cudaMallocManaged");
}

int
ca_run_malloc_async(void **p, size_t n, ca_stream_t stream)
{
    *p = NULL;
    return no_device("cudaMallocAsync");
}

int
ca_run_free_async(void *p, ca_stream_t stream)
{
    return no_device("cudaFreeAsync");
}

int
ca_run_memcpy_kind(void *dst, const void *src, size_t n, int kind, ca_stream_t stream,
                   int wait)
{
    return no_device("cudaMemcpyAsync");
}

int
ca_run_memset(void *dst, int value, size_t n, ca_stream_t stream, int wait)
{
    return no_device("cudaMemsetAsync");
}

int
ca_run_device_attribute(int *value, int attr, int device)
{
    *value = 0;
    return no_device("cudaDeviceGetAttribute");
}

PyObject *
ca_device_props_dict(int device)
{
    no_device("cudaGetDeviceProperties");
    return NULL;
}

int
ca_run_profiler(int start)
{
    return no_device(start ? "cudaProfilerStart" : "cudaProfilerStop");
}

int
ca_nvtx_range_push(const char *message, long long argb)
{
    return 0;
}

int
ca_nvtx_range_pop(void)
{
    return 0;
}

void
ca_nvtx_mark(const char *message, long long argb)
{}

#endif /* CA_HAVE_CUDA */

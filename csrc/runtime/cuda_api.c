/*
 * cuda_api.c: the C half of cuarray.cuda.runtime, .nvtx, .profiler and the raw
 * allocations behind cuarray.cuda.memory's objects (python/cuarray/cuda/ holds
 * the CuPy-named functions and classes over these). Every CUDA call goes
 * through the launch layer (launch_runtime.c); pointers travel as Python ints.
 */
#include "launch.h"

/* The GPU these calls act on: the current device. With the cpu device current
 * and no GPU at all, the CUDA error that says so; with GPUs but the cpu
 * current, ValueError. */
static int
current_gpu(const char *what, int *device)
{
    int d = ca_current_device();
    if (d == CA_CPU) {
        if (ca_device_count() > 0) {
            PyErr_Format(
                PyExc_ValueError,
                "%s acts on the current CUDA device, and the current device "
                "is the cpu: make a GPU current (cuarray.cuda.Device(0).use())",
                what);
            return -1;
        }
        d = 0; /* no GPU: ca_use_device reports CUDA's own error */
    }
    *device = d;
    return ca_use_device(d);
}

static int
pointer_arg(PyObject *o, void **p)
{
    *p = PyLong_AsVoidPtr(o);
    return (*p == NULL && PyErr_Occurred()) ? 0 : 1;
}

static int
stream_arg(PyObject *o, ca_stream_t *s)
{
    int ok = 1;
    *s = ca_stream_from_object(o, &ok);
    return ok;
}

static PyObject *
rt_malloc(PyObject *m, PyObject *args)
{
    Py_ssize_t n;
    int device, kind = 0;
    unsigned flags = 1; /* cudaMemAttachGlobal */
    void *p = NULL;
    if (!PyArg_ParseTuple(args, "n|iI:_rt_malloc", &n, &kind, &flags) ||
        current_gpu("cuarray.cuda.runtime.malloc", &device) < 0) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "size must be >= 0, not %zd", n);
        return NULL;
    }
    int rc = kind == 0 ? ca_run_malloc(&p, (size_t)n)
                       : ca_run_malloc_managed(&p, (size_t)n, flags);
    return rc < 0 ? NULL : PyLong_FromVoidPtr(p);
}

static PyObject *
rt_free(PyObject *m, PyObject *arg)
{
    void *p;
    if (!pointer_arg(arg, &p) || ca_run_free(p) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
rt_malloc_async(PyObject *m, PyObject *args)
{
    Py_ssize_t n;
    PyObject *so = Py_None;
    ca_stream_t s;
    int device;
    void *p = NULL;
    if (!PyArg_ParseTuple(args, "n|O:_rt_malloc_async", &n, &so) ||
        current_gpu("cuarray.cuda.runtime.mallocAsync", &device) < 0 ||
        !stream_arg(so, &s)) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "size must be >= 0, not %zd", n);
        return NULL;
    }
    return ca_run_malloc_async(&p, (size_t)n, s) < 0 ? NULL : PyLong_FromVoidPtr(p);
}

static PyObject *
rt_free_async(PyObject *m, PyObject *args)
{
    PyObject *po, *so = Py_None;
    void *p;
    ca_stream_t s;
    if (!PyArg_ParseTuple(args, "O|O:_rt_free_async", &po, &so) ||
        !pointer_arg(po, &p) || !stream_arg(so, &s) || ca_run_free_async(p, s) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* What a copy or memset of n <= 0 bytes returns: None, or ValueError when n < 0. */
static PyObject *
empty_size(Py_ssize_t n)
{
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "size must be >= 0, not %zd", n);
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
rt_memcpy(PyObject *m, PyObject *args)
{
    PyObject *dst, *src, *so = Py_None;
    Py_ssize_t n;
    int kind = 4, wait = 1, device;
    void *d, *s;
    ca_stream_t st;
    if (!PyArg_ParseTuple(args, "OOn|iOp:_rt_memcpy", &dst, &src, &n, &kind, &so,
                          &wait) ||
        !pointer_arg(dst, &d) || !pointer_arg(src, &s)) {
        return NULL;
    }
    if (n <= 0) {
        return empty_size(n);
    }
    if (current_gpu("cuarray.cuda.runtime.memcpy", &device) < 0 ||
        !stream_arg(so, &st) ||
        ca_run_memcpy_kind(d, s, (size_t)n, kind, st, wait) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
rt_memset(PyObject *m, PyObject *args)
{
    PyObject *dst, *so = Py_None;
    Py_ssize_t n;
    int value, wait = 1, device;
    void *d;
    ca_stream_t st;
    if (!PyArg_ParseTuple(args, "Oin|Op:_rt_memset", &dst, &value, &n, &so, &wait) ||
        !pointer_arg(dst, &d)) {
        return NULL;
    }
    if (n <= 0) {
        return empty_size(n);
    }
    if (current_gpu("cuarray.cuda.runtime.memset", &device) < 0 ||
        !stream_arg(so, &st) || ca_run_memset(d, value, (size_t)n, st, wait) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
rt_host_alloc(PyObject *m, PyObject *args)
{
    Py_ssize_t n;
    int mapped = 1, device;
    void *p = NULL;
    if (!PyArg_ParseTuple(args, "n|p:_rt_host_alloc", &n, &mapped) ||
        current_gpu("cuarray.cuda.runtime.hostAlloc", &device) < 0) {
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "size must be >= 0, not %zd", n);
        return NULL;
    }
    int st;
    Py_BEGIN_ALLOW_THREADS
        st = ca_rt_host_alloc(&p, (size_t)n, mapped);
    Py_END_ALLOW_THREADS
    if (st != 0) {
        return ca_cuda_error(st, "cudaHostAlloc(&ptr, size, flags)");
    }
    return PyLong_FromVoidPtr(p);
}

static PyObject *
rt_host_free(PyObject *m, PyObject *arg)
{
    void *p;
    int st;
    if (!pointer_arg(arg, &p)) {
        return NULL;
    }
    ca_launch_flush(); /* deferred kernels may still read it */
    Py_BEGIN_ALLOW_THREADS
        st = ca_rt_host_free(p);
    Py_END_ALLOW_THREADS
    if (st != 0) {
        return ca_cuda_error(st, "cudaFreeHost(ptr)");
    }
    Py_RETURN_NONE;
}

static PyObject *
rt_device_properties(PyObject *m, PyObject *arg)
{
    int device = PyLong_AsLong(arg);
    if (device == -1 && PyErr_Occurred()) {
        return NULL;
    }
    return ca_device_props_dict(device);
}

static PyObject *
rt_device_attribute(PyObject *m, PyObject *args)
{
    int attr, device, v;
    if (!PyArg_ParseTuple(args, "ii:_rt_device_attribute", &attr, &device) ||
        ca_run_device_attribute(&v, attr, device) < 0) {
        return NULL;
    }
    return PyLong_FromLong(v);
}

static PyObject *
rt_pointer_info(PyObject *m, PyObject *arg)
{
    void *p;
    ca_pointer_info info;
    if (!pointer_arg(arg, &p)) {
        return NULL;
    }
    int st = ca_rt_pointer_info(p, &info);
    if (st != 0) {
        return ca_cuda_error(st, "cudaPointerGetAttributes(&attr, ptr)");
    }
    return Py_BuildValue("(iiNN)", info.type, info.device,
                         PyLong_FromVoidPtr(info.device_ptr),
                         PyLong_FromVoidPtr(info.host_ptr));
}

static PyObject *
rt_stream_sync(PyObject *m, PyObject *arg)
{
    ca_stream_t s;
    if (!stream_arg(arg, &s) || ca_run_stream_sync(s) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
profiler(PyObject *m, PyObject *arg)
{
    int device, start = PyObject_IsTrue(arg);
    if (start < 0 || current_gpu("cuarray.cuda.profiler", &device) < 0 ||
        ca_run_profiler(start) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
nvtx_push(PyObject *m, PyObject *args)
{
    const char *msg;
    long long argb = -1;
    if (!PyArg_ParseTuple(args, "s|L:_nvtx_push", &msg, &argb)) {
        return NULL;
    }
    return PyLong_FromLong(ca_nvtx_range_push(msg, argb));
}

static PyObject *
nvtx_pop(PyObject *m, PyObject *unused)
{
    return PyLong_FromLong(ca_nvtx_range_pop());
}

static PyObject *
nvtx_mark(PyObject *m, PyObject *args)
{
    const char *msg;
    long long argb = -1;
    if (!PyArg_ParseTuple(args, "s|L:_nvtx_mark", &msg, &argb)) {
        return NULL;
    }
    ca_nvtx_mark(msg, argb);
    Py_RETURN_NONE;
}

static PyObject *
cublas_handle(PyObject *m, PyObject *unused)
{
    int device;
    void *h = NULL;
    if (current_gpu("cuarray.cuda.get_cublas_handle", &device) < 0 ||
        ca_run_blas_handle(device, ca_current_stream(device), &h) < 0) {
        return NULL;
    }
    return PyLong_FromVoidPtr(h);
}

static PyMethodDef cuda_api_functions[] = {
    { "_rt_malloc", rt_malloc, METH_VARARGS,
      "_rt_malloc(size, managed=0, flags=1): cudaMalloc / cudaMallocManaged." },
    { "_rt_free", rt_free, METH_O, "_rt_free(ptr): cudaFree." },
    { "_rt_malloc_async", rt_malloc_async, METH_VARARGS,
      "_rt_malloc_async(size, stream=None): cudaMallocAsync." },
    { "_rt_free_async", rt_free_async, METH_VARARGS,
      "_rt_free_async(ptr, stream=None): cudaFreeAsync." },
    { "_rt_memcpy", rt_memcpy, METH_VARARGS,
      "_rt_memcpy(dst, src, size, kind=4, stream=None, wait=True)." },
    { "_rt_memset", rt_memset, METH_VARARGS,
      "_rt_memset(dst, value, size, stream=None, wait=True)." },
    { "_rt_host_alloc", rt_host_alloc, METH_VARARGS,
      "_rt_host_alloc(size, mapped=True): portable pinned host memory." },
    { "_rt_host_free", rt_host_free, METH_O, "_rt_host_free(ptr): cudaFreeHost." },
    { "_rt_device_properties", rt_device_properties, METH_O,
      "_rt_device_properties(device): cudaGetDeviceProperties as a dict." },
    { "_rt_device_attribute", rt_device_attribute, METH_VARARGS,
      "_rt_device_attribute(attr, device): cudaDeviceGetAttribute." },
    { "_rt_pointer_info", rt_pointer_info, METH_O,
      "_rt_pointer_info(ptr): (type, device, device_ptr, host_ptr)." },
    { "_rt_stream_sync", rt_stream_sync, METH_O, "_rt_stream_sync(stream)." },
    { "_profiler", profiler, METH_O, "_profiler(start): cudaProfilerStart/Stop." },
    { "_nvtx_push", nvtx_push, METH_VARARGS, "_nvtx_push(message, argb=-1)." },
    { "_nvtx_pop", nvtx_pop, METH_NOARGS, "_nvtx_pop()." },
    { "_nvtx_mark", nvtx_mark, METH_VARARGS, "_nvtx_mark(message, argb=-1)." },
    { "_cublas_handle", cublas_handle, METH_NOARGS,
      "_cublas_handle(): the current device's cuBLAS handle (an int)." },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(cuda_api, cuda_api_functions)

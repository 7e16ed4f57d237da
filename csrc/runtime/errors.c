/*
 * errors.c: every CUDA, cuBLAS, cuRAND, cuFFT, cuSOLVER and kernel status becomes a Python
 * exception here, in one place.
 *
 * CUDAError (a RuntimeError) carries .status, .name, .text and .call, so code
 * can branch on the status and a user can see which call failed. cuBLAS,
 * cuRAND, cuFFT and cuSOLVER statuses have their own subclasses with their own name tables (their
 * numbers overlap the runtime's). Out of device memory is an
 * OutOfMemoryError, a MemoryError, so `except MemoryError` works as in NumPy.
 */
#include "cuarray.h"
#include "cuda_compat.h"
#include "faults.h"

#include <stdio.h>

/* ---- status names -------------------------------------------------------- */

typedef struct {
    int status;
    const char *name;
    const char *text;
} ca_status_name;

/* Numbers from cublas_api.h (cublasStatus_t). */
static const ca_status_name cublas_names[] = {
    { 1, "CUBLAS_STATUS_NOT_INITIALIZED", "the cuBLAS library was not initialized" },
    { 3, "CUBLAS_STATUS_ALLOC_FAILED", "resource allocation failed inside cuBLAS" },
    { 7, "CUBLAS_STATUS_INVALID_VALUE",
      "an unsupported value or parameter was passed" },
    { 8, "CUBLAS_STATUS_ARCH_MISMATCH",
      "the function needs a feature absent from this GPU" },
    { 11, "CUBLAS_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" },
    { 13, "CUBLAS_STATUS_EXECUTION_FAILED", "the GPU program failed to execute" },
    { 14, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal cuBLAS operation failed" },
    { 15, "CUBLAS_STATUS_NOT_SUPPORTED",
      "the functionality requested is not supported" },
    { 16, "CUBLAS_STATUS_LICENSE_ERROR",
      "the functionality requested requires a license" },
    { 0, NULL, NULL },
};

/* Numbers from curand.h (curandStatus_t). */
static const ca_status_name curand_names[] = {
    { 100, "CURAND_STATUS_VERSION_MISMATCH",
      "header and linked library versions differ" },
    { 101, "CURAND_STATUS_NOT_INITIALIZED", "generator not initialized" },
    { 102, "CURAND_STATUS_ALLOCATION_FAILED", "memory allocation failed" },
    { 103, "CURAND_STATUS_TYPE_ERROR", "generator is of the wrong type" },
    { 104, "CURAND_STATUS_OUT_OF_RANGE", "argument out of range" },
    { 105, "CURAND_STATUS_LENGTH_NOT_MULTIPLE",
      "length requested is not a multiple of the dimension" },
    { 106, "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED",
      "the GPU lacks the double precision the generator needs" },
    { 201, "CURAND_STATUS_LAUNCH_FAILURE", "kernel launch failure" },
    { 202, "CURAND_STATUS_PREEXISTING_FAILURE",
      "preexisting failure on library entry" },
    { 203, "CURAND_STATUS_INITIALIZATION_FAILED", "initialization of CUDA failed" },
    { 204, "CURAND_STATUS_ARCH_MISMATCH",
      "the GPU does not support the requested feature" },
    { 999, "CURAND_STATUS_INTERNAL_ERROR", "internal cuRAND error" },
    { 0, NULL, NULL },
};

/* Numbers from cufft.h (cufftResult). */
static const ca_status_name cufft_names[] = {
    { 1, "CUFFT_INVALID_PLAN", "cuFFT was passed an invalid plan handle" },
    { 2, "CUFFT_ALLOC_FAILED", "cuFFT failed to allocate GPU or CPU memory" },
    { 3, "CUFFT_INVALID_TYPE", "the transform type is not supported" },
    { 4, "CUFFT_INVALID_VALUE", "a bad pointer or parameter was passed" },
    { 5, "CUFFT_INTERNAL_ERROR", "an internal cuFFT error (often a driver problem)" },
    { 6, "CUFFT_EXEC_FAILED", "cuFFT failed to execute the transform on the GPU" },
    { 7, "CUFFT_SETUP_FAILED", "the cuFFT library failed to initialize" },
    { 8, "CUFFT_INVALID_SIZE", "the transform size or layout is not supported" },
    { 9, "CUFFT_UNALIGNED_DATA", "the data is not aligned as cuFFT needs" },
    { 11, "CUFFT_INVALID_DEVICE",
      "the plan is used on another GPU than it was made on" },
    { 13, "CUFFT_NO_WORKSPACE", "no work area was set for the plan" },
    { 14, "CUFFT_NOT_IMPLEMENTED", "the functionality is not implemented" },
    { 16, "CUFFT_NOT_SUPPORTED",
      "the operation is not supported for these parameters" },
    { 17, "CUFFT_MISSING_DEPENDENCY", "a library cuFFT depends on is missing" },
    { 18, "CUFFT_NVRTC_FAILURE", "an NVRTC failure inside cuFFT" },
    { 19, "CUFFT_NVJITLINK_FAILURE", "an nvJitLink failure inside cuFFT" },
    { 20, "CUFFT_NVSHMEM_FAILURE", "an NVSHMEM failure inside cuFFT" },
    { 0, NULL, NULL },
};

/* Numbers from cusolver_common.h (cusolverStatus_t). */
static const ca_status_name cusolver_names[] = {
    { 1, "CUSOLVER_STATUS_NOT_INITIALIZED",
      "the cuSOLVER library was not initialized" },
    { 2, "CUSOLVER_STATUS_ALLOC_FAILED", "resource allocation failed inside cuSOLVER" },
    { 3, "CUSOLVER_STATUS_INVALID_VALUE",
      "an unsupported value or parameter was passed" },
    { 4, "CUSOLVER_STATUS_ARCH_MISMATCH",
      "the function needs a feature absent from this GPU" },
    { 5, "CUSOLVER_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" },
    { 6, "CUSOLVER_STATUS_EXECUTION_FAILED", "the GPU program failed to execute" },
    { 7, "CUSOLVER_STATUS_INTERNAL_ERROR", "an internal cuSOLVER operation failed" },
    { 8, "CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
      "the matrix type is not supported" },
    { 9, "CUSOLVER_STATUS_NOT_SUPPORTED", "the operation is not supported" },
    { 10, "CUSOLVER_STATUS_ZERO_PIVOT", "a zero pivot was met" },
    { 11, "CUSOLVER_STATUS_INVALID_LICENSE", "the license is invalid" },
    { 31, "CUSOLVER_STATUS_INVALID_WORKSPACE", "the workspace is invalid" },
    { 0, NULL, NULL },
};

static const ca_status_name cusparse_names[] = {
    { 1, "CUSPARSE_STATUS_NOT_INITIALIZED",
      "the cuSPARSE library was not initialized" },
    { 2, "CUSPARSE_STATUS_ALLOC_FAILED", "resource allocation failed inside cuSPARSE" },
    { 3, "CUSPARSE_STATUS_INVALID_VALUE",
      "an unsupported value or parameter was passed" },
    { 4, "CUSPARSE_STATUS_ARCH_MISMATCH",
      "the function needs a feature absent from this GPU" },
    { 5, "CUSPARSE_STATUS_MAPPING_ERROR", "an access to GPU memory space failed" },
    { 6, "CUSPARSE_STATUS_EXECUTION_FAILED", "the GPU program failed to execute" },
    { 7, "CUSPARSE_STATUS_INTERNAL_ERROR", "an internal cuSPARSE operation failed" },
    { 8, "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED",
      "the matrix type is not supported" },
    { 9, "CUSPARSE_STATUS_ZERO_PIVOT", "a zero pivot was met" },
    { 10, "CUSPARSE_STATUS_NOT_SUPPORTED", "the operation is not supported" },
    { 11, "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES",
      "too few resources for the computation" },
    { 0, NULL, NULL },
};

#if !CA_HAVE_CUDA
/* Host-only builds have no cudaGetErrorName; these are the statuses the
 * stand-ins in cuda_compat.h return, or tests provoke. */
static const ca_status_name cudart_names[] = {
    { 1, "cudaErrorInvalidValue", "invalid argument" },
    { 2, "cudaErrorMemoryAllocation", "out of memory" },
    { 4, "cudaErrorCudartUnloading", "driver shutting down" },
    { 35, "cudaErrorInsufficientDriver",
      "CUDA driver version is insufficient for CUDA runtime version" },
    { 100, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
    { 101, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { 600, "cudaErrorNotReady", "device not ready" },
    { 0, NULL, NULL },
};
#endif

static const ca_status_name *
lookup(const ca_status_name *table, int status)
{
    for (; table->name != NULL; table++) {
        if (table->status == status) {
            return table;
        }
    }
    return NULL;
}

/* ---- raising ------------------------------------------------------------- */

/* Raise `type` with the standard message and the four attributes. `hint`, if
 * not NULL, is appended as a sentence telling the user what to do. */
static int
raise_status(PyObject *type, int status, const char *name, const char *text,
             const char *call, const char *hint)
{
    PyObject *msg = NULL, *exc = NULL, *v = NULL;

    if (call == NULL) {
        call = "?";
    }
    msg = PyUnicode_FromFormat("%s (%d) in %s: %s%s%s", name, status, call, text,
                               hint ? ". " : "", hint ? hint : "");
    if (msg == NULL) {
        goto error;
    }
    exc = PyObject_CallOneArg(type, msg);
    if (exc == NULL) {
        goto error;
    }
    if ((v = PyLong_FromLong(status)) == NULL ||
        PyObject_SetAttrString(exc, "status", v) < 0) {
        goto error;
    }
    Py_CLEAR(v);
    if ((v = PyUnicode_FromString(name)) == NULL ||
        PyObject_SetAttrString(exc, "name", v) < 0) {
        goto error;
    }
    Py_CLEAR(v);
    if ((v = PyUnicode_FromString(text)) == NULL ||
        PyObject_SetAttrString(exc, "text", v) < 0) {
        goto error;
    }
    Py_CLEAR(v);
    if ((v = PyUnicode_FromString(call)) == NULL ||
        PyObject_SetAttrString(exc, "call", v) < 0) {
        goto error;
    }
    Py_CLEAR(v);
    PyErr_SetObject(type, exc);
    /* An operation CUDA refuses during a capture invalidates it, and until it is
     * ended every later use of the stream and every device-wide wait fails too. */
    ca_hook.capture_error();
error:
    /* On any failure above, the exception of that failure (e.g. MemoryError) is
     * what the caller sees, which is still an error return. */
    Py_XDECREF(v);
    Py_XDECREF(exc);
    Py_XDECREF(msg);
    return -1;
}

static const char *
no_gpu_hint(int status)
{
    if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver ||
        status == CA_KERR_NO_CUDA) {
        return CA_HAVE_CUDA
                   ? "No CUDA GPU is usable here: use the cpu device "
                     "(device='cpu', or CUARRAY_DEVICE=cpu in the environment)"
                   : "cuarray was built without CUDA: use the cpu device "
                     "(device='cpu', or CUARRAY_DEVICE=cpu in the environment)";
    }
    return NULL;
}

const char *
ca_cuda_status_text(int status)
{
#if CA_HAVE_CUDA
    const char *text = cudaGetErrorString((cudaError_t)status);
#else
    const ca_status_name *e = lookup(cudart_names, status);
    const char *text = e ? e->text : NULL;
#endif
    return text != NULL ? text : "unrecognized error code";
}

int
ca_cuda_error_hint(int status, const char *call, const char *hint)
{
    if (call == NULL) {
        call = "?";
    }
    switch (status) {
    case CA_KERR_UNSUPPORTED:
        PyErr_Format(PyExc_TypeError, "no loop for %s", call);
        return -1;
    case CA_KERR_INDEX:
        PyErr_Format(PyExc_IndexError, "index out of range in %s", call);
        return -1;
    case CA_KERR_NOMEM:
        PyErr_Format(PyExc_MemoryError, "out of host memory for scratch space in %s",
                     call);
        return -1;
    case CA_KERR_NO_CUDA:
        return raise_status(ca_st->CUDAError, status, "CA_KERR_NO_CUDA",
                            "a GPU operation was requested", call,
                            hint ? hint : no_gpu_hint(status));
    default: break;
    }
    /* Non-sticky errors stay in the runtime's per-thread "last error" until read;
     * clear it so the next launch check does not report this failure again. */
    (void)cudaGetLastError();
#if CA_HAVE_CUDA
    const char *name = cudaGetErrorName((cudaError_t)status);
    const char *text = cudaGetErrorString((cudaError_t)status);
#else
    const ca_status_name *e = lookup(cudart_names, status);
    const char *name = e ? e->name : "cudaErrorUnknown";
    const char *text = e ? e->text : "unrecognized error code";
#endif
    if (name == NULL) {
        name = "unrecognized CUDA error";
    }
    if (text == NULL) {
        text = "unrecognized error code";
    }
    PyObject *type = status == cudaErrorMemoryAllocation ? ca_st->OutOfMemoryError
                                                         : ca_st->CUDAError;
    return raise_status(type, status, name, text, call,
                        hint ? hint : no_gpu_hint(status));
}

int
ca_cuda_error_int(int status, const char *call)
{
    return ca_cuda_error_hint(status, call, NULL);
}

PyObject *
ca_cuda_error(int status, const char *call)
{
    ca_cuda_error_hint(status, call, NULL);
    return NULL;
}

/* `oom`: the library's allocation-failure status (0: none), raised as
 * OutOfMemoryError as cudaErrorMemoryAllocation is, so `except MemoryError`
 * works. */
static int
library_error(PyObject *type, const ca_status_name *table, const char *lib, int status,
              const char *call, int oom)
{
    const ca_status_name *e = lookup(table, status);
    char name[64];
    if (e == NULL) {
        PyOS_snprintf(name, sizeof name, "%s status %d", lib, status);
        return raise_status(type, status, name, "unknown status", call, NULL);
    }
    if (oom != 0 && status == oom) {
        type = ca_st->OutOfMemoryError;
    }
    return raise_status(type, status, e->name, e->text, call, NULL);
}

int
ca_library_device_check(int device, int max, const char *lib,
                        int (*raise_error)(int, const char *), int internal)
{
    if (device < 0 || device >= max) {
        PyErr_Format(PyExc_ValueError, "device %d is out of %s's range", device, lib);
        return -1;
    }
    if (CA_FAULT(CA_FAULT_LIBRARY_CALL)) {
        char call[64];
        snprintf(call, sizeof call, "%s (injected fault)", lib);
        raise_error(internal, call);
        return -1;
    }
    return 0;
}

int
ca_cublas_error(int status, const char *call)
{
    return library_error(ca_st->CUBLASError, cublas_names, "cuBLAS", status, call, 0);
}

int
ca_curand_error(int status, const char *call)
{
    return library_error(ca_st->CURANDError, curand_names, "cuRAND", status, call, 0);
}

int
ca_cufft_error(int status, const char *call)
{
    return library_error(ca_st->CUFFTError, cufft_names, "cuFFT", status, call, 2);
}

int
ca_cusolver_error(int status, const char *call)
{
    return library_error(ca_st->CUSOLVERError, cusolver_names, "cuSOLVER", status, call,
                         2);
}

int
ca_cusparse_error(int status, const char *call)
{
    return library_error(ca_st->CUSPARSEError, cusparse_names, "cuSPARSE", status, call,
                         2);
}

void
ca_cuda_warn_unraisable(int status, const char *call)
{
    if (status == 0 || status == cudaErrorCudartUnloading) {
        return;
    }
    /* Capsule deleters may run on a thread that does not hold the GIL. */
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    ca_cuda_error_int(status, call);
    PyErr_WriteUnraisable(NULL);
    PyErr_Restore(et, ev, tb);
    PyGILState_Release(g);
}

/* ---- test hooks ---------------------------------------------------------- */

static PyObject *
raise_cuda_error(PyObject *self, PyObject *args)
{
    int status;
    const char *call;
    const char *lib = "cuda";
    if (!PyArg_ParseTuple(args, "is|s:_raise_cuda_error", &status, &call, &lib)) {
        return NULL;
    }
    if (strcmp(lib, "cublas") == 0) {
        ca_cublas_error(status, call);
    }
    else if (strcmp(lib, "curand") == 0) {
        ca_curand_error(status, call);
    }
    else if (strcmp(lib, "cufft") == 0) {
        ca_cufft_error(status, call);
    }
    else if (strcmp(lib, "cusolver") == 0) {
        ca_cusolver_error(status, call);
    }
    else if (strcmp(lib, "cusparse") == 0) {
        ca_cusparse_error(status, call);
    }
    else if (strcmp(lib, "unraisable") == 0) {
        ca_cuda_warn_unraisable(status, call);
        Py_RETURN_NONE;
    }
    else {
        ca_cuda_error_int(status, call);
    }
    return NULL;
}

static PyMethodDef errors_methods[] = {
    { "_raise_cuda_error", raise_cuda_error, METH_VARARGS,
      "_raise_cuda_error(status, call, lib='cuda')\n--\n\n"
      "Test hook: raise the exception cuarray raises for `status` returned by `call`.\n"
      "lib is 'cuda', 'cublas', 'curand', 'cufft', 'cusolver', 'cusparse' or\n"
      "'unraisable'\n"
      "(reports, returns None)." },
    { NULL, NULL, 0, NULL },
};

/* ---- init ---------------------------------------------------------------- */

static PyObject *
new_exception(const char *name, const char *doc, PyObject *base)
{
    PyObject *dict = NULL, *exc = NULL;
    /* Class-level defaults so instances made by user code have the attributes. */
    dict = Py_BuildValue("{sOsOsOsO}", "status", Py_None, "name", Py_None, "text",
                         Py_None, "call", Py_None);
    if (dict == NULL) {
        return NULL;
    }
    exc = PyErr_NewExceptionWithDoc(name, doc, base, dict);
    Py_DECREF(dict);
    return exc;
}

int
ca_errors_init(PyObject *m)
{
    ca_st->CUDAError = new_exception(
        "cuarray.cuda.CUDAError",
        "A CUDA runtime call failed.\n\n"
        "Attributes: status (int), name (e.g. 'cudaErrorInvalidValue'), text (CUDA's\n"
        "description) and call (the failing call).",
        PyExc_RuntimeError);
    if (ca_st->CUDAError == NULL) {
        return -1;
    }
    ca_st->OutOfMemoryError = new_exception(
        "cuarray.OutOfMemoryError",
        "An allocation failed for lack of (device or host) memory; a MemoryError.",
        PyExc_MemoryError);
    if (ca_st->OutOfMemoryError == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(m, "CUDAError", ca_st->CUDAError) < 0 ||
        PyModule_AddObjectRef(m, "OutOfMemoryError", ca_st->OutOfMemoryError) < 0) {
        return -1;
    }
    /* One CUDAError subclass per NVIDIA library (CuPy has one per library too). */
    const struct {
        PyObject **slot;
        const char *qualname, *doc;
    } libraries[] = {
        { &ca_st->CUBLASError, "cuarray.cuda.CUBLASError",
          "A cuBLAS call failed (status is a cublasStatus_t); a CUDAError." },
        { &ca_st->CURANDError, "cuarray.cuda.CURANDError",
          "A cuRAND call failed (status is a curandStatus_t); a CUDAError." },
        { &ca_st->CUFFTError, "cuarray.cuda.CUFFTError",
          "A cuFFT call failed (status is a cufftResult); a CUDAError." },
        { &ca_st->CUSOLVERError, "cuarray.cuda.CUSOLVERError",
          "A cuSOLVER call failed (status is a cusolverStatus_t); a CUDAError." },
        { &ca_st->CUSPARSEError, "cuarray.cuda.CUSPARSEError",
          "A cuSPARSE call failed (status is a cusparseStatus_t); a CUDAError." },
    };
    for (size_t i = 0; i < sizeof libraries / sizeof libraries[0]; i++) {
        *libraries[i].slot =
            new_exception(libraries[i].qualname, libraries[i].doc, ca_st->CUDAError);
        /* the attribute name: the qualified name after "cuarray.cuda." */
        const char *attr = libraries[i].qualname + sizeof "cuarray.cuda." - 1;
        if (*libraries[i].slot == NULL ||
            PyModule_AddObjectRef(m, attr, *libraries[i].slot) < 0) {
            return -1;
        }
    }
    return PyModule_AddFunctions(m, errors_methods);
}

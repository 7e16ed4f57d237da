/*
 * kernel_user.c: the C half of user kernels (python/cuarray/_kernel.py and
 * cuarray/cuda/compiler.py hold the classes, the code generation and the
 * caches): NVRTC compiles, loaded images as capsules, kernel handles, and the
 * launch, which turns Python arguments into kernel parameters on the fast path.
 *
 * Arguments: a cuarray ndarray passes its data pointer (it must be on the
 * current GPU); a NumPy scalar passes its bytes; Python bool, int, float and
 * complex pass as bool, int64 (long long), float64 (double) and complex128;
 * a MemoryPointer passes its address. Each parameter is aligned to its size
 * (complex: to its half), as the CUDA ABI lays out a kernel's parameters.
 */
#include "launch.h"

#include <string.h>

#define MAX_PARAM_BYTES 4096
#define MAX_PARAMS      512
#define LIB_CAPSULE     "cuarray.cuda.library"

static PyObject *
nvrtc_version(PyObject *m, PyObject *unused)
{
    int major, minor;
    if (ca_nvrtc_version(&major, &minor) < 0) {
        return NULL;
    }
    return Py_BuildValue("(ii)", major, minor);
}

/* A tuple of str as C strings (borrowed from the tuple's items). */
static int
c_strings(PyObject *seq, const char **out, int max, int *n)
{
    Py_ssize_t len = PyTuple_GET_SIZE(seq);
    if (len > max) {
        PyErr_Format(PyExc_ValueError, "at most %d options or name expressions", max);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        out[i] = PyUnicode_AsUTF8(PyTuple_GET_ITEM(seq, i));
        if (out[i] == NULL) {
            return -1;
        }
    }
    *n = (int)len;
    return 0;
}

/* _nvrtc_compile(source, name, options, name_expressions, cubin)
 *   -> (ok, image bytes or None, log, lowered names tuple) */
static PyObject *
nvrtc_compile(PyObject *m, PyObject *args)
{
    const char *src, *name;
    PyObject *opts, *exprs, *res = NULL, *image = NULL, *lowered = NULL;
    int cubin, nopts = 0, nexprs = 0;
    const char *copts[256], *cexprs[256];
    ca_nvrtc_result r;
    if (!PyArg_ParseTuple(args, "ssO!O!p:_nvrtc_compile", &src, &name, &PyTuple_Type,
                          &opts, &PyTuple_Type, &exprs, &cubin) ||
        c_strings(opts, copts, 256, &nopts) < 0 ||
        c_strings(exprs, cexprs, 256, &nexprs) < 0) {
        return NULL;
    }
    if (ca_nvrtc_compile(src, name, nopts, copts, nexprs, cexprs, cubin, &r) < 0) {
        return NULL;
    }
    if (r.ok) {
        image = PyBytes_FromStringAndSize(r.image, (Py_ssize_t)r.image_size);
    }
    else {
        image = Py_NewRef(Py_None);
    }
    lowered = PyTuple_New(r.nlowered);
    for (int i = 0; lowered != NULL && i < r.nlowered; i++) {
        PyObject *s = PyUnicode_FromString(r.lowered[i]);
        if (s == NULL) {
            Py_CLEAR(lowered);
            break;
        }
        PyTuple_SET_ITEM(lowered, i, s);
    }
    if (image != NULL && lowered != NULL) {
        res = Py_BuildValue("(OOsO)", r.ok ? Py_True : Py_False, image,
                            r.log ? r.log : "", lowered);
    }
    Py_XDECREF(image);
    Py_XDECREF(lowered);
    ca_nvrtc_result_free(&r);
    return res;
}

static void
library_capsule_free(PyObject *cap)
{
    void *lib = PyCapsule_GetPointer(cap, LIB_CAPSULE);
    if (lib != NULL) {
        ca_library_unload_quiet(lib);
    }
    else {
        PyErr_Clear();
    }
}

/* _library_load(image: bytes) -> capsule (unloaded when it dies) */
static PyObject *
library_load(PyObject *m, PyObject *arg)
{
    void *lib = NULL;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "_library_load takes the image as bytes");
        return NULL;
    }
    if (ca_run_library_load(&lib, PyBytes_AS_STRING(arg)) < 0) {
        return NULL;
    }
    PyObject *cap = PyCapsule_New(lib, LIB_CAPSULE, library_capsule_free);
    if (cap == NULL) {
        ca_library_unload_quiet(lib);
    }
    return cap;
}

/* _library_get_kernel(capsule, name) -> int handle */
static PyObject *
library_get_kernel(PyObject *m, PyObject *args)
{
    PyObject *cap;
    const char *name;
    void *k = NULL;
    if (!PyArg_ParseTuple(args, "Os:_library_get_kernel", &cap, &name)) {
        return NULL;
    }
    void *lib = PyCapsule_GetPointer(cap, LIB_CAPSULE);
    if (lib == NULL || ca_run_library_get_kernel(&k, lib, name) < 0) {
        return NULL;
    }
    return PyLong_FromVoidPtr(k);
}

/* _library_get_global(capsule, name) -> (address, size) of a __device__ variable */
static PyObject *
library_get_global(PyObject *m, PyObject *args)
{
    PyObject *cap;
    const char *name;
    void *ptr = NULL;
    size_t size = 0;
    if (!PyArg_ParseTuple(args, "Os:_library_get_global", &cap, &name)) {
        return NULL;
    }
    void *lib = PyCapsule_GetPointer(cap, LIB_CAPSULE);
    if (lib == NULL || ca_run_library_get_global(&ptr, &size, lib, name) < 0) {
        return NULL;
    }
    return Py_BuildValue("Kn", (unsigned long long)(uintptr_t)ptr, (Py_ssize_t)size);
}

static PyObject *
kernel_attributes(PyObject *m, PyObject *arg)
{
    int a[7];
    void *k = PyLong_AsVoidPtr(arg);
    if ((k == NULL && PyErr_Occurred()) || ca_run_kernel_attributes(k, a) < 0) {
        return NULL;
    }
    return Py_BuildValue("{sisisisisisisi}", "max_threads_per_block", a[0], "num_regs",
                         a[1], "shared_size_bytes", a[2], "local_size_bytes", a[3],
                         "const_size_bytes", a[4], "ptx_version", a[5],
                         "binary_version", a[6]);
}

static PyObject *
kernel_set_max_dynamic_shared(PyObject *m, PyObject *args)
{
    PyObject *ko;
    int bytes;
    if (!PyArg_ParseTuple(args, "Oi", &ko, &bytes)) {
        return NULL;
    }
    void *k = PyLong_AsVoidPtr(ko);
    if ((k == NULL && PyErr_Occurred()) ||
        ca_run_kernel_set_max_dynamic_shared(k, bytes) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* ---- the launch ---------------------------------------------------------------- */

typedef struct {
    _Alignas(16) char bytes[MAX_PARAM_BYTES];
    size_t used;
    void *ptrs[MAX_PARAMS];
    int n;
} params;

static int
push(params *p, const void *v, size_t size, size_t align)
{
    size_t at = (p->used + align - 1) / align * align;
    if (p->n >= MAX_PARAMS || at + size > MAX_PARAM_BYTES) {
        PyErr_Format(PyExc_ValueError,
                     "kernel arguments exceed %d bytes or %d parameters",
                     MAX_PARAM_BYTES, MAX_PARAMS);
        return -1;
    }
    memcpy(p->bytes + at, v, size);
    p->ptrs[p->n++] = p->bytes + at;
    p->used = at + size;
    return 0;
}

/* One argument as a parameter of a kernel launched on `device`. */
static int
push_arg(params *p, PyObject *o, int device, Py_ssize_t i)
{
    if (ca_array_check(o)) {
        CaArray *a = (CaArray *)o;
        if (a->device != device && a->size > 0) {
            char b1[CA_DEVICE_NAME_LEN], b2[CA_DEVICE_NAME_LEN];
            PyErr_Format(PyExc_ValueError,
                         "kernel argument %zd is an array on %s; the kernel runs on %s",
                         i, ca_device_name(a->device, b1), ca_device_name(device, b2));
            return -1;
        }
        return push(p, &a->data, sizeof(void *), sizeof(void *));
    }
    if (PyArray_IsScalar(o, Generic)) {
        PyArray_Descr *d = PyArray_DescrFromScalar(o);
        char buf[32];
        if (d == NULL) {
            return -1;
        }
        size_t size = (size_t)PyDataType_ELSIZE(d);
        int cplx = PyDataType_ISCOMPLEX(d);
        Py_DECREF(d);
        if (size > sizeof buf || PyArray_IsScalar(o, Void) ||
            PyArray_IsScalar(o, Flexible)) {
            PyErr_Format(PyExc_TypeError, "kernel argument %zd: unsupported scalar %R",
                         i, Py_TYPE(o));
            return -1;
        }
        PyArray_ScalarAsCtype(o, buf);
        return push(p, buf, size, cplx ? size / 2 : size);
    }
    if (PyBool_Check(o)) {
        char b = o == Py_True;
        return push(p, &b, 1, 1);
    }
    if (PyLong_Check(o)) {
        long long v = PyLong_AsLongLong(o);
        if (v == -1 && PyErr_Occurred()) {
            return -1;
        }
        return push(p, &v, sizeof v, sizeof v);
    }
    if (PyFloat_Check(o)) {
        double v = PyFloat_AS_DOUBLE(o);
        return push(p, &v, sizeof v, sizeof v);
    }
    if (PyComplex_Check(o)) {
        double v[2] = { PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o) };
        return push(p, v, sizeof v, sizeof(double));
    }
    if (Py_IS_TYPE(o, ca_st->memptr_type) ||
        PyObject_TypeCheck(o, ca_st->memptr_type)) {
        void *ptr = PyLong_AsVoidPtr(o);
        if (ptr == NULL && PyErr_Occurred()) {
            return -1;
        }
        return push(p, &ptr, sizeof ptr, sizeof ptr);
    }
    PyErr_Format(PyExc_TypeError,
                 "kernel argument %zd: unsupported type %.100s (pass cuarray arrays, "
                 "NumPy scalars or Python bool/int/float/complex)",
                 i, Py_TYPE(o)->tp_name);
    return -1;
}

/* An int or a tuple of up to 3 ints -> dim3. */
static int
dim3_arg(PyObject *o, unsigned *out, const char *what)
{
    out[0] = out[1] = out[2] = 1;
    if (PyLong_Check(o)) {
        long v = PyLong_AsLong(o);
        if (v <= 0 || v > 0x7fffffffL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "%s must be positive, not %ld", what, v);
            }
            return -1;
        }
        out[0] = (unsigned)v;
        return 0;
    }
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) < 1 || PyTuple_GET_SIZE(o) > 3) {
        PyErr_Format(PyExc_TypeError, "%s must be an int or a tuple of 1 to 3 ints",
                     what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(o); i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        if (v <= 0 || v > 0x7fffffffL) {
            if (!PyErr_Occurred()) {
                PyErr_Format(PyExc_ValueError, "%s must be positive, not %ld", what, v);
            }
            return -1;
        }
        out[i] = (unsigned)v;
    }
    return 0;
}

/* _launch_kernel(kernel, grid, block, args, shared_mem=0, stream=None) */
static PyObject *
launch_kernel(PyObject *m, PyObject *const *args, Py_ssize_t nargs)
{
    unsigned grid[3], block[3];
    params p;
    size_t shmem = 0;
    ca_stream_t stream;
    int device = ca_current_device(), ok = 1;
    if (nargs < 4 || nargs > 6 || !PyTuple_Check(args[3])) {
        PyErr_SetString(
            PyExc_TypeError,
            "_launch_kernel(kernel, grid, block, args: tuple, shared_mem=0, "
            "stream=None)");
        return NULL;
    }
    if (device == CA_CPU) {
        PyErr_SetString(PyExc_ValueError,
                        "user kernels run on a CUDA GPU, and the current device is the "
                        "cpu: make a GPU current (cuarray.cuda.Device(0).use())");
        return NULL;
    }
    void *kernel = PyLong_AsVoidPtr(args[0]);
    if ((kernel == NULL && PyErr_Occurred()) || dim3_arg(args[1], grid, "grid") < 0 ||
        dim3_arg(args[2], block, "block") < 0) {
        return NULL;
    }
    if (nargs > 4) {
        Py_ssize_t s = PyNumber_AsSsize_t(args[4], PyExc_OverflowError);
        if (s < 0) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "shared_mem must be >= 0");
            }
            return NULL;
        }
        shmem = (size_t)s;
    }
    if (ca_use_device(device) < 0) {
        return NULL;
    }
    stream = ca_stream_from_object(nargs > 5 ? args[5] : Py_None, &ok);
    if (!ok) {
        return NULL;
    }
    p.used = 0;
    p.n = 0;
    PyObject *t = args[3];
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(t); i++) {
        if (push_arg(&p, PyTuple_GET_ITEM(t, i), device, i) < 0) {
            return NULL;
        }
    }
    if (ca_run_launch_kernel(kernel, grid, block, p.n ? p.ptrs : NULL, shmem, stream) <
        0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef kernel_functions[] = {
    { "_nvrtc_version", nvrtc_version, METH_NOARGS,
      "_nvrtc_version() -> (major, minor), loading NVRTC." },
    { "_nvrtc_compile", nvrtc_compile, METH_VARARGS,
      "_nvrtc_compile(source, name, options, name_expressions, cubin)\n"
      "-> (ok, image, log, lowered_names)" },
    { "_library_load", library_load, METH_O,
      "_library_load(image) -> a capsule of the loaded cudaLibrary_t." },
    { "_library_get_kernel", library_get_kernel, METH_VARARGS,
      "_library_get_kernel(library, name) -> the kernel handle (int)." },
    { "_library_get_global", library_get_global, METH_VARARGS,
      "_library_get_global(library, name) -> (address, size) of a __device__ "
      "variable." },
    { "_kernel_attributes", kernel_attributes, METH_O,
      "_kernel_attributes(kernel) -> dict of cudaFuncGetAttributes." },
    { "_kernel_set_max_dynamic_shared", kernel_set_max_dynamic_shared, METH_VARARGS,
      "_kernel_set_max_dynamic_shared(kernel, bytes)." },
    { "_launch_kernel", (PyCFunction)(void (*)(void))launch_kernel, METH_FASTCALL,
      "_launch_kernel(kernel, grid, block, args, shared_mem=0, stream=None)" },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(kernel_user, kernel_functions)

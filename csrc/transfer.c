/*
 * transfer.c: copies. The strided copy-and-cast path (ca_assign, which every
 * copy, astype, fill and contiguous conversion goes through), host <-> device
 * transfers (get, set, asnumpy, ca_array_from_numpy) and the array methods
 * built on them.
 */
#include "cuarray.h"

#include <string.h>

/* Until kernels/copy.cu and kernels/host_copy.c land, ca_copy_cast and ca_fill
 * do not exist: the cpu device copies through NumPy and the GPU handles only
 * contiguous same-dtype copies. Flipped to 1 once they are in main. */
#ifndef CA_USE_COPY_KERNELS
#define CA_USE_COPY_KERNELS 0
#endif

/* ======================================================================== */
/* Helpers                                                                    */
/* ======================================================================== */

static int
same_shape(CaArray *a, CaArray *b)
{
    if (CA_NDIM(a) != CA_NDIM(b)) {
        return 0;
    }
    for (int i = 0; i < CA_NDIM(a); i++) {
        if (CA_SHAPE(a)[i] != CA_SHAPE(b)[i]) {
            return 0;
        }
    }
    return 1;
}

/* [lo, hi) byte range an array's elements occupy. */
static void
array_extent(CaArray *a, char **lo, char **hi)
{
    char *l = a->data, *h = a->data;
    for (int i = 0; i < CA_NDIM(a); i++) {
        Py_ssize_t span = (CA_SHAPE(a)[i] - 1) * CA_STRIDES(a)[i];
        if (span < 0) {
            l += span;
        }
        else {
            h += span;
        }
    }
    *lo = l;
    *hi = h + a->itemsize;
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
    return PyArray_NewFromDescr(&PyArray_Type, d, CA_NDIM(a), CA_SHAPE(a), CA_STRIDES(a),
                                p, writeable ? NPY_ARRAY_WRITEABLE : 0, NULL);
}

/* Stream from a `stream=` argument: None -> the current stream of `device`;
 * else any object with an integer `.ptr` (cuarray's or CuPy's Stream). */
static int
stream_from_object(PyObject *obj, int device, ca_stream_t *out)
{
    if (obj == NULL || obj == Py_None) {
        *out = ca_current_stream(device);
        return 0;
    }
    PyObject *p = PyObject_GetAttrString(obj, "ptr");
    if (p == NULL) {
        PyErr_SetString(PyExc_TypeError, "stream must be None or a Stream (with .ptr)");
        return -1;
    }
    void *v = PyLong_AsVoidPtr(p);
    Py_DECREF(p);
    if (v == NULL && PyErr_Occurred()) {
        return -1;
    }
    *out = (ca_stream_t)v;
    return 0;
}

/* ======================================================================== */
/* The strided copy-and-cast path                                            */
/* ======================================================================== */

static int
check_assign(CaArray *dst, CaArray *src)
{
    if (dst->device != src->device) {
        PyErr_Format(PyExc_ValueError,
                     "arrays are on different devices (%s%d and %s%d): move one "
                     "explicitly with to_device() or cuarray.asarray(x, device=...)",
                     dst->device == CA_CPU ? "cpu" : "cuda:",
                     dst->device == CA_CPU ? 0 : dst->device,
                     src->device == CA_CPU ? "cpu" : "cuda:",
                     src->device == CA_CPU ? 0 : src->device);
        return -1;
    }
    if (!(dst->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    int dn = CA_NDIM(dst), sn = CA_NDIM(src);
    int ok = sn <= dn;
    for (int i = 0; ok && i < sn; i++) {
        Py_ssize_t s = CA_SHAPE(src)[i], d = CA_SHAPE(dst)[dn - sn + i];
        ok = s == d || s == 1;
    }
    if (!ok) {
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

#if CA_USE_COPY_KERNELS
static int
assign_kernel(CaArray *dst, CaArray *src)
{
    ca_strided s;
    s.ndim = CA_NDIM(dst);
    s.nops = 2;
    for (int i = 0; i < s.ndim; i++) {
        s.shape[i] = CA_SHAPE(dst)[i];
    }
    ca_strided_set_operand(&s, 0, dst);
    ca_strided_set_operand(&s, 1, src);
    if (ca_use_device(dst->device) < 0) {
        return -1;
    }
    int st = ca_copy_cast(dst->device, &s, dst->dtype, src->dtype,
                          ca_current_stream(dst->device));
    if (st != 0) {
        return ca_cuda_error_int(st, "ca_copy_cast");
    }
    return 0;
}
#else
/* Milestone-1 stand-in: NumPy on host memory, memcpy for contiguous GPU data. */
static int
assign_kernel(CaArray *dst, CaArray *src)
{
    char *dp = host_data(dst), *sp = host_data(src);
    if (dst->device == CA_CPU && dp != NULL && sp != NULL) {
        PyObject *dv = numpy_alias(dst, dp, 1);
        PyObject *sv = dv ? numpy_alias(src, sp, 0) : NULL;
        int r = sv ? PyArray_CopyInto((PyArrayObject *)dv, (PyArrayObject *)sv) : -1;
        Py_XDECREF(dv);
        Py_XDECREF(sv);
        return r;
    }
    int cc = (dst->flags & src->flags & CA_C_CONTIGUOUS) ||
             (dst->flags & src->flags & CA_F_CONTIGUOUS);
    if (dst->dtype == src->dtype && same_shape(dst, src) && cc) {
        if (ca_use_device(dst->device) < 0) {
            return -1;
        }
        CA_CUDA_CHECK(cudaMemcpyAsync(dst->data, src->data,
                                      (size_t)dst->size * (size_t)dst->itemsize,
                                      cudaMemcpyDefault,
                                      (cudaStream_t)ca_current_stream(dst->device)));
        return 0;
    }
    PyErr_SetString(PyExc_NotImplementedError,
                    "strided or casting copies on a GPU need the copy kernels "
                    "(not built yet)");
error:
    return -1;
}
#endif

int
ca_assign(CaArray *dst, CaArray *src)
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
        if (!same) {
            CaArray *tmp = ca_array_copy(src, src->dtype, 'K');
            if (tmp == NULL) {
                return -1;
            }
            int r = assign_kernel(dst, tmp);
            Py_DECREF(tmp);
            return r;
        }
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
        order = ((a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS)) ? 'F' : 'C';
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
    Py_ssize_t pshape[CA_MAX_DIMS] = {0};
    for (int i = 0; i < nd; i++) {
        perm[i] = i;
    }
    for (int i = 1; i < nd; i++) {
        int p = perm[i];
        Py_ssize_t sp = CA_STRIDES(a)[p] < 0 ? -CA_STRIDES(a)[p] : CA_STRIDES(a)[p];
        int j = i - 1;
        while (j >= 0) {
            Py_ssize_t sq = CA_STRIDES(a)[perm[j]];
            sq = sq < 0 ? -sq : sq;
            if (sq >= sp) {
                break;
            }
            perm[j + 1] = perm[j];
            j--;
        }
        perm[j + 1] = p;
    }
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

/* Fill every element of `a` with the element at `value` (host bytes). */
static int
array_fill_bytes(CaArray *a, const void *value)
{
    if (!(a->flags & CA_WRITEABLE)) {
        PyErr_SetString(PyExc_ValueError, "assignment destination is read-only");
        return -1;
    }
    if (a->size == 0) {
        return 0;
    }
#if CA_USE_COPY_KERNELS
    ca_strided s;
    s.ndim = CA_NDIM(a);
    s.nops = 1;
    for (int i = 0; i < s.ndim; i++) {
        s.shape[i] = CA_SHAPE(a)[i];
    }
    ca_strided_set_operand(&s, 0, a);
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    int st = ca_fill(a->device, &s, a->dtype, value, ca_current_stream(a->device));
    if (st != 0) {
        return ca_cuda_error_int(st, "ca_fill");
    }
    return 0;
#else
    char *hp = host_data(a);
    if (a->device == CA_CPU && hp != NULL) {
        PyObject *v = numpy_alias(a, hp, 1);
        if (v == NULL) {
            return -1;
        }
        PyObject *sc = PyArray_Scalar((void *)value, ca_descr(a->dtype), NULL);
        int r = sc ? PyArray_FillWithScalar((PyArrayObject *)v, sc) : -1;
        Py_XDECREF(sc);
        Py_DECREF(v);
        return r;
    }
    if (!(a->flags & (CA_C_CONTIGUOUS | CA_F_CONTIGUOUS))) {
        PyErr_SetString(PyExc_NotImplementedError,
                        "strided fill on a GPU needs the copy kernels (not built yet)");
        return -1;
    }
    size_t n = (size_t)a->size * (size_t)a->itemsize;
    char *buf = PyMem_RawMalloc(n);
    if (buf == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < a->size; i++) {
        memcpy(buf + i * a->itemsize, value, (size_t)a->itemsize);
    }
    cudaError_t st = cudaSuccess;
    if (ca_use_device(a->device) == 0) {
        ca_stream_t stream = ca_current_stream(a->device);
        Py_BEGIN_ALLOW_THREADS
        st = cudaMemcpyAsync(a->data, buf, n, cudaMemcpyDefault, (cudaStream_t)stream);
        if (st == cudaSuccess) {
            st = cudaStreamSynchronize((cudaStream_t)stream);
        }
        Py_END_ALLOW_THREADS
        if (st != cudaSuccess) {
            ca_cuda_error_int(st, "cudaMemcpyAsync(fill)");
        }
    }
    PyMem_RawFree(buf);
    return PyErr_Occurred() ? -1 : 0;
#endif
}

int
ca_array_fill(CaArray *a, const void *value)
{
    return array_fill_bytes(a, value);
}

/* a.fill(value) semantics: a Python value, or a cuarray array broadcast. */
static int
array_fill_object(CaArray *a, PyObject *value)
{
    if (ca_array_check(value)) {
        return ca_assign(a, (CaArray *)value);
    }
    uint64_t buf[2];
    if (ca_value_to_bytes(value, a->dtype, buf) < 0) {
        return -1;
    }
    return array_fill_bytes(a, buf);
}

/* ======================================================================== */
/* Device <-> host                                                            */
/* ======================================================================== */

/* Copy nbytes between host memory and a's (contiguous) buffer on `stream`;
 * to_host selects the direction. The GIL is released. */
static int
copy_contiguous(CaArray *a, char *host, int to_host, ca_stream_t stream, int blocking)
{
    size_t n = (size_t)a->size * (size_t)a->itemsize;
    if (n == 0) {
        return 0;
    }
    if (a->device == CA_CPU) {
        char *hp = host_data(a);
        Py_BEGIN_ALLOW_THREADS
        if (to_host) {
            memcpy(host, hp, n);
        }
        else {
            memcpy(hp, host, n);
        }
        Py_END_ALLOW_THREADS
        return 0;
    }
    if (ca_use_device(a->device) < 0) {
        return -1;
    }
    cudaError_t st;
    const char *call = to_host ? "cudaMemcpyAsync(host, device, n, cudaMemcpyDefault)"
                               : "cudaMemcpyAsync(device, host, n, cudaMemcpyDefault)";
    Py_BEGIN_ALLOW_THREADS
    if (to_host) {
        st = cudaMemcpyAsync(host, a->data, n, cudaMemcpyDefault, (cudaStream_t)stream);
    }
    else {
        st = cudaMemcpyAsync(a->data, host, n, cudaMemcpyDefault, (cudaStream_t)stream);
    }
    if (st == cudaSuccess && blocking) {
        st = cudaStreamSynchronize((cudaStream_t)stream);
        call = "cudaStreamSynchronize(stream)";
    }
    Py_END_ALLOW_THREADS
    if (st != cudaSuccess) {
        return ca_cuda_error_int(st, call);
    }
    return 0;
}

/* get(): a new NumPy array (order 'C', 'F', 'A' or 'K'), or a copy into `out`. */
static PyObject *
to_numpy_ex(CaArray *a, char order, PyArrayObject *out, ca_stream_t stream, int blocking)
{
    CaArray *tmp = NULL;
    PyObject *res = NULL;
    int nd = CA_NDIM(a);
    if (order == 'A' || order == 'K') {
        order = ((a->flags & CA_F_CONTIGUOUS) && !(a->flags & CA_C_CONTIGUOUS)) ? 'F' : 'C';
    }
    if (out != NULL) {
        if (PyArray_NDIM(out) != nd ||
            !PyArray_CompareLists(PyArray_DIMS(out), CA_SHAPE(a), nd)) {
            PyErr_SetString(PyExc_ValueError, "out= has a different shape than the array");
            return NULL;
        }
        if (ca_dtype_from_descr(PyArray_DESCR(out)) != a->dtype) {
            PyErr_Clear();
            PyErr_SetString(PyExc_TypeError, "out= has a different dtype than the array");
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
        /* Host memory: NumPy's strided copy. */
        PyObject *v = numpy_alias(a, hp, 0);
        if (v == NULL || PyArray_CopyInto((PyArrayObject *)res, (PyArrayObject *)v) < 0) {
            Py_XDECREF(v);
            goto error;
        }
        Py_DECREF(v);
        return res;
    }
    int contig = order == 'F' ? (a->flags & CA_F_CONTIGUOUS) : (a->flags & CA_C_CONTIGUOUS);
    CaArray *src = a;
    if (!contig) {
        tmp = ca_array_copy(a, a->dtype, order);
        if (tmp == NULL) {
            goto error;
        }
        src = tmp;
    }
    if (copy_contiguous(src, PyArray_DATA((PyArrayObject *)res), 1, stream, blocking) < 0) {
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
    int fortran = PyArray_IS_F_CONTIGUOUS(arr) && !PyArray_IS_C_CONTIGUOUS(arr);
    int flags = (fortran ? NPY_ARRAY_F_CONTIGUOUS : NPY_ARRAY_C_CONTIGUOUS) |
                NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST;
    PyArray_Descr *d = ca_descr(dtype);
    Py_INCREF(d);
    src = (PyArrayObject *)PyArray_FromAny((PyObject *)arr, d, 0, 0, flags, NULL);
    if (src == NULL) {
        return NULL;
    }
    r = ca_array_empty(dtype, PyArray_NDIM(src), PyArray_DIMS(src), fortran, device, kind);
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
get_impl(CaArray *a, PyObject *const *v)
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
    return to_numpy_ex(a, (char)order, out, stream, blocking);
}

static PyObject *
Ndarray_get(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"stream", "order", "out", "blocking", NULL};
    PyObject *v[4];
    if (ca_parse_args("get", args, nargs, kwnames, names, 4, 0, v) < 0) {
        return NULL;
    }
    return get_impl(a, v);
}

static PyObject *
Ndarray_set(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"arr", "stream", NULL};
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
    int c = a->flags & CA_C_CONTIGUOUS, f = a->flags & CA_F_CONTIGUOUS;
    if ((c && PyArray_IS_C_CONTIGUOUS(arr)) || (f && PyArray_IS_F_CONTIGUOUS(arr))) {
        if (copy_contiguous(a, PyArray_DATA(arr), 0, stream, 1) < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    /* Different layouts: transfer, then the strided copy on the device. */
    CaArray *tmp = ca_array_from_numpy(arr, a->dtype, a->device,
                                       a->device == CA_CPU ? CA_MEM_HOST : CA_MEM_DEVICE);
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
    static const char *const names[] = {"order", NULL};
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

static PyObject *
Ndarray_astype(CaArray *a, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"dtype", "order", "casting", "subok", "copy",
                                        NULL};
    PyObject *v[5];
    if (ca_parse_args("astype", args, nargs, kwnames, names, 5, 1, v) < 0) {
        return NULL;
    }
    int dtype = ca_dtype_converter(v[0], CA_FLOAT64);
    if (dtype < 0) {
        return NULL;
    }
    int order = ca_order_from_object(v[1], 'K');
    if (order < 0) {
        return NULL;
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
            PyErr_Format(PyExc_TypeError,
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
    return (PyObject *)ca_array_copy(a, dtype, (char)order);
}

static PyObject *
Ndarray_fill(CaArray *a, PyObject *value)
{
    if (array_fill_object(a, value) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

#define FASTKW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

PyMethodDef ca_transfer_array_methods[] = {
    {"get", FASTKW(Ndarray_get),
     "get(stream=None, order='C', out=None, blocking=True)\n--\n\n"
     "Copy the array to a NumPy array on the host (into `out` if given). Waits for "
     "the copy unless blocking=False (only meaningful with a pinned `out`)."},
    {"set", FASTKW(Ndarray_set),
     "set(arr, stream=None)\n--\n\nCopy the NumPy array `arr` (same shape and dtype) "
     "into this array."},
    {"copy", FASTKW(Ndarray_copy),
     "copy(order='C')\n--\n\nA copy of the array, on the same device and memory kind."},
    {"__copy__", (PyCFunction)Ndarray_copy_noargs, METH_NOARGS, NULL},
    {"__deepcopy__", (PyCFunction)Ndarray_deepcopy, METH_O, NULL},
    {"astype", FASTKW(Ndarray_astype),
     "astype(dtype, order='K', casting='unsafe', subok=True, copy=True)\n--\n\n"
     "The array cast to `dtype` with NumPy's cast results."},
    {"fill", (PyCFunction)Ndarray_fill, METH_O,
     "fill(value)\n--\n\nSet every element to `value`."},
    {NULL, NULL, 0, NULL},
};

/* ======================================================================== */
/* Module functions                                                           */
/* ======================================================================== */

static PyObject *
py_asnumpy(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"a", "stream", "order", "out", "blocking", NULL};
    PyObject *v[5];
    if (ca_parse_args("asnumpy", args, nargs, kwnames, names, 5, 1, v) < 0) {
        return NULL;
    }
    if (!ca_array_check(v[0])) {
        /* As CuPy: anything else goes through numpy.asarray. */
        return PyArray_FROM_O(v[0]);
    }
    return get_impl((CaArray *)v[0], v + 1);
}

static PyMethodDef transfer_functions[] = {
    {"asnumpy", FASTKW(py_asnumpy),
     "asnumpy(a, stream=None, order='C', out=None, blocking=True)\n--\n\n"
     "A NumPy array with the contents of `a` (a copy for cuarray arrays)."},
    {NULL, NULL, 0, NULL},
};

int
ca_transfer_init(PyObject *m)
{
    return PyModule_AddFunctions(m, transfer_functions);
}

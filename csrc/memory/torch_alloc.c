/*
 * torch_alloc.c: cuarray's device pools as PyTorch's allocator.
 *
 * torch.cuda.memory.CUDAPluggableAllocator(path, "cuarray_torch_malloc",
 * "cuarray_torch_free") dlopen()s this extension (already loaded: the same
 * state) and calls these two C functions from whatever thread allocates; each
 * takes the GIL, allocates a Memory from the pool of `device` ordered on
 * PyTorch's `stream` (or through cuarray.cuda.set_allocator's allocator, when
 * one is set), and keeps it in a dict keyed by address until PyTorch frees it.
 * So PyTorch's tensors come from cuarray's cache, stream-ordered reuse holds
 * (a block freed on PyTorch's stream is reused on another only after a wait),
 * and cuarray's pool statistics count their bytes. tools/core.map exports just
 * these two symbols besides PyInit__core (cuarray.cuda.torch_allocator()).
 */
#include "cuarray.h"

#include <sys/types.h>

#define CA_EXPORT __attribute__((visibility("default")))

static PyObject *live; /* address (int) -> Memory, for blocks PyTorch holds */

CA_EXPORT void *cuarray_torch_malloc(ssize_t size, int device, void *stream);
CA_EXPORT void cuarray_torch_free(void *ptr, ssize_t size, int device, void *stream);

void *
cuarray_torch_malloc(ssize_t size, int device, void *stream)
{
    void *p = NULL;
    if (size <= 0 || ca_st == NULL) {
        return NULL;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *key = NULL;
    CaMemory *m = NULL;
    if (live == NULL && (live = PyDict_New()) == NULL) {
        goto done;
    }
    m = ca_memory_alloc(device, CA_MEM_DEVICE, (size_t)size, (ca_stream_t)stream);
    if (m == NULL || (key = PyLong_FromVoidPtr(m->ptr)) == NULL ||
        PyDict_SetItem(live, key, (PyObject *)m) < 0) {
        goto done;
    }
    p = m->ptr;
done:
    if (p == NULL) {
        /* PyTorch reports its own out-of-memory error for NULL */
        PyErr_Clear();
    }
    Py_XDECREF(key);
    Py_XDECREF(m);
    PyGILState_Release(g);
    return p;
}

void
cuarray_torch_free(void *ptr, ssize_t size, int device, void *stream)
{
    if (ptr == NULL || ca_st == NULL || live == NULL) {
        return;
    }
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *key = PyLong_FromVoidPtr(ptr);
    if (key == NULL || PyDict_DelItem(live, key) < 0) {
        PyErr_WriteUnraisable(NULL);
    }
    Py_XDECREF(key);
    PyGILState_Release(g);
}

static PyObject *
torch_live_bytes(PyObject *m, PyObject *unused)
{
    Py_ssize_t pos = 0, total = 0;
    PyObject *k, *v;
    while (live != NULL && PyDict_Next(live, &pos, &k, &v)) {
        total += (Py_ssize_t)((CaMemory *)v)->size;
    }
    return PyLong_FromSsize_t(total);
}

static PyMethodDef torch_alloc_functions[] = {
    { "_torch_live_bytes", torch_live_bytes, METH_NOARGS,
      "_torch_live_bytes(): bytes PyTorch holds from cuarray's pools." },
    { NULL, NULL, 0, NULL },
};

CA_INIT_FUNCTIONS(torch_alloc, torch_alloc_functions)

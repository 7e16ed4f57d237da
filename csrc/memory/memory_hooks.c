/*
 * memory_hooks.c: the C side of cuarray.cuda.MemoryHook (issue 40): each thread's
 * dispatcher, set by `with hook:` (python/cuarray/cuda/memory_hook.py), and the
 * calls into it. The dispatcher turns the positional call into the keyword calls
 * of each installed hook, as CuPy's hooks receive them.
 *
 * The events, for allocations from the pools (memory.c): malloc_preprocess/
 * postprocess around every request; alloc_preprocess/postprocess when the request
 * made the pool reserve memory from CUDA (or malloc on the cpu device), with the
 * bytes it reserved; free_preprocess/postprocess when a block goes back to the pool.
 * The pool's upstream runs under its mutex, where Python must not run (a hook that
 * allocates would deadlock it), so the alloc events are told after the pool's call
 * returns, both of them, from its statistics. Memory from set_allocator's allocator
 * bypasses the pools and their hooks, as in CuPy.
 */
#include "memory_hooks.h"

_Thread_local PyObject *ca_memory_hook;

int
ca_memory_hook_call(const char *event, int device, size_t size, size_t mem_size,
                    const void *mem_ptr, const void *pmem)
{
    PyObject *d = ca_memory_hook;
    if (d == NULL) {
        return 0;
    }
    Py_INCREF(d); /* a hook may uninstall itself */
    PyObject *r = PyObject_CallFunction(
        d, "sinnKK", event, device, (Py_ssize_t)size, (Py_ssize_t)mem_size,
        (unsigned long long)(uintptr_t)mem_ptr, (unsigned long long)(uintptr_t)pmem);
    Py_DECREF(d);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    return 0;
}

void
ca_memory_hook_report(const char *event, int device, size_t mem_size,
                      const void *mem_ptr, const void *pmem)
{
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb); /* a deallocator keeps the caller's exception */
    if (ca_memory_hook_call(event, device, 0, mem_size, mem_ptr, pmem) < 0) {
        PyErr_WriteUnraisable(ca_memory_hook);
    }
    PyErr_Restore(et, ev, tb);
}

static PyObject *
set_memory_hook(PyObject *mod, PyObject *f)
{
    (void)mod;
    if (f != Py_None && !PyCallable_Check(f)) {
        PyErr_SetString(PyExc_TypeError, "_set_memory_hook: a callable or None");
        return NULL;
    }
    Py_XSETREF(ca_memory_hook, f == Py_None ? NULL : Py_NewRef(f));
    Py_RETURN_NONE;
}

PyMethodDef ca_memory_hook_functions[] = {
    { "_set_memory_hook", set_memory_hook, METH_O,
      "_set_memory_hook(dispatcher or None)\n--\n\nThis thread's memory-hook "
      "dispatcher (cuarray.cuda.memory_hook)." },
    { NULL },
};

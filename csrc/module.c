/*
 * module.c: cuarray._core's module definition, state and exec.
 *
 * Multi-phase init; the module refuses to load into a second interpreter so
 * that one process-wide state pointer (ca_st) can serve the hot paths.
 */
#define CA_IMPORT_ARRAY_HERE
#include "cuarray.h"

#include "readback.h"
#include "watch.h"

ca_state *ca_st = NULL;

/* The up-calls of the lower layers (cuarray.h says why); only this file sees
 * both sides. */
const ca_hooks ca_hook = {
    .flush_deferred = ca_fusion_flush_all,
    .stream_destroyed = ca_memory_stream_destroyed,
    .export_memory = ca_fusion_export_memory,
    .pending_dealloc = ca_fusion_array_dealloc,
    .mirror_drop = ca_readback_mirror_drop,
    .memptr_memory = ca_memptr_memory,
    .memory_alloc = ca_memory_alloc,
    .capture_error = ca_graph_capture_error,
};

typedef int (*ca_init_fn)(PyObject *);

/* Order matters: errors and dtypes first, then devices and memory, then the
 * array type, then everything built on it. */
static const ca_init_fn ca_inits[] = {
    ca_errors_init,      ca_faults_init,      ca_dtype_init,         ca_device_init,
    ca_memory_init,      ca_memptr_init,      ca_ndarray_init,       ca_creation_init,
    ca_transfer_init,    ca_index_init,       ca_manip_init,         ca_interop_init,
    ca_elementwise_init, ca_ufunc_init,       ca_reduction_init,     ca_linalg_init,
    ca_random_init,      ca_fusion_init,      ca_search_init,        ca_format_init,
    ca_fft_init,         ca_sort_init,        ca_linalg_solver_init, ca_cuda_api_init,
    ca_kernel_user_init, ca_torch_alloc_init, ca_sparse_init,        ca_graph_init,
    ca_ndimage_init,     ca_watch_init,
};

static int
module_exec(PyObject *m)
{
    if (ca_st != NULL) {
        PyErr_SetString(PyExc_ImportError,
                        "cuarray._core cannot be loaded twice in one process");
        return -1;
    }
    if (PyArray_ImportNumPyAPI() < 0) {
        return -1;
    }
    ca_st = (ca_state *)PyModule_GetState(m);
    ca_st->str_cai = PyUnicode_InternFromString("__cuda_array_interface__");
    ca_st->str_dlpack = PyUnicode_InternFromString("__dlpack__");
    ca_st->str_dlpack_device = PyUnicode_InternFromString("__dlpack_device__");
    if (!ca_st->str_cai || !ca_st->str_dlpack || !ca_st->str_dlpack_device) {
        goto error;
    }
    for (size_t i = 0; i < sizeof(ca_inits) / sizeof(ca_inits[0]); i++) {
        if (ca_inits[i](m) < 0) {
            goto error;
        }
    }
    if (PyModule_AddStringConstant(m, "__version__", CA_VERSION) < 0 ||
        PyModule_AddIntConstant(m, "built_with_cuda", CA_HAVE_CUDA) < 0) {
        goto error;
    }
    return 0;
error:
    ca_st = NULL;
    return -1;
}

static int
module_traverse(PyObject *m, visitproc visit, void *arg)
{
    ca_state *st = (ca_state *)PyModule_GetState(m);
    if (st == NULL) {
        return 0;
    }
    Py_VISIT(st->ndarray_type);
    Py_VISIT(st->memory_type);
    Py_VISIT(st->pool_type);
    Py_VISIT(st->device_type);
    Py_VISIT(st->stream_type);
    Py_VISIT(st->event_type);
    Py_VISIT(st->flags_type);
    Py_VISIT(st->memptr_type);
    Py_VISIT(st->generator_type);
    Py_VISIT(st->CUDAError);
    Py_VISIT(st->OutOfMemoryError);
    Py_VISIT(st->CUBLASError);
    Py_VISIT(st->CURANDError);
    Py_VISIT(st->CUFFTError);
    Py_VISIT(st->CUSOLVERError);
    Py_VISIT(st->CUSPARSEError);
    for (int i = 0; i < CA_NTYPES; i++) {
        Py_VISIT(st->descr[i]);
    }
    return 0;
}

/* No m_clear / m_free: the state lives until the process ends (arrays may still
 * reference the types during interpreter shutdown), and ca_st must stay valid. */

static PyModuleDef_Slot module_slots[] = {
    { Py_mod_exec, module_exec },
#ifdef Py_mod_multiple_interpreters
    { Py_mod_multiple_interpreters, Py_MOD_MULTIPLE_INTERPRETERS_NOT_SUPPORTED },
#endif
    { 0, NULL },
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "cuarray._core",
    .m_doc = "cuarray's C core: arrays, devices, streams, pools and kernels.",
    .m_size = sizeof(ca_state),
    .m_slots = module_slots,
    .m_traverse = module_traverse,
};

PyMODINIT_FUNC
PyInit__core(void)
{
    return PyModuleDef_Init(&module_def);
}

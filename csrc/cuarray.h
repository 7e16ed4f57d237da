/*
 * cuarray.h: what the files of cuarray._core share. Each section names the file
 * that owns it. Include this first in every C file of csrc/.
 */
#ifndef CA_CUARRAY_H
#define CA_CUARRAY_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* One NumPy C-API table for the whole multi-file extension: module.c imports it,
 * every other file sees it through this symbol. */
#define PY_ARRAY_UNIQUE_SYMBOL ca_ARRAY_API
#ifndef CA_IMPORT_ARRAY_HERE
#define NO_IMPORT_ARRAY
#endif
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>

#include <stdint.h>

#include "kernels.h"
#include "shape.h"

/* ======================================================================== */
/* Module state (module.c)                                                   */
/* ======================================================================== */
/*
 * Heap types and exceptions live in the module state. The hot paths (operators,
 * creation) reach it through `ca_st`, a pointer set once at module exec: the
 * module declares it does not support several interpreters, so there is
 * exactly one state per process and the lookup costs nothing.
 */
typedef struct {
    /* types */
    PyTypeObject *ndarray_type;   /* ndarray.c */
    PyTypeObject *memory_type;    /* memory.c */
    PyTypeObject *pool_type;      /* memory.c */
    PyTypeObject *device_type;    /* device.c */
    PyTypeObject *stream_type;    /* device.c */
    PyTypeObject *event_type;     /* device.c */
    PyTypeObject *flags_type;     /* ndarray.c */
    PyTypeObject *memptr_type;    /* ndarray.c: the `data` attribute (.ptr) */
    PyTypeObject *generator_type; /* random.c */
    /* exceptions (errors.c) */
    PyObject *CUDAError;        /* cuarray.cuda.CUDAError(RuntimeError) */
    PyObject *OutOfMemoryError; /* cuarray.OutOfMemoryError(MemoryError) */
    PyObject *CUBLASError;      /* subclass of CUDAError */
    PyObject *CURANDError;      /* subclass of CUDAError */
    PyObject *CUFFTError;       /* subclass of CUDAError */
    PyObject *CUSOLVERError;    /* subclass of CUDAError */
    PyObject *CUSPARSEError;    /* subclass of CUDAError */
    /* NumPy dtype objects per ca_dtype (dtype.c) */
    PyArray_Descr *descr[CA_NTYPES];
    /* interned strings, attribute names used on hot paths (module.c) */
    PyObject *str_cai;           /* "__cuda_array_interface__" */
    PyObject *str_dlpack;        /* "__dlpack__" */
    PyObject *str_dlpack_device; /* "__dlpack_device__" */
} ca_state;

extern ca_state *ca_st;

/* Each csrc file adds its functions and types to the module in one place. They
 * run in this order from module exec; each returns 0 or -1 with an exception. */
int ca_errors_init(PyObject *m);      /* errors.c */
int ca_faults_init(PyObject *m);      /* fault_control.c: fault injection (tests) */
int ca_dtype_init(PyObject *m);       /* dtype.c */
int ca_device_init(PyObject *m);      /* device.c */
int ca_memory_init(PyObject *m);      /* memory.c */
int ca_memptr_init(PyObject *m);      /* memptr.c: MemoryPointer */
int ca_cuda_api_init(PyObject *m);    /* cuda_api.c: cuarray.cuda.runtime & co. */
int ca_kernel_user_init(PyObject *m); /* kernel_user.c: NVRTC, user kernel launches */
int ca_torch_alloc_init(PyObject *m); /* torch_alloc.c: PyTorch's pluggable allocator */
int ca_ndarray_init(PyObject *m);     /* ndarray.c */
int ca_creation_init(PyObject *m);    /* creation.c */
int ca_transfer_init(PyObject *m);    /* transfer.c */
int ca_index_init(PyObject *m);       /* index.c */
int ca_manip_init(PyObject *m);       /* manip.c */
int ca_interop_init(PyObject *m);     /* interop.c: CAI import, DLPack */
int ca_elementwise_init(PyObject *m); /* elementwise.c */
int ca_ufunc_init(PyObject *m);       /* ufunc.c: the ufunc objects */
int ca_reduction_init(PyObject *m);   /* reduction.c */
int ca_linalg_init(PyObject *m);      /* linalg.c */
int ca_random_init(PyObject *m);      /* random.c */
int ca_search_init(PyObject *m);      /* search.c: nonzero, argwhere, ... */
int ca_fusion_init(PyObject *m);      /* fusion.c */
int ca_sort_init(PyObject *m);        /* sort.c: sort, argsort, searchsorted, ... */
int ca_fft_init(PyObject *m);         /* fft.c */
int ca_format_init(PyObject *m);      /* format.c: repr, str, pickling */
/* linalg_solver.c: the cuSOLVER primitive of cuarray.linalg */
int ca_linalg_solver_init(PyObject *m);
int ca_sparse_init(PyObject *m);  /* sparse.c: cuSPARSE products (scipy.sparse) */
int ca_graph_init(PyObject *m);   /* runtime/graph.c: CUDA graphs (stream capture) */
int ca_ndimage_init(PyObject *m); /* ndimage.c: scipy.ndimage's kernels */

/* ======================================================================== */
/* Errors (errors.c)                                                         */
/* ======================================================================== */
/* Set cuarray.cuda.CUDAError for `status` raised by `call` (its source text);
 * returns NULL / -1 so callers can `return ca_cuda_error(...)`. Maps
 * cudaErrorMemoryAllocation to OutOfMemoryError. CA_KERR_* codes get their own
 * messages (NotImplementedError/TypeError for UNSUPPORTED, IndexError ...). */
PyObject *ca_cuda_error(int status, const char *call);
int ca_cuda_error_int(int status, const char *call);
/* As ca_cuda_error_int, with `hint` (a sentence saying what to do) appended to
 * the message; NULL hint = the default (the cpu-device hint for no GPU). */
int ca_cuda_error_hint(int status, const char *call, const char *hint);
/* The runtime's description of a CUDA status (never NULL). */
const char *ca_cuda_status_text(int status);
/* cuBLAS / cuRAND / cuFFT / cuSOLVER / cuSPARSE statuses -> CUBLASError /
 * CURANDError / CUFFTError / CUSOLVERError / CUSPARSEError (the ALLOC_FAILED
 * statuses -> OutOfMemoryError). */
int ca_cublas_error(int status, const char *call);
int ca_curand_error(int status, const char *call);
int ca_cufft_error(int status, const char *call);
int ca_cusolver_error(int status, const char *call);
/* A cuSPARSE status as CUDAError naming the status (ALLOC_FAILED: OutOfMemoryError). */
int ca_cusparse_error(int status, const char *call);
/* The checks before a library's per-device handle is used: device in [0, max)
 * (else ValueError naming lib), and an injected library-call fault (faults.h)
 * raised as the library's internal error: raise_error(internal, "<lib> (injected
 * fault)"). 0, or -1 with the exception set. */
int ca_library_device_check(int device, int max, const char *lib,
                            int (*raise_error)(int, const char *), int internal);
/* For deallocators and capsule deleters: never raises. Ignores
 * cudaErrorCudartUnloading (interpreter exit); reports anything else through
 * PyErr_WriteUnraisable. */
void ca_cuda_warn_unraisable(int status, const char *call);


/* ======================================================================== */
/* dtypes (dtype.c)                                                          */
/* ======================================================================== */
/* NumPy dtype -> ca_dtype; -1 with TypeError naming the dtype when it is not
 * one of the 14 supported (or not native byte order). */
int ca_dtype_from_descr(PyArray_Descr *d);
/* The ca_dtype whose descriptor d is (cuarray's own), else -1 (no error set). */
int ca_own_dtype(PyArray_Descr *d);
/* Anything np.dtype() accepts (None -> `dflt`). -1 with TypeError. */
int ca_dtype_converter(PyObject *obj, int dflt);
/* Borrowed NumPy dtype for a ca_dtype. */
static inline PyArray_Descr *
ca_descr(int dtype)
{
    return ca_st->descr[dtype];
}
/* NumPy's promotion of two ca_dtypes (np.result_type). -1 with an exception. */
int ca_promote(int a, int b);
/* Load ml_dtypes' descriptors (dtype.c): 0, 1 (not imported and not required)
 * or -1 with an exception (ImportError naming the package). */
int ca_ml_dtypes_load(int required);
/* NumPy's safe and same-kind casts between loaded types (dtype.c; ml_dtypes'
 * rows and columns are 0 until it loads). */
extern unsigned char ca_cast_safe[CA_NTYPES][CA_NTYPES];
extern unsigned char ca_cast_same_kind[CA_NTYPES][CA_NTYPES];
static inline int
ca_is_complex(int t)
{
    return t == CA_COMPLEX64 || t == CA_COMPLEX128;
}
/* ml_dtypes' bfloat16 and float8 (arithmetic in float32, result rounded once) */
static inline int
ca_is_ml(int t)
{
    return t >= CA_BFLOAT16;
}
static inline int
ca_is_float(int t)
{
    return (t >= CA_FLOAT16 && t <= CA_FLOAT64) || t >= CA_BFLOAT16;
}
static inline int
ca_is_inexact(int t)
{
    return t >= CA_FLOAT16;
}
static inline int
ca_is_integer(int t)
{
    return t >= CA_INT8 && t <= CA_UINT64;
}
static inline int
ca_is_unsigned(int t)
{
    return t == CA_UINT8 || t == CA_UINT16 || t == CA_UINT32 || t == CA_UINT64;
}

/* ======================================================================== */
/* Devices and streams (device.c)                                            */
/* ======================================================================== */
/* Number of CUDA devices usable (0 when no driver/GPU; never raises). */
int ca_device_count(void);
/* The thread's current device: set by `with Device(...)`, else the default
 * (CUARRAY_DEVICE, else GPU 0 if present, else CA_CPU). */
int ca_current_device(void);
/* Make `device` current for CUDA calls on this thread (cudaSetDevice, cached).
 * CA_CPU is a no-op. -1 with CUDAError if the device does not exist. */
int ca_use_device(int device);
/* The thread's current stream on `device` (NULL = legacy default stream).
 * Always NULL for CA_CPU. */
ca_stream_t ca_current_stream(int device);
/* Device values besides the ordinals and CA_CPU (kernels.h), in one place. */
enum {
    /* ca_device_from_object failed: the exception is set. */
    CA_DEVICE_ERROR = -2,
    /* device.c: a stream not tied to one device (Stream.null, Stream.ptds: that
     * stream of whatever device is current), and the parse of a bare "cuda".
     * Never returned by ca_device_from_object, so it cannot be mistaken for
     * CA_DEVICE_ERROR. */
    CA_ANY_DEVICE = -2,
    /* The device argument of ca_asarray / ca_from_dlpack_obj: where the object
     * is, else the current device. */
    CA_DEVICE_AUTO = -3,
    /* Not chosen (yet): device.c's unset default and thread override, and "any
     * device" for ca_out_from_object. */
    CA_DEVICE_UNSET = -100,
};
/* Parse a device argument: None (current), "cpu", "cuda", "cuda:N", int N,
 * a cuarray Device object. Returns the ordinal or CA_CPU; CA_DEVICE_ERROR with
 * an exception. */
int ca_device_from_object(PyObject *obj);
/* A new reference to the Device object for an ordinal (cached). */
PyObject *ca_device_object(int device);
/* The cudaStream_t of a stream argument: a cuarray Stream, None (the current
 * stream of the current device) or an int (a raw handle). *ok = 0 with an
 * exception set on failure. */
ca_stream_t ca_stream_from_object(PyObject *o, int *ok);
/* True for the legacy default stream (NULL / cudaStreamLegacy). */
int ca_stream_is_null(ca_stream_t s);
/* The pool's tag for memory used on stream s (device.c): s itself when cuarray
 * created it or it is a default stream, else s with CA_STREAM_FOREIGN_BIT set
 * (another library's stream, which may be destroyed without notice). */
ca_stream_t ca_stream_pool_tag(ca_stream_t s);
/* A handle is a pointer, so bit 0 is free to mark a foreign stream; it is
 * memory/pool.h's CA_POOL_STREAM_FOREIGN_BIT (memory.c checks), named here so
 * that the runtime layer does not include the pool's header. */
#define CA_STREAM_FOREIGN_BIT ((uintptr_t)1)

/* ======================================================================== */
/* Memory (memory.c over pool.c)                                             */
/* ======================================================================== */
typedef enum {
    CA_MEM_DEVICE = 0,  /* cudaMalloc, pooled; GPU only */
    CA_MEM_MANAGED = 1, /* cudaMallocManaged, pooled; host-accessible */
    CA_MEM_PINNED = 2,  /* cudaHostAlloc mapped, or registered host memory */
    CA_MEM_HOST = 3,    /* malloc (cpu device), or wrapped NumPy memory */
    CA_MEM_NKINDS
} ca_memkind;
extern const char *const ca_memkind_name[CA_MEM_NKINDS];

struct ca_pool;
struct ca_block;

typedef struct CaMemory {
    PyObject_HEAD char *ptr; /* address usable by kernels of `device` */
    char *host_ptr; /* the host-side address (pinned/managed/host), else NULL */
    size_t size;    /* bytes requested */
    int device;     /* ordinal or CA_CPU */
    ca_memkind kind;
    struct ca_pool *pool; /* pool block: the pool and its block; else NULL */
    struct ca_block *block;
    PyObject *owner;    /* foreign memory: the object that keeps it alive */
    int registered;     /* foreign host memory we cudaHostRegister'ed */
    Py_ssize_t exports; /* live buffer-protocol exports */
    PyObject *weakreflist;
    int shared;  /* its address was handed out (fusion.c) */
    int pending; /* deferred kernels that will write it (fusion.c) */
} CaMemory;

/* A new Memory of `nbytes` from the pool of (device, kind), stream-ordered on
 * `stream`. nbytes == 0 is an error here: zero-size arrays hold no Memory.
 * Raises OutOfMemoryError after freeing cached blocks and retrying once. */
CaMemory *ca_memory_alloc(int device, ca_memkind kind, size_t nbytes,
                          ca_stream_t stream);

/* runtime/graph.c: while this thread captures a CUDA graph, the list that keeps
 * every Memory allocated from the pools (memory.c appends), so the graph owns its
 * buffers; NULL otherwise. */
extern _Thread_local PyObject *ca_capture_keep;
/* runtime/graph.c: Stream.begin_capture / end_capture (-> Graph) / is_capturing
 * for stream s of `device` (device.c's Stream methods). */
PyObject *ca_graph_begin_capture(ca_stream_t s, int device, int mode);
PyObject *ca_graph_end_capture(ca_stream_t s, int device);
PyObject *ca_graph_is_capturing(ca_stream_t s, int device);
PyObject *ca_graph_launch(PyObject *graph, ca_stream_t s);
PyObject *ca_graph_upload(PyObject *graph, ca_stream_t s);
void ca_graph_capture_error(void);

/* Foreign memory kept alive by a reference to `owner`. host_ptr may be NULL. */
CaMemory *ca_memory_foreign(char *ptr, char *host_ptr, size_t size, int device,
                            ca_memkind kind, PyObject *owner);
/* device.c calls this before destroying a stream it owns: the pools wait for
 * the stream and stop naming it in their blocks (a block freed on a stream is
 * later reused on another only after a device-side wait on the first, which
 * must not name a destroyed stream). 0, or -1 with CUDAError. */
int ca_memory_stream_destroyed(int device, ca_stream_t stream);
/* The CA_REDUCE_TICKETS zero counters of one-launch split reductions on `stream`
 * of `device` (current): kernels.h's ca_reduce_desc.tickets. One set per (device,
 * stream), made (and zeroed on the stream) on first use, kept until cuarray
 * destroys the stream; the kernels that use them leave them 0. NULL (no error
 * set) when there are none: the per-thread default stream (one handle for many
 * streams), a full table, no memory; the reduction then takes two launches. */
unsigned int *ca_memory_tickets(int device, ca_stream_t stream);

/* memptr.c: x.data for memory `mem` (NULL: none) at `ptr`; the memory an
 * ndarray(..., memptr=obj) views (new reference; *data its first byte, *avail
 * the bytes from there, *before those ahead of it), foreign memory wrapped
 * with obj as owner. */
PyObject *ca_memptr_new(CaMemory *mem, char *ptr, int device);
CaMemory *ca_memptr_memory(PyObject *obj, char **data, Py_ssize_t *before,
                           Py_ssize_t *avail);

/* ======================================================================== */
/* ndarray (ndarray.c)                                                       */
/* ======================================================================== */
enum {
    CA_C_CONTIGUOUS = 1,
    CA_F_CONTIGUOUS = 2,
    CA_OWNDATA = 4,
    CA_WRITEABLE = 8,
    /* setflags(write=True) is refused: read-only foreign memory, broadcast views
     * and constants (NumPy's rule for its own read-only arrays) */
    CA_NEVER_WRITEABLE = 16,
};
_Static_assert((int)CA_C_CONTIGUOUS == (int)CA_LAYOUT_C &&
                   (int)CA_F_CONTIGUOUS == (int)CA_LAYOUT_F,
               "shape.h's contiguity bits are the ndarray's flags");

/* A variable-size object: ob_size is ndim; dims holds shape[ndim] then
 * strides[ndim] (bytes). */
typedef struct {
    PyObject_VAR_HEAD char *data; /* first element, in the address space of `device` */
    int dtype;                    /* ca_dtype */
    int itemsize;
    int flags;
    int device; /* ordinal or CA_CPU */
    ca_memkind kind;
    Py_ssize_t size; /* number of elements */
    CaMemory *mem;   /* the buffer's owner; NULL when size == 0 */
    PyObject *base;  /* for views: the array (or object) viewed */
    PyObject *weakreflist;
    struct ca_pending *pending; /* its deferred kernel, not launched yet (fusion.c) */
    int rb_slot;                /* readback mirror of a 1-element result, -1: none */
    uint64_t rb_epoch;  /* ca_work_epoch when the mirror was written (readback.h) */
    Py_ssize_t dims[1]; /* shape[ndim], strides[ndim]: really 2*ndim long */
} CaArray;

#define CA_NDIM(a)    ((int)Py_SIZE(a))
#define CA_SHAPE(a)   ((a)->dims)
#define CA_STRIDES(a) ((a)->dims + Py_SIZE(a))

static inline int
ca_array_check(PyObject *o)
{
    return Py_IS_TYPE(o, ca_st->ndarray_type) ||
           PyObject_TypeCheck(o, ca_st->ndarray_type);
}

/* A new array with fresh memory (from the pool of device/kind on the device's
 * current stream). strides NULL -> C order; `fortran` picks F order instead. */
CaArray *ca_array_empty(int dtype, int ndim, const Py_ssize_t *shape, int fortran,
                        int device, ca_memkind kind);
/* A view of `base`'s memory with new metadata. `data` must lie inside base's
 * buffer. The view references base (so the memory outlives the view). */
CaArray *ca_array_view(CaArray *base, int dtype, int ndim, const Py_ssize_t *shape,
                       const Py_ssize_t *strides, char *data);
/* `src` (a fresh array, stolen) as an instance of `type`, a subclass of ndarray
 * or ndarray itself, with type.__array_finalize__(parent) called for a
 * subclass (parent NULL: None). Views of a subclass instance keep its type
 * (ca_array_view calls this). */
CaArray *ca_array_as_type(CaArray *src, PyTypeObject *type, PyObject *parent);
/* The same view keeping base's dtype: what reshapes, permutations and
 * broadcasts make. */
static inline CaArray *
ca_array_restride(CaArray *base, int ndim, const Py_ssize_t *shape,
                  const Py_ssize_t *strides, char *data)
{
    return ca_array_view(base, base->dtype, ndim, shape, strides, data);
}
/* An array over `mem` (stealing no reference; the array takes its own). */
CaArray *ca_array_from_memory(CaMemory *mem, char *data, int dtype, int ndim,
                              const Py_ssize_t *shape, const Py_ssize_t *strides,
                              PyObject *base);
/* Recompute C/F contiguity flags after shape/strides change. */
void ca_array_update_flags(CaArray *a);
/* The host address of a's first element, or NULL if a's memory is not
 * host-accessible (device memory). Size-0 arrays answer a dummy address. */
char *ca_array_host_data(CaArray *a);
/* A NumPy view of a host-accessible array's memory, after waiting for the
 * work queued on the device's current stream; the view keeps `a` alive.
 * TypeError for device memory. */
PyObject *ca_array_numpy_view(CaArray *a);
/* A zero-copy NumPy view of a cpu-device array (it keeps x alive), for the
 * routines the cpu device takes from NumPy (matmul, sort, fft): no wait, and a
 * zero-size array views no memory. */
PyObject *ca_cpu_numpy_view(CaArray *x);
/* What other files contribute to the ndarray type. ndarray.c merges these
 * NULL-terminated tables (and the {0, NULL}-terminated slot lists) into the
 * type's spec when it creates the type; the owners are named. */
extern PyMethodDef
    ca_transfer_array_methods[]; /* transfer.c: get, set, copy, astype, ... */
extern PyMethodDef ca_convert_array_methods[]; /* convert.c: to_device */
extern PyMethodDef ca_manip_array_methods[];   /* manip.c: reshape, transpose, ... */
extern PyMethodDef
    ca_elementwise_array_methods[];          /* elementwise.c: conj, clip, round, ... */
extern PyMethodDef ca_ufunc_array_methods[]; /* ufunc.c: __array_ufunc__ */
extern PyMethodDef
    ca_reduction_array_methods[]; /* reduction.c: sum, mean, argmax, ... */
extern PyMethodDef
    ca_interop_array_methods[]; /* interop.c: __dlpack__, __dlpack_device__ */
extern PyMethodDef ca_linalg_array_methods[]; /* linalg.c: dot */
extern PyGetSetDef ca_interop_array_getset[]; /* interop.c: __cuda_array_interface__ */
extern PyType_Slot
    ca_elementwise_number_slots[];   /* elementwise.c: nb_add, nb_inplace_add, ... */
extern PyType_Slot ca_index_slots[]; /* index.c: mp_subscript, mp_ass_subscript */
extern PyType_Slot
    ca_linalg_number_slots[]; /* linalg.c: nb_matrix_multiply, nb_inplace_... */
extern PyMethodDef ca_search_array_methods[]; /* search.c: nonzero */
extern PyMethodDef
    ca_sort_array_methods[]; /* sort.c: sort, argsort, searchsorted, ... */
extern PyMethodDef ca_readback_array_methods[]; /* readback.c: item, __complex__ */
extern PyType_Slot ca_readback_number_slots[];  /* readback.c: nb_bool, nb_int, .. */
extern PyMethodDef ca_format_array_methods[];   /* format.c: __reduce__ */
extern PyType_Slot ca_format_slots[];           /* format.c: tp_repr, tp_str */

/* A getset getter that returns one expression of `self` (a T *): the one-line
 * attributes of ndarray, Memory, MemoryPool and MemoryPointer. */
#define CA_GETTER(fn, T, expr)                                                         \
    static PyObject *fn(T *self, void *closure) { return expr; }

/* The start of the tp_dealloc of a heap type with weak references: clears them
 * and returns the type, which the dealloc releases once self is freed. */
static inline PyTypeObject *
ca_dealloc_start(PyObject *self, PyObject *weakreflist)
{
    if (weakreflist != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    return Py_TYPE(self);
}

/* The function and flags of a PyMethodDef taking keywords, with the cast to
 * PyCFunction that its other signature needs: fastcall or tuple and dict. */
#define CA_FASTKW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS
#define CA_VARKW(f)  (PyCFunction)(void (*)(void))(f), METH_VARARGS | METH_KEYWORDS

/* ca_<name>_init(m) of a file whose module part is its table of functions. */
#define CA_INIT_FUNCTIONS(name, table)                                                 \
    int ca_##name##_init(PyObject *m) { return PyModule_AddFunctions(m, table); }

/* Fill a ca_strided for operand `op` from an array broadcast to (ndim, shape). */
void ca_strided_set_operand(ca_strided *s, int op, CaArray *a);

/* ======================================================================== */
/* Up-calls (module.c)                                                       */
/* ======================================================================== */
/* The calls a lower layer must make into a higher one go through these
 * pointers, so that no file calls a function above its layer (runtime/ <
 * memory/ < array/ < ops/ < module.c; tests/test_layers.py). module.c, which
 * sees every file, fills them statically. */
typedef struct {
    /* every layer, through ca_fusion_flush below, when deferred kernels are
     * pending: launch them (ca_fusion_flush_all, ops/fusion.c). */
    void (*flush_deferred)(void);
    /* device.c, before destroying a stream it owns: memory.c's pools forget it
     * (ca_memory_stream_destroyed). 0, or -1 with CUDAError. */
    int (*stream_destroyed)(int device, ca_stream_t stream);
    /* ndarray.c, memory.c, memptr.c, interop.c: m's address is about to leave
     * cuarray (ca_fusion_export_memory; NULL is a no-op). */
    void (*export_memory)(CaMemory *m);
    /* ndarray.c: an array dies holding a deferred kernel (a->pending set;
     * ca_fusion_array_dealloc) or a readback mirror (a->rb_slot >= 0;
     * ca_readback_mirror_drop). */
    void (*pending_dealloc)(CaArray *a);
    void (*mirror_drop)(int slot);
    /* memory.c: the Memory an allocator set by set_allocator returned, seen
     * through memptr.c's reader of MemoryPointer-like objects (ca_memptr_memory). */
    CaMemory *(*memptr_memory)(PyObject *obj, char **data, Py_ssize_t *before,
                               Py_ssize_t *avail);
    /* launch_*.c (and ca_scratch_alloc): a work area from the pool of (device,
     * kind), ordered on `stream` (ca_memory_alloc). */
    CaMemory *(*memory_alloc)(int device, ca_memkind kind, size_t nbytes,
                              ca_stream_t stream);
    /* errors.c, after raising a CUDA or library error: if CUDA invalidated this
     * thread's capture, end it (ca_graph_capture_error, runtime/graph.c; the
     * exception stays set). */
    void (*capture_error)(void);
} ca_hooks;
extern const ca_hooks ca_hook;

/* Optional device scratch of `bytes` from the pool, ordered on `stream`: *mem
 * owns it, *ptr is its address; both NULL when bytes is 0. 0, or -1 with an
 * exception. Through the hook, so that ops and the runtime layer share it. */
static inline int
ca_scratch_alloc(int device, size_t bytes, ca_stream_t stream, CaMemory **mem,
                 void **ptr)
{
    *mem = NULL;
    *ptr = NULL;
    if (bytes == 0) {
        return 0;
    }
    *mem = ca_hook.memory_alloc(device, CA_MEM_DEVICE, bytes, stream);
    if (*mem == NULL) {
        return -1;
    }
    *ptr = (*mem)->ptr;
    return 0;
}

/* The member table of a heap type whose one member is an offset the type
 * machinery reads (SLOT: "__weaklistoffset__", "__vectorcalloffset__") at
 * TYPE's `field`; the file includes structmember.h. */
#define CA_OFFSET_MEMBERS(var, SLOT, TYPE, field)                                      \
    static PyMemberDef var[] = {                                                       \
        { SLOT, T_PYSSIZET, offsetof(TYPE, field), READONLY, NULL },                   \
        { NULL, 0, 0, 0, NULL },                                                       \
    }

/* The spec of one of the module's heap types (PyType_FromModuleAndSpec): its
 * name, object struct, flags and slot table, as every type here declares it. */
#define CA_TYPE_SPEC(var, NAME, TYPE, FLAGS, SLOTS)                                    \
    static PyType_Spec var = {                                                         \
        .name = NAME, .basicsize = sizeof(TYPE), .flags = FLAGS, .slots = SLOTS        \
    }

/* ======================================================================== */
/* Arguments and messages (array/args.c)                                      */
/* ======================================================================== */
/* `o` as a cuarray array (borrowed), or NULL with TypeError naming fname and
 * saying how to make one. */
CaArray *ca_require_array(const char *fname, PyObject *o);
/* Parse METH_FASTCALL | METH_KEYWORDS arguments against `names` (NULL-ended):
 * the first `npos` may be given by position, the first `nreq` are required.
 * out[i] = the borrowed argument, or NULL when not given. -1 with TypeError. */
int ca_parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                  PyObject *kwnames, const char *const *names, int npos, int nreq,
                  PyObject **out);
/* ca_parse_args (nreq >= 1), the first argument a cuarray array (*a, borrowed;
 * ca_require_array's TypeError else): the start of a function of an array. */
int ca_parse_array_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                        PyObject *kwnames, const char *const *names, int npos, int nreq,
                        PyObject **out, CaArray **a);
/* *slot = module.name, imported on the first call and kept for the process (a
 * static of the caller); 0, or -1 with the import's exception. */
int ca_import_attr(PyObject **slot, const char *module, const char *name);
/* An int or a sequence of ints -> shape[CA_MAX_DIMS]; returns ndim, or -1
 * (TypeError / ValueError for negative or too many dimensions). */
int ca_shape_from_object(PyObject *obj, Py_ssize_t *shape);
/* An int (not a bool: NumPy's TypeError) as intp; beyond intp NumPy's ValueError
 * "Maximum allowed dimension exceeded". 0 or -1. */
int ca_intp_from_object(PyObject *o, Py_ssize_t *out);
/* memory= argument: None -> the device's default kind ("device" on a GPU,
 * "host" on the cpu); "device"/"managed"/"pinned" on a GPU, "host" on the cpu.
 * Returns the ca_memkind, or -1 with ValueError. */
int ca_memkind_from_object(PyObject *obj, int device);
/* order= argument: None -> dflt; 'C', 'F', 'A', 'K' (either case, str or
 * bytes). -1 with TypeError for a non-str, ValueError for another str. */
int ca_order_from_object(PyObject *obj, char dflt);
/* copy= as NumPy reads it: absent (NULL) -> dflt, None -> -1 ("only if needed"),
 * else its truth value; a str is NumPy's ValueError. -1 with an exception set on
 * error (test PyErr_Occurred()). */
int ca_copy_from_object(PyObject *obj, int dflt);
/* A METH_FASTCALL | METH_KEYWORDS call's arguments as a new tuple and dict (for
 * handing the whole call to a Python function). 0, or -1 with both NULL. */
int ca_fastcall_tuple_dict(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
                           PyObject **pos, PyObject **kw);
/* dtype= and order= of a call (either may be NULL or None) -> *dtype (default
 * dflt_dtype), *order (default dflt_order). 0 or -1. Inline: creation calls it. */
static inline int
ca_dtype_order_from_objects(PyObject *dt, int dflt_dtype, PyObject *ord,
                            char dflt_order, int *dtype, int *order)
{
    *dtype = ca_dtype_converter(dt != NULL ? dt : Py_None, dflt_dtype);
    if (*dtype < 0) {
        return -1;
    }
    *order = ca_order_from_object(ord, dflt_order);
    return *order < 0 ? -1 : 0;
}
/* *out = the address an int holds, from a new reference `v` that this
 * consumes (NULL: an error is set already). 0 or -1. */
static inline int
ca_pointer_from_long(PyObject *v, void **out)
{
    if (v == NULL) {
        return -1;
    }
    void *p = PyLong_AsVoidPtr(v);
    Py_DECREF(v);
    if (p == NULL && PyErr_Occurred()) {
        return -1;
    }
    *out = p;
    return 0;
}
/* device= and memory= (either may be NULL or None; device None -> current)
 * -> *device, *kind. 0 or -1. */
int ca_device_kind_from_objects(PyObject *dev, PyObject *mem, int *device, int *kind);
/* The arguments dtype, order, device, memory of a new array (v[0..3], each may
 * be NULL) -> *dtype (default dflt), *fortran (order 'C' or 'F' only),
 * *device, *kind: empty(), eye(), ndarray(...). 0 or -1. */
int ca_new_array_args(PyObject **v, int dflt, int *dtype, int *fortran, int *device,
                      int *kind);
/* One element of `dtype` (host bytes, at most 16) from a Python value, cast as
 * NumPy's np.full / copyto(casting='unsafe') does (OverflowError for Python
 * ints out of range). A cuarray array is not accepted here. */
int ca_value_to_bytes(PyObject *value, int dtype, void *buf);
/* The same as `arr[...] = value` and ndarray.fill convert (TypeError for a
 * complex into a real dtype, ValueError for NaN into an integer). */
int ca_value_to_bytes_setitem(PyObject *value, int dtype, void *buf);

/* "cpu" or "cuda:N", as the Array API and every message spell a device:
 * written into buf (CA_DEVICE_NAME_LEN bytes) unless constant; returns it.
 * Inline so that device.c, below this file, can use it too. */
#define CA_DEVICE_NAME_LEN 24
static inline const char *
ca_device_name(int device, char *buf)
{
    if (device == CA_CPU) {
        return "cpu";
    }
    PyOS_snprintf(buf, CA_DEVICE_NAME_LEN, "cuda:%d", device);
    return buf;
}
/* The same as a new str. */
static inline PyObject *
ca_device_str(int device)
{
    char buf[CA_DEVICE_NAME_LEN];
    return PyUnicode_FromString(ca_device_name(device, buf));
}

/* Small helpers of the modules' Python entry points, inline so that every
 * layer (ops and runtime alike) shares one definition. */
/* *flag = bool(arg); the old value as a Python bool (the test hooks that
 * switch a module's route, e.g. _set_allow_tf32). NULL on error. */
static inline PyObject *
ca_swap_flag(int *flag, PyObject *arg)
{
    const int v = PyObject_IsTrue(arg);
    if (v < 0) {
        return NULL;
    }
    const int old = *flag;
    *flag = v;
    return PyBool_FromLong(old);
}
/* A loaded library's path as str, or None for NULL (not loaded). */
static inline PyObject *
ca_path_or_none(const char *path)
{
    if (path == NULL) {
        Py_RETURN_NONE;
    }
    return PyUnicode_DecodeFSDefault(path);
}
/* An int (or an object with __index__) as a 1-tuple, anything else as
 * tuple(o): for arguments that take one int or a sequence of them (kth=,
 * axes=). New reference, or NULL. */
static inline PyObject *
ca_ints_tuple(PyObject *o)
{
    if (PyLong_Check(o) || PyIndex_Check(o)) {
        return PyTuple_Pack(1, o);
    }
    return PySequence_Tuple(o);
}
/* ValueError(fmt) with the shapes (nd1, s1) and (nd2, s2) as fmt's two %S / %R
 * arguments, for the messages that name two shapes that do not fit. -1. */
static inline int
ca_two_shapes_error(const char *fmt, int nd1, const Py_ssize_t *s1, int nd2,
                    const Py_ssize_t *s2)
{
    PyObject *a = ca_shape_tuple(nd1, s1);
    PyObject *b = a != NULL ? ca_shape_tuple(nd2, s2) : NULL;
    if (b != NULL) {
        PyErr_Format(PyExc_ValueError, fmt, a, b);
    }
    Py_XDECREF(a);
    Py_XDECREF(b);
    return -1;
}

/* Raise numpy.exceptions.AxisError(axis, ndim); returns -1. */
int ca_axis_error(Py_ssize_t axis, int ndim);
/* The same with `fname: ` before the message (NumPy's msg_prefix; NULL: none). */
int ca_axis_error_in(const char *fname, Py_ssize_t axis, int ndim);
/* axis into [0, ndim) as *out, or AxisError. 0 or -1. */
int ca_normalize_axis(Py_ssize_t axis, int ndim, int *out);
/* The same for an axis argument (an int or an object with __index__;
 * TypeError otherwise). */
int ca_axis_from_object(PyObject *obj, int ndim, int *out);

/* The out= argument of `fname` (NULL: messages name no function). NULL or None
 * -> *out = NULL; a 1-tuple is unwrapped (ufunc style; another tuple is a
 * ValueError). Else it must be a writeable cuarray.ndarray on `device`
 * (CA_DEVICE_UNSET: any device; the caller checks). *out is borrowed.
 * 0, or -1 with TypeError / ValueError. */
int ca_out_from_object(const char *fname, PyObject *obj, int device, CaArray **out);
/* out's shape is exactly (ndim, shape): 0, or -1 with ValueError naming both. */
int ca_out_check_shape(const char *fname, const CaArray *out, int ndim,
                       const Py_ssize_t *shape);
/* A result of `dtype` may be written into out under casting='same_kind':
 * 0, or -1 with NumPy's TypeError. */
/* NumPy's own exception for a ufunc error, from cuarray._ufunc_errors.<fn>(*args)
 * (args taken): 0 when set, -1 with no error set when NumPy has none to give. */
int ca_numpy_ufunc_error(const char *fn, PyObject *args);
int ca_out_check_cast(const char *fname, const CaArray *out, int dtype);

/* True when a's pointer or a stride breaks its dtype's natural alignment (GPU
 * kernels then need a copy first). */
int ca_array_misaligned(const CaArray *a);

/* ======================================================================== */
/* Copy and transfer (transfer.c)                                            */
/* ======================================================================== */
/* dst[...] = src (broadcast src to dst's shape, cast to dst's dtype). Same
 * device required. The one strided copy-and-cast path: copy, astype,
 * ascontiguousarray and assignment all go through it. */
int ca_assign(CaArray *dst, CaArray *src);
/* v without the leading length-1 dimensions beyond nd (a view; v itself, with a
 * new reference, when there are none): NumPy drops them from an assigned value,
 * so a (1, 3) value fills a (3,) target. */
CaArray *ca_drop_leading_ones(CaArray *v, int nd);
/* A copy of `a` with `dtype` in C ('C') or F ('F') order, or keeping the
 * layout ('K'/'A'). */
CaArray *ca_array_copy(CaArray *a, int dtype, char order);
/* A new array shaped like `a`, laid out by `order`: 'C', 'F', 'A' (F when a is
 * F- and not C-contiguous) or 'K' (a's axis order, dense, as NumPy). */
CaArray *ca_array_empty_like(CaArray *a, int dtype, char order, int device,
                             ca_memkind kind);
/* Set every element of `a` to the element at `value` (host bytes of a's
 * dtype), through ca_fill. */
int ca_array_fill(CaArray *a, const void *value);
/* Fill `a` from a Python value, or broadcast a cuarray array into it: the value
 * converted as np.full does (setitem 0) or as a.fill / a[...] = v (setitem 1). */
int ca_array_fill_object(CaArray *a, PyObject *value, int setitem);
/* Device array -> a new NumPy array (synchronizes). */
PyObject *ca_array_to_numpy(CaArray *a);
/* NumPy array -> a new array on device/kind (copy). */
CaArray *ca_array_from_numpy(PyArrayObject *arr, int dtype, int device,
                             ca_memkind kind);
/* Copy n <= CA_BOUNCE_MAX bytes between host memory and memory of the current
 * device (to_host: dst is host; else src is host) through a page-locked bounce
 * buffer on `stream`, and wait for it (the GIL released). 0 done, -1 error set,
 * 1 when no buffer was free (nothing done: take another path). */
#define CA_BOUNCE_MAX ((size_t)64 << 10)
int ca_bounce_copy(void *dst, const void *src, size_t n, int to_host,
                   ca_stream_t stream);

/* ======================================================================== */
/* Conversion of arbitrary objects (convert.c / interop.c)                   */
/* ======================================================================== */
/* cuarray.asarray(obj, dtype, device, copy) semantics; dtype -1 = keep;
 * device CA_DEVICE_AUTO = from obj / current. copy: -1 None, 0 False, 1 True. */
CaArray *ca_asarray(PyObject *obj, int dtype, int device, int copy, char order,
                    int kind /* -1 = default */);
/* ca_asarray of NumPy array h. `fresh`: h is a private temporary (no one else
 * sees it), so wrapping it is as good as a copy. */
CaArray *ca_asarray_numpy(PyArrayObject *h, int fresh, int dtype, int device, int copy,
                          char order, int kind);
/* Import through __cuda_array_interface__ (interop.c). NULL without exception
 * set if obj has no interface. */
CaArray *ca_from_cai(PyObject *obj, int *found);
/* Import through __dlpack__/__dlpack_device__ (interop.c), zero-copy when the
 * device allows; `device` and `copy` as cuarray.from_dlpack's. *found = 0 (and
 * NULL, no exception) if obj has no __dlpack__. */
CaArray *ca_from_dlpack_obj(PyObject *obj, int device, int copy, int *found);

/* ======================================================================== */
/* Indexing and manipulation (index.c, manip.c)                            */
/* ======================================================================== */
/* Where scratch and index arrays live on `device` (host memory on the cpu). */
ca_memkind ca_index_scratch_kind(int device);
/* Where a gather's result lives: device memory on a GPU (a pinned source would
 * otherwise make the kernel write across the bus), managed stays managed, host
 * memory on the cpu device. search.c's results follow the same rule. */
ca_memkind ca_gather_result_kind(const CaArray *a);

/* ======================================================================== */
/* Element-wise calls (elementwise.c)                                       */
/* ======================================================================== */
/* NumPy's op(*args) for `op`, a CA_OP_<name> id of build/generated/ew_table.h
 * (add, multiply, sqrt, ...): args are that op's nin inputs (arrays, Python or
 * NumPy scalars); out NULL or an array; dtype -1 or the dtype= argument. The
 * same path as the Python functions (broadcasting, NEP 50, out= aliasing).
 * A new reference, or NULL with an exception. */
PyObject *ca_ew_call(int op, PyObject *const *args, PyObject *out, int dtype);
/* op(x1, ..., /, out=None, *, dtype=None) from fast-call arguments: the call of
 * every ufunc object (ufunc.c). */
PyObject *ca_ew_py(int op, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames);
/* ufunc.c: is o one of the ufunc objects; its op (ops.def's id). */
int ca_ufunc_check(PyObject *o);
int ca_ufunc_op(PyObject *o);

/* ======================================================================== */
/* Search (search.c)                                                         */
/* ======================================================================== */
/* nonzero(obj): a tuple of int64 index arrays, one per dimension. `fname`
 * names the caller in the TypeError for an object that is no ndarray. */
PyObject *ca_nonzero(PyObject *obj, const char *fname);

/* ======================================================================== */
/* Deferred element-wise work (fusion.c)                                     */
/* ======================================================================== */
/* Pending arrays (deferred kernels) in existence; read without the GIL only as
 * a hint. This and ca_work_epoch live in the launch layer (runtime/launch.c),
 * which reads them on every enqueue; fusion.c, above it, counts into them. */
extern Py_ssize_t ca_fusion_npending;
/* Counts the points where cuarray issues GPU work or exports memory (every
 * ca_fusion_flush): a value mirrored to the host (readback.h) is still the
 * array's while this has not moved. */
extern uint64_t ca_work_epoch;
/* Launch every deferred kernel, in the order asked for. Needs the GIL (a no-op
 * without it). Never raises: a failed launch is reported as unraisable. Lower
 * layers reach it through ca_hook.flush_deferred (ca_fusion_flush). */
void ca_fusion_flush_all(void);
static inline void
ca_fusion_flush(void)
{
    ca_work_epoch++;
    if (ca_fusion_npending) {
        ca_hook.flush_deferred();
    }
}
/* m's address is about to leave cuarray (CAI, DLPack, .data.ptr, buffers):
 * flush, and keep m out of deferred programs from now on (someone else may
 * write it). NULL is a no-op. */
void ca_fusion_export_memory(CaMemory *m);
/* ndarray dealloc of an array with a->pending set. */
void ca_fusion_array_dealloc(CaArray *a);
/* The element-wise call `loop` over inputs arrs[i] (NULL: the scalar
 * scalars[i], in the loop's input type) broadcast to (ndim, shape) with a new
 * output, deferred: a new pending array, or NULL without an exception when this
 * call is not deferred (take the eager path), or NULL with an exception. */
PyObject *ca_fusion_try(int loop, CaArray *const *arrs, const ca_scalar_arg *scalars,
                        int ndim, const Py_ssize_t *shape, int device);
/* The whole-array sum (mean: d's divisor) of pending array `a` by plan d (made
 * for a itself, on `stream`): the other deferred work is launched, then one
 * kernel evaluates a's program and sums it into d->out, and `a` stays
 * deferred (consumed: if it dies unread, its kernel never runs). 0, a CUDA
 * status, or CA_KERR_UNSUPPORTED when this sum can not be fused (then nothing
 * of a's is launched; run the plain reduction). */
int ca_fusion_sum(CaArray *a, const ca_reduce_desc *d, ca_stream_t stream);


#endif /* CA_CUARRAY_H */

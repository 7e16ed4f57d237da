/*
 * kernels.h: the one line between csrc/ (Python) and kernels/ (CUDA C++ and host C).
 *
 * ABI rules:
 * - Plain C11; no Python.h, no CUDA headers: it compiles in host-only builds too.
 * - Every entry point returns int: 0 on success, else a cudaError_t value (GPU
 *   paths) or one of the CA_KERR_* codes below. Entry points never print, abort
 *   or exit; the caller (csrc/) turns a nonzero status into a Python exception.
 * - `device` is a CUDA device ordinal, or CA_CPU for the host. The entry points
 *   declared here dispatch on it themselves (kernels/dispatch.c), so csrc/ never
 *   needs #if CA_HAVE_CUDA around a kernel call. The GPU path assumes the caller
 *   already made `device` current (cudaSetDevice) and launches on `stream`.
 * - Strides are in BYTES everywhere, signed; pointers point at the first element.
 */
#ifndef CA_KERNELS_H
#define CA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A cudaStream_t without the CUDA headers (cudaStream_t is `struct CUstream_st *`). */
typedef struct CUstream_st *ca_stream_t;

#define CA_CPU (-1)          /* device ordinal of the host */
#define CA_MAX_DIMS 32       /* most dimensions an array may have */
#define CA_MAX_OPERANDS 4    /* most operands (inputs + outputs) of one strided kernel */

/* Status codes of the host path and of checks done before a launch.
 * Chosen far above every cudaError_t value. */
#define CA_KERR_UNSUPPORTED 100001  /* no loop for this dtype/op combination */
#define CA_KERR_NO_CUDA 100002      /* built without CUDA, asked for a GPU */
#define CA_KERR_INDEX 100003        /* an index out of range (gather/scatter) */
#define CA_KERR_NOMEM 100004        /* host scratch allocation failed */

/* ---- dtypes ---------------------------------------------------------------- */
/* Internal type codes. The order is fixed: tables in kernels/ and csrc/ are
 * indexed by it. */
typedef enum {
    CA_BOOL = 0,
    CA_INT8,
    CA_UINT8,
    CA_INT16,
    CA_UINT16,
    CA_INT32,
    CA_UINT32,
    CA_INT64,
    CA_UINT64,
    CA_FLOAT16,
    CA_FLOAT32,
    CA_FLOAT64,
    CA_COMPLEX64,
    CA_COMPLEX128,
    CA_NTYPES
} ca_dtype;

/* Bytes per element of each ca_dtype (kernels/dtypes.c). */
extern const int ca_dtype_size[CA_NTYPES];
/* Short names, "bool", "int8", ..., "complex128" (kernels/dtypes.c). */
extern const char *const ca_dtype_name[CA_NTYPES];

/* ---- strided layouts --------------------------------------------------------- */
/* The operands of one element-wise pass: a common shape and, per operand, a base
 * pointer and byte strides. Operand 0 is the output by convention unless the
 * family says otherwise. */
typedef struct {
    int ndim;
    int nops;
    int64_t shape[CA_MAX_DIMS];
    int64_t strides[CA_MAX_OPERANDS][CA_MAX_DIMS];
    char *data[CA_MAX_OPERANDS];
} ca_strided;

/* Merge dimensions that are contiguous together in every operand, drop size-1
 * dimensions, and order dimensions so the innermost has the smallest output
 * stride. Returns the total element count. (kernels/layout.c) */
int64_t ca_strided_coalesce(ca_strided *s);

/* True if every operand of s (after coalescing) is one dense run in memory with
 * its element size as the stride. */
int ca_strided_is_contiguous(const ca_strided *s, const int *itemsizes);

/* ---- copy, cast, fill (kernels/copy.cu, kernels/host_copy.c) ------------------ */
/* dst[i] = (dst_dtype) src[i] over s (operand 0 = dst, operand 1 = src). Every
 * dtype pair, with NumPy's cast results (float->int truncates toward zero,
 * complex->real drops the imaginary part, nonzero->bool is true). */
int ca_copy_cast(int device, ca_strided *s, int dst_dtype, int src_dtype, ca_stream_t stream);

/* Fill operand 0 of s with the value at `value` (one element of `dtype`, host memory). */
int ca_fill(int device, ca_strided *s, int dtype, const void *value, ca_stream_t stream);

/* reductions (reduce helper) ------------------------------------------------------ */
/* The reductions of csrc/reduction.c (kernels/reduce.cu, kernels/host_reduce.c,
 * kernels/dispatch_reduce.c). A reduction maps every element of the input to one
 * output element: dimensions are either kept (they index the output) or reduced.
 * The caller fills a ca_reduce_desc in C order of the array's axes; the plan
 * merges, reorders and drops dimensions itself. */
typedef enum {
    CA_RED_SUM = 0,
    CA_RED_PROD,
    CA_RED_MAX,    /* NaN propagates */
    CA_RED_MIN,
    CA_RED_ARGMAX, /* int64 position in C order of the reduced dims; first wins, NaN wins */
    CA_RED_ARGMIN,
    CA_RED_ANY,
    CA_RED_ALL,
    CA_RED_SQDEV,  /* sum of |x - aux[o]|^2: the second pass of var and std */
    CA_RED_NOPS
} ca_redop;

#define CA_RED_SQRT 1          /* flags: square root of the final value (std) */
#define CA_REDUCE_GPU_DIMS 8   /* GPU plans take at most this many merged dims of each kind */

typedef struct {
    /* Filled by the caller. Strides in bytes. */
    int nkeep;                           /* kept dims (the output's, keepdims aside) */
    int nred;                            /* reduced dims */
    int64_t keep_shape[CA_MAX_DIMS];
    int64_t keep_in[CA_MAX_DIMS];        /* input strides of the kept dims */
    int64_t keep_out[CA_MAX_DIMS];       /* output strides */
    int64_t keep_aux[CA_MAX_DIMS];       /* aux strides (SQDEV only) */
    int64_t red_shape[CA_MAX_DIMS];
    int64_t red_in[CA_MAX_DIMS];         /* input strides of the reduced dims */
    const char *in;
    char *out;
    const char *aux;                     /* SQDEV: the per-output mean, see below */
    double divisor;                      /* inexact results are divided by it; 1 = none */
    int flags;                           /* CA_RED_SQRT */
    /* Filled by ca_reduce_plan. */
    int64_t nout;                        /* output elements (0: nothing to launch) */
    int64_t nred_elems;                  /* elements reduced into each output */
    int strategy, group, splits;
    int64_t chunk;
    size_t workspace_bytes;              /* device scratch the launch needs, 0 if none */
    /* Set by the caller before ca_reduce when workspace_bytes > 0: device memory,
     * stream-ordered on the launch's stream, at least 16-byte aligned. */
    void *workspace;
} ca_reduce_desc;

/* 1 if a kernel exists for op with this input and output dtype. The pairs:
 * SUM: every dtype to its NumPy sum type (bool/ints -> int64, uints -> uint64,
 *   floats and complex to themselves), bool/ints/float32 -> float64, float16 ->
 *   float32, complex64 -> complex128. PROD: to the NumPy type. MAX, MIN: to
 *   itself. ARGMAX, ARGMIN: -> int64. ANY, ALL: -> bool. SQDEV: bool/ints ->
 *   float64, floats to themselves, complex to their real type, float32 and
 *   complex64 -> float64. Float sums accumulate in double (float16: float32). */
int ca_reduce_supported(int op, int in_dtype, int out_dtype);
/* The aux (mean) dtype SQDEV reads for this input: complex128 for complex
 * inputs, float32 for float16, float64 otherwise. */
int ca_reduce_sqdev_aux_dtype(int in_dtype);
/* Merge dims and choose the kernels; sets nout, nred_elems and workspace_bytes.
 * CA_KERR_UNSUPPORTED if the pair has no kernel, or (GPU) if more than
 * CA_REDUCE_GPU_DIMS kept or reduced dims remain after merging: the caller then
 * copies the input with the reduced axes moved last and plans again. */
int ca_reduce_plan(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype);
/* Run a planned reduction on `stream` (no synchronisation). */
int ca_reduce(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
              ca_stream_t stream);

/* Inclusive scans (cumsum: CA_RED_SUM, cumprod: CA_RED_PROD) along one axis. */
typedef struct {
    /* Filled by the caller. Strides in bytes. */
    int nbatch;                          /* the other dims */
    int64_t batch_shape[CA_MAX_DIMS];
    int64_t batch_in[CA_MAX_DIMS];
    int64_t batch_out[CA_MAX_DIMS];
    int64_t len;                         /* length of the scanned axis */
    int64_t in_stride, out_stride;
    const char *in;
    char *out;                           /* may equal `in` with the same strides */
    /* Filled by ca_scan_plan. */
    int64_t nrows;
    int strategy;
    int64_t chunks, chunk_len;
    size_t workspace_bytes;
    void *workspace;                     /* as ca_reduce_desc's */
} ca_scan_desc;

/* 1 if a scan kernel exists: every dtype to its NumPy sum type (as SUM above). */
int ca_scan_supported(int op, int in_dtype, int out_dtype);
int ca_scan_plan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype);
int ca_scan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype,
            ca_stream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CA_KERNELS_H */

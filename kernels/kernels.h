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

/* (copy family, kernels/layout.c) True if every element index and every operand's
 * byte offset (negative too) fits in int32, so kernels may index in 32 bits. */
int ca_strided_fits_int32(const ca_strided *s);
/* Lowest and highest byte offset of an element start of operand `op`, relative to
 * s->data[op] (add the itemsize to hi for the end); *hi < *lo when s is empty. */
void ca_strided_extent(const ca_strided *s, int op, int64_t *lo, int64_t *hi);

/* ---- copy, cast, fill (kernels/copy.cu, kernels/host_copy.c) ------------------ */
/* dst[i] = (dst_dtype) src[i] over s (operand 0 = dst, operand 1 = src). Every
 * dtype pair, with NumPy's cast results (float->int truncates toward zero,
 * complex->real drops the imaginary part, nonzero->bool is true). */
int ca_copy_cast(int device, ca_strided *s, int dst_dtype, int src_dtype, ca_stream_t stream);
/* Copy family notes: s needs nops >= 2 (operands past 1 are ignored) and is
 * coalesced in place (its contents are unspecified afterwards). dst and src must
 * not overlap unless they are exactly the same view (then same-size copies are
 * no-ops); callers copy through a temporary otherwise, as NumPy buffers. */

/* Fill operand 0 of s with the value at `value` (one element of `dtype`, host memory). */
int ca_fill(int device, ca_strided *s, int dtype, const void *value, ca_stream_t stream);


/* linalg/random (linalg helper) */
/* ---- random numbers (kernels/random.cu, host_random.c, dispatch_random.c) -----
 * Counter-based Philox4x32-10: a call fills out[0:n] (contiguous) from Philox
 * blocks offset, offset+1, ... of the stream of `seed` and consumes
 * ca_random_blocks(...) of them; the caller adds that to its offset. The cpu
 * and GPU paths compute the same words (kernels/random_impl.h says which
 * samples are bit-identical). */
enum { CA_RANDOM_UNIFORM = 0, CA_RANDOM_NORMAL = 1, CA_RANDOM_INTEGERS = 2 };
/* Blocks consumed by n samples of distribution `dist` in `dtype` (for integers:
 * range_m1 = high - low - 1 decides, dtype is ignored). */
uint64_t ca_random_blocks(int dist, int dtype, uint64_t range_m1, int64_t n);
/* out = low + scale * U[0, 1); dtype CA_FLOAT32 or CA_FLOAT64 (float32 in float
 * arithmetic). */
int ca_random_uniform(int device, void *out, int64_t n, int dtype, uint64_t seed,
                      uint64_t offset, double low, double scale, ca_stream_t stream);
/* out = loc + scale * N(0, 1) (Box-Muller); dtype CA_FLOAT32 or CA_FLOAT64. */
int ca_random_normal(int device, void *out, int64_t n, int dtype, uint64_t seed,
                     uint64_t offset, double loc, double scale, ca_stream_t stream);
/* out = low + r, r uniform in [0, range_m1] without bias (Lemire), computed
 * modulo 2^64 and stored in the low `itemsize` bytes (1, 2, 4, 8). */
int ca_random_integers(int device, void *out, int64_t n, int itemsize, uint64_t seed,
                       uint64_t offset, uint64_t low, uint64_t range_m1,
                       ca_stream_t stream);

/* ---- matrix products (kernels/host_matmul.c, matmul_int.cu) ----------------------
 * ca_gemm_host: a host stand-in for cuBLAS's strided-batched gemm with the same
 * conventions (column-major; op 0 = N, 1 = T, 2 = C; strides and leading
 * dimensions in elements; alpha = 1, beta = 0), for the inexact dtypes. It lets
 * the cuBLAS call plan be tested on machines without a GPU. */
int ca_gemm_host(int dtype, int opa, int opb, int64_t m, int64_t n, int64_t k,
                 const void *a, int64_t lda, int64_t stride_a, const void *b, int64_t ldb,
                 int64_t stride_b, void *c, int64_t ldc, int64_t stride_c, int64_t batch);
/* C[p, i, j] = sum_l A[p, i, l] * B[p, l, j] for bool (or of ands) and the
 * integer dtypes (wrapping, as NumPy), any byte strides (row-major indices:
 * batch, row, column). k == 0 gives zeros. */
int ca_matmul_int(int device, int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                  const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                  const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn,
                  void *c, int64_t c_sb, int64_t c_sm, int64_t c_sn, ca_stream_t stream);
/* end linalg/random */

#ifdef __cplusplus
}
#endif
#endif /* CA_KERNELS_H */

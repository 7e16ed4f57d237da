/*
 * launch.h: the launch layer (launch.c for kernels and the CUDA runtime,
 * launch_blas.c for cuBLAS, launch_fft.c for cuFFT, launch_solver.c for
 * cuSOLVER). It is the only code in
 * csrc/ that enqueues GPU work, waits for it, records or waits on events, or
 * copies memory, and the only code that calls the CUDA runtime or an NVIDIA
 * library, apart from the pools' upstreams (pool_upstream.c) and the status
 * texts of errors.c. Nothing else in csrc/ includes cuda_compat.h;
 * tests/test_source_lint.py checks both rules.
 *
 * Two kinds of call:
 *  - ca_run_*: checked. It flushes deferred element-wise work first (fusion.c:
 *    deferred kernels must reach the stream before anything issued after them),
 *    makes the call, and turns a failed status into the exception that names the
 *    call's own source text (CA_LAUNCH_CHECK). 0, or -1 with an exception. Needs
 *    the GIL; the ones that wait release it while they wait.
 *  - ca_rt_*: raw. No flush, no exception, no Python: the CUDA status (0 is
 *    success; a failure's sticky "last error" is cleared). For code that runs
 *    without the GIL (staged transfers, the readback spin) or must not re-enter
 *    Python; a caller that enqueues with them calls ca_launch_flush() first.
 * Queries and object lifetimes (device count, stream/event create and destroy,
 * pointer attributes) order nothing and do not flush.
 */
#ifndef CA_LAUNCH_H
#define CA_LAUNCH_H

#include "cuarray.h"

typedef struct CUevent_st *ca_event_t;

/* CUDA's special stream handles, as cuda_runtime_api.h defines them. */
#define CA_STREAM_LEGACY     ((ca_stream_t)0x1)
#define CA_STREAM_PER_THREAD ((ca_stream_t)0x2)

/* The CUDA statuses csrc/ names (launch.c checks them against the runtime's). */
#define CA_CUDA_ERROR_INVALID_VALUE     1
#define CA_CUDA_ERROR_MEMORY_ALLOCATION 2
#define CA_CUDA_ERROR_NO_DEVICE         100
#define CA_CUDA_ERROR_INVALID_DEVICE    101

/* Deferred work reaches the stream (and ca_work_epoch moves) before any call
 * that does not flush by itself enqueues. */
static inline void
ca_launch_flush(void)
{
    ca_fusion_flush();
}

/* CPU-device kernels over at least this many elements run without the GIL. */
#define CA_HOST_NOGIL_MIN ((int64_t)1 << 16)

/* ---- kernels.h launchers, checked ------------------------------------------------ */
/* A wrapper that takes its launcher's arguments is declared with the launcher's
 * type, `__typeof__(ca_x) ca_run_x`: kernels.h says what the arguments are, and a
 * wrapper cannot drift from its launcher (launch.c's definition must match). */
__typeof__(ca_copy_cast) ca_run_copy_cast;
__typeof__(ca_copy_pieces) ca_run_copy_pieces;
__typeof__(ca_fill) ca_run_fill;
/* `what` names the operation in messages (the ufunc or reduction's name);
 * `work` (elements) decides whether a cpu-device call releases the GIL. */
int ca_run_elementwise(int device, int loop, ca_strided *s,
                       const ca_scalar_arg *scalars, unsigned scalar_mask,
                       ca_stream_t stream, int64_t work, const char *what);
int ca_run_reduce(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
                  ca_stream_t stream, int64_t work, const char *what);
int ca_run_scan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype,
                ca_stream_t stream, int64_t work, const char *what);
__typeof__(ca_random_uniform) ca_run_random_uniform;
__typeof__(ca_random_normal) ca_run_random_normal;
__typeof__(ca_random_integers) ca_run_random_integers;
__typeof__(ca_random_dist) ca_run_random_dist;
/* Another generator's words in buf rewritten in place as uniforms in [0, 1). */
__typeof__(ca_random_u01_words) ca_run_random_u01_words;
/* ---- cuRAND (launch_rand.c): generators of raw words ---- */
typedef struct ca_curand_gen ca_curand_gen;
/* wide: 64-bit words; quasi: a quasi-random kind. -1 with ValueError for an
 * unknown kind. */
int ca_curand_kind_info(const char *kind, int *wide, int *quasi);
/* A generator of `kind` on `device` (current; CA_CPU: cuRAND's host generator),
 * seeded (pseudo kinds) and advanced by `offset` words. */
int ca_run_curand_create(const char *kind, int device, uint64_t seed, uint64_t offset,
                         ca_curand_gen **out);
/* out[0:n] = the next n words (64-bit when wide), on `stream` for a GPU. */
int ca_run_curand_generate(ca_curand_gen *g, void *out, int64_t n, int wide,
                           ca_stream_t stream);
/* out[0:n] (contiguous CA_FLOAT32 or CA_FLOAT64; n a multiple of 4 or of 2) =
 * uniforms in [0, 1) from the next n (float32) or 2n (float64) words (32-bit
 * kinds), generated into out and transformed there in place, as
 * ca_random_dist's CA_RD_UNIFORM does from a word buffer. On a GPU, with
 * 0 < chunk < n (a multiple of 4), cuRAND fills chunk samples' words at a time
 * on `stream` while a side stream transforms the previous chunk; `stream`
 * then waits for the side stream. */
int ca_run_curand_uniform(ca_curand_gen *g, void *out, int64_t n, int dtype,
                          int64_t chunk, ca_stream_t stream);
/* Never raises (for deallocators). */
void ca_curand_destroy(ca_curand_gen *g);
/* Where cuRAND was loaded from, NULL when it is not loaded. */
const char *ca_rand_library_path(void);
__typeof__(ca_matmul_tiled) ca_run_matmul_tiled;
__typeof__(ca_index_take) ca_run_index_take;
__typeof__(ca_index_put) ca_run_index_put;
__typeof__(ca_index_offsets) ca_run_index_offsets;
__typeof__(ca_mask_count) ca_run_mask_count;
__typeof__(ca_mask_offsets) ca_run_mask_offsets;
__typeof__(ca_mask_compress) ca_run_mask_compress;
__typeof__(ca_masked_fill) ca_run_masked_fill;
__typeof__(ca_tri_copy) ca_run_tri_copy;
__typeof__(ca_unravel_index) ca_run_unravel_index;
int ca_run_readback(int device, void *slot_dev_ptr, const void *src, int itemsize,
                    uint64_t seq, ca_stream_t stream);
/* sort (sort helper): the cpu device's calls release the GIL when big. */
__typeof__(ca_sort) ca_run_sort;
/* scipy.ndimage (kernels.h's ca_ndi_*; the cpu device's big calls release the GIL) */
__typeof__(ca_ndi_filter) ca_run_ndi_filter;
__typeof__(ca_ndi_spline) ca_run_ndi_spline;
__typeof__(ca_ndi_map) ca_run_ndi_map;
__typeof__(ca_ndi_label) ca_run_ndi_label;
__typeof__(ca_ndi_edt) ca_run_ndi_edt;
/* random permutations (ca_perm_sort; the cpu device's big calls release the GIL) */
__typeof__(ca_perm_sort) ca_run_perm_sort;
__typeof__(ca_searchsorted) ca_run_searchsorted;
__typeof__(ca_bincount) ca_run_bincount;
/* end sort */
/* ufunc.at's scatter (csrc/ops/ufunc.c); the cpu device's releases the GIL when big. */
__typeof__(ca_ufunc_at) ca_run_ufunc_at;
__typeof__(ca_ufunc_at_check) ca_run_ufunc_at_check;
/* The radix select of order statistics (csrc/ops/sort.c's _select). */
__typeof__(ca_select) ca_run_select;

/* The deferred programs' own launches (fusion.c, which is the flush): raw. */
int ca_rt_elementwise(int device, int loop, ca_strided *s, const ca_scalar_arg *scalars,
                      unsigned scalar_mask, ca_stream_t stream);
int ca_rt_fused_elementwise(int device, int family, const ca_fuse_params *p,
                            ca_stream_t stream);
/* ca_fused_sum (kernels.h): CA_KERR_UNSUPPORTED, with nothing launched, when the
 * plan is not one it reproduces. */
int ca_rt_fused_sum(int device, int family, const ca_fuse_params *p,
                    const ca_reduce_desc *d, ca_stream_t stream);

/* ---- copies and waits, checked --------------------------------------------------- */
/* cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream). */
int ca_run_memcpy_async(void *dst, const void *src, size_t n, ca_stream_t stream);
/* The same, then wait for `stream` (the GIL released for both). */
int ca_run_memcpy_wait(void *dst, const void *src, size_t n, ca_stream_t stream);
int ca_run_memset_async(void *dst, int value, size_t n, ca_stream_t stream);
/* Waits release the GIL. */
int ca_run_stream_sync(ca_stream_t stream);
int ca_run_device_sync(void);
int ca_run_event_sync(ca_event_t e);
int ca_run_event_record(ca_event_t e, ca_stream_t stream);
int ca_run_stream_wait_event(ca_stream_t stream, ca_event_t e);
/* Make `consumer` wait for the work queued so far on `producer` (a temporary
 * event, recorded and waited on). */
int ca_run_stream_wait_stream(ca_stream_t consumer, ca_stream_t producer);
/* 1 when the work is done, 0 when not yet, -1 with an exception. */
int ca_run_event_query(ca_event_t e);
int ca_run_stream_query(ca_stream_t stream);

/* ---- copies and waits, raw (no GIL needed; flush first) -------------------------- */
int ca_rt_memcpy_async(void *dst, const void *src, size_t n, ca_stream_t stream);
int ca_rt_stream_sync(ca_stream_t stream);
int ca_rt_event_record(ca_event_t e, ca_stream_t stream);
int ca_rt_event_sync(ca_event_t e);

/* ---- streams and events ---------------------------------------------------------- */
enum { CA_STREAM_NON_BLOCKING = 1 };
enum {
    CA_EVENT_BLOCKING_SYNC = 1,
    CA_EVENT_DISABLE_TIMING = 2,
    CA_EVENT_INTERPROCESS = 4
};
int ca_run_stream_create(ca_stream_t *s, unsigned flags);
/* For deallocators: never raises (reports through ca_cuda_warn_unraisable). */
void ca_stream_destroy_quiet(ca_stream_t s);
int ca_run_event_create(ca_event_t *e, unsigned flags);
int ca_rt_event_create(ca_event_t *e, unsigned flags);
int ca_rt_event_destroy(ca_event_t e);
void ca_event_destroy_quiet(ca_event_t e);
int ca_run_event_elapsed(float *ms, ca_event_t start, ca_event_t end);

/* ---- devices --------------------------------------------------------------------- */
/* Raw: the CUDA device count (*n = 0 and a status when there is none). */
int ca_rt_device_count(int *n);
int ca_rt_get_device(int *device);
int ca_rt_set_device(int device);
int ca_run_set_device(int device);
typedef struct {
    char name[256];
    size_t total_memory;
    int major, minor;
    int multiprocessors;
} ca_device_props;
int ca_run_device_props(int device, ca_device_props *p);
int ca_run_mem_get_info(size_t *free_bytes, size_t *total_bytes);
/* Versions as CUDA encodes them (1000 * major + 10 * minor); 0 when unknown. */
int ca_runtime_version(void);
int ca_driver_version(void);
/* The CUDA runtime version cuarray was built against (0: host-only build). */
int ca_runtime_build_version(void);

/* ---- host memory and pointers ---------------------------------------------------- */
enum {
    CA_PTR_UNREGISTERED = 0,
    CA_PTR_HOST = 1,
    CA_PTR_DEVICE = 2,
    CA_PTR_MANAGED = 3
};
typedef struct {
    int type; /* CA_PTR_* */
    int device;
    void *device_ptr;
    void *host_ptr;
} ca_pointer_info;
/* Raw: what CUDA knows of `p` (CA_PTR_UNREGISTERED for plain host memory). */
int ca_rt_pointer_info(const void *p, ca_pointer_info *info);
enum {
    CA_HOST_REGISTER_PORTABLE = 1,
    CA_HOST_REGISTER_MAPPED = 2,
    CA_HOST_REGISTER_READ_ONLY = 8
};
/* Raw, and they release nothing: callers drop the GIL around the slow ones. */
int ca_rt_host_register(void *p, size_t n, unsigned flags);
int ca_rt_host_unregister(void *p);
int ca_rt_host_device_pointer(void **device_ptr, void *host_ptr);
/* Mapped, portable page-locked memory (or portable only, mapped = 0), and its
 * release. */
int ca_rt_host_alloc(void **p, size_t n, int mapped);
int ca_rt_host_free(void *p);

/* ---- cuBLAS (launch_blas.c) ------------------------------------------------------ */
/* One column-major gemm, C = op(X) op(Y) (alpha 1, beta 0), strided-batched when
 * count > 1: ops 0 = N, 1 = T, 2 = C; leading dimensions and strides in
 * elements. float16 accumulates in float32; tf32 lets float32 use TF32. On the
 * device's handle, set to `stream`, with its workspace from the pool. */
int ca_run_gemm(int device, ca_stream_t stream, int dtype, int opx, int opy, int64_t m,
                int64_t n, int64_t k, const void *x, int64_t ldx, int64_t sx,
                const void *y, int64_t ldy, int64_t sy, void *c, int64_t ldc,
                int64_t sc, int64_t count, int tf32);

/* Load cuBLAS now (0, or -1 with ImportError naming the places searched). */
int ca_blas_load(void);
/* Where cuBLAS was loaded from; NULL when not loaded (never loads). */
const char *ca_blas_path(void);
/* The device's cuBLAS handle (a cublasHandle_t), pointed at `stream` with its
 * workspace: for launch_solver.c's batched LU. NULL with an exception. */
void *ca_blas_handle(int device, ca_stream_t stream);

/* ---- cuSPARSE (launch_sparse.c) ------------------------------------------------ */
/* y = op(A) x for the CSR matrix A (rows x cols, nnz stored; indptr and indices
 * of index_dtype CA_INT32 or CA_INT64; values, x and y of dtype CA_FLOAT32,
 * CA_FLOAT64, CA_COMPLEX64 or CA_COMPLEX128): op 0 = A, 1 = A^T, 2 = A^H; k = 0
 * for vectors, else x and y are C-ordered with k columns. alpha 1, beta 0. */
typedef struct {
    int op, dtype, index_dtype;
    int64_t rows, cols, nnz, k;
    const void *indptr, *indices, *values, *x;
    void *y;
} ca_spmm_args;
int ca_run_sparse_spmm(int device, ca_stream_t stream, const ca_spmm_args *a);

/* C = A B of CSR matrices (m x k, k x n; one index dtype, one value dtype as
 * ca_spmm_args). c_ptr holds m + 1 indices; once C's nnz is known, alloc(ctx,
 * nnz, &ind, &val) gives its index and value buffers (0, or -1 with an
 * exception). */
typedef struct {
    int dtype, index_dtype;
    int64_t m, k, n, a_nnz, b_nnz;
    const void *a_ptr, *a_ind, *a_val, *b_ptr, *b_ind, *b_val;
    void *c_ptr;
    int (*alloc)(void *ctx, int64_t nnz, void **ind, void **val);
    void *ctx;
} ca_spgemm_args;
int ca_run_sparse_spgemm(int device, ca_stream_t stream, const ca_spgemm_args *a);
/* Where cuSPARSE was loaded from; NULL when not loaded (never loads). */
const char *ca_sparse_lib_path(void);

/* ---- cuSOLVER and cuBLAS's batched LU (launch_solver.c) --------------------------- */
enum {
    CA_SOLVER_GETRF = 0,          /* LU, int64 pivots (64-bit API), per matrix */
    CA_SOLVER_GETRS = 1,          /* solve with getrf's LU: B <- op(A)^-1 B */
    CA_SOLVER_POTRF = 2,          /* Cholesky, per matrix */
    CA_SOLVER_GEQRF = 3,          /* QR: reflectors in A, tau in w */
    CA_SOLVER_ORGQR = 4,          /* Q (m x n) from k reflectors and tau (w) */
    CA_SOLVER_SYEVD = 5,          /* Hermitian eigenproblem, per matrix */
    CA_SOLVER_SYEV_BATCHED = 6,   /* the same, one call for the stack */
    CA_SOLVER_GESVD = 7,          /* SVD (m >= n): S in w, U in b, VT in c */
    CA_SOLVER_GEEV = 8,           /* eigenvalues in w, right eigenvectors in b */
    CA_SOLVER_POTRF_BATCHED = 9,  /* Cholesky, one call for the stack */
    CA_SOLVER_GETRF_BATCHED = 10, /* cuBLAS: LU, int32 pivots */
    CA_SOLVER_GETRI_BATCHED = 11, /* cuBLAS: inverse into b from getrf's LU */
    CA_SOLVER_GETRS_BATCHED = 12, /* cuBLAS: solve with getrf's LU */
    CA_SOLVER_GESVDJ = 13,        /* Jacobi SVD (any m, n): S in w, U in b, V in c */
};
/* One cuSOLVER (or batched cuBLAS) operation over a stack of `batch`
 * column-major matrices. Leading dimensions and batch strides in elements of
 * each array's own type (w: the real type for SYEVD/GESVD(J), a's type for GEQRF
 * and GEEV; ipiv: int64 for GETRF/GETRS, int32 for the batched LU); the
 * batched routines and SYEV_BATCHED take contiguous stacks. info: `batch`
 * ints, LAPACK's (0 success, > 0 singular / not positive definite / not
 * converged), written on the stream. */
typedef struct {
    int op;    /* CA_SOLVER_* */
    int dtype; /* of a: CA_FLOAT32, CA_FLOAT64, CA_COMPLEX64, CA_COMPLEX128 */
    int64_t m, n,
        k; /* rows, columns; k: right-hand sides (GETRS), reflectors (ORGQR) */
    int64_t batch;
    void *a;
    int64_t lda, sa;
    void *b; /* GETRS: B; GETRI: the inverse; GESVD(J): U; GEEV: VR (may be NULL) */
    int64_t ldb, sb;
    void *c; /* GESVD: VT; GESVDJ: V, not V^H (may be NULL) */
    int64_t ldc, sc;
    void *w; /* GEQRF/ORGQR: tau; SYEVD: eigenvalues; GESVD: S; GEEV: W */
    int64_t sw;
    void *ipiv;
    int64_t sipiv;
    int *info;
    int lower;        /* POTRF/SYEVD: the triangle read (else the upper) */
    int trans;        /* GETRS: 0 N, 1 T, 2 C */
    int vectors;      /* SYEVD/GEEV: eigenvectors too */
    char jobu, jobvt; /* GESVD: 'A', 'S' or 'N'; GESVDJ: jobu ('S': econ) */
} ca_solver_args;
/* On the device's cuSOLVER handle, pointed at `stream`; work areas from the
 * pool. 0, or -1 with an exception (CUSOLVERError / CUBLASError naming the
 * call). GPU only: the cpu device's are ca_run_solver_host's. */
int ca_run_solver(int device, ca_stream_t stream, const ca_solver_args *s);
/* The same operations on the cpu device, in the host LAPACK NumPy loaded
 * (solver_host.c, host_lapack.h), synchronously, the GIL released. 0, or -1 with
 * an exception (RuntimeError when no such LAPACK is loaded). */
int ca_run_solver_host(const ca_solver_args *s);
/* Where cuSOLVER was loaded from; NULL when not loaded (never loads). */
const char *ca_solver_lib_path(void);

/* ---- cuFFT (launch_fft.c) -------------------------------------------------------- */
enum { CA_FFT_C2C = 0, CA_FFT_R2C = 1, CA_FFT_C2R = 2 };
#define CA_FFT_MAX_RANK 3
/* One cuFFT transform in cufftMakePlanMany64's terms: element (b, x0, .., x[r-1])
 * of the input lies at b*idist + ((x0*inembed[1] + x1)*inembed[2] + x2)*istride
 * elements from `in`, the output likewise. n[] are the logical lengths (the real
 * side's for R2C / C2R, whose complex side is n[r-1]/2+1 long in the last
 * dimension). `loop` transforms more at in + i*loop_in, out + i*loop_out bytes
 * (batch dimensions cuFFT's single batch stride cannot express). */
typedef struct {
    int kind; /* CA_FFT_* */
    int dbl;  /* double precision (Z2Z, D2Z, Z2D) */
    int rank; /* 1..CA_FFT_MAX_RANK */
    long long n[CA_FFT_MAX_RANK];
    long long inembed[CA_FFT_MAX_RANK], onembed[CA_FFT_MAX_RANK];
    long long istride, idist, ostride, odist, batch;
    long long loop, loop_in, loop_out;
} ca_fft_layout;
/* Run the transform with the device's cached plan for the layout (made on a
 * miss), pointed at `stream`, its work area from our pool. direction -1 forward,
 * +1 inverse (C2C; R2C is forward, C2R inverse); unnormalised, as cuFFT. in ==
 * out is in place (C2C, identical layouts). C2R overwrites `in`. The cpu device
 * comes here only through the fft emulation test switch: NumPy stands in for
 * cuFFT over the same layout (and C2R scribbles NaN over its input, as cuFFT
 * may overwrite it). */
int ca_run_fft(int device, ca_stream_t stream, const ca_fft_layout *l, int direction,
               void *in, void *out);
/* The plan cache of `device` (CA_CPU: the emulation's). Limits: size (plans),
 * memsize (bytes of work areas; -1 none); 0 plans disables caching. Setting
 * them evicts at once (least recently used first). -1 with an exception. */
int ca_fft_cache_set_limits(int device, Py_ssize_t size, long long memsize);
/* (size, memsize, count, memsize in use, [(type, rank, n, batch, istride, idist,
 * ostride, odist, work area bytes), ...] most recent first). */
PyObject *ca_fft_cache_info(int device);
void ca_fft_cache_clear(int device);
/* Where cuFFT was loaded from; NULL when not loaded (never loads). */
const char *ca_fft_lib_path(void);

/* ---- the runtime calls of cuarray.cuda.runtime (launch_runtime.c) ----------------- */
/* Raw allocations outside the pools (runtime.malloc & co.; GIL released). */
int ca_run_malloc(void **p, size_t n);
int ca_run_free(void *p);
int ca_run_malloc_managed(void **p, size_t n, unsigned flags);
/* cudaMallocAsync / cudaFreeAsync on `stream` (stream-ordered allocator). */
int ca_run_malloc_async(void **p, size_t n, ca_stream_t stream);
int ca_run_free_async(void *p, ca_stream_t stream);
/* cudaMemcpyAsync with an explicit cudaMemcpyKind (0..4), then, when `wait`, a
 * wait for `stream` (the GIL released). */
int ca_run_memcpy_kind(void *dst, const void *src, size_t n, int kind,
                       ca_stream_t stream, int wait);
/* cudaMemsetAsync, then a wait for `stream` when `wait`. */
int ca_run_memset(void *dst, int value, size_t n, ca_stream_t stream, int wait);
/* cudaGetDeviceProperties as a dict of CuPy's keys (new reference, or NULL). */
PyObject *ca_device_props_dict(int device);
/* cudaDeviceGetAttribute(attr, device). */
int ca_run_device_attribute(int *value, int attr, int device);
/* cudaProfilerStart / cudaProfilerStop. */
int ca_run_profiler(int start);
/* NVTX ranges and marks (nvtx3 is header-only: it reaches a profiler's injection
 * library, named by NVTX_INJECTION64_PATH, on the first call, and costs nothing
 * when none is attached). argb: the colour, or -1 for none. */
int ca_nvtx_range_push(const char *message, long long argb);
int ca_nvtx_range_pop(void);
void ca_nvtx_mark(const char *message, long long argb);
/* The cuBLAS handle of `device` (made on first use), pointed at `stream`
 * (launch_blas.c). */
int ca_run_blas_handle(int device, ca_stream_t stream, void **handle);

/* ---- user kernels: NVRTC and loaded code (launch_nvrtc.c) ------------------------ */
typedef struct {
    int ok;      /* compiled; else `log` says why */
    char *image; /* the cubin or PTX (PTX NUL-terminated); malloc'ed */
    size_t image_size;
    char *log; /* NVRTC's log (NUL-terminated); malloc'ed */
    int nlowered;
    char **lowered; /* the lowered names of the name expressions; malloc'ed */
} ca_nvrtc_result;
/* NVRTC's version (loading NVRTC): 0, or -1 with ImportError. */
int ca_nvrtc_version(int *major, int *minor);
/* Compile `src` with NVRTC (the GIL released while it compiles): a cubin when
 * `cubin`, else PTX. 0 with r filled (r->ok 0 when the source does not
 * compile), -1 with an exception when NVRTC cannot be loaded or fails. */
int ca_nvrtc_compile(const char *src, const char *name, int nopts,
                     const char *const *opts, int nexprs, const char *const *exprs,
                     int cubin, ca_nvrtc_result *r);
void ca_nvrtc_result_free(ca_nvrtc_result *r);
/* cudaLibraryLoadData of a cubin, fatbin or PTX image (context-independent). */
int ca_run_library_load(void **lib, const void *image);
int ca_run_library_get_kernel(void **kernel, void *lib, const char *name);
/* A __device__ variable of a loaded library: its address and size. */
int ca_run_library_get_global(void **ptr, size_t *size, void *lib, const char *name);
/* cudaLibraryUnload, never raising (deallocators). */
void ca_library_unload_quiet(void *lib);

/* CUDA graphs (launch_graph.c): stream capture (mode: cudaStreamCaptureMode; both
 * ends flush deferred work, the beginning waits for the stream), *capturing 1 active / 2 invalidated / 0 none, the
 * executable graph's upload and launch, and destruction for a deallocator. */
int ca_run_stream_begin_capture(ca_stream_t stream, int mode);
int ca_run_stream_end_capture(ca_stream_t stream, void **graph);
int ca_run_stream_is_capturing(ca_stream_t stream, int *capturing);
int ca_run_graph_instantiate(void **exec, void *graph);
int ca_run_graph_upload(void *exec, ca_stream_t stream);
int ca_run_graph_launch(void *exec, ca_stream_t stream);
void ca_graph_destroy_quiet(void *graph, void *exec);
/* After an error on a thread capturing `stream`: when CUDA invalidated the
 * capture (or it is over), end it and discard its graph, never raising (the
 * caller's exception stays set). 1: the capture is over now; 0: it is active. */
int ca_capture_end_if_invalidated_quiet(ca_stream_t stream);
/* Flush deferred work, then cudaLaunchKernel(kernel, grid, block, args, shmem,
 * stream) on the current device. */
int ca_run_launch_kernel(void *kernel, const unsigned *grid, const unsigned *block,
                         void **args, size_t shmem, ca_stream_t stream);
/* cudaFuncGetAttributes of a kernel handle: (max threads per block, registers,
 * static shared bytes, local bytes, const bytes, ptx version, binary version). */
int ca_run_kernel_attributes(void *kernel, int out[7]);
int ca_run_kernel_set_max_dynamic_shared(void *kernel, int bytes);

/* ---- checking -------------------------------------------------------------------- */
/* 0 for status 0; else the exception for `status` naming `call` (the call's text),
 * and -1. */
int ca_launch_status(int status, const char *call);
/* Run `call` (a CUDA or kernels.h call returning a status) and check it: 0 or -1
 * with the exception naming the call. For launch*.c. */
#define CA_LAUNCH_CHECK(call) ca_launch_status((int)(call), #call)

#endif /* CA_LAUNCH_H */

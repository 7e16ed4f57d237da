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

#define CA_CPU          (-1) /* device ordinal of the host */
#define CA_MAX_DIMS     32   /* most dimensions an array may have */
#define CA_MAX_OPERANDS 4 /* most operands (inputs + outputs) of one strided kernel */

/* Status codes of the host path and of checks done before a launch.
 * Chosen far above every cudaError_t value. */
#define CA_KERR_UNSUPPORTED 100001 /* no loop for this dtype/op combination */
#define CA_KERR_NO_CUDA     100002 /* built without CUDA, asked for a GPU */
#define CA_KERR_INDEX       100003 /* an index out of range (gather/scatter) */
#define CA_KERR_NOMEM       100004 /* host scratch allocation failed */

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
    /* ml_dtypes' types (issue 39), after NumPy's so NumPy's codes keep their
     * places: their descriptors exist once ml_dtypes is imported (dtype.c). */
    CA_BFLOAT16,
    CA_FLOAT8_E4M3FN,
    CA_FLOAT8_E5M2,
    CA_NTYPES
} ca_dtype;
/* The first ml_dtypes code: tables that NumPy alone fills stop here. */
#define CA_NNUMPY_TYPES CA_BFLOAT16

/* Bytes per element of each ca_dtype (kernels/shared/dtypes.c). */
extern const int ca_dtype_size[CA_NTYPES];
/* Short names, "bool", "int8", ..., "complex128" (kernels/shared/dtypes.c). */
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
 * stride. Returns the total element count. (kernels/shared/layout.c) */
int64_t ca_strided_coalesce(ca_strided *s);

/* True if every operand of s (after coalescing) is one dense run in memory with
 * its element size as the stride. */
int ca_strided_is_contiguous(const ca_strided *s, const int *itemsizes);

/* (copy family, kernels/shared/layout.c) True if every element index and every operand's
 * byte offset (negative too) fits in int32, so kernels may index in 32 bits. */
int ca_strided_fits_int32(const ca_strided *s);
/* Lowest and highest byte offset of an element start of operand `op`, relative to
 * s->data[op] (add the itemsize to hi for the end); *hi < *lo when s is empty. */
void ca_strided_extent(const ca_strided *s, int op, int64_t *lo, int64_t *hi);

/* ---- copy, cast, fill (kernels/gpu/copy.cu, kernels/host/host_copy.c) ------------------ */
/* dst[i] = (dst_dtype) src[i] over s (operand 0 = dst, operand 1 = src). Every
 * dtype pair, with NumPy's cast results (float->int truncates toward zero,
 * complex->real drops the imaginary part, nonzero->bool is true). */
int ca_copy_cast(int device, ca_strided *s, int dst_dtype, int src_dtype,
                 ca_stream_t stream);
/* Copy family notes: s needs nops >= 2 (operands past 1 are ignored) and is
 * coalesced in place (its contents are unspecified afterwards). dst and src must
 * not overlap unless they are exactly the same view (then same-size copies are
 * no-ops); callers copy through a temporary otherwise, as NumPy buffers. */

/* Several plain copies in one launch (concatenate's pieces): piece i copies `rows`
 * rows of `row_bytes` bytes from src (rows src_pitch apart) to dst (rows dst_pitch
 * apart). Pieces must not overlap each other's destinations or any source.
 * (kernels/gpu/copy_pieces.cu, kernels/dispatch/dispatch_copy.c) */
#define CA_COPY_MAX_PIECES 8
typedef struct {
    char *dst;
    const char *src;
    int64_t rows, row_bytes, dst_pitch, src_pitch;
} ca_copy_piece;
int ca_copy_pieces(int device, const ca_copy_piece *p, int npieces, ca_stream_t stream);

/* Fill operand 0 of s with the value at `value` (one element of `dtype`, host memory). */
int ca_fill(int device, ca_strided *s, int dtype, const void *value,
            ca_stream_t stream);

/* ---- reductions ------------------------------------------------------ */
/* The reductions of csrc/ops/reduction.c (kernels/gpu/reduce.cu, kernels/host/host_reduce.c,
 * kernels/dispatch/dispatch_reduce.c). A reduction maps every element of the input to one
 * output element: dimensions are either kept (they index the output) or reduced.
 * The caller fills a ca_reduce_desc in C order of the array's axes; the plan
 * merges, reorders and drops dimensions itself.
 *
 * `op` is a kernel op of kernels/reductions.def: CA_RED_SUM, CA_RED_MAX, ...
 * (build/generated/red_table.h, generated by tools/gen_reductions.py), which
 * also lists the (op, input dtype, output dtype) triples that have kernels. */
#define CA_RED_SQRT 1 /* flags: square root of the final value (std) */
#define CA_REDUCE_GPU_DIMS                                                             \
    8 /* GPU plans take at most this many merged dims of each kind */

typedef struct {
    /* Filled by the caller. Strides in bytes. */
    int nkeep; /* kept dims (the output's, keepdims aside) */
    int nred;  /* reduced dims */
    int64_t keep_shape[CA_MAX_DIMS];
    int64_t keep_in[CA_MAX_DIMS];  /* input strides of the kept dims */
    int64_t keep_out[CA_MAX_DIMS]; /* output strides */
    int64_t keep_aux[CA_MAX_DIMS]; /* aux strides (ops with an aux pass) */
    int64_t red_shape[CA_MAX_DIMS];
    int64_t red_in[CA_MAX_DIMS]; /* input strides of the reduced dims */
    const char *in;
    char *out;
    const char *aux; /* ops with an aux pass: its result, see below */
    double divisor;  /* inexact results are divided by it; 1 = none */
    int flags;       /* CA_RED_SQRT */
    /* Filled by ca_reduce_plan. */
    int64_t nout;       /* output elements (0: nothing to launch) */
    int64_t nred_elems; /* elements reduced into each output */
    int strategy, group, splits;
    int64_t chunk;
    size_t workspace_bytes; /* device scratch the launch needs, 0 if none */
    /* Set by the caller before ca_reduce when workspace_bytes > 0: device memory,
     * stream-ordered on the launch's stream, at least 16-byte aligned. */
    void *workspace;
    /* Optional (NULL: none), GPU only: a "mirror" of a one-element result in
     * mapped pinned memory (csrc/array/readback.c). The kernel that writes the final
     * value also writes it to `mirror` (16-byte aligned), then, after a system
     * fence, mirror_seq to *mirror_flag, so float(a.sum()) can read the value
     * without another launch. ca_reduce sets mirror to NULL when the plan's
     * kernels do not write it (only one output through the row kernels do). */
    char *mirror;
    unsigned long long *mirror_flag;
    unsigned long long mirror_seq;
    /* Optional (NULL: none), GPU only: CA_REDUCE_TICKETS 32-bit counters in device
     * memory, all 0, that no kernel on another stream uses at the same time (csrc
     * keeps one set per (device, stream): ca_memory_tickets). With them a split row
     * reduction is one launch: each block writes its partial and takes a ticket
     * from its output's counter; the block that takes the last one combines the
     * partials in a fixed order, writes the result and puts the counter back to 0.
     * ca_reduce_plan sets it to NULL; the caller sets it after the plan. */
    unsigned int *tickets;
} ca_reduce_desc;
#define CA_REDUCE_TICKETS 4096

/* 1 if a kernel exists for op with this input and output dtype (the `pairs` of
 * op's row in kernels/reductions.def). */
int ca_reduce_supported(int op, int in_dtype, int out_dtype);
/* The op whose result a first pass must write into `aux` for op (SQDEV: SUM, the
 * mean), or -1 when op reads no aux operand. */
int ca_reduce_aux_op(int op);
/* The aux dtype op reads for this input (the mean of SQDEV: complex128 for
 * complex inputs, float32 for float16, float64 otherwise), -1 for none. */
int ca_reduce_aux_dtype(int op, int in_dtype);
/* Merge dims and choose the kernels; sets nout, nred_elems and workspace_bytes.
 * CA_KERR_UNSUPPORTED if the pair has no kernel, or (GPU) if more than
 * CA_REDUCE_GPU_DIMS kept or reduced dims remain after merging: the caller then
 * copies the input with the reduced axes moved last and plans again. */
int ca_reduce_plan(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype);
/* Run a planned reduction on `stream` (no synchronisation). */
int ca_reduce(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
              ca_stream_t stream);

/* Inclusive scans (cumsum: CA_RED_SUM, cumprod: CA_RED_PROD, the `scans` of
 * kernels/reductions.def) along one axis. */
typedef struct {
    /* Filled by the caller. Strides in bytes. */
    int nbatch; /* the other dims */
    int64_t batch_shape[CA_MAX_DIMS];
    int64_t batch_in[CA_MAX_DIMS];
    int64_t batch_out[CA_MAX_DIMS];
    int64_t len; /* length of the scanned axis */
    int64_t in_stride, out_stride;
    const char *in;
    char *out; /* may equal `in` with the same strides */
    /* Filled by ca_scan_plan. */
    int64_t nrows;
    int strategy;
    int64_t chunks, chunk_len;
    size_t workspace_bytes;
    void *workspace; /* as ca_reduce_desc's */
} ca_scan_desc;

/* 1 if a scan kernel exists for the pair. */
int ca_scan_supported(int op, int in_dtype, int out_dtype);
int ca_scan_plan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype);
int ca_scan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype,
            ca_stream_t stream);


/* ---- random numbers (kernels/gpu/random.cu, host_random.c, dispatch_random.c) -----
 * Counter-based Philox4x32-10: a call fills out[0:n] (contiguous) from Philox
 * blocks offset, offset+1, ... of the stream of `seed` and consumes
 * ca_random_blocks(...) of them; the caller adds that to its offset. The cpu
 * and GPU paths compute the same words (kernels/shared/random_impl.h says which
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

/* buf[0:n] (contiguous) holds another bit generator's 32-bit words, one per
 * float32 sample or two per float64 sample (n % 4 == 0, resp. n % 2 == 0);
 * rewrite them in place as uniforms in [0, 1), the same numbers as
 * CA_RD_UNIFORM's transform of those words (random_impl.h's ca_u01_f32 /
 * ca_u01_f64). On a GPU it takes at most half of each SM's threads, so that a
 * generator kernel on another stream keeps room beside it (csrc/runtime/launch_rand.c
 * overlaps the two). (kernels/gpu/random_words.cu, dispatch_random.c) */
int ca_random_u01_words(int device, void *buf, int64_t n, int dtype,
                        ca_stream_t stream);

/* ---- random permutations (kernels/gpu/perm.cu, host_perm.c, perm_impl.h) ----------
 * perm[0:n] (int64): the positions 0..n-1 of the uint32 keys k[0:n] in the order
 * of a stable sort, every run of equal keys then reordered by the uint32 words
 * w[slot] (w indexed by the slot in that sorted order; n words): one radix sort of
 * (key, position) over key bits [shift, 32) (0 <= shift <= 24: fewer passes) and
 * a placement pass that orders each segment of equal high bits by the full key.
 * *flag (int32; device memory on a GPU) = 0, or 1 when a segment is longer than
 * CA_PERM_SEG_MAX or two equal keys have equal w: perm is then not valid and the
 * caller computes the same definition another way. k and w are not modified;
 * 2 <= n <= INT32_MAX. Two phases as ca_sort (temp == NULL: only *temp_bytes). */
int ca_perm_sort(int device, const uint32_t *k, const uint32_t *w, int64_t n, int shift,
                 int64_t *perm, int32_t *flag, void *temp, size_t *temp_bytes,
                 ca_stream_t stream);

/* ---- random distributions (kernels/gpu/random_dist.cu, host_random_dist.c) --------
 * ca_random_dist fills out[0:n] (contiguous) with samples of distribution `op`
 * with up to three parameters, each a scalar or n contiguous doubles (already
 * broadcast). Transforms (op < CA_RD_NTRANSFORM) consume blocks as uniform()
 * does; stream ops one block (plus in-kernel redraws) per sample:
 * ca_random_dist_blocks says how many. dtype: CA_FLOAT32 / CA_FLOAT64 for the
 * continuous ops, CA_INT64 for the discrete ones (geometric and from
 * CA_RD_POISSON on), whose -1 marks parameters outside the domain. `words`:
 * NULL for Philox, else 4 words per block from another bit generator
 * (random_dist.h). */
enum {
    /* transforms */
    CA_RD_UNIFORM = 0, /* a + b U[0, 1) */
    CA_RD_NORMAL,      /* a + b N(0, 1) */
    CA_RD_LOGNORMAL,   /* exp(a + b N(0, 1)) */
    CA_RD_EXPONENTIAL, /* scale a */
    CA_RD_GUMBEL,      /* loc a, scale b */
    CA_RD_LAPLACE,     /* loc a, scale b */
    CA_RD_LOGISTIC,    /* loc a, scale b */
    CA_RD_PARETO,      /* a */
    CA_RD_POWER,       /* a */
    CA_RD_RAYLEIGH,    /* scale a */
    CA_RD_WEIBULL,     /* a */
    CA_RD_CAUCHY,      /* standard */
    CA_RD_TRIANGULAR,  /* left a, mode b, right c */
    CA_RD_GEOMETRIC,   /* p a; int64 */
    CA_RD_NTRANSFORM,
    /* stream ops, continuous */
    CA_RD_GAMMA = CA_RD_NTRANSFORM, /* shape a, scale b */
    CA_RD_BETA,                     /* a, b */
    CA_RD_CHISQUARE,                /* df a */
    CA_RD_F,                        /* dfnum a, dfden b */
    CA_RD_STANDARD_T,               /* df a */
    CA_RD_NONCENTRAL_CHISQUARE,     /* df a, nonc b */
    CA_RD_NONCENTRAL_F,             /* dfnum a, dfden b, nonc c */
    CA_RD_VONMISES,                 /* mu a, kappa b */
    CA_RD_WALD,                     /* mean a, scale b */
    /* stream ops, discrete (int64) */
    CA_RD_POISSON,           /* lam a */
    CA_RD_BINOMIAL,          /* n a, p b */
    CA_RD_NEGATIVE_BINOMIAL, /* n a, p b */
    CA_RD_HYPERGEOMETRIC,    /* ngood a, nbad b, nsample c */
    CA_RD_LOGSERIES,         /* p a */
    CA_RD_ZIPF,              /* a */
    CA_RD_COUNT
};
typedef struct {
    const double *p[3]; /* NULL: the parameter is the scalar v[k] */
    double v[3];
} ca_rd_params;
/* 1 for the ops with int64 samples. */
int ca_random_dist_discrete(int op);
uint64_t ca_random_dist_blocks(int op, int dtype, int64_t n);
int ca_random_dist(int device, int op, void *out, int64_t n, int dtype, uint64_t seed,
                   uint64_t offset, const ca_rd_params *prm, const uint32_t *words,
                   ca_stream_t stream);

/* ---- matrix products (kernels/host/host_matmul.c, matmul_int.cu) ----------------------
 * ca_gemm_host: a host stand-in for cuBLAS's strided-batched gemm with the same
 * conventions (column-major; op 0 = N, 1 = T, 2 = C; strides and leading
 * dimensions in elements; alpha = 1, beta = 0), for the inexact dtypes. It lets
 * the cuBLAS call plan be tested on machines without a GPU. */
int ca_gemm_host(int dtype, int opa, int opb, int64_t m, int64_t n, int64_t k,
                 const void *a, int64_t lda, int64_t stride_a, const void *b,
                 int64_t ldb, int64_t stride_b, void *c, int64_t ldc, int64_t stride_c,
                 int64_t batch);
/* C[p, i, j] = sum_l A[p, i, l] * B[p, l, j] in one launch for bool (or of
 * ands), the integer dtypes (wrapping, as NumPy), float32 and float64 (fused
 * multiply-adds in the element's precision), any byte strides (row-major
 * indices: batch, row, column). k == 0 gives zeros. */
int ca_matmul_tiled(int device, int dtype, int64_t batch, int64_t m, int64_t n,
                    int64_t k, const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                    const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn, void *c,
                    int64_t c_sb, int64_t c_sm, int64_t c_sn, ca_stream_t stream);
/* ---- element-wise --------------------------------------------------- */
/* The op table lives in kernels/ops.def; tools/gen_ops.py generates ca_ew_ops[],
 * ca_ew_loops[] and the kernels (build/generated/ew_table.h has the CA_OP_<name>
 * ids). A loop is one type signature of one op, e.g. add ff->f. */

/* One input passed by value instead of by pointer: a Python or NumPy scalar,
 * already converted to the loop's input type (its storage bytes, host order). */
typedef union {
    int64_t i;
    uint64_t u;
    double d;
    float f;
    double c[2];
    unsigned char bytes[16];
} ca_scalar_arg;

enum {
    CA_EWF_RAW = 1,       /* loop works on storage types (where) */
    CA_EWF_NOBOOL = 2,    /* all-bool inputs are a TypeError (bool - bool) */
    CA_EWF_INTDOUBLE = 4, /* all-integer inputs use the dd->d loop (true division) */
    CA_EWF_POWCHECK = 8,  /* integer loops: a negative exponent is a ValueError */
    CA_EWF_CMP = 16,      /* comparison: out-of-range Python ints compare exactly */
    CA_EWF_CLAMPINT = 32, /* clip: out-of-range Python int bounds clamp */
    CA_EWF_F16 = 64,      /* float16 loops call the helpers' _f16 forms */
    CA_EWF_SLOW = 128,    /* host loop of ~8 ns or more an element: threads sooner */
    CA_EWF_EXACT = 256,   /* a loop of exactly the operands' types comes first */
};

typedef struct {
    const char *name; /* the row's name: cuarray._core's (NumPy's, or _special_erf) */
    const char *qualname; /* where users find it: "add", "scipy.special.erf" */
    uint8_t nin, nout;
    uint16_t flags;      /* CA_EWF_* */
    uint16_t first_loop; /* its loops are ca_ew_loops[first_loop .. + nloops) */
    uint16_t nloops;     /* in NumPy's search order */
} ca_ew_op;

typedef struct {
    uint16_t op; /* index into ca_ew_ops */
    uint8_t vec; /* elements per thread of the contiguous GPU kernel */
    int8_t types[CA_MAX_OPERANDS]; /* ca_dtype of inputs, then outputs; -1 unused */
} ca_ew_loop;

extern const ca_ew_op ca_ew_ops[];
extern const ca_ew_loop ca_ew_loops[];

/* Run loop `loop` over s on `device`: operand 0 is the output, operands 1..nin
 * the inputs, all with the loop's dtypes. Input i is instead the value
 * scalars[i] when bit i of scalar_mask is set (its s->data and strides are then
 * ignored). s is coalesced in place. The output may be exactly the same view as
 * an input; any other overlap is the caller's to avoid. Operands must be aligned
 * to their element type (ca_ew_aligned). Returns 0, a cudaError_t, or CA_KERR_*. */
int ca_elementwise(int device, int loop, ca_strided *s, const ca_scalar_arg *scalars,
                   unsigned scalar_mask, ca_stream_t stream);

/* 1 if `ptr` and every stride of s's operand `op` suit an element of `dtype`
 * (the GPU kernels load whole elements). */
int ca_ew_aligned(const ca_strided *s, int op, int dtype);

/* 1 if any element of operand `op` of s (on the host) is negative; for the
 * integer power check on the cpu device. s is not modified. */
int ca_ew_host_any_negative(const ca_strided *s, int op, int dtype);

/* The cpu device's thread pool (kernels/host/host_threads.c): host reductions and
 * element-wise loops of 2^23+ elements (host_threads.h) split their work into
 * tasks by size alone, so results are the same bit for bit for any count.
 * The count: CUARRAY_HOST_THREADS, else the online CPUs (at most 8);
 * ca_host_threads_set(n) changes it (n <= 0: that default again) and returns
 * the new count. */
int ca_host_threads(void);
int ca_host_threads_set(int n);

/* fused element-wise programs (kernels/gpu/ew_fuse.cuh, dispatch_fuse.c) ------------ */
/* A chain of element-wise loops evaluated in one pass (csrc/ops/fusion.c builds them
 * from deferred operations): every operand is a dense, same-shape run of n
 * elements, so one thread takes a few consecutive elements through the whole
 * chain in registers and memory is read and written once. A family fixes the
 * value types a program may hold: CA_FUSE_F32 (float32 and bool) or CA_FUSE_F64
 * (float64 and bool); ca_ew_fuse_slot (build/generated/ew_table.h) gives the
 * program slot of each loop that fits a family, -1 for the others.
 *
 * Registers: 0..nleaf-1 hold the leaves (input arrays), CA_FUSE_MAXLEAF + k the
 * result of instruction k; an operand code with CA_FUSE_CONST set names
 * consts[code & 0x7f] instead. The result is the last instruction's register. */
#define CA_FUSE_MAXLEAF  8 /* ((a * b + c) * d - e) needs 5 */
#define CA_FUSE_MAXCONST 4
#define CA_FUSE_MAXINSTR 8
#define CA_FUSE_CONST    0x80
enum { CA_FUSE_F32 = 0, CA_FUSE_F64 = 1, CA_FUSE_NFAM = 2 };

typedef struct {
    int16_t slot;   /* the family's slot of the loop */
    uint8_t src[3]; /* operand codes of its inputs */
} ca_fuse_instr;

typedef struct {
    char *out;                         /* n elements of out_type, aligned */
    const char *leaf[CA_FUSE_MAXLEAF]; /* n elements each, aligned */
    int32_t out_type;                  /* CA_BOOL or the family's float */
    int32_t leaf_type[CA_FUSE_MAXLEAF];
    int32_t nleaf, ninstr;
    uint64_t
        consts[CA_FUSE_MAXCONST]; /* register words (float32 bits in the low half) */
    ca_fuse_instr ins[CA_FUSE_MAXINSTR];
    uint32_t n; /* 1 .. 2^31 - 1 */
} ca_fuse_params;

/* Elements per thread of each family's kernel: a leaf or the output pointer
 * must be aligned to this many elements of its type. */
#define CA_FUSE_VEC_F32 4
#define CA_FUSE_VEC_F64 2

/* Run program p of `family` on the GPU `device` (current) on `stream`. The cpu
 * device has no fused path (CA_KERR_UNSUPPORTED): nothing is deferred there. */
int ca_fused_elementwise(int device, int family, const ca_fuse_params *p,
                         ca_stream_t stream);

/* The sum (or, with d's divisor, the mean) of program p's result over all p->n
 * elements, in one launch, into d->out (and d's mirror): the reduction of a
 * deferred array whose values are never stored (p->out unused). `d` is the plan
 * ca_reduce_plan made for CA_RED_SUM of that result as a contiguous row of the
 * family's float to itself; the fused kernel adds in exactly that plan's order,
 * so the value is the plain sum's bit for bit. CA_KERR_UNSUPPORTED (nothing
 * launched) unless the plan is one split of one output over at most
 * CA_FUSE_SUM_MAXGROUP lanes (rows up to 2048 elements) on a GPU. */
#define CA_FUSE_SUM_MAXGROUP 128
int ca_fused_sum(int device, int family, const ca_fuse_params *p,
                 const ca_reduce_desc *d, ca_stream_t stream);

/* ---- indexing ---------------------------------------------------- */
/* One gather (take) or scatter (put) pass of advanced indexing (kernels/gpu/index.cu,
 * kernels/host/host_index.c). The pass runs over `shape` (the indexing result). For a
 * result position r (a multi-index; "r . s" is the dot product with strides s):
 *   o    = idx ? idx[r . istrides] : 0      (one int64 index; NULL reads as 0)
 *   o    = wrap(o) * scale                  (extent >= 0: negatives wrap, range checked)
 *   elem = data + r . strides + o           (the indexed array; strides are 0 on
 *                                            the dimensions the index spans)
 *   take: vals[r . vstrides] = *elem;  put: *elem = vals[r . vstrides]
 * With extent < 0 the index values are byte offsets already, used unchecked (then
 * `scale` only bounds their alignment: the launcher picks element widths by it).
 * With vals == NULL, put writes `value` (itemsize bytes) everywhere.
 * Index values outside [-extent, extent) are skipped (take writes zeros in their
 * place) and reported through `flag` (two int64 in device memory, zeroed by the
 * caller): flag[0] = axis + 1 and flag[1] = the value, first reporter wins. */
typedef struct {
    int ndim;
    int axis; /* reported in flag[0] (as axis + 1) */
    int64_t shape[CA_MAX_DIMS];
    char *data; /* the indexed array */
    int64_t strides[CA_MAX_DIMS];
    char *vals; /* the dense side: result (take) or values (put) */
    int64_t vstrides[CA_MAX_DIMS];
    const int64_t *idx;
    int64_t istrides[CA_MAX_DIMS];
    int64_t extent;          /* size of the indexed axis; < 0: idx are byte offsets */
    int64_t scale;           /* byte stride of the indexed axis */
    unsigned char value[16]; /* put with vals == NULL: the value to write */
} ca_index_pass;

int ca_index_take(int device, const ca_index_pass *p, int itemsize, int64_t *flag,
                  ca_stream_t stream);
int ca_index_put(int device, const ca_index_pass *p, int itemsize, int64_t *flag,
                 ca_stream_t stream);
/* Byte offsets of one index over p's shape: out = (int64 *)p->vals (strides
 * vstrides) gets wrap(idx) * scale, or adds it when `accumulate`. Out-of-range
 * values count as 0 and are reported in flag. vals == NULL only checks. `data`
 * and `strides` are unused. */
int ca_index_offsets(int device, const ca_index_pass *p, int accumulate, int64_t *flag,
                     ca_stream_t stream);

/* Boolean masks (contiguous, C order, n bytes; nonzero is true). Counting needs
 * ca_mask_scratch_size(n) int64 of scratch (device memory on a GPU); after
 * ca_mask_count, scratch[0] holds the number of true elements, and
 * ca_mask_offsets writes, for each true element in C order, the byte offset
 * sum_d coord_d * strides[d] of its position in (ndim, shape) to out. */
int64_t ca_mask_scratch_size(int device, int64_t n);
int ca_mask_count(int device, const uint8_t *mask, int64_t n, int64_t *scratch,
                  ca_stream_t stream);
int ca_mask_offsets(int device, const uint8_t *mask, int64_t n, const int64_t *scratch,
                    int ndim, const int64_t *shape, const int64_t *strides,
                    int64_t *out, ca_stream_t stream);
/* The cpu device's a[mask] for a C-contiguous a whose leading dims the
 * contiguous mask covers: for each true byte i of mask[0, n), in order, the
 * `block` bytes at src + i * block go to the next block of dst; `count` is the
 * number of true bytes (ca_mask_count's). Host memory only: any other device
 * is CA_KERR_UNSUPPORTED (it takes ca_mask_offsets and a gather). */
int ca_mask_compress(int device, const char *src, const uint8_t *mask, int64_t n,
                     int64_t block, int64_t count, char *dst);
/* Where operand 1 of s (bool bytes) is true, set operand 0 (itemsize bytes) to
 * `value`. */
int ca_masked_fill(int device, ca_strided *s, int itemsize, const void *value,
                   ca_stream_t stream);
/* tril/triu: operand 0 (the output) = operand 1 where the element's (row, col),
 * its coordinates along the last two dimensions of s (ndim >= 2, not coalesced),
 * keeps col - row <= k (lower) or col - row >= k (upper); zero bytes elsewhere.
 * Elements of `itemsize` bytes (1..16); 64-bit indexing. */
int ca_tri_copy(int device, const ca_strided *s, int itemsize, int64_t k, int lower,
                ca_stream_t stream);

/* ---- nonzero ------------------------------------------------------- */
/* Coordinates of C-order flat indices (kernels/gpu/nonzero.cu, kernels/host/host_nonzero.c):
 * for i < n, the int64 at out + i * out_row + d * out_dim (byte strides) gets
 * coordinate d of flat[i] in an array of shape (ndim >= 1, shape). Every flat[i]
 * must lie in [0, prod(shape)). flat may be out's column ndim - 1 (flat + i is
 * out + i * out_row + (ndim - 1) * out_dim): each row reads its flat value before
 * writing; any other overlap is not allowed. */
int ca_unravel_index(int device, const int64_t *flat, int64_t n, int ndim,
                     const int64_t *shape, char *out, int64_t out_row, int64_t out_dim,
                     ca_stream_t stream);
/* ---- sort -------------------------------------------------------------- */
/* Sorting, searching and counting (kernels/gpu/sort.cu, sort_cub_*.cu, sort_seg_*.cu
 * for the GPU over CUB; kernels/host/host_sort.c; kernels/dispatch_sort.c; the key
 * maps shared by both are in kernels/shared/sort_keys.h). The order is NumPy's: NaNs
 * last, -0.0 equal to +0.0, complex numbers by (real, imag) with NumPy's NaN
 * classes last (R+Rj < R+nanj < nan+Rj < nan+nanj), bool false first.
 * CA_SORT_DESCENDING reverses it exactly (NaNs first); equal keys keep their
 * input order either way. CA_SORT_KEY_BITS(b) (b in 1..127) in flags promises
 * that all keys agree above their low b bits (the caller knows the range, e.g.
 * integers in [min, max]): a one-row GPU sort then makes fewer radix passes. */
#define CA_SORT_DESCENDING  1
#define CA_SORT_KEY_BITS(b) ((int)(b) << 8)

/* Sort each of `nseg` rows of `n` elements of `dtype` (contiguous, row r at
 * in + r * n * itemsize). `out` (may be `in`) gets the sorted values, `idx`
 * (int64) the input position within the row of each, stably; either may be
 * NULL, not both. Sorted values are the input's except that every NaN becomes
 * the quiet NaN and a complex -0.0 part becomes +0.0 (a real -0.0 is kept and
 * sorts before +0.0 there, a valid order since they are equal).
 * Two phases, as CUB: with temp == NULL only *temp_bytes is set (0 when there
 * is nothing to sort); then call again with `temp` of at least that many bytes
 * (device memory on a GPU, stream-ordered on `stream`; host memory on the cpu;
 * 256-byte aligned). */
int ca_sort(int device, int dtype, const void *in, int64_t nseg, int64_t n, void *out,
            int64_t *idx, int flags, void *temp, size_t *temp_bytes,
            ca_stream_t stream);

/* The cpu device's merge of the two sorted halves of a split sort (host memory,
 * contiguous; python/cuarray/_sort_threads.py): the stable merge of keys[0, h)
 * and keys[h, n) of `dtype`, each sorted in the order above, ties from the left
 * run first. Exactly one of out_keys (the merged keys, bits as they were) and
 * out_idx (idx's entries in that order; idx: n int64) is not NULL. Runs on the
 * host threads; the result does not depend on their count. */
int ca_host_merge(int dtype, const void *keys, int64_t n, int64_t h, const int64_t *idx,
                  void *out_keys, int64_t *out_idx);

/* out[i] = the insertion point of v[i] in a[0:n] (sorted in the order above, or
 * a[sorter[0:n]] when sorter is not NULL: int64, every entry in [0, n)): the
 * first position whose element is >= v[i] (right = 0) or > v[i] (right = 1).
 * a, v: contiguous, both of `dtype`; out: nv int64. temp: the scratch of
 * ca_searchsorted_temp_bytes (NULL when that is 0; search_plan.h says what a
 * GPU keeps there). */
int ca_searchsorted(int device, int dtype, const void *a, int64_t n,
                    const int64_t *sorter, const void *v, int64_t nv, int right,
                    int64_t *out, void *temp, ca_stream_t stream);
int64_t ca_searchsorted_temp_bytes(int device, int dtype, int64_t n, int has_sorter,
                                   int64_t nv);

/* out[b] = the count (int64) or the sum of w (float64; w not NULL) of the x[i]
 * (contiguous, xdtype CA_INT32 or CA_INT64) equal to b, for b in [0, nbins);
 * values outside are skipped. The launcher zeroes out itself. */
int ca_bincount(int device, int xdtype, const void *x, int64_t n, const double *w,
                int64_t nbins, void *out, ca_stream_t stream);
/* ---- ufunc.at (kernels/gpu/ufunc_at.cu, kernels/host/host_ufunc_at.c) ---------- */
/* The ops the unbuffered scatter applies itself (csrc/ops/ufunc.c maps ufuncs here). */
enum {
    CA_AT_ADD = 0,
    CA_AT_SUBTRACT,
    CA_AT_MULTIPLY,
    CA_AT_MAXIMUM,
    CA_AT_MINIMUM,
    CA_AT_FMAX,
    CA_AT_FMIN,
    CA_AT_AND,
    CA_AT_OR,
    CA_AT_XOR,
    CA_AT_LAND,
    CA_AT_LOR,
    CA_AT_NOPS
};
/* Whether ca_ufunc_at has the pair (the same answer on every device). */
int ca_at_supported(int code, int dtype);
/* For i < n: target[q] = op(target[q], values[i]) with q = pos[i], plus `extent`
 * where pos[i] < 0 (NumPy's negative indices into a 1-D target of that size;
 * pass 0 for positions that are never negative), repeats included (one after the
 * other on the host, atomically on a GPU: the order of the updates of one element
 * is then unspecified). target, values: `dtype`, contiguous, element-aligned.
 * flag NULL: every q is in range (the caller checked). Else each position is
 * checked as it is applied: one outside [-extent, extent) is skipped and
 * reported as ca_ufunc_at_check reports it, and the others are applied (the
 * caller saved the target, to put it back); a flag already nonzero when the
 * scatter starts (a check pass queued before it found one) stops it before any
 * update. */
int ca_ufunc_at(int device, int code, int dtype, void *target, const int64_t *pos,
                int64_t extent, const void *values, int64_t n, int64_t *flag,
                ca_stream_t stream);
/* The range check on its own, when the positions are a user's indices: for every
 * i < n outside [-extent, extent), flag[0] = 1 and flag[1] = pos[i] (one offender
 * wins). flag: two int64 the caller zeroed, in device memory on a GPU. */
int ca_ufunc_at_check(int device, const int64_t *pos, int64_t n, int64_t extent,
                      int64_t *flag, ca_stream_t stream);
/* ---- order statistics (kernels/gpu/select.cu, kernels/dispatch/dispatch_select.c) ------ */
/* The elements at ranks ks[0..nk) (nk <= CA_SELECT_MAX_RANKS, each in [0, n)) of
 * x[0:n] (contiguous, a real dtype: not complex) in NumPy's sort order (NaNs
 * last), into out[0..nk) (x's dtype, device memory), without a sort: a radix
 * select over the sort keys (11-bit digits), all on `stream`. flags:
 * CA_SELECT_NAN_POISON makes every element of out NaN when x holds a NaN (a
 * float dtype; NumPy's median), found in the first pass, not by a pass of its
 * own. scratch: CA_SELECT_SCRATCH_BYTES of device memory, any contents. GPU only
 * (the cpu device's median is NumPy's): CA_KERR_UNSUPPORTED elsewhere and for
 * bad arguments. */
#define CA_SELECT_MAX_RANKS     2
#define CA_SELECT_SCRATCH_BYTES 33024
#define CA_SELECT_NAN_POISON    1
int ca_select(int device, int dtype, const void *x, int64_t n, const int64_t *ks,
              int nk, int flags, void *out, void *scratch, ca_stream_t stream);
/* ---- readback (kernels/gpu/readback.cu) ---------------------------------- */
/* One element into a mapped pinned slot the host polls (csrc/array/readback.c). A slot
 * is CA_READBACK_SLOT_BYTES, 16-byte aligned: the value in its first
 * CA_READBACK_VALUE_BYTES, a uint64 sequence number at CA_READBACK_SEQ_OFFSET. */
#define CA_READBACK_SLOT_BYTES  32
#define CA_READBACK_VALUE_BYTES 16
#define CA_READBACK_SEQ_OFFSET  16
/* Queue on `stream` (of the current device): copy the `itemsize` bytes (a power
 * of two, 1..16; `src` at any alignment) at device address `src` into the slot
 * at device address `slot_dev_ptr`, then, visible to the host after the value,
 * store `seq` into the slot's sequence word. GPU only (no cpu-device path), so
 * it exists in CUDA builds only: callers guard it with #if CA_HAVE_CUDA. */
int ca_readback_launch(int device, void *slot_dev_ptr, const void *src, int itemsize,
                       uint64_t seq, ca_stream_t stream);

/* ---- linalg (kernels/gpu/linalg.cu) -------------------------------------- */
/* out[i] = (char *)base + i * stride_bytes for i in [0, n): the device array of
 * matrix addresses the batched cuBLAS / cuSOLVER routines take. GPU only, like
 * the readback launcher (callers guard it with #if CA_HAVE_CUDA). */
int ca_linalg_ptr_array(int device, void **out, void *base, int64_t stride_bytes,
                        int64_t n, ca_stream_t stream);


/* ---- scipy.ndimage (kernels/gpu/ndimage.cu, host_ndimage.c, dispatch_ndimage.c,
 * shared/ndimage_impl.h) ----------------------------------------------------------
 * Every array is C-contiguous float64 (int64 for labels and indices), as SciPy
 * computes ndimage in double; cuarray.scipy.ndimage casts in and out. Small
 * tables (offsets, weights, matrices) are arrays on the device too. */
enum { /* boundary modes: SciPy's codes (_ni_support._extend_mode_to_code) */
       CA_NDI_NEAREST = 0,
       CA_NDI_WRAP = 1,
       CA_NDI_REFLECT = 2,
       CA_NDI_MIRROR = 3,
       CA_NDI_CONSTANT = 4,
       CA_NDI_GRID_WRAP = 5,
       CA_NDI_GRID_CONSTANT = 6
};
enum {                       /* what a filter computes over its footprint */
       CA_NDI_CORRELATE = 0, /* sum of w[k] * x */
       CA_NDI_MIN = 1,       /* min of x - w[k] (w NULL: 0) */
       CA_NDI_MAX = 2,       /* max of x + w[k] (w NULL: 0) */
       CA_NDI_RANK = 3       /* the rank-th smallest x */
};
typedef struct {
    int ndim;
    int64_t shape[CA_MAX_DIMS];
} ca_ndi_shape;
/* A filter over nk taps: tap k reads the point at offset offs[k * ndim + d] in
 * each dimension d (loffs[k]: that offset in elements of the C-ordered array);
 * lo/hi: the least and greatest offset per dimension (points whose taps all lie
 * inside skip the boundary mapping). mode: a filter's mode (no grid-* codes).
 * vtype: the input's ca_dtype, which x -/+ w[k] is converted to before the
 * min/max compares (SciPy keeps that value in the input's type), or -1.
 * line_axis: d when every tap lies along dimension d, the taps' offsets there
 * lo, lo + 1, ..., hi in order (a GPU then tiles lines through shared memory),
 * else -1. */
typedef struct {
    int ndim, op, mode, vtype, line_axis;
    int64_t nk, rank;
    double cval;
    int64_t shape[CA_MAX_DIMS], lo[CA_MAX_DIMS], hi[CA_MAX_DIMS];
} ca_ndi_filter_args;
/* out[i] = the filter at every point of in (a->shape). CA_NDI_RANK sorts
 * window values in scratch: nthreads * nk doubles, nthreads the number of
 * points filtered at once (>= 1; a GPU grid of that many threads). */
int ca_ndi_filter(int device, const ca_ndi_filter_args *a, const double *in,
                  double *out, const int64_t *offs, const int64_t *loffs,
                  const double *w, double *scratch, int64_t nthreads,
                  ca_stream_t stream);
/* B-spline coefficients of `order` (2..5) in place along the middle axis of
 * c viewed as (outer, n, inner), n >= 2, mode's boundary (ndimage_impl.h). */
int ca_ndi_spline(int device, double *c, int64_t outer, int64_t n, int64_t inner,
                  int order, int mode, ca_stream_t stream);
/* Interpolation at nout points (ndim <= CA_NDI_MAP_DIMS: a GPU thread keeps
 * (order + 1) weights and taps per dimension on its stack): coordinates coords[d * nout + i] (d < ndim),
 * or, coords NULL, matrix (ndim x (out_ndim + 1)) applied to the output index
 * (out_shape). */
#define CA_NDI_MAP_DIMS 8
typedef struct {
    int ndim, out_ndim, order, mode;
    int64_t nout;
    double cval;
    int64_t shape[CA_MAX_DIMS], out_shape[CA_MAX_DIMS];
} ca_ndi_map_args;
int ca_ndi_map(int device, const ca_ndi_map_args *a, const double *in,
               const double *coords, const double *matrix, double *out,
               ca_stream_t stream);
/* Connected components of mask (uint8, s's shape): p[i] = the smallest index of
 * i's component, -1 off the mask; neighbours at the nk offsets offs (k * ndim + d),
 * those before the centre in C order of a symmetric structure. */
int ca_ndi_label(int device, const ca_ndi_shape *s, const uint8_t *mask,
                 const int64_t *offs, int64_t nk, int64_t *p, ca_stream_t stream);
/* One exact Euclidean distance pass along the middle axis of f (outer, n,
 * inner), sample spacing h (ndimage_impl.h: ca_ndi_edt_line); arg (int64, the
 * minimising position along the axis) may be NULL. scratch: outer * inner *
 * (3 n + 1) doubles. */
int ca_ndi_edt(int device, double *f, int64_t outer, int64_t n, int64_t inner, double h,
               int64_t *arg, double *scratch, ca_stream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CA_KERNELS_H */

/*
 * launch_blas.c: the launch layer's cuBLAS calls (launch.h). cuBLAS is loaded
 * on first use (dynlib.c). One handle per device, created on first use and kept
 * for the life of the process; it is pointed at the current stream before each
 * call (only when the stream changed: setting a stream resets cuBLAS's
 * workspace), with a workspace from our pool owned per handle and stream.
 * float16 products accumulate in float32.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"
#include "faults.h"

#if CA_HAVE_CUDA
#define CA_BLAS_MAX_DEVICES 64
#define CA_INT_MAX          2147483647LL

typedef struct {
    cublasHandle_t handle;
    int stream_set;      /* `stream` and `ws` are valid for the handle */
    cudaStream_t stream; /* the stream the handle was last pointed at */
    CaMemory *ws;        /* workspace for work queued on `stream` */
    size_t ws_size;
} blas_slot;

static blas_slot blas_slots[CA_BLAS_MAX_DEVICES];

/* The device's handle, pointed at `stream` with a workspace for it. (GIL held:
 * the GIL is what serializes use of a handle.) */
static cublasHandle_t
blas_handle(const ca_cublas_api *api, int device, cudaStream_t stream)
{
    if (ca_library_device_check(device, CA_BLAS_MAX_DEVICES, "cuBLAS", ca_cublas_error,
                                CUBLAS_STATUS_INTERNAL_ERROR) < 0) {
        return NULL;
    }
    blas_slot *s = &blas_slots[device];
    cublasStatus_t st;
    if (s->handle == NULL) {
        cublasHandle_t h = NULL;
        int major = 0;
        cudaError_t ce =
            cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device);
        if (ce != cudaSuccess) {
            ca_cuda_error_int(ce, "cudaDeviceGetAttribute(ComputeCapabilityMajor)");
            return NULL;
        }
        st = api->Create(&h);
        if (st != CUBLAS_STATUS_SUCCESS) {
            ca_cublas_error(st, "cublasCreate");
            return NULL;
        }
        /* Standard arithmetic unless asked per call (TF32 goes by compute
         * type, so the handle's mode never changes). */
        st = api->SetMathMode(h, CUBLAS_DEFAULT_MATH);
        if (st != CUBLAS_STATUS_SUCCESS) {
            ca_cublas_error(st, "cublasSetMathMode");
            return NULL; /* the handle is kept out of the table; it leaks once */
        }
        s->handle = h;
        /* cuBLAS's recommendation: 32 MiB on Hopper and later, 4 MiB before. */
        s->ws_size = (size_t)(major >= 9 ? 32 : 4) << 20;
        s->stream_set = 0;
    }
    if (!s->stream_set || s->stream != stream) {
        CaMemory *ws = NULL;
        s->stream_set = 0;
        st = api->SetStream(s->handle, stream);
        if (st != CUBLAS_STATUS_SUCCESS) {
            ca_cublas_error(st, "cublasSetStream");
            return NULL;
        }
        /* The old workspace may still be in use by work on the old stream:
         * releasing it to the stream-ordered pool is safe, reusing it is not.
         * A fresh one comes from the pool, ordered on the new stream. */
        Py_CLEAR(s->ws);
        ws = ca_hook.memory_alloc(device, CA_MEM_DEVICE, s->ws_size,
                                  (ca_stream_t)stream);
        if (ws == NULL) {
            return NULL;
        }
        st = api->SetWorkspace(s->handle, ws->ptr, s->ws_size);
        if (st != CUBLAS_STATUS_SUCCESS) {
            Py_DECREF(ws);
            ca_cublas_error(st, "cublasSetWorkspace");
            return NULL;
        }
        s->ws = ws;
        s->stream = stream;
        s->stream_set = 1;
    }
    return s->handle;
}


/* One gemm's arguments in cuBLAS's types. */
typedef struct {
    cublasHandle_t h;
    cublasOperation_t ox, oy;
    int M, N, K, ldx, ldy, ldc;
    long long sx, sy, sc;
    int count;
    int tf32;
} gemm_args;

/* float16 or bfloat16 (type t) in and out, float32 accumulation. */
static cublasStatus_t
gemm_half(const ca_cublas_api *api, const gemm_args *g, cudaDataType t, const char *x,
          const char *y, char *c)
{
    const float one = 1.0f, zero = 0.0f;
    if (g->count > 1) {
        return api->GemmStridedBatchedEx(g->h, g->ox, g->oy, g->M, g->N, g->K, &one, x,
                                         t, g->ldx, g->sx, y, t, g->ldy, g->sy, &zero,
                                         c, t, g->ldc, g->sc, g->count,
                                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
    return api->GemmEx(g->h, g->ox, g->oy, g->M, g->N, g->K, &one, x, t, g->ldx, y, t,
                       g->ldy, &zero, c, t, g->ldc, CUBLAS_COMPUTE_32F,
                       CUBLAS_GEMM_DEFAULT);
}

/* cuBLAS's gemm of type letter P (S, D, C, Z) on T, alpha ONE and beta ZERO:
 * the strided-batched call when batched, else the plain one. */
#define GEMM_TYPED(P, T, ONE, ZERO)                                                    \
    do {                                                                               \
        const T one = ONE, zero = ZERO;                                                \
        if (batched) {                                                                 \
            call = "cublas" #P "gemmStridedBatched";                                   \
            st = api->P##gemmStridedBatched(h, ox, oy, M, N, K, &one, (const T *)x,    \
                                            ldx, sx, (const T *)y, ldy, sy, &zero,     \
                                            (T *)c, ldc, sc, count);                   \
        }                                                                              \
        else {                                                                         \
            call = "cublas" #P "gemm";                                                 \
            st = api->P##gemm(h, ox, oy, M, N, K, &one, (const T *)x, ldx,             \
                              (const T *)y, ldy, &zero, (T *)c, ldc);                  \
        }                                                                              \
    } while (0)

/* float16 and bfloat16 (float32 accumulation), float32 (TF32 if asked), float64,
 * complex64 and complex128. */
static cublasStatus_t
gemm_typed(const ca_cublas_api *api, const gemm_args *g, int dtype, const char *x,
           const char *y, char *c, const char **callp)
{
    cublasHandle_t h = g->h;
    cublasOperation_t ox = g->ox, oy = g->oy;
    const int M = g->M, N = g->N, K = g->K, ldx = g->ldx, ldy = g->ldy, ldc = g->ldc;
    const long long sx = g->sx, sy = g->sy, sc = g->sc;
    const int count = g->count, batched = count > 1;
    cublasStatus_t st = CUBLAS_STATUS_NOT_SUPPORTED;
    const char *call = "cublasGemm";
    switch (dtype) {
    case CA_FLOAT16:
        call =
            batched ? "cublasGemmStridedBatchedEx(float16)" : "cublasGemmEx(float16)";
        st = gemm_half(api, g, CUDA_R_16F, x, y, c);
        break;
    case CA_BFLOAT16:
        call =
            batched ? "cublasGemmStridedBatchedEx(bfloat16)" : "cublasGemmEx(bfloat16)";
        st = gemm_half(api, g, CUDA_R_16BF, x, y, c);
        break;
    case CA_FLOAT32:
        if (g->tf32) {
            const float one = 1.0f, zero = 0.0f;
            if (batched) {
                call = "cublasGemmStridedBatchedEx(float32, TF32)";
                st = api->GemmStridedBatchedEx(
                    h, ox, oy, M, N, K, &one, x, CUDA_R_32F, ldx, sx, y, CUDA_R_32F,
                    ldy, sy, &zero, c, CUDA_R_32F, ldc, sc, count,
                    CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
            }
            else {
                call = "cublasGemmEx(float32, TF32)";
                st = api->GemmEx(h, ox, oy, M, N, K, &one, x, CUDA_R_32F, ldx, y,
                                 CUDA_R_32F, ldy, &zero, c, CUDA_R_32F, ldc,
                                 CUBLAS_COMPUTE_32F_FAST_TF32, CUBLAS_GEMM_DEFAULT);
            }
        }
        else {
            GEMM_TYPED(S, float, 1.0f, 0.0f);
        }
        break;
    case CA_FLOAT64: GEMM_TYPED(D, double, 1.0, 0.0); break;
    case CA_COMPLEX64:
        GEMM_TYPED(C, cuComplex, make_cuComplex(1.0f, 0.0f),
                   make_cuComplex(0.0f, 0.0f));
        break;
    case CA_COMPLEX128:
        GEMM_TYPED(Z, cuDoubleComplex, make_cuDoubleComplex(1.0, 0.0),
                   make_cuDoubleComplex(0.0, 0.0));
        break;
    default: break;
    }
    *callp = call;
    return st;
}

/* One strided-batched (count > 1) or plain gemm on the GPU. */
static int
cublas_gemm(const ca_cublas_api *api, const gemm_args *g, int dtype, const char *x,
            const char *y, char *c)
{
    const char *call = "cublasGemm";
    cublasStatus_t st = gemm_typed(api, g, dtype, x, y, c, &call);
    if (st != CUBLAS_STATUS_SUCCESS) {
        return ca_cublas_error((int)st, call);
    }
    return 0;
}

static int
gemm_gpu(int device, ca_stream_t stream, int dtype, int opx, int opy, int64_t m,
         int64_t n, int64_t k, const char *x, int64_t ldx, int64_t sx, const char *y,
         int64_t ldy, int64_t sy, char *c, int64_t ldc, int64_t sc, int64_t count,
         int tf32)
{
    const ca_cublas_api *api = ca_cublas();
    if (api == NULL) {
        return -1;
    }
    /* cuBLAS enqueues behind deferred element-wise work (fusion.c) */
    ca_launch_flush();
    gemm_args g;
    g.h = blas_handle(api, device, (cudaStream_t)stream);
    if (g.h == NULL) {
        return -1;
    }
    const int real = !ca_is_complex(dtype);
    /* op C on real data is op T. */
    g.ox = (cublasOperation_t)(real && opx == 2 ? 1 : opx);
    g.oy = (cublasOperation_t)(real && opy == 2 ? 1 : opy);
    g.M = (int)m, g.N = (int)n, g.K = (int)k;
    g.ldx = (int)ldx, g.ldy = (int)ldy, g.ldc = (int)ldc;
    g.sx = sx, g.sy = sy, g.sc = sc;
    g.tf32 = tf32;
    /* cuBLAS counts batches in an int. */
    while (count > 0) {
        g.count = count > CA_INT_MAX ? (int)CA_INT_MAX : (int)count;
        if (cublas_gemm(api, &g, dtype, x, y, c) < 0) {
            return -1;
        }
        x += (int64_t)g.count * sx * ca_dtype_size[dtype];
        y += (int64_t)g.count * sy * ca_dtype_size[dtype];
        c += (int64_t)g.count * sc * ca_dtype_size[dtype];
        count -= g.count;
    }
    return 0;
}
#endif /* CA_HAVE_CUDA */

int
ca_run_gemm(int device, ca_stream_t stream, int dtype, int opx, int opy, int64_t m,
            int64_t n, int64_t k, const void *x, int64_t ldx, int64_t sx, const void *y,
            int64_t ldy, int64_t sy, void *c, int64_t ldc, int64_t sc, int64_t count,
            int tf32)
{
    CA_COUNT(library_calls);
    if (device == CA_CPU) {
        /* cuBLAS's host stand-in: only linalg's _linalg_emulate test switch
         * sends a cpu-device product here (the cpu device's own products are
         * NumPy's); it checks the call plan without a GPU. */
        return CA_LAUNCH_CHECK(ca_gemm_host(dtype, opx, opy, m, n, k, x, ldx, sx, y,
                                            ldy, sy, c, ldc, sc, count));
    }
#if CA_HAVE_CUDA
    return gemm_gpu(device, stream, dtype, opx, opy, m, n, k, (const char *)x, ldx, sx,
                    (const char *)y, ldy, sy, (char *)c, ldc, sc, count, tf32);
#else
    (void)stream, (void)tf32;
    return ca_launch_status(CA_KERR_NO_CUDA, "cublasGemm");
#endif
}

void *
ca_blas_handle(int device, ca_stream_t stream)
{
#if CA_HAVE_CUDA
    const ca_cublas_api *api = ca_cublas();
    if (api == NULL) {
        return NULL;
    }
    return (void *)blas_handle(api, device, (cudaStream_t)stream);
#else
    (void)device, (void)stream;
    ca_launch_status(CA_KERR_NO_CUDA, "cublasCreate");
    return NULL;
#endif
}

int
ca_blas_load(void)
{
#if CA_HAVE_CUDA
    return ca_cublas() == NULL ? -1 : 0;
#else
    PyErr_SetString(PyExc_ImportError, "cuarray was built without CUDA: no cuBLAS");
    return -1;
#endif
}

const char *
ca_blas_path(void)
{
    return ca_cublas_path();
}

int
ca_run_blas_handle(int device, ca_stream_t stream, void **handle)
{
    *handle = NULL;
    if (device == CA_CPU) {
        PyErr_SetString(PyExc_ValueError,
                        "the cpu device has no cuBLAS handle: make a GPU current");
        return -1;
    }
#if CA_HAVE_CUDA
    const ca_cublas_api *api = ca_cublas();
    if (api == NULL) {
        return -1;
    }
    ca_launch_flush();
    *handle = (void *)blas_handle(api, device, (cudaStream_t)stream);
    return *handle == NULL ? -1 : 0;
#else
    (void)stream;
    return ca_launch_status(CA_KERR_NO_CUDA, "cublasCreate");
#endif
}

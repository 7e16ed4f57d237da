/*
 * dynlib.h: cuBLAS, loaded on first use (csrc/dynlib.c).
 *
 * cuarray does not link cuBLAS: linked, it costs every `import cuarray` about
 * 0.36 s and 217 MB of resident memory, used or not. ca_cublas() dlopen()s it
 * the first time a product needs it and resolves the functions below into a
 * table. The pointer types are written out from the declarations of the
 * toolkit's cublas_api.h, and dynlib.c checks each against the header at
 * compile time, so a mismatch cannot build.
 */
#ifndef CA_DYNLIB_H
#define CA_DYNLIB_H

#include "cuarray.h"

#if CA_HAVE_CUDA
#include <cublas_api.h>

typedef cublasStatus_t (*ca_cublasCreate_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*ca_cublasSetStream_fn)(cublasHandle_t handle, cudaStream_t stream);
typedef cublasStatus_t (*ca_cublasSetWorkspace_fn)(cublasHandle_t handle, void *workspace,
                                                   size_t workspaceSizeInBytes);
typedef cublasStatus_t (*ca_cublasSetMathMode_fn)(cublasHandle_t handle, cublasMath_t mode);
typedef cublasStatus_t (*ca_cublasGetVersion_fn)(cublasHandle_t handle, int *version);

typedef cublasStatus_t (*ca_cublasSgemm_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n, int k,
                                            const float *alpha, const float *A, int lda,
                                            const float *B, int ldb, const float *beta,
                                            float *C, int ldc);
typedef cublasStatus_t (*ca_cublasDgemm_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n, int k,
                                            const double *alpha, const double *A, int lda,
                                            const double *B, int ldb, const double *beta,
                                            double *C, int ldc);
typedef cublasStatus_t (*ca_cublasCgemm_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n, int k,
                                            const cuComplex *alpha, const cuComplex *A,
                                            int lda, const cuComplex *B, int ldb,
                                            const cuComplex *beta, cuComplex *C, int ldc);
typedef cublasStatus_t (*ca_cublasZgemm_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n, int k,
                                            const cuDoubleComplex *alpha,
                                            const cuDoubleComplex *A, int lda,
                                            const cuDoubleComplex *B, int ldb,
                                            const cuDoubleComplex *beta, cuDoubleComplex *C,
                                            int ldc);
typedef cublasStatus_t (*ca_cublasGemmEx_fn)(cublasHandle_t handle, cublasOperation_t transa,
                                             cublasOperation_t transb, int m, int n, int k,
                                             const void *alpha, const void *A,
                                             cudaDataType Atype, int lda, const void *B,
                                             cudaDataType Btype, int ldb, const void *beta,
                                             void *C, cudaDataType Ctype, int ldc,
                                             cublasComputeType_t computeType,
                                             cublasGemmAlgo_t algo);
typedef cublasStatus_t (*ca_cublasSgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const float *alpha, const float *A, int lda, long long int strideA, const float *B,
    int ldb, long long int strideB, const float *beta, float *C, int ldc,
    long long int strideC, int batchCount);
typedef cublasStatus_t (*ca_cublasDgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const double *alpha, const double *A, int lda, long long int strideA,
    const double *B, int ldb, long long int strideB, const double *beta, double *C, int ldc,
    long long int strideC, int batchCount);
typedef cublasStatus_t (*ca_cublasCgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuComplex *alpha, const cuComplex *A, int lda, long long int strideA,
    const cuComplex *B, int ldb, long long int strideB, const cuComplex *beta, cuComplex *C,
    int ldc, long long int strideC, int batchCount);
typedef cublasStatus_t (*ca_cublasZgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    long long int strideA, const cuDoubleComplex *B, int ldb, long long int strideB,
    const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc, long long int strideC,
    int batchCount);
typedef cublasStatus_t (*ca_cublasGemmStridedBatchedEx_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
    int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
    long long int strideA, const void *B, cudaDataType Btype, int ldb, long long int strideB,
    const void *beta, void *C, cudaDataType Ctype, int ldc, long long int strideC,
    int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t algo);

typedef struct {
    ca_cublasCreate_fn Create;
    ca_cublasSetStream_fn SetStream;
    ca_cublasSetWorkspace_fn SetWorkspace;
    ca_cublasSetMathMode_fn SetMathMode;
    ca_cublasGetVersion_fn GetVersion;
    ca_cublasSgemm_fn Sgemm;
    ca_cublasDgemm_fn Dgemm;
    ca_cublasCgemm_fn Cgemm;
    ca_cublasZgemm_fn Zgemm;
    ca_cublasGemmEx_fn GemmEx;
    ca_cublasSgemmStridedBatched_fn SgemmStridedBatched;
    ca_cublasDgemmStridedBatched_fn DgemmStridedBatched;
    ca_cublasCgemmStridedBatched_fn CgemmStridedBatched;
    ca_cublasZgemmStridedBatched_fn ZgemmStridedBatched;
    ca_cublasGemmStridedBatchedEx_fn GemmStridedBatchedEx;
} ca_cublas_api;

/* The cuBLAS table: loads the library on the first call (thread-safe, once).
 * NULL with ImportError naming the library and every place searched. A failed
 * load is remembered: later calls fail the same way at once. */
const ca_cublas_api *ca_cublas(void);
#endif /* CA_HAVE_CUDA */

/* The path cuBLAS was loaded from, or NULL if it is not loaded (never loads;
 * NULL in host-only builds). */
const char *ca_cublas_path(void);

#endif /* CA_DYNLIB_H */

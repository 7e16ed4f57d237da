/*
 * dynlib.h: cuBLAS, cuFFT, cuRAND, cuSOLVER and NVRTC, loaded on first use (csrc/runtime/dynlib.c).
 *
 * cuarray does not link cuBLAS: linked, it costs every `import cuarray` about
 * 0.36 s and 217 MB of resident memory, used or not (cuFFT, 280 MB on disk,
 * likewise). ca_cublas() / ca_cufft() dlopen() the library the first time a
 * product / a transform needs it and resolve the functions below into a table.
 * The pointer types are written out from the declarations of the toolkit's
 * cublas_api.h and cufft.h, and dynlib.c checks each against the header at
 * compile time, so a mismatch cannot build.
 */
#ifndef CA_DYNLIB_H
#define CA_DYNLIB_H

#include "cuarray.h"

#if CA_HAVE_CUDA
#include <cublas_api.h>
#include <cufft.h>
#include <cusolverDn.h>
#include <curand.h>
/* cusparse.h marks its legacy API deprecated; only the generic API is used */
#ifndef DISABLE_CUSPARSE_DEPRECATED
#define DISABLE_CUSPARSE_DEPRECATED
#endif
#include <cusparse.h>
#include <nvrtc.h>

/* Each library's functions are one table, CA_<LIB>_FNS(X, a): a row X(a, pointer
 * type, field, symbol) per function. It makes the table's fields here, and in
 * dynlib.c the check of each pointer type against the toolkit's declaration and
 * the dlsym() list that fills the table (a: the table variable). The typed
 * families (one function per precision) are written out beside them. */
#define CA_DL_FIELD(a, type, field, sym) type field;

typedef cublasStatus_t (*ca_cublasCreate_fn)(cublasHandle_t *handle);
typedef cublasStatus_t (*ca_cublasSetStream_fn)(cublasHandle_t handle,
                                                cudaStream_t stream);
typedef cublasStatus_t (*ca_cublasSetWorkspace_fn)(cublasHandle_t handle,
                                                   void *workspace,
                                                   size_t workspaceSizeInBytes);
typedef cublasStatus_t (*ca_cublasSetMathMode_fn)(cublasHandle_t handle,
                                                  cublasMath_t mode);
typedef cublasStatus_t (*ca_cublasGetVersion_fn)(cublasHandle_t handle, int *version);

/* ?gemm and ?gemmStridedBatched: one declaration per element type T. */
#define CA_GEMM_FN(name, T)                                                            \
    typedef cublasStatus_t (*name)(cublasHandle_t handle, cublasOperation_t transa,    \
                                   cublasOperation_t transb, int m, int n, int k,      \
                                   const T *alpha, const T *A, int lda, const T *B,    \
                                   int ldb, const T *beta, T *C, int ldc)
#define CA_GEMM_STRIDED_FN(name, T)                                                    \
    typedef cublasStatus_t (*name)(                                                    \
        cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,     \
        int m, int n, int k, const T *alpha, const T *A, int lda,                      \
        long long int strideA, const T *B, int ldb, long long int strideB,             \
        const T *beta, T *C, int ldc, long long int strideC, int batchCount)
CA_GEMM_FN(ca_cublasSgemm_fn, float);
CA_GEMM_FN(ca_cublasDgemm_fn, double);
CA_GEMM_FN(ca_cublasCgemm_fn, cuComplex);
CA_GEMM_FN(ca_cublasZgemm_fn, cuDoubleComplex);
typedef cublasStatus_t (*ca_cublasGemmEx_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
    const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
    cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
    cublasGemmAlgo_t algo);
CA_GEMM_STRIDED_FN(ca_cublasSgemmStridedBatched_fn, float);
CA_GEMM_STRIDED_FN(ca_cublasDgemmStridedBatched_fn, double);
CA_GEMM_STRIDED_FN(ca_cublasCgemmStridedBatched_fn, cuComplex);
CA_GEMM_STRIDED_FN(ca_cublasZgemmStridedBatched_fn, cuDoubleComplex);
typedef cublasStatus_t (*ca_cublasGemmStridedBatchedEx_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
    long long int strideA, const void *B, cudaDataType Btype, int ldb,
    long long int strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
    long long int strideC, int batchCount, cublasComputeType_t computeType,
    cublasGemmAlgo_t algo);

/* cuBLAS's functions: pointer type, field of ca_cublas_api, symbol. */
#define CA_CUBLAS_FNS(X, a)                                                            \
    X(a, ca_cublasCreate_fn, Create, cublasCreate_v2)                                  \
    X(a, ca_cublasSetStream_fn, SetStream, cublasSetStream_v2)                         \
    X(a, ca_cublasSetWorkspace_fn, SetWorkspace, cublasSetWorkspace_v2)                \
    X(a, ca_cublasSetMathMode_fn, SetMathMode, cublasSetMathMode)                      \
    X(a, ca_cublasGetVersion_fn, GetVersion, cublasGetVersion_v2)                      \
    X(a, ca_cublasSgemm_fn, Sgemm, cublasSgemm_v2)                                     \
    X(a, ca_cublasDgemm_fn, Dgemm, cublasDgemm_v2)                                     \
    X(a, ca_cublasCgemm_fn, Cgemm, cublasCgemm_v2)                                     \
    X(a, ca_cublasZgemm_fn, Zgemm, cublasZgemm_v2)                                     \
    X(a, ca_cublasGemmEx_fn, GemmEx, cublasGemmEx)                                     \
    X(a, ca_cublasSgemmStridedBatched_fn, SgemmStridedBatched,                         \
      cublasSgemmStridedBatched)                                                       \
    X(a, ca_cublasDgemmStridedBatched_fn, DgemmStridedBatched,                         \
      cublasDgemmStridedBatched)                                                       \
    X(a, ca_cublasCgemmStridedBatched_fn, CgemmStridedBatched,                         \
      cublasCgemmStridedBatched)                                                       \
    X(a, ca_cublasZgemmStridedBatched_fn, ZgemmStridedBatched,                         \
      cublasZgemmStridedBatched)                                                       \
    X(a, ca_cublasGemmStridedBatchedEx_fn, GemmStridedBatchedEx,                       \
      cublasGemmStridedBatchedEx)
typedef struct {
    CA_CUBLAS_FNS(CA_DL_FIELD, )
} ca_cublas_api;

/* The cuBLAS table: loads the library on the first call (thread-safe, once).
 * NULL with ImportError naming the library and every place searched. A failed
 * load is remembered: later calls fail the same way at once. */
const ca_cublas_api *ca_cublas(void);

typedef cufftResult (*ca_cufftCreate_fn)(cufftHandle *handle);
typedef cufftResult (*ca_cufftDestroy_fn)(cufftHandle plan);
typedef cufftResult (*ca_cufftSetAutoAllocation_fn)(cufftHandle plan, int autoAllocate);
typedef cufftResult (*ca_cufftSetWorkArea_fn)(cufftHandle plan, void *workArea);
typedef cufftResult (*ca_cufftSetStream_fn)(cufftHandle plan, cudaStream_t stream);
typedef cufftResult (*ca_cufftMakePlanMany64_fn)(
    cufftHandle plan, int rank, long long int *n, long long int *inembed,
    long long int istride, long long int idist, long long int *onembed,
    long long int ostride, long long int odist, cufftType type, long long int batch,
    size_t *workSize);
typedef cufftResult (*ca_cufftExecC2C_fn)(cufftHandle plan, cufftComplex *idata,
                                          cufftComplex *odata, int direction);
typedef cufftResult (*ca_cufftExecZ2Z_fn)(cufftHandle plan, cufftDoubleComplex *idata,
                                          cufftDoubleComplex *odata, int direction);
typedef cufftResult (*ca_cufftExecR2C_fn)(cufftHandle plan, cufftReal *idata,
                                          cufftComplex *odata);
typedef cufftResult (*ca_cufftExecD2Z_fn)(cufftHandle plan, cufftDoubleReal *idata,
                                          cufftDoubleComplex *odata);
typedef cufftResult (*ca_cufftExecC2R_fn)(cufftHandle plan, cufftComplex *idata,
                                          cufftReal *odata);
typedef cufftResult (*ca_cufftExecZ2D_fn)(cufftHandle plan, cufftDoubleComplex *idata,
                                          cufftDoubleReal *odata);
typedef cufftResult (*ca_cufftGetVersion_fn)(int *version);

/* cuFFT's functions: pointer type, field of ca_cufft_api, symbol. */
#define CA_CUFFT_FNS(X, a)                                                             \
    X(a, ca_cufftCreate_fn, Create, cufftCreate)                                       \
    X(a, ca_cufftDestroy_fn, Destroy, cufftDestroy)                                    \
    X(a, ca_cufftSetAutoAllocation_fn, SetAutoAllocation, cufftSetAutoAllocation)      \
    X(a, ca_cufftSetWorkArea_fn, SetWorkArea, cufftSetWorkArea)                        \
    X(a, ca_cufftSetStream_fn, SetStream, cufftSetStream)                              \
    X(a, ca_cufftMakePlanMany64_fn, MakePlanMany64, cufftMakePlanMany64)               \
    X(a, ca_cufftExecC2C_fn, ExecC2C, cufftExecC2C)                                    \
    X(a, ca_cufftExecZ2Z_fn, ExecZ2Z, cufftExecZ2Z)                                    \
    X(a, ca_cufftExecR2C_fn, ExecR2C, cufftExecR2C)                                    \
    X(a, ca_cufftExecD2Z_fn, ExecD2Z, cufftExecD2Z)                                    \
    X(a, ca_cufftExecC2R_fn, ExecC2R, cufftExecC2R)                                    \
    X(a, ca_cufftExecZ2D_fn, ExecZ2D, cufftExecZ2D)                                    \
    X(a, ca_cufftGetVersion_fn, GetVersion, cufftGetVersion)
typedef struct {
    CA_CUFFT_FNS(CA_DL_FIELD, )
} ca_cufft_api;

/* The cuFFT table, loaded on the first call as ca_cublas(). */
const ca_cufft_api *ca_cufft(void);

/* ---- cuSOLVER (dense) and cuBLAS's batched LU, for linalg (launch_solver.c) ---- */
/* The 64-bit generic API (cusolverDnX*) takes cudaDataType arguments, so one
 * pointer serves every precision. The typed families (cuBLAS's getrfBatched &
 * co., cusolverDn?potrfBatched, ?orgqr / ?ungqr) have one function per
 * precision whose element pointers differ only in type: the table holds them
 * as `void *` element pointers in precision order (S, D, C, Z), and dynlib.c
 * checks each against the header's typed declaration. */
typedef cusolverStatus_t (*ca_cusolverDnCreate_fn)(cusolverDnHandle_t *handle);
typedef cusolverStatus_t (*ca_cusolverDnSetStream_fn)(cusolverDnHandle_t handle,
                                                      cudaStream_t streamId);
typedef cusolverStatus_t (*ca_cusolverDnCreateParams_fn)(cusolverDnParams_t *params);
typedef cusolverStatus_t (*ca_cusolverGetVersion_fn)(int *version);
typedef cusolverStatus_t (*ca_cusolverDnXgetrf_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, int64_t m, int64_t n,
    cudaDataType dataTypeA, const void *A, int64_t lda, cudaDataType computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXgetrf_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, int64_t m, int64_t n,
    cudaDataType dataTypeA, void *A, int64_t lda, int64_t *ipiv,
    cudaDataType computeType, void *bufferOnDevice, size_t workspaceInBytesOnDevice,
    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);
typedef cusolverStatus_t (*ca_cusolverDnXgetrs_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cublasOperation_t trans,
    int64_t n, int64_t nrhs, cudaDataType dataTypeA, const void *A, int64_t lda,
    const int64_t *ipiv, cudaDataType dataTypeB, void *B, int64_t ldb, int *info);
typedef cusolverStatus_t (*ca_cusolverDnXpotrf_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cublasFillMode_t uplo,
    int64_t n, cudaDataType dataTypeA, const void *A, int64_t lda,
    cudaDataType computeType, size_t *workspaceInBytesOnDevice,
    size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXpotrf_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cublasFillMode_t uplo,
    int64_t n, cudaDataType dataTypeA, void *A, int64_t lda, cudaDataType computeType,
    void *bufferOnDevice, size_t workspaceInBytesOnDevice, void *bufferOnHost,
    size_t workspaceInBytesOnHost, int *info);
typedef cusolverStatus_t (*ca_cusolverDnXgeqrf_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, int64_t m, int64_t n,
    cudaDataType dataTypeA, const void *A, int64_t lda, cudaDataType dataTypeTau,
    const void *tau, cudaDataType computeType, size_t *workspaceInBytesOnDevice,
    size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXgeqrf_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, int64_t m, int64_t n,
    cudaDataType dataTypeA, void *A, int64_t lda, cudaDataType dataTypeTau, void *tau,
    cudaDataType computeType, void *bufferOnDevice, size_t workspaceInBytesOnDevice,
    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);
typedef cusolverStatus_t (*ca_cusolverDnXsyevd_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, const void *A,
    int64_t lda, cudaDataType dataTypeW, const void *W, cudaDataType computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXsyevd_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
    cudaDataType dataTypeW, void *W, cudaDataType computeType, void *bufferOnDevice,
    size_t workspaceInBytesOnDevice, void *bufferOnHost, size_t workspaceInBytesOnHost,
    int *info);
typedef cusolverStatus_t (*ca_cusolverDnXsyevBatched_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, const void *A,
    int64_t lda, cudaDataType dataTypeW, const void *W, cudaDataType computeType,
    size_t *workspaceInBytesOnDevice, size_t *workspaceInBytesOnHost,
    int64_t batchSize);
typedef cusolverStatus_t (*ca_cusolverDnXsyevBatched_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
    cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
    cudaDataType dataTypeW, void *W, cudaDataType computeType, void *bufferOnDevice,
    size_t workspaceInBytesOnDevice, void *bufferOnHost, size_t workspaceInBytesOnHost,
    int *info, int64_t batchSize);
typedef cusolverStatus_t (*ca_cusolverDnXgesvd_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, signed char jobu,
    signed char jobvt, int64_t m, int64_t n, cudaDataType dataTypeA, const void *A,
    int64_t lda, cudaDataType dataTypeS, const void *S, cudaDataType dataTypeU,
    const void *U, int64_t ldu, cudaDataType dataTypeVT, const void *VT, int64_t ldvt,
    cudaDataType computeType, size_t *workspaceInBytesOnDevice,
    size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXgesvd_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, signed char jobu,
    signed char jobvt, int64_t m, int64_t n, cudaDataType dataTypeA, void *A,
    int64_t lda, cudaDataType dataTypeS, void *S, cudaDataType dataTypeU, void *U,
    int64_t ldu, cudaDataType dataTypeVT, void *VT, int64_t ldvt,
    cudaDataType computeType, void *bufferOnDevice, size_t workspaceInBytesOnDevice,
    void *bufferOnHost, size_t workspaceInBytesOnHost, int *info);
typedef cusolverStatus_t (*ca_cusolverDnXgeev_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
    cusolverEigMode_t jobvr, int64_t n, cudaDataType dataTypeA, const void *A,
    int64_t lda, cudaDataType dataTypeW, const void *W, cudaDataType dataTypeVL,
    const void *VL, int64_t ldvl, cudaDataType dataTypeVR, const void *VR, int64_t ldvr,
    cudaDataType computeType, size_t *workspaceInBytesOnDevice,
    size_t *workspaceInBytesOnHost);
typedef cusolverStatus_t (*ca_cusolverDnXgeev_fn)(
    cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobvl,
    cusolverEigMode_t jobvr, int64_t n, cudaDataType dataTypeA, void *A, int64_t lda,
    cudaDataType dataTypeW, void *W, cudaDataType dataTypeVL, void *VL, int64_t ldvl,
    cudaDataType dataTypeVR, void *VR, int64_t ldvr, cudaDataType computeType,
    void *bufferOnDevice, size_t workspaceInBytesOnDevice, void *bufferOnHost,
    size_t workspaceInBytesOnHost, int *info);
/* The typed families, with `void *` for the element pointers. */
typedef cusolverStatus_t (*ca_potrfBatched_fn)(cusolverDnHandle_t handle,
                                               cublasFillMode_t uplo, int n,
                                               void *Aarray[], int lda, int *infoArray,
                                               int batchSize);
typedef cusolverStatus_t (*ca_orgqr_bufferSize_fn)(cusolverDnHandle_t handle, int m,
                                                   int n, int k, const void *A, int lda,
                                                   const void *tau, int *lwork);
typedef cusolverStatus_t (*ca_orgqr_fn)(cusolverDnHandle_t handle, int m, int n, int k,
                                        void *A, int lda, const void *tau, void *work,
                                        int lwork, int *info);
typedef cusolverStatus_t (*ca_cusolverDnCreateGesvdjInfo_fn)(gesvdjInfo_t *info);
typedef cusolverStatus_t (*ca_gesvdj_bufferSize_fn)(
    cusolverDnHandle_t handle, cusolverEigMode_t jobz, int econ, int m, int n,
    const void *A, int lda, const void *S, const void *U, int ldu, const void *V,
    int ldv, int *lwork, gesvdjInfo_t params);
typedef cusolverStatus_t (*ca_gesvdj_fn)(cusolverDnHandle_t handle,
                                         cusolverEigMode_t jobz, int econ, int m, int n,
                                         void *A, int lda, void *S, void *U, int ldu,
                                         void *V, int ldv, void *work, int lwork,
                                         int *info, gesvdjInfo_t params);
typedef cublasStatus_t (*ca_getrfBatched_fn)(cublasHandle_t handle, int n,
                                             void *const A[], int lda, int *P,
                                             int *info, int batchSize);
typedef cublasStatus_t (*ca_getriBatched_fn)(cublasHandle_t handle, int n,
                                             const void *const A[], int lda,
                                             const int *P, void *const C[], int ldc,
                                             int *info, int batchSize);
typedef cublasStatus_t (*ca_getrsBatched_fn)(cublasHandle_t handle,
                                             cublasOperation_t trans, int n, int nrhs,
                                             const void *const Aarray[], int lda,
                                             const int *devIpiv, void *const Barray[],
                                             int ldb, int *info, int batchSize);

/* cuSOLVER's functions: pointer type, field of ca_cusolver_api, symbol. */
#define CA_CUSOLVER_FNS(X, a)                                                          \
    X(a, ca_cusolverDnCreate_fn, Create, cusolverDnCreate)                             \
    X(a, ca_cusolverDnSetStream_fn, SetStream, cusolverDnSetStream)                    \
    X(a, ca_cusolverDnCreateParams_fn, CreateParams, cusolverDnCreateParams)           \
    X(a, ca_cusolverGetVersion_fn, GetVersion, cusolverGetVersion)                     \
    X(a, ca_cusolverDnXgetrf_bufferSize_fn, Xgetrf_bufferSize,                         \
      cusolverDnXgetrf_bufferSize)                                                     \
    X(a, ca_cusolverDnXgetrf_fn, Xgetrf, cusolverDnXgetrf)                             \
    X(a, ca_cusolverDnXgetrs_fn, Xgetrs, cusolverDnXgetrs)                             \
    X(a, ca_cusolverDnXpotrf_bufferSize_fn, Xpotrf_bufferSize,                         \
      cusolverDnXpotrf_bufferSize)                                                     \
    X(a, ca_cusolverDnXpotrf_fn, Xpotrf, cusolverDnXpotrf)                             \
    X(a, ca_cusolverDnXgeqrf_bufferSize_fn, Xgeqrf_bufferSize,                         \
      cusolverDnXgeqrf_bufferSize)                                                     \
    X(a, ca_cusolverDnXgeqrf_fn, Xgeqrf, cusolverDnXgeqrf)                             \
    X(a, ca_cusolverDnXsyevd_bufferSize_fn, Xsyevd_bufferSize,                         \
      cusolverDnXsyevd_bufferSize)                                                     \
    X(a, ca_cusolverDnXsyevd_fn, Xsyevd, cusolverDnXsyevd)                             \
    X(a, ca_cusolverDnXsyevBatched_bufferSize_fn, XsyevBatched_bufferSize,             \
      cusolverDnXsyevBatched_bufferSize)                                               \
    X(a, ca_cusolverDnXsyevBatched_fn, XsyevBatched, cusolverDnXsyevBatched)           \
    X(a, ca_cusolverDnXgesvd_bufferSize_fn, Xgesvd_bufferSize,                         \
      cusolverDnXgesvd_bufferSize)                                                     \
    X(a, ca_cusolverDnXgesvd_fn, Xgesvd, cusolverDnXgesvd)                             \
    X(a, ca_cusolverDnXgeev_bufferSize_fn, Xgeev_bufferSize,                           \
      cusolverDnXgeev_bufferSize)                                                      \
    X(a, ca_cusolverDnXgeev_fn, Xgeev, cusolverDnXgeev)
typedef struct {
    CA_CUSOLVER_FNS(CA_DL_FIELD, )
    ca_potrfBatched_fn potrfBatched[4];         /* S D C Z */
    ca_orgqr_bufferSize_fn orgqr_bufferSize[4]; /* S D orgqr, C Z ungqr */
    ca_orgqr_fn orgqr[4];
    ca_cusolverDnCreateGesvdjInfo_fn CreateGesvdjInfo;
    ca_gesvdj_bufferSize_fn gesvdj_bufferSize[4]; /* S D C Z (S: real) */
    ca_gesvdj_fn gesvdj[4];
} ca_cusolver_api;

/* cuBLAS's batched LU (the same library as ca_cublas(), its own table). */
typedef struct {
    ca_getrfBatched_fn getrfBatched[4]; /* S D C Z */
    ca_getriBatched_fn getriBatched[4];
    ca_getrsBatched_fn getrsBatched[4];
} ca_cublas_lu_api;

/* The cuSOLVER table, loaded on the first call as ca_cublas() (cuBLAS first,
 * which cuSOLVER depends on). */
const ca_cusolver_api *ca_cusolver(void);
/* cuBLAS's batched LU functions (loads cuBLAS on the first call). */
const ca_cublas_lu_api *ca_cublas_lu(void);
/* ---- cuRAND (csrc/runtime/launch_rand.c) ---- */
typedef curandStatus_t (*ca_curandCreateGenerator_fn)(curandGenerator_t *generator,
                                                      curandRngType_t rng_type);
typedef curandStatus_t (*ca_curandDestroyGenerator_fn)(curandGenerator_t generator);
typedef curandStatus_t (*ca_curandSetPseudoRandomGeneratorSeed_fn)(
    curandGenerator_t generator, unsigned long long seed);
typedef curandStatus_t (*ca_curandSetGeneratorOffset_fn)(curandGenerator_t generator,
                                                         unsigned long long offset);
typedef curandStatus_t (*ca_curandSetQuasiRandomGeneratorDimensions_fn)(
    curandGenerator_t generator, unsigned int num_dimensions);
typedef curandStatus_t (*ca_curandSetStream_fn)(curandGenerator_t generator,
                                                cudaStream_t stream);
typedef curandStatus_t (*ca_curandGenerate_fn)(curandGenerator_t generator,
                                               unsigned int *outputPtr, size_t num);
typedef curandStatus_t (*ca_curandGenerateLongLong_fn)(curandGenerator_t generator,
                                                       unsigned long long *outputPtr,
                                                       size_t num);
typedef curandStatus_t (*ca_curandGetVersion_fn)(int *version);

/* cuRAND's functions: pointer type, field of ca_curand_api, symbol. */
#define CA_CURAND_FNS(X, a)                                                            \
    X(a, ca_curandCreateGenerator_fn, CreateGenerator, curandCreateGenerator)          \
    X(a, ca_curandCreateGenerator_fn, CreateGeneratorHost, curandCreateGeneratorHost)  \
    X(a, ca_curandDestroyGenerator_fn, DestroyGenerator, curandDestroyGenerator)       \
    X(a, ca_curandSetPseudoRandomGeneratorSeed_fn, SetPseudoRandomGeneratorSeed,       \
      curandSetPseudoRandomGeneratorSeed)                                              \
    X(a, ca_curandSetGeneratorOffset_fn, SetGeneratorOffset, curandSetGeneratorOffset) \
    X(a, ca_curandSetQuasiRandomGeneratorDimensions_fn,                                \
      SetQuasiRandomGeneratorDimensions, curandSetQuasiRandomGeneratorDimensions)      \
    X(a, ca_curandSetStream_fn, SetStream, curandSetStream)                            \
    X(a, ca_curandGenerate_fn, Generate, curandGenerate)                               \
    X(a, ca_curandGenerateLongLong_fn, GenerateLongLong, curandGenerateLongLong)       \
    X(a, ca_curandGetVersion_fn, GetVersion, curandGetVersion)
typedef struct {
    CA_CURAND_FNS(CA_DL_FIELD, )
} ca_curand_api;

/* The cuRAND table, loaded on the first call as ca_cublas(). */
const ca_curand_api *ca_curand(void);
/* NVRTC (user kernels only: no built-in operation compiles at run time). */
typedef nvrtcResult (*ca_nvrtcVersion_fn)(int *major, int *minor);
typedef const char *(*ca_nvrtcGetErrorString_fn)(nvrtcResult result);
typedef nvrtcResult (*ca_nvrtcCreateProgram_fn)(nvrtcProgram *prog, const char *src,
                                                const char *name, int numHeaders,
                                                const char *const *headers,
                                                const char *const *includeNames);
typedef nvrtcResult (*ca_nvrtcDestroyProgram_fn)(nvrtcProgram *prog);
typedef nvrtcResult (*ca_nvrtcCompileProgram_fn)(nvrtcProgram prog, int numOptions,
                                                 const char *const *options);
typedef nvrtcResult (*ca_nvrtcGetSize_fn)(nvrtcProgram prog, size_t *size);
typedef nvrtcResult (*ca_nvrtcGetData_fn)(nvrtcProgram prog, char *out);
typedef nvrtcResult (*ca_nvrtcAddNameExpression_fn)(nvrtcProgram prog,
                                                    const char *const name_expression);
typedef nvrtcResult (*ca_nvrtcGetLoweredName_fn)(nvrtcProgram prog,
                                                 const char *const name_expression,
                                                 const char **lowered_name);

/* NVRTC's functions: pointer type, field of ca_nvrtc_api, symbol. */
#define CA_NVRTC_FNS(X, a)                                                             \
    X(a, ca_nvrtcVersion_fn, Version, nvrtcVersion)                                    \
    X(a, ca_nvrtcGetErrorString_fn, GetErrorString, nvrtcGetErrorString)               \
    X(a, ca_nvrtcCreateProgram_fn, CreateProgram, nvrtcCreateProgram)                  \
    X(a, ca_nvrtcDestroyProgram_fn, DestroyProgram, nvrtcDestroyProgram)               \
    X(a, ca_nvrtcCompileProgram_fn, CompileProgram, nvrtcCompileProgram)               \
    X(a, ca_nvrtcGetSize_fn, GetPTXSize, nvrtcGetPTXSize)                              \
    X(a, ca_nvrtcGetData_fn, GetPTX, nvrtcGetPTX)                                      \
    X(a, ca_nvrtcGetSize_fn, GetCUBINSize, nvrtcGetCUBINSize)                          \
    X(a, ca_nvrtcGetData_fn, GetCUBIN, nvrtcGetCUBIN)                                  \
    X(a, ca_nvrtcGetSize_fn, GetProgramLogSize, nvrtcGetProgramLogSize)                \
    X(a, ca_nvrtcGetData_fn, GetProgramLog, nvrtcGetProgramLog)                        \
    X(a, ca_nvrtcAddNameExpression_fn, AddNameExpression, nvrtcAddNameExpression)      \
    X(a, ca_nvrtcGetLoweredName_fn, GetLoweredName, nvrtcGetLoweredName)
typedef struct {
    CA_NVRTC_FNS(CA_DL_FIELD, )
} ca_nvrtc_api;

/* The NVRTC table, loaded on the first call as ca_cublas(). */
const ca_nvrtc_api *ca_nvrtc(void);
/* ---- cuSPARSE's generic API (csrc/runtime/launch_sparse.c) ---- */
typedef cusparseStatus_t (*ca_cusparseCreate_fn)(cusparseHandle_t *handle);
typedef cusparseStatus_t (*ca_cusparseSetStream_fn)(cusparseHandle_t handle,
                                                    cudaStream_t streamId);
typedef cusparseStatus_t (*ca_cusparseCreateConstCsr_fn)(
    cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    const void *csrRowOffsets, const void *csrColInd, const void *csrValues,
    cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType);
typedef cusparseStatus_t (*ca_cusparseCreateCsr_fn)(
    cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
    void *csrRowOffsets, void *csrColInd, void *csrValues,
    cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
    cusparseIndexBase_t idxBase, cudaDataType valueType);
typedef cusparseStatus_t (*ca_cusparseDestroySpMat_fn)(
    cusparseConstSpMatDescr_t spMatDescr);
typedef cusparseStatus_t (*ca_cusparseCreateConstDnVec_fn)(
    cusparseConstDnVecDescr_t *dnVecDescr, int64_t size, const void *values,
    cudaDataType valueType);
typedef cusparseStatus_t (*ca_cusparseCreateDnVec_fn)(cusparseDnVecDescr_t *dnVecDescr,
                                                      int64_t size, void *values,
                                                      cudaDataType valueType);
typedef cusparseStatus_t (*ca_cusparseDestroyDnVec_fn)(
    cusparseConstDnVecDescr_t dnVecDescr);
typedef cusparseStatus_t (*ca_cusparseCreateConstDnMat_fn)(
    cusparseConstDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld,
    const void *values, cudaDataType valueType, cusparseOrder_t order);
typedef cusparseStatus_t (*ca_cusparseCreateDnMat_fn)(cusparseDnMatDescr_t *dnMatDescr,
                                                      int64_t rows, int64_t cols,
                                                      int64_t ld, void *values,
                                                      cudaDataType valueType,
                                                      cusparseOrder_t order);
typedef cusparseStatus_t (*ca_cusparseDestroyDnMat_fn)(
    cusparseConstDnMatDescr_t dnMatDescr);
typedef cusparseStatus_t (*ca_cusparseSpMV_bufferSize_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
    size_t *bufferSize);
typedef cusparseStatus_t (*ca_cusparseSpMV_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
    cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
    cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
    void *externalBuffer);
typedef cusparseStatus_t (*ca_cusparseSpMM_bufferSize_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
    const void *beta, cusparseDnMatDescr_t matC, cudaDataType computeType,
    cusparseSpMMAlg_t alg, size_t *bufferSize);
typedef cusparseStatus_t (*ca_cusparseSpMM_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
    const void *beta, cusparseDnMatDescr_t matC, cudaDataType computeType,
    cusparseSpMMAlg_t alg, void *externalBuffer);
typedef cusparseStatus_t (*ca_cusparseSpGEMM_createDescr_fn)(
    cusparseSpGEMMDescr_t *descr);
typedef cusparseStatus_t (*ca_cusparseSpGEMM_destroyDescr_fn)(
    cusparseSpGEMMDescr_t descr);
/* workEstimation and compute share one signature. */
typedef cusparseStatus_t (*ca_cusparseSpGEMM_phase_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
    const void *beta, cusparseSpMatDescr_t matC, cudaDataType computeType,
    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize,
    void *externalBuffer);
typedef cusparseStatus_t (*ca_cusparseSpGEMM_copy_fn)(
    cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
    const void *beta, cusparseSpMatDescr_t matC, cudaDataType computeType,
    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr);
typedef cusparseStatus_t (*ca_cusparseSpMatGetSize_fn)(
    cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz);
typedef cusparseStatus_t (*ca_cusparseCsrSetPointers_fn)(
    cusparseSpMatDescr_t spMatDescr, void *csrRowOffsets, void *csrColInd,
    void *csrValues);

/* cuSPARSE's functions: pointer type, field of ca_cusparse_api, symbol. */
#define CA_CUSPARSE_FNS(X, a)                                                          \
    X(a, ca_cusparseCreate_fn, Create, cusparseCreate)                                 \
    X(a, ca_cusparseSetStream_fn, SetStream, cusparseSetStream)                        \
    X(a, ca_cusparseCreateConstCsr_fn, CreateConstCsr, cusparseCreateConstCsr)         \
    X(a, ca_cusparseCreateCsr_fn, CreateCsr, cusparseCreateCsr)                        \
    X(a, ca_cusparseDestroySpMat_fn, DestroySpMat, cusparseDestroySpMat)               \
    X(a, ca_cusparseCreateConstDnVec_fn, CreateConstDnVec, cusparseCreateConstDnVec)   \
    X(a, ca_cusparseCreateDnVec_fn, CreateDnVec, cusparseCreateDnVec)                  \
    X(a, ca_cusparseDestroyDnVec_fn, DestroyDnVec, cusparseDestroyDnVec)               \
    X(a, ca_cusparseCreateConstDnMat_fn, CreateConstDnMat, cusparseCreateConstDnMat)   \
    X(a, ca_cusparseCreateDnMat_fn, CreateDnMat, cusparseCreateDnMat)                  \
    X(a, ca_cusparseDestroyDnMat_fn, DestroyDnMat, cusparseDestroyDnMat)               \
    X(a, ca_cusparseSpMV_bufferSize_fn, SpMV_bufferSize, cusparseSpMV_bufferSize)      \
    X(a, ca_cusparseSpMV_fn, SpMV, cusparseSpMV)                                       \
    X(a, ca_cusparseSpMM_bufferSize_fn, SpMM_bufferSize, cusparseSpMM_bufferSize)      \
    X(a, ca_cusparseSpMM_fn, SpMM, cusparseSpMM)                                       \
    X(a, ca_cusparseSpGEMM_createDescr_fn, SpGEMM_createDescr,                         \
      cusparseSpGEMM_createDescr)                                                      \
    X(a, ca_cusparseSpGEMM_destroyDescr_fn, SpGEMM_destroyDescr,                       \
      cusparseSpGEMM_destroyDescr)                                                     \
    X(a, ca_cusparseSpGEMM_phase_fn, SpGEMM_workEstimation,                            \
      cusparseSpGEMM_workEstimation)                                                   \
    X(a, ca_cusparseSpGEMM_phase_fn, SpGEMM_compute, cusparseSpGEMM_compute)           \
    X(a, ca_cusparseSpGEMM_copy_fn, SpGEMM_copy, cusparseSpGEMM_copy)                  \
    X(a, ca_cusparseSpMatGetSize_fn, SpMatGetSize, cusparseSpMatGetSize)               \
    X(a, ca_cusparseCsrSetPointers_fn, CsrSetPointers, cusparseCsrSetPointers)
typedef struct {
    CA_CUSPARSE_FNS(CA_DL_FIELD, )
} ca_cusparse_api;

/* The cuSPARSE table, loaded on the first call as ca_cublas(). */
const ca_cusparse_api *ca_cusparse(void);
#endif /* CA_HAVE_CUDA */

/* Where cuSPARSE was loaded from, or NULL if it is not loaded (never loads). */
const char *ca_cusparse_path(void);

/* Where cuSOLVER was loaded from, or NULL if it is not loaded (never loads). */
const char *ca_cusolver_path(void);

/* The path cuBLAS was loaded from, or NULL if it is not loaded (never loads;
 * NULL in host-only builds). */
const char *ca_cublas_path(void);
/* The same for cuFFT. */
const char *ca_cufft_path(void);
/* The same for cuRAND. */
const char *ca_curand_path(void);
/* The same for NVRTC. */
const char *ca_nvrtc_path(void);

#endif /* CA_DYNLIB_H */

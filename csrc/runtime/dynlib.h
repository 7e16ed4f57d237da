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

typedef struct {
    ca_cufftCreate_fn Create;
    ca_cufftDestroy_fn Destroy;
    ca_cufftSetAutoAllocation_fn SetAutoAllocation;
    ca_cufftSetWorkArea_fn SetWorkArea;
    ca_cufftSetStream_fn SetStream;
    ca_cufftMakePlanMany64_fn MakePlanMany64;
    ca_cufftExecC2C_fn ExecC2C;
    ca_cufftExecZ2Z_fn ExecZ2Z;
    ca_cufftExecR2C_fn ExecR2C;
    ca_cufftExecD2Z_fn ExecD2Z;
    ca_cufftExecC2R_fn ExecC2R;
    ca_cufftExecZ2D_fn ExecZ2D;
    ca_cufftGetVersion_fn GetVersion;
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

typedef struct {
    ca_cusolverDnCreate_fn Create;
    ca_cusolverDnSetStream_fn SetStream;
    ca_cusolverDnCreateParams_fn CreateParams;
    ca_cusolverGetVersion_fn GetVersion;
    ca_cusolverDnXgetrf_bufferSize_fn Xgetrf_bufferSize;
    ca_cusolverDnXgetrf_fn Xgetrf;
    ca_cusolverDnXgetrs_fn Xgetrs;
    ca_cusolverDnXpotrf_bufferSize_fn Xpotrf_bufferSize;
    ca_cusolverDnXpotrf_fn Xpotrf;
    ca_cusolverDnXgeqrf_bufferSize_fn Xgeqrf_bufferSize;
    ca_cusolverDnXgeqrf_fn Xgeqrf;
    ca_cusolverDnXsyevd_bufferSize_fn Xsyevd_bufferSize;
    ca_cusolverDnXsyevd_fn Xsyevd;
    ca_cusolverDnXsyevBatched_bufferSize_fn XsyevBatched_bufferSize;
    ca_cusolverDnXsyevBatched_fn XsyevBatched;
    ca_cusolverDnXgesvd_bufferSize_fn Xgesvd_bufferSize;
    ca_cusolverDnXgesvd_fn Xgesvd;
    ca_cusolverDnXgeev_bufferSize_fn Xgeev_bufferSize;
    ca_cusolverDnXgeev_fn Xgeev;
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

typedef struct {
    ca_curandCreateGenerator_fn CreateGenerator;
    ca_curandCreateGenerator_fn CreateGeneratorHost;
    ca_curandDestroyGenerator_fn DestroyGenerator;
    ca_curandSetPseudoRandomGeneratorSeed_fn SetPseudoRandomGeneratorSeed;
    ca_curandSetGeneratorOffset_fn SetGeneratorOffset;
    ca_curandSetQuasiRandomGeneratorDimensions_fn SetQuasiRandomGeneratorDimensions;
    ca_curandSetStream_fn SetStream;
    ca_curandGenerate_fn Generate;
    ca_curandGenerateLongLong_fn GenerateLongLong;
    ca_curandGetVersion_fn GetVersion;
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

typedef struct {
    ca_nvrtcVersion_fn Version;
    ca_nvrtcGetErrorString_fn GetErrorString;
    ca_nvrtcCreateProgram_fn CreateProgram;
    ca_nvrtcDestroyProgram_fn DestroyProgram;
    ca_nvrtcCompileProgram_fn CompileProgram;
    ca_nvrtcGetSize_fn GetPTXSize;
    ca_nvrtcGetData_fn GetPTX;
    ca_nvrtcGetSize_fn GetCUBINSize;
    ca_nvrtcGetData_fn GetCUBIN;
    ca_nvrtcGetSize_fn GetProgramLogSize;
    ca_nvrtcGetData_fn GetProgramLog;
    ca_nvrtcAddNameExpression_fn AddNameExpression;
    ca_nvrtcGetLoweredName_fn GetLoweredName;
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

typedef struct {
    ca_cusparseCreate_fn Create;
    ca_cusparseSetStream_fn SetStream;
    ca_cusparseCreateConstCsr_fn CreateConstCsr;
    ca_cusparseCreateCsr_fn CreateCsr;
    ca_cusparseDestroySpMat_fn DestroySpMat;
    ca_cusparseCreateConstDnVec_fn CreateConstDnVec;
    ca_cusparseCreateDnVec_fn CreateDnVec;
    ca_cusparseDestroyDnVec_fn DestroyDnVec;
    ca_cusparseCreateConstDnMat_fn CreateConstDnMat;
    ca_cusparseCreateDnMat_fn CreateDnMat;
    ca_cusparseDestroyDnMat_fn DestroyDnMat;
    ca_cusparseSpMV_bufferSize_fn SpMV_bufferSize;
    ca_cusparseSpMV_fn SpMV;
    ca_cusparseSpMM_bufferSize_fn SpMM_bufferSize;
    ca_cusparseSpMM_fn SpMM;
    ca_cusparseSpGEMM_createDescr_fn SpGEMM_createDescr;
    ca_cusparseSpGEMM_destroyDescr_fn SpGEMM_destroyDescr;
    ca_cusparseSpGEMM_phase_fn SpGEMM_workEstimation;
    ca_cusparseSpGEMM_phase_fn SpGEMM_compute;
    ca_cusparseSpGEMM_copy_fn SpGEMM_copy;
    ca_cusparseSpMatGetSize_fn SpMatGetSize;
    ca_cusparseCsrSetPointers_fn CsrSetPointers;
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

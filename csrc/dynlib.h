/*
 * dynlib.h: cuBLAS, cuFFT and NVRTC, loaded on first use (csrc/dynlib.c).
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

typedef cublasStatus_t (*ca_cublasSgemm_fn)(cublasHandle_t handle,
                                            cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n,
                                            int k, const float *alpha, const float *A,
                                            int lda, const float *B, int ldb,
                                            const float *beta, float *C, int ldc);
typedef cublasStatus_t (*ca_cublasDgemm_fn)(cublasHandle_t handle,
                                            cublasOperation_t transa,
                                            cublasOperation_t transb, int m, int n,
                                            int k, const double *alpha, const double *A,
                                            int lda, const double *B, int ldb,
                                            const double *beta, double *C, int ldc);
typedef cublasStatus_t (*ca_cublasCgemm_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const cuComplex *alpha, const cuComplex *A, int lda,
    const cuComplex *B, int ldb, const cuComplex *beta, cuComplex *C, int ldc);
typedef cublasStatus_t (*ca_cublasZgemm_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    const cuDoubleComplex *B, int ldb, const cuDoubleComplex *beta, cuDoubleComplex *C,
    int ldc);
typedef cublasStatus_t (*ca_cublasGemmEx_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
    const void *B, cudaDataType Btype, int ldb, const void *beta, void *C,
    cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
    cublasGemmAlgo_t algo);
typedef cublasStatus_t (*ca_cublasSgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const float *alpha, const float *A, int lda, long long int strideA,
    const float *B, int ldb, long long int strideB, const float *beta, float *C,
    int ldc, long long int strideC, int batchCount);
typedef cublasStatus_t (*ca_cublasDgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const double *alpha, const double *A, int lda, long long int strideA,
    const double *B, int ldb, long long int strideB, const double *beta, double *C,
    int ldc, long long int strideC, int batchCount);
typedef cublasStatus_t (*ca_cublasCgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const cuComplex *alpha, const cuComplex *A, int lda,
    long long int strideA, const cuComplex *B, int ldb, long long int strideB,
    const cuComplex *beta, cuComplex *C, int ldc, long long int strideC,
    int batchCount);
typedef cublasStatus_t (*ca_cublasZgemmStridedBatched_fn)(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
    int n, int k, const cuDoubleComplex *alpha, const cuDoubleComplex *A, int lda,
    long long int strideA, const cuDoubleComplex *B, int ldb, long long int strideB,
    const cuDoubleComplex *beta, cuDoubleComplex *C, int ldc, long long int strideC,
    int batchCount);
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
#endif /* CA_HAVE_CUDA */

/* The path cuBLAS was loaded from, or NULL if it is not loaded (never loads;
 * NULL in host-only builds). */
const char *ca_cublas_path(void);
/* The same for cuFFT. */
const char *ca_cufft_path(void);
/* The same for NVRTC. */
const char *ca_nvrtc_path(void);

#endif /* CA_DYNLIB_H */

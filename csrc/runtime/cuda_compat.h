/*
 * cuda_compat.h: the CUDA runtime API for csrc/, with or without a toolkit.
 *
 * CUDA builds include the real <cuda_runtime_api.h>. Host-only builds get the
 * few types and constants csrc/ uses and inline stand-ins for the functions,
 * each answering cudaErrorNoDevice (cudaGetDeviceCount answers 0 devices with
 * cudaErrorNoDevice too). That keeps the C layer free of #if around every call:
 * the cpu device never reaches them, and a GPU request fails with a clear error.
 * Add a stand-in here when csrc/ starts using a new runtime function.
 */
#ifndef CA_CUDA_COMPAT_H
#define CA_CUDA_COMPAT_H

#if CA_HAVE_CUDA
#include <cuda_runtime_api.h>
#else
/* clang-format off: the stand-ins read best as one table of one-liners */

#include <stddef.h>
#include <string.h>

typedef int cudaError_t;
typedef struct CUstream_st *cudaStream_t;
typedef struct CUevent_st *cudaEvent_t;

enum {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorCudartUnloading = 4,
    cudaErrorInsufficientDriver = 35,
    cudaErrorInvalidDevice = 101,
    cudaErrorNoDevice = 100,
    cudaErrorNotReady = 600,
};
enum { cudaStreamDefault = 0, cudaStreamNonBlocking = 1 };
enum {
    cudaEventDefault = 0,
    cudaEventBlockingSync = 1,
    cudaEventDisableTiming = 2,
    cudaEventInterprocess = 4
};
enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2 };
enum {
    cudaHostRegisterDefault = 0,
    cudaHostRegisterPortable = 1,
    cudaHostRegisterMapped = 2,
    cudaHostRegisterReadOnly = 8
};
enum { cudaMemAttachGlobal = 1 };
enum cudaStreamCaptureMode {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2
};
enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};
enum cudaMemoryType {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3
};
struct cudaPointerAttributes {
    enum cudaMemoryType type;
    int device;
    void *devicePointer;
    void *hostPointer;
};
struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    int major;
    int minor;
    int multiProcessorCount;
};
#define cudaStreamLegacy    ((cudaStream_t)0x1)
#define cudaStreamPerThread ((cudaStream_t)0x2)

#define CA_NOCUDA_                                                                     \
    (void)0;                                                                           \
    return cudaErrorNoDevice
static inline const char *
cudaGetErrorName(cudaError_t e)
{
    return e == cudaSuccess         ? "cudaSuccess"
           : e == cudaErrorNoDevice ? "cudaErrorNoDevice"
                                    : "cudaError";
}
static inline const char *
cudaGetErrorString(cudaError_t e)
{
    return e == cudaSuccess
               ? "no error"
               : "no CUDA-capable device is detected (cuarray was built without CUDA)";
}
static inline cudaError_t
cudaGetLastError(void)
{
    return cudaSuccess;
}
static inline cudaError_t
cudaPeekAtLastError(void)
{
    return cudaSuccess;
}
static inline cudaError_t
cudaGetDeviceCount(int *n)
{
    *n = 0;
    return cudaErrorNoDevice;
}
static inline cudaError_t
cudaSetDevice(int d)
{
    (void)d;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaGetDevice(int *d)
{
    *d = 0;
    return cudaErrorNoDevice;
}
static inline cudaError_t
cudaDeviceSynchronize(void)
{
    CA_NOCUDA_;
}
static inline cudaError_t
cudaGetDeviceProperties(struct cudaDeviceProp *p, int d)
{
    (void)p;
    (void)d;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMemGetInfo(size_t *f, size_t *t)
{
    *f = *t = 0;
    return cudaErrorNoDevice;
}
static inline cudaError_t
cudaRuntimeGetVersion(int *v)
{
    *v = 0;
    return cudaSuccess;
}
static inline cudaError_t
cudaDriverGetVersion(int *v)
{
    *v = 0;
    return cudaSuccess;
}
static inline cudaError_t
cudaThreadExchangeStreamCaptureMode(enum cudaStreamCaptureMode *m)
{
    (void)m;
    return cudaSuccess; /* no device, no capture: nothing to exchange */
}
static inline cudaError_t
cudaMalloc(void **p, size_t n)
{
    (void)n;
    *p = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMallocManaged(void **p, size_t n, unsigned f)
{
    (void)n;
    (void)f;
    *p = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaHostAlloc(void **p, size_t n, unsigned f)
{
    (void)n;
    (void)f;
    *p = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaFree(void *p)
{
    (void)p;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaFreeHost(void *p)
{
    (void)p;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaHostRegister(void *p, size_t n, unsigned f)
{
    (void)p;
    (void)n;
    (void)f;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaHostUnregister(void *p)
{
    (void)p;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaHostGetDevicePointer(void **d, void *h, unsigned f)
{
    (void)h;
    (void)f;
    *d = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaPointerGetAttributes(struct cudaPointerAttributes *a, const void *p)
{
    (void)p;
    memset(a, 0, sizeof *a);
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMemcpy(void *d, const void *s, size_t n, enum cudaMemcpyKind k)
{
    (void)d;
    (void)s;
    (void)n;
    (void)k;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMemcpyAsync(void *d, const void *s, size_t n, enum cudaMemcpyKind k,
                cudaStream_t st)
{
    (void)d;
    (void)s;
    (void)n;
    (void)k;
    (void)st;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMemcpy2DAsync(void *d, size_t dp, const void *s, size_t sp, size_t w, size_t h,
                  enum cudaMemcpyKind k, cudaStream_t st)
{
    (void)d;
    (void)dp;
    (void)s;
    (void)sp;
    (void)w;
    (void)h;
    (void)k;
    (void)st;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaMemsetAsync(void *d, int v, size_t n, cudaStream_t st)
{
    (void)d;
    (void)v;
    (void)n;
    (void)st;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaStreamCreateWithFlags(cudaStream_t *s, unsigned f)
{
    (void)f;
    *s = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaStreamDestroy(cudaStream_t s)
{
    (void)s;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaStreamSynchronize(cudaStream_t s)
{
    (void)s;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaStreamQuery(cudaStream_t s)
{
    (void)s;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaStreamWaitEvent(cudaStream_t s, cudaEvent_t e, unsigned f)
{
    (void)s;
    (void)e;
    (void)f;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventCreateWithFlags(cudaEvent_t *e, unsigned f)
{
    (void)f;
    *e = NULL;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventDestroy(cudaEvent_t e)
{
    (void)e;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventRecord(cudaEvent_t e, cudaStream_t s)
{
    (void)e;
    (void)s;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventSynchronize(cudaEvent_t e)
{
    (void)e;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventQuery(cudaEvent_t e)
{
    (void)e;
    CA_NOCUDA_;
}
static inline cudaError_t
cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    (void)a;
    (void)b;
    *ms = 0;
    CA_NOCUDA_;
}
#undef CA_NOCUDA_
/* clang-format on */

#endif /* CA_HAVE_CUDA */
#endif /* CA_CUDA_COMPAT_H */

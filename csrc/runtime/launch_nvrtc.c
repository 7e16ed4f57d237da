/*
 * launch_nvrtc.c: user kernels through the launch layer (launch.h says the
 * rules): NVRTC compiles them (loaded on first use through dynlib.c), the CUDA
 * runtime's library API loads the image (cudaLibraryLoadData: context-
 * independent, so one handle serves every device) and cudaLaunchKernel runs a
 * kernel handle of it. No built-in operation comes here: only RawKernel,
 * RawModule, ElementwiseKernel and ReductionKernel compile at run time.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"
#include "dynlib.h"

#include <stdlib.h>
#include <string.h>

/* Flush deferred work, then run and check `call`. */
#define RUN(call) (ca_launch_flush(), CA_LAUNCH_CHECK(call))

void
ca_nvrtc_result_free(ca_nvrtc_result *r)
{
    free(r->image);
    free(r->log);
    for (int i = 0; i < r->nlowered; i++) {
        free(r->lowered[i]);
    }
    free(r->lowered);
    memset(r, 0, sizeof *r);
}

#if CA_HAVE_CUDA

static int
nvrtc_error(const ca_nvrtc_api *api, nvrtcResult st, const char *call)
{
    PyErr_Format(PyExc_RuntimeError, "%s failed: %s (NVRTC status %d)", call,
                 api->GetErrorString(st), (int)st);
    return -1;
}

int
ca_nvrtc_version(int *major, int *minor)
{
    const ca_nvrtc_api *api = ca_nvrtc();
    *major = *minor = 0;
    if (api == NULL) {
        return -1;
    }
    nvrtcResult st = api->Version(major, minor);
    return st == NVRTC_SUCCESS ? 0 : nvrtc_error(api, st, "nvrtcVersion");
}

/* Copy the program's log, image and lowered names into r. (GIL released) */
static nvrtcResult
collect(const ca_nvrtc_api *api, nvrtcProgram prog, int cubin, int nexprs,
        const char *const *exprs, ca_nvrtc_result *r, const char **call)
{
    size_t n = 0;
    nvrtcResult st;
    *call = "nvrtcGetProgramLogSize";
    if ((st = api->GetProgramLogSize(prog, &n)) != NVRTC_SUCCESS) {
        return st;
    }
    r->log = (char *)calloc(n + 1, 1);
    if (r->log == NULL) {
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    *call = "nvrtcGetProgramLog";
    if (n > 0 && (st = api->GetProgramLog(prog, r->log)) != NVRTC_SUCCESS) {
        return st;
    }
    if (!r->ok) {
        return NVRTC_SUCCESS;
    }
    *call = cubin ? "nvrtcGetCUBINSize" : "nvrtcGetPTXSize";
    st = cubin ? api->GetCUBINSize(prog, &n) : api->GetPTXSize(prog, &n);
    if (st != NVRTC_SUCCESS) {
        return st;
    }
    r->image = (char *)calloc(n + 1, 1);
    if (r->image == NULL) {
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    r->image_size = n;
    *call = cubin ? "nvrtcGetCUBIN" : "nvrtcGetPTX";
    st = cubin ? api->GetCUBIN(prog, r->image) : api->GetPTX(prog, r->image);
    if (st != NVRTC_SUCCESS || nexprs == 0) {
        return st;
    }
    r->lowered = (char **)calloc((size_t)nexprs, sizeof(char *));
    if (r->lowered == NULL) {
        return NVRTC_ERROR_OUT_OF_MEMORY;
    }
    *call = "nvrtcGetLoweredName";
    for (int i = 0; i < nexprs; i++) {
        const char *low = NULL;
        if ((st = api->GetLoweredName(prog, exprs[i], &low)) != NVRTC_SUCCESS) {
            return st;
        }
        r->lowered[i] = strdup(low);
        if (r->lowered[i] == NULL) {
            return NVRTC_ERROR_OUT_OF_MEMORY;
        }
        r->nlowered = i + 1;
    }
    return NVRTC_SUCCESS;
}

int
ca_nvrtc_compile(const char *src, const char *name, int nopts, const char *const *opts,
                 int nexprs, const char *const *exprs, int cubin, ca_nvrtc_result *r)
{
    const ca_nvrtc_api *api = ca_nvrtc();
    nvrtcProgram prog = NULL;
    nvrtcResult st;
    const char *call = "nvrtcCreateProgram";
    memset(r, 0, sizeof *r);
    if (api == NULL) {
        return -1;
    }
    Py_BEGIN_ALLOW_THREADS
        st = api->CreateProgram(&prog, src, name, 0, NULL, NULL);
        for (int i = 0; st == NVRTC_SUCCESS && i < nexprs; i++) {
            call = "nvrtcAddNameExpression";
            st = api->AddNameExpression(prog, exprs[i]);
        }
        if (st == NVRTC_SUCCESS) {
            call = "nvrtcCompileProgram";
            st = api->CompileProgram(prog, nopts, opts);
            if (st == NVRTC_SUCCESS || st == NVRTC_ERROR_COMPILATION) {
                r->ok = st == NVRTC_SUCCESS;
                st = collect(api, prog, cubin, nexprs, exprs, r, &call);
            }
        }
        if (prog != NULL) {
            (void)api->DestroyProgram(&prog);
        }
    Py_END_ALLOW_THREADS
    if (st == NVRTC_SUCCESS) {
        return 0;
    }
    ca_nvrtc_result_free(r);
    if (st == NVRTC_ERROR_OUT_OF_MEMORY) {
        PyErr_NoMemory();
        return -1;
    }
    return nvrtc_error(api, st, call);
}

int
ca_run_library_load(void **lib, const void *image)
{
    cudaError_t st;
    *lib = NULL;
    /* Loading may JIT a PTX image: slow, so without the GIL. */
    Py_BEGIN_ALLOW_THREADS
        st = cudaLibraryLoadData((cudaLibrary_t *)lib, image, NULL, NULL, 0, NULL, NULL,
                                 0);
    Py_END_ALLOW_THREADS
    return ca_launch_status((int)st,
                            "cudaLibraryLoadData(&library, image, NULL, NULL, 0, NULL, "
                            "NULL, 0)");
}

int
ca_run_library_get_kernel(void **kernel, void *lib, const char *name)
{
    *kernel = NULL;
    return CA_LAUNCH_CHECK(
        cudaLibraryGetKernel((cudaKernel_t *)kernel, (cudaLibrary_t)lib, name));
}

int
ca_run_library_get_global(void **ptr, size_t *size, void *lib, const char *name)
{
    *ptr = NULL;
    *size = 0;
    return CA_LAUNCH_CHECK(cudaLibraryGetGlobal(ptr, size, (cudaLibrary_t)lib, name));
}

void
ca_library_unload_quiet(void *lib)
{
    cudaError_t st = cudaLibraryUnload((cudaLibrary_t)lib);
    if (st != cudaSuccess && st != cudaErrorCudartUnloading) {
        (void)cudaGetLastError();
        ca_cuda_warn_unraisable((int)st, "cudaLibraryUnload(library)");
    }
}

int
ca_run_launch_kernel(void *kernel, const unsigned *grid, const unsigned *block,
                     void **args, size_t shmem, ca_stream_t stream)
{
    CA_COUNT(launches);
    dim3 g = { grid[0], grid[1], grid[2] };
    dim3 b = { block[0], block[1], block[2] };
    /* A cudaKernel_t from cudaLibraryGetKernel may be passed as the function. */
    return RUN(cudaLaunchKernel((const void *)kernel, g, b, args, shmem,
                                (cudaStream_t)stream));
}

int
ca_run_kernel_attributes(void *kernel, int out[7])
{
    struct cudaFuncAttributes a;
    memset(&a, 0, sizeof a);
    if (CA_LAUNCH_CHECK(cudaFuncGetAttributes(&a, (const void *)kernel)) < 0) {
        return -1;
    }
    out[0] = a.maxThreadsPerBlock;
    out[1] = a.numRegs;
    out[2] = (int)a.sharedSizeBytes;
    out[3] = (int)a.localSizeBytes;
    out[4] = (int)a.constSizeBytes;
    out[5] = a.ptxVersion;
    out[6] = a.binaryVersion;
    return 0;
}

int
ca_run_kernel_set_max_dynamic_shared(void *kernel, int bytes)
{
    return CA_LAUNCH_CHECK(cudaFuncSetAttribute(
        (const void *)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes));
}

#else /* !CA_HAVE_CUDA */

static int
no_cuda(void)
{
    PyErr_SetString(
        PyExc_ImportError,
        "cuarray was built without CUDA: user kernels need NVRTC and a GPU");
    return -1;
}

int
ca_nvrtc_version(int *major, int *minor)
{
    *major = *minor = 0;
    return no_cuda();
}

int
ca_nvrtc_compile(const char *src, const char *name, int nopts, const char *const *opts,
                 int nexprs, const char *const *exprs, int cubin, ca_nvrtc_result *r)
{
    memset(r, 0, sizeof *r);
    return no_cuda();
}

int
ca_run_library_load(void **lib, const void *image)
{
    *lib = NULL;
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaLibraryLoadData");
}

int
ca_run_library_get_kernel(void **kernel, void *lib, const char *name)
{
    *kernel = NULL;
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaLibraryGetKernel");
}

int
ca_run_library_get_global(void **ptr, size_t *size, void *lib, const char *name)
{
    *ptr = NULL;
    *size = 0;
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaLibraryGetGlobal");
}

void
ca_library_unload_quiet(void *lib)
{}

int
ca_run_launch_kernel(void *kernel, const unsigned *grid, const unsigned *block,
                     void **args, size_t shmem, ca_stream_t stream)
{
    CA_COUNT(launches);
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaLaunchKernel");
}

int
ca_run_kernel_attributes(void *kernel, int out[7])
{
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaFuncGetAttributes");
}

int
ca_run_kernel_set_max_dynamic_shared(void *kernel, int bytes)
{
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, "cudaFuncSetAttribute");
}

#endif /* CA_HAVE_CUDA */

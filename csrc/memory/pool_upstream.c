/*
 * pool_upstream.c: the CUDA upstreams of the pools (pool.h) for device, managed
 * and pinned memory: cudaMalloc / cudaMallocManaged / cudaHostAlloc and their
 * frees, and the stream hooks that order a block's reuse across streams. With
 * launch.c, the only csrc/ file that calls the CUDA runtime. Nothing here flushes
 * deferred work or re-enters Python: the pools call these with or without their
 * mutex as pool.h says, and the blocking ones release the GIL.
 */
#include "pool_upstream.h"
#include "cuda_compat.h"
#include "faults.h"

typedef struct {
    int device;
    ca_memkind kind;
    cudaEvent_t ev; /* for cross-stream reuse; made on first need */
} mem_ctx;

#define MAX_DEVICES  64             /* as device.c */
#define SLOT(device) ((device) + 1) /* slot 0: the cpu */

static mem_ctx ctxs[MAX_DEVICES + 1][CA_MEM_NKINDS];

/* The caller made ctx->device current on this thread. */
static int
up_alloc(void *vctx, size_t size, char **out)
{
    mem_ctx *ctx = (mem_ctx *)vctx;
    void *p = NULL, *dp = NULL;
    cudaError_t st;
    /* During a stream capture (runtime/graph.c) an allocation is not captured
     * work: it happens now, and the graph only refers to its address, which
     * the Graph keeps until it dies, so replays are safe. CUDA prohibits such
     * "potentially unsafe" calls on a thread whose capture was begun in global
     * or thread-local mode (cudaErrorStreamCaptureUnsupported, and the capture
     * is invalidated); in relaxed mode they are permitted. So the thread is in
     * relaxed mode for just this call, whatever mode the capture took. (Graph
     * memory nodes, cudaMallocAsync in the capture, would not do: an array made
     * in the capture outlives it, and a graph holding an allocation it never
     * frees cannot be launched again until that memory is freed.) */
    enum cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    if (CA_FAULT(ctx->kind == CA_MEM_PINNED ? CA_FAULT_PINNED_ALLOC
                                            : CA_FAULT_DEVICE_ALLOC)) {
        *out = NULL;
        return (int)cudaErrorMemoryAllocation;
    }
    Py_BEGIN_ALLOW_THREADS
        const cudaError_t mst = cudaThreadExchangeStreamCaptureMode(&mode);
        if (ctx->kind == CA_MEM_DEVICE) {
            st = cudaMalloc(&p, size);
        }
        else if (ctx->kind == CA_MEM_MANAGED) {
            st = cudaMallocManaged(&p, size, cudaMemAttachGlobal);
        }
        else {
            st = cudaHostAlloc(&p, size, cudaHostAllocMapped | cudaHostAllocPortable);
            if (st == cudaSuccess) {
                /* Kernels take the device pointer; with unified addressing (every
             * 64-bit platform CUDA supports) it is the host pointer, so one
             * address serves both sides of a pinned block. */
                st = cudaHostGetDevicePointer(&dp, p, 0);
                if (st == cudaSuccess && dp != p) {
                    st = cudaErrorInvalidValue;
                }
                if (st != cudaSuccess) {
                    (void)cudaFreeHost(p);
                    p = NULL;
                }
            }
        }
        if (mst == cudaSuccess) {
            (void)cudaThreadExchangeStreamCaptureMode(&mode); /* back to the caller's */
        }
        if (st != cudaSuccess) {
            /* A failed allocation also sets the runtime's last error; clear it so
         * the next launch check does not report it. */
            (void)cudaGetLastError();
        }
    Py_END_ALLOW_THREADS
    *out = (char *)p;
    return (int)st;
}

static int
up_free(void *vctx, char *ptr, size_t size)
{
    mem_ctx *ctx = (mem_ctx *)vctx;
    cudaError_t st;
    (void)size;
    Py_BEGIN_ALLOW_THREADS
        st = ctx->kind == CA_MEM_PINNED ? cudaFreeHost(ptr) : cudaFree(ptr);
        if (st != cudaSuccess) {
            (void)cudaGetLastError();
        }
    Py_END_ALLOW_THREADS
    return (int)st;
}

/* Queue on `waiter` a wait for the work queued on `producer` so far: one event,
 * reused (cudaStreamWaitEvent captures the event's state when called). Called
 * with the pool's mutex held, which serializes the use of ctx->ev; nothing here
 * blocks, or touches the GIL. */
static int
up_stream_wait(void *vctx, ca_stream_t waiter, ca_stream_t producer)
{
    mem_ctx *ctx = (mem_ctx *)vctx;
    cudaError_t st = cudaSuccess;
    if (ca_pool_stream_foreign(producer)) {
        /* a stream we did not create may be gone: never touch its handle (pool.h).
         * Rare (the pool then retags every such free block), so the GIL stays held. */
        return (int)cudaDeviceSynchronize();
    }
    waiter = ca_pool_stream_handle(waiter); /* the caller's stream: alive now */
    if (ctx->ev == NULL) {
        st = cudaEventCreateWithFlags(&ctx->ev, cudaEventDisableTiming);
    }
    if (st == cudaSuccess) {
        st = cudaEventRecord(ctx->ev, (cudaStream_t)producer);
    }
    if (st == cudaSuccess) {
        st = cudaStreamWaitEvent((cudaStream_t)waiter, ctx->ev, 0);
    }
    if (st != cudaSuccess) {
        /* waiting for the whole device is always safe. Rare, so the GIL
         * stays held. */
        (void)cudaGetLastError();
        st = cudaDeviceSynchronize();
    }
    return (int)st;
}

static int
up_stream_sync(void *vctx, ca_stream_t stream)
{
    cudaError_t st;
    (void)vctx;
    const int foreign = ca_pool_stream_foreign(stream); /* see pool.h */
    Py_BEGIN_ALLOW_THREADS
        st = foreign ? cudaDeviceSynchronize()
                     : cudaStreamSynchronize((cudaStream_t)stream);
    Py_END_ALLOW_THREADS
    return (int)st;
}

static int
up_device_sync(void *vctx)
{
    cudaError_t st;
    (void)vctx;
    Py_BEGIN_ALLOW_THREADS
        st = cudaDeviceSynchronize();
    Py_END_ALLOW_THREADS
    return (int)st;
}

ca_pool_upstream
ca_pool_cuda_upstream(int device, ca_memkind kind)
{
    mem_ctx *ctx = &ctxs[SLOT(device)][kind];
    ca_pool_upstream up = {
        ctx, up_alloc, up_free, up_stream_wait, up_stream_sync, up_device_sync
    };
    ctx->device = device;
    ctx->kind = kind;
    ctx->ev = NULL;
    return up;
}

int
ca_pool_upstream_out_of_memory(int status)
{
    return status == cudaErrorMemoryAllocation;
}

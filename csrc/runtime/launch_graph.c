/*
 * launch_graph.c: CUDA graphs through the launch layer (cuarray.cuda.Graph, issue 40):
 * stream capture, instantiation, upload, launch and destruction. The Graph type
 * and what a capture keeps alive are in ops/graph.c.
 */
#include "launch.h"
#include "watch.h"
#include "cuda_compat.h"

#if CA_HAVE_CUDA

int
ca_run_stream_begin_capture(ca_stream_t stream, int mode)
{
    /* Deferred work from before the capture stays out of it (the sync flushes).
     * Inside the capture the pools reuse blocks last used on this stream with no
     * wait (pool.h, ca_pool_alloc_capturing); once the stream is idle, that work
     * is done, so the graph can be launched on any stream. */
    if (ca_run_stream_sync(stream) < 0) {
        return -1;
    }
    return CA_LAUNCH_CHECK(
        cudaStreamBeginCapture((cudaStream_t)stream, (enum cudaStreamCaptureMode)mode));
}

int
ca_run_stream_end_capture(ca_stream_t stream, void **graph)
{
    ca_launch_flush(); /* deferred work queued in the capture belongs to it */
    *graph = NULL;
    return CA_LAUNCH_CHECK(
        cudaStreamEndCapture((cudaStream_t)stream, (cudaGraph_t *)graph));
}

int
ca_run_stream_is_capturing(ca_stream_t stream, int *capturing)
{
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    *capturing = 0;
    if (CA_LAUNCH_CHECK(cudaStreamIsCapturing((cudaStream_t)stream, &st)) < 0) {
        return -1;
    }
    *capturing = st == cudaStreamCaptureStatusActive        ? 1
                 : st == cudaStreamCaptureStatusInvalidated ? 2
                                                            : 0;
    return 0;
}

int
ca_run_graph_instantiate(void **exec, void *graph)
{
    *exec = NULL;
    return CA_LAUNCH_CHECK(
        cudaGraphInstantiate((cudaGraphExec_t *)exec, (cudaGraph_t)graph, 0));
}

int
ca_run_graph_upload(void *exec, ca_stream_t stream)
{
    return CA_LAUNCH_CHECK(
        cudaGraphUpload((cudaGraphExec_t)exec, (cudaStream_t)stream));
}

int
ca_run_graph_launch(void *exec, ca_stream_t stream)
{
    CA_COUNT(graph_launches);
    ca_launch_flush(); /* the graph reads what eager work before it wrote */
    return CA_LAUNCH_CHECK(
        cudaGraphLaunch((cudaGraphExec_t)exec, (cudaStream_t)stream));
}

void
ca_graph_destroy_quiet(void *graph, void *exec)
{
    if (exec != NULL) {
        (void)cudaGraphExecDestroy((cudaGraphExec_t)exec);
    }
    if (graph != NULL) {
        (void)cudaGraphDestroy((cudaGraph_t)graph);
    }
    (void)cudaGetLastError();
}

int
ca_capture_end_if_invalidated_quiet(ca_stream_t stream)
{
    enum cudaStreamCaptureStatus st = cudaStreamCaptureStatusNone;
    cudaGraph_t g = NULL;
    if (cudaStreamIsCapturing((cudaStream_t)stream, &st) == cudaSuccess &&
        st == cudaStreamCaptureStatusActive) {
        return 0;
    }
    /* Invalidated: the stream stays in capture mode, refusing work, and the
     * device refuses to synchronize, until the capture is ended; ending it
     * returns an error and no graph. */
    if (st == cudaStreamCaptureStatusInvalidated) {
        (void)cudaStreamEndCapture((cudaStream_t)stream, &g);
        if (g != NULL) {
            (void)cudaGraphDestroy(g);
        }
    }
    (void)cudaGetLastError();
    return 1;
}

#else /* !CA_HAVE_CUDA: no device, so every call says so */

static int
no_device(const char *call)
{
    return ca_launch_status(CA_CUDA_ERROR_NO_DEVICE, call);
}

int
ca_run_stream_begin_capture(ca_stream_t stream, int mode)
{
    return no_device("cudaStreamBeginCapture");
}

int
ca_run_stream_end_capture(ca_stream_t stream, void **graph)
{
    *graph = NULL;
    return no_device("cudaStreamEndCapture");
}

int
ca_run_stream_is_capturing(ca_stream_t stream, int *capturing)
{
    *capturing = 0;
    return 0;
}

int
ca_run_graph_instantiate(void **exec, void *graph)
{
    *exec = NULL;
    return no_device("cudaGraphInstantiate");
}

int
ca_run_graph_upload(void *exec, ca_stream_t stream)
{
    return no_device("cudaGraphUpload");
}

int
ca_run_graph_launch(void *exec, ca_stream_t stream)
{
    CA_COUNT(graph_launches);
    return no_device("cudaGraphLaunch");
}

void
ca_graph_destroy_quiet(void *graph, void *exec)
{}

int
ca_capture_end_if_invalidated_quiet(ca_stream_t stream)
{
    return 1;
}

#endif /* CA_HAVE_CUDA */

/*
 * launch.c: the launch layer over kernels.h and the CUDA runtime (launch.h says
 * the rules). Each checked call is one line: flush, call, check; the checks name
 * the call's own text, so an error message says exactly which call failed.
 */
#include "launch.h"
#include "cuda_compat.h"
#include "watch.h"

#include <string.h>

_Static_assert(CA_CUDA_ERROR_INVALID_VALUE == cudaErrorInvalidValue, "status");
_Static_assert(CA_CUDA_ERROR_MEMORY_ALLOCATION == cudaErrorMemoryAllocation, "status");
_Static_assert(CA_CUDA_ERROR_NO_DEVICE == cudaErrorNoDevice, "status");
_Static_assert(CA_CUDA_ERROR_INVALID_DEVICE == cudaErrorInvalidDevice, "status");


/* The launch layer's view of deferred work (cuarray.h): read by every flush,
 * counted into by fusion.c. */
Py_ssize_t ca_fusion_npending;
uint64_t ca_work_epoch;

int
ca_launch_status(int status, const char *call)
{
    return status == 0 ? 0 : ca_cuda_error_int(status, call);
}

/* Flush deferred work, then run and check `call`. */
#define RUN(call)    (ca_launch_flush(), CA_LAUNCH_CHECK(call))
/* RUN for a kernels.h launcher: counted (cuarray.profiler.counters). */
#define LAUNCH(call) (CA_COUNT(launches), RUN(call))

/* Clear the runtime's sticky "last error" after a failed raw call, so that the
 * next launch check does not report this failure again. */
static int
raw(cudaError_t st)
{
    if (st != cudaSuccess) {
        (void)cudaGetLastError();
    }
    return (int)st;
}

/* A kernels.h call on the cpu device over `work` elements runs without the GIL
 * when it is big enough to pay for the switch. */
static int
nogil(int device, int64_t work)
{
    return device == CA_CPU && work >= CA_HOST_NOGIL_MIN;
}

/* ======================================================================== */
/* kernels.h launchers                                                       */
/* ======================================================================== */

int
ca_run_copy_cast(int device, ca_strided *s, int dst_dtype, int src_dtype,
                 ca_stream_t stream)
{
    return LAUNCH(ca_copy_cast(device, s, dst_dtype, src_dtype, stream));
}

int
ca_run_fill(int device, ca_strided *s, int dtype, const void *value, ca_stream_t stream)
{
    return LAUNCH(ca_fill(device, s, dtype, value, stream));
}

/* Flush, then run the host-or-GPU kernel call `call` into `st`, without the GIL when
 * nogil(device, work); the status is checked against `what`. */
#define RUN_MAYBE_NOGIL(device, work, call, what)                                      \
    do {                                                                               \
        int st;                                                                        \
        CA_COUNT(launches);                                                            \
        ca_launch_flush();                                                             \
        if (nogil(device, work)) {                                                     \
            Py_BEGIN_ALLOW_THREADS                                                     \
                st = (call);                                                           \
            Py_END_ALLOW_THREADS                                                       \
        }                                                                              \
        else {                                                                         \
            st = (call);                                                               \
        }                                                                              \
        return ca_launch_status(st, what);                                             \
    } while (0)

int
ca_run_elementwise(int device, int loop, ca_strided *s, const ca_scalar_arg *scalars,
                   unsigned scalar_mask, ca_stream_t stream, int64_t work,
                   const char *what)
{
    RUN_MAYBE_NOGIL(device, work,
                    ca_elementwise(device, loop, s, scalars, scalar_mask, stream),
                    what);
}

int
ca_run_reduce(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
              ca_stream_t stream, int64_t work, const char *what)
{
    RUN_MAYBE_NOGIL(device, work, ca_reduce(device, op, d, in_dtype, out_dtype, stream),
                    what);
}

int
ca_run_scan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype,
            ca_stream_t stream, int64_t work, const char *what)
{
    RUN_MAYBE_NOGIL(device, work, ca_scan(device, op, d, in_dtype, out_dtype, stream),
                    what);
}

/* uniform and normal take the same arguments (two doubles: low and scale, loc and
 * scale): one wrapper shape. */
#define RUN_RANDOM(kind, a, b)                                                         \
    int ca_run_random_##kind(int device, void *out, int64_t n, int dtype,              \
                             uint64_t seed, uint64_t offset, double a, double b,       \
                             ca_stream_t stream)                                       \
    {                                                                                  \
        return LAUNCH(                                                                 \
            ca_random_##kind(device, out, n, dtype, seed, offset, a, b, stream));      \
    }
RUN_RANDOM(uniform, low, scale)
RUN_RANDOM(normal, loc, scale)

int
ca_run_random_dist(int device, int op, void *out, int64_t n, int dtype, uint64_t seed,
                   uint64_t offset, const ca_rd_params *prm, const uint32_t *words,
                   ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(
        device, n,
        ca_random_dist(device, op, out, n, dtype, seed, offset, prm, words, stream),
        "ca_random_dist(device, op, out, n, dtype, seed, offset, prm, words, stream)");
}

int
ca_run_random_u01_words(int device, void *buf, int64_t n, int dtype, ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, n, ca_random_u01_words(device, buf, n, dtype, stream),
                    "ca_random_u01_words(device, buf, n, dtype, stream)");
}

int
ca_run_random_integers(int device, void *out, int64_t n, int itemsize, uint64_t seed,
                       uint64_t offset, uint64_t low, uint64_t range_m1,
                       ca_stream_t stream)
{
    return LAUNCH(ca_random_integers(device, out, n, itemsize, seed, offset, low,
                                     range_m1, stream));
}

int
ca_run_matmul_tiled(int device, int dtype, int64_t batch, int64_t m, int64_t n,
                    int64_t k, const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk,
                    const void *b, int64_t b_sb, int64_t b_sk, int64_t b_sn, void *c,
                    int64_t c_sb, int64_t c_sm, int64_t c_sn, ca_stream_t stream)
{
    return LAUNCH(ca_matmul_tiled(device, dtype, batch, m, n, k, a, a_sb, a_sm, a_sk, b,
                                  b_sb, b_sk, b_sn, c, c_sb, c_sm, c_sn, stream));
}

/* The index passes take the same arguments (the int is the item size for take
 * and put, the accumulate flag for offsets): one wrapper shape. */
#define RUN_INDEX(pass, arg)                                                           \
    int ca_run_index_##pass(int device, const ca_index_pass *p, int arg,               \
                            int64_t *flag, ca_stream_t stream)                         \
    {                                                                                  \
        return LAUNCH(ca_index_##pass(device, p, arg, flag, stream));                  \
    }
RUN_INDEX(take, itemsize)
RUN_INDEX(put, itemsize)
RUN_INDEX(offsets, accumulate)

int
ca_run_mask_count(int device, const uint8_t *mask, int64_t n, int64_t *scratch,
                  ca_stream_t stream)
{
    return LAUNCH(ca_mask_count(device, mask, n, scratch, stream));
}

int
ca_run_mask_offsets(int device, const uint8_t *mask, int64_t n, const int64_t *scratch,
                    int ndim, const int64_t *shape, const int64_t *strides,
                    int64_t *out, ca_stream_t stream)
{
    return LAUNCH(
        ca_mask_offsets(device, mask, n, scratch, ndim, shape, strides, out, stream));
}

int
ca_run_mask_compress(int device, const char *src, const uint8_t *mask, int64_t n,
                     int64_t block, int64_t count, char *dst)
{
    return LAUNCH(ca_mask_compress(device, src, mask, n, block, count, dst));
}

int
ca_run_masked_fill(int device, ca_strided *s, int itemsize, const void *value,
                   ca_stream_t stream)
{
    return LAUNCH(ca_masked_fill(device, s, itemsize, value, stream));
}

int
ca_run_copy_pieces(int device, const ca_copy_piece *p, int npieces, ca_stream_t stream)
{
    return LAUNCH(ca_copy_pieces(device, p, npieces, stream));
}

int
ca_run_tri_copy(int device, const ca_strided *s, int itemsize, int64_t k, int lower,
                ca_stream_t stream)
{
    return LAUNCH(ca_tri_copy(device, s, itemsize, k, lower, stream));
}

int
ca_run_unravel_index(int device, const int64_t *flat, int64_t n, int ndim,
                     const int64_t *shape, char *out, int64_t out_row, int64_t out_dim,
                     ca_stream_t stream)
{
    return LAUNCH(
        ca_unravel_index(device, flat, n, ndim, shape, out, out_row, out_dim, stream));
}

int
ca_run_readback(int device, void *slot_dev_ptr, const void *src, int itemsize,
                uint64_t seq, ca_stream_t stream)
{
#if CA_HAVE_CUDA
    return LAUNCH(ca_readback_launch(device, slot_dev_ptr, src, itemsize, seq, stream));
#else
    (void)slot_dev_ptr, (void)src, (void)itemsize, (void)seq, (void)stream;
    return ca_launch_status(CA_KERR_NO_CUDA, "ca_readback_launch");
#endif
}

/* sort (sort helper) */
int
ca_run_sort(int device, int dtype, const void *in, int64_t nseg, int64_t n, void *out,
            int64_t *idx, int flags, void *temp, size_t *temp_bytes, ca_stream_t stream)
{
    int st;
    CA_COUNT(launches);
    ca_launch_flush();
    if (temp != NULL && nogil(device, nseg * n)) {
        Py_BEGIN_ALLOW_THREADS
            st = ca_sort(device, dtype, in, nseg, n, out, idx, flags, temp, temp_bytes,
                         stream);
        Py_END_ALLOW_THREADS
    }
    else {
        st = ca_sort(device, dtype, in, nseg, n, out, idx, flags, temp, temp_bytes,
                     stream);
    }
    return ca_launch_status(st, "ca_sort");
}

/* scipy.ndimage: work counted in points (or line elements) */
static int64_t
ndi_points(int ndim, const int64_t *shape)
{
    int64_t n = 1;
    for (int d = 0; d < ndim; d++) {
        n *= shape[d];
    }
    return n;
}

int
ca_run_ndi_filter(int device, const ca_ndi_filter_args *a, const double *in,
                  double *out, const int64_t *offs, const int64_t *loffs,
                  const double *w, double *scratch, int64_t nthreads,
                  ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(
        device, ndi_points(a->ndim, a->shape) * a->nk,
        ca_ndi_filter(device, a, in, out, offs, loffs, w, scratch, nthreads, stream),
        "ca_ndi_filter");
}

int
ca_run_ndi_spline(int device, double *c, int64_t outer, int64_t n, int64_t inner,
                  int order, int mode, ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, outer * n * inner,
                    ca_ndi_spline(device, c, outer, n, inner, order, mode, stream),
                    "ca_ndi_spline");
}

int
ca_run_ndi_map(int device, const ca_ndi_map_args *a, const double *in,
               const double *coords, const double *matrix, double *out,
               ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, a->nout * (a->order + 1),
                    ca_ndi_map(device, a, in, coords, matrix, out, stream),
                    "ca_ndi_map");
}

int
ca_run_ndi_label(int device, const ca_ndi_shape *s, const uint8_t *mask,
                 const int64_t *offs, int64_t nk, int64_t *p, ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, ndi_points(s->ndim, s->shape),
                    ca_ndi_label(device, s, mask, offs, nk, p, stream), "ca_ndi_label");
}

int
ca_run_ndi_edt(int device, double *f, int64_t outer, int64_t n, int64_t inner, double h,
               int64_t *arg, double *scratch, ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, outer * n * inner,
                    ca_ndi_edt(device, f, outer, n, inner, h, arg, scratch, stream),
                    "ca_ndi_edt");
}

/* random permutations (perm helper): ca_perm_sort's two phases */
int
ca_run_perm_sort(int device, const uint32_t *k, const uint32_t *w, int64_t n, int shift,
                 int64_t *perm, int32_t *flag, void *temp, size_t *temp_bytes,
                 ca_stream_t stream)
{
    int st;
    CA_COUNT(launches);
    ca_launch_flush();
    if (temp != NULL && nogil(device, n)) {
        Py_BEGIN_ALLOW_THREADS
            st = ca_perm_sort(device, k, w, n, shift, perm, flag, temp, temp_bytes,
                              stream);
        Py_END_ALLOW_THREADS
    }
    else {
        st = ca_perm_sort(device, k, w, n, shift, perm, flag, temp, temp_bytes, stream);
    }
    return ca_launch_status(st, "ca_perm_sort");
}

int
ca_run_searchsorted(int device, int dtype, const void *a, int64_t n,
                    const int64_t *sorter, const void *v, int64_t nv, int right,
                    int64_t *out, void *temp, ca_stream_t stream)
{
    return LAUNCH(
        ca_searchsorted(device, dtype, a, n, sorter, v, nv, right, out, temp, stream));
}

int
ca_run_bincount(int device, int xdtype, const void *x, int64_t n, const double *w,
                int64_t nbins, void *out, ca_stream_t stream)
{
    return LAUNCH(ca_bincount(device, xdtype, x, n, w, nbins, out, stream));
}
/* end sort */

int
ca_run_ufunc_at(int device, int code, int dtype, void *target, const int64_t *pos,
                int64_t extent, const void *values, int64_t n, int64_t *flag,
                ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(
        device, n,
        ca_ufunc_at(device, code, dtype, target, pos, extent, values, n, flag, stream),
        "ufunc.at");
}

int
ca_run_ufunc_at_check(int device, const int64_t *pos, int64_t n, int64_t extent,
                      int64_t *flag, ca_stream_t stream)
{
    RUN_MAYBE_NOGIL(device, n, ca_ufunc_at_check(device, pos, n, extent, flag, stream),
                    "ufunc.at's index check");
}


int
ca_run_select(int device, int dtype, const void *x, int64_t n, const int64_t *ks,
              int nk, int flags, void *out, void *scratch, ca_stream_t stream)
{
    return LAUNCH(ca_select(device, dtype, x, n, ks, nk, flags, out, scratch, stream));
}

int
ca_rt_elementwise(int device, int loop, ca_strided *s, const ca_scalar_arg *scalars,
                  unsigned scalar_mask, ca_stream_t stream)
{
    CA_COUNT(launches); /* fusion.c's flush: it holds the GIL */
    return ca_elementwise(device, loop, s, scalars, scalar_mask, stream);
}

int
ca_rt_fused_elementwise(int device, int family, const ca_fuse_params *p,
                        ca_stream_t stream)
{
    CA_COUNT(launches);
    return ca_fused_elementwise(device, family, p, stream);
}

int
ca_rt_fused_sum(int device, int family, const ca_fuse_params *p,
                const ca_reduce_desc *d, ca_stream_t stream)
{
    const int rc = ca_fused_sum(device, family, p, d, stream);
    if (rc == 0) {
        CA_COUNT(launches);
    }
    return rc;
}

/* ======================================================================== */
/* Copies and waits                                                          */
/* ======================================================================== */

int
ca_run_memcpy_async(void *dst, const void *src, size_t n, ca_stream_t stream)
{
    return RUN(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, (cudaStream_t)stream));
}

int
ca_run_memcpy_wait(void *dst, const void *src, size_t n, ca_stream_t stream)
{
    cudaError_t st;
    const char *call = "cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, stream)";
    CA_COUNT(syncs);
    ca_launch_flush();
    Py_BEGIN_ALLOW_THREADS
        st = cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, (cudaStream_t)stream);
        if (st == cudaSuccess) {
            call = "cudaStreamSynchronize(stream)";
            st = cudaStreamSynchronize((cudaStream_t)stream);
        }
    Py_END_ALLOW_THREADS
    return ca_launch_status(st, call);
}

int
ca_run_memset_async(void *dst, int value, size_t n, ca_stream_t stream)
{
    return RUN(cudaMemsetAsync(dst, value, n, (cudaStream_t)stream));
}

/* Flush, then wait on `call` without the GIL, counted as a sync; the status is
 * checked against `what`. */
#define RUN_WAIT(call, what)                                                           \
    do {                                                                               \
        cudaError_t st;                                                                \
        CA_COUNT(syncs);                                                               \
        ca_launch_flush();                                                             \
        Py_BEGIN_ALLOW_THREADS                                                         \
            st = (call);                                                               \
        Py_END_ALLOW_THREADS                                                           \
        return ca_launch_status(st, what);                                             \
    } while (0)

int
ca_run_stream_sync(ca_stream_t stream)
{
    RUN_WAIT(cudaStreamSynchronize((cudaStream_t)stream),
             "cudaStreamSynchronize(stream)");
}

int
ca_run_device_sync(void)
{
    RUN_WAIT(cudaDeviceSynchronize(), "cudaDeviceSynchronize()");
}

int
ca_run_event_sync(ca_event_t e)
{
    RUN_WAIT(cudaEventSynchronize((cudaEvent_t)e), "cudaEventSynchronize(event)");
}

int
ca_run_event_record(ca_event_t e, ca_stream_t stream)
{
    return RUN(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)stream));
}

int
ca_run_stream_wait_event(ca_stream_t stream, ca_event_t e)
{
    return RUN(cudaStreamWaitEvent((cudaStream_t)stream, (cudaEvent_t)e, 0));
}

/* One event per device serves every stream-to-stream wait: cudaStreamWaitEvent
 * captures the event's state when it is called, so re-recording it later cannot
 * disturb a wait already queued (the GIL serializes the use of each). */
#define CA_LAUNCH_MAX_DEVICES 64
static cudaEvent_t wait_events[CA_LAUNCH_MAX_DEVICES];

int
ca_run_stream_wait_stream(ca_stream_t consumer, ca_stream_t producer)
{
    int dev = 0;
    ca_launch_flush();
    if (CA_LAUNCH_CHECK(cudaGetDevice(&dev)) < 0) {
        return -1;
    }
    if (dev < 0 || dev >= CA_LAUNCH_MAX_DEVICES) {
        PyErr_Format(PyExc_ValueError, "device %d is out of the launch layer's range",
                     dev);
        return -1;
    }
    cudaEvent_t *ev = &wait_events[dev];
    if (*ev == NULL &&
        CA_LAUNCH_CHECK(cudaEventCreateWithFlags(ev, cudaEventDisableTiming)) < 0) {
        *ev = NULL;
        return -1;
    }
    if (CA_LAUNCH_CHECK(cudaEventRecord(*ev, (cudaStream_t)producer)) < 0) {
        return -1;
    }
    return CA_LAUNCH_CHECK(cudaStreamWaitEvent((cudaStream_t)consumer, *ev, 0));
}

/* 1 done, 0 not ready, -1 error. */
static int
query_result(cudaError_t st, const char *call)
{
    if (st == cudaSuccess) {
        return 1;
    }
    if (st == cudaErrorNotReady) {
        (void)cudaGetLastError();
        return 0;
    }
    return ca_launch_status(st, call);
}

int
ca_run_event_query(ca_event_t e)
{
    ca_launch_flush();
    return query_result(cudaEventQuery((cudaEvent_t)e), "cudaEventQuery(event)");
}

int
ca_run_stream_query(ca_stream_t stream)
{
    ca_launch_flush();
    return query_result(cudaStreamQuery((cudaStream_t)stream),
                        "cudaStreamQuery(stream)");
}

int
ca_rt_memcpy_async(void *dst, const void *src, size_t n, ca_stream_t stream)
{
    return raw(cudaMemcpyAsync(dst, src, n, cudaMemcpyDefault, (cudaStream_t)stream));
}

int
ca_rt_stream_sync(ca_stream_t stream)
{
    return raw(cudaStreamSynchronize((cudaStream_t)stream));
}

int
ca_rt_event_record(ca_event_t e, ca_stream_t stream)
{
    return raw(cudaEventRecord((cudaEvent_t)e, (cudaStream_t)stream));
}

int
ca_rt_event_sync(ca_event_t e)
{
    return raw(cudaEventSynchronize((cudaEvent_t)e));
}

/* ======================================================================== */
/* Streams and events                                                        */
/* ======================================================================== */

int
ca_run_stream_create(ca_stream_t *s, unsigned flags)
{
    cudaStream_t h = NULL;
    unsigned cf =
        (flags & CA_STREAM_NON_BLOCKING) ? cudaStreamNonBlocking : cudaStreamDefault;
    if (CA_LAUNCH_CHECK(cudaStreamCreateWithFlags(&h, cf)) < 0) {
        return -1;
    }
    *s = (ca_stream_t)h;
    return 0;
}

void
ca_stream_destroy_quiet(ca_stream_t s)
{
    ca_cuda_warn_unraisable(raw(cudaStreamDestroy((cudaStream_t)s)),
                            "cudaStreamDestroy(s)");
}

/* cuarray's flag bits -> the runtime's, by { ours, CUDA's } pairs (events and
 * host registration spell the same translation). */
typedef struct {
    unsigned ours, cuda;
} flag_map;

static unsigned
map_flags(unsigned flags, const flag_map *m, size_t n)
{
    unsigned cf = 0;
    for (size_t i = 0; i < n; i++) {
        cf |= (flags & m[i].ours) ? m[i].cuda : 0u;
    }
    return cf;
}
#define MAP_FLAGS(flags, m) map_flags(flags, m, sizeof(m) / sizeof(m[0]))

static const flag_map event_map[] = {
    { CA_EVENT_BLOCKING_SYNC, cudaEventBlockingSync },
    { CA_EVENT_DISABLE_TIMING, cudaEventDisableTiming },
    { CA_EVENT_INTERPROCESS, cudaEventInterprocess },
};

int
ca_rt_event_create(ca_event_t *e, unsigned flags)
{
    cudaEvent_t h = NULL;
    int st = raw(cudaEventCreateWithFlags(&h, MAP_FLAGS(flags, event_map)));
    *e = (ca_event_t)h;
    return st;
}

int
ca_run_event_create(ca_event_t *e, unsigned flags)
{
    return ca_launch_status(ca_rt_event_create(e, flags),
                            "cudaEventCreateWithFlags(&e, flags)");
}

int
ca_rt_event_destroy(ca_event_t e)
{
    return raw(cudaEventDestroy((cudaEvent_t)e));
}

void
ca_event_destroy_quiet(ca_event_t e)
{
    ca_cuda_warn_unraisable(raw(cudaEventDestroy((cudaEvent_t)e)),
                            "cudaEventDestroy(e)");
}

int
ca_run_event_elapsed(float *ms, ca_event_t start, ca_event_t end)
{
    return CA_LAUNCH_CHECK(
        cudaEventElapsedTime(ms, (cudaEvent_t)start, (cudaEvent_t)end));
}

/* ======================================================================== */
/* Devices                                                                   */
/* ======================================================================== */

int
ca_rt_device_count(int *n)
{
    *n = 0;
    int st = raw(cudaGetDeviceCount(n));
    if (st != 0) {
        *n = 0;
    }
    return st;
}

int
ca_rt_get_device(int *device)
{
    return raw(cudaGetDevice(device));
}

int
ca_rt_set_device(int device)
{
    return raw(cudaSetDevice(device));
}

int
ca_run_set_device(int device)
{
    return CA_LAUNCH_CHECK(cudaSetDevice(device));
}

int
ca_run_device_props(int device, ca_device_props *p)
{
    struct cudaDeviceProp prop;
    cudaError_t st;
    memset(&prop, 0, sizeof prop);
    /* The first query on a device may create its context: slow, so without the
     * GIL. */
    Py_BEGIN_ALLOW_THREADS
        st = cudaGetDeviceProperties(&prop, device);
    Py_END_ALLOW_THREADS
    if (ca_launch_status(st, "cudaGetDeviceProperties(&prop, device)") < 0) {
        return -1;
    }
    memcpy(p->name, prop.name, sizeof p->name);
    p->name[sizeof p->name - 1] = '\0';
    p->total_memory = prop.totalGlobalMem;
    p->major = prop.major;
    p->minor = prop.minor;
    p->multiprocessors = prop.multiProcessorCount;
    return 0;
}

int
ca_run_mem_get_info(size_t *free_bytes, size_t *total_bytes)
{
    cudaError_t st;
    *free_bytes = *total_bytes = 0;
    Py_BEGIN_ALLOW_THREADS /* as above: may create the context */
        st = cudaMemGetInfo(free_bytes, total_bytes);
    Py_END_ALLOW_THREADS
    return ca_launch_status(st, "cudaMemGetInfo(&free, &total)");
}

int
ca_runtime_version(void)
{
    int v = 0;
    return raw(cudaRuntimeGetVersion(&v)) == 0 ? v : 0;
}

int
ca_runtime_build_version(void)
{
#if CA_HAVE_CUDA
    return CUDART_VERSION;
#else
    return 0;
#endif
}

int
ca_driver_version(void)
{
    int v = 0;
    return raw(cudaDriverGetVersion(&v)) == 0 ? v : 0;
}

/* ======================================================================== */
/* Host memory and pointers                                                  */
/* ======================================================================== */

int
ca_rt_pointer_info(const void *p, ca_pointer_info *info)
{
    struct cudaPointerAttributes attr;
    memset(&attr, 0, sizeof attr);
    memset(info, 0, sizeof *info);
    int st = raw(cudaPointerGetAttributes(&attr, p));
    if (st != 0) {
        return st;
    }
    switch (attr.type) {
    case cudaMemoryTypeHost: info->type = CA_PTR_HOST; break;
    case cudaMemoryTypeDevice: info->type = CA_PTR_DEVICE; break;
    case cudaMemoryTypeManaged: info->type = CA_PTR_MANAGED; break;
    default: info->type = CA_PTR_UNREGISTERED; break;
    }
    info->device = attr.device;
    info->device_ptr = attr.devicePointer;
    info->host_ptr = attr.hostPointer;
    return 0;
}

int
ca_rt_host_register(void *p, size_t n, unsigned flags)
{
    static const flag_map m[] = {
        { CA_HOST_REGISTER_PORTABLE, cudaHostRegisterPortable },
        { CA_HOST_REGISTER_MAPPED, cudaHostRegisterMapped },
        { CA_HOST_REGISTER_READ_ONLY, cudaHostRegisterReadOnly },
    };
    return raw(cudaHostRegister(p, n, MAP_FLAGS(flags, m)));
}

int
ca_rt_host_unregister(void *p)
{
    return raw(cudaHostUnregister(p));
}

int
ca_rt_host_device_pointer(void **device_ptr, void *host_ptr)
{
    *device_ptr = NULL;
    return raw(cudaHostGetDevicePointer(device_ptr, host_ptr, 0));
}

int
ca_rt_host_alloc(void **p, size_t n, int mapped)
{
    unsigned flags = cudaHostAllocPortable | (mapped ? cudaHostAllocMapped : 0);
    *p = NULL;
    int st = raw(cudaHostAlloc(p, n, flags));
    if (st != 0) {
        *p = NULL;
    }
    return st;
}

int
ca_rt_host_free(void *p)
{
    return raw(cudaFreeHost(p));
}

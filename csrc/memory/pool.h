/*
 * pool.h: a stream-ordered caching allocator over an explicit upstream.
 *
 * Plain C11 (no Python, no CUDA headers): compiled into cuarray._core and, alone,
 * into tests/c/test_pool.c against a malloc upstream.
 *
 * - Requests are rounded up to CA_POOL_ALIGN (512) bytes, never to powers of two.
 * - Small requests (<= CA_POOL_SMALL_MAX) are carved out of CA_POOL_SMALL_SEGMENT
 *   segments and found in exact size-class bins (one per 512 bytes) through a
 *   two-level bitmap; large requests get their own segment of the rounded size
 *   and are found by best fit (a treap keyed by size) with splitting. A freed
 *   block merges with free neighbours of its segment.
 * - Stream order: a block remembers the stream it was allocated on. Freed, it is
 *   reusable at once on that stream; on another stream the pool first makes the
 *   new stream wait for the old one (upstream->stream_wait, which records an
 *   event and queues a wait: no host blocking, nothing done on free).
 * - The pool's mutex is never held across upstream alloc/free/synchronize calls
 *   (the CUDA upstreams release the GIL there; holding the mutex would deadlock
 *   against a thread that holds the GIL and waits for the mutex).
 */
#ifndef CA_POOL_H
#define CA_POOL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Same typedef as kernels.h (a repeated identical typedef is valid C11). */
typedef struct CUstream_st *ca_stream_t;

#define CA_POOL_ALIGN         ((size_t)512)
#define CA_POOL_SMALL_MAX     ((size_t)1 << 20) /* 1 MiB */
#define CA_POOL_SMALL_SEGMENT ((size_t)2 << 20) /* 2 MiB */

/* Status codes of the pool itself (upstream statuses are positive). */
#define CA_POOL_ENOMEM (-1) /* host memory for bookkeeping, or the malloc upstream */
#define CA_POOL_ELIMIT (-2) /* the pool's limit would be exceeded */
#define CA_POOL_EINVAL (-3) /* request too large to represent */

/* A stream tag meaning "no pending work: usable on any stream". */
#define CA_POOL_STREAM_ANY ((ca_stream_t)(uintptr_t)-1)

/* A tag with this bit set names a stream the pool's owner did not create
 * (CuPy's, PyTorch's, an ExternalStream's): its owner may destroy it at any
 * time without telling us, and a destroyed handle must never reach CUDA again
 * (a use after free in the driver). The upstream waits for the whole device
 * instead of such a stream, and one such wait makes every free block of every
 * foreign stream reusable anywhere. Stream handles are pointers, so the bit is
 * free. */
#define CA_POOL_STREAM_FOREIGN_BIT ((uintptr_t)1)

static inline int
ca_pool_stream_foreign(ca_stream_t s)
{
    return s != CA_POOL_STREAM_ANY && ((uintptr_t)s & CA_POOL_STREAM_FOREIGN_BIT) != 0;
}

/* The stream a tag names (the foreign bit cleared). */
static inline ca_stream_t
ca_pool_stream_handle(ca_stream_t s)
{
    return (ca_stream_t)((uintptr_t)s & ~CA_POOL_STREAM_FOREIGN_BIT);
}

/*
 * The upstream. alloc/free/stream_sync/device_sync may block and are always
 * called with the pool's mutex released; stream_wait must not block (it is
 * called with the mutex held). Statuses: 0 ok, else nonzero (returned to the
 * caller of the pool as is). The three stream hooks are NULL for an upstream
 * without streams (host memory): then every block is reusable at once.
 */
typedef struct {
    void *ctx;
    int (*alloc)(void *ctx, size_t size, char **ptr);
    int (*free)(void *ctx, char *ptr, size_t size);
    /* Make `waiter` wait (on the device, not the host) for all the work queued
     * on `producer` so far. */
    int (*stream_wait)(void *ctx, ca_stream_t waiter, ca_stream_t producer);
    /* Block the host until the work queued on `stream` is done. */
    int (*stream_sync)(void *ctx, ca_stream_t stream);
    /* Block the host until the device is idle. */
    int (*device_sync)(void *ctx);
} ca_pool_upstream;

typedef struct ca_pool ca_pool;
typedef struct ca_block ca_block;
typedef struct ca_segment ca_segment;

/* A block: read-only outside pool.c. */
struct ca_block {
    char *ptr;
    size_t size;           /* rounded */
    size_t requested;      /* as asked (in use), else 0 */
    ca_block *prev, *next; /* address neighbours within the segment */
    ca_segment *seg;
    ca_stream_t stream; /* allocated on / freed on; CA_POOL_STREAM_ANY */
    uint64_t free_seq;  /* the pool's free counter when freed */
    int is_free;
    /* free index: bin list (small segments) or treap (large segments) */
    ca_block *fprev, *fnext;
    ca_block *left, *right;
    uint32_t prio;
};

typedef struct {
    size_t used_bytes;      /* rounded sizes of blocks in use */
    size_t requested_bytes; /* requested sizes of blocks in use */
    size_t total_bytes;     /* reserved from the upstream */
    size_t free_bytes;      /* total - used: cached */
    size_t peak_used_bytes;
    size_t peak_requested_bytes;
    size_t peak_total_bytes;
    size_t largest_free_block;
    size_t limit; /* 0: none */
    size_t n_segments;
    size_t n_used_blocks;
    size_t n_free_blocks;
    uint64_t n_allocs; /* successful nonzero allocations */
    uint64_t n_frees;
    uint64_t n_upstream_allocs;
    uint64_t n_upstream_frees;
    uint64_t n_stream_waits; /* cross-stream reuses */
    uint64_t n_trims;        /* wholly free segments released to grow */
    uint64_t n_oom_retries;  /* cache released and retried */
    uint64_t n_oom_errors;   /* requests that failed after the retry */
} ca_pool_stats;

/* A new pool over `up` (copied). NULL when out of host memory. */
ca_pool *ca_pool_new(const ca_pool_upstream *up);
/* Release every segment (live blocks or not) to the upstream and free the pool.
 * Returns the first upstream error, freeing everything regardless. */
int ca_pool_destroy(ca_pool *p);

/* Allocate `nbytes` for use on `stream`. nbytes == 0: *out = NULL, returns 0.
 * On failure (after releasing cached blocks and retrying once) returns a status
 * and leaves *out NULL; the pool stays usable. */
int ca_pool_alloc(ca_pool *p, size_t nbytes, ca_stream_t stream, ca_block **out);
/* ca_pool_alloc for a thread capturing `stream` into a CUDA graph (memory.c):
 * no upstream call that waits or synchronizes, which CUDA refuses during a
 * capture (and which would invalidate it). Serves only cached blocks that need
 * no cross-stream wait (of `stream` or of no stream), else a new segment; no
 * trim, and no release-and-retry when the upstream is out of memory. */
int ca_pool_alloc_capturing(ca_pool *p, size_t nbytes, ca_stream_t stream,
                            ca_block **out);
/* Return a block to the pool (never calls the upstream). NULL is a no-op. */
void ca_pool_free(ca_pool *p, ca_block *b);
/* Return every wholly free segment to the upstream (after waiting for the
 * device, so that blocks freed on different streams can merge). Returns the
 * first upstream error, or 0. */
int ca_pool_release_cached(ca_pool *p);
/* Before `stream` is destroyed: wait for it, then retag its blocks as usable on
 * any stream (a destroyed stream must never be waited on). */
int ca_pool_forget_stream(ca_pool *p, ca_stream_t stream);

void ca_pool_set_limit(ca_pool *p, size_t limit);
size_t ca_pool_get_limit(ca_pool *p);
void ca_pool_get_stats(ca_pool *p, ca_pool_stats *s);
/* Restart the peak statistics from the current values. */
void ca_pool_reset_peaks(ca_pool *p);
/* Check every invariant (address order, no overlap, free index, statistics).
 * Returns 0 or a line number of pool.c where a check failed. For tests. */
int ca_pool_check(ca_pool *p);

/* A malloc upstream (host memory, 512-byte aligned), with no streams. */
extern const ca_pool_upstream ca_pool_malloc_upstream;

#ifdef __cplusplus
}
#endif
#endif /* CA_POOL_H */

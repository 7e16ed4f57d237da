/*
 * pool.c: the stream-ordered caching allocator described in pool.h.
 *
 * Knows nothing of Python or CUDA: memory comes from the upstream's function
 * pointers. Every entry point takes the pool's mutex; the mutex is dropped
 * around every upstream call that may block (see pool.h for why).
 */
#define _DEFAULT_SOURCE /* posix_memalign, madvise's MADV_HUGEPAGE */
#include "pool.h"
#include "faults.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define NBINS        ((int)(CA_POOL_SMALL_SEGMENT / CA_POOL_ALIGN)) /* 4096: 512 B .. 2 MiB */
#define NWORDS       (NBINS / 64) /* 64 bitmap words */
#define CHUNK_BLOCKS 128
#define ANY          CA_POOL_STREAM_ANY

struct ca_segment {
    char *base;
    size_t size;
    ca_block *first;         /* lowest address */
    int small;               /* blocks indexed by bins (else by the treap) */
    ca_stream_t pending;     /* being released: the stream to wait for */
    ca_segment *prev, *next; /* the pool's segment list */
};

typedef struct block_chunk {
    struct block_chunk *next;
    ca_block blocks[CHUNK_BLOCKS];
} block_chunk;

struct ca_pool {
    pthread_mutex_t mutex;
    ca_pool_upstream up;
    int has_streams;
    /* free small blocks: one list per size (512-byte step), with a bitmap of
     * the non-empty lists and a summary bit per bitmap word */
    ca_block *bins[NBINS];
    uint64_t bitmap[NWORDS];
    uint64_t summary;
    /* free blocks of large segments, keyed by (size, address) */
    ca_block *treap;
    ca_segment *segments;
    ca_block *spare;     /* unused block records (linked by fnext) */
    block_chunk *chunks; /* where the records live */
    uint64_t free_seq;   /* counts frees; see release_cached_locked */
    size_t inflight;     /* bytes being requested from the upstream now */
    ca_pool_stats st;    /* kept up to date except free/largest (computed) */
};

static inline void
lock(ca_pool *p)
{
    pthread_mutex_lock(&p->mutex);
}
static inline void
unlock(ca_pool *p)
{
    pthread_mutex_unlock(&p->mutex);
}

/* ======================================================================== */
/* Block records                                                            */
/* ======================================================================== */

static ca_block *
block_get(ca_pool *p)
{
    ca_block *b = p->spare;
    if (b == NULL) {
        block_chunk *c = (block_chunk *)malloc(sizeof(block_chunk));
        if (c == NULL) {
            return NULL;
        }
        c->next = p->chunks;
        p->chunks = c;
        for (int i = CHUNK_BLOCKS - 1; i >= 0; i--) {
            c->blocks[i].fnext = p->spare;
            p->spare = &c->blocks[i];
        }
        b = p->spare;
    }
    p->spare = b->fnext;
    memset(b, 0, sizeof(*b));
    return b;
}

static void
block_put(ca_pool *p, ca_block *b)
{
    b->fnext = p->spare;
    p->spare = b;
}

/* ======================================================================== */
/* Free index: bins for small segments, a treap for large ones              */
/* ======================================================================== */

static inline int
bin_of(size_t size)
{
    return (int)(size / CA_POOL_ALIGN) - 1;
}

static inline int
ctz64(uint64_t x)
{
    return __builtin_ctzll(x);
}

static inline int
clz64(uint64_t x)
{
    return __builtin_clzll(x);
}

static void
bin_insert(ca_pool *p, ca_block *b)
{
    int i = bin_of(b->size);
    b->fprev = NULL;
    b->fnext = p->bins[i];
    if (b->fnext != NULL) {
        b->fnext->fprev = b;
    }
    p->bins[i] = b;
    p->bitmap[i >> 6] |= (uint64_t)1 << (i & 63);
    p->summary |= (uint64_t)1 << (i >> 6);
}

static void
bin_remove(ca_pool *p, ca_block *b)
{
    int i = bin_of(b->size);
    if (b->fprev != NULL) {
        b->fprev->fnext = b->fnext;
    }
    else {
        p->bins[i] = b->fnext;
    }
    if (b->fnext != NULL) {
        b->fnext->fprev = b->fprev;
    }
    b->fprev = b->fnext = NULL;
    if (p->bins[i] == NULL) {
        p->bitmap[i >> 6] &= ~((uint64_t)1 << (i & 63));
        if (p->bitmap[i >> 6] == 0) {
            p->summary &= ~((uint64_t)1 << (i >> 6));
        }
    }
}

/* The smallest non-empty bin holding blocks of at least `size`, or -1. */
static int
bin_find(const ca_pool *p, size_t size)
{
    int i = bin_of(size);
    int w = i >> 6;
    uint64_t bits = p->bitmap[w] & (~(uint64_t)0 << (i & 63));
    if (bits == 0) {
        uint64_t s = w + 1 < NWORDS ? p->summary & (~(uint64_t)0 << (w + 1)) : 0;
        if (s == 0) {
            return -1;
        }
        w = ctz64(s);
        bits = p->bitmap[w];
    }
    return (w << 6) + ctz64(bits);
}

static inline int
key_less(const ca_block *a, const ca_block *b)
{
    return a->size < b->size || (a->size == b->size && a->ptr < b->ptr);
}

static uint32_t
prio_of(const char *ptr)
{
    /* splitmix64 of the address: a fixed pseudo-random priority per address */
    uint64_t z = (uint64_t)(uintptr_t)ptr + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)(z ^ (z >> 31));
}

/* Split t into keys < x (l) and keys >= x (r). */
static void
treap_split(ca_block *t, const ca_block *x, ca_block **l, ca_block **r)
{
    if (t == NULL) {
        *l = *r = NULL;
    }
    else if (key_less(t, x)) {
        treap_split(t->right, x, &t->right, r);
        *l = t;
    }
    else {
        treap_split(t->left, x, l, &t->left);
        *r = t;
    }
}

/* Join a and b where every key of a is below every key of b. */
static ca_block *
treap_join(ca_block *a, ca_block *b)
{
    if (a == NULL) {
        return b;
    }
    if (b == NULL) {
        return a;
    }
    if (a->prio > b->prio) {
        a->right = treap_join(a->right, b);
        return a;
    }
    b->left = treap_join(a, b->left);
    return b;
}

static void
treap_insert(ca_pool *p, ca_block *x)
{
    ca_block *l, *r;
    x->left = x->right = NULL;
    x->prio = prio_of(x->ptr);
    treap_split(p->treap, x, &l, &r);
    p->treap = treap_join(treap_join(l, x), r);
}

static void
treap_remove(ca_pool *p, ca_block *x)
{
    ca_block **link = &p->treap;
    while (*link != x) {
        link = key_less(x, *link) ? &(*link)->left : &(*link)->right;
    }
    *link = treap_join(x->left, x->right);
    x->left = x->right = NULL;
}

/* Best fit: the smallest free large block of at least `size`. */
static ca_block *
treap_lower_bound(const ca_pool *p, size_t size)
{
    ca_block *best = NULL;
    for (ca_block *t = p->treap; t != NULL;) {
        if (t->size >= size) {
            best = t;
            t = t->left;
        }
        else {
            t = t->right;
        }
    }
    return best;
}

static void
index_insert(ca_pool *p, ca_block *b)
{
    if (b->seg->small) {
        bin_insert(p, b);
    }
    else {
        treap_insert(p, b);
    }
    p->st.n_free_blocks++;
}

static void
index_remove(ca_pool *p, ca_block *b)
{
    p->st.n_free_blocks--;
    if (b->seg->small) {
        bin_remove(p, b);
    }
    else {
        treap_remove(p, b);
    }
}

/* ======================================================================== */
/* Splitting and merging                                                    */
/* ======================================================================== */

/* Two free neighbours may merge when no stream's pending work would be lost:
 * same stream, or one of them has no pending work. */
static inline int
mergeable(const ca_pool *p, ca_stream_t a, ca_stream_t b)
{
    return !p->has_streams || a == b || a == ANY || b == ANY;
}

/* b absorbs its free right neighbour n (both out of the index). */
static void
absorb(ca_pool *p, ca_block *b, ca_block *n)
{
    b->size += n->size;
    b->next = n->next;
    if (n->next != NULL) {
        n->next->prev = b;
    }
    if (b->stream == ANY) {
        b->stream = n->stream;
    }
    if (n->free_seq > b->free_seq) {
        b->free_seq = n->free_seq;
    }
    block_put(p, n);
}

/* After a wait for the whole device: no free block of a foreign stream has
 * pending work left. (Blocks in use keep their tag: work queued on them after
 * the wait is ordered only by their stream.) Lock held. */
static void
retag_free_foreign(ca_pool *p)
{
    for (ca_segment *s = p->segments; s != NULL; s = s->next) {
        for (ca_block *b = s->first; b != NULL; b = b->next) {
            if (b->is_free && ca_pool_stream_foreign(b->stream)) {
                b->stream = ANY;
            }
        }
    }
}

/* Hand out free block b (not in the index) for `size` bytes on `stream`.
 * Lock held. On error b is unchanged. */
static int
carve(ca_pool *p, ca_block *b, size_t size, size_t nbytes, ca_stream_t stream)
{
    if (p->has_streams && b->stream != stream && b->stream != ANY) {
        const int foreign = ca_pool_stream_foreign(b->stream);
        int st = p->up.stream_wait(p->up.ctx, stream, b->stream);
        if (st != 0) {
            return st;
        }
        p->st.n_stream_waits++;
        if (foreign) {
            retag_free_foreign(p); /* that wait was for the whole device */
        }
    }
    if (b->size > size) {
        ca_block *r = block_get(p);
        /* Without a record for the remainder, hand out the whole block. */
        if (r != NULL) {
            r->ptr = b->ptr + size;
            r->size = b->size - size;
            r->seg = b->seg;
            r->prev = b;
            r->next = b->next;
            if (b->next != NULL) {
                b->next->prev = r;
            }
            b->next = r;
            b->size = size;
            /* the remainder keeps the old tag: its pending work is unchanged */
            r->stream = b->stream;
            r->free_seq = b->free_seq;
            r->is_free = 1;
            index_insert(p, r);
        }
    }
    b->is_free = 0;
    b->stream = stream;
    b->requested = nbytes;
    p->st.used_bytes += b->size;
    p->st.requested_bytes += nbytes;
    p->st.n_used_blocks++;
    p->st.n_allocs++;
    if (p->st.used_bytes > p->st.peak_used_bytes) {
        p->st.peak_used_bytes = p->st.used_bytes;
    }
    if (p->st.requested_bytes > p->st.peak_requested_bytes) {
        p->st.peak_requested_bytes = p->st.requested_bytes;
    }
    return 0;
}

/* b needs a cross-stream wait before use on `stream`. */
static int
needs_wait(const ca_pool *p, const ca_block *b, ca_stream_t stream)
{
    return p->has_streams && b->stream != stream && b->stream != ANY;
}

/* A cached block for the request, or NULL (*status set on a hook error).
 * no_wait: only a block that needs no cross-stream wait. */
static ca_block *
take_cached(ca_pool *p, size_t size, size_t nbytes, ca_stream_t stream, int no_wait,
            int *status)
{
    ca_block *b;
    *status = 0;
    if (size <= CA_POOL_SMALL_MAX) {
        int i = bin_find(p, size);
        if (i < 0) {
            return NULL;
        }
        b = p->bins[i];
        if (needs_wait(p, b, stream)) {
            /* Prefer a block of the same size that needs no cross-stream wait. */
            ca_block *c = b->fnext;
            for (int k = 0; c != NULL && k < 8; k++, c = c->fnext) {
                if (!needs_wait(p, c, stream)) {
                    b = c;
                    break;
                }
            }
        }
    }
    else {
        b = treap_lower_bound(p, size);
        if (b == NULL) {
            return NULL;
        }
    }
    if (no_wait && needs_wait(p, b, stream)) {
        return NULL; /* a new segment instead */
    }
    index_remove(p, b);
    *status = carve(p, b, size, nbytes, stream);
    if (*status != 0) {
        index_insert(p, b);
        return NULL;
    }
    return b;
}

/* A new segment from the upstream, carved for the request. Lock held on entry
 * and on return, dropped around the upstream call. */
static int
grow(ca_pool *p, size_t size, size_t nbytes, ca_stream_t stream, ca_block **out)
{
    int small = size <= CA_POOL_SMALL_MAX;
    size_t seg_size = small ? CA_POOL_SMALL_SEGMENT : size, asked;
    ca_segment *seg = NULL;
    ca_block *b = NULL;
    char *base = NULL;
    int st;

    if (p->st.limit != 0) {
        size_t held = p->st.total_bytes + p->inflight;
        size_t avail = p->st.limit > held ? p->st.limit - held : 0;
        if (seg_size > avail) {
            /* Near the limit a small request gets a segment of its own size. */
            if (small && size <= avail) {
                seg_size = size;
            }
            else {
                return CA_POOL_ELIMIT;
            }
        }
    }
    seg = (ca_segment *)malloc(sizeof(ca_segment));
    b = block_get(p);
    if (seg == NULL || b == NULL) {
        free(seg);
        if (b != NULL) {
            block_put(p, b);
        }
        return CA_POOL_ENOMEM;
    }
    asked = seg_size;
    p->inflight += asked;
    unlock(p);
    st = p->up.alloc(p->up.ctx, seg_size, &base);
    if (st != 0 && seg_size > size) {
        /* The upstream is nearly full: a segment of the request's size may fit. */
        st = p->up.alloc(p->up.ctx, size, &base);
        if (st == 0) {
            seg_size = size;
        }
    }
    lock(p);
    p->inflight -= asked;
    if (st == 0 && base == NULL) {
        st = CA_POOL_ENOMEM;
    }
    if (st != 0) {
        block_put(p, b);
        free(seg);
        return st;
    }
    *seg = (ca_segment){
        .base = base, .size = seg_size, .first = b, .small = small, .next = p->segments
    };
    if (p->segments != NULL) {
        p->segments->prev = seg;
    }
    p->segments = seg;
    p->st.total_bytes += seg_size;
    p->st.n_segments++;
    p->st.n_upstream_allocs++;
    if (p->st.total_bytes > p->st.peak_total_bytes) {
        p->st.peak_total_bytes = p->st.total_bytes;
    }
    b->ptr = base;
    b->size = seg_size;
    b->seg = seg;
    b->stream = ANY;
    b->is_free = 1;
    st = carve(p, b, size, nbytes, stream); /* no wait: ANY */
    if (st != 0) {
        index_insert(p, b);
        return st;
    }
    *out = b;
    return 0;
}

/* Merge every pair of free mergeable neighbours of every segment. Lock held. */
static void
coalesce_all(ca_pool *p)
{
    for (ca_segment *s = p->segments; s != NULL; s = s->next) {
        ca_block *b = s->first;
        while (b != NULL) {
            ca_block *n = b->next;
            if (b->is_free && n != NULL && n->is_free &&
                mergeable(p, b->stream, n->stream)) {
                index_remove(p, b);
                index_remove(p, n);
                absorb(p, b, n);
                index_insert(p, b);
                continue; /* b may merge with its new neighbour too */
            }
            b = n;
        }
    }
}

/* Return wholly free segments to the upstream. Lock held on entry and return.
 *
 * With streams, first wait for the device: then every block freed before the
 * wait has no pending work (tag ANY), so free blocks of different streams can
 * merge into wholly free segments. Blocks freed by other threads while the lock
 * was dropped carry a later free_seq and keep their tag. */
static int
release_cached_locked(ca_pool *p, int wait_device, size_t below)
{
    ca_segment *done = NULL;
    int first_err = 0;
    uint64_t n = 0;

    if (wait_device && p->has_streams && p->up.device_sync != NULL &&
        p->st.n_free_blocks > 0) {
        uint64_t seq0 = p->free_seq;
        int st;
        unlock(p);
        st = p->up.device_sync(p->up.ctx);
        lock(p);
        if (st == 0) {
            for (ca_segment *s = p->segments; s != NULL; s = s->next) {
                for (ca_block *b = s->first; b != NULL; b = b->next) {
                    if (b->is_free && b->free_seq <= seq0) {
                        b->stream = ANY;
                    }
                }
            }
            coalesce_all(p);
        }
        else {
            first_err = st;
        }
    }
    for (ca_segment *s = p->segments, *next; s != NULL; s = next) {
        next = s->next;
        if (s->first->is_free && s->first->next == NULL &&
            (below == 0 || (!s->small && s->size < below))) {
            index_remove(p, s->first);
            if (s->prev != NULL) {
                s->prev->next = s->next;
            }
            else {
                p->segments = s->next;
            }
            if (s->next != NULL) {
                s->next->prev = s->prev;
            }
            /* the stream whose queued work may still use the segment */
            s->pending = s->first->stream;
            block_put(p, s->first);
            s->first = NULL;
            p->st.total_bytes -= s->size;
            p->st.n_segments--;
            s->next = done;
            done = s;
        }
    }
    if (done == NULL) {
        return first_err;
    }
    unlock(p);
    while (done != NULL) {
        ca_segment *s = done;
        int st = 0;
        /* Freed memory must not be returned while a stream may still use it
         * (cudaFree happens to wait for the device; the pool does not rely on
         * it). */
        if (p->has_streams && s->pending != ANY && p->up.stream_sync != NULL) {
            st = p->up.stream_sync(p->up.ctx, s->pending);
        }
        if (st == 0) {
            st = p->up.free(p->up.ctx, s->base, s->size);
        }
        if (st != 0 && first_err == 0) {
            first_err = st;
        }
        done = s->next;
        free(s);
        n++;
    }
    lock(p);
    p->st.n_upstream_frees += n;
    return first_err;
}

/* ======================================================================== */
/* Public entry points                                                      */
/* ======================================================================== */

ca_pool *
ca_pool_new(const ca_pool_upstream *up)
{
    ca_pool *p = (ca_pool *)calloc(1, sizeof(ca_pool));
    if (p == NULL) {
        return NULL;
    }
    if (pthread_mutex_init(&p->mutex, NULL) != 0) {
        free(p);
        return NULL;
    }
    p->up = *up;
    p->has_streams = up->stream_wait != NULL;
    return p;
}

int
ca_pool_destroy(ca_pool *p)
{
    int first_err = 0;
    if (p == NULL) {
        return 0;
    }
    for (ca_segment *s = p->segments, *next; s != NULL; s = next) {
        int st = p->up.free(p->up.ctx, s->base, s->size);
        if (st != 0 && first_err == 0) {
            first_err = st;
        }
        next = s->next;
        free(s);
    }
    for (block_chunk *c = p->chunks, *next; c != NULL; c = next) {
        next = c->next;
        free(c);
    }
    pthread_mutex_destroy(&p->mutex);
    free(p);
    return first_err;
}

/* A request's rounded size in *size: 0 for a request to serve, 1 for nbytes 0
 * (no block), CA_POOL_EINVAL when rounding would overflow. Shared by both
 * allocation paths. */
static int
request_size(size_t nbytes, size_t *size)
{
    if (nbytes == 0) {
        return 1;
    }
    if (nbytes > SIZE_MAX - CA_POOL_ALIGN) {
        return CA_POOL_EINVAL;
    }
    *size = (nbytes + CA_POOL_ALIGN - 1) & ~(CA_POOL_ALIGN - 1);
    return 0;
}

/* A miss outside a capture (lock held): new memory from the upstream, first
 * trimming a drifted cache, and once more after giving the cache back. */
static int
grow_or_retry(ca_pool *p, size_t size, size_t nbytes, ca_stream_t stream, ca_block **b)
{
    int st;
    /* No cached block fits. For a large request, when the cache holds over
     * an eighth of what the pool reserved, the cached large segments are
     * too small for the sizes in use now: give back the wholly free ones
     * smaller than this request (none of them could serve it) before
     * reserving more. That keeps reserved/requested low when sizes drift;
     * loops that repeat their sizes never get here once warm. */
    if (size > CA_POOL_SMALL_MAX &&
        p->st.total_bytes - p->st.used_bytes > p->st.total_bytes / 8) {
        p->st.n_trims++;
        (void)release_cached_locked(p, 0, size);
    }
    st = grow(p, size, nbytes, stream, b);
    if (st != 0) {
        /* Out of memory (or the limit): give the cache back, retry once. */
        p->st.n_oom_retries++;
        (void)release_cached_locked(p, 1, 0);
        *b = take_cached(p, size, nbytes, stream, 0, &st);
        if (*b == NULL && st == 0) {
            st = grow(p, size, nbytes, stream, b);
        }
    }
    return st;
}

/* Both allocation paths in one body; `capturing` is a constant at each call, so
 * inlining leaves each entry point its own straight-line code. A capture never
 * trims nor retries: those would wait for the device (or free memory that the
 * graph being captured may use). */
static inline __attribute__((always_inline)) int
pool_alloc(ca_pool *p, size_t nbytes, ca_stream_t stream, int capturing, ca_block **out)
{
    size_t size = 0;
    ca_block *b = NULL;
    int st = request_size(nbytes, &size);

    *out = NULL;
    if (st != 0) {
        return st == 1 ? 0 : st;
    }
    lock(p);
    b = take_cached(p, size, nbytes, stream, capturing, &st);
    if (b == NULL && st == 0) {
        st = capturing ? grow(p, size, nbytes, stream, &b) /* no wait: ANY */
                       : grow_or_retry(p, size, nbytes, stream, &b);
        if (st != 0) {
            p->st.n_oom_errors++;
        }
    }
    unlock(p);
    *out = b;
    return st;
}

int
ca_pool_alloc(ca_pool *p, size_t nbytes, ca_stream_t stream, ca_block **out)
{
    return pool_alloc(p, nbytes, stream, 0, out);
}

int
ca_pool_alloc_capturing(ca_pool *p, size_t nbytes, ca_stream_t stream, ca_block **out)
{
    return pool_alloc(p, nbytes, stream, 1, out);
}

void
ca_pool_free(ca_pool *p, ca_block *b)
{
    ca_block *n;
    if (b == NULL) {
        return;
    }
    lock(p);
    p->st.used_bytes -= b->size;
    p->st.requested_bytes -= b->requested;
    p->st.n_used_blocks--;
    p->st.n_frees++;
    b->is_free = 1;
    b->requested = 0;
    b->free_seq = ++p->free_seq;
    if (b->prev != NULL && b->prev->is_free &&
        mergeable(p, b->prev->stream, b->stream)) {
        ca_block *q = b->prev;
        index_remove(p, q);
        absorb(p, q, b);
        b = q;
    }
    n = b->next;
    if (n != NULL && n->is_free && mergeable(p, b->stream, n->stream)) {
        index_remove(p, n);
        absorb(p, b, n);
    }
    index_insert(p, b);
    unlock(p);
}

int
ca_pool_release_cached(ca_pool *p)
{
    int st;
    lock(p);
    st = release_cached_locked(p, 1, 0);
    unlock(p);
    return st;
}

int
ca_pool_forget_stream(ca_pool *p, ca_stream_t stream)
{
    int found = 0, st = 0;
    if (!p->has_streams || stream == ANY) {
        return 0;
    }
    lock(p);
    for (ca_segment *s = p->segments; s != NULL && !found; s = s->next) {
        for (ca_block *b = s->first; b != NULL; b = b->next) {
            if (b->stream == stream) {
                found = 1;
                break;
            }
        }
    }
    if (found) {
        if (p->up.stream_sync != NULL) {
            unlock(p);
            st = p->up.stream_sync(p->up.ctx, stream);
            lock(p);
        }
        /* Retag even after a failed wait: a dead stream must never be waited
         * on, and the error is reported to the caller. */
        for (ca_segment *s = p->segments; s != NULL; s = s->next) {
            for (ca_block *b = s->first; b != NULL; b = b->next) {
                if (b->stream == stream) {
                    b->stream = ANY;
                }
            }
        }
        coalesce_all(p);
    }
    unlock(p);
    return st;
}

void
ca_pool_reset_peaks(ca_pool *p)
{
    lock(p);
    p->st.peak_used_bytes = p->st.used_bytes;
    p->st.peak_requested_bytes = p->st.requested_bytes;
    p->st.peak_total_bytes = p->st.total_bytes;
    unlock(p);
}

void
ca_pool_set_limit(ca_pool *p, size_t limit)
{
    lock(p);
    p->st.limit = limit;
    unlock(p);
}

size_t
ca_pool_get_limit(ca_pool *p)
{
    size_t limit;
    lock(p);
    limit = p->st.limit;
    unlock(p);
    return limit;
}

void
ca_pool_get_stats(ca_pool *p, ca_pool_stats *s)
{
    size_t largest = 0;
    lock(p);
    *s = p->st;
    s->free_bytes = p->st.total_bytes - p->st.used_bytes;
    if (p->summary != 0) {
        int w = 63 - clz64(p->summary);
        int i = (w << 6) + 63 - clz64(p->bitmap[w]);
        largest = (size_t)(i + 1) * CA_POOL_ALIGN;
    }
    for (ca_block *t = p->treap; t != NULL; t = t->right) {
        if (t->right == NULL && t->size > largest) {
            largest = t->size;
        }
    }
    s->largest_free_block = largest;
    unlock(p);
}

/* ======================================================================== */
/* Invariant check (tests)                                                  */
/* ======================================================================== */

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            line = __LINE__;                                                           \
            goto done;                                                                 \
        }                                                                              \
    } while (0)

/* In-order walk of the treap: sorted keys, heap order, free large blocks. */
static int
treap_check(const ca_pool *p, const ca_block *t, const ca_block **last, size_t *count)
{
    if (t == NULL) {
        return 1;
    }
    if (!treap_check(p, t->left, last, count)) {
        return 0;
    }
    if ((t->left && t->left->prio > t->prio) ||
        (t->right && t->right->prio > t->prio)) {
        return 0;
    }
    if (!t->is_free || t->seg->small || (*last && !key_less(*last, t))) {
        return 0;
    }
    *last = t;
    (*count)++;
    return treap_check(p, t->right, last, count);
}

int
ca_pool_check(ca_pool *p)
{
    int line = 0;
    size_t used = 0, requested = 0, total = 0, n_used = 0, n_free = 0, n_seg = 0;
    size_t n_indexed = 0;
    const ca_block *last = NULL;

    lock(p);
    for (ca_segment *s = p->segments; s != NULL; s = s->next) {
        char *at = s->base;
        n_seg++;
        total += s->size;
        CHECK(s->first != NULL && s->first->prev == NULL);
        CHECK(s->next == NULL || s->next->prev == s);
        for (ca_block *b = s->first; b != NULL; b = b->next) {
            CHECK(b->seg == s && b->ptr == at && b->size > 0);
            CHECK(b->size % CA_POOL_ALIGN == 0);
            CHECK(b->next == NULL || b->next->prev == b);
            at += b->size;
            if (b->is_free) {
                n_free++;
                CHECK(b->requested == 0);
                /* every mergeable pair of free neighbours was merged */
                CHECK(!(b->next && b->next->is_free &&
                        mergeable(p, b->stream, b->next->stream)));
            }
            else {
                n_used++;
                used += b->size;
                requested += b->requested;
                CHECK(b->requested > 0 && b->requested <= b->size);
            }
        }
        CHECK(at == s->base + s->size);
    }
    for (int i = 0; i < NBINS; i++) {
        int bit = (p->bitmap[i >> 6] >> (i & 63)) & 1;
        CHECK(bit == (p->bins[i] != NULL));
        for (ca_block *b = p->bins[i]; b != NULL; b = b->fnext) {
            CHECK(b->is_free && b->seg->small && bin_of(b->size) == i);
            CHECK(b->fnext == NULL || b->fnext->fprev == b);
            n_indexed++;
        }
    }
    for (int w = 0; w < NWORDS; w++) {
        CHECK(((p->summary >> w) & 1) == (p->bitmap[w] != 0));
    }
    CHECK(treap_check(p, p->treap, &last, &n_indexed));
    CHECK(n_indexed == n_free);
    CHECK(p->st.n_free_blocks == n_free);
    CHECK(p->st.n_used_blocks == n_used);
    CHECK(p->st.used_bytes == used);
    CHECK(p->st.requested_bytes == requested);
    CHECK(p->st.total_bytes == total);
    CHECK(p->st.n_segments == n_seg);
done:
    unlock(p);
    return line;
}

/* ======================================================================== */
/* The malloc upstream                                                      */
/* ======================================================================== */

#define HUGE_MIN   ((size_t)4 << 20) /* host blocks this big get huge pages */
#define HUGE_ALIGN ((size_t)2 << 20)

static int
malloc_alloc(void *ctx, size_t size, char **ptr)
{
    (void)ctx;
    if (CA_FAULT(CA_FAULT_HOST_ALLOC)) {
        return CA_POOL_ENOMEM;
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* As NumPy does for its large buffers: ask for transparent huge pages
     * (where the system's setting is "madvise"), 2 MiB aligned so they line
     * up: fewer page faults, and fewer TLB misses for random gathers. */
    if (size >= HUGE_MIN) {
        void *p = NULL;
        if (posix_memalign(&p, HUGE_ALIGN, size) != 0) {
            return CA_POOL_ENOMEM;
        }
        (void)madvise(p, size & ~(size_t)4095, MADV_HUGEPAGE); /* advice only */
        *ptr = (char *)p;
        return 0;
    }
#endif
    /* size is a multiple of 512, as aligned_alloc requires */
    *ptr = (char *)aligned_alloc(CA_POOL_ALIGN, size);
    return *ptr == NULL ? CA_POOL_ENOMEM : 0;
}

static int
malloc_free(void *ctx, char *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
    return 0;
}

const ca_pool_upstream ca_pool_malloc_upstream = {
    NULL, malloc_alloc, malloc_free, NULL, NULL, NULL,
};

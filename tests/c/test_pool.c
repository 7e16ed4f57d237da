/*
 * test_pool.c: csrc/memory/pool.c alone, against a malloc upstream and a scripted one.
 * Built and run by tests/test_pool.py under AddressSanitizer and UBSan:
 *
 *   gcc -std=c11 -O1 -g -fsanitize=address,undefined -Icsrc \
 *       tests/c/test_pool.c csrc/memory/pool.c -lpthread -o test_pool && ./test_pool
 *
 * Prints one line per test and "ALL OK" at the end; exits 1 on the first failure.
 */
#include "pool.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

#define EXPECT(cond)                                                                   \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);        \
            failures++;                                                                \
            return;                                                                    \
        }                                                                              \
    } while (0)

#define CHECK_POOL(p)                                                                  \
    do {                                                                               \
        int line_ = ca_pool_check(p);                                                  \
        if (line_ != 0) {                                                              \
            fprintf(stderr, "%s:%d: pool invariant at pool.c:%d\n", __FILE__,          \
                    __LINE__, line_);                                                  \
            failures++;                                                                \
            return;                                                                    \
        }                                                                              \
    } while (0)

/* xorshift64*: deterministic, seeded per test */
static uint64_t
rnd(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1Dull;
}

/* A size from a mixed distribution: log-uniform over 1 B .. 2^max_log2 B. */
static size_t
mixed_size(uint64_t *s, int max_log2)
{
    int e = (int)(rnd(s) % (uint64_t)max_log2);
    size_t lo = (size_t)1 << e;
    return lo + (size_t)(rnd(s) % lo);
}

static ca_pool_stats
stats(ca_pool *p)
{
    ca_pool_stats s;
    ca_pool_get_stats(p, &s);
    return s;
}

/* ---- a scripted upstream: a byte budget and fake streams ------------------- */

typedef struct {
    size_t budget; /* refuse allocations beyond this many live bytes */
    size_t live;
    int n_alloc, n_free, n_wait, n_stream_sync, n_device_sync;
    ca_stream_t last_waiter, last_producer;
    int yield; /* sched_yield in alloc, to widen race windows */
    pthread_mutex_t m;
} script;

#define SCRIPT_OOM 2 /* like cudaErrorMemoryAllocation */

static int
s_alloc(void *ctx, size_t size, char **ptr)
{
    script *s = (script *)ctx;
    int st = 0;
    if (s->yield) {
        sched_yield();
    }
    pthread_mutex_lock(&s->m);
    if (s->budget && s->live + size > s->budget) {
        *ptr = NULL;
        st = SCRIPT_OOM;
    }
    else {
        *ptr = (char *)aligned_alloc(512, size);
        if (*ptr == NULL) {
            st = SCRIPT_OOM;
        }
        else {
            s->live += size;
            s->n_alloc++;
        }
    }
    pthread_mutex_unlock(&s->m);
    return st;
}

static int
s_free(void *ctx, char *ptr, size_t size)
{
    script *s = (script *)ctx;
    pthread_mutex_lock(&s->m);
    s->live -= size;
    s->n_free++;
    pthread_mutex_unlock(&s->m);
    free(ptr);
    return 0;
}

static int
s_wait(void *ctx, ca_stream_t waiter, ca_stream_t producer)
{
    script *s = (script *)ctx;
    s->n_wait++;
    s->last_waiter = waiter;
    s->last_producer = producer;
    return 0;
}

static int
s_stream_sync(void *ctx, ca_stream_t stream)
{
    (void)stream;
    ((script *)ctx)->n_stream_sync++;
    return 0;
}

static int
s_device_sync(void *ctx)
{
    ((script *)ctx)->n_device_sync++;
    return 0;
}

static ca_pool *
script_pool(script *s, int with_streams)
{
    ca_pool_upstream up = { s, s_alloc, s_free, NULL, NULL, NULL };
    memset(s, 0, sizeof(*s));
    pthread_mutex_init(&s->m, NULL);
    if (with_streams) {
        up.stream_wait = s_wait;
        up.stream_sync = s_stream_sync;
        up.device_sync = s_device_sync;
    }
    return ca_pool_new(&up);
}

#define S1 ((ca_stream_t)(uintptr_t)0x1000)
#define S2 ((ca_stream_t)(uintptr_t)0x2000)

/* ---- tests ------------------------------------------------------------------ */

/* body on a new pool over a script with streams; then, unless body failed (the
 * pool is left as it was then), the invariants and a destroy that gives every
 * segment back. */
static void
with_stream_pool(const char *name, void (*body)(script *sc, ca_pool *p))
{
    script sc;
    ca_pool *p = script_pool(&sc, 1);
    const int before = failures;
    body(&sc, p);
    if (failures != before) {
        return;
    }
    CHECK_POOL(p);
    EXPECT(ca_pool_destroy(p) == 0 && sc.live == 0);
    printf("%s ok\n", name);
}

static void
test_zero_and_rounding(void)
{
    ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
    ca_block *b = (ca_block *)1;
    EXPECT(p != NULL);
    EXPECT(ca_pool_alloc(p, 0, NULL, &b) == 0 && b == NULL);
    EXPECT(stats(p).total_bytes == 0 && stats(p).n_upstream_allocs == 0);
    ca_pool_free(p, NULL);
    size_t sizes[] = {
        1, 511, 512, 513, 1000, 4096 * 4, 1 << 20, (1 << 20) + 1, 3000000
    };
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        size_t want = (sizes[i] + 511) / 512 * 512;
        EXPECT(ca_pool_alloc(p, sizes[i], NULL, &b) == 0 && b != NULL);
        EXPECT(b->size == want && b->requested == sizes[i]);
        EXPECT(((uintptr_t)b->ptr % 512) == 0);
        EXPECT(stats(p).used_bytes == want && stats(p).requested_bytes == sizes[i]);
        memset(b->ptr, 0xAB, sizes[i]);
        ca_pool_free(p, b);
        CHECK_POOL(p);
    }
    /* too large to round */
    EXPECT(ca_pool_alloc(p, SIZE_MAX - 10, NULL, &b) == CA_POOL_EINVAL && b == NULL);
    EXPECT(ca_pool_destroy(p) == 0);
    printf("zero_and_rounding ok\n");
}

static void
test_reuse_without_upstream(void)
{
    ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
    ca_block *b;
    EXPECT(ca_pool_alloc(p, 4096 * 4, NULL, &b) == 0);
    ca_pool_free(p, b);
    EXPECT(ca_pool_alloc(p, 5 << 20, NULL, &b) == 0);
    ca_pool_free(p, b);
    uint64_t n = stats(p).n_upstream_allocs;
    EXPECT(n == 2);
    for (int i = 0; i < 1000; i++) {
        ca_block *x, *y;
        EXPECT(ca_pool_alloc(p, 4096 * 4, NULL, &x) == 0);
        EXPECT(ca_pool_alloc(p, (size_t)(1 + i % 5) << 20, NULL, &y) == 0);
        ca_pool_free(p, x);
        ca_pool_free(p, y);
    }
    EXPECT(stats(p).n_upstream_allocs == n);
    CHECK_POOL(p);
    /* everything free: one free block per segment */
    EXPECT(stats(p).n_free_blocks == stats(p).n_segments);
    EXPECT(ca_pool_destroy(p) == 0);
    printf("reuse_without_upstream ok\n");
}

typedef struct {
    ca_block *b;
    unsigned char tag;
} live_t;

static int
cmp_ptr(const void *a, const void *b)
{
    const ca_block *x = ((const live_t *)a)->b, *y = ((const live_t *)b)->b;
    return x->ptr < y->ptr ? -1 : x->ptr > y->ptr;
}

/* Tag a block's first and last 4 KiB and its middle byte (touching all of a
 * large block would only cost page faults). */
static void
tag_block(const live_t *l)
{
    size_t n = l->b->requested, k = n < 4096 ? n : 4096;
    memset(l->b->ptr, l->tag, k);
    memset(l->b->ptr + n - k, l->tag, k);
    l->b->ptr[n / 2] = (char)l->tag;
}

/* live[*n] = b under a random odd tag (drawn from *s), written into it. */
static void
live_add(live_t *live, int *n, ca_block *b, uint64_t *s)
{
    live[*n].b = b;
    live[*n].tag = (unsigned char)(rnd(s) | 1);
    tag_block(&live[*n]);
    (*n)++;
}

/* The ends of each live block carry its tag: an overlap shows as a wrong tag. */
static int
tag_ok(const live_t *l)
{
    const unsigned char *c = (const unsigned char *)l->b->ptr;
    return c[0] == l->tag && c[l->b->requested - 1] == l->tag &&
           c[l->b->requested / 2] == l->tag;
}

static void
test_random_sequences(void)
{
    for (uint64_t seed = 1; seed <= 6; seed++) {
        ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
        live_t live[400];
        int n = 0;
        uint64_t s = seed * 0x9E3779B97F4A7C15ull;
        for (int op = 0; op < 6000; op++) {
            if (n < 400 && (n == 0 || rnd(&s) % 100 < 55)) {
                size_t sz = mixed_size(&s, seed % 2 ? 21 : 24);
                ca_block *b;
                EXPECT(ca_pool_alloc(p, sz, NULL, &b) == 0 && b != NULL);
                live_add(live, &n, b, &s);
            }
            else {
                int i = (int)(rnd(&s) % (uint64_t)n);
                EXPECT(tag_ok(&live[i]));
                ca_pool_free(p, live[i].b);
                live[i] = live[--n];
            }
            if (op % 97 == 0) {
                ca_pool_stats st = stats(p);
                CHECK_POOL(p);
                EXPECT(st.used_bytes + st.free_bytes == st.total_bytes);
                EXPECT(st.n_used_blocks == (size_t)n);
                /* no two live blocks overlap */
                qsort(live, (size_t)n, sizeof(live_t), cmp_ptr);
                for (int i = 1; i < n; i++) {
                    EXPECT(live[i - 1].b->ptr + live[i - 1].b->size <= live[i].b->ptr);
                }
            }
        }
        while (n > 0) {
            EXPECT(tag_ok(&live[n - 1]));
            ca_pool_free(p, live[--n].b);
        }
        CHECK_POOL(p);
        ca_pool_stats st = stats(p);
        EXPECT(st.used_bytes == 0 && st.requested_bytes == 0);
        /* neighbours merged: every segment is one free block again */
        EXPECT(st.n_free_blocks == st.n_segments);
        EXPECT(st.largest_free_block > 0);
        EXPECT(ca_pool_release_cached(p) == 0);
        st = stats(p);
        EXPECT(st.total_bytes == 0 && st.n_segments == 0 && st.n_free_blocks == 0);
        EXPECT(st.n_upstream_frees == st.n_upstream_allocs);
        CHECK_POOL(p);
        EXPECT(ca_pool_destroy(p) == 0);
    }
    printf("random_sequences ok\n");
}

/* Free bufs[i] for a random i and allocate it again at a new mixed size (up to
 * 2^bits more than 1024 bytes); the allocation's status. */
static int
replace_one(ca_pool *p, ca_block **bufs, int n, uint64_t *s, int bits)
{
    int j = (int)(rnd(s) % (uint64_t)n);
    ca_pool_free(p, bufs[j]);
    return ca_pool_alloc(p, 1024 + mixed_size(s, bits), NULL, &bufs[j]);
}

/* Free bufs[0:n]; then the reserved bytes over the peak of requested bytes. */
static double
release_and_ratio(ca_pool *p, ca_block **bufs, int n)
{
    ca_pool_stats st;
    for (int i = 0; i < n; i++) {
        ca_pool_free(p, bufs[i]);
    }
    ca_pool_get_stats(p, &st);
    return (double)st.peak_total_bytes / (double)st.peak_requested_bytes;
}

/* Reserved bytes over the peak of requested bytes (what the program needed at
 * once) on a mixed-size workload shaped like an array program: long-lived
 * arrays of many sizes, some replaced now and then, and per iteration a burst
 * of temporaries drawn from a menu of mixed shapes, freed in random order. */
static double
program_workload(ca_pool *p, uint64_t seed)
{
    enum { PERSIST = 50, MENU = 40, TEMPS = 20, ITERS = 300 };
    ca_block *keep[PERSIST], *tmp[TEMPS];
    size_t menu[MENU];
    uint64_t s = seed * 0x51ED27ull;
    for (int i = 0; i < MENU; i++) {
        menu[i] = 512 + mixed_size(&s, 25);
    }
    for (int i = 0; i < PERSIST; i++) {
        if (ca_pool_alloc(p, 1024 + mixed_size(&s, 26), NULL, &keep[i]) != 0) {
            return 99.0;
        }
    }
    for (int it = 0; it < ITERS; it++) {
        for (int i = 0; i < TEMPS; i++) {
            if (ca_pool_alloc(p, menu[rnd(&s) % MENU], NULL, &tmp[i]) != 0) {
                return 99.0;
            }
        }
        for (int i = TEMPS; i > 0; i--) {
            int j = (int)(rnd(&s) % (uint64_t)i);
            ca_pool_free(p, tmp[j]);
            tmp[j] = tmp[i - 1];
        }
        if (it % 10 == 9) {
            for (int k = 0; k < 5; k++) {
                if (replace_one(p, keep, PERSIST, &s, 26) != 0) {
                    return 99.0;
                }
            }
        }
    }
    return release_and_ratio(p, keep, PERSIST);
}

/* The harshest case: a steady state of live buffers of log-uniform sizes, each
 * freed and replaced at random (no repeated shapes at all). */
static double
random_churn_workload(ca_pool *p, uint64_t seed)
{
    enum { LIVE = 256 };
    ca_block *live[LIVE];
    uint64_t s = seed * 12345;
    for (int i = 0; i < LIVE; i++) {
        if (ca_pool_alloc(p, 1024 + mixed_size(&s, 25), NULL, &live[i]) != 0) {
            return 99.0;
        }
    }
    for (int op = 0; op < 20000; op++) {
        if (replace_one(p, live, LIVE, &s, 25) != 0) {
            return 99.0;
        }
    }
    return release_and_ratio(p, live, LIVE);
}

/* The target (reserved / peak requested < 1.15) holds for the mean over seeds;
 * no single seed may pass 1.25 (over 30 seeds the mean was 1.075, the worst
 * 1.16). The random churn is reported, with a looser bound. */
static void
test_fragmentation_ratio(void)
{
    double sum = 0, worst = 0;
    for (uint64_t seed = 1; seed <= 6; seed++) {
        ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
        double r = program_workload(p, seed);
        printf("mixed program workload, seed %d: reserved / peak requested = %.3f\n",
               (int)seed, r);
        sum += r;
        worst = r > worst ? r : worst;
        CHECK_POOL(p);
        EXPECT(stats(p).used_bytes == 0);
        EXPECT(ca_pool_destroy(p) == 0);
    }
    EXPECT(sum / 6 < 1.15 && worst < 1.25);
    for (uint64_t seed = 1; seed <= 2; seed++) {
        ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
        double r = random_churn_workload(p, seed);
        printf("random churn workload, seed %d: reserved / peak requested = %.3f\n",
               (int)seed, r);
        EXPECT(r < 1.35);
        CHECK_POOL(p);
        EXPECT(ca_pool_destroy(p) == 0);
    }
    printf("fragmentation_ratio ok\n");
}

static void
test_limit_and_oom(void)
{
    ca_pool *p = ca_pool_new(&ca_pool_malloc_upstream);
    ca_block *a, *b;
    ca_pool_set_limit(p, 4 << 20);
    EXPECT(ca_pool_get_limit(p) == (4 << 20));
    EXPECT(ca_pool_alloc(p, 3 << 20, NULL, &a) == 0);
    EXPECT(ca_pool_alloc(p, 2 << 20, NULL, &b) == CA_POOL_ELIMIT && b == NULL);
    EXPECT(stats(p).n_oom_errors == 1);
    CHECK_POOL(p);
    ca_pool_free(p, a);
    /* cached 3 MiB block is too small; growing would pass the limit: the pool
     * releases the cache and retries */
    EXPECT(ca_pool_alloc(p, 3584 * 1024, NULL, &a) == 0);
    EXPECT(stats(p).total_bytes == 3584 * 1024 && stats(p).n_upstream_frees == 1);
    /* small requests near the limit get a segment of their own size */
    EXPECT(ca_pool_alloc(p, 1000, NULL, &b) == 0 && stats(p).total_bytes <= (4 << 20));
    ca_pool_free(p, b);
    ca_pool_free(p, a);
    CHECK_POOL(p);
    /* zero: no limit */
    ca_pool_set_limit(p, 0);
    EXPECT(ca_pool_alloc(p, 16 << 20, NULL, &a) == 0);
    ca_pool_free(p, a);
    CHECK_POOL(p);
    EXPECT(ca_pool_destroy(p) == 0);

    /* an upstream that runs out: cached blocks are released, the request is
     * retried once, then it fails with the upstream's status; the pool works
     * after */
    script sc;
    p = script_pool(&sc, 0);
    sc.budget = 20 << 20;
    ca_block *c;
    EXPECT(ca_pool_alloc(p, 18 << 20, NULL, &a) == 0);
    EXPECT(ca_pool_alloc(p, 1000, NULL, &b) == 0); /* a 2 MiB segment */
    ca_pool_free(p, b);
    EXPECT(ca_pool_alloc(p, 1536 << 10, NULL, &c) == 0); /* after the retry */
    EXPECT(sc.n_free == 1 && stats(p).n_oom_retries == 1);
    EXPECT(ca_pool_alloc(p, 4 << 20, NULL, &b) == SCRIPT_OOM && b == NULL);
    EXPECT(stats(p).n_oom_errors == 1 && stats(p).n_oom_retries == 2);
    CHECK_POOL(p);
    EXPECT(ca_pool_alloc(p, 100 << 10, NULL, &b) == 0);
    ca_pool_free(p, b);
    ca_pool_free(p, c);
    ca_pool_free(p, a);
    CHECK_POOL(p);
    EXPECT(ca_pool_destroy(p) == 0 && sc.live == 0);

    /* sizes that drift upwards: wholly free large segments too small for the
     * new size go back before the pool grows */
    p = script_pool(&sc, 0);
    for (int i = 0; i < 10; i++) {
        EXPECT(ca_pool_alloc(p, (size_t)(10 + i) << 20, NULL, &a) == 0);
        ca_pool_free(p, a);
    }
    EXPECT(stats(p).total_bytes == (19 << 20) && stats(p).n_trims == 9);
    EXPECT(sc.n_free == 9);
    /* ... but not when the cache is a small part of what is reserved */
    EXPECT(ca_pool_alloc(p, 19 << 20, NULL, &a) == 0);
    EXPECT(ca_pool_alloc(p, 2 << 20, NULL, &b) == 0);
    ca_pool_free(p, b);
    EXPECT(ca_pool_alloc(p, 3 << 20, NULL, &b) == 0);
    EXPECT(stats(p).n_trims == 9 && sc.n_free == 9);
    ca_pool_free(p, a);
    ca_pool_free(p, b);
    CHECK_POOL(p);
    EXPECT(ca_pool_destroy(p) == 0 && sc.live == 0);
    printf("limit_and_oom ok\n");
}

/* ca_pool_alloc_capturing (a thread capturing a CUDA graph): never a wait or a
 * sync, so a block of another stream is passed over for a new segment, and an
 * upstream failure is not retried after releasing the cache */
static void
test_capturing(script *sc, ca_pool *p)
{
    ca_block *a, *b, *c, *d;

    for (int large = 0; large < 2; large++) {
        size_t n = large ? (size_t)3 << 20 : 10000;
        EXPECT(ca_pool_alloc(p, n, S1, &a) == 0);
        char *pa = a->ptr;
        ca_pool_free(p, a);
        int allocs = sc->n_alloc;
        /* capturing S2: S1's block needs a wait, so a new segment */
        EXPECT(ca_pool_alloc_capturing(p, n, S2, &b) == 0 && b->ptr != pa);
        EXPECT(sc->n_alloc == allocs + 1);
        /* capturing S1: its own block (small: the first fit of the bin, which
         * may be the rest of S2's segment), no wait */
        EXPECT(ca_pool_alloc_capturing(p, n, S1, &c) == 0 && (!large || c->ptr == pa));
        /* the rest of S2's new segment needs no wait (it had no stream) */
        EXPECT(ca_pool_alloc_capturing(p, large ? 1000 : n, S2, &d) == 0);
        EXPECT(sc->n_wait == 0 && sc->n_stream_sync == 0 && sc->n_device_sync == 0);
        ca_pool_free(p, b);
        ca_pool_free(p, c);
        ca_pool_free(p, d);
        CHECK_POOL(p);
        EXPECT(ca_pool_alloc_capturing(p, 0, S1, &a) == 0 && a == NULL);
        EXPECT(ca_pool_release_cached(p) == 0);
        sc->n_device_sync = sc->n_stream_sync = 0;
    }
    /* out of memory: no release and retry (it would wait for the device) */
    sc->budget = 4 << 20;
    EXPECT(ca_pool_alloc(p, 3 << 20, S1, &a) == 0);
    ca_pool_free(p, a);
    int frees = sc->n_free;
    EXPECT(ca_pool_alloc_capturing(p, 3 << 20, S2, &b) == SCRIPT_OOM && b == NULL);
    EXPECT(sc->n_device_sync == 0 && sc->n_stream_sync == 0 && sc->n_free == frees);
    EXPECT(stats(p).n_oom_retries == 0 && stats(p).n_oom_errors == 1);
}

static void
test_streams(script *sc, ca_pool *p)
{
    ca_block *a, *b, *c;

    /* same stream: reuse at once, no wait */
    EXPECT(ca_pool_alloc(p, 10000, S1, &a) == 0);
    char *pa = a->ptr;
    ca_pool_free(p, a);
    EXPECT(ca_pool_alloc(p, 10000, S1, &a) == 0 && a->ptr == pa && sc->n_wait == 0);
    ca_pool_free(p, a);
    /* another stream: the new stream waits for the old one first */
    EXPECT(ca_pool_alloc(p, 10000, S2, &b) == 0 && b->ptr == pa);
    EXPECT(sc->n_wait == 1 && sc->last_waiter == S2 && sc->last_producer == S1);
    EXPECT(stats(p).n_stream_waits == 1);
    ca_pool_free(p, b);
    CHECK_POOL(p);

    /* neighbours freed on different streams stay apart until the device is
     * idle; then they merge and the segment goes back */
    EXPECT(ca_pool_alloc(p, 10000, S1, &a) == 0);
    EXPECT(ca_pool_alloc(p, 10000, S2, &b) == 0);
    EXPECT(ca_pool_alloc(p, 10000, S1, &c) == 0);
    ca_pool_free(p, a);
    ca_pool_free(p, b);
    ca_pool_free(p, c);
    CHECK_POOL(p);
    EXPECT(stats(p).n_free_blocks > stats(p).n_segments);
    EXPECT(ca_pool_release_cached(p) == 0);
    EXPECT(sc->n_device_sync == 1);
    EXPECT(stats(p).total_bytes == 0 && sc->live == 0);
    CHECK_POOL(p);

    /* forgetting a stream waits for it and makes its blocks usable anywhere */
    EXPECT(ca_pool_alloc(p, 10000, S1, &a) == 0);
    ca_pool_free(p, a);
    int waits = sc->n_wait;
    EXPECT(ca_pool_forget_stream(p, S2) == 0 && sc->n_stream_sync == 0);
    EXPECT(ca_pool_forget_stream(p, S1) == 0 && sc->n_stream_sync == 1);
    EXPECT(ca_pool_alloc(p, 10000, S2, &b) == 0 && sc->n_wait == waits);
    ca_pool_free(p, b);
    CHECK_POOL(p);

    /* large blocks: the same rules through the best-fit index */
    EXPECT(ca_pool_alloc(p, 8 << 20, S1, &a) == 0);
    ca_pool_free(p, a);
    EXPECT(ca_pool_alloc(p, 3 << 20, S1, &a) == 0 && sc->n_wait == waits);
    EXPECT(ca_pool_alloc(p, 3 << 20, S2, &b) == 0 && sc->n_wait == waits + 1);
    ca_pool_free(p, a);
    ca_pool_free(p, b);
}

/* Blocks of a foreign stream (pool.h): the upstream sees the tagged producer
 * (and waits for the device instead); one such wait frees every foreign block. */
static void
test_foreign_streams(script *sc, ca_pool *p)
{
    ca_block *a, *b, *c;
    const ca_stream_t F1 = (ca_stream_t)((uintptr_t)S1 | CA_POOL_STREAM_FOREIGN_BIT);
    const ca_stream_t F2 = (ca_stream_t)((uintptr_t)S2 | CA_POOL_STREAM_FOREIGN_BIT);

    EXPECT(ca_pool_stream_foreign(F1) && !ca_pool_stream_foreign(S1) &&
           !ca_pool_stream_foreign(CA_POOL_STREAM_ANY) &&
           ca_pool_stream_handle(F1) == S1);
    /* a of F1, b and c of F2, then a guard on S1 that keeps c from the free
     * tail (freed blocks of different tags never merge) */
    ca_block *d, *g;
    EXPECT(ca_pool_alloc(p, 10000, F1, &a) == 0);
    EXPECT(ca_pool_alloc(p, 20000, F2, &b) == 0);
    EXPECT(ca_pool_alloc(p, 30000, F2, &c) == 0);
    EXPECT(ca_pool_alloc(p, 1000, S1, &g) == 0 && sc->n_wait == 0);
    char *pa = a->ptr, *pb = b->ptr, *pc = c->ptr;
    /* the same foreign stream: reuse at once */
    ca_pool_free(p, a);
    EXPECT(ca_pool_alloc(p, 10000, F1, &a) == 0 && a->ptr == pa && sc->n_wait == 0);
    ca_pool_free(p, a);
    ca_pool_free(p, b);
    /* another stream takes F1's block: one wait, given the tagged producer */
    EXPECT(ca_pool_alloc(p, 10000, S2, &a) == 0 && a->ptr == pa);
    EXPECT(sc->n_wait == 1 && sc->last_producer == F1 && sc->last_waiter == S2);
    /* F2's free block was covered by that wait: no second one */
    EXPECT(ca_pool_alloc(p, 20000, S1, &d) == 0 && d->ptr == pb && sc->n_wait == 1);
    /* a block in use during the wait keeps its tag: freed, it needs a wait again */
    ca_pool_free(p, c);
    EXPECT(ca_pool_alloc(p, 30000, S1, &c) == 0 && c->ptr == pc && sc->n_wait == 2 &&
           sc->last_producer == F2);
    ca_pool_free(p, a);
    ca_pool_free(p, c);
    ca_pool_free(p, d);
    ca_pool_free(p, g);
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct {
    ca_pool *p;
    uint64_t seed;
    int bad;
} worker_arg;

static void *
worker(void *v)
{
    worker_arg *w = (worker_arg *)v;
    live_t live[64];
    int n = 0;
    uint64_t s = w->seed;
    ca_stream_t streams[2] = { S1, S2 };
    for (int op = 0; op < 20000 && !w->bad; op++) {
        if (n < 64 && (n == 0 || rnd(&s) % 2)) {
            ca_block *b;
            size_t sz = mixed_size(&s, op % 50 == 0 ? 23 : 17);
            if (ca_pool_alloc(w->p, sz, streams[rnd(&s) & 1], &b) != 0 || b == NULL) {
                w->bad = 1;
                break;
            }
            live_add(live, &n, b, &s);
        }
        else {
            int i = (int)(rnd(&s) % (uint64_t)n);
            if (!tag_ok(&live[i])) {
                w->bad = 1;
            }
            ca_pool_free(w->p, live[i].b);
            live[i] = live[--n];
        }
        if (op % 1000 == 999) {
            (void)ca_pool_release_cached(w->p);
        }
    }
    while (n > 0) {
        if (!tag_ok(&live[n - 1])) {
            w->bad = 1;
        }
        ca_pool_free(w->p, live[--n].b);
    }
    return NULL;
}

static void
test_threads(script *sc, ca_pool *p)
{
    pthread_t t[4];
    worker_arg args[4];
    sc->yield = 1;
    for (int i = 0; i < 4; i++) {
        args[i].p = p;
        args[i].seed = 0xC0FFEEull * (uint64_t)(i + 1);
        args[i].bad = 0;
        EXPECT(pthread_create(&t[i], NULL, worker, &args[i]) == 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
    }
    for (int i = 0; i < 4; i++) {
        EXPECT(!args[i].bad);
    }
    CHECK_POOL(p);
    EXPECT(stats(p).used_bytes == 0 && stats(p).n_used_blocks == 0);
    EXPECT(ca_pool_release_cached(p) == 0 && stats(p).total_bytes == 0);
}

int
main(void)
{
    setvbuf(stdout, NULL, _IONBF, 0);
    test_zero_and_rounding();
    test_reuse_without_upstream();
    test_random_sequences();
    test_fragmentation_ratio();
    test_limit_and_oom();
    with_stream_pool("streams", test_streams);
    with_stream_pool("capturing", test_capturing);
    with_stream_pool("foreign streams", test_foreign_streams);
    with_stream_pool("threads", test_threads);
    if (failures) {
        printf("%d FAILED\n", failures);
        return 1;
    }
    printf("ALL OK\n");
    return 0;
}

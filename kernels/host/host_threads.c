/*
 * host_threads.c: the cpu device's small thread pool (kernels.h:
 * ca_host_threads*, host_threads.h: ca_host_parallel).
 *
 * A job is ntasks independent tasks, fn(ctx, t) for t in [0, ntasks); the
 * caller splits its work into tasks by the problem's size alone, never by the
 * thread count, and each task writes only its own outputs, so a result is the
 * same bit for bit with one thread or many. The caller's thread takes tasks
 * too; the workers are started on the first job and sleep between jobs. One
 * job runs at a time: a caller that finds the pool busy (another Python thread
 * with the GIL released) runs its tasks itself. After fork() the child starts
 * with no workers (they are not copied), and makes new ones on its first job.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "host_threads.h"
#include "kernels.h"

#define CA_HOST_MAX_THREADS 64

typedef struct {
    pthread_mutex_t busy; /* held by the caller for the whole job */
    pthread_mutex_t lock; /* guards everything below */
    pthread_cond_t wake, done;
    int nthreads;   /* wanted, the caller included (>= 1) */
    int nworkers;   /* started */
    uint64_t epoch; /* bumped per job: workers wait for a new one */
    int active;     /* workers still in the current job */
    void (*fn)(void *, int64_t);
    void *ctx;
    int64_t ntasks;
    atomic_llong next; /* the next task to take */
} host_pool;

static host_pool pool = { .busy = PTHREAD_MUTEX_INITIALIZER,
                          .lock = PTHREAD_MUTEX_INITIALIZER,
                          .wake = PTHREAD_COND_INITIALIZER,
                          .done = PTHREAD_COND_INITIALIZER };
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;

static void
take_tasks(void (*fn)(void *, int64_t), void *ctx, int64_t ntasks)
{
    for (;;) {
        const int64_t t = (int64_t)atomic_fetch_add(&pool.next, 1);
        if (t >= ntasks) {
            return;
        }
        fn(ctx, t);
    }
}

/* arg: the epoch when the worker was made (before the job that made it is
 * posted, so that job is new to it). */
static void *
worker(void *arg)
{
    uint64_t seen = (uint64_t)(uintptr_t)arg;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (pool.epoch == seen) {
            pthread_cond_wait(&pool.wake, &pool.lock);
        }
        seen = pool.epoch;
        void (*fn)(void *, int64_t) = pool.fn;
        void *ctx = pool.ctx;
        const int64_t ntasks = pool.ntasks;
        pthread_mutex_unlock(&pool.lock);
        take_tasks(fn, ctx, ntasks);
        pthread_mutex_lock(&pool.lock);
        if (--pool.active == 0) {
            pthread_cond_signal(&pool.done);
        }
    }
    return NULL;
}

/* In a forked child the workers are gone and the mutexes may be held by
 * threads that no longer exist: start over. */
static void
after_fork_child(void)
{
    pthread_mutex_init(&pool.busy, NULL);
    pthread_mutex_init(&pool.lock, NULL);
    pthread_cond_init(&pool.wake, NULL);
    pthread_cond_init(&pool.done, NULL);
    pool.nworkers = 0;
    pool.active = 0;
}

static int
default_threads(void)
{
    const char *env = getenv("CUARRAY_HOST_THREADS");
    if (env != NULL && *env) {
        const long v = strtol(env, NULL, 10);
        if (v >= 1) {
            return v > CA_HOST_MAX_THREADS ? CA_HOST_MAX_THREADS : (int)v;
        }
    }
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1) {
        return 1;
    }
    return n > 8 ? 8 : (int)n; /* memory-bound loops gain little past 8 */
}

static void
pool_init(void)
{
    pool.nthreads = default_threads();
    pthread_atfork(NULL, NULL, after_fork_child);
}

int
ca_host_threads(void)
{
    pthread_once(&pool_once, pool_init);
    return pool.nthreads;
}

int
ca_host_threads_set(int n)
{
    pthread_once(&pool_once, pool_init);
    pthread_mutex_lock(&pool.busy);
    pool.nthreads = n >= 1 ? (n > CA_HOST_MAX_THREADS ? CA_HOST_MAX_THREADS : n)
                           : default_threads();
    pthread_mutex_unlock(&pool.busy);
    return pool.nthreads;
}

/* Start workers up to `want` (the caller holds busy). */
static int
start_workers(int want)
{
    while (pool.nworkers < want) {
        pthread_t th;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        pthread_attr_setstacksize(&at, (size_t)1 << 20);
        pthread_mutex_lock(&pool.lock);
        void *epoch = (void *)(uintptr_t)pool.epoch;
        pthread_mutex_unlock(&pool.lock);
        const int rc = pthread_create(&th, &at, worker, epoch);
        pthread_attr_destroy(&at);
        if (rc != 0) {
            break;
        }
        pool.nworkers++;
    }
    return pool.nworkers;
}

void
ca_host_parallel(int64_t ntasks, void (*fn)(void *ctx, int64_t task), void *ctx)
{
    pthread_once(&pool_once, pool_init);
    if (ntasks <= 0) {
        return;
    }
    if (ntasks == 1 || pool.nthreads <= 1 || pthread_mutex_trylock(&pool.busy) != 0) {
        for (int64_t t = 0; t < ntasks; t++) {
            fn(ctx, t);
        }
        return;
    }
    int want = pool.nthreads - 1;
    if (want > ntasks - 1) {
        want = (int)(ntasks - 1);
    }
    const int nw = start_workers(want);
    pthread_mutex_lock(&pool.lock);
    pool.fn = fn;
    pool.ctx = ctx;
    pool.ntasks = ntasks;
    atomic_store(&pool.next, 0);
    /* every started worker wakes for the job (some may find nothing to take) */
    pool.active = nw;
    pool.epoch++;
    pthread_cond_broadcast(&pool.wake);
    pthread_mutex_unlock(&pool.lock);
    take_tasks(fn, ctx, ntasks);
    pthread_mutex_lock(&pool.lock);
    while (pool.active > 0) {
        pthread_cond_wait(&pool.done, &pool.lock);
    }
    pthread_mutex_unlock(&pool.lock);
    pthread_mutex_unlock(&pool.busy);
}

/* ---- jobs over item ranges ------------------------------------------------------ */

typedef struct {
    ca_host_range_fn fn;
    void *ctx;
    int64_t n, size; /* the items; the piece size, or with shared the task count */
    int shared;
} range_job;

static void
range_task(void *ctx, int64_t t)
{
    const range_job *r = ctx;
    int64_t i0, i1;
    if (r->shared) {
        ca_host_share(t, r->size, r->n, &i0, &i1);
    }
    else {
        ca_host_piece(t, r->size, r->n, &i0, &i1);
    }
    r->fn(r->ctx, i0, i1);
}

void
ca_host_parallel_pieces(int64_t n, int64_t piece, ca_host_range_fn fn, void *ctx)
{
    range_job r = { fn, ctx, n, piece, 0 };
    ca_host_parallel((n + piece - 1) / piece, range_task, &r);
}

void
ca_host_parallel_shares(int64_t n, int64_t tasks, ca_host_range_fn fn, void *ctx)
{
    range_job r = { fn, ctx, n, tasks, 1 };
    ca_host_parallel(tasks, range_task, &r);
}

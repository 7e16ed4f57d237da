/*
 * host_threads.h: the cpu device's thread pool (host_threads.c), private to
 * kernels/. ca_host_threads / ca_host_threads_set are in kernels.h.
 */
#ifndef CA_HOST_THREADS_H
#define CA_HOST_THREADS_H

#include <stdint.h>

/* Run fn(ctx, t) for every t in [0, ntasks), on up to ca_host_threads()
 * threads (the caller's among them); returns when all are done. Tasks must be
 * independent and their split must not depend on the thread count. */
void ca_host_parallel(int64_t ntasks, void (*fn)(void *ctx, int64_t task), void *ctx);

/* A task over the items [i0, i1) of a job (ca_host_parallel_pieces, _shares). */
typedef void (*ca_host_range_fn)(void *ctx, int64_t i0, int64_t i1);

/* Run fn(ctx, i0, i1) over [0, n) cut in pieces of `piece` items
 * (ca_host_piece), or shared out in `tasks` parts (ca_host_share), as
 * ca_host_parallel's tasks. */
void ca_host_parallel_pieces(int64_t n, int64_t piece, ca_host_range_fn fn, void *ctx);
void ca_host_parallel_shares(int64_t n, int64_t tasks, ca_host_range_fn fn, void *ctx);

/* Task t's items [*i0, *i1) of n cut in pieces of `piece` items (the last one
 * shorter): a split by the problem's size alone, as ca_host_parallel wants. */
static inline void
ca_host_piece(int64_t t, int64_t piece, int64_t n, int64_t *i0, int64_t *i1)
{
    *i0 = t * piece;
    *i1 = *i0 + piece < n ? *i0 + piece : n;
}

/* Task t's items [*i0, *i1) of n shared out in `tasks` nearly equal parts. */
static inline void
ca_host_share(int64_t t, int64_t tasks, int64_t n, int64_t *i0, int64_t *i1)
{
    *i0 = n * t / tasks;
    *i1 = n * (t + 1) / tasks;
}

/* Below this many elements of work a call stays on the caller's thread; each
 * task gets at least CA_HOST_TASK_MIN of them. Measured on the 2-core
 * development machine (issue 15, float32 sum/argmax/add/sum(axis=0|1), 2
 * threads against 1, wall time): 0.7-0.8x at 2^18 elements, 0.9x at 2^20,
 * 0.7-1.0x at 2^22 (in cache: waking the workers costs more than it saves),
 * 1.1-2.8x at 2^24 (memory-bound). */
#define CA_HOST_PAR_MIN  ((int64_t)1 << 23)
#define CA_HOST_TASK_MIN ((int64_t)1 << 20)

/* The same for element-wise loops of ops.def's slow class (about 8 ns or more an
 * element: gcd and lcm 40-46 ns, logaddexp 16, float_power 10, hypot float64
 * 10, i0 26, on the development machine): 2^15 of them take 0.25 ms or more on
 * one thread, against tens of us to wake the pool. */
#define CA_HOST_PAR_MIN_SLOW  ((int64_t)1 << 15)
#define CA_HOST_TASK_MIN_SLOW ((int64_t)1 << 12)

#endif /* CA_HOST_THREADS_H */

/*
 * watch.h: what cuarray tells about its own traffic (issue 40): the transfer
 * guard (cuarray.transfer_guard) and the launch/transfer counters
 * (cuarray.profiler.counters). watch.c has the cold halves.
 *
 * The guard: one thread-local int, 0 while the thread's levels are "allow" in
 * both directions, so a transfer site pays one thread-local load and a branch.
 * Sites are the places where a program asks for data to cross (float(x), get(),
 * a NumPy operand, printing), on every device: the cpu device's transfers are
 * host copies, but a program tested there meets the guard where a GPU would
 * transfer. A site says whether the transfer is explicit (asnumpy, get, set,
 * asarray) or implicit (everything else), as JAX's guard does.
 *
 * The counters: one process-wide struct of plain integers, incremented where the
 * GIL is held (every counting site holds it: the launch layer's checked calls
 * need it, and the copy paths count before they release it). The GIL makes the
 * plain increment exact; an atomic add would cost a locked instruction per
 * launch for nothing, and per-thread counters would need a registry of threads
 * to sum (and would lose the counts of threads that have ended).
 */
#ifndef CA_WATCH_H
#define CA_WATCH_H

#include "cuarray.h"

/* ---- the transfer guard ---------------------------------------------------------- */
enum {
    CA_TG_ALLOW = 0,
    CA_TG_LOG = 1,               /* implicit transfers warn */
    CA_TG_DISALLOW = 2,          /* implicit transfers raise */
    CA_TG_LOG_EXPLICIT = 3,      /* every transfer warns */
    CA_TG_DISALLOW_EXPLICIT = 4, /* every transfer raises */
};
enum { CA_TG_H2D = 0, CA_TG_D2H = 1 };
/* This thread's levels: bits 0-3 host-to-device, bits 4-7 device-to-host. */
extern _Thread_local int ca_tguard;

/* The guard's verdict on one transfer of `nbytes` to or from `device` (dir
 * CA_TG_H2D / CA_TG_D2H) by `what` ("float()", "get()", ...): 0 to go on (after a
 * TransferGuardWarning at "log"), -1 with TransferGuardError set. */
int ca_guard_check(int dir, int is_explicit, const char *what, size_t nbytes,
                   int device);

/* Set in ca_tguard while an explicit API (asarray, to_device) converts: the
 * transfers it makes are explicit. Only set while a level is set (ca_tguard != 0),
 * so an unguarded thread never writes it. */
#define CA_TG_EXPLICIT_CALL (1 << 8)

static inline int
ca_guard_explicit_begin(void)
{
    int had = ca_tguard & CA_TG_EXPLICIT_CALL;
    if (ca_tguard != 0) {
        ca_tguard |= CA_TG_EXPLICIT_CALL;
    }
    return had;
}

static inline void
ca_guard_explicit_end(int had)
{
    if (ca_tguard != 0) {
        ca_tguard = (ca_tguard & ~CA_TG_EXPLICIT_CALL) | had;
    }
}

static inline int
ca_guard(int dir, int is_explicit, const char *what, size_t nbytes, int device)
{
    return ca_tguard == 0 ? 0 : ca_guard_check(dir, is_explicit, what, nbytes, device);
}

/* ---- the counters ---------------------------------------------------------------- */
typedef struct {
    unsigned long long launches;      /* kernels.h launchers, fused and user kernels */
    unsigned long long library_calls; /* cuBLAS, cuFFT, cuRAND, cuSOLVER, cuSPARSE */
    unsigned long long h2d, d2h;      /* transfers, each way */
    unsigned long long bytes_h2d, bytes_d2h;
    unsigned long long syncs; /* host waits for device work */
    unsigned long long graph_launches;
} ca_counters_t;
extern ca_counters_t ca_counters;

static inline void
ca_count_h2d(size_t n)
{
    ca_counters.h2d++;
    ca_counters.bytes_h2d += n;
}

static inline void
ca_count_d2h(size_t n)
{
    ca_counters.d2h++;
    ca_counters.bytes_d2h += n;
}

#define CA_COUNT(field) ((void)ca_counters.field++)

int ca_watch_init(PyObject *m);

#endif /* CA_WATCH_H */

/*
 * faults.c: the counters behind faults.h (plain C, as the pools that use them;
 * the Python controls are in fault_control.c).
 *
 * Counting starts when a point is armed: call number n (1-based) and the times - 1
 * after it fail. n = 0 disarms the point. Counters are atomics: the allocation
 * upstreams run without the GIL.
 */
#include "faults.h"

#include <string.h>

int ca_faults_armed = 0;

static long long seen[CA_FAULT_NPOINTS];  /* calls since the point was armed */
static long long first[CA_FAULT_NPOINTS]; /* first failing call, 0: unarmed */
static long long last[CA_FAULT_NPOINTS];  /* last failing call */

static const char *const point_names[CA_FAULT_NPOINTS] = {
    "device_alloc", "pinned_alloc", "host_alloc", "library_load", "library_call",
};

int
ca_fault_hit(ca_fault_point point)
{
    long long f = __atomic_load_n(&first[point], __ATOMIC_RELAXED);
    long long n = __atomic_add_fetch(&seen[point], 1, __ATOMIC_RELAXED);
    return f > 0 && n >= f && n <= __atomic_load_n(&last[point], __ATOMIC_RELAXED);
}

void
ca_fault_arm(int point, long long n, long long times)
{
    __atomic_store_n(&first[point], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&seen[point], 0, __ATOMIC_RELAXED);
    __atomic_store_n(&last[point], n + times - 1, __ATOMIC_RELAXED);
    __atomic_store_n(&first[point], n, __ATOMIC_RELAXED);
    int any = 0;
    for (int i = 0; i < CA_FAULT_NPOINTS; i++) {
        any |= __atomic_load_n(&first[i], __ATOMIC_RELAXED) > 0;
    }
    /* Calls are counted only while some point is armed: a test counts a
     * workload's calls at a point by arming it with an n it never reaches. */
    __atomic_store_n(&ca_faults_armed, any, __ATOMIC_RELAXED);
}

int
ca_fault_point_index(const char *name, size_t len)
{
    for (int i = 0; i < CA_FAULT_NPOINTS; i++) {
        if (strlen(point_names[i]) == len && strncmp(point_names[i], name, len) == 0) {
            return i;
        }
    }
    return -1;
}

long long
ca_fault_calls(int point)
{
    return __atomic_load_n(&seen[point], __ATOMIC_RELAXED);
}

/*
 * faults.h: fault injection for the reliability tests (issue 44, docs/RELIABILITY.md).
 *
 * A test (or CUARRAY_FAULT in the environment) arms a point to make its Nth..(N+k-1)th
 * call from now fail as the real failure would: an allocation reports out of memory,
 * a library load reports the library missing, a library call reports the library's
 * internal error. Each point is counted where the real call is made, so a sweep over
 * N reaches every such call of a workload. Plain C (no Python): the pools include it.
 * Unarmed, a check is one relaxed load of one global.
 */
#ifndef CA_FAULTS_H
#define CA_FAULTS_H

#include <stddef.h>

typedef enum {
    CA_FAULT_DEVICE_ALLOC, /* cudaMalloc / cudaMallocManaged of the pools' upstreams */
    CA_FAULT_PINNED_ALLOC, /* cudaHostAlloc of the pinned pool's upstream */
    CA_FAULT_HOST_ALLOC,   /* the cpu device pool's malloc upstream */
    CA_FAULT_LIBRARY_LOAD, /* the first load of an NVIDIA library (dynlib.c) */
    CA_FAULT_LIBRARY_CALL, /* a cuBLAS/cuFFT/cuSOLVER/cuRAND/cuSPARSE call */
    CA_FAULT_NPOINTS
} ca_fault_point;

extern int ca_faults_armed; /* nonzero while any point is armed */

/* 1 when this call at `point` is to fail (counts the call), else 0. */
int ca_fault_hit(ca_fault_point point);
/* Calls n .. n + times - 1 from now fail; n = 0 disarms. */
void ca_fault_arm(int point, long long n, long long times);
/* Calls counted at `point` since it was armed. */
long long ca_fault_calls(int point);
/* The point named name[0:len], or -1. */
int ca_fault_point_index(const char *name, size_t len);

#define CA_FAULT(point)                                                                \
    (__builtin_expect(__atomic_load_n(&ca_faults_armed, __ATOMIC_RELAXED), 0) &&       \
     ca_fault_hit(point))

#endif

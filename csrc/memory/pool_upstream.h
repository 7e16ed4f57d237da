/*
 * pool_upstream.h: the pools' CUDA upstreams (pool_upstream.c), for memory.c.
 */
#ifndef CA_POOL_UPSTREAM_H
#define CA_POOL_UPSTREAM_H

#include "cuarray.h"
#include "pool.h"

/* The upstream for the pool of (device, kind), kind device, managed or pinned;
 * called once per pool, when memory.c creates it. */
ca_pool_upstream ca_pool_cuda_upstream(int device, ca_memkind kind);
/* 1 if an upstream status means the allocation itself ran out of memory. */
int ca_pool_upstream_out_of_memory(int status);

#endif /* CA_POOL_UPSTREAM_H */

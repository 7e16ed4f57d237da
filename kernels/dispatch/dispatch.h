/*
 * dispatch.h: the rule of the dispatch files. The cpu device runs the host loop;
 * any other device the GPU launcher, which a host-only build does not have.
 */
#ifndef CA_DISPATCH_H
#define CA_DISPATCH_H

#include "kernels.h"

/* The GPU launcher call `call` (an expression), or CA_KERR_NO_CUDA in a host-only
 * build, which never compiles it (nor needs its prototype). */
#if CA_HAVE_CUDA
#define CA_GPU_CALL(call) (call)
#else
#define CA_GPU_CALL(call) CA_KERR_NO_CUDA
#endif
/* The host call on the cpu device, else the GPU call. */
#define CA_DISPATCH(device, host_call, gpu_call)                                       \
    ((device) == CA_CPU ? (host_call) : CA_GPU_CALL(gpu_call))

#endif /* CA_DISPATCH_H */

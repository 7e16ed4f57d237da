/*
 * ew_internal.h: what the element-wise dispatcher (kernels/dispatch/dispatch_elementwise.c),
 * the generated host loops and tables, and the generated GPU launchers share.
 * Plain C; csrc/ does not need it (kernels.h has the public entry points).
 */
#ifndef CA_EW_INTERNAL_H
#define CA_EW_INTERNAL_H

#include <stdint.h>

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The generated host loops are built three times on x86-64 (CA_HOST_CLONES:
 * divide, add, sign, ... at AVX2 and AVX-512 width). */
#include "host_clones.h"

/* Most dimensions one strided launch handles; the dispatcher loops on the host
 * over any outer dimensions beyond it (only arrays that coalescing cannot merge
 * below this many dimensions pay that). */
#define CA_EW_KDIMS 8
/* Threads per block of both kernels. */
#define CA_EW_BLOCK 256
/* Elements one launch may cover: kernels index in 32 bits. */
#define CA_EW_MAX_N (((int64_t)1 << 31) - 1)

/* Parameters of the contiguous kernel (and the first part of the strided one). */
typedef struct {
    char *ptr[CA_MAX_OPERANDS];                /* 0: output, 1..: inputs */
    ca_scalar_arg scalar[CA_MAX_OPERANDS - 1]; /* input i's value when mask bit i */
    uint32_t mask;                             /* bit i: input i is a scalar */
    uint32_t n;                                /* elements, < 2^31 */
} ca_ew_cparams;

/* Parameters of the strided kernel: dimension 0 is the INNERMOST here. */
typedef struct {
    ca_ew_cparams c;
    int32_t ndim; /* 1..CA_EW_KDIMS */
    uint32_t shape[CA_EW_KDIMS];
    int64_t strides[CA_MAX_OPERANDS][CA_EW_KDIMS]; /* bytes */
} ca_ew_sparams;

/* One inner loop of the host: n elements; p[0] output, p[1..] inputs; strides in
 * bytes (0 for a scalar input, whose pointer is then its value). */
typedef void (*ca_ew_host_fn)(char *const *p, const int64_t *s, int64_t n);
/* One GPU launch: the contiguous kernel over p->c when `contig` is 1, the dense
 * kernel (one dense run per operand, not aligned to whole vectors) when it is
 * CA_EW_DENSE, the row-vector kernel when CA_EW_ROWVEC, else the strided kernel
 * over p. Returns cudaGetLastError() after
 * the launch. */
#define CA_EW_DENSE  2
/* The row-vector kernel (two dimensions, rows of whole aligned vectors; the
 * dispatcher checks the layout; a loop of vec 1 takes the strided kernel). */
#define CA_EW_ROWVEC 3
typedef int (*ca_ew_gpu_fn)(const ca_ew_sparams *p, int contig, ca_stream_t stream);

extern const ca_ew_host_fn ca_ew_host[];
#if CA_HAVE_CUDA
extern const ca_ew_gpu_fn ca_ew_gpu[];
#endif

#ifdef __cplusplus
}
#endif
#endif /* CA_EW_INTERNAL_H */

/*
 * reduce_plan.h: what the three reduction files of kernels/ share (private to
 * kernels/: dispatch_reduce.c, host_reduce.c, reduce.cu). csrc/ sees only the
 * ca_reduce_* / ca_scan_* entry points of kernels.h.
 */
#ifndef CA_REDUCE_PLAN_H
#define CA_REDUCE_PLAN_H

#include "kernels.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The (op, input dtype, output dtype) triples that have kernels, on both
 * devices. One list, so the host loops, the GPU kernels and
 * ca_reduce_supported can never disagree. */
#define CA_RP_NATURAL(X, op)                                                          \
    X(op, CA_BOOL, CA_INT64) X(op, CA_INT8, CA_INT64) X(op, CA_UINT8, CA_UINT64)       \
    X(op, CA_INT16, CA_INT64) X(op, CA_UINT16, CA_UINT64) X(op, CA_INT32, CA_INT64)    \
    X(op, CA_UINT32, CA_UINT64) X(op, CA_INT64, CA_INT64) X(op, CA_UINT64, CA_UINT64)  \
    X(op, CA_FLOAT16, CA_FLOAT16) X(op, CA_FLOAT32, CA_FLOAT32)                        \
    X(op, CA_FLOAT64, CA_FLOAT64) X(op, CA_COMPLEX64, CA_COMPLEX64)                    \
    X(op, CA_COMPLEX128, CA_COMPLEX128)

#define CA_RP_TO(X, op, out)                                                          \
    X(op, CA_BOOL, out) X(op, CA_INT8, out) X(op, CA_UINT8, out) X(op, CA_INT16, out)  \
    X(op, CA_UINT16, out) X(op, CA_INT32, out) X(op, CA_UINT32, out)                   \
    X(op, CA_INT64, out) X(op, CA_UINT64, out) X(op, CA_FLOAT16, out)                  \
    X(op, CA_FLOAT32, out) X(op, CA_FLOAT64, out) X(op, CA_COMPLEX64, out)             \
    X(op, CA_COMPLEX128, out)

#define CA_RP_SELF(X, op)                                                             \
    X(op, CA_BOOL, CA_BOOL) X(op, CA_INT8, CA_INT8) X(op, CA_UINT8, CA_UINT8)          \
    X(op, CA_INT16, CA_INT16) X(op, CA_UINT16, CA_UINT16) X(op, CA_INT32, CA_INT32)    \
    X(op, CA_UINT32, CA_UINT32) X(op, CA_INT64, CA_INT64) X(op, CA_UINT64, CA_UINT64)  \
    X(op, CA_FLOAT16, CA_FLOAT16) X(op, CA_FLOAT32, CA_FLOAT32)                        \
    X(op, CA_FLOAT64, CA_FLOAT64) X(op, CA_COMPLEX64, CA_COMPLEX64)                    \
    X(op, CA_COMPLEX128, CA_COMPLEX128)

/* The sums that mean, var and dtype= need besides the natural ones. */
#define CA_RP_SUM_EXTRA(X)                                                            \
    X(CA_RED_SUM, CA_BOOL, CA_FLOAT64) X(CA_RED_SUM, CA_INT8, CA_FLOAT64)              \
    X(CA_RED_SUM, CA_UINT8, CA_FLOAT64) X(CA_RED_SUM, CA_INT16, CA_FLOAT64)            \
    X(CA_RED_SUM, CA_UINT16, CA_FLOAT64) X(CA_RED_SUM, CA_INT32, CA_FLOAT64)           \
    X(CA_RED_SUM, CA_UINT32, CA_FLOAT64) X(CA_RED_SUM, CA_INT64, CA_FLOAT64)           \
    X(CA_RED_SUM, CA_UINT64, CA_FLOAT64) X(CA_RED_SUM, CA_FLOAT32, CA_FLOAT64)         \
    X(CA_RED_SUM, CA_FLOAT16, CA_FLOAT32) X(CA_RED_SUM, CA_COMPLEX64, CA_COMPLEX128)

#define CA_RP_SQDEV(X)                                                                \
    X(CA_RED_SQDEV, CA_BOOL, CA_FLOAT64) X(CA_RED_SQDEV, CA_INT8, CA_FLOAT64)          \
    X(CA_RED_SQDEV, CA_UINT8, CA_FLOAT64) X(CA_RED_SQDEV, CA_INT16, CA_FLOAT64)        \
    X(CA_RED_SQDEV, CA_UINT16, CA_FLOAT64) X(CA_RED_SQDEV, CA_INT32, CA_FLOAT64)       \
    X(CA_RED_SQDEV, CA_UINT32, CA_FLOAT64) X(CA_RED_SQDEV, CA_INT64, CA_FLOAT64)       \
    X(CA_RED_SQDEV, CA_UINT64, CA_FLOAT64) X(CA_RED_SQDEV, CA_FLOAT16, CA_FLOAT16)     \
    X(CA_RED_SQDEV, CA_FLOAT32, CA_FLOAT32) X(CA_RED_SQDEV, CA_FLOAT64, CA_FLOAT64)    \
    X(CA_RED_SQDEV, CA_COMPLEX64, CA_FLOAT32) X(CA_RED_SQDEV, CA_COMPLEX128, CA_FLOAT64) \
    X(CA_RED_SQDEV, CA_FLOAT32, CA_FLOAT64) X(CA_RED_SQDEV, CA_COMPLEX64, CA_FLOAT64)

/* By kernel file (reduce_sum.cu, reduce_minmax.cu, reduce_arg.cu, reduce_logic.cu). */
#define CA_REDUCE_PAIRS_SUM(X)                                                        \
    CA_RP_NATURAL(X, CA_RED_SUM) CA_RP_SUM_EXTRA(X) CA_RP_NATURAL(X, CA_RED_PROD)
#define CA_REDUCE_PAIRS_MINMAX(X) CA_RP_SELF(X, CA_RED_MAX) CA_RP_SELF(X, CA_RED_MIN)
#define CA_REDUCE_PAIRS_ARG(X)                                                        \
    CA_RP_TO(X, CA_RED_ARGMAX, CA_INT64) CA_RP_TO(X, CA_RED_ARGMIN, CA_INT64)
#define CA_REDUCE_PAIRS_LOGIC(X)                                                      \
    CA_RP_TO(X, CA_RED_ANY, CA_BOOL) CA_RP_TO(X, CA_RED_ALL, CA_BOOL) CA_RP_SQDEV(X)

#define CA_REDUCE_PAIRS(X)                                                            \
    CA_REDUCE_PAIRS_SUM(X)                                                            \
    CA_REDUCE_PAIRS_MINMAX(X)                                                         \
    CA_REDUCE_PAIRS_ARG(X)                                                            \
    CA_REDUCE_PAIRS_LOGIC(X)

#define CA_SCAN_PAIRS(X) CA_RP_NATURAL(X, CA_RED_SUM) CA_RP_NATURAL(X, CA_RED_PROD)

/* Plan strategies (ca_reduce_desc.strategy / ca_scan_desc.strategy). */
enum {
    CA_RS_HOST = 0,  /* the host loops */
    CA_RS_ROW = 1,   /* GPU: a group of threads per output (reduced dim innermost) */
    CA_RS_COL = 2,   /* GPU: a thread per output (kept dim innermost) */
    CA_RS_COLVEC = 3 /* GPU: a thread per 16 bytes of adjacent outputs */
};
enum {
    CA_SS_HOST = 0,
    CA_SS_SEQ = 1,   /* GPU: a thread per row */
    CA_SS_BLOCK = 2  /* GPU: blocks scan chunks of a row; carries between chunks */
};

/* dispatch_reduce.c: drop size-1 dims, order kept dims by input stride (largest
 * first) and merge the ones that are contiguous together in every operand;
 * same for the reduced dims, except that `keep_order` keeps their C order (the
 * arg reductions count positions in it). Sets nout and nred_elems. */
void ca_reduce_merge(ca_reduce_desc *d, int keep_order);
void ca_scan_merge(ca_scan_desc *d);

/* host_reduce.c */
int ca_host_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype);
int ca_host_scan(int op, ca_scan_desc *d, int in_dtype, int out_dtype);

/* reduce.cu, reduce_scan.cu (CUDA builds only) */
int ca_cuda_reduce_plan(int device, int op, ca_reduce_desc *d, int in_dtype,
                        int out_dtype);
int ca_cuda_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
                   ca_stream_t stream);
int ca_cuda_scan_plan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype);
int ca_cuda_scan(int op, ca_scan_desc *d, int in_dtype, int out_dtype,
                 ca_stream_t stream);

#ifdef __cplusplus
}
#endif
#endif /* CA_REDUCE_PLAN_H */

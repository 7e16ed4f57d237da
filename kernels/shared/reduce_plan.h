/*
 * reduce_plan.h: what the three reduction files of kernels/ share (private to
 * kernels/: dispatch_reduce.c, host_reduce.c, reduce.cu). csrc/ sees only the
 * ca_reduce_* / ca_scan_* entry points of kernels.h. The ops and the
 * (op, input, output) triples that have kernels come from kernels/reductions.def
 * (build/generated/red_table.h), the same on both devices.
 */
#ifndef CA_REDUCE_PLAN_H
#define CA_REDUCE_PLAN_H

#include "kernels.h"
#include "red_table.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    CA_SS_BLOCK = 2, /* GPU: blocks scan chunks of a row; carries between chunks */
    CA_SS_CUB = 3 /* GPU: one contiguous row, cub::DeviceScan (reduce_scan_cub.cuh) */
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

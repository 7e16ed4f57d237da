/*
 * dispatch_fuse.c: ca_fused_elementwise, the entry point of fused element-wise
 * programs (kernels.h). It checks the program, renumbers its registers densely
 * (instruction k writes register nleaf + k, so the kernel's shared memory holds
 * only the registers the program uses) and launches the family's kernel
 * (build/generated/ew_fuse.cu), and ca_fused_sum, a program's result summed in
 * the same launch. GPU only: nothing is fused on the cpu device.
 */
#include <string.h>

#include "ew_internal.h"
#include "ew_table.h"
#include "reduce_plan.h"

#if CA_HAVE_CUDA
int ca_fuse_launch_f32(const ca_fuse_params *p, ca_stream_t stream);
int ca_fuse_launch_f64(const ca_fuse_params *p, ca_stream_t stream);
int ca_fuse_sum_launch_f32(const ca_fuse_params *p, const ca_reduce_desc *d,
                           ca_stream_t stream);
int ca_fuse_sum_launch_f64(const ca_fuse_params *p, const ca_reduce_desc *d,
                           ca_stream_t stream);
#endif

static const int fuse_vec[CA_FUSE_NFAM] = { CA_FUSE_VEC_F32, CA_FUSE_VEC_F64 };
static const int fuse_float[CA_FUSE_NFAM] = { CA_FLOAT32, CA_FLOAT64 };

/* 1 if t is a type of the family and ptr holds whole vectors of it. */
static int
fuse_operand_ok(int family, int t, const void *ptr)
{
    if (ptr == NULL || (t != CA_BOOL && t != fuse_float[family])) {
        return 0;
    }
    return (uintptr_t)ptr % (uintptr_t)(ca_dtype_size[t] * fuse_vec[family]) == 0;
}

/* Operand code `c` of instruction k in dense numbering; -1 if it names no
 * register or constant defined before instruction k. */
static int
fuse_renumber(const ca_fuse_params *p, int k, int c)
{
    if (c & CA_FUSE_CONST) {
        return (c & 0x7f) < CA_FUSE_MAXCONST ? c : -1;
    }
    if (c < p->nleaf) {
        return c;
    }
    if (c >= CA_FUSE_MAXLEAF && c < CA_FUSE_MAXLEAF + k) {
        return c - CA_FUSE_MAXLEAF + p->nleaf;
    }
    return -1;
}

/* Check program p of `family` and write it into q with its registers renumbered
 * densely; 0 or CA_KERR_UNSUPPORTED. The output is the caller's to check. */
static int
fuse_prepare(int family, const ca_fuse_params *p, ca_fuse_params *q)
{
    if (family < 0 || family >= CA_FUSE_NFAM || p->nleaf < 0 ||
        p->nleaf > CA_FUSE_MAXLEAF || p->ninstr < 1 || p->ninstr > CA_FUSE_MAXINSTR ||
        p->n < 1 || p->n > (uint32_t)CA_EW_MAX_N) {
        return CA_KERR_UNSUPPORTED;
    }
    *q = *p;
    for (int j = 0; j < p->nleaf; j++) {
        if (!fuse_operand_ok(family, p->leaf_type[j], p->leaf[j])) {
            return CA_KERR_UNSUPPORTED;
        }
    }
    for (int k = 0; k < p->ninstr; k++) {
        const int slot = p->ins[k].slot;
        if (slot < 0) {
            return CA_KERR_UNSUPPORTED;
        }
        for (int i = 0; i < 3; i++) {
            const int c = fuse_renumber(p, k, p->ins[k].src[i]);
            if (c < 0) {
                return CA_KERR_UNSUPPORTED;
            }
            q->ins[k].src[i] = (uint8_t)c;
        }
    }
    return 0;
}

int
ca_fused_elementwise(int device, int family, const ca_fuse_params *p,
                     ca_stream_t stream)
{
    ca_fuse_params q;
    if (fuse_prepare(family, p, &q) != 0 ||
        !fuse_operand_ok(family, p->out_type, p->out) || device == CA_CPU) {
        return CA_KERR_UNSUPPORTED;
    }
#if CA_HAVE_CUDA
    return family == CA_FUSE_F32 ? ca_fuse_launch_f32(&q, stream)
                                 : ca_fuse_launch_f64(&q, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

/* Whether d is the plan the fused sum reproduces: the row kernel over one
 * aligned, contiguous run of p->n elements of the family's float, one output,
 * one split, at most CA_FUSE_SUM_MAXGROUP lanes (reduce.cu's plan). */
static int
fuse_sum_plan_ok(int family, const ca_fuse_params *p, const ca_reduce_desc *d)
{
    const int64_t size = ca_dtype_size[fuse_float[family]];
    return d->strategy == CA_RS_ROW && d->nout == 1 && d->splits == 1 && d->nred == 1 &&
           d->nred_elems == (int64_t)p->n && d->red_in[0] == size && d->group >= 32 &&
           d->group <= CA_FUSE_SUM_MAXGROUP && (d->group & (d->group - 1)) == 0 &&
           (uintptr_t)d->in % 16 == 0 && d->out != NULL;
}

int
ca_fused_sum(int device, int family, const ca_fuse_params *p, const ca_reduce_desc *d,
             ca_stream_t stream)
{
    ca_fuse_params q;
    if (fuse_prepare(family, p, &q) != 0 || p->out_type != fuse_float[family] ||
        !fuse_sum_plan_ok(family, p, d) || device == CA_CPU) {
        return CA_KERR_UNSUPPORTED;
    }
#if CA_HAVE_CUDA
    return family == CA_FUSE_F32 ? ca_fuse_sum_launch_f32(&q, d, stream)
                                 : ca_fuse_sum_launch_f64(&q, d, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

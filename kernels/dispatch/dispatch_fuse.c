/*
 * dispatch_fuse.c: ca_fused_elementwise, the entry point of fused element-wise
 * programs (kernels.h). It checks the program, renumbers its registers densely
 * (instruction k writes register nleaf + k, so the kernel's shared memory holds
 * only the registers the program uses) and launches the family's kernel
 * (build/generated/ew_fuse.cu). GPU only: nothing is fused on the cpu device.
 */
#include <string.h>

#include "ew_internal.h"
#include "ew_table.h"

#if CA_HAVE_CUDA
int ca_fuse_launch_f32(const ca_fuse_params *p, ca_stream_t stream);
int ca_fuse_launch_f64(const ca_fuse_params *p, ca_stream_t stream);
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

int
ca_fused_elementwise(int device, int family, const ca_fuse_params *p,
                     ca_stream_t stream)
{
    if (family < 0 || family >= CA_FUSE_NFAM || p->nleaf < 0 ||
        p->nleaf > CA_FUSE_MAXLEAF || p->ninstr < 1 || p->ninstr > CA_FUSE_MAXINSTR ||
        p->n < 1 || p->n > (uint32_t)CA_EW_MAX_N ||
        !fuse_operand_ok(family, p->out_type, p->out)) {
        return CA_KERR_UNSUPPORTED;
    }
    ca_fuse_params q = *p;
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
            q.ins[k].src[i] = (uint8_t)c;
        }
    }
    if (device == CA_CPU) {
        return CA_KERR_UNSUPPORTED;
    }
#if CA_HAVE_CUDA
    return family == CA_FUSE_F32 ? ca_fuse_launch_f32(&q, stream)
                                 : ca_fuse_launch_f64(&q, stream);
#else
    (void)stream;
    (void)q;
    return CA_KERR_NO_CUDA;
#endif
}

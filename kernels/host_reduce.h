/*
 * host_reduce.h: what the host reduction loops generated from
 * kernels/reductions.def (build/generated/red_host.c) and their walk
 * (host_reduce.c) share. Private to kernels/.
 *
 * Accumulators come in the host's kinds (int64 for bool and signed ints,
 * uint64, float64 for every float, complex128, an int truth value, or an arg
 * accumulator of one of them): one ca_hacc holds any of them, named by its type.
 */
#ifndef CA_HOST_REDUCE_H
#define CA_HOST_REDUCE_H

#include <stdint.h>

#include "kernels.h"
#include "red_table.h"
#include "reduce_math.h"
#include "scalar.h"

typedef union {
    int64_t int64;
    uint64_t uint64;
    double float64;
    ca_complex128 complex128;
    ca_red_truth truth;
    ca_red_arg_int64 arg_int64;
    ca_red_arg_uint64 arg_uint64;
    ca_red_arg_float64 arg_float64;
    ca_red_arg_complex128 arg_complex128;
} ca_hacc;

/* The element of the aux operand (the mean) that one output's map step reads. */
typedef union {
    double float64;
    ca_complex128 complex128;
} ca_hctx;

/* One (op, input, output) triple: init the accumulator, load the output's aux
 * element (NULL when the op has no aux pass), fold a strided run of n elements
 * whose first has position r0 in C order of the reduced dims, store the result. */
typedef struct {
    void (*init)(ca_hacc *a);
    void (*ctx)(ca_hctx *c, const char *aux);
    void (*run)(ca_hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,
                const ca_hctx *c);
    void (*store)(char *out, const ca_hacc *a, double divisor, int flags);
} ca_red_host_fns;

extern const ca_red_host_fns ca_red_host[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];

/* An inclusive scan of a strided run of n elements into q (stride qs). */
typedef void (*ca_red_host_scan_fn)(const char *p, int64_t n, int64_t s, char *q,
                                    int64_t qs);
extern const ca_red_host_scan_fn ca_red_host_scan[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];

/* ---- pairwise sums of a strided run ------------------------------------------------ */
/* Float sums are pairwise along each run, as NumPy's, so their error grows with
 * log n: blocks of up to CA_PW_BLOCK elements summed in eight lanes, the blocks
 * combined pairwise. MAP(q, c) is the mapped element at q. */
#define CA_PW_BLOCK 128

#define CA_HR_PAIRWISE_REAL(fname, MAP)                                                \
    static double fname(const char *p, int64_t n, int64_t s, const ca_hctx *c)         \
    {                                                                                  \
        if (n < 8) {                                                                   \
            double r = -0.0;                                                           \
            for (int64_t i = 0; i < n; i++) {                                          \
                r += MAP(p + i * s, c);                                                \
            }                                                                          \
            return r;                                                                  \
        }                                                                              \
        if (n <= CA_PW_BLOCK) {                                                        \
            double r[8];                                                               \
            for (int k = 0; k < 8; k++) {                                              \
                r[k] = MAP(p + k * s, c);                                              \
            }                                                                          \
            int64_t i = 8;                                                             \
            for (; i + 8 <= n; i += 8) {                                               \
                for (int k = 0; k < 8; k++) {                                          \
                    r[k] += MAP(p + (i + k) * s, c);                                   \
                }                                                                      \
            }                                                                          \
            double res =                                                               \
                ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));     \
            for (; i < n; i++) {                                                       \
                res += MAP(p + i * s, c);                                              \
            }                                                                          \
            return res;                                                                \
        }                                                                              \
        int64_t h = n / 2;                                                             \
        h -= h % 8;                                                                    \
        return fname(p, h, s, c) + fname(p + h * s, n - h, s, c);                      \
    }

/* Complex pairs are few enough per block: two sequential sums of the block, the
 * blocks combined pairwise. */
#define CA_HR_PAIRWISE_COMPLEX(fname, MAP)                                             \
    static ca_complex128 fname(const char *p, int64_t n, int64_t s, const ca_hctx *c)  \
    {                                                                                  \
        ca_complex128 r;                                                               \
        if (n <= CA_PW_BLOCK) {                                                        \
            r.re = -0.0;                                                               \
            r.im = -0.0;                                                               \
            for (int64_t i = 0; i < n; i++) {                                          \
                ca_complex128 v = MAP(p + i * s, c);                                   \
                r.re += v.re;                                                          \
                r.im += v.im;                                                          \
            }                                                                          \
            return r;                                                                  \
        }                                                                              \
        int64_t h = n / 2;                                                             \
        h -= h % 8;                                                                    \
        ca_complex128 a = fname(p, h, s, c), b = fname(p + h * s, n - h, s, c);        \
        r.re = a.re + b.re;                                                            \
        r.im = a.im + b.im;                                                            \
        return r;                                                                      \
    }

#endif /* CA_HOST_REDUCE_H */

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
#include <string.h>

#include "kernels.h"
#include "red_table.h"
#include "reduce_math.h"
#include "scalar.h"

/* The nonzero bytes of m[0, n), eight a word (host_mask.c): a bool sum's
 * contiguous run (a bool byte may hold 2..255; it counts as 1). */
int64_t ca_host_count_true(const uint8_t *m, int64_t n);

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
 * whose first has position r0 in C order of the reduced dims, store the result.
 * The column forms work on a vector of nb accumulators (of the triple's
 * accumulator C type, packed) for nb adjacent outputs, input stride ks apart:
 * vinit sets them to the identity, vrun folds nrows rows (stride rs, the first at
 * position r0) into them, cv[j] being output j's aux element, vstore writes them
 * os bytes apart. */
typedef struct {
    void (*init)(ca_hacc *a);
    void (*ctx)(ca_hctx *c, const char *aux);
    void (*run)(ca_hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,
                const ca_hctx *c);
    void (*store)(char *out, const ca_hacc *a, double divisor, int flags);
    void (*vinit)(void *acc, int64_t nb);
    void (*vrun)(void *acc, const char *p, int64_t nb, int64_t ks, int64_t nrows,
                 int64_t rs, int64_t r0, const ca_hctx *cv);
    void (*vstore)(char *out, int64_t os, const void *acc, int64_t nb, double divisor,
                   int flags);
    /* a = combine(a, b) of two accumulators of disjoint pieces, a's before b's;
     * NULL where the order matters beyond what the split keeps (products) */
    void (*comb)(ca_hacc *a, const ca_hacc *b);
    /* acc[j] = combine(acc[j], other[j]) for nb column accumulators, where the
     * grouping of the rows cannot change a bit (max / min, or / and, integer
     * sums; tools/gen_reductions.py order_free); NULL elsewhere */
    void (*vcomb)(void *acc, const void *other, int64_t nb);
} ca_red_host_fns;

/* A long single run is cut in CA_HR_CHUNKS = 2^CA_HR_CHUNK_DEPTH pieces for the
 * threads (host_reduce.c). */
#define CA_HR_CHUNK_DEPTH 3
#define CA_HR_CHUNKS      (1 << CA_HR_CHUNK_DEPTH)

/* ca_red_max_float64 / ca_red_min_float64 (reduce_math.h) in the branch-free
 * form gcc vectorises (setup.py's -fno-trapping-math lets it if-convert the
 * compares): a NaN accumulator stays, a NaN element wins, else the larger
 * (smaller) one; the column loops use them, float32 inputs in float32 (exact:
 * widening to double keeps the order). */
#define CA_HR_MAXMIN(name, T, op)                                                      \
    static inline T ca_hr_##name(T a, T v)                                             \
    {                                                                                  \
        T r = v op a ? v : a;                                                          \
        r = v != v ? v : r;                                                            \
        return a != a ? a : r;                                                         \
    }
CA_HR_MAXMIN(max_float64, double, >)
CA_HR_MAXMIN(min_float64, double, <)
CA_HR_MAXMIN(max_float32, float, >)
CA_HR_MAXMIN(min_float32, float, <)

/* The lane loops of max, min, argmax, argmin (and float fmax, fmin) over a
 * contiguous run of n >= 1 elements (kernels/host/host_minmax.c: 256 bytes of lanes,
 * built for x86-64-v4 (AVX-512), AVX2 and the baseline, picked at load time).
 * The max / min forms set *nan when the run holds a NaN (the caller then walks
 * it exactly); the fmax / fmin forms skip NaNs and set *nonum for an all-NaN
 * run. Floats and arg reductions go in blocks of CA_HR_MM_BLOCK bytes: a block
 * with a NaN is walked exactly, an arg block that holds a new best is searched
 * for its first position (in L1, by ca_hr_find when contiguous); an arg run of
 * elements more than 64 bytes apart goes in blocks of CA_HR_MM_GATHER elements,
 * each gathered into a buffer first, so that both passes over it are contiguous
 * loops. The mms forms take a strided run (s bytes apart, any sign): a run
 * whose elements are at most 16 bytes apart reads its whole span through the
 * lanes, others take eight scalar accumulators. The column forms (mmcol) fold
 * rows of nb contiguous elements into a row of accumulators of the input type
 * (NaN propagating), CA_HR_COLBUF columns at a time. ca_hr_find: the position
 * of the first element == v of a contiguous run that holds one. */
#define CA_HR_MM_BLOCK  16384
#define CA_HR_MM_GATHER 4096
#define CA_HR_COLBUF    8192
#define CA_HR_MM_DECL(name, T)                                                         \
    T ca_hr_mm_max_##name(const T *x, int64_t n, int *nan);                            \
    T ca_hr_mm_min_##name(const T *x, int64_t n, int *nan);                            \
    T ca_hr_mms_max_##name(const char *p, int64_t n, int64_t s, int *nan);             \
    T ca_hr_mms_min_##name(const char *p, int64_t n, int64_t s, int *nan);             \
    void ca_hr_mmcol_max_##name(T *acc, const char *p, int64_t nb, int64_t nrows,      \
                                int64_t rs);                                           \
    void ca_hr_mmcol_min_##name(T *acc, const char *p, int64_t nb, int64_t nrows,      \
                                int64_t rs);                                           \
    int64_t ca_hr_find_##name(const T *x, int64_t n, T v);
CA_HR_MM_DECL(int8, int8_t)
CA_HR_MM_DECL(uint8, uint8_t)
CA_HR_MM_DECL(int16, int16_t)
CA_HR_MM_DECL(uint16, uint16_t)
CA_HR_MM_DECL(int32, int32_t)
CA_HR_MM_DECL(uint32, uint32_t)
CA_HR_MM_DECL(int64, int64_t)
CA_HR_MM_DECL(uint64, uint64_t)
CA_HR_MM_DECL(float32, float)
CA_HR_MM_DECL(float64, double)
/* argmax / argmin of a contiguous integer run in one pass: the value, its first
 * position in *pos. */
#define CA_HR_AM_DECL(name, T)                                                         \
    T ca_hr_am_max_##name(const T *x, int64_t n, int64_t *pos);                        \
    T ca_hr_am_min_##name(const T *x, int64_t n, int64_t *pos);
CA_HR_AM_DECL(int8, int8_t)
CA_HR_AM_DECL(uint8, uint8_t)
CA_HR_AM_DECL(int16, int16_t)
CA_HR_AM_DECL(uint16, uint16_t)
CA_HR_AM_DECL(int32, int32_t)
CA_HR_AM_DECL(uint32, uint32_t)
CA_HR_AM_DECL(int64, int64_t)
CA_HR_AM_DECL(uint64, uint64_t)
float ca_hr_mm_fmax_float32(const float *x, int64_t n, int *nonum);
float ca_hr_mm_fmin_float32(const float *x, int64_t n, int *nonum);
double ca_hr_mm_fmax_float64(const double *x, int64_t n, int *nonum);
double ca_hr_mm_fmin_float64(const double *x, int64_t n, int *nonum);
float ca_hr_mms_fmax_float32(const char *p, int64_t n, int64_t s, int *nonum);
float ca_hr_mms_fmin_float32(const char *p, int64_t n, int64_t s, int *nonum);
double ca_hr_mms_fmax_float64(const char *p, int64_t n, int64_t s, int *nonum);
double ca_hr_mms_fmin_float64(const char *p, int64_t n, int64_t s, int *nonum);

/* any / all of a strided run of n elements (s bytes apart, any sign), as 0 or
 * 1: whether one element (every element) is true, nonzero with NaN true
 * (kernels/host/host_truth.c: blocks folded branch-free, vectorised when
 * contiguous). Named by the element's words: w8 (bool, int8, uint8) .. w64,
 * f16, f32, f64 (the sign bit ignored), c64, c128 (either part true). */
#define CA_HR_TRUTH_DECL(name)                                                         \
    int ca_hr_any_##name(const char *p, int64_t n, int64_t s);                         \
    int ca_hr_all_##name(const char *p, int64_t n, int64_t s);
CA_HR_TRUTH_DECL(w8)
CA_HR_TRUTH_DECL(w16)
CA_HR_TRUTH_DECL(w32)
CA_HR_TRUTH_DECL(w64)
CA_HR_TRUTH_DECL(f16)
CA_HR_TRUTH_DECL(f32)
CA_HR_TRUTH_DECL(f64)
CA_HR_TRUTH_DECL(c64)
CA_HR_TRUTH_DECL(c128)

extern const ca_red_host_fns ca_red_host[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];

/* An inclusive scan of a strided run of n elements into q (stride qs). */
typedef void (*ca_red_host_scan_fn)(const char *p, int64_t n, int64_t s, char *q,
                                    int64_t qs);
extern const ca_red_host_scan_fn ca_red_host_scan[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];

/* ---- pairwise sums of a strided run ------------------------------------------------ */
/* Float sums are pairwise along each run, as NumPy's, so their error grows with
 * log n: blocks of up to CA_PW_BLOCK elements summed in eight lanes, the blocks
 * combined pairwise. MAP(q, c) is the mapped element at q. The leaf has copies
 * for elements 1, 2 and 4 items apart (a[::2], a[::4]): with the stride a
 * constant gcc vectorises it (loads of whole vectors and shuffles); each lane's
 * sum is the same in every copy, so the result does not depend on which ran. */
#define CA_PW_BLOCK 128
/* The pairwise sums are built for x86-64-v4 (AVX-512), AVX2 and the baseline
 * (target_clones, picked at load time, as host_minmax.c's lane loops): the same
 * lanes in each, so the same result. */
#include "host_clones.h"

#define CA_HR_PAIRWISE_REAL(fname, MAP, ES)                                            \
    static inline __attribute__((always_inline)) double fname##_leaf(                  \
        const char *p, int64_t n, int64_t s, const ca_hctx *c)                         \
    {                                                                                  \
        if (n < 8) {                                                                   \
            double r = -0.0;                                                           \
            for (int64_t i = 0; i < n; i++) {                                          \
                r += MAP(p + i * s, c);                                                \
            }                                                                          \
            return r;                                                                  \
        }                                                                              \
        double r[8];                                                                   \
        for (int k = 0; k < 8; k++) {                                                  \
            r[k] = MAP(p + k * s, c);                                                  \
        }                                                                              \
        int64_t i = 8;                                                                 \
        for (; i + 8 <= n; i += 8) {                                                   \
            for (int k = 0; k < 8; k++) {                                              \
                r[k] += MAP(p + (i + k) * s, c);                                       \
            }                                                                          \
        }                                                                              \
        double res =                                                                   \
            ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));         \
        for (; i < n; i++) {                                                           \
            res += MAP(p + i * s, c);                                                  \
        }                                                                              \
        return res;                                                                    \
    }                                                                                  \
    CA_HOST_CLONES static double fname(const char *p, int64_t n, int64_t s,            \
                                       const ca_hctx *c)                               \
    {                                                                                  \
        if (n <= CA_PW_BLOCK) { /* constant strides: gcc vectorises the leaf */        \
            switch (s / (ES) * (s % (ES) == 0)) {                                      \
            case 1: return fname##_leaf(p, n, (ES), c);                                \
            case 2: return fname##_leaf(p, n, 2 * (ES), c);                            \
            case 4: return fname##_leaf(p, n, 4 * (ES), c);                            \
            default: return fname##_leaf(p, n, s, c);                                  \
            }                                                                          \
        }                                                                              \
        int64_t h = n / 2;                                                             \
        h -= h % 8;                                                                    \
        return fname(p, h, s, c) + fname(p + h * s, n - h, s, c);                      \
    }

/* Complex pairs are few enough per block: two sequential sums of the block, the
 * blocks combined pairwise. */
#define CA_HR_PAIRWISE_COMPLEX(fname, MAP, ES)                                         \
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

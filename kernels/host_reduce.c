/*
 * host_reduce.c: the reductions and scans of the cpu device.
 *
 * Each output walks its reduced elements as runs along the innermost reduced
 * dim. Accumulators come in four kinds, chosen from the dtypes: int64 (bool and
 * signed ints; wrapping, computed in uint64 so overflow is defined), uint64,
 * double (every float: float32 and float16 sums accumulate in double) and
 * complex double. Float sums are pairwise along each run, as NumPy's are, so
 * their error grows with log n.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels.h"
#include "reduce_plan.h"
#include "scalar.h"

enum { K_I = 0, K_U, K_D, K_Z, K_N };

typedef struct {
    int64_t i;
    uint64_t u;
    double d;
    ca_complex128 z;
    int64_t idx; /* arg reductions: position of the best value so far */
    int has;     /* arg reductions: a value was seen */
} hacc;

typedef struct {
    double d;        /* SQDEV: the mean of a real input */
    ca_complex128 z; /* ... of a complex one */
} hctx;

typedef void (*run_fn)(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,
                       const hctx *c);

/* ---- loaders: one element of dtype `name` as an accumulator kind ---------------- */
#define LD_I(name, ctype, p) ca_cast_int64_##name(*(const ctype *)(p))
#define LD_U(name, ctype, p) ca_cast_uint64_##name(*(const ctype *)(p))
#define LD_D(name, ctype, p) ca_cast_float64_##name(*(const ctype *)(p))
#define LD_Z(name, ctype, p) ca_cast_complex128_##name(*(const ctype *)(p))
#define LD_B(name, ctype, p) ca_cast_bool_##name(*(const ctype *)(p))

/* The kind that holds a dtype's values exactly (max, min and the arg ops). */
#define HK_bool I
#define HK_int8 I
#define HK_int16 I
#define HK_int32 I
#define HK_int64 I
#define HK_uint8 U
#define HK_uint16 U
#define HK_uint32 U
#define HK_uint64 U
#define HK_float16 D
#define HK_float32 D
#define HK_float64 D
#define HK_complex64 Z
#define HK_complex128 Z
#define HCAT2(a, b) a##b
#define HCAT(a, b) HCAT2(a, b)

static int
native_kind(int dtype)
{
    if (dtype == CA_BOOL || dtype == CA_INT8 || dtype == CA_INT16 || dtype == CA_INT32 ||
        dtype == CA_INT64) {
        return K_I;
    }
    if (dtype >= CA_INT8 && dtype <= CA_UINT64) {
        return K_U;
    }
    if (dtype == CA_COMPLEX64 || dtype == CA_COMPLEX128) {
        return K_Z;
    }
    return K_D;
}

/* Sums and products accumulate in the kind of their output dtype. */
static int
out_kind(int dtype)
{
    switch (dtype) {
    case CA_UINT64:
        return K_U;
    case CA_FLOAT16:
    case CA_FLOAT32:
    case CA_FLOAT64:
        return K_D;
    case CA_COMPLEX64:
    case CA_COMPLEX128:
        return K_Z;
    default:
        return K_I;
    }
}

/* ---- pairwise sums of a strided run ----------------------------------------------- */
#define CA_PW_BLOCK 128

#define DEF_PW_D(fname, EXPR)                                                           \
    static double fname(const char *p, int64_t n, int64_t s, const hctx *c)             \
    {                                                                                   \
        (void)c;                                                                        \
        if (n < 8) {                                                                    \
            double r = -0.0;                                                            \
            for (int64_t i = 0; i < n; i++) {                                           \
                r += EXPR(p + i * s);                                                   \
            }                                                                           \
            return r;                                                                   \
        }                                                                               \
        if (n <= CA_PW_BLOCK) {                                                         \
            double r[8];                                                                \
            for (int k = 0; k < 8; k++) {                                               \
                r[k] = EXPR(p + k * s);                                                 \
            }                                                                           \
            int64_t i = 8;                                                              \
            for (; i + 8 <= n; i += 8) {                                                \
                for (int k = 0; k < 8; k++) {                                           \
                    r[k] += EXPR(p + (i + k) * s);                                      \
                }                                                                       \
            }                                                                           \
            double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
            for (; i < n; i++) {                                                        \
                res += EXPR(p + i * s);                                                 \
            }                                                                           \
            return res;                                                                 \
        }                                                                               \
        int64_t h = n / 2;                                                              \
        h -= h % 8;                                                                     \
        return fname(p, h, s, c) + fname(p + h * s, n - h, s, c);                       \
    }

#define DEF_PW_Z(fname, EXPR)                                                           \
    static ca_complex128 fname(const char *p, int64_t n, int64_t s, const hctx *c)      \
    {                                                                                   \
        ca_complex128 r;                                                                \
        if (n <= CA_PW_BLOCK) {                                                         \
            /* complex pairs are few enough per block: two sequential sums of the      \
             * block, the blocks combined pairwise */                                   \
            r.re = -0.0;                                                                \
            r.im = -0.0;                                                                \
            for (int64_t i = 0; i < n; i++) {                                           \
                ca_complex128 v = EXPR(p + i * s);                                      \
                r.re += v.re;                                                           \
                r.im += v.im;                                                           \
            }                                                                           \
            return r;                                                                   \
        }                                                                               \
        int64_t h = n / 2;                                                              \
        h -= h % 8;                                                                     \
        ca_complex128 a = fname(p, h, s, c), b = fname(p + h * s, n - h, s, c);         \
        r.re = a.re + b.re;                                                             \
        r.im = a.im + b.im;                                                             \
        return r;                                                                       \
    }

/* ---- run functions per family and input dtype ----------------------------------------- */
/* sum in each kind */
#define DEF_SUM(code, ctype, name)                                                      \
    static void sum_i_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                             const hctx *c)                                             \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        uint64_t acc = (uint64_t)a->i;                                                  \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc += (uint64_t)LD_I(name, ctype, p + i * s);                              \
        }                                                                               \
        a->i = (int64_t)acc;                                                            \
    }                                                                                   \
    static void sum_u_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                             const hctx *c)                                             \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        uint64_t acc = a->u;                                                            \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc += LD_U(name, ctype, p + i * s);                                        \
        }                                                                               \
        a->u = acc;                                                                     \
    }                                                                                   \
    static double ld_d_##name(const char *p) { return LD_D(name, ctype, p); }          \
    DEF_PW_D(pw_d_##name, ld_d_##name)                                                  \
    static void sum_d_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                             const hctx *c)                                             \
    {                                                                                   \
        (void)r0;                                                                       \
        a->d += pw_d_##name(p, n, s, c);                                                \
    }                                                                                   \
    static ca_complex128 ld_z_##name(const char *p) { return LD_Z(name, ctype, p); }   \
    DEF_PW_Z(pw_z_##name, ld_z_##name)                                                  \
    static void sum_z_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                             const hctx *c)                                             \
    {                                                                                   \
        (void)r0;                                                                       \
        ca_complex128 v = pw_z_##name(p, n, s, c);                                      \
        a->z.re += v.re;                                                                \
        a->z.im += v.im;                                                                \
    }
CA_FOR_EACH_DTYPE(DEF_SUM)

/* products */
#define DEF_PROD(code, ctype, name)                                                     \
    static void prod_i_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        uint64_t acc = (uint64_t)a->i;                                                  \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= (uint64_t)LD_I(name, ctype, p + i * s);                              \
        }                                                                               \
        a->i = (int64_t)acc;                                                            \
    }                                                                                   \
    static void prod_u_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        uint64_t acc = a->u;                                                            \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= LD_U(name, ctype, p + i * s);                                        \
        }                                                                               \
        a->u = acc;                                                                     \
    }                                                                                   \
    static void prod_d_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        double acc = a->d;                                                              \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= LD_D(name, ctype, p + i * s);                                        \
        }                                                                               \
        a->d = acc;                                                                     \
    }                                                                                   \
    static void prod_z_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        ca_complex128 acc = a->z;                                                       \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            double re = acc.re * v.re - acc.im * v.im;                                  \
            acc.im = acc.re * v.im + acc.im * v.re;                                     \
            acc.re = re;                                                                \
        }                                                                               \
        a->z = acc;                                                                     \
    }
CA_FOR_EACH_DTYPE(DEF_PROD)

/* max / min / argmax / argmin in the dtype's own kind. NaN (a complex with a NaN
 * part) propagates through max and min; the first NaN wins the arg ops. */
static int
z_isnan(ca_complex128 v)
{
    return isnan(v.re) || isnan(v.im);
}
static int
z_gt(ca_complex128 a, ca_complex128 b)
{
    return a.re > b.re || (a.re == b.re && a.im > b.im);
}

#define MM_I_GT(a, b) ((a) > (b))
#define MM_I_NAN(a) 0

#define DEF_MM_SCALAR(name, ctype, K, f, T, NANF)                                       \
    static void max_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        T acc = a->f;                                                                   \
        for (int64_t i = 0; i < n; i++) {                                               \
            T v = (T)LD_##K(name, ctype, p + i * s);                                    \
            if (!NANF(acc) && (NANF(v) || v > acc)) {                                   \
                acc = v;                                                                \
            }                                                                           \
        }                                                                               \
        a->f = acc;                                                                     \
    }                                                                                   \
    static void min_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        T acc = a->f;                                                                   \
        for (int64_t i = 0; i < n; i++) {                                               \
            T v = (T)LD_##K(name, ctype, p + i * s);                                    \
            if (!NANF(acc) && (NANF(v) || v < acc)) {                                   \
                acc = v;                                                                \
            }                                                                           \
        }                                                                               \
        a->f = acc;                                                                     \
    }                                                                                   \
    static void argmax_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            T v = (T)LD_##K(name, ctype, p + i * s);                                    \
            if (!a->has || (!NANF(a->f) && (NANF(v) || v > a->f))) {                    \
                a->f = v;                                                               \
                a->idx = r0 + i;                                                        \
                a->has = 1;                                                             \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    static void argmin_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            T v = (T)LD_##K(name, ctype, p + i * s);                                    \
            if (!a->has || (!NANF(a->f) && (NANF(v) || v < a->f))) {                    \
                a->f = v;                                                               \
                a->idx = r0 + i;                                                        \
                a->has = 1;                                                             \
            }                                                                           \
        }                                                                               \
    }

#define DEF_MM_I(name, ctype) DEF_MM_SCALAR(name, ctype, I, i, int64_t, MM_I_NAN)
#define DEF_MM_U(name, ctype) DEF_MM_SCALAR(name, ctype, U, u, uint64_t, MM_I_NAN)
#define DEF_MM_D(name, ctype) DEF_MM_SCALAR(name, ctype, D, d, double, isnan)
#define DEF_MM_Z(name, ctype)                                                           \
    static void max_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            if (!z_isnan(a->z) && (z_isnan(v) || z_gt(v, a->z))) {                      \
                a->z = v;                                                               \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    static void min_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            if (!z_isnan(a->z) && (z_isnan(v) || z_gt(a->z, v))) {                      \
                a->z = v;                                                               \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    static void argmax_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            if (!a->has || (!z_isnan(a->z) && (z_isnan(v) || z_gt(v, a->z)))) {        \
                a->z = v;                                                               \
                a->idx = r0 + i;                                                        \
                a->has = 1;                                                             \
            }                                                                           \
        }                                                                               \
    }                                                                                   \
    static void argmin_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0, \
                              const hctx *c)                                            \
    {                                                                                   \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            if (!a->has || (!z_isnan(a->z) && (z_isnan(v) || z_gt(a->z, v)))) {        \
                a->z = v;                                                               \
                a->idx = r0 + i;                                                        \
                a->has = 1;                                                             \
            }                                                                           \
        }                                                                               \
    }

#define DEF_MM(code, ctype, name) HCAT(DEF_MM_, HK_##name)(name, ctype)
CA_FOR_EACH_DTYPE(DEF_MM)

/* any / all: NumPy's truth value (NaN is true) */
#define DEF_LOGIC(code, ctype, name)                                                    \
    static void any_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n && !a->i; i++) {                                      \
            a->i = LD_B(name, ctype, p + i * s) != 0;                                   \
        }                                                                               \
    }                                                                                   \
    static void all_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,   \
                           const hctx *c)                                               \
    {                                                                                   \
        (void)r0;                                                                       \
        (void)c;                                                                        \
        for (int64_t i = 0; i < n && a->i; i++) {                                       \
            a->i = LD_B(name, ctype, p + i * s) != 0;                                   \
        }                                                                               \
    }
CA_FOR_EACH_DTYPE(DEF_LOGIC)

/* squared deviations from the mean in c (pairwise, as the sums) */
#define SQ_D_EXPR(name, ctype)                                                          \
    static double sq_##name(const char *p, const hctx *c)                               \
    {                                                                                   \
        double v = LD_D(name, ctype, p) - c->d;                                         \
        return v * v;                                                                   \
    }
#define SQ_Z_EXPR(name, ctype)                                                          \
    static double sq_##name(const char *p, const hctx *c)                               \
    {                                                                                   \
        ca_complex128 v = LD_Z(name, ctype, p);                                         \
        double re = v.re - c->z.re, im = v.im - c->z.im;                                \
        return re * re + im * im;                                                       \
    }
#define SQ_EXPR_I SQ_D_EXPR
#define SQ_EXPR_U SQ_D_EXPR
#define SQ_EXPR_D SQ_D_EXPR
#define SQ_EXPR_Z SQ_Z_EXPR

#define DEF_SQDEV(code, ctype, name)                                                    \
    HCAT(SQ_EXPR_, HK_##name)(name, ctype)                                              \
    static double pwsq_##name(const char *p, int64_t n, int64_t s, const hctx *c)       \
    {                                                                                   \
        if (n <= CA_PW_BLOCK) {                                                         \
            double r[8] = {0, 0, 0, 0, 0, 0, 0, 0};                                     \
            int64_t i = 0;                                                              \
            for (; i + 8 <= n; i += 8) {                                                \
                for (int k = 0; k < 8; k++) {                                           \
                    r[k] += sq_##name(p + (i + k) * s, c);                              \
                }                                                                       \
            }                                                                           \
            double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
            for (; i < n; i++) {                                                        \
                res += sq_##name(p + i * s, c);                                         \
            }                                                                           \
            return res;                                                                 \
        }                                                                               \
        int64_t h = n / 2;                                                              \
        h -= h % 8;                                                                     \
        return pwsq_##name(p, h, s, c) + pwsq_##name(p + h * s, n - h, s, c);           \
    }                                                                                   \
    static void sqdev_##name(hacc *a, const char *p, int64_t n, int64_t s, int64_t r0,  \
                             const hctx *c)                                             \
    {                                                                                   \
        (void)r0;                                                                       \
        a->d += pwsq_##name(p, n, s, c);                                                \
    }
CA_FOR_EACH_DTYPE(DEF_SQDEV)

/* the tables */
#define T_ENTRY(prefix) CA_FOR_EACH_DTYPE(prefix)
#define E_SUM_I(code, ctype, name) [code] = sum_i_##name,
#define E_SUM_U(code, ctype, name) [code] = sum_u_##name,
#define E_SUM_D(code, ctype, name) [code] = sum_d_##name,
#define E_SUM_Z(code, ctype, name) [code] = sum_z_##name,
#define E_PROD_I(code, ctype, name) [code] = prod_i_##name,
#define E_PROD_U(code, ctype, name) [code] = prod_u_##name,
#define E_PROD_D(code, ctype, name) [code] = prod_d_##name,
#define E_PROD_Z(code, ctype, name) [code] = prod_z_##name,
#define E_MAX(code, ctype, name) [code] = max_##name,
#define E_MIN(code, ctype, name) [code] = min_##name,
#define E_ARGMAX(code, ctype, name) [code] = argmax_##name,
#define E_ARGMIN(code, ctype, name) [code] = argmin_##name,
#define E_ANY(code, ctype, name) [code] = any_##name,
#define E_ALL(code, ctype, name) [code] = all_##name,
#define E_SQDEV(code, ctype, name) [code] = sqdev_##name,

static const run_fn run_sum[K_N][CA_NTYPES] = {
    {T_ENTRY(E_SUM_I)}, {T_ENTRY(E_SUM_U)}, {T_ENTRY(E_SUM_D)}, {T_ENTRY(E_SUM_Z)}};
static const run_fn run_prod[K_N][CA_NTYPES] = {
    {T_ENTRY(E_PROD_I)}, {T_ENTRY(E_PROD_U)}, {T_ENTRY(E_PROD_D)}, {T_ENTRY(E_PROD_Z)}};
static const run_fn run_max[CA_NTYPES] = {T_ENTRY(E_MAX)};
static const run_fn run_min[CA_NTYPES] = {T_ENTRY(E_MIN)};
static const run_fn run_argmax[CA_NTYPES] = {T_ENTRY(E_ARGMAX)};
static const run_fn run_argmin[CA_NTYPES] = {T_ENTRY(E_ARGMIN)};
static const run_fn run_any[CA_NTYPES] = {T_ENTRY(E_ANY)};
static const run_fn run_all[CA_NTYPES] = {T_ENTRY(E_ALL)};
static const run_fn run_sqdev[CA_NTYPES] = {T_ENTRY(E_SQDEV)};

/* ---- init and store ------------------------------------------------------------------ */
static void
acc_init(int op, int kind, hacc *a)
{
    memset(a, 0, sizeof *a);
    switch (op) {
    case CA_RED_SUM:
    case CA_RED_SQDEV:
        /* -0.0 is the identity of float addition (a sum of -0.0 stays -0.0) */
        a->d = -0.0;
        a->z.re = -0.0;
        a->z.im = -0.0;
        break;
    case CA_RED_PROD:
        a->i = 1;
        a->u = 1;
        a->d = 1.0;
        a->z.re = 1.0;
        break;
    case CA_RED_MAX:
        a->i = INT64_MIN;
        a->u = 0;
        a->d = -INFINITY;
        a->z.re = -INFINITY;
        a->z.im = -INFINITY;
        break;
    case CA_RED_MIN:
        a->i = INT64_MAX;
        a->u = UINT64_MAX;
        a->d = INFINITY;
        a->z.re = INFINITY;
        a->z.im = INFINITY;
        break;
    case CA_RED_ALL:
        a->i = 1;
        break;
    default: /* ANY, ARGMAX, ARGMIN: zeros */
        break;
    }
    (void)kind;
}

static void
store_d(char *out, int dtype, double v)
{
    switch (dtype) {
    case CA_FLOAT16:
        *(ca_half *)out = ca_double_to_half(v);
        break;
    case CA_FLOAT32:
        *(float *)out = (float)v;
        break;
    default:
        *(double *)out = v;
        break;
    }
}

static void
store_z(char *out, int dtype, ca_complex128 v)
{
    if (dtype == CA_COMPLEX64) {
        ca_complex64 c;
        c.re = (float)v.re;
        c.im = (float)v.im;
        memcpy(out, &c, sizeof c);
    }
    else {
        memcpy(out, &v, sizeof v);
    }
}

/* Store one result. Max and min store into the input's own dtype. */
static void
acc_store(int op, int kind, int out_dtype, char *out, const hacc *a, double divisor,
          int flags)
{
    switch (op) {
    case CA_RED_ARGMAX:
    case CA_RED_ARGMIN:
        *(int64_t *)out = a->idx;
        return;
    case CA_RED_ANY:
    case CA_RED_ALL:
        *(ca_bool *)out = (ca_bool)(a->i != 0);
        return;
    default:
        break;
    }
    switch (kind) {
    case K_I:
        switch (out_dtype) {
        case CA_BOOL:
            *(ca_bool *)out = ca_cast_bool_int64(a->i);
            break;
        case CA_INT8:
            *(int8_t *)out = ca_cast_int8_int64(a->i);
            break;
        case CA_INT16:
            *(int16_t *)out = ca_cast_int16_int64(a->i);
            break;
        case CA_INT32:
            *(int32_t *)out = ca_cast_int32_int64(a->i);
            break;
        default:
            *(int64_t *)out = a->i;
            break;
        }
        break;
    case K_U:
        switch (out_dtype) {
        case CA_UINT8:
            *(uint8_t *)out = ca_cast_uint8_uint64(a->u);
            break;
        case CA_UINT16:
            *(uint16_t *)out = ca_cast_uint16_uint64(a->u);
            break;
        case CA_UINT32:
            *(uint32_t *)out = ca_cast_uint32_uint64(a->u);
            break;
        default:
            *(uint64_t *)out = a->u;
            break;
        }
        break;
    case K_D: {
        double v = a->d;
        if (op == CA_RED_SUM || op == CA_RED_SQDEV) {
            v = v / divisor;
        }
        if (flags & CA_RED_SQRT) {
            v = sqrt(v);
        }
        store_d(out, out_dtype, v);
        break;
    }
    default: {
        ca_complex128 v = a->z;
        if (op == CA_RED_SUM) {
            v.re = v.re / divisor;
            v.im = v.im / divisor;
        }
        store_z(out, out_dtype, v);
        break;
    }
    }
}

static int
pick(int op, int in, int out, run_fn *run, int *kind)
{
    switch (op) {
    case CA_RED_SUM:
        *kind = out_kind(out);
        *run = run_sum[*kind][in];
        return 0;
    case CA_RED_PROD:
        *kind = out_kind(out);
        *run = run_prod[*kind][in];
        return 0;
    case CA_RED_MAX:
        *kind = native_kind(in);
        *run = run_max[in];
        return 0;
    case CA_RED_MIN:
        *kind = native_kind(in);
        *run = run_min[in];
        return 0;
    case CA_RED_ARGMAX:
        *kind = native_kind(in);
        *run = run_argmax[in];
        return 0;
    case CA_RED_ARGMIN:
        *kind = native_kind(in);
        *run = run_argmin[in];
        return 0;
    case CA_RED_ANY:
        *kind = K_I;
        *run = run_any[in];
        return 0;
    case CA_RED_ALL:
        *kind = K_I;
        *run = run_all[in];
        return 0;
    case CA_RED_SQDEV:
        *kind = K_D;
        *run = run_sqdev[in];
        return 0;
    default:
        return CA_KERR_UNSUPPORTED;
    }
}

/* ---- the walk ---------------------------------------------------------------------- */
int
ca_host_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    run_fn run = NULL;
    int kind = K_I;
    if (pick(op, in_dtype, out_dtype, &run, &kind) != 0 || run == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    const int nk = d->nkeep, nr = d->nred;
    const int64_t R = d->nred_elems;
    const int64_t inner_n = nr ? d->red_shape[nr - 1] : 1;
    const int64_t inner_s = nr ? d->red_in[nr - 1] : 0;
    const int64_t nouter = inner_n ? R / inner_n : 0;
    const int aux_complex = ca_reduce_sqdev_aux_dtype(in_dtype) == CA_COMPLEX128;
    int64_t kidx[CA_MAX_DIMS] = {0};
    int64_t ioff = 0, ooff = 0, aoff = 0;

    for (int64_t o = 0; o < d->nout; o++) {
        hacc a;
        hctx c = {0.0, {0.0, 0.0}};
        acc_init(op, kind, &a);
        if (op == CA_RED_SQDEV) {
            if (aux_complex) {
                memcpy(&c.z, d->aux + aoff, sizeof c.z);
            }
            else if (in_dtype == CA_FLOAT16) {
                float m;
                memcpy(&m, d->aux + aoff, sizeof m);
                c.d = m;
            }
            else {
                memcpy(&c.d, d->aux + aoff, sizeof c.d);
            }
        }
        int64_t ridx[CA_MAX_DIMS] = {0};
        int64_t roff = 0;
        for (int64_t q = 0; q < nouter; q++) {
            run(&a, d->in + ioff + roff, inner_n, inner_s, q * inner_n, &c);
            for (int k = nr - 2; k >= 0; k--) {
                ridx[k]++;
                roff += d->red_in[k];
                if (ridx[k] < d->red_shape[k]) {
                    break;
                }
                roff -= ridx[k] * d->red_in[k];
                ridx[k] = 0;
            }
        }
        acc_store(op, kind, out_dtype, d->out + ooff, &a, d->divisor, d->flags);
        for (int k = nk - 1; k >= 0; k--) {
            kidx[k]++;
            ioff += d->keep_in[k];
            ooff += d->keep_out[k];
            aoff += d->keep_aux[k];
            if (kidx[k] < d->keep_shape[k]) {
                break;
            }
            ioff -= kidx[k] * d->keep_in[k];
            ooff -= kidx[k] * d->keep_out[k];
            aoff -= kidx[k] * d->keep_aux[k];
            kidx[k] = 0;
        }
    }
    return 0;
}

/* ---- scans ------------------------------------------------------------------------- */
typedef void (*scan_fn)(const char *p, int64_t n, int64_t s, char *q, int64_t qs);

#define DEF_SCAN_I(name, ctype)                                                         \
    static void csum_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)   \
    {                                                                                   \
        uint64_t acc = 0;                                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc += (uint64_t)LD_I(name, ctype, p + i * s);                              \
            *(int64_t *)(q + i * qs) = (int64_t)acc;                                    \
        }                                                                               \
    }                                                                                   \
    static void cprod_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)  \
    {                                                                                   \
        uint64_t acc = 1;                                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= (uint64_t)LD_I(name, ctype, p + i * s);                              \
            *(int64_t *)(q + i * qs) = (int64_t)acc;                                    \
        }                                                                               \
    }
#define DEF_SCAN_U(name, ctype)                                                         \
    static void csum_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)   \
    {                                                                                   \
        uint64_t acc = 0;                                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc += LD_U(name, ctype, p + i * s);                                        \
            *(uint64_t *)(q + i * qs) = acc;                                            \
        }                                                                               \
    }                                                                                   \
    static void cprod_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)  \
    {                                                                                   \
        uint64_t acc = 1;                                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= LD_U(name, ctype, p + i * s);                                        \
            *(uint64_t *)(q + i * qs) = acc;                                            \
        }                                                                               \
    }
/* Floats scan in double and round each prefix once into the output dtype (the
 * output dtype is the input's: float16, float32 or float64). */
#define DEF_SCAN_D(name, ctype)                                                         \
    static void csum_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)   \
    {                                                                                   \
        double acc = -0.0;                                                              \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc += LD_D(name, ctype, p + i * s);                                        \
            *(ctype *)(q + i * qs) = ca_cast_##name##_float64(acc);                     \
        }                                                                               \
    }                                                                                   \
    static void cprod_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)  \
    {                                                                                   \
        double acc = 1.0;                                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            acc *= LD_D(name, ctype, p + i * s);                                        \
            *(ctype *)(q + i * qs) = ca_cast_##name##_float64(acc);                     \
        }                                                                               \
    }
#define DEF_SCAN_Z(name, ctype)                                                         \
    static void csum_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)   \
    {                                                                                   \
        ca_complex128 acc = {-0.0, -0.0};                                               \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            acc.re += v.re;                                                             \
            acc.im += v.im;                                                             \
            *(ctype *)(q + i * qs) = ca_cast_##name##_complex128(acc);                  \
        }                                                                               \
    }                                                                                   \
    static void cprod_##name(const char *p, int64_t n, int64_t s, char *q, int64_t qs)  \
    {                                                                                   \
        ca_complex128 acc = {1.0, 0.0};                                                 \
        for (int64_t i = 0; i < n; i++) {                                               \
            ca_complex128 v = LD_Z(name, ctype, p + i * s);                             \
            double re = acc.re * v.re - acc.im * v.im;                                  \
            acc.im = acc.re * v.im + acc.im * v.re;                                     \
            acc.re = re;                                                                \
            *(ctype *)(q + i * qs) = ca_cast_##name##_complex128(acc);                  \
        }                                                                               \
    }
#define DEF_SCAN(code, ctype, name) HCAT(DEF_SCAN_, HK_##name)(name, ctype)
CA_FOR_EACH_DTYPE(DEF_SCAN)

#define E_CSUM(code, ctype, name) [code] = csum_##name,
#define E_CPROD(code, ctype, name) [code] = cprod_##name,
static const scan_fn scan_sum[CA_NTYPES] = {T_ENTRY(E_CSUM)};
static const scan_fn scan_prod[CA_NTYPES] = {T_ENTRY(E_CPROD)};

int
ca_host_scan(int op, ca_scan_desc *d, int in_dtype, int out_dtype)
{
    (void)out_dtype; /* a supported pair's output is the input's NumPy sum type */
    scan_fn f = op == CA_RED_SUM ? scan_sum[in_dtype] : scan_prod[in_dtype];
    if (f == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    int64_t idx[CA_MAX_DIMS] = {0};
    int64_t ioff = 0, ooff = 0;
    for (int64_t r = 0; r < d->nrows; r++) {
        f(d->in + ioff, d->len, d->in_stride, d->out + ooff, d->out_stride);
        for (int k = d->nbatch - 1; k >= 0; k--) {
            idx[k]++;
            ioff += d->batch_in[k];
            ooff += d->batch_out[k];
            if (idx[k] < d->batch_shape[k]) {
                break;
            }
            ioff -= idx[k] * d->batch_in[k];
            ooff -= idx[k] * d->batch_out[k];
            idx[k] = 0;
        }
    }
    return 0;
}

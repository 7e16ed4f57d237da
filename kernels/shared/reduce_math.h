/*
 * reduce_math.h: the per-element math of the reductions and scans of
 * kernels/reductions.def, once for the GPU and the host (CA_HD: __host__
 * __device__ under nvcc, static inline in C11).
 *
 * A kernel row of reductions.def names its identity, combine and finish steps;
 * tools/gen_reductions.py appends the accumulator's type name and calls
 * ca_red_<step>_<type>, where <type> is one of scalar.h's dtype names (int64,
 * float32, complex128, ...), `truth` (an int, 0 or 1) or, for the arg
 * reductions, a value type whose accumulator is ca_red_arg_<type> (value and
 * position). The GPU kernels (reduce_impl.cuh) and the host loops
 * (host_reduce.c) differ in how they walk and group the elements, and in the
 * accumulator some inputs get (build/generated tells which), never in these
 * steps. The rules:
 * - integer sums and products wrap as NumPy's (computed in uint64, where
 *   overflow is defined);
 * - -0.0 is the identity of float addition, so a sum of -0.0 stays -0.0;
 * - max and min propagate NaN (a complex with a NaN part is NaN); complex
 *   numbers order lexicographically, as NumPy's;
 * - argmax and argmin combine order-free: the better value wins, ties go to the
 *   smaller position, a NaN beats everything (the first NaN among NaNs); the
 *   `later` form is that combine for an element past every position seen;
 * - the finish steps divide by the divisor (mean, var; integer results never
 *   divide) and take the square root when CA_RED_SQRT is set (std).
 */
#ifndef CA_REDUCE_MATH_H
#define CA_REDUCE_MATH_H

#include <math.h>
#include <stdint.h>

#include "kernels.h"
#include "scalar.h"

typedef int ca_red_truth;

/* ======================================================================== */
/* sums and products (accumulators int64, uint64, float32, float64,          */
/* complex128)                                                                */
/* ======================================================================== */
/* The identities of the sums (-0.0: a sum of -0.0 stays -0.0) and products, one
 * function per accumulator type (complex: re + im i). */
#define CA_RED_CONSTANTS(what, INT, F32, F64, RE, IM)                                  \
    CA_HD int64_t ca_red_##what##_int64(void) { return INT; }                          \
    CA_HD uint64_t ca_red_##what##_uint64(void) { return INT; }                        \
    CA_HD float ca_red_##what##_float32(void) { return F32; }                          \
    CA_HD double ca_red_##what##_float64(void) { return F64; }                         \
    CA_HD ca_complex128 ca_red_##what##_complex128(void)                               \
    {                                                                                  \
        ca_complex128 r;                                                               \
        r.re = RE;                                                                     \
        r.im = IM;                                                                     \
        return r;                                                                      \
    }
CA_RED_CONSTANTS(zero, 0, -0.0f, -0.0, -0.0, -0.0)
CA_RED_CONSTANTS(one, 1, 1.0f, 1.0, 1.0, 0.0)

CA_HD int64_t
ca_red_add_int64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a + (uint64_t)b);
}
CA_HD uint64_t
ca_red_add_uint64(uint64_t a, uint64_t b)
{
    return a + b;
}
CA_HD float
ca_red_add_float32(float a, float b)
{
    return a + b;
}
CA_HD double
ca_red_add_float64(double a, double b)
{
    return a + b;
}
CA_HD ca_complex128
ca_red_add_complex128(ca_complex128 a, ca_complex128 b)
{
    ca_complex128 r;
    r.re = a.re + b.re;
    r.im = a.im + b.im;
    return r;
}

CA_HD int64_t
ca_red_mul_int64(int64_t a, int64_t b)
{
    return (int64_t)((uint64_t)a * (uint64_t)b);
}
CA_HD uint64_t
ca_red_mul_uint64(uint64_t a, uint64_t b)
{
    return a * b;
}
CA_HD float
ca_red_mul_float32(float a, float b)
{
    return a * b;
}
CA_HD double
ca_red_mul_float64(double a, double b)
{
    return a * b;
}
CA_HD ca_complex128
ca_red_mul_complex128(ca_complex128 a, ca_complex128 b)
{
    ca_complex128 r;
    r.re = a.re * b.re - a.im * b.im;
    r.im = a.re * b.im + a.im * b.re;
    return r;
}

/* Division by the element count (mean, var); integers never divide. float32
 * divides in float, as the GPU's float16 sums do. */
/* A finish step that needs neither the divisor nor the flags: EXPR of a. */
#define CA_RED_FIN(Out, fn, Acc, EXPR)                                                 \
    CA_HD Out fn(Acc a, double d, int flags)                                           \
    {                                                                                  \
        (void)d;                                                                       \
        (void)flags;                                                                   \
        return EXPR;                                                                   \
    }
CA_RED_FIN(int64_t, ca_red_fin_div_int64, int64_t, a)
CA_RED_FIN(uint64_t, ca_red_fin_div_uint64, uint64_t, a)
CA_HD float
ca_red_fin_div_float32(float a, double d, int flags)
{
    (void)flags;
    return a / (float)d;
}
CA_HD double
ca_red_fin_div_float64(double a, double d, int flags)
{
    (void)flags;
    return a / d;
}
CA_HD ca_complex128
ca_red_fin_div_complex128(ca_complex128 a, double d, int flags)
{
    ca_complex128 r;
    (void)flags;
    r.re = a.re / d;
    r.im = a.im / d;
    return r;
}

/* var and std: the sum of squares over the divisor, std's square root. */
CA_HD float
ca_red_fin_divsqrt_float32(float a, double d, int flags)
{
    const float v = a / (float)d;
    return (flags & CA_RED_SQRT) ? sqrtf(v) : v;
}
CA_HD double
ca_red_fin_divsqrt_float64(double a, double d, int flags)
{
    const double v = a / d;
    return (flags & CA_RED_SQRT) ? sqrt(v) : v;
}

/* The map step of var and std: |x - m|^2, x and the mean m in the aux type
 * (float32 for float16 inputs, complex128 for complex ones, else float64). */
CA_HD float
ca_red_sqdev_float32(float x, float m)
{
    const float v = x - m;
    return v * v;
}
CA_HD double
ca_red_sqdev_float64(double x, double m)
{
    const double v = x - m;
    return v * v;
}
CA_HD double
ca_red_sqdev_complex128(ca_complex128 x, ca_complex128 m)
{
    const double re = x.re - m.re, im = x.im - m.im;
    return re * re + im * im;
}

/* The map step of the 2-norm (sum of squares, no mean): |x|^2 in sqdev's type. */
CA_HD float
ca_red_abs2_float32(float x)
{
    return x * x;
}
CA_HD double
ca_red_abs2_float64(double x)
{
    return x * x;
}
CA_HD double
ca_red_abs2_complex128(ca_complex128 x)
{
    return x.re * x.re + x.im * x.im;
}

/* ======================================================================== */
/* truth values (any, all)                                                   */
/* ======================================================================== */
CA_HD ca_red_truth
ca_red_false_truth(void)
{
    return 0;
}
CA_HD ca_red_truth
ca_red_true_truth(void)
{
    return 1;
}
CA_HD ca_red_truth
ca_red_or_truth(ca_red_truth a, ca_red_truth b)
{
    return a | b;
}
CA_HD ca_red_truth
ca_red_and_truth(ca_red_truth a, ca_red_truth b)
{
    return a & b;
}
/* The host loops stop once the accumulator cannot change any more. */
CA_HD int
ca_red_stop_or_truth(ca_red_truth a)
{
    return a != 0;
}
CA_HD int
ca_red_stop_and_truth(ca_red_truth a)
{
    return a == 0;
}
CA_HD ca_bool
ca_cast_bool_truth(ca_red_truth a)
{
    return (ca_bool)(a != 0);
}

/* The value types of the ordered and NaN-skipping forms, as X(T, name) rows. */
#define CA_RED_INT_TYPES(X)                                                            \
    X(ca_bool, bool)                                                                   \
    X(int8_t, int8)                                                                    \
    X(uint8_t, uint8)                                                                  \
    X(int16_t, int16)                                                                  \
    X(uint16_t, uint16)                                                                \
    X(int32_t, int32)                                                                  \
    X(uint32_t, uint32)                                                                \
    X(int64_t, int64)                                                                  \
    X(uint64_t, uint64)
#define CA_RED_VALUE_TYPES(X)                                                          \
    CA_RED_INT_TYPES(X)                                                                \
    X(float, float32)                                                                  \
    X(double, float64)                                                                 \
    X(ca_complex64, complex64)                                                         \
    X(ca_complex128, complex128)

/* ======================================================================== */
/* ordered values (max, min, argmax, argmin)                                 */
/* ======================================================================== */
/* Value types: bool ... uint64, float32 (float16 compares as float32),
 * float64, complex64, complex128. Per type: isnan, gt (a > b), lo and hi (the
 * identities of max and min), max and min (the same rule in the form each kind
 * compiles best to), and the arg accumulator. */
#define CA_RED_ORDERED_COMMON(T, name)                                                 \
    typedef struct {                                                                   \
        T v;                                                                           \
        int64_t i; /* -1: no element seen */                                           \
    } ca_red_arg_##name;                                                               \
    CA_HD ca_red_arg_##name ca_red_argnone_##name(void)                                \
    {                                                                                  \
        ca_red_arg_##name a;                                                           \
        a.v = ca_red_lo_##name();                                                      \
        a.i = -1;                                                                      \
        return a;                                                                      \
    }                                                                                  \
    CA_HD ca_red_arg_##name ca_red_argat_##name(T v, int64_t i)                        \
    {                                                                                  \
        ca_red_arg_##name a;                                                           \
        a.v = v;                                                                       \
        a.i = i;                                                                       \
        return a;                                                                      \
    }                                                                                  \
    /* "a beats b" without NaNs: the arg GPU kernels' fast path tests it */            \
    CA_HD int ca_red_argmax_better_##name(T a, T b) { return ca_red_gt_##name(a, b); } \
    CA_HD int ca_red_argmin_better_##name(T a, T b) { return ca_red_gt_##name(b, a); } \
    CA_RED_ARG_COMBINE(T, name, argmax)                                                \
    CA_RED_ARG_COMBINE(T, name, argmin)                                                \
    CA_RED_FIN(int64_t, ca_red_fin_index_##name, ca_red_arg_##name, a.i)

/* The combine of two (value, index) pairs: the better value, the lower index on a
 * tie or of two NaNs. With one NaN: IF_A_NAN if it is a's, else the other;
 * IF_A_NAN a for argmax and argmin (a NaN beats every number), b for nanargmax
 * and nanargmin (every number beats a NaN). */
#define CA_RED_ARG_PAIR(T, name, fn, which, IF_A_NAN, ELSE)                            \
    CA_HD ca_red_arg_##name fn(ca_red_arg_##name a, ca_red_arg_##name b)               \
    {                                                                                  \
        if (a.i < 0) {                                                                 \
            return b;                                                                  \
        }                                                                              \
        if (b.i < 0) {                                                                 \
            return a;                                                                  \
        }                                                                              \
        const int an = ca_red_isnan_##name(a.v), bn = ca_red_isnan_##name(b.v);        \
        if (an || bn) {                                                                \
            if (an && bn) {                                                            \
                return a.i < b.i ? a : b;                                              \
            }                                                                          \
            return an ? IF_A_NAN : ELSE;                                               \
        }                                                                              \
        if (ca_red_##which##_better_##name(a.v, b.v)) {                                \
            return a;                                                                  \
        }                                                                              \
        if (ca_red_##which##_better_##name(b.v, a.v)) {                                \
            return b;                                                                  \
        }                                                                              \
        return a.i < b.i ? a : b;                                                      \
    }

#define CA_RED_ARG_COMBINE(T, name, which)                                             \
    CA_RED_ARG_PAIR(T, name, ca_red_##which##_##name, which, a, b)                     \
    /* The combine with the element (v, i) when i is past every position in a (the  \
     * host loops meet elements in order): v wins if nothing was seen, or if a holds \
     * no NaN and v is NaN or better. */  \
    CA_HD ca_red_arg_##name ca_red_##which##_later_##name(ca_red_arg_##name a, T v,    \
                                                          int64_t i)                   \
    {                                                                                  \
        if (a.i >= 0 &&                                                                \
            (ca_red_isnan_##name(a.v) ||                                               \
             (!ca_red_isnan_##name(v) && !ca_red_##which##_better_##name(v, a.v)))) {  \
            return a;                                                                  \
        }                                                                              \
        return ca_red_argat_##name(v, i);                                              \
    }

/* One of max, min, fmax, fmin: NaN first, in one test, so that the plain select
 * after it compiles to maxsd/minsd on the host. With a NaN: NAN_A if a is NaN,
 * else NAN_B; without: b where X > Y, else a. */
#define CA_RED_SELECT(T, name, fn, NAN_A, NAN_B, X, Y)                                 \
    CA_HD T fn(T a, T b)                                                               \
    {                                                                                  \
        if (ca_red_isnan_##name(a) || ca_red_isnan_##name(b)) {                        \
            return ca_red_isnan_##name(a) ? NAN_A : NAN_B;                             \
        }                                                                              \
        return ca_red_gt_##name(X, Y) ? b : a;                                         \
    }

/* Max and min of real values: a NaN wins. */
#define CA_RED_MAXMIN_REAL(T, name)                                                    \
    CA_RED_SELECT(T, name, ca_red_max_##name, a, b, b, a)                              \
    CA_RED_SELECT(T, name, ca_red_min_##name, a, b, a, b)

/* Complex: the tests short-circuit (each isnan is two compares); b where b is
 * NaN or X > Y, unless a is NaN. */
#define CA_RED_SELECT_COMPLEX(T, name, fn, X, Y)                                       \
    CA_HD T fn(T a, T b)                                                               \
    {                                                                                  \
        return (!ca_red_isnan_##name(a) &&                                             \
                (ca_red_isnan_##name(b) || ca_red_gt_##name(X, Y)))                    \
                   ? b                                                                 \
                   : a;                                                                \
    }
#define CA_RED_MAXMIN_COMPLEX(T, name)                                                 \
    CA_RED_SELECT_COMPLEX(T, name, ca_red_max_##name, b, a)                            \
    CA_RED_SELECT_COMPLEX(T, name, ca_red_min_##name, a, b)

#define CA_RED_ORDERED_INT(T, name, LO, HI)                                            \
    CA_HD int ca_red_isnan_##name(T v)                                                 \
    {                                                                                  \
        (void)v;                                                                       \
        return 0;                                                                      \
    }                                                                                  \
    CA_HD int ca_red_gt_##name(T a, T b) { return a > b; }                             \
    CA_HD T ca_red_lo_##name(void) { return LO; }                                      \
    CA_HD T ca_red_hi_##name(void) { return HI; }                                      \
    CA_RED_MAXMIN_REAL(T, name)                                                        \
    CA_RED_ORDERED_COMMON(T, name)

CA_RED_ORDERED_INT(ca_bool, bool, 0, UINT8_MAX)
CA_RED_ORDERED_INT(int8_t, int8, INT8_MIN, INT8_MAX)
CA_RED_ORDERED_INT(uint8_t, uint8, 0, UINT8_MAX)
CA_RED_ORDERED_INT(int16_t, int16, INT16_MIN, INT16_MAX)
CA_RED_ORDERED_INT(uint16_t, uint16, 0, UINT16_MAX)
CA_RED_ORDERED_INT(int32_t, int32, INT32_MIN, INT32_MAX)
CA_RED_ORDERED_INT(uint32_t, uint32, 0, UINT32_MAX)
CA_RED_ORDERED_INT(int64_t, int64, INT64_MIN, INT64_MAX)
CA_RED_ORDERED_INT(uint64_t, uint64, 0, UINT64_MAX)

#define CA_RED_ORDERED_FLOAT(T, name)                                                  \
    CA_HD int ca_red_isnan_##name(T v) { return v != v; }                              \
    CA_HD int ca_red_gt_##name(T a, T b) { return a > b; }                             \
    CA_HD T ca_red_lo_##name(void) { return -(T)INFINITY; }                            \
    CA_HD T ca_red_hi_##name(void) { return (T)INFINITY; }                             \
    CA_RED_MAXMIN_REAL(T, name)                                                        \
    CA_RED_ORDERED_COMMON(T, name)

CA_RED_ORDERED_FLOAT(float, float32)
CA_RED_ORDERED_FLOAT(double, float64)

#define CA_RED_ORDERED_COMPLEX(T, R, name)                                             \
    CA_HD int ca_red_isnan_##name(T v) { return v.re != v.re || v.im != v.im; }        \
    CA_HD int ca_red_gt_##name(T a, T b)                                               \
    {                                                                                  \
        return a.re > b.re || (a.re == b.re && a.im > b.im);                           \
    }                                                                                  \
    CA_HD T ca_red_lo_##name(void)                                                     \
    {                                                                                  \
        T r;                                                                           \
        r.re = r.im = -(R)INFINITY;                                                    \
        return r;                                                                      \
    }                                                                                  \
    CA_HD T ca_red_hi_##name(void)                                                     \
    {                                                                                  \
        T r;                                                                           \
        r.re = r.im = (R)INFINITY;                                                     \
        return r;                                                                      \
    }                                                                                  \
    CA_RED_MAXMIN_COMPLEX(T, name)                                                     \
    CA_RED_ORDERED_COMMON(T, name)

CA_RED_ORDERED_COMPLEX(ca_complex64, float, complex64)
CA_RED_ORDERED_COMPLEX(ca_complex128, double, complex128)

/* ======================================================================== */
/* NaN-skipping forms (nansum ... nanargmin, the non-NaN count)              */
/* ======================================================================== */
/* nansum's identity: +0, so that nansum([-0.0]) is 0.0 as NumPy's. */
CA_RED_CONSTANTS(pzero, 0, 0.0f, 0.0, 0.0, 0.0)

/* The map steps of nansum/nanprod: a NaN enters as +0 (so that an all-NaN sum
 * is +0.0, as NumPy's NaN-replaced copy gives) or as 1. */
#define CA_RED_NANREPL_INT(T, name)                                                    \
    CA_HD T ca_red_nanzero_##name(T x) { return x; }                                   \
    CA_HD T ca_red_nanone_##name(T x) { return x; }
CA_RED_NANREPL_INT(int64_t, int64)
CA_RED_NANREPL_INT(uint64_t, uint64)
#define CA_RED_NANREPL_FLOAT(T, name)                                                  \
    CA_HD T ca_red_nanzero_##name(T x) { return x != x ? (T)0 : x; }                   \
    CA_HD T ca_red_nanone_##name(T x) { return x != x ? (T)1 : x; }
CA_RED_NANREPL_FLOAT(float, float32)
CA_RED_NANREPL_FLOAT(double, float64)
/* a complex number with a NaN part is NaN (numpy.isnan) */
#define CA_RED_NANREPL_COMPLEX(what, RE)                                               \
    CA_HD ca_complex128 ca_red_##what##_complex128(ca_complex128 x)                    \
    {                                                                                  \
        if (x.re != x.re || x.im != x.im) {                                            \
            x.re = RE;                                                                 \
            x.im = 0.0;                                                                \
        }                                                                              \
        return x;                                                                      \
    }
CA_RED_NANREPL_COMPLEX(nanzero, 0.0)
CA_RED_NANREPL_COMPLEX(nanone, 1.0)

/* nanmax/nanmin: fmax/fmin skip NaN; the identity is NaN, so an all-NaN slice
 * gives NaN (integers: lo and hi as max and min). */
#define CA_RED_NANORDER_INT(T, name)                                                   \
    CA_HD T ca_red_nanlo_##name(void) { return ca_red_lo_##name(); }                   \
    CA_HD T ca_red_nanhi_##name(void) { return ca_red_hi_##name(); }                   \
    CA_HD T ca_red_fmax_##name(T a, T b) { return b > a ? b : a; }                     \
    CA_HD T ca_red_fmin_##name(T a, T b) { return b < a ? b : a; }
CA_RED_INT_TYPES(CA_RED_NANORDER_INT)
#define CA_RED_NANORDER_NAN(T, name, NANV)                                             \
    CA_HD T ca_red_nanlo_##name(void) { return NANV; }                                 \
    CA_HD T ca_red_nanhi_##name(void) { return NANV; }                                 \
    CA_RED_SELECT(T, name, ca_red_fmax_##name, b, a, b, a)                             \
    CA_RED_SELECT(T, name, ca_red_fmin_##name, b, a, a, b)
CA_HD ca_complex64
ca_red_p_nan_complex64(void)
{
    ca_complex64 r;
    r.re = r.im = NAN;
    return r;
}
CA_HD ca_complex128
ca_red_p_nan_complex128(void)
{
    ca_complex128 r;
    r.re = r.im = (double)NAN;
    return r;
}
CA_RED_NANORDER_NAN(float, float32, NAN)
CA_RED_NANORDER_NAN(double, float64, (double)NAN)
CA_RED_NANORDER_NAN(ca_complex64, complex64, ca_red_p_nan_complex64())
CA_RED_NANORDER_NAN(ca_complex128, complex128, ca_red_p_nan_complex128())

/* nanargmax/nanargmin: a NaN loses to every number (the first NaN is kept only
 * while nothing else was seen); the finish step turns a NaN-valued result (an
 * all-NaN slice) into -1, which the Python function reports as NumPy's
 * ValueError. */
#define CA_RED_NANARG(T, name, which)                                                  \
    CA_RED_ARG_PAIR(T, name, ca_red_nan##which##_##name, which, b, a)                  \
    CA_HD ca_red_arg_##name ca_red_nan##which##_later_##name(ca_red_arg_##name a, T v, \
                                                             int64_t i)                \
    {                                                                                  \
        if (a.i < 0 || (ca_red_isnan_##name(a.v) && !ca_red_isnan_##name(v))) {        \
            return ca_red_argat_##name(v, i);                                          \
        }                                                                              \
        if (ca_red_isnan_##name(v) || !ca_red_##which##_better_##name(v, a.v)) {       \
            return a;                                                                  \
        }                                                                              \
        return ca_red_argat_##name(v, i);                                              \
    }
#define CA_RED_NANARG_ALL(T, name)                                                     \
    CA_RED_NANARG(T, name, argmax)                                                     \
    CA_RED_NANARG(T, name, argmin)                                                     \
    CA_RED_FIN(int64_t, ca_red_fin_nanindex_##name, ca_red_arg_##name,                 \
               ca_red_isnan_##name(a.v) ? -1 : a.i)
CA_RED_VALUE_TYPES(CA_RED_NANARG_ALL)

/* The non-NaN count's map step (nanmean, nanvar, nanstd). */
#define CA_RED_NOTNAN(T, name)                                                         \
    CA_HD int64_t ca_red_notnan_##name(T x) { return ca_red_isnan_##name(x) ? 0 : 1; }
CA_RED_VALUE_TYPES(CA_RED_NOTNAN)

#endif /* CA_REDUCE_MATH_H */

/*
 * ew_math.h: the scalar math of every element-wise op, once for the GPU and the
 * host (CA_HD: __host__ __device__ under nvcc, static inline in C11).
 *
 * kernels/ops.def writes each op as an expression such as `add(a, b)`; the
 * generator turns `add` into ca_add_<suffix>, the suffix naming the loop's
 * compute type: b (bool, as int 0/1), i8 u8 i16 u16 i32 u32 i64 u64, f32, f64,
 * c64, c128 (float16 computes as f32). Results follow NumPy:
 * - integers wrap on overflow (computed in unsigned arithmetic: no C UB);
 *   division, remainder, fmod and reciprocal by zero give 0, MIN // -1 == MIN;
 *   shifts by the bit width or more (or negative) give 0, or -1 for a negative
 *   value shifted right; integer power by squaring (a negative exponent is
 *   rejected by the caller where it can be seen, else gives 0 / +-1 for +-1);
 * - floats: NaN propagates through maximum/minimum, fmax/fmin skip it,
 *   floor_divide and remainder use NumPy's divmod sign rules, logaddexp is
 *   NumPy's formula;
 * - complex: division is Smith's algorithm as in NumPy, power is NumPy's
 *   (repeated multiplication for integer exponents below 100), comparisons and
 *   maximum/minimum order lexicographically, sign is NumPy 2's z/|z|. complex64
 *   transcendental functions evaluate in double precision and round once.
 *   Inverse trigonometric and hyperbolic functions use Kahan's branch-cut-exact
 *   formulas.
 * The math library itself (sinf, exp, ...) is the platform's: glibc on the host,
 * CUDA's (<= 2 ulp) on the GPU, so results may differ from NumPy's in the last
 * bits, never in the special values.
 */
#ifndef CA_EW_MATH_H
#define CA_EW_MATH_H

#include <math.h>
#include <stdint.h>

#include "scalar.h"

/* ======================================================================== */
/* helpers                                                                    */
/* ======================================================================== */
CA_P_DEF(int, ca_p_isnan_f, (float x), x != x)
CA_P_DEF(int, ca_p_isnan_d, (double x), x != x)
CA_P_DEF(int, ca_p_isinf_f, (float x), x == INFINITY || x == -INFINITY)
CA_P_DEF(int, ca_p_isinf_d, (double x), x == (double)INFINITY || x == -(double)INFINITY)
CA_P_DEF(int, ca_p_isfinite_f, (float x), x - x == 0.0f)
CA_P_DEF(int, ca_p_isfinite_d, (double x), x - x == 0.0)
CA_P_DEF(int, ca_p_signbit_f, (float x), (int)(ca_float_bits(x) >> 31))
CA_P_DEF(int, ca_p_signbit_d, (double x), (int)(ca_double_bits(x) >> 63))

/* The complex number re + im*j of type T (parts R). */
#define CA_P_MAKE(name, T, R)                                                          \
    CA_HD T name(R re, R im)                                                           \
    {                                                                                  \
        T r;                                                                           \
        r.re = re;                                                                     \
        r.im = im;                                                                     \
        return r;                                                                      \
    }
CA_P_MAKE(ca_p_c, ca_complex64, float)
CA_P_MAKE(ca_p_z, ca_complex128, double)

CA_P_DEF(ca_complex128, ca_p_c2z, (ca_complex64 a), ca_p_z((double)a.re, (double)a.im))
CA_P_DEF(ca_complex64, ca_p_z2c, (ca_complex128 a), ca_p_c((float)a.re, (float)a.im))

#define CA_P_LN2    0.693147180559945309417232121458176568
#define CA_P_LOG2E  1.442695040888963407359924681001892137
#define CA_P_LOG10E 0.434294481903251827651128918916605082
#define CA_P_PI_2   1.570796326794896619231321691639751442

/* Helpers of the same text in several families. CA_P_CONST1: a one-operand helper
 * whose value does not depend on the operand (imag of a real, isnan of an
 * integer); CA_P_CMP_FNS: the six comparisons of a real type (integer or float). */
#define CA_P_CONST1(S, T, R, name, v)                                                  \
    CA_HD R ca_##name##_##S(T a)                                                       \
    {                                                                                  \
        (void)a;                                                                       \
        return v;                                                                      \
    }
#define CA_P_CMP_FNS(S, T)                                                             \
    CA_HD int ca_eq_##S(T a, T b) { return a == b; }                                   \
    CA_HD int ca_ne_##S(T a, T b) { return a != b; }                                   \
    CA_HD int ca_lt_##S(T a, T b) { return a < b; }                                    \
    CA_HD int ca_le_##S(T a, T b) { return a <= b; }                                   \
    CA_HD int ca_gt_##S(T a, T b) { return a > b; }                                    \
    CA_HD int ca_ge_##S(T a, T b) { return a >= b; }

/* ======================================================================== */
/* bool (computed as int 0/1)                                                 */
/* ======================================================================== */
CA_P_DEF(int, ca_add_b, (int a, int b), a | b)
CA_P_DEF(int, ca_mul_b, (int a, int b), a &b)
CA_P_DEF(int, ca_abs_b, (int a), a)
CA_P_DEF(int, ca_floor_b, (int a), a)
CA_P_DEF(int, ca_ceil_b, (int a), a)
CA_P_DEF(int, ca_trunc_b, (int a), a)
CA_P_DEF(int, ca_round_b, (int a), a)
CA_P_DEF(int, ca_max_b, (int a, int b), a | b)
CA_P_DEF(int, ca_min_b, (int a, int b), a &b)
CA_P_DEF(int, ca_clipmax_b, (int a, int b), a | b)
CA_P_DEF(int, ca_clipmin_b, (int a, int b), a &b)
CA_P_DEF(int, ca_fmax_b, (int a, int b), a | b)
CA_P_DEF(int, ca_fmin_b, (int a, int b), a &b)
CA_HD int
ca_isnan_b(int a)
{
    (void)a;
    return 0;
}
CA_HD int
ca_isinf_b(int a)
{
    (void)a;
    return 0;
}
CA_HD int
ca_isfinite_b(int a)
{
    (void)a;
    return 1;
}
CA_P_DEF(int, ca_eq_b, (int a, int b), a == b)
CA_P_DEF(int, ca_ne_b, (int a, int b), a != b)
CA_P_DEF(int, ca_lt_b, (int a, int b), a < b)
CA_P_DEF(int, ca_le_b, (int a, int b), a <= b)
CA_P_DEF(int, ca_gt_b, (int a, int b), a > b)
CA_P_DEF(int, ca_ge_b, (int a, int b), a >= b)
CA_P_DEF(int, ca_land_b, (int a, int b), a &&b)
CA_P_DEF(int, ca_lor_b, (int a, int b), a || b)
CA_P_DEF(int, ca_lxor_b, (int a, int b), a != b)
CA_P_DEF(int, ca_lnot_b, (int a), !a)
CA_P_DEF(int, ca_band_b, (int a, int b), a &b)
CA_P_DEF(int, ca_bor_b, (int a, int b), a | b)
CA_P_DEF(int, ca_bxor_b, (int a, int b), a ^ b)
CA_P_DEF(int, ca_inv_b, (int a), !a)
CA_P_DEF(int, ca_real_b, (int a), a)
CA_P_CONST1(b, int, int, imag, 0)
CA_P_CONST1(b, int, double, angle, 0.0)

/* ======================================================================== */
/* integers                                                                   */
/* ======================================================================== */
/* T the type, UT its unsigned twin, WT the unsigned type arithmetic runs in (at
 * least unsigned int, so nothing promotes to a signed int that could overflow). */
#define CA_P_INT_COMMON(S, T, UT, WT, BITS)                                            \
    CA_HD T ca_add_##S(T a, T b) { return (T)(UT)((WT)(UT)a + (WT)(UT)b); }            \
    CA_HD T ca_sub_##S(T a, T b) { return (T)(UT)((WT)(UT)a - (WT)(UT)b); }            \
    CA_HD T ca_mul_##S(T a, T b) { return (T)(UT)((WT)(UT)a * (WT)(UT)b); }            \
    CA_HD T ca_neg_##S(T a) { return (T)(UT)((WT)0 - (WT)(UT)a); }                     \
    CA_HD T ca_pos_##S(T a) { return a; }                                              \
    CA_HD T ca_p_upow_##S(UT base, UT e)                                               \
    {                                                                                  \
        WT r = 1, x = base;                                                            \
        while (e) {                                                                    \
            if (e & 1u) {                                                              \
                r = (UT)(r * x);                                                       \
            }                                                                          \
            x = (UT)(x * x);                                                           \
            e = (UT)(e >> 1);                                                          \
        }                                                                              \
        return (T)(UT)r;                                                               \
    }                                                                                  \
    CA_HD T ca_max_##S(T a, T b) { return a > b ? a : b; }                             \
    CA_HD T ca_min_##S(T a, T b) { return a < b ? a : b; }                             \
    CA_HD T ca_clipmax_##S(T a, T b) { return a > b ? a : b; }                         \
    CA_HD T ca_clipmin_##S(T a, T b) { return a < b ? a : b; }                         \
    CA_HD T ca_fmax_##S(T a, T b) { return a > b ? a : b; }                            \
    CA_HD T ca_fmin_##S(T a, T b) { return a < b ? a : b; }                            \
    CA_HD T ca_floor_##S(T a) { return a; }                                            \
    CA_HD T ca_ceil_##S(T a) { return a; }                                             \
    CA_HD T ca_trunc_##S(T a) { return a; }                                            \
    CA_HD T ca_round_##S(T a) { return a; }                                            \
    CA_HD T ca_conj_##S(T a) { return a; }                                             \
    CA_HD T ca_real_##S(T a) { return a; }                                             \
    CA_P_CONST1(S, T, T, imag, (T)0)                                                   \
    CA_P_CONST1(S, T, int, isnan, 0)                                                   \
    CA_P_CONST1(S, T, int, isinf, 0)                                                   \
    CA_P_CONST1(S, T, int, isfinite, 1)                                                \
    CA_P_CMP_FNS(S, T)                                                                 \
    CA_HD int ca_land_##S(T a, T b) { return a != 0 && b != 0; }                       \
    CA_HD int ca_lor_##S(T a, T b) { return a != 0 || b != 0; }                        \
    CA_HD int ca_lxor_##S(T a, T b) { return (a != 0) != (b != 0); }                   \
    CA_HD int ca_lnot_##S(T a) { return a == 0; }                                      \
    CA_HD T ca_band_##S(T a, T b) { return (T)((UT)a & (UT)b); }                       \
    CA_HD T ca_bor_##S(T a, T b) { return (T)((UT)a | (UT)b); }                        \
    CA_HD T ca_bxor_##S(T a, T b) { return (T)((UT)a ^ (UT)b); }                       \
    CA_HD T ca_inv_##S(T a) { return (T)(UT)(~(WT)(UT)a); }

#define CA_P_INT_SIGNED(S, T, UT, WT, BITS)                                            \
    CA_P_INT_COMMON(S, T, UT, WT, BITS)                                                \
    CA_HD T ca_floordiv_##S(T a, T b)                                                  \
    {                                                                                  \
        if (b == 0) {                                                                  \
            return 0;                                                                  \
        }                                                                              \
        if (b == -1) {                                                                 \
            return ca_neg_##S(a);                                                      \
        }                                                                              \
        T q = (T)(a / b);                                                              \
        if ((T)(a % b) != 0 && ((a < 0) != (b < 0))) {                                 \
            q = (T)(q - 1);                                                            \
        }                                                                              \
        return q;                                                                      \
    }                                                                                  \
    /* fmod's guard written again, not rem = fmod moved to b's sign: that form      \
     * compiles to other SASS for the integer remainder kernels */  \
    CA_HD T ca_rem_##S(T a, T b)                                                       \
    {                                                                                  \
        if (b == 0 || b == -1) {                                                       \
            return 0;                                                                  \
        }                                                                              \
        T r = (T)(a % b);                                                              \
        if (r != 0 && ((r < 0) != (b < 0))) {                                          \
            r = (T)(r + b);                                                            \
        }                                                                              \
        return r;                                                                      \
    }                                                                                  \
    CA_HD T ca_fmod_##S(T a, T b)                                                      \
    {                                                                                  \
        if (b == 0 || b == -1) {                                                       \
            return 0;                                                                  \
        }                                                                              \
        return (T)(a % b);                                                             \
    }                                                                                  \
    CA_HD T ca_pow_##S(T a, T b)                                                       \
    {                                                                                  \
        if (b < 0) {                                                                   \
            if (a == 1) {                                                              \
                return 1;                                                              \
            }                                                                          \
            if (a == -1) {                                                             \
                return (T)((b & 1) ? -1 : 1);                                          \
            }                                                                          \
            return 0;                                                                  \
        }                                                                              \
        return ca_p_upow_##S((UT)a, (UT)b);                                            \
    }                                                                                  \
    CA_HD T ca_abs_##S(T a) { return a < 0 ? ca_neg_##S(a) : a; }                      \
    CA_HD T ca_sign_##S(T a) { return (T)((a > 0) - (a < 0)); }                        \
    CA_HD T ca_recip_##S(T a) { return a == 0 ? (T)0 : (T)(1 / a); }                   \
    CA_HD T ca_lshift_##S(T a, T b)                                                    \
    {                                                                                  \
        if ((uint64_t)(int64_t)b >= (uint64_t)(BITS)) {                                \
            return 0;                                                                  \
        }                                                                              \
        return (T)(UT)((WT)(UT)a << b);                                                \
    }                                                                                  \
    CA_HD T ca_rshift_##S(T a, T b)                                                    \
    {                                                                                  \
        if ((uint64_t)(int64_t)b >= (uint64_t)(BITS)) {                                \
            return (T)(a < 0 ? -1 : 0);                                                \
        }                                                                              \
        /* arithmetic shift, spelled without relying on >> of a negative value */      \
        return a < 0 ? (T) ~(T)((UT) ~(UT)a >> b) : (T)((UT)a >> b);                   \
    }

#define CA_P_INT_UNSIGNED(S, T, WT, BITS)                                              \
    CA_P_INT_COMMON(S, T, T, WT, BITS)                                                 \
    CA_HD T ca_floordiv_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a / b); }           \
    CA_HD T ca_rem_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }                \
    CA_HD T ca_fmod_##S(T a, T b) { return b == 0 ? (T)0 : (T)(a % b); }               \
    CA_HD T ca_pow_##S(T a, T b) { return ca_p_upow_##S(a, b); }                       \
    CA_HD T ca_abs_##S(T a) { return a; }                                              \
    CA_HD T ca_sign_##S(T a) { return (T)(a > 0); }                                    \
    CA_HD T ca_recip_##S(T a) { return a == 0 ? (T)0 : (T)(1u / a); }                  \
    CA_HD T ca_lshift_##S(T a, T b)                                                    \
    {                                                                                  \
        if ((uint64_t)b >= (uint64_t)(BITS)) {                                         \
            return 0;                                                                  \
        }                                                                              \
        return (T)((WT)a << b);                                                        \
    }                                                                                  \
    CA_HD T ca_rshift_##S(T a, T b)                                                    \
    {                                                                                  \
        if ((uint64_t)b >= (uint64_t)(BITS)) {                                         \
            return 0;                                                                  \
        }                                                                              \
        return (T)(a >> b);                                                            \
    }

CA_P_INT_SIGNED(i8, int8_t, uint8_t, uint32_t, 8)
CA_P_INT_SIGNED(i16, int16_t, uint16_t, uint32_t, 16)
CA_P_INT_SIGNED(i32, int32_t, uint32_t, uint32_t, 32)
CA_P_INT_SIGNED(i64, int64_t, uint64_t, uint64_t, 64)
CA_P_INT_UNSIGNED(u8, uint8_t, uint32_t, 8)
CA_P_INT_UNSIGNED(u16, uint16_t, uint32_t, 16)
CA_P_INT_UNSIGNED(u32, uint32_t, uint32_t, 32)
CA_P_INT_UNSIGNED(u64, uint64_t, uint64_t, 64)

/* int64 against uint64 without converting either to float (NumPy's lL/Ll loops). */
CA_P_DEF(int, ca_eq_i64_u64, (int64_t a, uint64_t b), a >= 0 && (uint64_t)a == b)
CA_P_DEF(int, ca_ne_i64_u64, (int64_t a, uint64_t b), !ca_eq_i64_u64(a, b))
CA_P_DEF(int, ca_lt_i64_u64, (int64_t a, uint64_t b), a < 0 || (uint64_t)a < b)
CA_P_DEF(int, ca_le_i64_u64, (int64_t a, uint64_t b), a < 0 || (uint64_t)a <= b)
CA_P_DEF(int, ca_gt_i64_u64, (int64_t a, uint64_t b), a >= 0 && (uint64_t)a > b)
CA_P_DEF(int, ca_ge_i64_u64, (int64_t a, uint64_t b), a >= 0 && (uint64_t)a >= b)
CA_P_DEF(int, ca_eq_u64_i64, (uint64_t a, int64_t b), ca_eq_i64_u64(b, a))
CA_P_DEF(int, ca_ne_u64_i64, (uint64_t a, int64_t b), ca_ne_i64_u64(b, a))
CA_P_DEF(int, ca_lt_u64_i64, (uint64_t a, int64_t b), ca_gt_i64_u64(b, a))
CA_P_DEF(int, ca_le_u64_i64, (uint64_t a, int64_t b), ca_ge_i64_u64(b, a))
CA_P_DEF(int, ca_gt_u64_i64, (uint64_t a, int64_t b), ca_lt_i64_u64(b, a))
CA_P_DEF(int, ca_ge_u64_i64, (uint64_t a, int64_t b), ca_le_i64_u64(b, a))

/* ======================================================================== */
/* real floating point (float16 computes as f32)                             */
/* ======================================================================== */
/* F is the libm suffix: f for float, empty for double; Q the ca_p_ suffix. */
/* The helpers that are libm's function of the same name, per float type S (T,
 * libm suffix F): ca_<fn>_<S>(a) = <fn><F>(a), ca_<fn>_<S>(a, b) = <fn><F>(a, b). */
/* max/min and clip's bounds: ca_<name>_<S>(a, b) is x if x is NaN, else the one of
 * x, y that `x op y` picks, in two selects (see their uses for why). */
#define CA_P_PICK(S, T, name, x, op, y)                                                \
    CA_HD T ca_##name##_##S(T a, T b)                                                  \
    {                                                                                  \
        const T r = x op y ? x : y;                                                    \
        return x != x ? x : r;                                                         \
    }
#define CA_P_LIBM1(S, T, F, fn)                                                        \
    CA_HD T ca_##fn##_##S(T a) { return fn##F(a); }
#define CA_P_LIBM2(S, T, F, fn)                                                        \
    CA_HD T ca_##fn##_##S(T a, T b) { return fn##F(a, b); }
#define CA_P_LIBM_FNS(S, T, F)                                                         \
    CA_P_LIBM2(S, T, F, fmod)                                                          \
    CA_P_LIBM2(S, T, F, pow)                                                           \
    CA_P_LIBM2(S, T, F, atan2)                                                         \
    CA_P_LIBM2(S, T, F, hypot)                                                         \
    CA_P_LIBM2(S, T, F, fmax)                                                          \
    CA_P_LIBM2(S, T, F, fmin)                                                          \
    CA_P_LIBM2(S, T, F, copysign)                                                      \
    CA_P_LIBM2(S, T, F, nextafter)                                                     \
    CA_P_LIBM1(S, T, F, sqrt)                                                          \
    CA_P_LIBM1(S, T, F, cbrt)                                                          \
    CA_P_LIBM1(S, T, F, exp)                                                           \
    CA_P_LIBM1(S, T, F, exp2)                                                          \
    CA_P_LIBM1(S, T, F, expm1)                                                         \
    CA_P_LIBM1(S, T, F, log)                                                           \
    CA_P_LIBM1(S, T, F, log2)                                                          \
    CA_P_LIBM1(S, T, F, log10)                                                         \
    CA_P_LIBM1(S, T, F, log1p)                                                         \
    CA_P_LIBM1(S, T, F, sin)                                                           \
    CA_P_LIBM1(S, T, F, cos)                                                           \
    CA_P_LIBM1(S, T, F, tan)                                                           \
    CA_P_LIBM1(S, T, F, asin)                                                          \
    CA_P_LIBM1(S, T, F, acos)                                                          \
    CA_P_LIBM1(S, T, F, atan)                                                          \
    CA_P_LIBM1(S, T, F, sinh)                                                          \
    CA_P_LIBM1(S, T, F, cosh)                                                          \
    CA_P_LIBM1(S, T, F, tanh)                                                          \
    CA_P_LIBM1(S, T, F, asinh)                                                         \
    CA_P_LIBM1(S, T, F, acosh)                                                         \
    CA_P_LIBM1(S, T, F, atanh)                                                         \
    CA_P_LIBM1(S, T, F, floor)                                                         \
    CA_P_LIBM1(S, T, F, ceil)                                                          \
    CA_P_LIBM1(S, T, F, trunc)                                                         \
    CA_P_LIBM1(S, T, F, rint)

#define CA_P_REAL(S, T, F, Q)                                                          \
    CA_HD T ca_add_##S(T a, T b) { return a + b; }                                     \
    CA_HD T ca_sub_##S(T a, T b) { return a - b; }                                     \
    CA_HD T ca_mul_##S(T a, T b) { return a * b; }                                     \
    CA_HD T ca_div_##S(T a, T b) { return a / b; }                                     \
    /* NumPy's npy_divmod: floor division and a remainder with b's sign. */            \
    CA_HD T ca_p_divmod_##S(T a, T b, T *modp)                                         \
    {                                                                                  \
        T mod = fmod##F(a, b);                                                         \
        T div, fl;                                                                     \
        if (b == (T)0) {                                                               \
            *modp = mod;                                                               \
            return a / b;                                                              \
        }                                                                              \
        div = (a - mod) / b;                                                           \
        if (mod != (T)0) {                                                             \
            if ((b < (T)0) != (mod < (T)0)) {                                          \
                mod += b;                                                              \
                div -= (T)1;                                                           \
            }                                                                          \
        }                                                                              \
        else {                                                                         \
            mod = copysign##F((T)0, b);                                                \
        }                                                                              \
        if (div != (T)0) {                                                             \
            fl = floor##F(div);                                                        \
            if (div - fl > (T)0.5) {                                                   \
                fl += (T)1;                                                            \
            }                                                                          \
        }                                                                              \
        else {                                                                         \
            fl = copysign##F((T)0, a / b);                                             \
        }                                                                              \
        *modp = mod;                                                                   \
        return fl;                                                                     \
    }                                                                                  \
    CA_HD T ca_floordiv_##S(T a, T b)                                                  \
    {                                                                                  \
        T m;                                                                           \
        return ca_p_divmod_##S(a, b, &m);                                              \
    }                                                                                  \
    CA_HD T ca_rem_##S(T a, T b)                                                       \
    {                                                                                  \
        T m;                                                                           \
        (void)ca_p_divmod_##S(a, b, &m);                                               \
        return m;                                                                      \
    }                                                                                  \
    CA_P_LIBM_FNS(S, T, F)                                                             \
    CA_HD T ca_neg_##S(T a) { return -a; }                                             \
    CA_HD T ca_pos_##S(T a) { return a; }                                              \
    CA_HD T ca_abs_##S(T a) { return fabs##F(a); }                                     \
    CA_HD T ca_sign_##S(T a)                                                           \
    {                                                                                  \
        return a > (T)0 ? (T)1 : (a < (T)0 ? (T)-1 : (a == (T)0 ? (T)0 : a));          \
    }                                                                                  \
    CA_HD T ca_recip_##S(T a) { return (T)1 / a; }                                     \
    CA_HD T ca_logaddexp_##S(T a, T b)                                                 \
    {                                                                                  \
        T t;                                                                           \
        if (a == b) {                                                                  \
            return a + (T)CA_P_LN2; /* also inf + inf */                               \
        }                                                                              \
        t = a - b;                                                                     \
        if (t > (T)0) {                                                                \
            return a + log1p##F(exp##F(-t));                                           \
        }                                                                              \
        if (t <= (T)0) {                                                               \
            return b + log1p##F(exp##F(t));                                            \
        }                                                                              \
        return t; /* NaN */                                                            \
    }                                                                                  \
    CA_HD T ca_round_##S(T a) { return rint##F(a); }                                   \
    /* round(a, decimals) in one pass, b = 10^|decimals|: NumPy's three passes   \
     * (scale, rint, scale back), each rounded to T as theirs                   */     \
    CA_HD T ca_rdup_##S(T a, T b) { return rint##F(a * b) / b; }                       \
    CA_HD T ca_rddn_##S(T a, T b) { return rint##F(a / b) * b; }                       \
    /* NaN in either propagates; on a tie the second operand wins, as NumPy. Two     \
     * selects, not (a > b || a != a): gcc vectorises a loop of these (a           \
     * short-circuit pair it leaves scalar and branchy, 40x slower).             */ \
    CA_P_PICK(S, T, max, a, >, b)                                                      \
    CA_P_PICK(S, T, min, a, <, b)                                                      \
    /* clip's max/min keep the value on a tie (clip(-0.0, 0.0, 1) is -0.0, as     \
     * NumPy); a NaN value passes through the ordered compare, a NaN bound is       \
     * returned. `b > a ? b : a` is one vmaxps and `b != b` is loop-invariant in   \
     * the scalar-bounds loop: ~2.5x faster there than two ca_max selects.      */    \
    CA_P_PICK(S, T, clipmax, b, >, a)                                                  \
    CA_P_PICK(S, T, clipmin, b, <, a)                                                  \
    CA_HD int ca_isnan_##S(T a) { return ca_p_isnan_##Q(a); }                          \
    CA_HD int ca_isinf_##S(T a) { return ca_p_isinf_##Q(a); }                          \
    CA_HD int ca_isfinite_##S(T a) { return ca_p_isfinite_##Q(a); }                    \
    CA_HD int ca_signbit_##S(T a) { return ca_p_signbit_##Q(a); }                      \
    CA_P_CMP_FNS(S, T)                                                                 \
    CA_HD int ca_land_##S(T a, T b) { return a != (T)0 && b != (T)0; }                 \
    CA_HD int ca_lor_##S(T a, T b) { return a != (T)0 || b != (T)0; }                  \
    CA_HD int ca_lxor_##S(T a, T b) { return (a != (T)0) != (b != (T)0); }             \
    CA_HD int ca_lnot_##S(T a) { return a == (T)0; }                                   \
    CA_HD T ca_conj_##S(T a) { return a; }                                             \
    CA_HD T ca_real_##S(T a) { return a; }                                             \
    CA_P_CONST1(S, T, T, imag, (T)0)                                                   \
    CA_HD T ca_angle_##S(T a) { return atan2##F((T)0, a); }

CA_P_REAL(f32, float, f, f)
CA_P_REAL(f64, double, , d)

/* ---- more real math: angles, heaviside, logaddexp2, ldexp/frexp, nextafter,
 * spacing, i0 (NumPy's formulas, npy_math) ---------------------------------- */
#define CA_P_PI 3.141592653589793238462643383279502884
/* spacing: the next magnitude's bits minus the magnitude (exact, Sterbenz), with
 * a's sign (+ for -0.0, as NumPy's nextafter towards +inf); NaN for inf and NaN.
 * Straight-line bit arithmetic, so the host loop vectorises (nextafter's call
 * made it 3x slower than NumPy's). */
CA_HD float
ca_p_spacing_f(float a)
{
    const float m = fabsf(a);
    const float d = ca_bits_float(ca_float_bits(m) + 1u) - m;
    const float r = a < 0.0f ? -d : d;
    return ca_p_isfinite_f(a) ? r : NAN;
}
CA_HD double
ca_p_spacing_d(double a)
{
    const double m = fabs(a);
    const double d = ca_bits_double(ca_double_bits(m) + 1u) - m;
    const double r = a < 0.0 ? -d : d;
    return ca_p_isfinite_d(a) ? r : (double)NAN;
}
#define CA_P_REAL_MORE(S, T, F, Q)                                                     \
    /* NumPy multiplies by the constant rounded in the loop's own type */              \
    CA_HD T ca_deg2rad_##S(T a) { return a * ((T)CA_P_PI / (T)180); }                  \
    CA_HD T ca_rad2deg_##S(T a) { return a * ((T)180 / (T)CA_P_PI); }                  \
    CA_HD T ca_heaviside_##S(T a, T b)                                                 \
    {                                                                                  \
        if (a != a) {                                                                  \
            return a;                                                                  \
        }                                                                              \
        return a == (T)0 ? b : (a < (T)0 ? (T)0 : (T)1);                               \
    }                                                                                  \
    CA_HD T ca_logaddexp2_##S(T a, T b)                                                \
    {                                                                                  \
        T t;                                                                           \
        if (a == b) {                                                                  \
            return a + (T)1; /* also inf + inf */                                      \
        }                                                                              \
        t = a - b;                                                                     \
        if (t > (T)0) {                                                                \
            return a + (T)CA_P_LOG2E * log1p##F(exp2##F(-t));                          \
        }                                                                              \
        if (t <= (T)0) {                                                               \
            return b + (T)CA_P_LOG2E * log1p##F(exp2##F(t));                           \
        }                                                                              \
        return t; /* NaN */                                                            \
    }                                                                                  \
    /* an int64 exponent saturates to int's range, as NumPy's */                       \
    CA_HD T ca_ldexp_##S##_i32(T a, int32_t b) { return ldexp##F(a, (int)b); }         \
    CA_HD T ca_ldexp_##S##_i64(T a, int64_t b)                                         \
    {                                                                                  \
        const int e = b > 2147483647                                                   \
                          ? 2147483647                                                 \
                          : (b < -2147483647 - 1 ? -2147483647 - 1 : (int)b);          \
        return ldexp##F(a, e);                                                         \
    }                                                                                  \
    /* frexp's two results; the exponent of inf and NaN is 0, as NumPy's */            \
    CA_HD T ca_frexpm_##S(T a)                                                         \
    {                                                                                  \
        int e = 0;                                                                     \
        if (!ca_p_isfinite_##Q(a)) {                                                   \
            return a;                                                                  \
        }                                                                              \
        return frexp##F(a, &e);                                                        \
    }                                                                                  \
    CA_HD int32_t ca_frexpe_##S(T a)                                                   \
    {                                                                                  \
        int e = 0;                                                                     \
        if (!ca_p_isfinite_##Q(a)) {                                                   \
            return 0;                                                                  \
        }                                                                              \
        (void)frexp##F(a, &e);                                                         \
        return (int32_t)e;                                                             \
    }                                                                                  \
    /* the distance to the next value away from zero (negative for x < 0) */           \
    CA_HD T ca_spacing_##S(T a) { return ca_p_spacing_##Q(a); }

CA_P_REAL_MORE(f32, float, f, f)
CA_P_REAL_MORE(f64, double, , d)

/* float16 nextafter and spacing step the binary16 bits (npy_half_nextafter and
 * npy_half_spacing; the loops compute in float, where every half is exact).
 * NumPy's half spacing is the step towards +inf for every finite value. */
CA_HD float
ca_p_half_step(float x, float y)
{
    if (x != x || y != y) {
        return x + y;
    }
    if (x == y) {
        return y; /* C99's rule (and NumPy 2.5's): nextafter(-0, +0) is +0 */
    }
    uint16_t h = ca_float_to_half(x).bits;
    if ((h & 0x7fffu) == 0) {
        h = (uint16_t)((y < 0.0f ? 0x8000u : 0u) | 1u);
    }
    else if ((x < y) == (x > 0.0f)) {
        h = (uint16_t)(h + 1u);
    }
    else {
        h = (uint16_t)(h - 1u);
    }
    ca_half r;
    r.bits = h;
    return ca_half_to_float(r);
}
CA_P_DEF(float, ca_nextafter_f16, (float a, float b), ca_p_half_step(a, b))
CA_HD float
ca_spacing_f16(float a)
{
    if (!ca_p_isfinite_f(a)) {
        return NAN;
    }
    return ca_p_half_step(a, INFINITY) - a;
}

/* The modified Bessel function I0 in double: the power series below 30 (positive
 * terms, no cancellation), the asymptotic series above (its terms shrink until
 * k ~ 2x); NumPy's i0 answers NaN for +-inf and overflows with exp(x). */
CA_HD double
ca_p_i0(double x)
{
    x = fabs(x);
    if (x != x || x == (double)INFINITY) {
        return NAN;
    }
    if (x <= 30.0) {
        const double q = 0.25 * x * x;
        double t = 1.0, s = 1.0;
        for (int k = 1; k < 200 && t > s * 1e-17; k++) {
            t *= q / ((double)k * (double)k);
            s += t;
        }
        return s;
    }
    const double r = 1.0 / (8.0 * x);
    double t = 1.0, s = 1.0;
    for (int k = 1; k < 60; k++) {
        const double f = (double)(2 * k - 1);
        t *= f * f * r / (double)k;
        s += t;
        if (t < s * 1e-17) {
            break;
        }
    }
    /* sqrt(x) apart: 2 pi x overflows for x near DBL_MAX */
    return exp(x) * (s * 0.398942280401432677939946059934) / sqrt(x);
}
CA_P_DEF(double, ca_i0_f64, (double a), ca_p_i0(a))
CA_P_DEF(float, ca_i0_f32, (float a), (float)ca_p_i0((double)a))
#define CA_P_I0_INT(S, T)                                                              \
    CA_HD double ca_i0_##S(T a) { return ca_p_i0((double)a); }
CA_P_I0_INT(b, int)
CA_P_I0_INT(i8, int8_t)
CA_P_I0_INT(u8, uint8_t)
CA_P_I0_INT(i16, int16_t)
CA_P_I0_INT(u16, uint16_t)
CA_P_I0_INT(i32, int32_t)
CA_P_I0_INT(u32, uint32_t)
CA_P_I0_INT(i64, int64_t)
CA_P_I0_INT(u64, uint64_t)

/* ---- integer gcd, lcm, bitwise_count ---------------------------------------------
 * On the magnitudes as unsigned numbers, the result wrapped to the type: NumPy's
 * answers for INT_MIN and for lcms that overflow (lcm(int8 100, 8) == -56). */
CA_HD int
ca_p_popcount64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return (int)((x * 0x0101010101010101ull) >> 56);
}
#define CA_P_GCD_COMMON(S, T, UT, WT)                                                  \
    CA_HD UT ca_p_ugcd_##S(UT a, UT b)                                                 \
    {                                                                                  \
        while (b != 0) {                                                               \
            const UT t = (UT)(a % b);                                                  \
            a = b;                                                                     \
            b = t;                                                                     \
        }                                                                              \
        return a;                                                                      \
    }                                                                                  \
    CA_HD T ca_gcd_##S(T a, T b)                                                       \
    {                                                                                  \
        return (T)ca_p_ugcd_##S(ca_p_mag_##S(a), ca_p_mag_##S(b));                     \
    }                                                                                  \
    CA_HD T ca_lcm_##S(T a, T b)                                                       \
    {                                                                                  \
        const UT ua = ca_p_mag_##S(a), ub = ca_p_mag_##S(b);                           \
        const UT g = ca_p_ugcd_##S(ua, ub);                                            \
        return g == 0 ? (T)0 : (T)(UT)((WT)(UT)(ua / g) * (WT)ub);                     \
    }                                                                                  \
    CA_HD uint8_t ca_popcount_##S(T a)                                                 \
    {                                                                                  \
        return (uint8_t)ca_p_popcount64(ca_p_mag_##S(a));                              \
    }
#define CA_P_GCD_SIGNED(S, T, UT, WT)                                                  \
    CA_HD UT ca_p_mag_##S(T a) { return a < 0 ? (UT)((WT)0 - (WT)(UT)a) : (UT)a; }     \
    CA_P_GCD_COMMON(S, T, UT, WT)
#define CA_P_GCD_UNSIGNED(S, T, WT)                                                    \
    CA_HD T ca_p_mag_##S(T a) { return a; }                                            \
    CA_P_GCD_COMMON(S, T, T, WT)
CA_P_GCD_SIGNED(i8, int8_t, uint8_t, uint32_t)
CA_P_GCD_SIGNED(i16, int16_t, uint16_t, uint32_t)
CA_P_GCD_SIGNED(i32, int32_t, uint32_t, uint32_t)
CA_P_GCD_SIGNED(i64, int64_t, uint64_t, uint64_t)
CA_P_GCD_UNSIGNED(u8, uint8_t, uint32_t)
CA_P_GCD_UNSIGNED(u16, uint16_t, uint32_t)
CA_P_GCD_UNSIGNED(u32, uint32_t, uint32_t)
CA_P_GCD_UNSIGNED(u64, uint64_t, uint64_t)

/* ======================================================================== */
/* complex                                                                    */
/* ======================================================================== */
/* What complex64 and complex128 do alike, in their own precision: arithmetic,
 * comparisons, ordering. S suffix, T struct, R real type, F libm suffix, Q the
 * ca_p_ suffix, P the struct constructor. */
/* Complex helpers of one shape. CA_P_CPART2: a predicate of both parts, joined by
 * op; CA_P_CLEX: the lexicographic order a op b (op2 on the imaginary parts, the
 * real parts equal), false where an imaginary part is NaN and the real parts differ
 * (NumPy's CLT/CLE/CGT/CGE); CA_P_SEL: a where cond holds, else b. */
#define CA_P_CPART2(S, T, Q, name, op)                                                 \
    CA_HD int ca_##name##_##S(T a)                                                     \
    {                                                                                  \
        return ca_p_##name##_##Q(a.re) op ca_p_##name##_##Q(a.im);                     \
    }
#define CA_P_CLEX(S, T, name, op, op2)                                                 \
    CA_HD int ca_##name##_##S(T a, T b)                                                \
    {                                                                                  \
        return (a.re op b.re && a.im == a.im && b.im == b.im) ||                       \
               (a.re == b.re && a.im op2 b.im);                                        \
    }
#define CA_P_SEL(S, T, name, cond)                                                     \
    CA_HD T ca_##name##_##S(T a, T b) { return (cond) ? a : b; }

#define CA_P_CPLX(S, T, R, F, Q, P)                                                    \
    CA_HD T ca_add_##S(T a, T b) { return P(a.re + b.re, a.im + b.im); }               \
    CA_HD T ca_sub_##S(T a, T b) { return P(a.re - b.re, a.im - b.im); }               \
    CA_HD T ca_mul_##S(T a, T b)                                                       \
    {                                                                                  \
        return P(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re);                \
    }                                                                                  \
    /* Smith's algorithm, as NumPy (a zero divisor gives inf/nan per part). */         \
    CA_HD T ca_div_##S(T a, T b)                                                       \
    {                                                                                  \
        const R abr = fabs##F(b.re), abi = fabs##F(b.im);                              \
        if (abr >= abi) {                                                              \
            if (abr == (R)0 && abi == (R)0) {                                          \
                return P(a.re / abr, a.im / abi);                                      \
            }                                                                          \
            const R rat = b.im / b.re;                                                 \
            const R scl = (R)1 / (b.re + b.im * rat);                                  \
            return P((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl);            \
        }                                                                              \
        const R rat = b.re / b.im;                                                     \
        const R scl = (R)1 / (b.im + b.re * rat);                                      \
        return P((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl);                \
    }                                                                                  \
    CA_HD T ca_neg_##S(T a) { return P(-a.re, -a.im); }                                \
    CA_HD T ca_pos_##S(T a) { return a; }                                              \
    CA_HD T ca_conj_##S(T a) { return P(a.re, -a.im); }                                \
    CA_HD R ca_real_##S(T a) { return a.re; }                                          \
    CA_HD R ca_imag_##S(T a) { return a.im; }                                          \
    CA_HD R ca_angle_##S(T a) { return atan2##F(a.im, a.re); }                         \
    CA_HD R ca_abs_##S(T a) { return hypot##F(a.re, a.im); }                           \
    /* NumPy 2: z/|z|; 0 for 0; an infinite part gives a unit along it. */             \
    CA_HD T ca_p_sign_##S(T a)                                                         \
    {                                                                                  \
        const R m = hypot##F(a.re, a.im);                                              \
        if (m != m) {                                                                  \
            return P(m, m);                                                            \
        }                                                                              \
        if (ca_p_isinf_##Q(m)) {                                                       \
            if (ca_p_isinf_##Q(a.re)) {                                                \
                if (ca_p_isinf_##Q(a.im)) {                                            \
                    return P(m - m, m - m);                                            \
                }                                                                      \
                return P(a.re > (R)0 ? (R)1 : (R)-1, (R)0);                            \
            }                                                                          \
            return P((R)0, a.im > (R)0 ? (R)1 : (R)-1);                                \
        }                                                                              \
        if (m == (R)0) {                                                               \
            return P((R)0, (R)0);                                                      \
        }                                                                              \
        return P(a.re / m, a.im / m);                                                  \
    }                                                                                  \
    /* NumPy's complex reciprocal. */                                                  \
    CA_HD T ca_recip_##S(T a)                                                          \
    {                                                                                  \
        if (fabs##F(a.im) <= fabs##F(a.re)) {                                          \
            const R r = a.im / a.re;                                                   \
            const R d = a.re + a.im * r;                                               \
            return P((R)1 / d, -r / d);                                                \
        }                                                                              \
        const R r = a.re / a.im;                                                       \
        const R d = a.re * r + a.im;                                                   \
        return P(r / d, (R)-1 / d);                                                    \
    }                                                                                  \
    CA_HD T ca_rint_##S(T a) { return P(rint##F(a.re), rint##F(a.im)); }               \
    CA_HD T ca_round_##S(T a) { return P(rint##F(a.re), rint##F(a.im)); }              \
    CA_P_CPART2(S, T, Q, isnan, ||)                                                    \
    CA_P_CPART2(S, T, Q, isinf, ||)                                                    \
    CA_P_CPART2(S, T, Q, isfinite, &&)                                                 \
    /* Lexicographic order with NumPy's NaN rules (CLT/CLE/CGT/CGE). */                \
    CA_HD int ca_eq_##S(T a, T b) { return a.re == b.re && a.im == b.im; }             \
    CA_HD int ca_ne_##S(T a, T b) { return a.re != b.re || a.im != b.im; }             \
    CA_P_CLEX(S, T, lt, <, <)                                                          \
    CA_P_CLEX(S, T, le, <, <=)                                                         \
    CA_P_CLEX(S, T, gt, >, >)                                                          \
    CA_P_CLEX(S, T, ge, >, >=)                                                         \
    /* clip's max/min: NaN in the value propagates, the bounds compare plainly */      \
    CA_P_SEL(S, T, clipmax,                                                            \
             ca_isnan_##S(a) || a.re > b.re || (a.re == b.re && a.im > b.im))          \
    CA_P_SEL(S, T, clipmin,                                                            \
             ca_isnan_##S(a) || a.re < b.re || (a.re == b.re && a.im < b.im))          \
    CA_P_SEL(S, T, max, ca_isnan_##S(a) || ca_ge_##S(a, b))                            \
    CA_P_SEL(S, T, min, ca_isnan_##S(a) || ca_le_##S(a, b))                            \
    CA_P_SEL(S, T, fmax, ca_isnan_##S(b) || ca_ge_##S(a, b))                           \
    CA_P_SEL(S, T, fmin, ca_isnan_##S(b) || ca_le_##S(a, b))                           \
    CA_HD int ca_p_nz_##S(T a) { return a.re != (R)0 || a.im != (R)0; }                \
    CA_HD int ca_land_##S(T a, T b) { return ca_p_nz_##S(a) && ca_p_nz_##S(b); }       \
    CA_HD int ca_lor_##S(T a, T b) { return ca_p_nz_##S(a) || ca_p_nz_##S(b); }        \
    CA_HD int ca_lxor_##S(T a, T b) { return ca_p_nz_##S(a) != ca_p_nz_##S(b); }       \
    CA_HD int ca_lnot_##S(T a) { return !ca_p_nz_##S(a); }                             \
    CA_HD T ca_p_ipow_##S(T a, T b, int *done)                                         \
    {                                                                                  \
        /* NumPy's npy_cpow up to the general case. */                                 \
        *done = 1;                                                                     \
        if (b.re == (R)0 && b.im == (R)0) {                                            \
            return P((R)1, (R)0);                                                      \
        }                                                                              \
        if (a.re == (R)0 && a.im == (R)0) {                                            \
            /* 0 ** b (b complex too): 0 where re(b) > 0, else NaN (NumPy 2) */        \
            return b.re > (R)0 ? P((R)0, (R)0) : P((R)NAN, (R)NAN);                    \
        }                                                                              \
        if (b.im == (R)0 && b.re > (R)-100 && b.re < (R)100 && (R)(int)b.re == b.re) { \
            int n = (int)b.re;                                                         \
            if (n == 1) {                                                              \
                return a;                                                              \
            }                                                                          \
            if (n == 2) {                                                              \
                return ca_mul_##S(a, a);                                               \
            }                                                                          \
            if (n == 3) {                                                              \
                return ca_mul_##S(a, ca_mul_##S(a, a));                                \
            }                                                                          \
            T acc = P((R)1, (R)0), p = a;                                              \
            int mask = 1;                                                              \
            if (n < 0) {                                                               \
                n = -n;                                                                \
            }                                                                          \
            for (;;) {                                                                 \
                if (n & mask) {                                                        \
                    acc = ca_mul_##S(acc, p);                                          \
                }                                                                      \
                mask <<= 1;                                                            \
                if (n < mask) {                                                        \
                    break;                                                             \
                }                                                                      \
                p = ca_mul_##S(p, p);                                                  \
            }                                                                          \
            if (b.re < (R)0) {                                                         \
                acc = ca_div_##S(P((R)1, (R)0), acc);                                  \
            }                                                                          \
            return acc;                                                                \
        }                                                                              \
        *done = 0;                                                                     \
        return a;                                                                      \
    }

CA_P_CPLX(c64, ca_complex64, float, f, f, ca_p_c)
CA_P_CPLX(c128, ca_complex128, double, , d, ca_p_z)

/* ---- complex128 functions -------------------------------------------------- */
CA_HD ca_complex128
ca_sign_c128(ca_complex128 a)
{
    const double s = fabs(a.re) > fabs(a.im) ? fabs(a.re) : fabs(a.im);
    if (s > 1e300 && s < (double)INFINITY) {
        /* |z| would overflow: scale first (z/|z| does not change) */
        return ca_p_sign_c128(ca_p_z(a.re / s, a.im / s));
    }
    return ca_p_sign_c128(a);
}

CA_P_DEF(ca_complex64, ca_sign_c64, (ca_complex64 a),
         ca_p_z2c(ca_p_sign_c128(ca_p_c2z(a))))

CA_HD ca_complex128
ca_sqrt_c128(ca_complex128 z)
{
    double a = z.re, b = z.im, t;
    int scale = 0;
    ca_complex128 r;
    if (a == 0.0 && b == 0.0) {
        return ca_p_z(0.0, b);
    }
    if (ca_p_isinf_d(b)) {
        return ca_p_z((double)INFINITY, b);
    }
    if (a != a) {
        return ca_p_z(a, b - b + a);
    }
    if (ca_p_isinf_d(a)) {
        if (a < 0.0) {
            /* -inf: +0 + i inf (NaN + i inf for a NaN imaginary part) */
            return ca_p_z(fabs(b - b), copysign((double)INFINITY, b));
        }
        return ca_p_z(a, copysign(b - b, b));
    }
    /* |z| near the top of the range: scale down so a + |z| cannot overflow. */
    if (fabs(a) >= 7.4462887744497663e307 || fabs(b) >= 7.4462887744497663e307) {
        a *= 0.25;
        b *= 0.25;
        scale = 1;
    }
    if (a >= 0.0) {
        t = sqrt((a + hypot(a, b)) * 0.5);
        r = ca_p_z(t, b / (2.0 * t));
    }
    else {
        t = sqrt((-a + hypot(a, b)) * 0.5);
        r = ca_p_z(fabs(b) / (2.0 * t), copysign(t, b));
    }
    if (scale) {
        r.re *= 2.0;
        r.im *= 2.0;
    }
    return r;
}

CA_HD ca_complex128
ca_exp_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (y == 0.0) {
        return ca_p_z(exp(x), y);
    }
    if (!ca_p_isfinite_d(y)) {
        if (ca_p_isinf_d(x)) {
            /* -inf: +0 and a zero signed as y (unspecified in Annex G; glibc's) */
            return x > 0.0 ? ca_p_z(x, y - y) : ca_p_z(0.0, copysign(0.0, y));
        }
        return ca_p_z(y - y, y - y);
    }
    const double e = exp(x);
    return ca_p_z(e * cos(y), e * sin(y));
}

CA_HD ca_complex128
ca_log_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    const double ax = fabs(x), ay = fabs(y);
    double re;
    if (ca_p_isfinite_d(x) && ca_p_isfinite_d(y)) {
        const double mx = ax > ay ? ax : ay, mn = ax > ay ? ay : ax;
        if (mx > 0.5 && mx < 2.0) {
            /* near |z| == 1, log|z| = log1p(|z|^2 - 1) / 2 keeps its digits */
            re = 0.5 * log1p((mx - 1.0) * (mx + 1.0) + mn * mn);
        }
        else if (mx > 1e300) {
            /* |z| itself would overflow */
            const double q = mn / mx;
            re = log(mx) + 0.5 * log1p(q * q);
        }
        else {
            re = log(hypot(x, y));
        }
    }
    else {
        re = log(hypot(x, y));
    }
    return ca_p_z(re, atan2(y, x));
}

CA_P_DEF(ca_complex128, ca_exp2_c128, (ca_complex128 z),
         ca_exp_c128(ca_p_z(z.re *CA_P_LN2, z.im *CA_P_LN2)))

/* The special values are C99 Annex G's for cexp, minus one (the array API's
 * table for expm1). */
CA_HD ca_complex128
ca_expm1_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (ca_p_isinf_d(x) && !ca_p_isfinite_d(y)) {
        /* -inf + i(inf or NaN) -> -1 + 0i; +inf + i(inf or NaN) -> inf + NaN i */
        return x < 0.0 ? ca_p_z(-1.0, 0.0) : ca_p_z(x, y - y);
    }
    if (y == 0.0) {
        /* a real argument keeps its zero imaginary part (x = +inf, NaN too) */
        return ca_p_z(expm1(x), y);
    }
    if (x < 0.0 && ca_p_isinf_d(x)) {
        /* exp(x) cis(y) vanishes: exactly -1 + 0i, the zero signed as y */
        return ca_p_z(-1.0, copysign(0.0, y));
    }
    const double a = sin(y * 0.5);
    return ca_p_z(expm1(x) * cos(y) - 2.0 * a * a, exp(x) * sin(y));
}

CA_HD ca_complex128
ca_log2_c128(ca_complex128 z)
{
    ca_complex128 r = ca_log_c128(z);
    return ca_p_z(r.re * CA_P_LOG2E, r.im * CA_P_LOG2E);
}

CA_HD ca_complex128
ca_log10_c128(ca_complex128 z)
{
    ca_complex128 r = ca_log_c128(z);
    return ca_p_z(r.re * CA_P_LOG10E, r.im * CA_P_LOG10E);
}

CA_HD ca_complex128
ca_log1p_c128(ca_complex128 z)
{
    /* NumPy's formula */
    const double l = hypot(z.re + 1.0, z.im);
    return ca_p_z(log(l), atan2(z.im, z.re + 1.0));
}

/* a ** b: NumPy's npy_cpow cases (ca_p_ipow), else `general`. */
#define CA_P_CPOW(S, T, general)                                                       \
    CA_HD T ca_pow_##S(T a, T b)                                                       \
    {                                                                                  \
        int done;                                                                      \
        T r = ca_p_ipow_##S(a, b, &done);                                              \
        if (done) {                                                                    \
            return r;                                                                  \
        }                                                                              \
        return general;                                                                \
    }
CA_P_CPOW(c128, ca_complex128, ca_exp_c128(ca_mul_c128(b, ca_log_c128(a))))

CA_HD ca_complex128
ca_sinh_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (y == 0.0) {
        return ca_p_z(sinh(x), y);
    }
    if (x == 0.0) {
        /* sinh(+-0) cos(y): the zero's sign follows cos(y) where y is finite */
        return ca_p_z(ca_p_isfinite_d(y) ? x * cos(y) : x, sin(y));
    }
    if (ca_p_isinf_d(x) && !ca_p_isfinite_d(y)) {
        /* Annex G: +-inf + i(inf or NaN) -> inf + NaN i, the infinity's sign
         * unspecified: + as glibc's csinh (so NumPy) */
        return ca_p_z(fabs(x), y - y);
    }
    return ca_p_z(sinh(x) * cos(y), cosh(x) * sin(y));
}

CA_HD ca_complex128
ca_cosh_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (y == 0.0) {
        /* imaginary part sinh(x) * (+-0): a signed zero, even for infinite x */
        const double im =
            (x != x) ? y : ((ca_p_signbit_d(x) != ca_p_signbit_d(y)) ? -0.0 : 0.0);
        return ca_p_z(cosh(x), im);
    }
    if (!ca_p_isfinite_d(y) && (x == 0.0 || ca_p_isinf_d(x))) {
        /* Annex G: +-0 + i(inf or NaN) -> NaN + 0i (the zero's sign unspecified:
         * +0, as glibc and so NumPy); +-inf + i(inf or NaN) -> inf + NaN i */
        return x == 0.0 ? ca_p_z(y - y, 0.0) : ca_p_z(fabs(x), y - y);
    }
    if (x == 0.0) {
        return ca_p_z(cos(y), x * sin(y));
    }
    return ca_p_z(cosh(x) * cos(y), sinh(x) * sin(y));
}

CA_HD ca_complex128
ca_tanh_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (x != x) {
        return ca_p_z(x, y == 0.0 ? y : x);
    }
    if (ca_p_isinf_d(x)) {
        /* the array API's 1 + 0i for finite y > 0, conjugate-symmetric (Annex G
         * leaves the zero the sign of sin(2y)) */
        const double im = ca_p_isfinite_d(y) ? y : 0.0;
        return ca_p_z(copysign(1.0, x), copysign(0.0, im));
    }
    if (!ca_p_isfinite_d(y)) {
        /* Annex G (C11's DR 471): +-0 + i(inf or NaN) -> +-0 + NaN i */
        return ca_p_z(x == 0.0 ? x : y - y, y - y);
    }
    if (fabs(x) >= 22.0) {
        /* tanh(x) rounds to +-1; keep the tiny imaginary part */
        const double e = exp(-fabs(x));
        return ca_p_z(copysign(1.0, x), 4.0 * sin(y) * cos(y) * e * e);
    }
    /* Kahan's formula */
    const double t = tan(y);
    const double beta = 1.0 + t * t;
    const double s = sinh(x);
    const double rho = sqrt(1.0 + s * s);
    const double den = 1.0 + beta * s * s;
    return ca_p_z(beta * rho * s / den, t / den);
}

/* sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz) */
CA_HD ca_complex128
ca_sin_c128(ca_complex128 z)
{
    if (!ca_p_isfinite_d(z.re) && ca_p_isinf_d(z.im)) {
        /* NaN + inf i, the infinity's sign unspecified: + as glibc's csin */
        return ca_p_z(z.re - z.re, (double)INFINITY);
    }
    ca_complex128 w = ca_sinh_c128(ca_p_z(-z.im, z.re));
    return ca_p_z(w.im, -w.re);
}

CA_P_DEF(ca_complex128, ca_cos_c128, (ca_complex128 z),
         ca_cosh_c128(ca_p_z(-z.im, z.re)))

CA_HD ca_complex128
ca_tan_c128(ca_complex128 z)
{
    ca_complex128 w = ca_tanh_c128(ca_p_z(-z.im, z.re));
    return ca_p_z(w.im, -w.re);
}

/* |z| so large that 1/z^2 vanishes: asinh z = log 2z, acosh z = log 2z. */
CA_P_DEF(int, ca_p_big, (ca_complex128 z), fabs(z.re) > 1e150 || fabs(z.im) > 1e150)

CA_HD ca_complex128
ca_p_log2z(ca_complex128 z)
{
    ca_complex128 r = ca_log_c128(z);
    r.re += CA_P_LN2;
    return r;
}

CA_HD ca_complex128
ca_p_asinh_big(ca_complex128 z)
{
    if (ca_p_signbit_d(z.re)) {
        /* odd function: keep the principal branch for Re z < 0 */
        ca_complex128 r = ca_p_log2z(ca_p_z(-z.re, -z.im));
        return ca_p_z(-r.re, -r.im);
    }
    return ca_p_log2z(z);
}

/* C99 Annex G (and the Array API): a zero real part beside a NaN keeps its
 * known parts (asin(+-0 + iNaN) = +-0 + iNaN, acos = pi/2 + iNaN, acosh =
 * NaN + i pi/2), where the formulas below would give NaN + iNaN. */
CA_P_DEF(int, ca_p_zero_nan, (ca_complex128 z), z.re == 0.0 && z.im != z.im)

/* Kahan, "Branch cuts for complex elementary functions" (1987): exact on the
 * cuts through the signs of zero; the large-|z| forms above avoid overflow. */
CA_HD ca_complex128
ca_asin_c128(ca_complex128 z)
{
    if (ca_p_zero_nan(z)) {
        return z;
    }
    if (ca_p_big(z)) {
        /* asin z = -i asinh(iz) */
        ca_complex128 w = ca_p_asinh_big(ca_p_z(-z.im, z.re));
        return ca_p_z(w.im, -w.re);
    }
    const ca_complex128 s1 = ca_sqrt_c128(ca_p_z(1.0 - z.re, -z.im));
    const ca_complex128 s2 = ca_sqrt_c128(ca_p_z(1.0 + z.re, z.im));
    return ca_p_z(atan2(z.re, s1.re * s2.re - s1.im * s2.im),
                  asinh(s1.re * s2.im - s1.im * s2.re));
}

CA_HD ca_complex128
ca_acos_c128(ca_complex128 z)
{
    if (ca_p_zero_nan(z)) {
        return ca_p_z(CA_P_PI_2, z.im);
    }
    if (ca_p_big(z)) {
        /* acos z = |arg z| -+ i log 2|z| directly: pi/2 - asin z would lose
         * the tiny real part of acos(1e300 + 0.5i), 5e-301 */
        const ca_complex128 w = ca_p_log2z(z);
        return ca_p_z(fabs(w.im), -copysign(w.re, z.im));
    }
    const ca_complex128 s1 = ca_sqrt_c128(ca_p_z(1.0 - z.re, -z.im));
    const ca_complex128 s2 = ca_sqrt_c128(ca_p_z(1.0 + z.re, z.im));
    return ca_p_z(2.0 * atan2(s1.re, s2.re), asinh(s2.re * s1.im - s2.im * s1.re));
}

CA_HD ca_complex128
ca_acosh_c128(ca_complex128 z)
{
    if (ca_p_zero_nan(z)) {
        return ca_p_z(z.im, CA_P_PI_2);
    }
    if (ca_p_big(z)) {
        return ca_p_log2z(z);
    }
    const ca_complex128 s1 = ca_sqrt_c128(ca_p_z(z.re - 1.0, z.im));
    const ca_complex128 s2 = ca_sqrt_c128(ca_p_z(z.re + 1.0, z.im));
    return ca_p_z(asinh(s1.re * s2.re + s1.im * s2.im), 2.0 * atan2(s1.im, s2.re));
}

/* asinh z = -i asin(iz) */
CA_HD ca_complex128
ca_asinh_c128(ca_complex128 z)
{
    ca_complex128 w = ca_asin_c128(ca_p_z(-z.im, z.re));
    return ca_p_z(w.im, -w.re);
}

CA_HD ca_complex128
ca_atanh_c128(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    const double ax = fabs(x), ay = fabs(y);
    if (ca_p_zero_nan(z)) {
        return z; /* +-0 + iNaN, as C99's catanh */
    }
    if (x != x || y != y) {
        if (ca_p_isinf_d(y)) {
            return ca_p_z(copysign(0.0, x), copysign(CA_P_PI_2, y));
        }
        if (ca_p_isinf_d(x)) {
            return ca_p_z(copysign(0.0, x), y);
        }
        return ca_p_z(x + y, x + y);
    }
    if (ca_p_isinf_d(x) || ca_p_isinf_d(y)) {
        return ca_p_z(copysign(0.0, x), copysign(CA_P_PI_2, y));
    }
    if (ax > 1e150 || ay > 1e150) {
        /* 1/z dominates: real part x/|z|^2 (scaled), imaginary +-pi/2 */
        const double h = hypot(x, y);
        return ca_p_z((x / h) / h, copysign(CA_P_PI_2, y));
    }
    const double omx = 1.0 - x;
    const double re = 0.25 * log1p(4.0 * x / (omx * omx + y * y));
    const double im = 0.5 * atan2(2.0 * y, omx * (1.0 + x) - y * y);
    return ca_p_z(re, im);
}

/* atan z = -i atanh(iz) */
CA_HD ca_complex128
ca_atan_c128(ca_complex128 z)
{
    ca_complex128 w = ca_atanh_c128(ca_p_z(-z.im, z.re));
    return ca_p_z(w.im, -w.re);
}

/* ---- complex64: arithmetic above in float; the rest in double, rounded once -- */
#define CA_P_C64_VIA_C128(name)                                                        \
    CA_HD ca_complex64 ca_##name##_c64(ca_complex64 a)                                 \
    {                                                                                  \
        return ca_p_z2c(ca_##name##_c128(ca_p_c2z(a)));                                \
    }
CA_P_C64_VIA_C128(sqrt)
CA_P_C64_VIA_C128(exp)
CA_P_C64_VIA_C128(exp2)
CA_P_C64_VIA_C128(expm1)
CA_P_C64_VIA_C128(log)
CA_P_C64_VIA_C128(log2)
CA_P_C64_VIA_C128(log10)
CA_P_C64_VIA_C128(log1p)
CA_P_C64_VIA_C128(sin)
CA_P_C64_VIA_C128(cos)
CA_P_C64_VIA_C128(tan)
CA_P_C64_VIA_C128(sinh)
CA_P_C64_VIA_C128(cosh)
CA_P_C64_VIA_C128(tanh)
CA_P_C64_VIA_C128(asin)
CA_P_C64_VIA_C128(acos)
CA_P_C64_VIA_C128(atan)
CA_P_C64_VIA_C128(asinh)
CA_P_C64_VIA_C128(acosh)
CA_P_C64_VIA_C128(atanh)

CA_P_CPOW(c64, ca_complex64, ca_p_z2c(ca_pow_c128(ca_p_c2z(a), ca_p_c2z(b))))

/* ---- isclose ------------------------------------------------------------------ */
/* numpy.isclose's formula in one step: |a - b| <= atol + rtol * |b| where b is
 * finite, or a == b (NaNs equal too in the _nan forms). The tolerances travel as
 * one complex parameter t = atol + rtol*1j of the arrays' precision (a Python
 * complex: NumPy rounds Python float tolerances to the arrays' type alike). Each
 * step rounds as NumPy's separate ufuncs do: no fused multiply-add. */
#ifdef __CUDA_ARCH__
#define CA_P_TOL_F(t, y) __fadd_rn((t).re, __fmul_rn((t).im, (y)))
#define CA_P_TOL_D(t, y) __dadd_rn((t).re, __dmul_rn((t).im, (y)))
#else
/* C11 (ISO mode) does not contract across statements or these casts */
#define CA_P_TOL_F(t, y) ((t).re + (float)((t).im * (y)))
#define CA_P_TOL_D(t, y) ((t).re + (double)((t).im * (y)))
#endif

#define CA_P_ISCLOSE_REAL(S, T, CT, F, Q, TOL)                                         \
    CA_HD int ca_isclose_##S(T a, T b, CT t)                                           \
    {                                                                                  \
        const T d = fabs##F(a - b);                                                    \
        return (d <= TOL(t, fabs##F(b)) && ca_p_isfinite_##Q(b)) || a == b;            \
    }                                                                                  \
    CA_HD int ca_isclosen_##S(T a, T b, CT t)                                          \
    {                                                                                  \
        return ca_isclose_##S(a, b, t) || (ca_p_isnan_##Q(a) && ca_p_isnan_##Q(b));    \
    }

CA_P_ISCLOSE_REAL(f32_f32_c64, float, ca_complex64, f, f, CA_P_TOL_F)
CA_P_ISCLOSE_REAL(f64_f64_c128, double, ca_complex128, , d, CA_P_TOL_D)

#define CA_P_ISCLOSE_CPLX(S, T, R, TOL)                                                \
    CA_HD int ca_isclose_##S(T a, T b, T t)                                            \
    {                                                                                  \
        const R d = ca_abs_##S(ca_sub_##S(a, b));                                      \
        return (d <= TOL(t, ca_abs_##S(b)) && ca_isfinite_##S(b)) || ca_eq_##S(a, b);  \
    }                                                                                  \
    CA_HD int ca_isclosen_##S(T a, T b, T t)                                           \
    {                                                                                  \
        return ca_isclose_##S(a, b, t) || (ca_isnan_##S(a) && ca_isnan_##S(b));        \
    }

CA_P_ISCLOSE_CPLX(c64, ca_complex64, float, CA_P_TOL_F)
CA_P_ISCLOSE_CPLX(c128, ca_complex128, double, CA_P_TOL_D)

#endif /* CA_EW_MATH_H */

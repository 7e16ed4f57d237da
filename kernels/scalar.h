/*
 * scalar.h: the element types of the 14 ca_dtypes and the scalar helpers every
 * kernel needs, shared by nvcc (.cu) and the host C compiler (C11).
 *
 * - CA_HD marks a helper usable on host and device: `__host__ __device__ inline`
 *   under nvcc, `static inline` in C.
 * - Storage types: bool is ca_bool (one byte; any nonzero byte reads as true),
 *   ints are <stdint.h>, float16 is ca_half (a struct holding the IEEE binary16
 *   bits, so it never mixes up with uint16_t in overloads), complex is a struct
 *   {re, im}. Sizes and alignments are NumPy's.
 * - Casts follow NumPy: float->int truncates toward zero, complex->real drops the
 *   imaginary part, nonzero (and NaN) ->bool is true, bool->number is 0/1,
 *   int->int wraps, double->float16 rounds once (not through float32).
 * - Float->int where NumPy has no defined answer (NaN, inf, out of range; NumPy
 *   warns "invalid value encountered in cast" and returns whatever its CPU code
 *   gives) is defined here as NumPy computes it on x86-64, identically on host
 *   and GPU. Let cvtN(x) = trunc(x) if that fits in intN, else INTN_MIN (x86's
 *   cvttsd2si "integer indefinite"; NaN too). Then int8, uint8, int16, uint16,
 *   int32 take cvt32(x) modulo 2^bits; int64 takes cvt64(x); uint32 (uint64)
 *   takes cvt32(x - 2^31) ^ 2^31 (cvt64(x - 2^63) ^ 2^63) when x >= 2^31 (2^63),
 *   else cvt32(x) (cvt64(x)) reinterpreted. So -1.0 -> uint8 is 255, 300.0 ->
 *   int8 is 44, NaN -> int32 is INT32_MIN, inf -> uint64 is 0. (NumPy itself is
 *   not consistent for NaN/inf -> uint32: its SIMD and scalar loops differ.)
 * - CA_FOR_EACH_DTYPE(X) calls X(code, ctype, name) for the 14 types, in
 *   ca_dtype order; CA_FOR_EACH_DTYPE_PAIR(X) calls
 *   X(dcode, dctype, dname, scode, sctype, sname) for all 196 (dst, src) pairs.
 * - ca_cast_<dname>_<sname>(x) converts one value; under nvcc also
 *   ca_caster<DCODE, SCODE>::cast(x) and ca_ctype<CODE>::type for templates.
 */
#ifndef CA_SCALAR_H
#define CA_SCALAR_H

#include <stdint.h>
#include <string.h>

#include "kernels.h"

#ifdef __CUDACC__
#include <cuda_fp16.h>
#define CA_HD __host__ __device__ inline
#elif defined(__cplusplus)
#define CA_HD inline
#else
#define CA_HD static inline
#endif
/* A helper that is one expression, on one line: CA_P_DEF(R, name, (params), expr)
 * is `CA_HD R name(params) { return expr; }` (the tables of small helpers read
 * as tables). */
#define CA_P_DEF(R, name, params, expr)                                                \
    CA_HD R name params { return expr; }

/* ---- storage types ----------------------------------------------------------- */
typedef uint8_t ca_bool;
typedef struct {
    uint16_t bits;
} ca_half;
typedef struct {
    float re, im;
} ca_complex64;
typedef struct {
    double re, im;
} ca_complex128;

/* The dtypes, in code order (X(code, storage type, name)); the real ones but bool
 * on their own for the tables that leave bool and complex out. */
#define CA_FOR_EACH_REAL_NONBOOL(X)                                                    \
    X(CA_INT8, int8_t, int8)                                                           \
    X(CA_UINT8, uint8_t, uint8)                                                        \
    X(CA_INT16, int16_t, int16)                                                        \
    X(CA_UINT16, uint16_t, uint16)                                                     \
    X(CA_INT32, int32_t, int32)                                                        \
    X(CA_UINT32, uint32_t, uint32)                                                     \
    X(CA_INT64, int64_t, int64)                                                        \
    X(CA_UINT64, uint64_t, uint64)                                                     \
    X(CA_FLOAT16, ca_half, float16)                                                    \
    X(CA_FLOAT32, float, float32)                                                      \
    X(CA_FLOAT64, double, float64)
#define CA_FOR_EACH_DTYPE(X)                                                           \
    X(CA_BOOL, ca_bool, bool)                                                          \
    CA_FOR_EACH_REAL_NONBOOL(X)                                                        \
    X(CA_COMPLEX64, ca_complex64, complex64)                                           \
    X(CA_COMPLEX128, ca_complex128, complex128)

/* The same list again, carrying the three arguments of an outer X, so pairs can
 * be stamped (a macro cannot expand inside its own expansion). */
#define CA_P_FOR_EACH_DTYPE_INNER(X, dc, dt, dn)                                       \
    X(dc, dt, dn, CA_BOOL, ca_bool, bool)                                              \
    X(dc, dt, dn, CA_INT8, int8_t, int8)                                               \
    X(dc, dt, dn, CA_UINT8, uint8_t, uint8)                                            \
    X(dc, dt, dn, CA_INT16, int16_t, int16)                                            \
    X(dc, dt, dn, CA_UINT16, uint16_t, uint16)                                         \
    X(dc, dt, dn, CA_INT32, int32_t, int32)                                            \
    X(dc, dt, dn, CA_UINT32, uint32_t, uint32)                                         \
    X(dc, dt, dn, CA_INT64, int64_t, int64)                                            \
    X(dc, dt, dn, CA_UINT64, uint64_t, uint64)                                         \
    X(dc, dt, dn, CA_FLOAT16, ca_half, float16)                                        \
    X(dc, dt, dn, CA_FLOAT32, float, float32)                                          \
    X(dc, dt, dn, CA_FLOAT64, double, float64)                                         \
    X(dc, dt, dn, CA_COMPLEX64, ca_complex64, complex64)                               \
    X(dc, dt, dn, CA_COMPLEX128, ca_complex128, complex128)

#define CA_FOR_EACH_DTYPE_PAIR(X)                                                      \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_BOOL, ca_bool, bool)                               \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_INT8, int8_t, int8)                                \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_UINT8, uint8_t, uint8)                             \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_INT16, int16_t, int16)                             \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_UINT16, uint16_t, uint16)                          \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_INT32, int32_t, int32)                             \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_UINT32, uint32_t, uint32)                          \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_INT64, int64_t, int64)                             \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_UINT64, uint64_t, uint64)                          \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_FLOAT16, ca_half, float16)                         \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_FLOAT32, float, float32)                           \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_FLOAT64, double, float64)                          \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_COMPLEX64, ca_complex64, complex64)                \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_COMPLEX128, ca_complex128, complex128)

/* ---- bit access ------------------------------------------------------------------ */
/* A value's bits as another type: the device's intrinsic, else memcpy (the C way
 * to pun, compiled to a register move). */
#ifdef __CUDA_ARCH__
#define CA_P_BITCAST(name, To, From, intrinsic)                                        \
    CA_HD To name(From x) { return (To)intrinsic(x); }
#else
#define CA_P_BITCAST(name, To, From, intrinsic)                                        \
    CA_HD To name(From x)                                                              \
    {                                                                                  \
        To r;                                                                          \
        memcpy(&r, &x, sizeof r);                                                      \
        return r;                                                                      \
    }
#endif
CA_P_BITCAST(ca_float_bits, uint32_t, float, __float_as_uint)
CA_P_BITCAST(ca_bits_float, float, uint32_t, __uint_as_float)
CA_P_BITCAST(ca_double_bits, uint64_t, double, __double_as_longlong)
CA_P_BITCAST(ca_bits_double, double, uint64_t, __longlong_as_double)

/* ---- float16 <-> float32 / float64 -------------------------------------------------
 * Host: exact bit conversions, round to nearest even, subnormals, inf and NaN
 * (the NaN keeps its sign and the top payload bits, and stays a NaN). Device:
 * cuda_fp16.h's intrinsics, which compute the same values. */
CA_HD float
ca_half_to_float(ca_half h)
{
#ifdef __CUDA_ARCH__
    return __half2float(__ushort_as_half(h.bits));
#else
    uint32_t sign = (uint32_t)(h.bits & 0x8000u) << 16;
    uint32_t e = (h.bits >> 10) & 0x1fu;
    uint32_t m = h.bits & 0x3ffu;
    uint32_t bits;
    if (e == 0x1f) {
        bits = sign | 0x7f800000u | (m << 13);
    }
    else if (e == 0) {
        if (m == 0) {
            bits = sign;
        }
        else {
            /* subnormal half: normalize; m * 2^-24 */
            e = 113;
            while (!(m & 0x400u)) {
                m <<= 1;
                e--;
            }
            bits = sign | (e << 23) | ((m & 0x3ffu) << 13);
        }
    }
    else {
        bits = sign | ((e + 112) << 23) | (m << 13);
    }
    return ca_bits_float(bits);
#endif
}

/* Round-to-nearest-even of float32 bits to binary16 bits (portable, used on the
 * host; the device uses __float2half_rn). */
CA_HD uint16_t
ca_p_f32_bits_to_f16(uint32_t x)
{
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t ax = x & 0x7fffffffu;
    uint32_t r, rem, halfway, shift, mant;
    if (ax >= 0x7f800000u) {
        if (ax == 0x7f800000u) {
            return (uint16_t)(sign | 0x7c00u);
        }
        return (uint16_t)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    }
    if (ax >= 0x477ff000u) { /* >= 65520: rounds to inf */
        return (uint16_t)(sign | 0x7c00u);
    }
    if (ax < 0x38800000u) {      /* below 2^-14: half subnormal or zero */
        if (ax <= 0x33000000u) { /* <= 2^-25: ties to even give 0 */
            return (uint16_t)sign;
        }
        mant = (ax & 0x7fffffu) | 0x800000u;
        shift = 126 - (ax >> 23); /* 14..24 */
        r = mant >> shift;
        rem = mant & ((1u << shift) - 1);
        halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) {
            r++;
        }
        return (uint16_t)(sign | r);
    }
    r = (ax - 0x38000000u) >> 13;
    rem = ax & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) {
        r++;
    }
    return (uint16_t)(sign | r);
}

CA_HD ca_half
ca_float_to_half(float f)
{
    ca_half h;
#ifdef __CUDA_ARCH__
    h.bits = __half_as_ushort(__float2half_rn(f));
#else
    h.bits = ca_p_f32_bits_to_f16(ca_float_bits(f));
#endif
    return h;
}

/* double -> binary16 in one rounding (NumPy's npy_double_to_half), host and device. */
CA_HD ca_half
ca_double_to_half(double d)
{
    uint64_t x = ca_double_bits(d);
    uint32_t sign = (uint32_t)(x >> 48) & 0x8000u;
    uint64_t ax = x & 0x7fffffffffffffffull;
    uint64_t r, rem, halfway, mant;
    unsigned shift;
    ca_half h;
    if (ax >= 0x7ff0000000000000ull) {
        if (ax == 0x7ff0000000000000ull) {
            h.bits = (uint16_t)(sign | 0x7c00u);
        }
        else {
            h.bits = (uint16_t)(sign | 0x7e00u | (uint32_t)((ax >> 42) & 0x3ffu));
        }
        return h;
    }
    if (ax >= 0x40effe0000000000ull) { /* >= 65520 */
        h.bits = (uint16_t)(sign | 0x7c00u);
        return h;
    }
    if (ax < 0x3f10000000000000ull) {      /* below 2^-14 */
        if (ax <= 0x3e60000000000000ull) { /* <= 2^-25 */
            h.bits = (uint16_t)sign;
            return h;
        }
        mant = (ax & 0xfffffffffffffull) | 0x10000000000000ull;
        shift = 1051u - (unsigned)(ax >> 52); /* 43..53 */
        r = mant >> shift;
        rem = mant & ((1ull << shift) - 1);
        halfway = 1ull << (shift - 1);
        if (rem > halfway || (rem == halfway && (r & 1u))) {
            r++;
        }
        h.bits = (uint16_t)(sign | (uint32_t)r);
        return h;
    }
    r = (ax - 0x3f00000000000000ull) >> 42;
    rem = ax & 0x3ffffffffffull;
    halfway = 0x20000000000ull;
    if (rem > halfway || (rem == halfway && (r & 1u))) {
        r++;
    }
    h.bits = (uint16_t)(sign | (uint32_t)r);
    return h;
}

/* ---- float -> integer (see the header comment for out-of-range values) -------- */
CA_HD int32_t
ca_double_to_int32(double v)
{
    /* trunc(v) fits iff -2^31 - 1 < v < 2^31; NaN fails both tests. */
    if (v > -2147483649.0 && v < 2147483648.0) {
        return (int32_t)v;
    }
    return INT32_MIN;
}

/* The same as ca_double_to_int32((double)v), in float: every float at or above
 * -2^31 and below 2^31 truncates into range, and float -> int32 is one SIMD
 * conversion (float -> double -> int32 halves the lanes). */
CA_HD int32_t
ca_float_to_int32(float v)
{
    if (v >= -2147483648.0f && v < 2147483648.0f) {
        return (int32_t)v;
    }
    return INT32_MIN;
}

CA_HD int64_t
ca_double_to_int64(double v)
{
    /* Doubles below -2^63 are integers below it, so >= is the exact bound. */
    if (v >= -9223372036854775808.0 && v < 9223372036854775808.0) {
        return (int64_t)v;
    }
    return INT64_MIN;
}

CA_HD uint32_t
ca_double_to_uint32(double v)
{
    if (v >= 2147483648.0) {
        return (uint32_t)ca_double_to_int32(v - 2147483648.0) ^ 0x80000000u;
    }
    return (uint32_t)ca_double_to_int32(v);
}

CA_HD uint64_t
ca_double_to_uint64(double v)
{
    if (v >= 9223372036854775808.0) {
        return (uint64_t)ca_double_to_int64(v - 9223372036854775808.0) ^
               0x8000000000000000ull;
    }
    return (uint64_t)ca_double_to_int64(v);
}

/* ---- per destination type: from the seven source categories ------------------
 * Every source is first widened without loss to one category: s (int32: bool,
 * int8-int32, uint8, uint16), i (int64), u (uint64: uint32, uint64), f (float:
 * float16, float32), d (double), c (complex64), z (complex128). Narrowing from the
 * category is then one correctly rounded step, as NumPy's C casts do. The int32
 * category gives the same values as int64 would, in conversions the host's SIMD
 * has (int32 -> float and double; int64 -> float needs AVX-512): bool -> float32
 * and uint8 -> float32 vectorise with SSE2. */
#define CA_P_AS(name, T, cat, R, expr)                                                 \
    CA_HD R ca_p_##name##_as_##cat(T x) { return expr; }
CA_P_AS(bool, ca_bool, s, int32_t, x != 0)
CA_P_AS(int8, int8_t, s, int32_t, x)
CA_P_AS(int16, int16_t, s, int32_t, x)
CA_P_AS(int32, int32_t, s, int32_t, x)
CA_P_AS(int64, int64_t, i, int64_t, x)
CA_P_AS(uint8, uint8_t, s, int32_t, x)
CA_P_AS(uint16, uint16_t, s, int32_t, x)
CA_P_AS(uint32, uint32_t, u, uint64_t, x)
CA_P_AS(uint64, uint64_t, u, uint64_t, x)
CA_P_AS(float16, ca_half, f, float, ca_half_to_float(x))
CA_P_AS(float32, float, f, float, x)
CA_P_AS(float64, double, d, double, x)
CA_P_AS(complex64, ca_complex64, c, ca_complex64, x)
CA_P_AS(complex128, ca_complex128, z, ca_complex128, x)

#define CA_P_CAT_bool       s
#define CA_P_CAT_int8       s
#define CA_P_CAT_int16      s
#define CA_P_CAT_int32      s
#define CA_P_CAT_int64      i
#define CA_P_CAT_uint8      s
#define CA_P_CAT_uint16     s
#define CA_P_CAT_uint32     u
#define CA_P_CAT_uint64     u
#define CA_P_CAT_float16    f
#define CA_P_CAT_float32    f
#define CA_P_CAT_float64    d
#define CA_P_CAT_complex64  c
#define CA_P_CAT_complex128 z

/* bool; float16 (integers go through float32: exact below 2^24, and anything
 * larger is inf in float16 whichever way it rounds; doubles round once): one
 * line per source category. */
#define CA_P_FROM(name, R, cat, A, expr)                                               \
    CA_HD R ca_p_##name##_from_##cat(A v) { return expr; }
CA_P_FROM(bool, ca_bool, s, int32_t, (ca_bool)(v != 0))
CA_P_FROM(bool, ca_bool, i, int64_t, (ca_bool)(v != 0))
CA_P_FROM(bool, ca_bool, u, uint64_t, (ca_bool)(v != 0))
CA_P_FROM(bool, ca_bool, f, float, (ca_bool)(v != 0.0f))
CA_P_FROM(bool, ca_bool, d, double, (ca_bool)(v != 0.0))
/* no branch: vectorises */
CA_P_FROM(bool, ca_bool, c, ca_complex64, (ca_bool)((v.re != 0.0f) | (v.im != 0.0f)))
CA_P_FROM(bool, ca_bool, z, ca_complex128, (ca_bool)((v.re != 0.0) | (v.im != 0.0)))
CA_P_FROM(float16, ca_half, i, int64_t, ca_float_to_half((float)v))
CA_P_FROM(float16, ca_half, s, int32_t, ca_float_to_half((float)v))
CA_P_FROM(float16, ca_half, u, uint64_t, ca_float_to_half((float)v))
CA_P_FROM(float16, ca_half, f, float, ca_float_to_half(v))
CA_P_FROM(float16, ca_half, d, double, ca_double_to_half(v))
CA_P_FROM(float16, ca_half, c, ca_complex64, ca_float_to_half(v.re))
CA_P_FROM(float16, ca_half, z, ca_complex128, ca_double_to_half(v.re))

/* Integers: wrap from the integer categories (two's complement, as NumPy), the
 * x86 rule above from the float categories. UT is T's unsigned twin, so the
 * narrowing is a well-defined modular conversion; CVT is the float conversion
 * whose result is then narrowed. */
#define CA_P_INT_DST(name, T, UT, CVT, CVTF)                                           \
    CA_HD T ca_p_##name##_from_i(int64_t v) { return (T)(UT)(uint64_t)v; }             \
    CA_HD T ca_p_##name##_from_s(int32_t v) { return ca_p_##name##_from_i(v); }        \
    CA_HD T ca_p_##name##_from_u(uint64_t v) { return (T)(UT)v; }                      \
    CA_HD T ca_p_##name##_from_d(double v) { return (T)(UT)CVT(v); }                   \
    CA_HD T ca_p_##name##_from_f(float v) { return (T)(UT)CVTF(v); }                   \
    CA_HD T ca_p_##name##_from_c(ca_complex64 v)                                       \
    {                                                                                  \
        return ca_p_##name##_from_f(v.re);                                             \
    }                                                                                  \
    CA_HD T ca_p_##name##_from_z(ca_complex128 v) { return ca_p_##name##_from_d(v.re); }

#define CA_P_VIA_DOUBLE(CVT, v) CVT((double)(v))
#define CA_P_F_UINT32(v)        CA_P_VIA_DOUBLE(ca_double_to_uint32, v)
#define CA_P_F_INT64(v)         CA_P_VIA_DOUBLE(ca_double_to_int64, v)
#define CA_P_F_UINT64(v)        CA_P_VIA_DOUBLE(ca_double_to_uint64, v)
CA_P_INT_DST(int8, int8_t, uint8_t, ca_double_to_int32, ca_float_to_int32)
CA_P_INT_DST(uint8, uint8_t, uint8_t, ca_double_to_int32, ca_float_to_int32)
CA_P_INT_DST(int16, int16_t, uint16_t, ca_double_to_int32, ca_float_to_int32)
CA_P_INT_DST(uint16, uint16_t, uint16_t, ca_double_to_int32, ca_float_to_int32)
CA_P_INT_DST(int32, int32_t, uint32_t, ca_double_to_int32, ca_float_to_int32)
CA_P_INT_DST(uint32, uint32_t, uint32_t, ca_double_to_uint32, CA_P_F_UINT32)
CA_P_INT_DST(int64, int64_t, uint64_t, ca_double_to_int64, CA_P_F_INT64)
CA_P_INT_DST(uint64, uint64_t, uint64_t, ca_double_to_uint64, CA_P_F_UINT64)

/* float32, float64 */
#define CA_P_FLOAT_DST(name, T)                                                        \
    CA_HD T ca_p_##name##_from_i(int64_t v) { return (T)v; }                           \
    CA_HD T ca_p_##name##_from_s(int32_t v) { return (T)v; }                           \
    CA_HD T ca_p_##name##_from_u(uint64_t v) { return (T)v; }                          \
    CA_HD T ca_p_##name##_from_f(float v) { return (T)v; }                             \
    CA_HD T ca_p_##name##_from_d(double v) { return (T)v; }                            \
    CA_HD T ca_p_##name##_from_c(ca_complex64 v) { return (T)v.re; }                   \
    CA_HD T ca_p_##name##_from_z(ca_complex128 v) { return (T)v.re; }

CA_P_FLOAT_DST(float32, float)
CA_P_FLOAT_DST(float64, double)

/* complex64, complex128: the real part converted, the imaginary part 0 (or
 * converted). int32 -> double is exact: one rounding to R, as from int64. */
#define CA_P_COMPLEX_DST(name, T, R)                                                   \
    CA_HD T ca_p_##name##_make(R re, R im)                                             \
    {                                                                                  \
        T r;                                                                           \
        r.re = re;                                                                     \
        r.im = im;                                                                     \
        return r;                                                                      \
    }                                                                                  \
    CA_P_FROM(name, T, i, int64_t, ca_p_##name##_make((R)v, 0))                        \
    CA_P_FROM(name, T, u, uint64_t, ca_p_##name##_make((R)v, 0))                       \
    CA_P_FROM(name, T, f, float, ca_p_##name##_make((R)v, 0))                          \
    CA_P_FROM(name, T, d, double, ca_p_##name##_make((R)v, 0))                         \
    CA_P_FROM(name, T, c, ca_complex64, ca_p_##name##_make((R)v.re, (R)v.im))          \
    CA_P_FROM(name, T, z, ca_complex128, ca_p_##name##_make((R)v.re, (R)v.im))         \
    CA_P_FROM(name, T, s, int32_t, ca_p_##name##_from_d((double)v))

CA_P_COMPLEX_DST(complex64, ca_complex64, float)
CA_P_COMPLEX_DST(complex128, ca_complex128, double)

/* ---- the 196 casts: ca_cast_<dname>_<sname>(x) ---------------------------------- */
#define CA_P_CAST_DEF2(dt, dn, st, sn, cat)                                            \
    CA_HD dt ca_cast_##dn##_##sn(st x)                                                 \
    {                                                                                  \
        return ca_p_##dn##_from_##cat(ca_p_##sn##_as_##cat(x));                        \
    }
#define CA_P_CAST_DEF1(dt, dn, st, sn, cat) CA_P_CAST_DEF2(dt, dn, st, sn, cat)
#define CA_P_CAST_DEF(dc, dt, dn, sc, st, sn)                                          \
    CA_P_CAST_DEF1(dt, dn, st, sn, CA_P_CAT_##sn)
CA_FOR_EACH_DTYPE_PAIR(CA_P_CAST_DEF)

/* ---- small helpers ------------------------------------------------------------------ */
/* Truth value of one element, as NumPy's nonzero. */
CA_HD int
ca_half_nonzero(ca_half h)
{
    return (h.bits & 0x7fffu) != 0;
}

#ifdef __CUDACC__
/* ---- C++ views for templated kernels --------------------------------------------- */
template <int Code> struct ca_ctype;
#define CA_P_CTYPE_DEF(code, ctype, name)                                              \
    template <> struct ca_ctype<code> {                                                \
        typedef ctype type;                                                            \
    };
CA_FOR_EACH_DTYPE(CA_P_CTYPE_DEF)
#undef CA_P_CTYPE_DEF

template <int Dst, int Src> struct ca_caster;
#define CA_P_CASTER_DEF(dc, dt, dn, sc, st, sn)                                        \
    template <> struct ca_caster<dc, sc> {                                             \
        static CA_HD dt cast(st x) { return ca_cast_##dn##_##sn(x); }                  \
    };
CA_FOR_EACH_DTYPE_PAIR(CA_P_CASTER_DEF)
#undef CA_P_CASTER_DEF
#endif /* __CUDACC__ */

#endif /* CA_SCALAR_H */

/*
 * scalar.h: the element types of the 17 ca_dtypes and the scalar helpers every
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
 * - ml_dtypes' bfloat16, float8_e4m3fn and float8_e5m2 (ca_bf16, ca_f8e4m3,
 *   ca_f8e5m2: structs of their bits) cast as ml_dtypes' NumPy casts do: every
 *   value (int64 too) rounds once to nearest even; overflow is inf (e4m3fn has
 *   none: NaN, as PyTorch's .to() too: neither saturates); a NaN becomes the
 *   format's quiet NaN with its sign (payload dropped; bf16 -> float32/64 keeps
 *   it, being a shift); to integers they truncate, and a value whose truncation
 *   is out of the target's range, inf or NaN gives 0 (ml_dtypes 0.7's rules, not
 *   x86's; ml_dtypes up to 0.6 rounds int32/int64/double through float32 and
 *   converts to int as x86 does: tests/ml_dtypes_ref.py).
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
 * - CA_FOR_EACH_DTYPE(X) calls X(code, ctype, name) for the 17 types, in
 *   ca_dtype order; CA_FOR_EACH_DTYPE_PAIR(X) calls
 *   X(dcode, dctype, dname, scode, sctype, sname) for all 289 (dst, src) pairs.
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
    uint16_t bits;
} ca_bf16;
typedef struct {
    uint8_t bits;
} ca_f8e4m3;
typedef struct {
    uint8_t bits;
} ca_f8e5m2;
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
    X(CA_COMPLEX128, ca_complex128, complex128)                                        \
    CA_FOR_EACH_ML_DTYPE(X)
/* ml_dtypes' types (codes from CA_BFLOAT16 on). */
#define CA_FOR_EACH_ML_DTYPE(X)                                                        \
    X(CA_BFLOAT16, ca_bf16, bfloat16)                                                  \
    X(CA_FLOAT8_E4M3FN, ca_f8e4m3, float8_e4m3fn)                                      \
    X(CA_FLOAT8_E5M2, ca_f8e5m2, float8_e5m2)

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
    X(dc, dt, dn, CA_COMPLEX128, ca_complex128, complex128)                            \
    X(dc, dt, dn, CA_BFLOAT16, ca_bf16, bfloat16)                                      \
    X(dc, dt, dn, CA_FLOAT8_E4M3FN, ca_f8e4m3, float8_e4m3fn)                          \
    X(dc, dt, dn, CA_FLOAT8_E5M2, ca_f8e5m2, float8_e5m2)

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
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_COMPLEX128, ca_complex128, complex128)             \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_BFLOAT16, ca_bf16, bfloat16)                       \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_FLOAT8_E4M3FN, ca_f8e4m3, float8_e4m3fn)           \
    CA_P_FOR_EACH_DTYPE_INNER(X, CA_FLOAT8_E5M2, ca_f8e5m2, float8_e5m2)

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
 * cuda_fp16.h's intrinsics, which compute the same values, except that the
 * GPU's half -> float gives every NaN as the canonical 0x7fffffff: a NaN is
 * widened by its bits there, as NumPy does (sign and payload kept). */
CA_HD float
ca_half_to_float(ca_half h)
{
#ifdef __CUDA_ARCH__
    if ((h.bits & 0x7fffu) > 0x7c00u) {
        return ca_bits_float(((uint32_t)(h.bits & 0x8000u) << 16) | 0x7f800000u |
                             ((uint32_t)(h.bits & 0x3ffu) << 13));
    }
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

/* ---- bfloat16 and float8 <-> float / double ----------------------------------------
 * The same code on both devices (no intrinsics: their NaNs differ from ml_dtypes'). */
/* bfloat16 is float32's top half: widening is a shift. */
CA_HD float
ca_bf16_to_float(ca_bf16 h)
{
    return ca_bits_float((uint32_t)h.bits << 16);
}

/* Round to nearest even by adding 0x7fff plus the kept LSB; a NaN becomes the
 * quiet NaN with its sign (the carry could otherwise make it inf). */
CA_HD ca_bf16
ca_float_to_bf16(float f)
{
    uint32_t u = ca_float_bits(f);
    ca_bf16 h;
    if ((u & 0x7fffffffu) > 0x7f800000u) {
        h.bits = (uint16_t)(((u >> 16) & 0x8000u) | 0x7fc0u);
    }
    else {
        h.bits = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
    return h;
}

/* A double rounded once to a small binary format: M mantissa bits, bias B, finite
 * magnitudes up to the bits maxfin, overflow to ovf (inf, or NaN for e4m3fn), NaN
 * to nanb, the sign at bit sb. Encoding (E - emin) << M plus the rounded
 * significand r (implicit bit included) covers subnormals (E = emin, r < 2^M),
 * normals and the carry of a round-up into the next binade at once. Doubles below
 * half the smallest subnormal give 0 before the shift could reach 64. */
CA_HD uint32_t
ca_p_mini_from_double(double d, int M, int B, uint32_t maxfin, uint32_t ovf,
                      uint32_t nanb, int sb)
{
    uint64_t x = ca_double_bits(d);
    uint32_t sign = (uint32_t)(x >> 63) << sb;
    uint64_t ax = x & 0x7fffffffffffffffull;
    if (ax > 0x7ff0000000000000ull) {
        return sign | nanb;
    }
    int e = (int)(ax >> 52) - 1023, emin = 1 - B;
    if (e < emin - M - 1) {
        return sign;
    }
    int E = e < emin ? emin : e;
    unsigned shift = (unsigned)(52 - M + (E - e));
    uint64_t mant = (ax & 0xfffffffffffffull) | 0x10000000000000ull;
    uint64_t r = mant >> shift, rem = mant & ((1ull << shift) - 1);
    uint64_t half = 1ull << (shift - 1);
    r += rem > half || (rem == half && (r & 1u));
    uint64_t bits = ((uint64_t)(E - emin) << M) + r;
    return sign | (bits > maxfin ? ovf : (uint32_t)bits);
}

/* ca_double_to_<name>(d): the format's parameters for ca_p_mini_from_double. */
#define CA_P_MINI_FROM_DOUBLE(name, T, UT, M, B, maxfin, ovf, nanb, sb)                \
    CA_HD T ca_double_to_##name(double d)                                              \
    {                                                                                  \
        T h;                                                                           \
        h.bits = (UT)ca_p_mini_from_double(d, M, B, maxfin, ovf, nanb, sb);            \
        return h;                                                                      \
    }
CA_P_MINI_FROM_DOUBLE(bf16, ca_bf16, uint16_t, 7, 127, 0x7f7fu, 0x7f80u, 0x7fc0u, 15)
CA_P_MINI_FROM_DOUBLE(f8e4m3, ca_f8e4m3, uint8_t, 3, 7, 0x7eu, 0x7fu, 0x7fu, 7)
CA_P_MINI_FROM_DOUBLE(f8e5m2, ca_f8e5m2, uint8_t, 2, 15, 0x7bu, 0x7cu, 0x7eu, 7)

/* e4m3fn: no inf, NaN at S.1111.111; (8 + m) * 2^(e - 10), subnormals m * 2^-9. */
CA_HD float
ca_f8e4m3_to_float(ca_f8e4m3 h)
{
    uint32_t sign = (uint32_t)(h.bits & 0x80u) << 24;
    uint32_t e = (h.bits >> 3) & 0xfu, m = h.bits & 7u;
    if ((h.bits & 0x7fu) == 0x7fu) {
        return ca_bits_float(sign | 0x7fc00000u);
    }
    if (e == 0) {
        return ca_bits_float(ca_float_bits((float)m * 0.001953125f) | sign);
    }
    return ca_bits_float(sign | ((e + 120u) << 23) | (m << 20));
}

/* e5m2 is binary16's top byte; its NaNs become the quiet NaN with the sign. */
CA_HD float
ca_f8e5m2_to_float(ca_f8e5m2 h)
{
    ca_half w;
    if ((h.bits & 0x7fu) > 0x7cu) {
        return ca_bits_float(((uint32_t)(h.bits & 0x80u) << 24) | 0x7fc00000u);
    }
    w.bits = (uint16_t)(h.bits << 8);
    return ca_half_to_float(w);
}

/* An integer as a double rounded to odd at bit 11 for magnitudes of 2^53 and
 * more: the dropped bits' OR in the last kept bit, so rounding the double on to a
 * format of 24 bits or fewer rounds the integer's exact value once (ml_dtypes
 * rounds 2^62 + 2^54 + 1 up to bfloat16; through a plain double it would tie). */
CA_HD double
ca_p_u64_to_double_odd(uint64_t u)
{
    if (u < (1ull << 53)) {
        return (double)u;
    }
    return (double)((u >> 11) | ((u & 0x7ffu) != 0)) * 2048.0;
}

CA_HD double
ca_p_i64_to_double_odd(int64_t v)
{
    return v < 0 ? -ca_p_u64_to_double_odd(0 - (uint64_t)v)
                 : ca_p_u64_to_double_odd((uint64_t)v);
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
#define CA_P_CAT_bool          s
#define CA_P_CAT_int8          s
#define CA_P_CAT_int16         s
#define CA_P_CAT_int32         s
#define CA_P_CAT_int64         i
#define CA_P_CAT_uint8         s
#define CA_P_CAT_uint16        s
#define CA_P_CAT_uint32        u
#define CA_P_CAT_uint64        u
#define CA_P_CAT_float16       f
#define CA_P_CAT_float32       f
#define CA_P_CAT_float64       d
#define CA_P_CAT_complex64     c
#define CA_P_CAT_complex128    z
/* b: an ml_dtypes float as a float32 (exact), cast on by ml_dtypes' rules. */
#define CA_P_CAT_bfloat16      b
#define CA_P_CAT_float8_e4m3fn b
#define CA_P_CAT_float8_e5m2   b

/* ca_p_<name>_as_<cat>(x): x widened to its category (CA_P_CAT_<name>), whose
 * type is R. */
#define CA_P_AS2(name, T, cat, R, expr)                                                \
    CA_HD R ca_p_##name##_as_##cat(T x) { return expr; }
#define CA_P_AS1(name, T, cat, R, expr) CA_P_AS2(name, T, cat, R, expr)
#define CA_P_AS(name, T, R, expr)       CA_P_AS1(name, T, CA_P_CAT_##name, R, expr)
CA_P_AS(bool, ca_bool, int32_t, x != 0)
CA_P_AS(int8, int8_t, int32_t, x)
CA_P_AS(int16, int16_t, int32_t, x)
CA_P_AS(int32, int32_t, int32_t, x)
CA_P_AS(int64, int64_t, int64_t, x)
CA_P_AS(uint8, uint8_t, int32_t, x)
CA_P_AS(uint16, uint16_t, int32_t, x)
CA_P_AS(uint32, uint32_t, uint64_t, x)
CA_P_AS(uint64, uint64_t, uint64_t, x)
CA_P_AS(float16, ca_half, float, ca_half_to_float(x))
CA_P_AS(float32, float, float, x)
CA_P_AS(float64, double, double, x)
CA_P_AS(complex64, ca_complex64, ca_complex64, x)
CA_P_AS(complex128, ca_complex128, ca_complex128, x)
CA_P_AS(bfloat16, ca_bf16, float, ca_bf16_to_float(x))
CA_P_AS(float8_e4m3fn, ca_f8e4m3, float, ca_f8e4m3_to_float(x))
CA_P_AS(float8_e5m2, ca_f8e5m2, float, ca_f8e5m2_to_float(x))

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
CA_P_FROM(bool, ca_bool, b, float, (ca_bool)(v != 0.0f))
/* ml_dtypes: a NaN reaches float16 as its quiet NaN, payload dropped. */
CA_HD ca_half
ca_p_float16_from_b(float v)
{
    ca_half h;
    if (v != v) {
        h.bits = (uint16_t)(((ca_float_bits(v) >> 16) & 0x8000u) | 0x7e00u);
        return h;
    }
    return ca_float_to_half(v);
}

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
/* ml_dtypes' rule from its floats: the truncation if it is in range (-LOX < v <
 * HIX, both exclusive bounds as doubles), else 0 (NaN, inf). */
#define CA_P_INT_FROM_B(name, T, LOX, HIX)                                             \
    CA_HD T ca_p_##name##_from_b(float v)                                              \
    {                                                                                  \
        double w = (double)v;                                                          \
        return (w > (LOX) && w < (HIX)) ? (T)w : (T)0;                                 \
    }

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
CA_P_INT_FROM_B(int8, int8_t, -129.0, 128.0)
CA_P_INT_FROM_B(uint8, uint8_t, -1.0, 256.0)
CA_P_INT_FROM_B(int16, int16_t, -32769.0, 32768.0)
CA_P_INT_FROM_B(uint16, uint16_t, -1.0, 65536.0)
CA_P_INT_FROM_B(int32, int32_t, -2147483649.0, 2147483648.0)
CA_P_INT_FROM_B(uint32, uint32_t, -1.0, 4294967296.0)
/* the double below -2^63 (no float lies between it and -2^63) */
CA_P_INT_FROM_B(int64, int64_t, -9223372036854777856.0, 9223372036854775808.0)
CA_P_INT_FROM_B(uint64, uint64_t, -1.0, 18446744073709551616.0)

/* float32, float64 */
#define CA_P_FLOAT_DST(name, T)                                                        \
    CA_HD T ca_p_##name##_from_i(int64_t v) { return (T)v; }                           \
    CA_HD T ca_p_##name##_from_s(int32_t v) { return (T)v; }                           \
    CA_HD T ca_p_##name##_from_u(uint64_t v) { return (T)v; }                          \
    CA_HD T ca_p_##name##_from_f(float v) { return (T)v; }                             \
    CA_HD T ca_p_##name##_from_d(double v) { return (T)v; }                            \
    CA_HD T ca_p_##name##_from_c(ca_complex64 v) { return (T)v.re; }                   \
    CA_HD T ca_p_##name##_from_z(ca_complex128 v) { return (T)v.re; }                  \
    CA_HD T ca_p_##name##_from_b(float v) { return (T)v; }

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
    CA_P_FROM(name, T, s, int32_t, ca_p_##name##_from_d((double)v))                    \
    CA_P_FROM(name, T, b, float, ca_p_##name##_make((R)v, 0))

CA_P_COMPLEX_DST(complex64, ca_complex64, float)
CA_P_COMPLEX_DST(complex128, ca_complex128, double)

/* bfloat16, float8: one rounding from every source (int32 and float are exact as
 * doubles; int64 and uint64 go through the round-to-odd double); float and the
 * ml_dtypes floats reach bfloat16 by the float32 path, which rounds the same. */
#define CA_P_MINI_DST(name, T, FROMF, FROMD)                                           \
    CA_P_FROM(name, T, s, int32_t, FROMD((double)v))                                   \
    CA_P_FROM(name, T, i, int64_t, FROMD(ca_p_i64_to_double_odd(v)))                   \
    CA_P_FROM(name, T, u, uint64_t, FROMD(ca_p_u64_to_double_odd(v)))                  \
    CA_P_FROM(name, T, f, float, FROMF(v))                                             \
    CA_P_FROM(name, T, d, double, FROMD(v))                                            \
    CA_P_FROM(name, T, c, ca_complex64, FROMF(v.re))                                   \
    CA_P_FROM(name, T, z, ca_complex128, FROMD(v.re))                                  \
    CA_P_FROM(name, T, b, float, FROMF(v))
#define CA_P_F8E4M3_FROMF(v) ca_double_to_f8e4m3((double)(v))
#define CA_P_F8E5M2_FROMF(v) ca_double_to_f8e5m2((double)(v))
CA_P_MINI_DST(bfloat16, ca_bf16, ca_float_to_bf16, ca_double_to_bf16)
CA_P_MINI_DST(float8_e4m3fn, ca_f8e4m3, CA_P_F8E4M3_FROMF, ca_double_to_f8e4m3)
CA_P_MINI_DST(float8_e5m2, ca_f8e5m2, CA_P_F8E5M2_FROMF, ca_double_to_f8e5m2)

/* ---- the 289 casts: ca_cast_<dname>_<sname>(x) ---------------------------------- */
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

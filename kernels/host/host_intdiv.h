/*
 * host_intdiv.h: integer division by a divisor fixed for a whole loop, as a
 * multiply and shifts (Granlund and Montgomery, "Division by invariant integers
 * using multiplication", 1994, the round-up method with its extra add), for the
 * host loops of `v // d` and `v % d` with a scalar d (tools/gen_ops.py,
 * int_div_loop). A hardware divide costs 20-40 cycles an element, the multiply
 * a few and vectorises. Exact for every dividend; the divisor must
 * be >= 1 (the loops check it once and leave other divisors to the plain loop).
 *
 * For an N-bit unsigned n and 1 <= d < 2^N: l = ceil(log2 d),
 * m = floor(2^N (2^l - d) / d) + 1 (it fits in N bits), t = (m n) >> N,
 * q = (t + ((n - t) >> min(l, 1))) >> max(l - 1, 0) is floor(n / d).
 * Signed floor division by d >= 1 goes through the unsigned one: with s the
 * sign mask of x, floor(x / d) = q ^ s where q = (x ^ s) / d (for x < 0,
 * x ^ s = -x - 1 and floor(x / d) = -1 - floor((-x - 1) / d)).
 * Host only: nvcc never includes it.
 */
#ifndef CA_HOST_INTDIV_H
#define CA_HOST_INTDIV_H

#include <stdint.h>

#if defined(__SIZEOF_INT128__) && !defined(__CUDACC__)
#define CA_HAVE_INTDIV 1

static inline int
ca_intdiv_log2_ceil(uint64_t d)
{
    int l = 0;
    while (l < 64 && ((uint64_t)1 << l) < d) {
        l++;
    }
    return l;
}

typedef struct {
    uint64_t m;
    int sh1, sh2;
} ca_udiv64;

static inline ca_udiv64
ca_udiv64_magic(uint64_t d)
{
    const int l = ca_intdiv_log2_ceil(d);
    const unsigned __int128 two_l = (unsigned __int128)1 << l;
    const unsigned __int128 m = (((two_l - d) << 64) / d) + 1;
    ca_udiv64 g = { (uint64_t)m, l < 1 ? l : 1, l > 1 ? l - 1 : 0 };
    return g;
}

/* The W-bit forms (8, 16, 32): the multiplier is computed in WIDE (2W bits or
 * more) and kept in W bits, the lanes' width. */
#define CA_UDIV_NARROW(W, WIDE)                                                        \
    typedef struct {                                                                   \
        uint##W##_t m;                                                                 \
        int sh1, sh2;                                                                  \
    } ca_udiv##W;                                                                      \
    static inline ca_udiv##W ca_udiv##W##_magic(uint##W##_t d)                         \
    {                                                                                  \
        const int l = ca_intdiv_log2_ceil(d);                                          \
        const WIDE m = ((((WIDE)1 << l) - d) << W) / d + 1;                            \
        ca_udiv##W g = { (uint##W##_t)m, l < 1 ? l : 1, l > 1 ? l - 1 : 0 };           \
        return g;                                                                      \
    }
CA_UDIV_NARROW(32, uint64_t)
CA_UDIV_NARROW(16, uint32_t)
CA_UDIV_NARROW(8, uint32_t)
#undef CA_UDIV_NARROW

/* The high half of a 64 x 64-bit product from four 32 x 32-bit ones: the form
 * gcc vectorises (vpmuludq); an __int128 multiply stays one element at a time. */
static inline uint64_t
ca_mulhi64(uint64_t a, uint64_t b)
{
    const uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
    const uint64_t ll = al * bl, hl = ah * bl, lh = al * bh, hh = ah * bh;
    const uint64_t mid = (ll >> 32) + (uint32_t)hl + lh;
    return hh + (hl >> 32) + (mid >> 32);
}

static inline uint64_t
ca_udiv64_do(uint64_t n, ca_udiv64 g)
{
    const uint64_t t = ca_mulhi64(g.m, n);
    return (t + ((n - t) >> g.sh1)) >> g.sh2;
}

static inline uint32_t
ca_udiv32_do(uint32_t n, ca_udiv32 g)
{
    const uint32_t t = (uint32_t)(((uint64_t)g.m * n) >> 32);
    return (t + ((n - t) >> g.sh1)) >> g.sh2;
}

static inline uint16_t
ca_udiv16_do(uint16_t n, ca_udiv16 g)
{
    const uint16_t t = (uint16_t)(((uint32_t)g.m * n) >> 16);
    return (uint16_t)((uint16_t)(t + (uint16_t)((uint16_t)(n - t) >> g.sh1)) >> g.sh2);
}

/* in 16-bit lanes throughout (values stay below 256): narrowing to bytes
 * between the steps cost more than the steps (AVX-512 shifts no bytes) */
static inline uint16_t
ca_udiv8_do(uint16_t n, ca_udiv8 g)
{
    const uint16_t t = (uint16_t)((uint16_t)(g.m * n) >> 8);
    return (uint16_t)((uint16_t)(t + (uint16_t)((uint16_t)(n - t) >> g.sh1)) >> g.sh2);
}

/* floor(x / d) and x - floor(x / d) * d (NumPy's // and % for d >= 1) of
 * type T through the W-bit unsigned division (as narrow as the type: the
 * vector lanes are); UW is the unsigned type the remainder is formed
 * in, never narrower than unsigned int (no signed overflow after promotion).
 * Signed types take the sign mask trick above, unsigned ones are the division
 * itself. */
#define CA_INTDIV_SIGNED(S, T, W, UW)                                                  \
    static inline T ca_floordiv_by_##S(T x, ca_udiv##W g)                              \
    {                                                                                  \
        const T s = (T)(x < 0 ? -1 : 0);                                               \
        const uint##W##_t q = ca_udiv##W##_do((uint##W##_t)(T)(x ^ s), g);             \
        return (T)(q ^ (uint##W##_t)(int##W##_t)s);                                    \
    }                                                                                  \
    static inline T ca_floormod_by_##S(T x, T d, ca_udiv##W g)                         \
    {                                                                                  \
        return (T)((UW)x - (UW)ca_floordiv_by_##S(x, g) * (UW)d);                      \
    }
#define CA_INTDIV_UNSIGNED(S, T, W, UW)                                                \
    static inline T ca_floordiv_by_##S(T x, ca_udiv##W g)                              \
    {                                                                                  \
        return (T)ca_udiv##W##_do((uint##W##_t)x, g);                                  \
    }                                                                                  \
    static inline T ca_floormod_by_##S(T x, T d, ca_udiv##W g)                         \
    {                                                                                  \
        return (T)((UW)x - (UW)ca_floordiv_by_##S(x, g) * (UW)d);                      \
    }
CA_INTDIV_SIGNED(int8, int8_t, 8, uint32_t)
CA_INTDIV_SIGNED(int16, int16_t, 16, uint32_t)
CA_INTDIV_SIGNED(int32, int32_t, 32, uint32_t)
CA_INTDIV_SIGNED(int64, int64_t, 64, uint64_t)
CA_INTDIV_UNSIGNED(uint8, uint8_t, 8, uint32_t)
CA_INTDIV_UNSIGNED(uint16, uint16_t, 16, uint32_t)
CA_INTDIV_UNSIGNED(uint32, uint32_t, 32, uint32_t)
CA_INTDIV_UNSIGNED(uint64, uint64_t, 64, uint64_t)
#undef CA_INTDIV_SIGNED
#undef CA_INTDIV_UNSIGNED

#endif /* __SIZEOF_INT128__ */
#endif /* CA_HOST_INTDIV_H */

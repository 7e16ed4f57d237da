/*
 * sort_keys.h: NumPy's sort order as unsigned integer keys, shared by the GPU
 * kernels (sort.cu, sort_search.cu) and the host path (host_sort.c), so that
 * both devices order elements by exactly the same code.
 *
 * A key is up to 128 bits (ca_skey: hi, lo; hi is nonzero only for complex128)
 * whose unsigned order is NumPy's order of the elements:
 * - bool: 0 / 1 (any nonzero byte is true).
 * - unsigned ints: the value; signed ints: the value with its sign bit flipped.
 * - floats (16, 32, 64 bits): the IEEE bits with the sign bit set for positive
 *   numbers and all bits inverted for negative ones (so -inf < ... < -0.0 <
 *   +0.0 < ... < +inf); every NaN maps to the all-ones key, above +inf, which is
 *   where NumPy puts NaNs. With `canon`, -0.0 maps to +0.0's key (they compare
 *   equal, so a stable argsort keeps their order); without it they stay apart
 *   (-0.0 first) and the sorted values keep their signs.
 * - complex: (real key, imag key) for numbers without NaN, with zeros always
 *   made canonical; the NaN classes come after every such number, in NumPy's
 *   order R+nanj < nan+Rj < nan+nanj, using three top values of the high word
 *   that no finite or infinite part reaches (+inf's key is 0xFF80... and
 *   0xFFF0...): hi = ALL-2 with lo = real key, hi = ALL-1 with lo = imag key,
 *   hi = ALL with lo = 0.
 * Only the low ca_skey_bits(dtype) bits are ever set, so a radix sort need not
 * look at more; descending order is the key with those bits inverted.
 */
#ifndef CA_SORT_KEYS_H
#define CA_SORT_KEYS_H

#include "scalar.h"

typedef struct {
    uint64_t hi, lo;
} ca_skey;

/* Significant key bits of each dtype. */
CA_HD int
ca_skey_bits(int dtype)
{
    switch (dtype) {
    case CA_BOOL: return 1;
    case CA_INT8:
    case CA_UINT8: return 8;
    case CA_INT16:
    case CA_UINT16:
    case CA_FLOAT16: return 16;
    case CA_INT32:
    case CA_UINT32:
    case CA_FLOAT32: return 32;
    case CA_COMPLEX128: return 128;
    default: return 64;
    }
}

/* The mask of the significant bits: key ^ mask is the descending key. */
CA_HD ca_skey
ca_skey_mask(int dtype)
{
    ca_skey m;
    int bits = ca_skey_bits(dtype);
    m.hi = bits == 128 ? ~(uint64_t)0 : 0;
    m.lo = bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1);
    return m;
}

/* ---- floats ---------------------------------------------------------------- */
/* One macro per width would hide the constants; three small functions keep
 * each readable. s = sign bit, e = exponent mask, m = mantissa mask. */
CA_HD uint64_t
ca_p_fkey(uint64_t b, uint64_t s, uint64_t e, uint64_t m, uint64_t all, int canon)
{
    if ((b & e) == e && (b & m) != 0) {
        return all; /* every NaN: after +inf */
    }
    if (canon && b == s) {
        b = 0; /* -0.0 as +0.0 */
    }
    return (b & s) ? (~b & all) : (b | s);
}

CA_HD uint64_t
ca_p_funkey(uint64_t k, uint64_t s, uint64_t all, uint64_t qnan)
{
    if (k == all) {
        return qnan;
    }
    return (k & s) ? (k & ~s & all) : (~k & all);
}

#define CA_P_F16 0x8000u, 0x7C00u, 0x03FFu, 0xFFFFu
#define CA_P_F32 0x80000000u, 0x7F800000u, 0x007FFFFFu, 0xFFFFFFFFu
#define CA_P_F64                                                                       \
    0x8000000000000000ull, 0x7FF0000000000000ull, 0x000FFFFFFFFFFFFFull,               \
        0xFFFFFFFFFFFFFFFFull

CA_HD int
ca_p_isnan_bits(uint64_t b, uint64_t e, uint64_t m)
{
    return (b & e) == e && (b & m) != 0;
}

/* A complex key from the bits of its parts (w: 32 or 64 bits per part). */
CA_HD ca_skey
ca_p_ckey(uint64_t re, uint64_t im, int w)
{
    uint64_t s = w == 32 ? 0x80000000ull : 0x8000000000000000ull;
    uint64_t e = w == 32 ? 0x7F800000ull : 0x7FF0000000000000ull;
    uint64_t m = w == 32 ? 0x007FFFFFull : 0x000FFFFFFFFFFFFFull;
    uint64_t all = w == 32 ? 0xFFFFFFFFull : ~(uint64_t)0;
    int nr = ca_p_isnan_bits(re, e, m), ni = ca_p_isnan_bits(im, e, m);
    uint64_t hi, lo;
    if (!nr && !ni) {
        hi = ca_p_fkey(re, s, e, m, all, 1);
        lo = ca_p_fkey(im, s, e, m, all, 1);
    }
    else if (!nr) {
        hi = all - 2;
        lo = ca_p_fkey(re, s, e, m, all, 1);
    }
    else if (!ni) {
        hi = all - 1;
        lo = ca_p_fkey(im, s, e, m, all, 1);
    }
    else {
        hi = all;
        lo = 0;
    }
    ca_skey k;
    if (w == 32) {
        k.hi = 0;
        k.lo = (hi << 32) | lo;
    }
    else {
        k.hi = hi;
        k.lo = lo;
    }
    return k;
}

/* The parts' bits back from a complex key. */
CA_HD void
ca_p_cunkey(ca_skey k, int w, uint64_t *re, uint64_t *im)
{
    uint64_t s = w == 32 ? 0x80000000ull : 0x8000000000000000ull;
    uint64_t all = w == 32 ? 0xFFFFFFFFull : ~(uint64_t)0;
    uint64_t qnan = w == 32 ? 0x7FC00000ull : 0x7FF8000000000000ull;
    uint64_t hi = w == 32 ? k.lo >> 32 : k.hi;
    uint64_t lo = w == 32 ? k.lo & 0xFFFFFFFFull : k.lo;
    if (hi == all - 2) {
        *re = ca_p_funkey(lo, s, all, qnan);
        *im = qnan;
    }
    else if (hi == all - 1) {
        *re = qnan;
        *im = ca_p_funkey(lo, s, all, qnan);
    }
    else if (hi == all) {
        *re = qnan;
        *im = qnan;
    }
    else {
        *re = ca_p_funkey(hi, s, all, qnan);
        *im = ca_p_funkey(lo, s, all, qnan);
    }
}

/* ---- any dtype ------------------------------------------------------------- */
/* The key of the element at p (aligned for its dtype). */
CA_HD ca_skey
ca_sort_key(int dtype, const char *p, int canon)
{
    ca_skey k;
    k.hi = 0;
    switch (dtype) {
    case CA_BOOL: k.lo = *(const uint8_t *)p != 0; break;
    case CA_INT8: k.lo = (uint8_t)(*(const uint8_t *)p ^ 0x80u); break;
    case CA_UINT8: k.lo = *(const uint8_t *)p; break;
    case CA_INT16: k.lo = (uint16_t)(*(const uint16_t *)p ^ 0x8000u); break;
    case CA_UINT16: k.lo = *(const uint16_t *)p; break;
    case CA_INT32: k.lo = *(const uint32_t *)p ^ 0x80000000u; break;
    case CA_UINT32: k.lo = *(const uint32_t *)p; break;
    case CA_INT64: k.lo = *(const uint64_t *)p ^ 0x8000000000000000ull; break;
    case CA_UINT64: k.lo = *(const uint64_t *)p; break;
    case CA_FLOAT16: k.lo = ca_p_fkey(*(const uint16_t *)p, CA_P_F16, canon); break;
    case CA_FLOAT32: k.lo = ca_p_fkey(*(const uint32_t *)p, CA_P_F32, canon); break;
    case CA_FLOAT64: k.lo = ca_p_fkey(*(const uint64_t *)p, CA_P_F64, canon); break;
    case CA_COMPLEX64:
        k = ca_p_ckey(((const uint32_t *)p)[0], ((const uint32_t *)p)[1], 32);
        break;
    default: /* CA_COMPLEX128 */
        k = ca_p_ckey(((const uint64_t *)p)[0], ((const uint64_t *)p)[1], 64);
        break;
    }
    return k;
}

/* Store the element whose key is k at p. */
CA_HD void
ca_sort_unkey(int dtype, ca_skey k, char *p)
{
    uint64_t re, im;
    switch (dtype) {
    case CA_BOOL:
    case CA_UINT8: *(uint8_t *)p = (uint8_t)k.lo; break;
    case CA_INT8: *(uint8_t *)p = (uint8_t)(k.lo ^ 0x80u); break;
    case CA_UINT16: *(uint16_t *)p = (uint16_t)k.lo; break;
    case CA_INT16: *(uint16_t *)p = (uint16_t)(k.lo ^ 0x8000u); break;
    case CA_UINT32: *(uint32_t *)p = (uint32_t)k.lo; break;
    case CA_INT32: *(uint32_t *)p = (uint32_t)k.lo ^ 0x80000000u; break;
    case CA_UINT64: *(uint64_t *)p = k.lo; break;
    case CA_INT64: *(uint64_t *)p = k.lo ^ 0x8000000000000000ull; break;
    case CA_FLOAT16:
        *(uint16_t *)p = (uint16_t)ca_p_funkey(k.lo, 0x8000u, 0xFFFFu, 0x7E00u);
        break;
    case CA_FLOAT32:
        *(uint32_t *)p =
            (uint32_t)ca_p_funkey(k.lo, 0x80000000u, 0xFFFFFFFFu, 0x7FC00000u);
        break;
    case CA_FLOAT64:
        *(uint64_t *)p = ca_p_funkey(k.lo, 0x8000000000000000ull, ~(uint64_t)0,
                                     0x7FF8000000000000ull);
        break;
    case CA_COMPLEX64:
        ca_p_cunkey(k, 32, &re, &im);
        ((uint32_t *)p)[0] = (uint32_t)re;
        ((uint32_t *)p)[1] = (uint32_t)im;
        break;
    default: /* CA_COMPLEX128 */
        ca_p_cunkey(k, 64, &re, &im);
        ((uint64_t *)p)[0] = re;
        ((uint64_t *)p)[1] = im;
        break;
    }
}

/* a < b (le = 0) or a <= b (le = 1) in key order. */
CA_HD int
ca_skey_less(ca_skey a, ca_skey b, int le)
{
    if (a.hi != b.hi) {
        return a.hi < b.hi;
    }
    return le ? a.lo <= b.lo : a.lo < b.lo;
}

#endif /* CA_SORT_KEYS_H */

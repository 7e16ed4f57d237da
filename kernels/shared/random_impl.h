/*
 * random_impl.h: Philox4x32-10 and the transforms from its 32-bit words to
 * samples, shared by the GPU kernels (random.cu) and the host loops
 * (host_random.c), so that both devices compute the same stream.
 *
 * The stream. A generator is (seed, offset). Philox block j of a call is the
 * 128-bit output of Philox4x32-10 with key (seed lo, seed hi) and counter
 * (lo32(offset + j), hi32(offset + j), 0, 0); a call that consumes B blocks
 * advances offset by B, so successive calls continue the stream and never
 * reuse a counter. Sample i of a call uses words of block i / per-block:
 *   float32 uniform, normal; integers with a range of at most 2^32: 4 per block
 *   float64 uniform, normal; integers with a wider range:            2 per block
 * Integer rejections (Lemire's method) redraw from counter (.., .., attempt, 0),
 * attempt = 1, 2, ... of the same block and lane: no other call uses a nonzero
 * third word, so redraws never collide with the main stream.
 *
 * Uniform floats are exact functions of the words, so the cpu and the GPU give
 * bit-identical uniforms and integers for the same seed. Normals go through
 * log, sqrt, sin and cos, whose last bits differ between libm and CUDA's math
 * library: cpu and GPU normals agree to a few units in the last place.
 */
#ifndef CA_RANDOM_IMPL_H
#define CA_RANDOM_IMPL_H

#include <math.h>
#include <stdint.h>

#include "scalar.h"

#define CA_PHILOX_M0 0xD2511F53u
#define CA_PHILOX_M1 0xCD9E8D57u
#define CA_PHILOX_W0 0x9E3779B9u
#define CA_PHILOX_W1 0xBB67AE85u

typedef struct {
    uint32_t x, y, z, w;
} ca_u32x4;

/* 32x32 -> 64-bit product: one IMAD.WIDE.U32 on the GPU (written in PTX, as
 * the 64-bit C expression may become a full 64-bit multiply). */
CA_HD uint64_t
ca_mul_wide_u32(uint32_t a, uint32_t b)
{
#ifdef __CUDA_ARCH__
    uint64_t p;
    asm("mul.wide.u32 %0, %1, %2;" : "=l"(p) : "r"(a), "r"(b));
    return p;
#else
    return (uint64_t)a * b;
#endif
}

/* One Philox round. */
CA_HD ca_u32x4
ca_philox_round(ca_u32x4 c, uint32_t k0, uint32_t k1)
{
    uint64_t p0 = ca_mul_wide_u32(CA_PHILOX_M0, c.x);
    uint64_t p1 = ca_mul_wide_u32(CA_PHILOX_M1, c.z);
    ca_u32x4 r;
    r.x = (uint32_t)(p1 >> 32) ^ c.y ^ k0;
    r.y = (uint32_t)p1;
    r.z = (uint32_t)(p0 >> 32) ^ c.w ^ k1;
    r.w = (uint32_t)p0;
    return r;
}

/* Philox4x32-10 (Salmon et al., SC'11): ten rounds, the key bumped between
 * them. A loop of constant trip count: nvcc (#pragma unroll) and gcc -O3 unroll it
 * completely, as the ten rounds were written out before. */
CA_HD ca_u32x4
ca_philox4x32_10(ca_u32x4 c, uint32_t k0, uint32_t k1)
{
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (int round = 0; round < 9; round++) {
        c = ca_philox_round(c, k0, k1);
        k0 += CA_PHILOX_W0;
        k1 += CA_PHILOX_W1;
    }
    return ca_philox_round(c, k0, k1);
}

/* Block `block` (offset already added) of the stream of `seed`. */
CA_HD ca_u32x4
ca_philox_block(uint64_t seed, uint64_t block, uint32_t attempt)
{
    ca_u32x4 c;
    c.x = (uint32_t)block;
    c.y = (uint32_t)(block >> 32);
    c.z = attempt;
    c.w = 0;
    return ca_philox4x32_10(c, (uint32_t)seed, (uint32_t)(seed >> 32));
}

CA_HD uint32_t
ca_u32x4_get(ca_u32x4 v, int lane)
{
    return lane == 0 ? v.x : lane == 1 ? v.y : lane == 2 ? v.z : v.w;
}

/* ---- uniform ----------------------------------------------------------------- */
/* [0, 1) with 24 random bits, as NumPy's float32 random: the top 24 bits times
 * 2^-24. Exact, so never 1.0. */
CA_HD float
ca_u01_f32(uint32_t x)
{
    return (float)(x >> 8) * 5.9604644775390625e-08f;
}

/* [0, 1) with 53 random bits, as NumPy's float64 random. */
CA_HD double
ca_u01_f64(uint32_t lo, uint32_t hi)
{
    uint64_t x = ((uint64_t)hi << 32) | lo;
    return (double)(x >> 11) * 1.1102230246251565e-16;
}

/* ---- normal (Box-Muller) ----------------------------------------------------- */
/* (0, 1]: never 0, so the logarithm is finite (|z| <= 6.66). */
CA_HD float
ca_u01_open_f32(uint32_t x)
{
    return fmaf((float)x, 2.3283064365386963e-10f, 1.1641532182693481e-10f);
}

/* (0, 1) with 52 random bits: an odd multiple of 2^-53, exact. */
CA_HD double
ca_u01_open_f64(uint32_t lo, uint32_t hi)
{
    uint64_t x = ((uint64_t)hi << 32) | lo;
    return (double)((x >> 12) * 2 + 1) * 1.1102230246251565e-16;
}

/* sin(pi t) and cos(pi t) for |t| <= 1, the host's half of the float64
 * Box-Muller (the GPU has sincospi). The reduction to r = |t| - 0, 1/2 or 1 in
 * [-1/4, 1/4] is exact, then Taylor series of sin(pi r) and cos(pi r) to r^19
 * (terms below 2^-60): within 1 ulp of the exact values (measured against
 * mpmath on 52,000 points, the quarter points and their neighbours among
 * them), where sin(pi * t) rounded pi * t first. No branch and no libm call,
 * so a loop of them is a vector loop; every clone gives the same bits. */
CA_HD void
ca_sincospi_f64(double t, double *s, double *c)
{
    const double a = fabs(t);
    const double half = a >= 0.75 ? 1.0 : a >= 0.25 ? 0.5 : 0.0;
    const double r = a - half, r2 = r * r;
    /* the series' coefficients from r^17 (sine, over r) and r^16 (cosine) down */
    const double sc[8] = { 7.952054001475513e-07,  -2.1915353447830217e-05,
                           0.00046630280576761255, -0.0073704309457143504,
                           0.08214588661112823,    -0.5992645293207921,
                           2.5501640398773455,     -5.16771278004997 };
    const double cc[8] = { 4.303069587032947e-06, -0.0001046381049248457,
                           0.0019295743094039231, -0.02580689139001406,
                           0.2353306303588932,    -1.3352627688545895,
                           4.0587121264167685,    -4.934802200544679 };
    double ps = -2.2948428997269873e-08, pc = -1.3878952462213771e-07;
    for (int k = 0; k < 8; k++) {
        ps = ps * r2 + sc[k];
        pc = pc * r2 + cc[k];
    }
    /* pi r as pi_hi r + pi_lo r: the leading term to the last bit */
    const double sp =
        fma(r, 3.141592653589793, r * fma(ps, r2, 1.2246467991473532e-16));
    const double cp = fma(pc, r2, 1.0);
    const double sa = half == 0.0 ? sp : half == 0.5 ? cp : -sp;
    *s = copysign(sa, t);
    *c = half == 0.0 ? cp : half == 0.5 ? -sp : -cp;
}

/* Two standard normals from two words. The angle lies in (-pi, pi], where the
 * GPU's fast sine and cosine are accurate to 2^-21. */
CA_HD void
ca_box_muller_f32(uint32_t a, uint32_t b, float *z0, float *z1)
{
    float u = ca_u01_open_f32(a);
    float v = ca_u01_open_f32(b);
    float r = sqrtf(-2.0f * logf(u));
    float t = fmaf(v, 6.2831853071795865f, -3.1415926535897932f);
    float s, c;
#ifdef __CUDA_ARCH__
    __sincosf(t, &s, &c);
#else
    s = sinf(t); /* glibc's sinf and cosf are within an ulp, as sin and cos of */
    c = cosf(t); /* the double (gcc makes the pair one sincosf), at half the cost */
#endif
    *z0 = r * c;
    *z1 = r * s;
}

CA_HD void
ca_box_muller_f64(ca_u32x4 w, double *z0, double *z1)
{
    double u = ca_u01_open_f64(w.x, w.y);
    double v = ca_u01_open_f64(w.z, w.w);
    double r = sqrt(-2.0 * log(u));
    double t = fma(v, 2.0, -1.0); /* the angle over pi, in (-1, 1) */
    double s, c;
#ifdef __CUDA_ARCH__
    sincospi(t, &s, &c); /* no large-argument reduction path, no stack frame */
#else
    ca_sincospi_f64(t, &s, &c);
#endif
    *z0 = r * c;
    *z1 = r * s;
}

/* ---- integers (Lemire's nearly divisionless method) -------------------------- */
/* 64x64 -> 128 multiply: the high half, the low half in *lo. */
CA_HD uint64_t
ca_mul64_hi(uint64_t a, uint64_t b, uint64_t *lo)
{
    *lo = a * b;
#ifdef __CUDA_ARCH__
    return __umul64hi(a, b);
#else
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
#endif
}

/* The integer sample for output i of a call: low + r, r uniform in
 * [0, range_m1], as unsigned 64-bit (the caller truncates to the dtype).
 * `wide` says whether range_m1 needs 64 bits (2 words per sample). */
CA_HD uint64_t
ca_random_int_sample(uint64_t seed, uint64_t offset, uint64_t i, uint64_t range_m1,
                     int wide, ca_u32x4 blk)
{
    if (!wide) {
        int lane = (int)(i & 3);
        uint32_t x = ca_u32x4_get(blk, lane);
        if (range_m1 == 0xFFFFFFFFu) {
            return x;
        }
        uint32_t rng = (uint32_t)range_m1 + 1u;
        uint64_t m = (uint64_t)x * rng;
        uint32_t l = (uint32_t)m;
        if (l < rng) {
            uint32_t t = (0u - rng) % rng;
            uint32_t attempt = 1;
            while (l < t) {
                x = ca_u32x4_get(ca_philox_block(seed, offset + (i >> 2), attempt++),
                                 lane);
                m = (uint64_t)x * rng;
                l = (uint32_t)m;
            }
        }
        return m >> 32;
    }
    int half = (int)(i & 1);
    uint64_t x =
        half ? ((uint64_t)blk.w << 32) | blk.z : ((uint64_t)blk.y << 32) | blk.x;
    if (range_m1 == UINT64_MAX) {
        return x;
    }
    uint64_t rng = range_m1 + 1;
    uint64_t l;
    uint64_t h = ca_mul64_hi(x, rng, &l);
    if (l < rng) {
        uint64_t t = (0 - rng) % rng;
        uint32_t attempt = 1;
        while (l < t) {
            ca_u32x4 b = ca_philox_block(seed, offset + (i >> 1), attempt++);
            x = half ? ((uint64_t)b.w << 32) | b.z : ((uint64_t)b.y << 32) | b.x;
            h = ca_mul64_hi(x, rng, &l);
        }
    }
    return h;
}

/* Store the low bytes of v as one element of `size` bytes (1, 2, 4 or 8). */
CA_HD void
ca_store_int(char *p, int size, uint64_t v)
{
    switch (size) {
    case 1: *(uint8_t *)p = (uint8_t)v; break;
    case 2: *(uint16_t *)p = (uint16_t)v; break;
    case 4: *(uint32_t *)p = (uint32_t)v; break;
    default: *(uint64_t *)p = v; break;
    }
}

/* ---- the device-specific halves behind kernels/dispatch/dispatch_random.c ------------ */
#ifdef __cplusplus
extern "C" {
#endif
int ca_random_uniform_host(void *out, int64_t n, int dtype, uint64_t seed,
                           uint64_t offset, double low, double scale);
int ca_random_normal_host(void *out, int64_t n, int dtype, uint64_t seed,
                          uint64_t offset, double loc, double scale);
int ca_random_integers_host(void *out, int64_t n, int itemsize, uint64_t seed,
                            uint64_t offset, uint64_t low, uint64_t range_m1);
#if defined(CA_HAVE_CUDA) && CA_HAVE_CUDA
int ca_random_uniform_cuda(void *out, int64_t n, int dtype, uint64_t seed,
                           uint64_t offset, double low, double scale,
                           ca_stream_t stream);
int ca_random_normal_cuda(void *out, int64_t n, int dtype, uint64_t seed,
                          uint64_t offset, double loc, double scale,
                          ca_stream_t stream);
int ca_random_integers_cuda(void *out, int64_t n, int itemsize, uint64_t seed,
                            uint64_t offset, uint64_t low, uint64_t range_m1,
                            ca_stream_t stream);
#endif
#ifdef __cplusplus
}
#endif

#endif /* CA_RANDOM_IMPL_H */

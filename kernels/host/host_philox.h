/*
 * host_philox.h: Philox4x32-10 blocks CA_RNG_LANES at a time for the cpu
 * device's random loops (host_random.c, host_random_dist.c), private to
 * kernels/. The same words as ca_philox_block (random_impl.h), block by block.
 */
#ifndef CA_HOST_PHILOX_H
#define CA_HOST_PHILOX_H

#include <stdint.h>
#include <string.h>

#include "random_impl.h"

/* Philox blocks CA_RNG_LANES at a time. The functions that use them are each
 * built for x86-64-v4, x86-64-v3 (AVX2 with FMA, so fma() stays a vector
 * instruction) and the baseline (CA_RNG_CLONES), picked by the loader. Every
 * clone computes the same words, and the conversions and fma() are exact, so
 * the samples are the same bits whichever runs, as the one-block loop gave
 * them (and the GPU's uniforms). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&                \
    !defined(CA_NO_TARGET_CLONES)
#define CA_RNG_CLONES                                                                  \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CA_RNG_CLONES
#endif
/* 64 lanes: four independent 512-bit chains a round. With 16 (one chain) each
 * round waited on the one before: 6.8 ns a block against 1.7 here. */
#define CA_RNG_LANES 64

typedef struct {
    uint32_t x[CA_RNG_LANES], y[CA_RNG_LANES], z[CA_RNG_LANES], w[CA_RNG_LANES];
} rng_lanes;

#if defined(__GNUC__) || defined(__clang__)
/* gcc's vector extensions: the rounds stay in registers (an array loop kept
 * the state on the stack between rounds), in whatever width the clone has. */
typedef uint32_t philox_vec __attribute__((vector_size(4 * CA_RNG_LANES)));
typedef uint64_t philox_vec2 __attribute__((vector_size(4 * CA_RNG_LANES)));

/* The high and low halves of a[k] * m for every lane, from 64-bit products of
 * the even and the odd lanes (no lane crosses its 64-bit pair). */
static inline void
philox_mul(const philox_vec *a, uint32_t m, philox_vec *hi, philox_vec *lo)
{
    const philox_vec2 q = (philox_vec2)*a;
    const philox_vec2 even = (q & 0xFFFFFFFFu) * (uint64_t)m;
    const philox_vec2 odd = (q >> 32) * (uint64_t)m;
    *hi = (philox_vec)((even >> 32) | (odd & 0xFFFFFFFF00000000u));
    *lo = (philox_vec)((even & 0xFFFFFFFFu) | (odd << 32));
}

/* Blocks block0 .. block0 + CA_RNG_LANES - 1 of the stream of seed, counter
 * word 2 = attempt: ca_philox_block of each, lane by lane. */
static inline void
philox_lanes_at(uint64_t seed, uint64_t block0, uint32_t attempt, rng_lanes *r)
{
    philox_vec x, y, z, w;
    for (int k = 0; k < CA_RNG_LANES; k++) {
        const uint64_t b = block0 + (uint64_t)k;
        x[k] = (uint32_t)b;
        y[k] = (uint32_t)(b >> 32);
        z[k] = attempt;
        w[k] = 0;
    }
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int round = 0; round < 10; round++) {
        philox_vec h0, l0, h1, l1;
        philox_mul(&x, CA_PHILOX_M0, &h0, &l0);
        philox_mul(&z, CA_PHILOX_M1, &h1, &l1);
        x = h1 ^ y ^ k0;
        z = h0 ^ w ^ k1;
        y = l1;
        w = l0;
        k0 += CA_PHILOX_W0;
        k1 += CA_PHILOX_W1;
    }
    memcpy(r->x, &x, sizeof x);
    memcpy(r->y, &y, sizeof y);
    memcpy(r->z, &z, sizeof z);
    memcpy(r->w, &w, sizeof w);
}
#else
static inline void
philox_lanes_at(uint64_t seed, uint64_t block0, uint32_t attempt, rng_lanes *r)
{
    for (int k = 0; k < CA_RNG_LANES; k++) {
        const ca_u32x4 b = ca_philox_block(seed, block0 + (uint64_t)k, attempt);
        r->x[k] = b.x;
        r->y[k] = b.y;
        r->z[k] = b.z;
        r->w[k] = b.w;
    }
}
#endif

/* Attempt 0: the blocks of uniform(), normal() and the transforms. */
static inline void
philox_lanes(uint64_t seed, uint64_t block0, rng_lanes *r)
{
    philox_lanes_at(seed, block0, 0, r);
}

#endif /* CA_HOST_PHILOX_H */

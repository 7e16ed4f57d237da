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

/* Philox blocks CA_RNG_LANES at a time, in plain arrays: gcc vectorises the
 * rounds (the 32x32 -> 64-bit products as vector multiplies) in the functions
 * that use them, each built for x86-64-v4, x86-64-v3 (AVX2 with FMA, so fma()
 * stays a vector instruction) and the baseline (CA_RNG_CLONES), picked by the
 * loader. Every clone computes the same words, and the conversions and fma()
 * are exact, so the samples are the same bits whichever runs, as the
 * one-block loop gave them (and the GPU's uniforms). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&                \
    !defined(CA_NO_TARGET_CLONES)
#define CA_RNG_CLONES                                                                  \
    __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define CA_RNG_CLONES
#endif
#define CA_RNG_LANES 16

typedef struct {
    uint32_t x[CA_RNG_LANES], y[CA_RNG_LANES], z[CA_RNG_LANES], w[CA_RNG_LANES];
} rng_lanes;

/* Blocks block0 .. block0 + CA_RNG_LANES - 1 of the stream of seed (attempt 0):
 * ca_philox_block of each, lane by lane. Each round writes fresh arrays (an
 * update in place through the struct kept gcc from vectorising the rounds). */
static inline void
philox_lanes(uint64_t seed, uint64_t block0, rng_lanes *r)
{
    enum { L = CA_RNG_LANES };
    uint32_t x[L], y[L], z[L], w[L];
    uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
    for (int k = 0; k < L; k++) {
        const uint64_t b = block0 + (uint64_t)k;
        x[k] = (uint32_t)b;
        y[k] = (uint32_t)(b >> 32);
        z[k] = 0;
        w[k] = 0;
    }
    for (int round = 0; round < 10; round++) {
        uint32_t nx[L], ny[L], nz[L], nw[L];
        for (int k = 0; k < L; k++) {
            const uint64_t p0 = (uint64_t)x[k] * CA_PHILOX_M0;
            const uint64_t p1 = (uint64_t)z[k] * CA_PHILOX_M1;
            nx[k] = (uint32_t)(p1 >> 32) ^ y[k] ^ k0;
            nz[k] = (uint32_t)(p0 >> 32) ^ w[k] ^ k1;
            ny[k] = (uint32_t)p1;
            nw[k] = (uint32_t)p0;
        }
        memcpy(x, nx, sizeof x);
        memcpy(y, ny, sizeof y);
        memcpy(z, nz, sizeof z);
        memcpy(w, nw, sizeof w);
        k0 += CA_PHILOX_W0;
        k1 += CA_PHILOX_W1;
    }
    memcpy(r->x, x, sizeof x);
    memcpy(r->y, y, sizeof y);
    memcpy(r->z, z, sizeof z);
    memcpy(r->w, w, sizeof w);
}

#endif /* CA_HOST_PHILOX_H */

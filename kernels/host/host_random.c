/* host_random.c: the random distributions on the cpu device, block by block
 * exactly as the GPU kernels in random.cu compute them (random_impl.h);
 * uniforms and normals CA_RNG_LANES blocks at a time, on the pool. */
#include <string.h>

#include "host_philox.h"
#include "host_threads.h"

/* Samples [i0, i1) of a uniform call (i0 a multiple of 4 * CA_RNG_LANES):
 * float32 takes the four words of a block, float64 two pairs. */
static CA_RNG_CLONES void
uniform_f32_range(float *o, int64_t i0, int64_t i1, uint64_t seed, uint64_t offset,
                  float lo, float sc)
{
    for (int64_t i = i0; i < i1; i += 4 * CA_RNG_LANES) {
        rng_lanes r;
        float v[4 * CA_RNG_LANES];
        philox_lanes(seed, offset + (uint64_t)(i >> 2), &r);
        for (int k = 0; k < CA_RNG_LANES; k++) {
            v[4 * k] = fmaf(ca_u01_f32(r.x[k]), sc, lo);
            v[4 * k + 1] = fmaf(ca_u01_f32(r.y[k]), sc, lo);
            v[4 * k + 2] = fmaf(ca_u01_f32(r.z[k]), sc, lo);
            v[4 * k + 3] = fmaf(ca_u01_f32(r.w[k]), sc, lo);
        }
        const int64_t m = i1 - i < 4 * CA_RNG_LANES ? i1 - i : 4 * CA_RNG_LANES;
        memcpy(o + i, v, (size_t)m * sizeof(float));
    }
}

static CA_RNG_CLONES void
uniform_f64_range(double *o, int64_t i0, int64_t i1, uint64_t seed, uint64_t offset,
                  double lo, double sc)
{
    for (int64_t i = i0; i < i1; i += 2 * CA_RNG_LANES) {
        rng_lanes r;
        double v[2 * CA_RNG_LANES];
        philox_lanes(seed, offset + (uint64_t)(i >> 1), &r);
        for (int k = 0; k < CA_RNG_LANES; k++) {
            v[2 * k] = fma(ca_u01_f64(r.x[k], r.y[k]), sc, lo);
            v[2 * k + 1] = fma(ca_u01_f64(r.z[k], r.w[k]), sc, lo);
        }
        const int64_t m = i1 - i < 2 * CA_RNG_LANES ? i1 - i : 2 * CA_RNG_LANES;
        memcpy(o + i, v, (size_t)m * sizeof(double));
    }
}

/* Normals: Box-Muller as ca_box_muller_f32 / ca_box_muller_f64 compute it, in
 * phases over the lanes: the conversions, square roots, products and float64's
 * sin(pi t) and cos(pi t) (ca_sincospi_f64) are vector loops, and the libm
 * calls (log; float32's sinf and cosf) are independent of each other, where
 * one pair at a time waited on each square root. Each operation is the one the
 * scalar form does, in the same order, so the samples are the same bits. */
static CA_RNG_CLONES void
normal_f32_range(float *o, int64_t i0, int64_t i1, uint64_t seed, uint64_t offset,
                 float loc, float sc)
{
    enum { P = 2 * CA_RNG_LANES }; /* pairs: two a block */
    for (int64_t i = i0; i < i1; i += 2 * P) {
        rng_lanes r;
        float u[P], v[P], rad[P], t[P], cs[P], sn[P], z[2 * P];
        philox_lanes(seed, offset + (uint64_t)(i >> 2), &r);
        for (int k = 0; k < CA_RNG_LANES; k++) {
            u[2 * k] = ca_u01_open_f32(r.x[k]);
            v[2 * k] = ca_u01_open_f32(r.y[k]);
            u[2 * k + 1] = ca_u01_open_f32(r.z[k]);
            v[2 * k + 1] = ca_u01_open_f32(r.w[k]);
        }
        for (int p = 0; p < P; p++) {
            rad[p] = -2.0f * logf(u[p]);
            t[p] = fmaf(v[p], 6.2831853071795865f, -3.1415926535897932f);
        }
        for (int p = 0; p < P; p++) {
            rad[p] = sqrtf(rad[p]);
            sn[p] = sinf(t[p]);
            cs[p] = cosf(t[p]);
        }
        for (int p = 0; p < P; p++) {
            z[2 * p] = fmaf(rad[p] * cs[p], sc, loc);
            z[2 * p + 1] = fmaf(rad[p] * sn[p], sc, loc);
        }
        const int64_t m = i1 - i < 2 * P ? i1 - i : 2 * P;
        memcpy(o + i, z, (size_t)m * sizeof(float));
    }
}

static CA_RNG_CLONES void
normal_f64_range(double *o, int64_t i0, int64_t i1, uint64_t seed, uint64_t offset,
                 double loc, double sc)
{
    enum { P = CA_RNG_LANES }; /* pairs: one a block */
    for (int64_t i = i0; i < i1; i += 2 * P) {
        rng_lanes r;
        double u[P], v[P], rad[P], cs[P], sn[P], z[2 * P];
        philox_lanes(seed, offset + (uint64_t)(i >> 1), &r);
        for (int k = 0; k < P; k++) {
            u[k] = ca_u01_open_f64(r.x[k], r.y[k]);
            v[k] = fma(ca_u01_open_f64(r.z[k], r.w[k]), 2.0, -1.0);
        }
        for (int k = 0; k < P; k++) {
            rad[k] = -2.0 * log(u[k]);
        }
        for (int k = 0; k < P; k++) {
            rad[k] = sqrt(rad[k]);
            ca_sincospi_f64(v[k], &sn[k], &cs[k]);
        }
        for (int k = 0; k < P; k++) {
            z[2 * k] = fma(rad[k] * cs[k], sc, loc);
            z[2 * k + 1] = fma(rad[k] * sn[k], sc, loc);
        }
        const int64_t m = i1 - i < 2 * P ? i1 - i : 2 * P;
        memcpy(o + i, z, (size_t)m * sizeof(double));
    }
}

/* One call of uniform or normal samples, cut in pieces of CA_RNG_PIECE samples
 * for the pool (pieces by the sample count alone: the same samples on one
 * thread or many; each sample's block is fixed by its index). */
#define CA_RNG_PIECE ((int64_t)1 << 16)

typedef struct {
    void *out;
    int dtype, normal;
    uint64_t seed, offset;
    double a, b; /* low and scale, or loc and scale */
} rng_job;

static void
rng_piece(void *ctx, int64_t i0, int64_t i1)
{
    const rng_job *j = ctx;
    if (j->dtype == CA_FLOAT32 && j->normal) {
        normal_f32_range(j->out, i0, i1, j->seed, j->offset, (float)j->a, (float)j->b);
    }
    else if (j->dtype == CA_FLOAT32) {
        uniform_f32_range(j->out, i0, i1, j->seed, j->offset, (float)j->a, (float)j->b);
    }
    else if (j->normal) {
        normal_f64_range(j->out, i0, i1, j->seed, j->offset, j->a, j->b);
    }
    else {
        uniform_f64_range(j->out, i0, i1, j->seed, j->offset, j->a, j->b);
    }
}

static int
rng_run(void *out, int64_t n, int dtype, int normal, uint64_t seed, uint64_t offset,
        double a, double b)
{
    const rng_job j = { out, dtype, normal, seed, offset, a, b };
    ca_host_parallel_pieces(n, CA_RNG_PIECE, rng_piece, (void *)&j);
    return 0;
}

int
ca_random_uniform_host(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                       double low, double scale)
{
    return rng_run(out, n, dtype, 0, seed, offset, low, scale);
}

int
ca_random_normal_host(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                      double loc, double scale)
{
    return rng_run(out, n, dtype, 1, seed, offset, loc, scale);
}

/* o[t] = low + v[t] for t < n, elements of itemsize bytes: one loop per size,
 * which gcc vectorises (a store through ca_store_int's switch per element was a
 * fifth of a permutation's time). */
static inline void
store_ints(char *o, int itemsize, uint64_t low, const uint64_t *v, int n)
{
    switch (itemsize) {
    case 1:
        for (int t = 0; t < n; t++) {
            ((uint8_t *)o)[t] = (uint8_t)(low + v[t]);
        }
        break;
    case 2:
        for (int t = 0; t < n; t++) {
            ((uint16_t *)o)[t] = (uint16_t)(low + v[t]);
        }
        break;
    case 4:
        for (int t = 0; t < n; t++) {
            ((uint32_t *)o)[t] = (uint32_t)(low + v[t]);
        }
        break;
    default:
        for (int t = 0; t < n; t++) {
            ((uint64_t *)o)[t] = low + v[t];
        }
    }
}

/* Integer samples [i0, i1) of a call whose range fits 32 bits (four per
 * block): the words from the lanes, Lemire's product for all of them at once,
 * and the rare sample whose low half falls below the range (a possible
 * rejection) recomputed exactly by ca_random_int_sample. */
static CA_RNG_CLONES void
integers32_range(char *o, int itemsize, int64_t i0, int64_t i1, uint64_t seed,
                 uint64_t offset, uint64_t low, uint64_t range_m1)
{
    enum { S = 4 * CA_RNG_LANES };
    const uint32_t rng = (uint32_t)range_m1 + 1u; /* 0: the full 32-bit range */
    for (int64_t i = i0; i < i1; i += S) {
        rng_lanes r;
        uint32_t x[S];
        uint64_t v[S];
        int redo = 0;
        philox_lanes(seed, offset + (uint64_t)(i >> 2), &r);
        for (int k = 0; k < CA_RNG_LANES; k++) {
            x[4 * k] = r.x[k];
            x[4 * k + 1] = r.y[k];
            x[4 * k + 2] = r.z[k];
            x[4 * k + 3] = r.w[k];
        }
        for (int t = 0; t < S; t++) {
            const uint64_t m = (uint64_t)x[t] * rng;
            v[t] = rng ? m >> 32 : x[t];
            redo |= rng && (uint32_t)m < rng;
        }
        const int64_t n = i1 - i < S ? i1 - i : S;
        for (int t = 0; redo && t < n; t++) {
            const int k = t / 4;
            const ca_u32x4 blk = { r.x[k], r.y[k], r.z[k], r.w[k] };
            v[t] =
                ca_random_int_sample(seed, offset, (uint64_t)(i + t), range_m1, 0, blk);
        }
        store_ints(o + i * itemsize, itemsize, low, v, (int)n);
    }
}

/* Samples [i0, i1) of a call whose range needs 64 bits (two per block). */
static void
integers64_range(char *o, int itemsize, int64_t i0, int64_t i1, uint64_t seed,
                 uint64_t offset, uint64_t low, uint64_t range_m1)
{
    for (int64_t j0 = i0; j0 < i1; j0 += 2) {
        const ca_u32x4 blk = ca_philox_block(seed, offset + (uint64_t)(j0 >> 1), 0);
        for (int64_t t = j0; t < j0 + 2 && t < i1; t++) {
            const uint64_t r =
                ca_random_int_sample(seed, offset, (uint64_t)t, range_m1, 1, blk);
            ca_store_int(o + t * itemsize, itemsize, low + r);
        }
    }
}

typedef struct {
    char *out;
    int itemsize;
    uint64_t seed, offset, low, range_m1;
} int_job;

static void
int_piece(void *ctx, int64_t i0, int64_t i1)
{
    const int_job *j = ctx;
    if (j->range_m1 > 0xFFFFFFFFu) {
        integers64_range(j->out, j->itemsize, i0, i1, j->seed, j->offset, j->low,
                         j->range_m1);
    }
    else {
        integers32_range(j->out, j->itemsize, i0, i1, j->seed, j->offset, j->low,
                         j->range_m1);
    }
}

int
ca_random_integers_host(void *out, int64_t n, int itemsize, uint64_t seed,
                        uint64_t offset, uint64_t low, uint64_t range_m1)
{
    char *o = (char *)out;
    if (range_m1 == 0) {
        for (int64_t i = 0; i < n; i++) {
            ca_store_int(o + i * itemsize, itemsize, low);
        }
        return 0;
    }
    const int_job j = { o, itemsize, seed, offset, low, range_m1 };
    ca_host_parallel_pieces(n, CA_RNG_PIECE, int_piece, (void *)&j);
    return 0;
}

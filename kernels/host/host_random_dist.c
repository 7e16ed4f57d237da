/* host_random_dist.c: ca_random_dist on the cpu device, sample by sample as the
 * GPU kernels in random_dist.cu compute them (random_dist.h), in pieces of
 * CA_RD_PIECE samples on the pool: each sample's words depend on its index
 * alone, so the split changes no bit. */
#include <string.h>

#include "host_philox.h"
#include "host_threads.h"
#include "random_dist.h"

#define CA_RD_PIECE ((int64_t)1 << 14)

/* The blocks j0 .. j0 + CA_RNG_LANES - 1 of a call: Philox lanes, or the
 * cuRAND words. */
static inline void
dist_lanes(uint64_t seed, uint64_t offset, const uint32_t *words, uint64_t j0,
           rng_lanes *r)
{
    if (words == NULL) {
        philox_lanes(seed, offset + j0, r);
        return;
    }
    for (int k = 0; k < CA_RNG_LANES; k++) {
        const ca_u32x4 b = ca_rd_block(seed, offset, words, j0 + (uint64_t)k);
        r->x[k] = b.x;
        r->y[k] = b.y;
        r->z[k] = b.z;
        r->w[k] = b.w;
    }
}

/* Samples [first, n) of a transform (first a multiple of 4 * CA_RNG_LANES).
 * TRANSFORM_RANGE writes the function for base samples of type T, PER of them
 * a block (2^SHIFT) from ca_rd_base_SFX, each stored by STORE (sample v[t],
 * index i). */
#define TRANSFORM_RANGE(name, OUT_T, T, SFX, PER, SHIFT, STORE)                        \
    static CA_RNG_CLONES void name(int op, OUT_T *out, int64_t first, int64_t n,       \
                                   uint64_t seed, uint64_t offset,                     \
                                   const ca_rd_params *prm, const uint32_t *words)     \
    {                                                                                  \
        const int base = ca_rd_base(op);                                               \
        for (int64_t g = first; g < n; g += PER * CA_RNG_LANES) {                      \
            rng_lanes r;                                                               \
            dist_lanes(seed, offset, words, (uint64_t)g >> SHIFT, &r);                 \
            for (int k = 0; k < CA_RNG_LANES && g + PER * k < n; k++) {                \
                const int64_t i0 = g + PER * k;                                        \
                const ca_u32x4 blk = { r.x[k], r.y[k], r.z[k], r.w[k] };               \
                T v[PER];                                                              \
                ca_rd_base_##SFX(base, blk, v);                                        \
                for (int64_t t = 0; t < PER && i0 + t < n; t++) {                      \
                    uint64_t i = (uint64_t)(i0 + t);                                   \
                    STORE                                                              \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }

TRANSFORM_RANGE(transform_f32, float, float, f32, 4, 2,
                out[i] = ca_rd_transform_f32(op, v[t], (float)ca_rd_param(prm, 0, i),
                                             (float)ca_rd_param(prm, 1, i),
                                             (float)ca_rd_param(prm, 2, i));)
TRANSFORM_RANGE(
    transform_f64, void, double, f64, 2, 1,
    if (op == CA_RD_GEOMETRIC) {
        ((int64_t *)out)[i] = ca_rd_geometric(v[t], ca_rd_param(prm, 0, i));
    } else {
        ((double *)out)[i] =
            ca_rd_transform_f64(op, v[t], ca_rd_param(prm, 0, i),
                                ca_rd_param(prm, 1, i), ca_rd_param(prm, 2, i));
    })

/* A float32 or float64 sample. */
static inline void
store_sample(void *out, int dtype, int64_t i, double v)
{
    if (dtype == CA_FLOAT32) {
        ((float *)out)[i] = (float)v;
    }
    else {
        ((double *)out)[i] = v;
    }
}

/* Samples [first, n) of a stream op (rejection loops: one stream a sample). */
static void
streams(int op, void *out, int64_t first, int64_t n, int dtype, uint64_t seed,
        uint64_t offset, const ca_rd_params *prm, const uint32_t *words)
{
    for (int64_t k = first; k < n; k++) {
        uint64_t i = (uint64_t)k;
        ca_rd_stream s;
        ca_rd_stream_init(&s, seed, offset + i, words, i);
        double a = ca_rd_param(prm, 0, i), b = ca_rd_param(prm, 1, i),
               c = ca_rd_param(prm, 2, i);
        if (dtype == CA_INT64) {
            ((int64_t *)out)[i] = ca_rd_stream_i64(op, &s, a, b, c);
        }
        else {
            store_sample(out, dtype, k, ca_rd_stream_f64(op, &s, a, b, c));
        }
    }
}

/* The gamma family (gamma, chisquare) with Philox streams: the first
 * Marsaglia-Tsang attempt of CA_RNG_LANES samples at a time. Sample i's stream
 * (ca_rd_stream_init) starts with block (offset + i, attempt 0), whose four
 * words are the Box-Muller normal, and its uniform is the first two words of
 * block (offset + i, attempt 1). The lanes compute these with the operations
 * of ca_rd_gamma_mt in its order, so the same bits: the normal, the squeeze
 * test and the sample as vector loops, the logarithms as a phase of
 * independent libm calls, and the log test for the few the squeeze leaves.
 * A sample not accepted at once (shape < 1 or not a number, v <= 0, later
 * attempts: about 2% at shape 2.5) is recomputed by the scalar stream. */
static inline void
gamma_shape_scale(int op, const ca_rd_params *prm, uint64_t i, double *shape,
                  double *scale)
{
    if (op == CA_RD_GAMMA) {
        *shape = ca_rd_param(prm, 0, i);
        *scale = ca_rd_param(prm, 1, i);
    }
    else { /* chisquare(df) = 2 gamma(df / 2) */
        *shape = 0.5 * ca_rd_param(prm, 0, i);
        *scale = 2.0;
    }
}

/* ca_u01_open_f64(lo, hi) without a 64-bit integer conversion, which AVX2
 * lacks: 1 + m 2^-52 is the double with m as its fraction, so subtracting 1
 * and adding 2^-53 gives (2m + 1) 2^-53 exactly, the same bits. */
static inline double
u01_open_f64_lanes(uint32_t lo, uint32_t hi)
{
    const uint64_t m = (((uint64_t)hi << 32) | lo) >> 12, one = 0x3FF0000000000000u;
    double f;
    const uint64_t bits = one | m;
    memcpy(&f, &bits, sizeof f);
    return (f - 1.0) + 1.1102230246251565e-16;
}

/* The first attempt's normal x, v^3 and uniform u of each lane, and whether
 * the squeeze test accepts it (1), leaves it to the log test (2) or not (0). */
typedef struct {
    double x[CA_RNG_LANES], v3[CA_RNG_LANES], u[CA_RNG_LANES], d[CA_RNG_LANES];
    int verdict[CA_RNG_LANES];
} gamma_attempt;

static CA_RNG_CLONES __attribute__((noinline)) void
gamma_squeeze(const double *restrict shape, const double *restrict r2,
              const rng_lanes *restrict wa, const rng_lanes *restrict wb,
              gamma_attempt *restrict at)
{
    for (int k = 0; k < CA_RNG_LANES; k++) {
        const double t = fma(u01_open_f64_lanes(wa->z[k], wa->w[k]), 2.0, -1.0);
        double sn, cs;
        ca_sincospi_f64(t, &sn, &cs);
        const double x = sqrt(r2[k]) * cs;
        const double d = shape[k] - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
        const double v = 1.0 + c * x, v3 = v * v * v;
        const double u = u01_open_f64_lanes(wb->x[k], wb->y[k]), x2 = x * x;
        const int live = (shape[k] >= 1.0) & (v > 0.0);
        at->verdict[k] = live * (u < 1.0 - 0.0331 * x2 * x2 ? 1 : 2);
        at->x[k] = x;
        at->v3[k] = v3;
        at->u[k] = u;
        at->d[k] = d;
    }
}

static CA_RNG_CLONES void
gamma_lanes(int op, void *out, int64_t first, int64_t n, int dtype, uint64_t seed,
            uint64_t offset, const ca_rd_params *prm)
{
    enum { L = CA_RNG_LANES };
    for (int64_t g = first; g < n; g += L) {
        const int m = n - g < L ? (int)(n - g) : L;
        rng_lanes wa, wb;
        philox_lanes_at(seed, offset + (uint64_t)g, 0, &wa);
        philox_lanes_at(seed, offset + (uint64_t)g, 1, &wb);
        double shape[L], scale[L], r2[L];
        gamma_attempt at;
        for (int k = 0; k < L; k++) {
            shape[k] = scale[k] = 1.0;
        }
        for (int k = 0; k < m; k++) {
            gamma_shape_scale(op, prm, (uint64_t)(g + k), &shape[k], &scale[k]);
        }
        for (int k = 0; k < L; k++) {
            r2[k] = -2.0 * log(u01_open_f64_lanes(wa.x[k], wa.y[k]));
        }
        gamma_squeeze(shape, r2, &wa, &wb, &at);
        for (int k = 0; k < m; k++) {
            const double x2 = at.x[k] * at.x[k], d = at.d[k], v3 = at.v3[k];
            if (at.verdict[k] == 1 ||
                (at.verdict[k] == 2 &&
                 log(at.u[k]) < 0.5 * x2 + d * (1.0 - v3 + log(v3)))) {
                store_sample(out, dtype, g + k, scale[k] * (d * v3));
            }
            else {
                streams(op, out, g + k, g + k + 1, dtype, seed, offset, prm, NULL);
            }
        }
    }
}

typedef struct {
    int op, dtype;
    void *out;
    uint64_t seed, offset;
    const ca_rd_params *prm;
    const uint32_t *words;
} dist_job;

static void
dist_piece(void *ctx, int64_t i0, int64_t i1)
{
    const dist_job *j = ctx;
    if ((j->op == CA_RD_GAMMA || j->op == CA_RD_CHISQUARE) && j->words == NULL &&
        j->dtype != CA_INT64) {
        gamma_lanes(j->op, j->out, i0, i1, j->dtype, j->seed, j->offset, j->prm);
    }
    else if (j->op >= CA_RD_NTRANSFORM) {
        streams(j->op, j->out, i0, i1, j->dtype, j->seed, j->offset, j->prm, j->words);
    }
    else if (j->dtype == CA_FLOAT32) {
        transform_f32(j->op, j->out, i0, i1, j->seed, j->offset, j->prm, j->words);
    }
    else {
        transform_f64(j->op, j->out, i0, i1, j->seed, j->offset, j->prm, j->words);
    }
}

int
ca_random_dist_host(int op, void *out, int64_t n, int dtype, uint64_t seed,
                    uint64_t offset, const ca_rd_params *prm, const uint32_t *words)
{
    const dist_job j = { op, dtype, out, seed, offset, prm, words };
    ca_host_parallel_pieces(n, CA_RD_PIECE, dist_piece, (void *)&j);
    return 0;
}

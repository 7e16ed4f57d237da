/* host_random_dist.c: ca_random_dist on the cpu device, sample by sample as the
 * GPU kernels in random_dist.cu compute them (random_dist.h), in pieces of
 * CA_RD_PIECE samples on the pool: each sample's words depend on its index
 * alone, so the split changes no bit. */
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

/* Samples [first, n) of a transform (first a multiple of 4 * CA_RNG_LANES). */
static CA_RNG_CLONES void
transform_f32(int op, float *o, int64_t first, int64_t n, uint64_t seed,
              uint64_t offset, const ca_rd_params *prm, const uint32_t *words)
{
    const int base = ca_rd_base(op);
    for (int64_t g = first; g < n; g += 4 * CA_RNG_LANES) {
        rng_lanes r;
        dist_lanes(seed, offset, words, (uint64_t)g >> 2, &r);
        for (int k = 0; k < CA_RNG_LANES && g + 4 * k < n; k++) {
            const int64_t i0 = g + 4 * k;
            const ca_u32x4 blk = { r.x[k], r.y[k], r.z[k], r.w[k] };
            float v[4];
            ca_rd_base_f32(base, blk, v);
            for (int64_t t = 0; t < 4 && i0 + t < n; t++) {
                uint64_t i = (uint64_t)(i0 + t);
                o[i] = ca_rd_transform_f32(op, v[t], (float)ca_rd_param(prm, 0, i),
                                           (float)ca_rd_param(prm, 1, i),
                                           (float)ca_rd_param(prm, 2, i));
            }
        }
    }
}

static CA_RNG_CLONES void
transform_f64(int op, void *out, int64_t first, int64_t n, uint64_t seed,
              uint64_t offset, const ca_rd_params *prm, const uint32_t *words)
{
    const int base = ca_rd_base(op);
    for (int64_t g = first; g < n; g += 2 * CA_RNG_LANES) {
        rng_lanes r;
        dist_lanes(seed, offset, words, (uint64_t)g >> 1, &r);
        for (int k = 0; k < CA_RNG_LANES && g + 2 * k < n; k++) {
            const int64_t i0 = g + 2 * k;
            const ca_u32x4 blk = { r.x[k], r.y[k], r.z[k], r.w[k] };
            double v[2];
            ca_rd_base_f64(base, blk, v);
            for (int64_t t = 0; t < 2 && i0 + t < n; t++) {
                uint64_t i = (uint64_t)(i0 + t);
                if (op == CA_RD_GEOMETRIC) {
                    ((int64_t *)out)[i] = ca_rd_geometric(v[t], ca_rd_param(prm, 0, i));
                }
                else {
                    ((double *)out)[i] = ca_rd_transform_f64(
                        op, v[t], ca_rd_param(prm, 0, i), ca_rd_param(prm, 1, i),
                        ca_rd_param(prm, 2, i));
                }
            }
        }
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
        else if (dtype == CA_FLOAT32) {
            ((float *)out)[i] = (float)ca_rd_stream_f64(op, &s, a, b, c);
        }
        else {
            ((double *)out)[i] = ca_rd_stream_f64(op, &s, a, b, c);
        }
    }
}

typedef struct {
    int op, dtype;
    void *out;
    int64_t n;
    uint64_t seed, offset;
    const ca_rd_params *prm;
    const uint32_t *words;
} dist_job;

static void
dist_piece(void *ctx, int64_t t)
{
    const dist_job *j = ctx;
    int64_t i0, i1;
    ca_host_piece(t, CA_RD_PIECE, j->n, &i0, &i1);
    if (j->op >= CA_RD_NTRANSFORM) {
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
    const dist_job j = { op, dtype, out, n, seed, offset, prm, words };
    ca_host_parallel((n + CA_RD_PIECE - 1) / CA_RD_PIECE, dist_piece, (void *)&j);
    return 0;
}

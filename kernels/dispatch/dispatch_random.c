/* dispatch_random.c: the random entry points of kernels.h pick the host loops
 * or the GPU launchers by device, after checking their arguments. */
#include "dispatch.h"
#include "random_dist.h"

/* Samples per Philox block (4 words of 32 bits). */
static int
per_block(int dist, int dtype, uint64_t range_m1)
{
    if (dist == CA_RANDOM_INTEGERS) {
        return range_m1 <= 0xFFFFFFFFu ? 4 : 2;
    }
    return dtype == CA_FLOAT32 ? 4 : 2;
}

uint64_t
ca_random_blocks(int dist, int dtype, uint64_t range_m1, int64_t n)
{
    if (n <= 0) {
        return 0;
    }
    uint64_t pb = (uint64_t)per_block(dist, dtype, range_m1);
    return ((uint64_t)n + pb - 1) / pb;
}

static int
check_float(void *out, int64_t n, int dtype)
{
    if (n < 0 || (n > 0 && out == NULL) ||
        (dtype != CA_FLOAT32 && dtype != CA_FLOAT64)) {
        return CA_KERR_UNSUPPORTED;
    }
    return 0;
}

/* ca_random_uniform and ca_random_normal (kernels.h): one definition, the
 * distribution's name pasted into the host and GPU halves (uniform's loc and
 * scale are low and high - low). */
#define FLOAT_DIST(dist)                                                               \
    int ca_random_##dist(int device, void *out, int64_t n, int dtype, uint64_t seed,   \
                         uint64_t offset, double loc, double scale,                    \
                         ca_stream_t stream)                                           \
    {                                                                                  \
        int err = check_float(out, n, dtype);                                          \
        if (err || n == 0) {                                                           \
            return err;                                                                \
        }                                                                              \
        return CA_DISPATCH(                                                            \
            device, ca_random_##dist##_host(out, n, dtype, seed, offset, loc, scale),  \
            ca_random_##dist##_cuda(out, n, dtype, seed, offset, loc, scale, stream)); \
    }
FLOAT_DIST(uniform)
FLOAT_DIST(normal)

int
ca_random_integers(int device, void *out, int64_t n, int itemsize, uint64_t seed,
                   uint64_t offset, uint64_t low, uint64_t range_m1, ca_stream_t stream)
{
    if (n < 0 || (n > 0 && out == NULL) ||
        (itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    return CA_DISPATCH(
        device, ca_random_integers_host(out, n, itemsize, seed, offset, low, range_m1),
        ca_random_integers_cuda(out, n, itemsize, seed, offset, low, range_m1, stream));
}

/* ---- distributions (random_dist.h) ------------------------------------------ */
int
ca_random_dist_discrete(int op)
{
    return op == CA_RD_GEOMETRIC || (op >= CA_RD_POISSON && op < CA_RD_COUNT);
}

uint64_t
ca_random_dist_blocks(int op, int dtype, int64_t n)
{
    if (n <= 0) {
        return 0;
    }
    if (op >= CA_RD_NTRANSFORM) {
        return (uint64_t)n;
    }
    uint64_t pb = dtype == CA_FLOAT32 ? 4 : 2;
    return ((uint64_t)n + pb - 1) / pb;
}

int
ca_random_dist(int device, int op, void *out, int64_t n, int dtype, uint64_t seed,
               uint64_t offset, const ca_rd_params *prm, const uint32_t *words,
               ca_stream_t stream)
{
    if (op < 0 || op >= CA_RD_COUNT || n < 0 || (n > 0 && out == NULL) || prm == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    int want_int = ca_random_dist_discrete(op);
    if (want_int ? dtype != CA_INT64 : (dtype != CA_FLOAT32 && dtype != CA_FLOAT64)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    return CA_DISPATCH(
        device, ca_random_dist_host(op, out, n, dtype, seed, offset, prm, words),
        ca_random_dist_cuda(op, out, n, dtype, seed, offset, prm, words, stream));
}

/* ---- another generator's words as uniforms, in place ------------------------ */
#if CA_HAVE_CUDA
int ca_random_u01_words_cuda(void *buf, int64_t n, int dtype, ca_stream_t stream);
#endif

/* The host loop: each 4-word block read whole before its samples overwrite it. */
static void
u01_words_host(void *buf, int64_t n, int dtype)
{
    uint32_t *w = (uint32_t *)buf;
    const int64_t nblk = dtype == CA_FLOAT64 ? n / 2 : n / 4;
    for (int64_t j = 0; j < nblk; j++) {
        uint32_t r[4];
        memcpy(r, w + 4 * j, sizeof r);
        if (dtype == CA_FLOAT64) {
            const double v[2] = { ca_u01_f64(r[0], r[1]), ca_u01_f64(r[2], r[3]) };
            memcpy(w + 4 * j, v, sizeof v);
        }
        else {
            const float v[4] = { ca_u01_f32(r[0]), ca_u01_f32(r[1]), ca_u01_f32(r[2]),
                                 ca_u01_f32(r[3]) };
            memcpy(w + 4 * j, v, sizeof v);
        }
    }
}

int
ca_random_u01_words(int device, void *buf, int64_t n, int dtype, ca_stream_t stream)
{
    int err = check_float(buf, n, dtype);
    if (err || n % (dtype == CA_FLOAT64 ? 2 : 4) != 0) {
        return err ? err : CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        u01_words_host(buf, n, dtype);
        return 0;
    }
    return CA_GPU_CALL(ca_random_u01_words_cuda(buf, n, dtype, stream));
}

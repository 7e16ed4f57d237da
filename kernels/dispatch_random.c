/* dispatch_random.c: the random entry points of kernels.h pick the host loops
 * or the GPU launchers by device, after checking their arguments. */
#include "random_impl.h"

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

int
ca_random_uniform(int device, void *out, int64_t n, int dtype, uint64_t seed,
                  uint64_t offset, double low, double scale, ca_stream_t stream)
{
    int err = check_float(out, n, dtype);
    if (err || n == 0) {
        return err;
    }
    if (device == CA_CPU) {
        return ca_random_uniform_host(out, n, dtype, seed, offset, low, scale);
    }
#if CA_HAVE_CUDA
    return ca_random_uniform_cuda(out, n, dtype, seed, offset, low, scale, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

int
ca_random_normal(int device, void *out, int64_t n, int dtype, uint64_t seed,
                 uint64_t offset, double loc, double scale, ca_stream_t stream)
{
    int err = check_float(out, n, dtype);
    if (err || n == 0) {
        return err;
    }
    if (device == CA_CPU) {
        return ca_random_normal_host(out, n, dtype, seed, offset, loc, scale);
    }
#if CA_HAVE_CUDA
    return ca_random_normal_cuda(out, n, dtype, seed, offset, loc, scale, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

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
    if (device == CA_CPU) {
        return ca_random_integers_host(out, n, itemsize, seed, offset, low, range_m1);
    }
#if CA_HAVE_CUDA
    return ca_random_integers_cuda(out, n, itemsize, seed, offset, low, range_m1,
                                   stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

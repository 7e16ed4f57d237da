/* host_random.c: the random distributions on the cpu device, block by block
 * exactly as the GPU kernels in random.cu compute them (random_impl.h). */
#include <string.h>

#include "random_impl.h"

int
ca_random_uniform_host(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                       double low, double scale)
{
    if (dtype == CA_FLOAT32) {
        float *o = (float *)out;
        const float lo = (float)low, sc = (float)scale;
        for (int64_t i = 0; i < n; i += 4) {
            ca_u32x4 r = ca_philox_block(seed, offset + (uint64_t)(i >> 2), 0);
            float v[4] = { fmaf(ca_u01_f32(r.x), sc, lo), fmaf(ca_u01_f32(r.y), sc, lo),
                           fmaf(ca_u01_f32(r.z), sc, lo),
                           fmaf(ca_u01_f32(r.w), sc, lo) };
            int64_t m = n - i < 4 ? n - i : 4;
            memcpy(o + i, v, (size_t)m * sizeof(float));
        }
        return 0;
    }
    double *o = (double *)out;
    for (int64_t i = 0; i < n; i += 2) {
        ca_u32x4 r = ca_philox_block(seed, offset + (uint64_t)(i >> 1), 0);
        o[i] = fma(ca_u01_f64(r.x, r.y), scale, low);
        if (i + 1 < n) {
            o[i + 1] = fma(ca_u01_f64(r.z, r.w), scale, low);
        }
    }
    return 0;
}

int
ca_random_normal_host(void *out, int64_t n, int dtype, uint64_t seed, uint64_t offset,
                      double loc, double scale)
{
    if (dtype == CA_FLOAT32) {
        float *o = (float *)out;
        const float lo = (float)loc, sc = (float)scale;
        for (int64_t i = 0; i < n; i += 4) {
            ca_u32x4 r = ca_philox_block(seed, offset + (uint64_t)(i >> 2), 0);
            float v[4];
            ca_box_muller_f32(r.x, r.y, &v[0], &v[1]);
            ca_box_muller_f32(r.z, r.w, &v[2], &v[3]);
            int64_t m = n - i < 4 ? n - i : 4;
            for (int64_t j = 0; j < m; j++) {
                o[i + j] = fmaf(v[j], sc, lo);
            }
        }
        return 0;
    }
    double *o = (double *)out;
    for (int64_t i = 0; i < n; i += 2) {
        ca_u32x4 r = ca_philox_block(seed, offset + (uint64_t)(i >> 1), 0);
        double z0, z1;
        ca_box_muller_f64(r, &z0, &z1);
        o[i] = fma(z0, scale, loc);
        if (i + 1 < n) {
            o[i + 1] = fma(z1, scale, loc);
        }
    }
    return 0;
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
    const int wide = range_m1 > 0xFFFFFFFFu;
    const int shift = wide ? 1 : 2;
    const int64_t pb = (int64_t)1 << shift;
    for (int64_t j0 = 0; j0 < n; j0 += pb) {
        uint64_t blk_index = offset + (uint64_t)(j0 >> shift);
        ca_u32x4 blk = ca_philox_block(seed, blk_index, 0);
        int64_t m = n - j0 < pb ? n - j0 : pb;
        for (int64_t t = 0; t < m; t++) {
            uint64_t i = (uint64_t)(j0 + t);
            uint64_t r = ca_random_int_sample(seed, offset, i, range_m1, wide, blk);
            ca_store_int(o + (j0 + t) * itemsize, itemsize, low + r);
        }
    }
    return 0;
}

/*
 * host_ufunc_at.c: ufunc.at's unbuffered scatter on the cpu device (kernels.h:
 * ca_ufunc_at), and its dispatch to the GPU launcher (ufunc_at.cu).
 *
 * The host applies the updates one after the other, in order, as NumPy's
 * ufunc.at does; the element math is ufunc_at.h's, shared with the GPU.
 */
#include <string.h>

#include "ufunc_at.h"

#if CA_HAVE_CUDA
int ca_cuda_ufunc_at(int code, int dtype, void *target, const int64_t *pos,
                     int64_t extent, const void *values, int64_t n, int64_t *flag,
                     ca_stream_t stream);
int ca_cuda_ufunc_at_check(const int64_t *pos, int64_t n, int64_t extent, int64_t *flag,
                           ca_stream_t stream);
#endif

int
ca_at_supported(int code, int dtype)
{
#define CA_P_SUP(c, fn, dt, T, sfx, lk)                                                \
    if (code == (c) && dtype == (dt)) {                                                \
        return 1;                                                                      \
    }
    CA_AT_FOR_EACH(CA_P_SUP)
#undef CA_P_SUP
    return 0;
}

/* Elements by memcpy: the target may be any element-aligned view's buffer. With
 * a flag, one already set stops the loop before any update, and a position out
 * of range is reported and skipped. */
#define CA_P_LOOP(c, fn, dt, T, sfx, lk)                                               \
    static void host_at_##fn##_##dt(char *t, const int64_t *pos, int64_t extent,       \
                                    const char *v, int64_t n, int64_t *flag)           \
    {                                                                                  \
        if (flag != NULL && flag[0] != 0) {                                            \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = 0; i < n; i++) {                                              \
            T a, b;                                                                    \
            if (flag != NULL && (pos[i] < -extent || pos[i] >= extent)) {              \
                flag[0] = 1;                                                           \
                flag[1] = pos[i];                                                      \
                continue;                                                              \
            }                                                                          \
            const int64_t q = pos[i] < 0 ? pos[i] + extent : pos[i];                   \
            char *p = t + q * (int64_t)sizeof(T);                                      \
            memcpy(&a, p, sizeof a);                                                   \
            memcpy(&b, v + i * (int64_t)sizeof(T), sizeof b);                          \
            a = ca_at_##fn##_##dt(a, b);                                               \
            memcpy(p, &a, sizeof a);                                                   \
        }                                                                              \
    }
CA_AT_FOR_EACH(CA_P_LOOP)
#undef CA_P_LOOP

static int
host_ufunc_at(int code, int dtype, void *target, const int64_t *pos, int64_t extent,
              const void *values, int64_t n, int64_t *flag)
{
#define CA_P_CASE(c, fn, dt, T, sfx, lk)                                               \
    if (code == (c) && dtype == (dt)) {                                                \
        host_at_##fn##_##dt((char *)target, pos, extent, (const char *)values, n,      \
                            flag);                                                     \
        return 0;                                                                      \
    }
    CA_AT_FOR_EACH(CA_P_CASE)
#undef CA_P_CASE
    return CA_KERR_UNSUPPORTED;
}

int
ca_ufunc_at(int device, int code, int dtype, void *target, const int64_t *pos,
            int64_t extent, const void *values, int64_t n, int64_t *flag,
            ca_stream_t stream)
{
    if (n < 0 || !ca_at_supported(code, dtype)) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        (void)stream;
        return host_ufunc_at(code, dtype, target, pos, extent, values, n, flag);
    }
#if CA_HAVE_CUDA
    return ca_cuda_ufunc_at(code, dtype, target, pos, extent, values, n, flag, stream);
#else
    return CA_KERR_NO_CUDA;
#endif
}

int
ca_ufunc_at_check(int device, const int64_t *pos, int64_t n, int64_t extent,
                  int64_t *flag, ca_stream_t stream)
{
    if (n < 0 || extent < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    if (n == 0) {
        return 0;
    }
    if (device == CA_CPU) {
        (void)stream;
        for (int64_t i = 0; i < n; i++) {
            if (pos[i] < -extent || pos[i] >= extent) {
                flag[0] = 1;
                flag[1] = pos[i];
                break;
            }
        }
        return 0;
    }
#if CA_HAVE_CUDA
    return ca_cuda_ufunc_at_check(pos, n, extent, flag, stream);
#else
    return CA_KERR_NO_CUDA;
#endif
}

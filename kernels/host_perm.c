/*
 * host_perm.c: ca_perm_sort (kernels.h) on the cpu device, and its dispatch to
 * the GPU's (perm.cu).
 *
 * The same two steps as the GPU, so both devices give the same permutation:
 * a stable LSD radix sort of (key, position) over key bits [shift, 32), 8 bits
 * a pass, then the placement of perm_impl.h.
 */
#include <string.h>

#include "perm_impl.h"

#if CA_HAVE_CUDA
int ca_cuda_perm_sort(const uint32_t *k, const uint32_t *w, int64_t n, int shift,
                      int64_t *perm, int32_t *flag, void *temp, size_t *temp_bytes,
                      ca_stream_t stream);
#endif

/* Scratch of the host path: two key and two position buffers. */
static size_t
host_perm_bytes(int64_t n)
{
    return (size_t)n * 4 * sizeof(uint32_t);
}

/* One stable counting pass on the 8-bit digit at bit `at`: (ks, vs) -> (kd, vd). */
static void
radix_pass(const uint32_t *ks, const uint32_t *vs, uint32_t *kd, uint32_t *vd,
           int64_t n, int at)
{
    int64_t start[256];
    memset(start, 0, sizeof start);
    for (int64_t i = 0; i < n; i++) {
        start[(ks[i] >> at) & 0xFFu]++;
    }
    int64_t sum = 0;
    for (int d = 0; d < 256; d++) {
        const int64_t c = start[d];
        start[d] = sum;
        sum += c;
    }
    for (int64_t i = 0; i < n; i++) {
        const int64_t o = start[(ks[i] >> at) & 0xFFu]++;
        kd[o] = ks[i];
        vd[o] = vs[i];
    }
}

static void
host_perm(const uint32_t *k, const uint32_t *w, int64_t n, int shift, int64_t *perm,
          int32_t *flag, void *temp)
{
    uint32_t *ka = (uint32_t *)temp, *kb = ka + n, *va = kb + n, *vb = va + n;
    memcpy(ka, k, (size_t)n * sizeof(uint32_t));
    for (int64_t i = 0; i < n; i++) {
        va[i] = (uint32_t)i;
    }
    for (int at = shift; at < 32; at += 8) {
        radix_pass(ka, va, kb, vb, n, at);
        uint32_t *t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
    *flag = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t s = ca_perm_slot(ka, w, n, shift, i);
        if (s < 0) {
            *flag = 1;
            return;
        }
        perm[s] = (int64_t)va[i];
    }
}

int
ca_perm_sort(int device, const uint32_t *k, const uint32_t *w, int64_t n, int shift,
             int64_t *perm, int32_t *flag, void *temp, size_t *temp_bytes,
             ca_stream_t stream)
{
    if (n < 2 || n > INT32_MAX || shift < 0 || shift > 24 || temp_bytes == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    if (device == CA_CPU) {
        if (temp == NULL) {
            *temp_bytes = host_perm_bytes(n);
            return 0;
        }
        if (*temp_bytes < host_perm_bytes(n)) {
            return CA_KERR_UNSUPPORTED;
        }
        host_perm(k, w, n, shift, perm, flag, temp);
        return 0;
    }
#if CA_HAVE_CUDA
    return ca_cuda_perm_sort(k, w, n, shift, perm, flag, temp, temp_bytes, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

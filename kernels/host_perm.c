/*
 * host_perm.c: ca_perm_sort (kernels.h) on the cpu device, and its dispatch to
 * the GPU's (perm.cu).
 *
 * The same two steps as the GPU, so both devices give the same permutation:
 * a stable LSD radix sort of (key, position) over key bits [shift, 32), 11 bits
 * a pass, then the placement of perm_impl.h.
 */
#include <stdlib.h>
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

/* The LSD radix sort's digits: 11 bits (three passes over 32-bit keys where
 * 8-bit digits took four; 2^22 items: 50 -> 35 ms of a 110 ms permutation on
 * the development machine), the counts of every pass taken in one read of the
 * keys. Any digit width gives the same stable order. */
#define CA_PERM_DIGIT  11
#define CA_PERM_RADIX  (1 << CA_PERM_DIGIT)
#define CA_PERM_PASSES ((32 + CA_PERM_DIGIT - 1) / CA_PERM_DIGIT)

/* Each pass's digit counts made into starting offsets. */
static void
digit_offsets(const uint32_t *k, int64_t n, int shift, int npass,
              int64_t start[CA_PERM_PASSES][CA_PERM_RADIX])
{
    memset(start, 0, sizeof(int64_t) * CA_PERM_PASSES * CA_PERM_RADIX);
    for (int64_t i = 0; i < n; i++) {
        for (int p = 0; p < npass; p++) {
            start[p][(k[i] >> (shift + p * CA_PERM_DIGIT)) & (CA_PERM_RADIX - 1)]++;
        }
    }
    for (int p = 0; p < npass; p++) {
        int64_t sum = 0;
        for (int d = 0; d < CA_PERM_RADIX; d++) {
            const int64_t c = start[p][d];
            start[p][d] = sum;
            sum += c;
        }
    }
}

/* One stable scatter on the digit at bit `at`: (ks, vs) -> (kd, vd). */
static void
radix_pass(const uint32_t *ks, const uint32_t *vs, uint32_t *kd, uint32_t *vd,
           int64_t n, int at, int64_t *start)
{
    for (int64_t i = 0; i < n; i++) {
        const int64_t o = start[(ks[i] >> at) & (CA_PERM_RADIX - 1)]++;
        kd[o] = ks[i];
        vd[o] = vs[i];
    }
}

static int
host_perm(const uint32_t *k, const uint32_t *w, int64_t n, int shift, int64_t *perm,
          int32_t *flag, void *temp)
{
    uint32_t *ka = (uint32_t *)temp, *kb = ka + n, *va = kb + n, *vb = va + n;
    int64_t(*start)[CA_PERM_RADIX] =
        malloc(sizeof(int64_t[CA_PERM_PASSES][CA_PERM_RADIX]));
    if (start == NULL) {
        return CA_KERR_NOMEM;
    }
    const int npass = (32 - shift + CA_PERM_DIGIT - 1) / CA_PERM_DIGIT;
    digit_offsets(k, n, shift, npass, start);
    memcpy(ka, k, (size_t)n * sizeof(uint32_t));
    for (int64_t i = 0; i < n; i++) {
        va[i] = (uint32_t)i;
    }
    for (int p = 0; p < npass; p++) {
        radix_pass(ka, va, kb, vb, n, shift + p * CA_PERM_DIGIT, start[p]);
        uint32_t *t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
    free(start);
    *flag = 0;
    for (int64_t i = 0; i < n; i++) {
        const int64_t s = ca_perm_slot(ka, w, n, shift, i);
        if (s < 0) {
            *flag = 1;
            return 0;
        }
        perm[s] = (int64_t)va[i];
    }
    return 0;
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
        return host_perm(k, w, n, shift, perm, flag, temp);
    }
#if CA_HAVE_CUDA
    return ca_cuda_perm_sort(k, w, n, shift, perm, flag, temp, temp_bytes, stream);
#else
    (void)stream;
    return CA_KERR_NO_CUDA;
#endif
}

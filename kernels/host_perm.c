/*
 * host_perm.c: ca_perm_sort (kernels.h) on the cpu device, and its dispatch to
 * the GPU's (perm.cu).
 *
 * The same two steps as the GPU, so both devices give the same permutation:
 * a stable LSD radix sort of (key, position) over key bits [shift, 32), 11 bits
 * a pass (in pieces on the pool), then the placement of perm_impl.h.
 */
#include <stdlib.h>
#include <string.h>

#include "host_threads.h"
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
 * 8-bit digits took four). Any digit width gives the same stable order. */
#define CA_PERM_DIGIT 11
#define CA_PERM_RADIX (1 << CA_PERM_DIGIT)

/* A pass in CA_PERM_PIECES fixed pieces of the items (from CA_PERM_SPLIT items;
 * one piece below): each piece counts its digits on the pool, the counts become
 * each (piece, digit)'s first slot in piece order, and each piece scatters its
 * items from there, so the order is the one-pass stable order whatever the
 * thread count. */
#define CA_PERM_PIECES 4
#define CA_PERM_SPLIT  ((int64_t)1 << 18)

typedef struct {
    const uint32_t *ks, *vs;
    uint32_t *kd, *vd;
    int64_t n;
    int at, pieces;
    int64_t (*slot)[CA_PERM_RADIX]; /* per piece: counts, then next slots */
} radix_job;

static void
piece_range(const radix_job *j, int64_t t, int64_t *i0, int64_t *i1)
{
    *i0 = j->n * t / j->pieces;
    *i1 = j->n * (t + 1) / j->pieces;
}

static void
count_task(void *ctx, int64_t t)
{
    const radix_job *j = ctx;
    int64_t i0, i1, *c = j->slot[t];
    piece_range(j, t, &i0, &i1);
    memset(c, 0, sizeof(int64_t) * CA_PERM_RADIX);
    for (int64_t i = i0; i < i1; i++) {
        c[(j->ks[i] >> j->at) & (CA_PERM_RADIX - 1)]++;
    }
}

static void
scatter_task(void *ctx, int64_t t)
{
    const radix_job *j = ctx;
    int64_t i0, i1, *next = j->slot[t];
    piece_range(j, t, &i0, &i1);
    for (int64_t i = i0; i < i1; i++) {
        const int64_t o = next[(j->ks[i] >> j->at) & (CA_PERM_RADIX - 1)]++;
        j->kd[o] = j->ks[i];
        j->vd[o] = j->vs[i];
    }
}

/* One stable pass on the digit at bit j->at: (ks, vs) -> (kd, vd). */
static void
radix_pass(radix_job *j)
{
    ca_host_parallel(j->pieces, count_task, j);
    int64_t sum = 0;
    for (int d = 0; d < CA_PERM_RADIX; d++) {
        for (int t = 0; t < j->pieces; t++) {
            const int64_t c = j->slot[t][d];
            j->slot[t][d] = sum;
            sum += c;
        }
    }
    ca_host_parallel(j->pieces, scatter_task, j);
}

static int
host_perm(const uint32_t *k, const uint32_t *w, int64_t n, int shift, int64_t *perm,
          int32_t *flag, void *temp)
{
    uint32_t *ka = (uint32_t *)temp, *kb = ka + n, *va = kb + n, *vb = va + n;
    radix_job j = { .n = n, .pieces = n >= CA_PERM_SPLIT ? CA_PERM_PIECES : 1 };
    j.slot = malloc(sizeof(int64_t[CA_PERM_PIECES][CA_PERM_RADIX]));
    if (j.slot == NULL) {
        return CA_KERR_NOMEM;
    }
    memcpy(ka, k, (size_t)n * sizeof(uint32_t));
    for (int64_t i = 0; i < n; i++) {
        va[i] = (uint32_t)i;
    }
    for (int at = shift; at < 32; at += CA_PERM_DIGIT) {
        j.ks = ka;
        j.vs = va;
        j.kd = kb;
        j.vd = vb;
        j.at = at;
        radix_pass(&j);
        uint32_t *t = ka;
        ka = kb;
        kb = t;
        t = va;
        va = vb;
        vb = t;
    }
    free(j.slot);
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

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

/* Scratch of the host path: two buffers of packed (key, position) items. */
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

/* Items travel as one 64-bit word, key << 32 | position: a scatter writes one
 * stream per digit, where separate key and position arrays wrote two (the
 * passes of a 2^22-item permutation: ~40% of its time before). The first pass
 * reads the keys with their positions implied; the last writes keys and
 * positions apart, as the placement reads them. */
typedef struct {
    const uint32_t *k32; /* the first pass: the keys (position = index) */
    const uint64_t *src; /* later passes: packed items */
    uint64_t *dst;       /* packed out, or (the last pass) NULL and: */
    uint32_t *kd, *vd;   /* the keys and positions apart */
    int64_t n;
    int at, pieces;
    int64_t (*slot)[CA_PERM_RADIX]; /* per piece: counts, then next slots */
} radix_job;

static inline uint64_t
item_at(const radix_job *j, int64_t i)
{
    return j->k32 != NULL ? (uint64_t)j->k32[i] << 32 | (uint64_t)i : j->src[i];
}

static void
count_task(void *ctx, int64_t t)
{
    const radix_job *j = ctx;
    int64_t i0, i1, *c = j->slot[t];
    ca_host_share(t, j->pieces, j->n, &i0, &i1);
    memset(c, 0, sizeof(int64_t) * CA_PERM_RADIX);
    for (int64_t i = i0; i < i1; i++) {
        c[(item_at(j, i) >> (32 + j->at)) & (CA_PERM_RADIX - 1)]++;
    }
}

static void
scatter_task(void *ctx, int64_t t)
{
    const radix_job *j = ctx;
    int64_t i0, i1, *next = j->slot[t];
    ca_host_share(t, j->pieces, j->n, &i0, &i1);
    const int sh = 32 + j->at;
    if (j->dst != NULL) {
        for (int64_t i = i0; i < i1; i++) {
            const uint64_t e = item_at(j, i);
            j->dst[next[(e >> sh) & (CA_PERM_RADIX - 1)]++] = e;
        }
        return;
    }
    for (int64_t i = i0; i < i1; i++) {
        const uint64_t e = item_at(j, i);
        const int64_t o = next[(e >> sh) & (CA_PERM_RADIX - 1)]++;
        j->kd[o] = (uint32_t)(e >> 32);
        j->vd[o] = (uint32_t)e;
    }
}

/* One stable pass on the digit at key bit j->at. */
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

/* The placement (perm_impl.h): entry i's slot depends on the sorted keys
 * around i and the slot words alone, so the entries go in the same pieces on
 * the pool; a piece that meets a tie the fast path cannot order says so (the
 * caller then takes the generic path, whatever perm holds). */
typedef struct {
    const uint32_t *k, *v, *w;
    int64_t *perm;
    int64_t n;
    int shift, pieces;
    int32_t tied[CA_PERM_PIECES];
} place_job;

static void
place_task(void *ctx, int64_t t)
{
    place_job *j = ctx;
    int64_t i0, i1;
    ca_host_share(t, j->pieces, j->n, &i0, &i1);
    for (int64_t i = i0; i < i1; i++) {
        const int64_t s = ca_perm_slot(j->k, j->w, j->n, j->shift, i);
        if (s < 0) {
            j->tied[t] = 1;
            return;
        }
        j->perm[s] = (int64_t)j->v[i];
    }
}

static int
host_perm(const uint32_t *k, const uint32_t *w, int64_t n, int shift, int64_t *perm,
          int32_t *flag, void *temp)
{
    /* two buffers of n packed items; the last pass writes keys and positions
     * apart into the one it does not read */
    uint64_t *buf[2] = { (uint64_t *)temp, (uint64_t *)temp + n };
    radix_job j = { .n = n, .pieces = n >= CA_PERM_SPLIT ? CA_PERM_PIECES : 1 };
    j.slot = malloc(sizeof(int64_t[CA_PERM_PIECES][CA_PERM_RADIX]));
    if (j.slot == NULL) {
        return CA_KERR_NOMEM;
    }
    j.k32 = k;
    int b = 0;
    for (int at = shift; at < 32; at += CA_PERM_DIGIT, b ^= 1) {
        const int last = at + CA_PERM_DIGIT >= 32;
        j.at = at;
        j.dst = last ? NULL : buf[b];
        j.kd = (uint32_t *)buf[b];
        j.vd = j.kd + n;
        radix_pass(&j);
        j.k32 = NULL;
        j.src = buf[b];
    }
    free(j.slot);
    const uint32_t *keys = (const uint32_t *)buf[b ^ 1];
    place_job pj = { keys, keys + n, w, perm, n, shift, j.pieces, { 0 } };
    ca_host_parallel(j.pieces, place_task, &pj);
    *flag = 0;
    for (int t = 0; t < j.pieces; t++) {
        *flag |= pj.tied[t];
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

/*
 * perm_impl.h: the placement step of ca_perm_sort (kernels.h), shared by the GPU
 * kernel (perm.cu) and the host loop (host_perm.c), so both devices compute
 * the same permutation from the same words.
 *
 * The permutation of n items with keys k (uint32) and slot words w (uint32) is
 * defined as: the stable sort of the items by k (equal keys keep index order),
 * then every run of equal keys reordered by w[slot], slot being the entry's
 * place in that stable order (the generic path, cuarray.random's
 * _perm_generic, computes exactly this with sorts). ca_perm_sort reaches it
 * with fewer radix passes: the sort is by key bits [shift, 32) only, which
 * leaves segments of equal high bits, each in index order; the placement then
 * finds, for each entry of a segment, its rank by the full key (stable) and,
 * among entries of an equal key, its rank by w. A segment longer than
 * CA_PERM_SEG_MAX, or two entries with an equal key and an equal w (the
 * generic path then needs fresh words), gives -1: the caller falls back to the
 * generic path, which gives the same result where the fast one exists.
 */
#ifndef CA_PERM_IMPL_H
#define CA_PERM_IMPL_H

#include <stdint.h>

#include "scalar.h"

#define CA_PERM_SEG_MAX 64 /* longest segment the placement orders in place */

/* Key bits [shift, 32) of x (shift in 0..24). */
CA_HD uint32_t
ca_perm_high(uint32_t x, int shift)
{
    return (uint32_t)((uint64_t)x >> shift);
}

/* The final slot of entry i of the partly sorted keys K[0:n] (sorted stably by
 * bits [shift, 32)), or -1 (see the top). Reads K around i and, for an entry
 * whose key another entry shares, w at its group's slots (all < n). */
CA_HD int64_t
ca_perm_slot(const uint32_t *K, const uint32_t *w, int64_t n, int shift, int64_t i)
{
    const uint32_t ki = K[i];
    const uint32_t hi = ca_perm_high(ki, shift);
    int64_t b = i, e = i + 1; /* the segment [b, e) of entries with hi */
    while (b > 0 && ca_perm_high(K[b - 1], shift) == hi) {
        if (e - b >= CA_PERM_SEG_MAX) {
            return -1;
        }
        b--;
    }
    while (e < n && ca_perm_high(K[e], shift) == hi) {
        if (e - b >= CA_PERM_SEG_MAX) {
            return -1;
        }
        e++;
    }
    int64_t less = 0, before = 0, equal = 0;
    for (int64_t j = b; j < e; j++) {
        const uint32_t kj = K[j];
        if (kj < ki) {
            less++;
        }
        else if (kj == ki) {
            before += j < i;
            equal++;
        }
    }
    if (equal == 1) {
        return b + less;
    }
    /* A run of equal keys at slots b + less ... b + less + equal - 1 of the
     * stable order, entry i at b + less + before: order it by those slots' w. */
    const uint32_t wi = w[b + less + before];
    int64_t ahead = 0, q = 0;
    for (int64_t j = b; j < e; j++) {
        if (K[j] != ki) {
            continue;
        }
        if (j != i) {
            const uint32_t wj = w[b + less + q];
            if (wj == wi) {
                return -1;
            }
            ahead += wj < wi;
        }
        q++;
    }
    return b + less + ahead;
}

#endif /* CA_PERM_IMPL_H */

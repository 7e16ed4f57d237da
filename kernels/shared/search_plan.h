/*
 * search_plan.h: the sampled levels of a GPU searchsorted into a big array
 * (kernels/gpu/sort_search.cu searches through them; host_sort.c sizes their scratch).
 *
 * A random query's binary search through an array past the L2 reads two or three
 * sectors from DRAM near its end: the last levels' elements share no sectors with
 * other queries'. Level k holds every B^k-th element of a (s_k[j] = a[(j+1)B^k - 1],
 * B elements to a 32-byte sector, at least 4): each level narrows the next to a
 * window of B - 1 elements, so the search reads a itself in one window (one
 * sector where a is aligned) and the levels above, 1/(B-1) of a in all, stay in
 * the caches. The top level (at most CA_SEARCH_TOP elements) is searched whole.
 */
#ifndef CA_SEARCH_PLAN_H
#define CA_SEARCH_PLAN_H

#include "scalar.h"

/* Where the levels pay (H200): an array of 8 MiB or more and enough queries to
 * cover the pass that samples it. */
#define CA_SEARCH_LEVELS_MIN_BYTES   ((int64_t)8 << 20)
#define CA_SEARCH_LEVELS_MIN_QUERIES ((int64_t)1 << 16)
#define CA_SEARCH_TOP                2048
#define CA_SEARCH_MAX_LEVELS         24

typedef struct {
    int levels;                             /* K: 0 = the plain search */
    int64_t fan;                            /* B */
    int64_t m[CA_SEARCH_MAX_LEVELS + 1];    /* m[0] = n, m[k] = n / B^k */
    int64_t step[CA_SEARCH_MAX_LEVELS + 1]; /* B^k */
    int64_t off[CA_SEARCH_MAX_LEVELS + 2];  /* level k at element off[k] (k >= 1) */
} ca_search_plan;

/* Fill p for an array of n elements of `size` bytes and nv queries; returns the
 * scratch's element count (0: no levels). */
CA_HD int64_t
ca_search_plan_make(ca_search_plan *p, int on_gpu, int size, int64_t n, int has_sorter,
                    int64_t nv)
{
    p->levels = 0;
    p->fan = 32 / size < 4 ? 4 : 32 / size;
    p->m[0] = n;
    p->step[0] = 1;
    p->off[1] = 0;
    if (!on_gpu || has_sorter || n * size < CA_SEARCH_LEVELS_MIN_BYTES ||
        nv < CA_SEARCH_LEVELS_MIN_QUERIES) {
        return 0;
    }
    int k = 0;
    while (p->m[k] > CA_SEARCH_TOP && k < CA_SEARCH_MAX_LEVELS) {
        p->m[k + 1] = p->m[k] / p->fan;
        p->step[k + 1] = p->step[k] * p->fan;
        p->off[k + 2] = p->off[k + 1] + p->m[k + 1];
        k++;
    }
    p->levels = k;
    return p->off[k + 1];
}

#endif /* CA_SEARCH_PLAN_H */

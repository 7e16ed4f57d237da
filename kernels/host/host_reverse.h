/*
 * host_reverse.h: copying a run of n elements of E bytes where one side walks
 * backwards (a[::-1]), with constant strides so gcc vectorises it (shuffles).
 * Used by host_copy.c's moves and by the element-wise dispatch's buffers for
 * backward runs (dispatch_elementwise.c). Host only.
 *
 * ca_reverse_E(dst, src, n, dir): dst[i * dir] = src[-i * dir] for i < n:
 * dir 1 reads backwards (src is the run's first element in its own order, at
 * the highest address), dir -1 writes backwards.
 */
#ifndef CA_HOST_REVERSE_H
#define CA_HOST_REVERSE_H

#include <stdint.h>
#include <string.h>

#define CA_REVERSE_DEF(E)                                                              \
    static inline void ca_reverse_##E(char *dst, const char *src, int64_t n, int dir)  \
    {                                                                                  \
        if (dir > 0) {                                                                 \
            for (int64_t i = 0; i < n; i++) {                                          \
                memcpy(dst + i * E, src - i * E, E);                                   \
            }                                                                          \
        }                                                                              \
        else {                                                                         \
            for (int64_t i = 0; i < n; i++) {                                          \
                memcpy(dst - i * E, src + i * E, E);                                   \
            }                                                                          \
        }                                                                              \
    }
CA_REVERSE_DEF(1)
CA_REVERSE_DEF(2)
CA_REVERSE_DEF(4)
CA_REVERSE_DEF(8)
CA_REVERSE_DEF(16)
#undef CA_REVERSE_DEF

/* Whether item size sz has a ca_reverse_E. */
static inline int
ca_reverse_size(int64_t sz)
{
    return sz == 1 || sz == 2 || sz == 4 || sz == 8 || sz == 16;
}

/* ca_reverse_E for sz, one of ca_reverse_size's. */
static inline void
ca_reverse(char *dst, const char *src, int64_t n, int sz, int dir)
{
    switch (sz) {
    case 1: ca_reverse_1(dst, src, n, dir); break;
    case 2: ca_reverse_2(dst, src, n, dir); break;
    case 4: ca_reverse_4(dst, src, n, dir); break;
    case 8: ca_reverse_8(dst, src, n, dir); break;
    default: ca_reverse_16(dst, src, n, dir); break;
    }
}

#endif /* CA_HOST_REVERSE_H */

/*
 * host_truth.c: the host any / all of a strided run, for every dtype (the runs
 * of kernels/reductions.def's ANY and ALL kernels; host_reduce.h declares them,
 * build/generated/red_host.c calls them).
 *
 * An element's truth is a test on its bits, so that one loop of integer ORs
 * serves every dtype: nonzero for bool (any nonzero byte is true) and the
 * integers; for floats the bits but the sign's (-0.0 is false, NaN true, as
 * x != 0 in NumPy); a complex is true when either part is. A per-element
 * compare-and-branch (the generic loop, which stopped at the first deciding
 * element) does not vectorise; here the run goes in blocks of CA_HT_BLOCK
 * bytes, each folded without a branch (any: the OR of the masked bits; all:
 * the OR of the "is zero" tests), which gcc vectorises for contiguous runs,
 * and the walk stops after the first block that decides the answer. Where it
 * stops never changes the answer, only the time.
 *
 * Built three times on x86-64 (target_clones, as host_minmax.c): AVX-512, AVX2
 * and the baseline SSE2; every clone gives the same answer.
 */
#include <stdint.h>
#include <string.h>

#include "host_reduce.h"

#include "host_clones.h"

#define CA_HT_INLINE static inline __attribute__((always_inline))

/* Bytes folded between the early-exit tests: long enough that the test and
 * the vector loop's reduction cost nothing per element, short enough that a
 * deciding element near the start ends the walk at once (a page, in L1). */
#define CA_HT_BLOCK 4096

/* CA_HT_WALK(name, U, PARTS, which, found): the walk of a run for `which` (any
 * or all) in blocks, stopping at the first block whose answer is `found` (any:
 * a true element, 1; all: a false one, 0). */
#define CA_HT_WALK(name, U, PARTS, which, found)                                       \
    CA_HOST_CLONES int ca_hr_##which##_##name(const char *p, int64_t n, int64_t s)     \
    {                                                                                  \
        const int64_t es = PARTS * (int64_t)sizeof(U), per = CA_HT_BLOCK / es;         \
        for (int64_t i = 0; i < n; i += per) {                                         \
            const int64_t m = n - i < per ? n - i : per;                               \
            const char *q = p + i * s;                                                 \
            if ((s == es ? ht_##which##_block_##name(q, m, es)                         \
                         : ht_##which##_block_##name(q, m, s)) == found) {             \
                return found;                                                          \
            }                                                                          \
        }                                                                              \
        return !found;                                                                 \
    }

/* CA_HT_FNS(name, U, MASK, PARTS): an element is PARTS words of type U (two
 * for complex), true when (word0 | word1) & MASK is nonzero. The words are
 * loaded by memcpy (not through a U pointer: the data may be floats), which
 * gcc turns into plain (vector) loads. The block loops take the stride as an
 * argument; the walk calls them with the element size as a constant for
 * contiguous runs, the copy gcc vectorises. */
#define CA_HT_FNS(name, U, MASK, PARTS)                                                \
    CA_HT_INLINE U ht_bits_##name(const char *q)                                       \
    {                                                                                  \
        U a, b = 0;                                                                    \
        memcpy(&a, q, sizeof a);                                                       \
        if (PARTS == 2) {                                                              \
            memcpy(&b, q + sizeof(U), sizeof b);                                       \
        }                                                                              \
        return (U)((a | b) & (U)(MASK));                                               \
    }                                                                                  \
    CA_HT_INLINE int ht_any_block_##name(const char *p, int64_t m, int64_t s)          \
    {                                                                                  \
        U r = 0;                                                                       \
        for (int64_t i = 0; i < m; i++) {                                              \
            r |= ht_bits_##name(p + i * s);                                            \
        }                                                                              \
        return r != 0;                                                                 \
    }                                                                                  \
    CA_HT_INLINE int ht_all_block_##name(const char *p, int64_t m, int64_t s)          \
    {                                                                                  \
        U z = 0; /* a word's width, so the compares stay in one vector lane */         \
        for (int64_t i = 0; i < m; i++) {                                              \
            z |= (U)(ht_bits_##name(p + i * s) == 0);                                  \
        }                                                                              \
        return z == 0;                                                                 \
    }                                                                                  \
    CA_HT_WALK(name, U, PARTS, any, 1)                                                 \
    CA_HT_WALK(name, U, PARTS, all, 0)

/* bool and the integers: every bit counts */
CA_HT_FNS(w8, uint8_t, 0xffu, 1)
CA_HT_FNS(w16, uint16_t, 0xffffu, 1)
CA_HT_FNS(w32, uint32_t, 0xffffffffu, 1)
CA_HT_FNS(w64, uint64_t, ~(uint64_t)0, 1)
/* floats (float16 as its bits): all but the sign bit */
CA_HT_FNS(f16, uint16_t, 0x7fffu, 1)
CA_HT_FNS(f32, uint32_t, 0x7fffffffu, 1)
CA_HT_FNS(f64, uint64_t, ~((uint64_t)1 << 63), 1)
CA_HT_FNS(c64, uint32_t, 0x7fffffffu, 2)
CA_HT_FNS(c128, uint64_t, ~((uint64_t)1 << 63), 2)

/*
 * host_minmax.c: the lane loops of the host max / min / argmax / argmin (and
 * nanmax / nanmin of floats) over a contiguous run, for every real dtype but
 * float16 (host_reduce.h declares them; build/generated/red_host.c calls them).
 *
 * 256 bytes of lanes fold the run by compare and select; the run's last 256
 * bytes are read again for its tail (max and min are idempotent: re-reading an
 * element changes nothing). Runs shorter than that are a scalar loop. On
 * x86-64 with GCC or clang each function is built three times (target_clones:
 * x86-64-v4 with AVX-512, AVX2, the baseline SSE2) and the loader picks the best
 * the CPU has; elsewhere it is built once for the build's target. The
 * results do not depend on the clone: the value of a max or min is the same
 * whichever order the elements meet (only which of -0.0 and +0.0 a tie of zeros
 * returns can change with the lane count, as in NumPy's own SIMD loops).
 *
 * The float forms report a NaN in the run (*nan), and then the caller walks the
 * run exactly (NaN propagates); the fmax / fmin forms skip NaNs and report a run
 * with no number (*nonum).
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "host_reduce.h"

#include "host_clones.h"

/* Lanes per loop step: 256 bytes of elements, in plain arrays that gcc
 * vectorises at each clone's width (4 registers of AVX-512, 8 of AVX2, 16 of
 * SSE2). Explicit vector types are avoided: gcc lowers a 64-byte vector
 * compare element by element on the narrower targets. */
#define CA_MM_STEP 256

/* max / min of a contiguous run of n >= 1 elements; *nan: the run holds a NaN
 * (the value returned is then meaningless). ISF: T is a float type; a NaN or an
 * infinity makes v - v NaN in its lane, and then a scan says whether a NaN is
 * there. */
#define CA_MM_FN(fname, T, GT, ISF)                                                    \
    CA_HOST_CLONES T fname(const T *x, int64_t n, int *nan)                            \
    {                                                                                  \
        enum { W = CA_MM_STEP / sizeof(T) };                                           \
        T r = x[0], z = 0;                                                             \
        if (n < W) {                                                                   \
            for (int64_t i = 0; i < n; i++) {                                          \
                const T v = x[i];                                                      \
                r = (GT ? v > r : v < r) ? v : r;                                      \
                z += ISF ? v - v : 0;                                                  \
            }                                                                          \
        }                                                                              \
        else {                                                                         \
            T m[W], zs[W];                                                             \
            for (int k = 0; k < W; k++) {                                              \
                m[k] = x[k];                                                           \
                zs[k] = ISF ? x[k] - x[k] : 0;                                         \
            }                                                                          \
            int64_t j = W;                                                             \
            for (; j + W <= n; j += W) {                                               \
                for (int k = 0; k < W; k++) {                                          \
                    const T v = x[j + k];                                              \
                    m[k] = (GT ? v > m[k] : v < m[k]) ? v : m[k];                      \
                    zs[k] += ISF ? v - v : 0;                                          \
                }                                                                      \
            }                                                                          \
            if (j < n) { /* the last W again: max and min are idempotent */            \
                for (int k = 0; k < W; k++) {                                          \
                    const T v = x[n - W + k];                                          \
                    m[k] = (GT ? v > m[k] : v < m[k]) ? v : m[k];                      \
                    zs[k] += ISF ? v - v : 0;                                          \
                }                                                                      \
            }                                                                          \
            r = m[0];                                                                  \
            for (int k = 0; k < W; k++) {                                              \
                r = (GT ? m[k] > r : m[k] < r) ? m[k] : r;                             \
                z += zs[k];                                                            \
            }                                                                          \
        }                                                                              \
        int bad = 0;                                                                   \
        if (ISF && z != z) {                                                           \
            for (int64_t i = 0; i < n; i++) {                                          \
                bad |= x[i] != x[i];                                                   \
            }                                                                          \
        }                                                                              \
        *nan = bad;                                                                    \
        return r;                                                                      \
    }

/* fmax / fmin of a contiguous float run of n >= 1 elements, NaNs skipped: lanes
 * start at the identity (-inf for fmax) that a NaN never beats; *nonum: the run
 * is all NaN (the value returned is then meaningless), looked for only when the
 * result is the identity. */
#define CA_MM_FFN(fname, T, GT)                                                        \
    CA_HOST_CLONES T fname(const T *x, int64_t n, int *nonum)                          \
    {                                                                                  \
        enum { W = CA_MM_STEP / sizeof(T) };                                           \
        const T id = GT ? -(T)INFINITY : (T)INFINITY;                                  \
        T r = id;                                                                      \
        if (n < W) {                                                                   \
            for (int64_t i = 0; i < n; i++) {                                          \
                const T v = x[i];                                                      \
                r = (GT ? v > r : v < r) ? v : r;                                      \
            }                                                                          \
        }                                                                              \
        else {                                                                         \
            T m[W];                                                                    \
            for (int k = 0; k < W; k++) {                                              \
                m[k] = id;                                                             \
            }                                                                          \
            int64_t j = 0;                                                             \
            for (; j + W <= n; j += W) {                                               \
                for (int k = 0; k < W; k++) {                                          \
                    const T v = x[j + k];                                              \
                    m[k] = (GT ? v > m[k] : v < m[k]) ? v : m[k];                      \
                }                                                                      \
            }                                                                          \
            if (j < n) {                                                               \
                for (int k = 0; k < W; k++) {                                          \
                    const T v = x[n - W + k];                                          \
                    m[k] = (GT ? v > m[k] : v < m[k]) ? v : m[k];                      \
                }                                                                      \
            }                                                                          \
            for (int k = 0; k < W; k++) {                                              \
                r = (GT ? m[k] > r : m[k] < r) ? m[k] : r;                             \
            }                                                                          \
        }                                                                              \
        int none = 0;                                                                  \
        if (r == id) {                                                                 \
            none = 1;                                                                  \
            for (int64_t i = 0; i < n && none; i++) {                                  \
                none = x[i] != x[i];                                                   \
            }                                                                          \
        }                                                                              \
        *nonum = none;                                                                 \
        return r;                                                                      \
    }

#define CA_MM_TYPE(name, T, ISF)                                                       \
    CA_MM_FN(ca_hr_mm_max_##name, T, 1, ISF)                                           \
    CA_MM_FN(ca_hr_mm_min_##name, T, 0, ISF)

/* Every lane dtype: X(name, C type, is a float). */
#define CA_MM_EACH_TYPE(X)                                                             \
    X(int8, int8_t, 0)                                                                 \
    X(uint8, uint8_t, 0)                                                               \
    X(int16, int16_t, 0)                                                               \
    X(uint16, uint16_t, 0)                                                             \
    X(int32, int32_t, 0)                                                               \
    X(uint32, uint32_t, 0)                                                             \
    X(int64, int64_t, 0)                                                               \
    X(uint64, uint64_t, 0)                                                             \
    X(float32, float, 1)                                                               \
    X(float64, double, 1)

CA_MM_EACH_TYPE(CA_MM_TYPE)

CA_MM_FFN(ca_hr_mm_fmax_float32, float, 1)
CA_MM_FFN(ca_hr_mm_fmin_float32, float, 0)
CA_MM_FFN(ca_hr_mm_fmax_float64, double, 1)
CA_MM_FFN(ca_hr_mm_fmin_float64, double, 0)

/* Strided runs: the same max / min (fmax / fmin) over n >= 1 elements s bytes
 * apart (any sign, 0 included; s == sizeof(T) is the contiguous loop above). The
 * value does not depend on the order, so a negative stride walks the run from its
 * other end. Elements k = s / sizeof(T) apart with k * sizeof(T) <= CA_MMS_SPAN
 * bytes (not for 8-byte integers, whose 64-bit vector compares cost more than the
 * scalar loop) read the run's whole span, first to last element, through 256
 * bytes of lanes: a table of k rows of lanes holds hi at the run's elements and
 * the identity lo elsewhere, and clip(v, table) (the smaller of the two for max)
 * keeps the run's elements and turns the others into the identity: two vector
 * operations per vector of the span. Other strides take a scalar loop of a few
 * accumulators (CA_MMS_SCALAR). Float max / min: clip turns a NaN of the
 * run into hi (+inf for max), so a result of hi makes a scan for a real NaN
 * (*nan). The fmax / fmin forms multiply by 1 (the run) or NaN (elsewhere), and
 * NaNs lose every compare. */
#define CA_MMS_SPAN           16
#define CA_MMS_BEST(a, v, GT) ((GT ? (v) > (a) : (v) < (a)) ? (v) : (a))
#define CA_MMS_CLIP(v, q, GT) ((GT ? (v) < (q) : (v) > (q)) ? (v) : (q))
/* The scalar loop: eight accumulators, or two where every element is a cache
 * line of its own (64+ bytes apart): more load streams than that made those
 * memory-bound strides slower than NumPy's loop on the development machine
 * (Zen 4), fewer made the in-cache ones slower. */
#define CA_MMS_SCALAR(T, p, n, s, i, r, F)                                             \
    do {                                                                               \
        T m0 = r, m1 = r, m2 = r, m3 = r, m4 = r, m5 = r, m6 = r, m7 = r;              \
        if (s < 64) {                                                                  \
            for (; i + 8 <= n; i += 8) {                                               \
                const char *q = p + i * s;                                             \
                T v0, v1, v2, v3, v4, v5, v6, v7;                                      \
                memcpy(&v0, q, sizeof(T));                                             \
                memcpy(&v1, q + s, sizeof(T));                                         \
                memcpy(&v2, q + 2 * s, sizeof(T));                                     \
                memcpy(&v3, q + 3 * s, sizeof(T));                                     \
                memcpy(&v4, q + 4 * s, sizeof(T));                                     \
                memcpy(&v5, q + 5 * s, sizeof(T));                                     \
                memcpy(&v6, q + 6 * s, sizeof(T));                                     \
                memcpy(&v7, q + 7 * s, sizeof(T));                                     \
                m0 = F(m0, v0);                                                        \
                m1 = F(m1, v1);                                                        \
                m2 = F(m2, v2);                                                        \
                m3 = F(m3, v3);                                                        \
                m4 = F(m4, v4);                                                        \
                m5 = F(m5, v5);                                                        \
                m6 = F(m6, v6);                                                        \
                m7 = F(m7, v7);                                                        \
            }                                                                          \
        }                                                                              \
        for (; i + 2 <= n; i += 2) {                                                   \
            const char *q = p + i * s;                                                 \
            T v0, v1;                                                                  \
            memcpy(&v0, q, sizeof(T));                                                 \
            memcpy(&v1, q + s, sizeof(T));                                             \
            m0 = F(m0, v0);                                                            \
            m1 = F(m1, v1);                                                            \
        }                                                                              \
        r = F(F(F(m0, m1), F(m2, m3)), F(F(m4, m5), F(m6, m7)));                       \
    } while (0)

/* Whether a run k elements apart reads its span (see above), x aligned for T. */
#define CA_MMS_DENSE(T, ISF, p, s, n)                                                  \
    ((int64_t)sizeof(T) * 2 <= CA_MMS_SPAN && (ISF || sizeof(T) < 8) &&                \
     (s) % (int64_t)sizeof(T) == 0 && (s) >= 2 * (int64_t)sizeof(T) &&                 \
     (s) <= CA_MMS_SPAN && (n) >= CA_MM_STEP / (int64_t)sizeof(T) &&                   \
     (uintptr_t)(p) % sizeof(T) == 0)

/* The span walk: lanes of W elements start at id and fold
 * LANE_OP(element, table) over whole steps of k rows of lanes; r folds the lanes;
 * i = the run's elements taken (the rest is the caller's tail). */
#define CA_MMS_SPANWALK(T, p, n, k, LANE_OP, FOLD, lo, hiv, id, r)                     \
    do {                                                                               \
        enum { W = CA_MM_STEP / sizeof(T), KM = CA_MMS_SPAN / sizeof(T) };             \
        const T *x = (const T *)(p);                                                   \
        T tab[KM * W], m[W];                                                           \
        for (int64_t c = 0; c < (k)*W; c++) {                                          \
            tab[c] = (lo);                                                             \
        }                                                                              \
        for (int64_t c = 0; c < (k)*W; c += (k)) {                                     \
            tab[c] = (hiv);                                                            \
        }                                                                              \
        for (int l = 0; l < W; l++) {                                                  \
            m[l] = (id);                                                               \
        }                                                                              \
        const int64_t span = ((n)-1) * (k) + 1;                                        \
        int64_t j = 0;                                                                 \
        for (; j + (k)*W <= span; j += (k)*W) {                                        \
            for (int64_t b = 0; b < (k); b++) {                                        \
                const T *q = x + j + b * W, *t = tab + b * W;                          \
                for (int l = 0; l < W; l++) {                                          \
                    m[l] = FOLD(m[l], LANE_OP(q[l], t[l]));                            \
                }                                                                      \
            }                                                                          \
        }                                                                              \
        for (int l = 0; l < W; l++) {                                                  \
            r = FOLD(r, m[l]);                                                         \
        }                                                                              \
        i = j / (k);                                                                   \
    } while (0)

/* A run with a negative stride walked from its other end (max / min do not
 * care about the order). */
#define CA_MMS_FORWARD(p, n, s)                                                        \
    do {                                                                               \
        if (s < 0) {                                                                   \
            p += (n - 1) * s;                                                          \
            s = -s;                                                                    \
        }                                                                              \
    } while (0)

/* r folded with every element of a run of positive stride s: the span walk
 * (LANE_OP, FOLD, lo, hiv, id as there) where it reads its span, else the
 * scalar loop of STEP; then the tail by STEP. It declares the index i in the
 * caller's scope (the NaN scans after it reuse it). */
#define CA_MMS_RUN(T, ISF, p, n, s, r, LANE_OP, FOLD, lo, hiv, id, STEP)               \
    int64_t i = 0;                                                                     \
    if (CA_MMS_DENSE(T, ISF, p, s, n)) {                                               \
        const int64_t k = s / (int64_t)sizeof(T);                                      \
        CA_MMS_SPANWALK(T, p, n, k, LANE_OP, FOLD, lo, hiv, id, r);                    \
    }                                                                                  \
    else {                                                                             \
        CA_MMS_SCALAR(T, p, n, s, i, r, STEP);                                         \
    }                                                                                  \
    for (; i < n; i++) {                                                               \
        T v;                                                                           \
        memcpy(&v, p + i * s, sizeof v);                                               \
        r = STEP(r, v);                                                                \
    }

#define CA_MMS_FN(fname, cname, T, GT, ISF, LO, HI)                                    \
    static inline T fname##_best(T a, T v) { return CA_MMS_BEST(a, v, GT); }           \
    static inline T fname##_clip(T v, T q) { return CA_MMS_CLIP(v, q, GT); }           \
    /* an element of the run: a NaN becomes hi */                                      \
    static inline T fname##_bv(T a, T v)                                               \
    {                                                                                  \
        return CA_MMS_BEST(a, ISF ? fname##_clip(v, (GT ? HI : LO)) : v, GT);          \
    }                                                                                  \
    CA_HOST_CLONES T fname(const char *p, int64_t n, int64_t s, int *nan)              \
    {                                                                                  \
        const T lo = GT ? LO : HI, hi = GT ? HI : LO;                                  \
        CA_MMS_FORWARD(p, n, s);                                                       \
        if (s == (int64_t)sizeof(T)) {                                                 \
            return cname((const T *)p, n, nan);                                        \
        }                                                                              \
        T r;                                                                           \
        memcpy(&r, p, sizeof r);                                                       \
        r = fname##_bv(lo, r);                                                         \
        CA_MMS_RUN(T, ISF, p, n, s, r, fname##_clip, fname##_best, lo, hi, lo,         \
                   fname##_bv);                                                        \
        int bad = 0;                                                                   \
        if (ISF && r == hi) {                                                          \
            for (i = 0; i < n; i++) {                                                  \
                T v;                                                                   \
                memcpy(&v, p + i * s, sizeof v);                                       \
                bad |= v != v;                                                         \
            }                                                                          \
        }                                                                              \
        *nan = bad;                                                                    \
        return r;                                                                      \
    }

/* fmax / fmin of a strided float run, NaNs skipped; *nonum: all NaN. */
#define CA_MMS_FFN(fname, cname, T, GT)                                                \
    static inline T fname##_best(T a, T v) { return CA_MMS_BEST(a, v, GT); }           \
    static inline T fname##_mul(T v, T q) { return v * q; }                            \
    CA_HOST_CLONES T fname(const char *p, int64_t n, int64_t s, int *nonum)            \
    {                                                                                  \
        const T id = GT ? -(T)INFINITY : (T)INFINITY;                                  \
        CA_MMS_FORWARD(p, n, s);                                                       \
        if (s == (int64_t)sizeof(T)) {                                                 \
            return cname((const T *)p, n, nonum);                                      \
        }                                                                              \
        T r = id;                                                                      \
        CA_MMS_RUN(T, 1, p, n, s, r, fname##_mul, fname##_best, (T)NAN, (T)1, id,      \
                   fname##_best);                                                      \
        int none = 0;                                                                  \
        if (r == id) {                                                                 \
            none = 1;                                                                  \
            for (i = 0; i < n && none; i++) {                                          \
                T v;                                                                   \
                memcpy(&v, p + i * s, sizeof v);                                       \
                none = v != v;                                                         \
            }                                                                          \
        }                                                                              \
        *nonum = none;                                                                 \
        return r;                                                                      \
    }

#define CA_MMS_TYPE(name, T, ISF, LO, HI)                                              \
    CA_MMS_FN(ca_hr_mms_max_##name, ca_hr_mm_max_##name, T, 1, ISF, LO, HI)            \
    CA_MMS_FN(ca_hr_mms_min_##name, ca_hr_mm_min_##name, T, 0, ISF, LO, HI)

CA_MMS_TYPE(int8, int8_t, 0, INT8_MIN, INT8_MAX)
CA_MMS_TYPE(uint8, uint8_t, 0, 0, UINT8_MAX)
CA_MMS_TYPE(int16, int16_t, 0, INT16_MIN, INT16_MAX)
CA_MMS_TYPE(uint16, uint16_t, 0, 0, UINT16_MAX)
CA_MMS_TYPE(int32, int32_t, 0, INT32_MIN, INT32_MAX)
CA_MMS_TYPE(uint32, uint32_t, 0, 0, UINT32_MAX)
CA_MMS_TYPE(int64, int64_t, 0, INT64_MIN, INT64_MAX)
CA_MMS_TYPE(uint64, uint64_t, 0, 0, UINT64_MAX)
CA_MMS_TYPE(float32, float, 1, -INFINITY, INFINITY)
CA_MMS_TYPE(float64, double, 1, -INFINITY, INFINITY)

CA_MMS_FFN(ca_hr_mms_fmax_float32, ca_hr_mm_fmax_float32, float, 1)
CA_MMS_FFN(ca_hr_mms_fmin_float32, ca_hr_mm_fmin_float32, float, 0)
CA_MMS_FFN(ca_hr_mms_fmax_float64, ca_hr_mm_fmax_float64, double, 1)
CA_MMS_FFN(ca_hr_mms_fmin_float64, ca_hr_mm_fmin_float64, double, 0)

/* Column folds: acc[j] = the larger (smaller) of acc[j] and row i's element j,
 * for nrows rows of nb contiguous elements, rs bytes apart (the max / min of
 * outputs adjacent in memory: a column reduction). A NaN element enters and a
 * NaN accumulator stays (v != v picks v; nothing beats a NaN a), so NaN
 * propagates as in max / min. Each row is taken in blocks of CA_MM_STEP bytes
 * (a loop of fixed length): gcc unrolls a block into whole vector registers,
 * where a plain loop over the row was one register per turn with its loop
 * overhead (4096 x 1024 int64 or float64: 1.1-1.2 ms against 0.75-0.9 ms so,
 * NumPy 0.88-1.1, on the development machine). A block of lanes in an array
 * between the load and the store was slower: gcc kept it on the stack.
 * Rows meet four at a time before the accumulator (fewer accumulator loads and
 * stores); the float form compares the four without NaN tests and then makes
 * their result NaN when one of them is (one mask test for the four: a NaN test
 * in every compare keeps gcc from vectorising it). Rows of 8-byte elements and
 * float rows of at most CA_MM_COL1 bytes go one at a time: there the four
 * streams were slower than one on the development machine (Zen 4), where wider
 * rows (whose accumulator row no longer stays in L1 beside them) gain from
 * four. Rows whose stride is not whole cache lines go one at a time too: the
 * head aligns the first of four rows only (2000 x 3000 float32: 0.95 ms four
 * at a time, 0.61 one at a time, NumPy 0.75-0.92). */
#define CA_MM_COL1 8192
#define CA_MM_CSEL(a, v, GT, ISF)                                                      \
    (((GT ? (v) > (a) : (v) < (a)) || (ISF && (v) != (v))) ? (v) : (a))
/* The four rows at q, rs bytes apart, at element j: their best, NaN if one is. */
#define CA_MM_FOUR(t, T, q, j, GT, ISF)                                                \
    T v0, v1, v2, v3;                                                                  \
    memcpy(&v0, q + (j)*es, sizeof v0);                                                \
    memcpy(&v1, q + rs + (j)*es, sizeof v1);                                           \
    memcpy(&v2, q + 2 * rs + (j)*es, sizeof v2);                                       \
    memcpy(&v3, q + 3 * rs + (j)*es, sizeof v3);                                       \
    const T t01 = CA_MMS_BEST(v0, v1, GT), t23 = CA_MMS_BEST(v2, v3, GT);              \
    const int ok = !ISF || (((v0 == v0) & (v1 == v1)) & ((v2 == v2) & (v3 == v3)));    \
    const T t = ok ? CA_MMS_BEST(t01, t23, GT) : (T)NAN
/* One step over row(s) at q: element j's value into t (CA_MM_ONE or
 * CA_MM_FOUR), folded into acc one by one up to q's first 64-byte boundary,
 * then in blocks of CA_MM_STEP bytes, then the tail. The head makes the block
 * loads whole cache lines: a NumPy array from malloc starts 16 bytes past one,
 * and its rows folded from there took 1.10-1.13 ms against 0.81-0.83 ms with
 * the head (4096 x 1024 int64, the development machine). */
#define CA_MM_ONE(t, T, q, j, GT, ISF)                                                 \
    T t;                                                                               \
    memcpy(&t, q + (j)*es, sizeof t)
/* Elements of size es at q before its next 64-byte boundary (none when q is
 * not a multiple of es: then no boundary can be reached), at most nb. */
#define CA_MM_HEAD(q, es, nb)                                                          \
    ((uintptr_t)(q) % (uintptr_t)(es)                                                  \
         ? 0                                                                           \
         : ((int64_t)((64 - (uintptr_t)(q) % 64) % 64) / (es) < (nb)                   \
                ? (int64_t)((64 - (uintptr_t)(q) % 64) % 64) / (es)                    \
                : (nb)))
#define CA_MM_FOLD(T, GT, ISF, q, GET)                                                 \
    do {                                                                               \
        enum { W = CA_MM_STEP / sizeof(T) };                                           \
        const int64_t head = CA_MM_HEAD(q, es, nb);                                    \
        int64_t j = 0;                                                                 \
        for (; j < head; j++) {                                                        \
            GET(t, T, q, j, GT, ISF);                                                  \
            acc[j] = CA_MM_CSEL(acc[j], t, GT, ISF);                                   \
        }                                                                              \
        for (; j + W <= nb; j += W) {                                                  \
            for (int k = 0; k < W; k++) {                                              \
                GET(t, T, q, j + k, GT, ISF);                                          \
                acc[j + k] = CA_MM_CSEL(acc[j + k], t, GT, ISF);                       \
            }                                                                          \
        }                                                                              \
        for (; j < nb; j++) {                                                          \
            GET(t, T, q, j, GT, ISF);                                                  \
            acc[j] = CA_MM_CSEL(acc[j], t, GT, ISF);                                   \
        }                                                                              \
    } while (0)
#define CA_MM_COL(fname, T, GT, ISF)                                                   \
    CA_HOST_CLONES void fname(T *acc, const char *p, int64_t nb, int64_t nrows,        \
                              int64_t rs)                                              \
    {                                                                                  \
        const int64_t es = (int64_t)sizeof(T);                                         \
        const int narrow =                                                             \
            (nb * es <= CA_MM_COL1 && (ISF || es == 8)) || rs % 64 != 0;               \
        int64_t i = 0;                                                                 \
        for (; !narrow && i + 4 <= nrows; i += 4) {                                    \
            const char *q = p + i * rs;                                                \
            CA_MM_FOLD(T, GT, ISF, q, CA_MM_FOUR);                                     \
        }                                                                              \
        for (; i < nrows; i++) {                                                       \
            const char *q = p + i * rs;                                                \
            CA_MM_FOLD(T, GT, ISF, q, CA_MM_ONE);                                      \
        }                                                                              \
    }

#define CA_MM_COLS(name, T, ISF)                                                       \
    CA_MM_COL(ca_hr_mmcol_max_##name, T, 1, ISF)                                       \
    CA_MM_COL(ca_hr_mmcol_min_##name, T, 0, ISF)

CA_MM_EACH_TYPE(CA_MM_COLS)

/* The position of the first element == v of a contiguous run of n elements that
 * holds one: groups of 256 bytes are tested whole (a loop gcc vectorises) up to
 * the group that holds it. */
#define CA_MM_FIND(name, T)                                                            \
    CA_HOST_CLONES int64_t ca_hr_find_##name(const T *x, int64_t n, T v)               \
    {                                                                                  \
        enum { W = CA_MM_STEP / sizeof(T) };                                           \
        int64_t j = 0;                                                                 \
        for (; j + W <= n; j += W) {                                                   \
            int hit = 0;                                                               \
            for (int l = 0; l < W; l++) {                                              \
                hit |= x[j + l] == v;                                                  \
            }                                                                          \
            if (hit) {                                                                 \
                break;                                                                 \
            }                                                                          \
        }                                                                              \
        for (; j < n && x[j] != v; j++) {                                              \
        }                                                                              \
        return j;                                                                      \
    }

CA_MM_FIND(int8, int8_t)
CA_MM_FIND(uint8, uint8_t)
CA_MM_FIND(int16, int16_t)
CA_MM_FIND(uint16, uint16_t)
CA_MM_FIND(int32, int32_t)
CA_MM_FIND(uint32, uint32_t)
CA_MM_FIND(int64, int64_t)
CA_MM_FIND(uint64, uint64_t)
CA_MM_FIND(float32, float)
CA_MM_FIND(float64, double)

/* argmax / argmin of a contiguous integer run of n >= 1 elements in one pass
 * (the value returned, its first position in *pos): sub-blocks of CA_MM_ASUB
 * bytes fold into fresh lanes, each reduced to its best, which only a strictly
 * better later sub-block replaces; the first position is then looked for in
 * that one sub-block (the best's first occurrence is in the first sub-block that
 * holds it), and the elements after the last whole sub-block are compared one
 * by one (65536 int32 in cache, against NumPy's one-pass index loop on the
 * development machine: 0.88x with a value pass per 16 KiB block and a search
 * of each block with a new best, about 1.0x so). */
#define CA_MM_ASUB 2048
#define CA_MM_AFN(fname, name, T, GT)                                                  \
    CA_HOST_CLONES T fname(const T *x, int64_t n, int64_t *pos)                        \
    {                                                                                  \
        enum { W = CA_MM_STEP / sizeof(T), S = CA_MM_ASUB / sizeof(T) };               \
        T best = x[0];                                                                 \
        int64_t p = 0, bi = -1, i = 0;                                                 \
        for (; i + S <= n; i += S) {                                                   \
            T m[W];                                                                    \
            for (int k = 0; k < W; k++) {                                              \
                m[k] = x[i + k];                                                       \
            }                                                                          \
            for (int64_t j = W; j < S; j += W) {                                       \
                for (int k = 0; k < W; k++) {                                          \
                    m[k] = CA_MMS_BEST(m[k], x[i + j + k], GT);                        \
                }                                                                      \
            }                                                                          \
            T r = m[0];                                                                \
            for (int k = 0; k < W; k++) {                                              \
                r = CA_MMS_BEST(r, m[k], GT);                                          \
            }                                                                          \
            if (bi < 0 || (GT ? r > best : r < best)) {                                \
                best = r;                                                              \
                bi = i;                                                                \
            }                                                                          \
        }                                                                              \
        if (bi >= 0) {                                                                 \
            p = bi + ca_hr_find_##name(x + bi, S, best);                               \
        }                                                                              \
        for (; i < n; i++) {                                                           \
            if (GT ? x[i] > best : x[i] < best) {                                      \
                best = x[i];                                                           \
                p = i;                                                                 \
            }                                                                          \
        }                                                                              \
        *pos = p;                                                                      \
        return best;                                                                   \
    }
#define CA_MM_ATYPE(name, T)                                                           \
    CA_MM_AFN(ca_hr_am_max_##name, name, T, 1)                                         \
    CA_MM_AFN(ca_hr_am_min_##name, name, T, 0)

CA_MM_ATYPE(int8, int8_t)
CA_MM_ATYPE(uint8, uint8_t)
CA_MM_ATYPE(int16, int16_t)
CA_MM_ATYPE(uint16, uint16_t)
CA_MM_ATYPE(int32, int32_t)
CA_MM_ATYPE(uint32, uint32_t)
CA_MM_ATYPE(int64, int64_t)
CA_MM_ATYPE(uint64, uint64_t)

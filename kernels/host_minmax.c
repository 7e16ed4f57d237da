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
#include <stdint.h>
#include <string.h>

#include "host_reduce.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) &&                \
    !defined(CA_NO_TARGET_CLONES)
#define CA_MM_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define CA_MM_CLONES
#endif

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
    CA_MM_CLONES T fname(const T *x, int64_t n, int *nan)                              \
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
    CA_MM_CLONES T fname(const T *x, int64_t n, int *nonum)                            \
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

CA_MM_TYPE(int8, int8_t, 0)
CA_MM_TYPE(uint8, uint8_t, 0)
CA_MM_TYPE(int16, int16_t, 0)
CA_MM_TYPE(uint16, uint16_t, 0)
CA_MM_TYPE(int32, int32_t, 0)
CA_MM_TYPE(uint32, uint32_t, 0)
CA_MM_TYPE(int64, int64_t, 0)
CA_MM_TYPE(uint64, uint64_t, 0)
CA_MM_TYPE(float32, float, 1)
CA_MM_TYPE(float64, double, 1)

CA_MM_FFN(ca_hr_mm_fmax_float32, float, 1)
CA_MM_FFN(ca_hr_mm_fmin_float32, float, 0)
CA_MM_FFN(ca_hr_mm_fmax_float64, double, 1)
CA_MM_FFN(ca_hr_mm_fmin_float64, double, 0)

/* Column folds: acc[j] = the larger (smaller) of acc[j] and row i's element j,
 * for nrows rows of nb contiguous elements, rs bytes apart (the max / min of
 * outputs adjacent in memory: a column reduction). A NaN element enters and a
 * NaN accumulator stays (v != v picks v; nothing beats a NaN a), so NaN
 * propagates as in max / min. Integer rows meet four at a time before the
 * accumulator (fewer accumulator loads and stores; the float form's NaN test
 * keeps gcc from vectorising that shape). */
#define CA_MM_CSEL(a, v, GT, ISF)                                                      \
    (((GT ? (v) > (a) : (v) < (a)) || (ISF && (v) != (v))) ? (v) : (a))
#define CA_MM_COL(fname, T, GT, ISF)                                                   \
    CA_MM_CLONES void fname(T *acc, const char *p, int64_t nb, int64_t nrows,          \
                            int64_t rs)                                                \
    {                                                                                  \
        const int64_t es = (int64_t)sizeof(T);                                         \
        int64_t i = 0;                                                                 \
        for (; !ISF && i + 4 <= nrows; i += 4) { /* integers: four rows at a time */   \
            const char *q = p + i * rs;                                                \
            for (int64_t j = 0; j < nb; j++) {                                         \
                T v0, v1, v2, v3;                                                      \
                memcpy(&v0, q + j * es, sizeof v0);                                    \
                memcpy(&v1, q + rs + j * es, sizeof v1);                               \
                memcpy(&v2, q + 2 * rs + j * es, sizeof v2);                           \
                memcpy(&v3, q + 3 * rs + j * es, sizeof v3);                           \
                const T t01 = CA_MM_CSEL(v0, v1, GT, ISF);                             \
                const T t23 = CA_MM_CSEL(v2, v3, GT, ISF);                             \
                const T t = CA_MM_CSEL(t01, t23, GT, ISF);                             \
                acc[j] = CA_MM_CSEL(acc[j], t, GT, ISF);                               \
            }                                                                          \
        }                                                                              \
        for (; i < nrows; i++) {                                                       \
            const char *q = p + i * rs;                                                \
            for (int64_t j = 0; j < nb; j++) {                                         \
                T v;                                                                   \
                memcpy(&v, q + j * es, sizeof v);                                      \
                acc[j] = CA_MM_CSEL(acc[j], v, GT, ISF);                               \
            }                                                                          \
        }                                                                              \
    }

#define CA_MM_COLS(name, T, ISF)                                                       \
    CA_MM_COL(ca_hr_mmcol_max_##name, T, 1, ISF)                                       \
    CA_MM_COL(ca_hr_mmcol_min_##name, T, 0, ISF)

CA_MM_COLS(int8, int8_t, 0)
CA_MM_COLS(uint8, uint8_t, 0)
CA_MM_COLS(int16, int16_t, 0)
CA_MM_COLS(uint16, uint16_t, 0)
CA_MM_COLS(int32, int32_t, 0)
CA_MM_COLS(uint32, uint32_t, 0)
CA_MM_COLS(int64, int64_t, 0)
CA_MM_COLS(uint64, uint64_t, 0)
CA_MM_COLS(float32, float, 1)
CA_MM_COLS(float64, double, 1)

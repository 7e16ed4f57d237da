/*
 * host_copy.c: the copy family on the cpu device (ca_copy_cast, ca_fill).
 *
 * Every element is read and written with memcpy, so misaligned views (a byte
 * offset reinterpreted with view(dtype)) are fine; compilers turn fixed-size
 * memcpy into plain loads. The outer dimensions run as an odometer over byte
 * offsets, the inner two as a 2-D block: row by row when the source runs along
 * the rows, in 32x32 tiles when it runs down the columns (a transpose), so both
 * sides stay in cache.
 */
#include <stdlib.h>
#include <string.h>

#include "host_clones.h"
#include "host_reverse.h"
#include "copy_impl.h"
#include "scalar.h"

/* A 1-D loop: n elements, byte strides. */
typedef void (*ca_loop1d)(char *dst, const char *src, int64_t n, int64_t ds,
                          int64_t ss);

/* ---- the 1-D loops ------------------------------------------------------------- */
#define CA_HOST_MOVE(E)                                                                \
    static CA_HOST_CLONES void move_##E(char *dst, const char *src, int64_t n,         \
                                        int64_t ds, int64_t ss)                        \
    {                                                                                  \
        if (ds == E && ss == E) {                                                      \
            memcpy(dst, src, (size_t)(n * E));                                         \
            return;                                                                    \
        }                                                                              \
        if (ds == E && ss == -E) { /* a[::-1] made contiguous */                       \
            ca_reverse_##E(dst, src, n, 1);                                            \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = 0; i < n; i++) {                                              \
            memcpy(dst + i * ds, src + i * ss, E);                                     \
        }                                                                              \
    }
CA_HOST_MOVE(1)
CA_HOST_MOVE(2)
CA_HOST_MOVE(4)
CA_HOST_MOVE(8)
CA_HOST_MOVE(16)

static ca_loop1d
move_loop(int itemsize)
{
    switch (itemsize) {
    case 1: return move_1;
    case 2: return move_2;
    case 4: return move_4;
    case 8: return move_8;
    case 16: return move_16;
    default: return NULL;
    }
}

/* The contiguous branch is separate so the compiler can vectorize it, built per
 * ISA (CA_HOST_CLONES): float32 -> int32 at 2^20 is 3x faster with AVX-512's
 * conversions than with the baseline's SSE2. */
#define CA_HOST_CAST_LOOP(name, dt, dn, st, sn, step)                                  \
    static CA_HOST_CLONES void name(char *dst, const char *src, int64_t n, int64_t ds, \
                                    int64_t ss)                                        \
    {                                                                                  \
        st x;                                                                          \
        dt y;                                                                          \
        if (ds == (int64_t)sizeof(dt) && ss == (int64_t)(step)) {                      \
            for (int64_t i = 0; i < n; i++) {                                          \
                memcpy(&x, src + i * (int64_t)(step), sizeof x);                       \
                y = ca_cast_##dn##_##sn(x);                                            \
                memcpy(dst + i * (int64_t)sizeof(dt), &y, sizeof y);                   \
            }                                                                          \
            return;                                                                    \
        }                                                                              \
        for (int64_t i = 0; i < n; i++) {                                              \
            memcpy(&x, src + i * ss, sizeof x);                                        \
            y = ca_cast_##dn##_##sn(x);                                                \
            memcpy(dst + i * ds, &y, sizeof y);                                        \
        }                                                                              \
    }
#define CA_HOST_CAST(dc, dt, dn, sc, st, sn)                                           \
    CA_HOST_CAST_LOOP(cast_##dn##_##sn, dt, dn, st, sn, sizeof(st))
CA_FOR_EACH_DTYPE_PAIR(CA_HOST_CAST)

#define CA_HOST_CAST_ENTRY(dc, dt, dn, sc, st, sn) cast_##dn##_##sn,
static const ca_loop1d cast_loops[CA_NTYPES * CA_NTYPES] = { CA_FOR_EACH_DTYPE_PAIR(
    CA_HOST_CAST_ENTRY) };

/* complex -> a real type (not bool) is the real part's cast (scalar.h's from_c and
 * from_z are the float32 and float64 casts of .re): a loop reading every other
 * float with a constant stride vectorises, the two-part struct's does not (0.2-0.5x
 * NumPy's speed). */
#define CA_HOST_CAST_RE(dt, dn, R, rn, cn)                                             \
    CA_HOST_CAST_LOOP(cast_##dn##_re_##cn, dt, dn, R, rn, 2 * sizeof(R))
#define CA_HOST_CAST_RE_BOTH(dc, dt, dn)                                               \
    CA_HOST_CAST_RE(dt, dn, float, float32, complex64)                                 \
    CA_HOST_CAST_RE(dt, dn, double, float64, complex128)
CA_FOR_EACH_REAL_NONBOOL(CA_HOST_CAST_RE_BOTH)

#define CA_HOST_CAST_RE_ENTRY64(dc, dt, dn)  [dc] = cast_##dn##_re_complex64,
#define CA_HOST_CAST_RE_ENTRY128(dc, dt, dn) [dc] = cast_##dn##_re_complex128,
static const ca_loop1d cast_re_loops[2][CA_NTYPES] = {
    { CA_FOR_EACH_REAL_NONBOOL(CA_HOST_CAST_RE_ENTRY64) },
    { CA_FOR_EACH_REAL_NONBOOL(CA_HOST_CAST_RE_ENTRY128) },
};

/* The table's loop, or the real-part loop for complex -> real. */
static ca_loop1d
table_cast_loop(int dst_dtype, int src_dtype)
{
    if (src_dtype == CA_COMPLEX64 || src_dtype == CA_COMPLEX128) {
        const ca_loop1d re = cast_re_loops[src_dtype == CA_COMPLEX128][dst_dtype];
        if (re != NULL) {
            return re;
        }
    }
    return cast_loops[dst_dtype * CA_NTYPES + src_dtype];
}

/* float32 -> float16 with the F16C conversion where the CPU has it (every x86-64
 * of the last decade; NumPy uses it too): the portable rounding above is a chain
 * of branches, 0.5x NumPy's speed. vcvtps2ph rounds to nearest even and quiets a
 * NaN keeping its top payload bits, as ca_p_f32_bits_to_f16 does: the same bits.
 * A strided or short tail goes through the portable loop. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>

__attribute__((target("avx,f16c"))) static void
cast_float16_float32_f16c(char *dst, const char *src, int64_t n, int64_t ds, int64_t ss)
{
    int64_t i = 0;
    if (ds == 2 && ss == 4) {
        for (; i + 8 <= n; i += 8) {
            const __m256 v =
                _mm256_loadu_ps((const float *)(const void *)(src + 4 * i));
            _mm_storeu_si128((__m128i *)(void *)(dst + 2 * i),
                             _mm256_cvtps_ph(v, _MM_FROUND_TO_NEAREST_INT));
        }
    }
    cast_float16_float32(dst + i * ds, src + i * ss, n - i, ds, ss);
}

static ca_loop1d
cast_loop(int dst_dtype, int src_dtype)
{
    if (dst_dtype == CA_FLOAT16 && src_dtype == CA_FLOAT32 &&
        __builtin_cpu_supports("f16c") && __builtin_cpu_supports("avx")) {
        return cast_float16_float32_f16c;
    }
    return table_cast_loop(dst_dtype, src_dtype);
}
#else
static ca_loop1d
cast_loop(int dst_dtype, int src_dtype)
{
    return table_cast_loop(dst_dtype, src_dtype);
}
#endif

/* ---- driving a 1-D loop over a coalesced layout ------------------------------- */
enum { TILE = 32 };

/* The inner two dimensions (n0 outer, n1 inner). */
static void
run_2d(ca_loop1d fn, char *dst, const char *src, int64_t n0, int64_t n1, int64_t ds0,
       int64_t ds1, int64_t ss0, int64_t ss1)
{
    int64_t a0 = ss0 < 0 ? -ss0 : ss0, a1 = ss1 < 0 ? -ss1 : ss1;
    if (n0 < TILE || n1 < TILE || a0 >= a1) {
        for (int64_t i = 0; i < n0; i++) {
            fn(dst + i * ds0, src + i * ss0, n1, ds1, ss1);
        }
        return;
    }
    /* The source runs down the columns: visit TILE x TILE blocks, so the TILE
     * source lines a block touches are reused TILE times before eviction. */
    for (int64_t i0 = 0; i0 < n0; i0 += TILE) {
        int64_t ie = i0 + TILE < n0 ? i0 + TILE : n0;
        for (int64_t j0 = 0; j0 < n1; j0 += TILE) {
            int64_t m = n1 - j0 < TILE ? n1 - j0 : TILE;
            for (int64_t i = i0; i < ie; i++) {
                fn(dst + i * ds0 + j0 * ds1, src + i * ss0 + j0 * ss1, m, ds1, ss1);
            }
        }
    }
}

/* Odometer over dimensions [0, ndim - 2) around run_2d. nops is 1 (fill: src is
 * unused) or 2. */
static void
run_strided(const ca_strided *s, ca_loop1d fn)
{
    int nd = s->ndim;
    int64_t idx[CA_MAX_DIMS];
    int64_t off0 = 0, off1 = 0;
    const int64_t *st0 = s->strides[0];
    const int64_t *st1 = s->nops > 1 ? s->strides[1] : s->strides[0];
    const char *src = s->nops > 1 ? s->data[1] : s->data[0];

    if (nd == 0) {
        fn(s->data[0], src, 1, 0, 0);
        return;
    }
    if (nd == 1) {
        fn(s->data[0], src, s->shape[0], st0[0], st1[0]);
        return;
    }
    for (int d = 0; d < nd - 2; d++) {
        idx[d] = 0;
    }
    for (;;) {
        run_2d(fn, s->data[0] + off0, src + off1, s->shape[nd - 2], s->shape[nd - 1],
               st0[nd - 2], st0[nd - 1], st1[nd - 2], st1[nd - 1]);
        int k = nd - 3;
        for (; k >= 0; k--) {
            off0 += st0[k];
            off1 += st1[k];
            if (++idx[k] < s->shape[k]) {
                break;
            }
            off0 -= st0[k] * s->shape[k];
            off1 -= st1[k] * s->shape[k];
            idx[k] = 0;
        }
        if (k < 0) {
            return;
        }
    }
}

static int
same_view(const ca_strided *s)
{
    if (s->data[0] != s->data[1]) {
        return 0;
    }
    for (int d = 0; d < s->ndim; d++) {
        if (s->strides[0][d] != s->strides[1][d]) {
            return 0;
        }
    }
    return 1;
}

int
ca_copy_cast_host(const ca_strided *s, int dst_dtype, int src_dtype)
{
    ca_loop1d fn;
    if (s->ndim == 1 && s->shape[0] == 0) {
        return 0;
    }
    if (ca_copy_is_bitcopy(dst_dtype, src_dtype)) {
        if (same_view(s)) {
            return 0;
        }
        fn = move_loop(ca_dtype_size[dst_dtype]);
    }
    else {
        fn = cast_loop(dst_dtype, src_dtype);
    }
    if (fn == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    run_strided(s, fn);
    return 0;
}

/* ---- fill ---------------------------------------------------------------------- */
/* The source pointer of a fill loop is the value itself, with stride 0. */
int
ca_fill_host(const ca_strided *s, int dtype, const void *value)
{
    int e = ca_dtype_size[dtype];
    ca_loop1d fn = move_loop(e);
    ca_strided v;
    const unsigned char *b = (const unsigned char *)value;
    int uniform = 1;

    if (s->ndim == 1 && s->shape[0] == 0) {
        return 0;
    }
    if (fn == NULL) {
        return CA_KERR_UNSUPPORTED;
    }
    for (int i = 1; i < e; i++) {
        uniform &= b[i] == b[0];
    }
    if (s->ndim == 1 && s->strides[0][0] == e) {
        char *p = s->data[0];
        size_t nbytes = (size_t)(s->shape[0] * e), done;
        if (uniform) {
            memset(p, b[0], nbytes);
            return 0;
        }
        /* One element, then double the filled prefix: a few large memcpys. */
        memcpy(p, value, (size_t)e);
        done = (size_t)e;
        while (done < nbytes) {
            size_t m = done < nbytes - done ? done : nbytes - done;
            memcpy(p + done, p, m);
            done += m;
        }
        return 0;
    }
    v.ndim = s->ndim;
    v.nops = 2;
    v.data[0] = s->data[0];
    v.data[1] = (char *)(uintptr_t)value;
    for (int d = 0; d < s->ndim; d++) {
        v.shape[d] = s->shape[d];
        v.strides[0][d] = s->strides[0][d];
        v.strides[1][d] = 0;
    }
    run_strided(&v, fn);
    return 0;
}

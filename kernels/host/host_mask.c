/*
 * host_mask.c: the cpu device's boolean-mask loops: counting a mask's true bytes,
 * the offsets of its true elements (nonzero, flatnonzero, argwhere, a[mask] by
 * offsets) and a[mask]'s compress (kernels.h documents them; the GPU's are in
 * select.cu and index.cu, dispatch_index.c picks one).
 *
 * A mask byte is true when it is nonzero: a view of any bytes as bool may hold
 * 2..255. Eight bytes are read as one 64-bit word; each byte's truth folds into
 * its low bit (ones_of), and the eight bits gather into one byte (group_bits)
 * that indexes a table of the set bits' positions (CA_MASK_POSITIONS), so a
 * group of eight costs a few operations and eight independent stores, not eight
 * dependent steps. Long 1-D masks are counted and filled in fixed pieces on the
 * thread pool.
 */
#include <stdint.h>
#include <string.h>

#include "host_clones.h"
#include "host_reduce.h"
#include "host_threads.h"
#include "kernels.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "host_mask.c reads mask bytes as little-endian words"
#endif

int ca_host_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch);
int ca_host_mask_offsets(const uint8_t *mask, int64_t n, int64_t count, int ndim,
                         const int64_t *shape, const int64_t *strides, int64_t *out);
int ca_host_mask_compress(const char *src, const uint8_t *mask, int64_t n,
                          int64_t block, int64_t count, char *dst);

#define CA_MASK_LOW7 0x7f7f7f7f7f7f7f7full
#define CA_MASK_ONES 0x0101010101010101ull

/* 1 in each byte of w that is nonzero, 0 in the others */
static inline uint64_t
ones_of(uint64_t w)
{
    return ((((w & CA_MASK_LOW7) + CA_MASK_LOW7) | w) >> 7) & CA_MASK_ONES;
}

/* Bit q set where byte q of w (the q-th in memory) is nonzero: the multiply
 * moves byte q's low bit to bit 56 + q, and no two partial products overlap. */
static inline unsigned
group_bits(uint64_t w)
{
    return (unsigned)((ones_of(w) * 0x0102040810204080ull) >> 56);
}

static inline uint64_t
word_at(const uint8_t *m)
{
    uint64_t w;
    memcpy(&w, m, sizeof w);
    return w;
}

/* For each byte b, the positions of its set bits in increasing order, packed one
 * a byte (low byte first): bit i lands in byte rank(i), the number of set bits
 * below it. Written as constant expressions, so the table is built by the
 * compiler. */
#define CA_MB(b, i) (((b) >> (i)) & 1u)
#define CA_MPOP8(x)                                                                    \
    (CA_MB(x, 0) + CA_MB(x, 1) + CA_MB(x, 2) + CA_MB(x, 3) + CA_MB(x, 4) +             \
     CA_MB(x, 5) + CA_MB(x, 6) + CA_MB(x, 7))
#define CA_MPLACE(b, i)                                                                \
    ((uint64_t)(CA_MB(b, i) * (i)) << (8 * CA_MPOP8((b) & ((1u << (i)) - 1u))))
#define CA_MPOS(b)                                                                     \
    (CA_MPLACE(b, 1) | CA_MPLACE(b, 2) | CA_MPLACE(b, 3) | CA_MPLACE(b, 4) |           \
     CA_MPLACE(b, 5) | CA_MPLACE(b, 6) | CA_MPLACE(b, 7))
#define CA_MPOS4(b)  CA_MPOS(b), CA_MPOS(b + 1u), CA_MPOS(b + 2u), CA_MPOS(b + 3u)
#define CA_MPOS16(b) CA_MPOS4(b), CA_MPOS4(b + 4u), CA_MPOS4(b + 8u), CA_MPOS4(b + 12u)
#define CA_MPOS64(b)                                                                   \
    CA_MPOS16(b), CA_MPOS16(b + 16u), CA_MPOS16(b + 32u), CA_MPOS16(b + 48u)
static const uint64_t CA_MASK_POSITIONS[256] = { CA_MPOS64(0u), CA_MPOS64(64u),
                                                 CA_MPOS64(128u), CA_MPOS64(192u) };

/* ---- counting ----------------------------------------------------------------- */

/* The true bytes of m[0, n): words are summed lane by lane in blocks of at most
 * 255 (no byte lane can carry), then the lanes are added up. */
CA_HOST_CLONES int64_t
ca_host_count_true(const uint8_t *m, int64_t n)
{
    int64_t c = 0, i = 0;
    while (n - i >= 8) {
        const int64_t words = (n - i) / 8 < 255 ? (n - i) / 8 : 255;
        uint64_t acc = 0;
        for (int64_t k = 0; k < words; k++) {
            acc += ones_of(word_at(m + i + 8 * k));
        }
        acc = (acc & 0x00ff00ff00ff00ffull) + ((acc >> 8) & 0x00ff00ff00ff00ffull);
        c += (int64_t)((acc * 0x0001000100010001ull) >> 48);
        i += 8 * words;
    }
    for (; i < n; i++) {
        c += m[i] != 0;
    }
    return c;
}

/* ---- offsets ------------------------------------------------------------------- */

/* The offsets off + e * st of the t true bytes e of one run m[0, len) go to out.
 * Groups of eight write eight offsets (the table's positions; those past the
 * group's true ones are overwritten by the next group) while eight more slots
 * remain; 32 false bytes in a row are skipped at once (rarely true unless the
 * mask is sparse, so the branch predicts well either way). The rest is the
 * branch-free loop: every offset stored, kept where the byte is true. */
static CA_ALWAYS_INLINE void
fill_run(const uint8_t *m, int64_t len, int64_t off, const int64_t st, int64_t t,
         int64_t *out)
{
    int64_t k = 0, e = 0;
    while (e + 8 <= len && k + 8 <= t) {
        if (e + 32 <= len && (word_at(m + e) | word_at(m + e + 8) |
                              word_at(m + e + 16) | word_at(m + e + 24)) == 0) {
            e += 32;
            continue;
        }
        const unsigned b = group_bits(word_at(m + e));
        uint8_t pos[8];
        memcpy(pos, &CA_MASK_POSITIONS[b], sizeof pos);
        const int64_t base = off + e * st;
        for (int q = 0; q < 8; q++) {
            out[k + q] = base + (int64_t)pos[q] * st;
        }
        k += __builtin_popcount(b);
        e += 8;
    }
    for (; e < len && k < t; e++) {
        out[k] = off + e * st;
        k += m[e] != 0;
    }
}

/* fill_run with a unit stride as a constant (flat indices: nonzero) */
CA_HOST_CLONES static void
fill_flat(const uint8_t *m, int64_t len, int64_t off, int64_t t, int64_t *out)
{
    fill_run(m, len, off, 1, t, out);
}

CA_HOST_CLONES static void
fill_strided(const uint8_t *m, int64_t len, int64_t off, int64_t st, int64_t t,
             int64_t *out)
{
    fill_run(m, len, off, st, t, out);
}

static void
fill_any(const uint8_t *m, int64_t len, int64_t off, int64_t st, int64_t t,
         int64_t *out)
{
    if (st == 1) {
        fill_flat(m, len, off, t, out);
    }
    else {
        fill_strided(m, len, off, st, t, out);
    }
}

/* ---- long 1-D masks on the pool ---------------------------------------------- */

/* Counting reads a byte an element (2^20 take ~50 us on one core); the offsets
 * store 8 bytes a true one. Below these sizes waking the pool costs more than
 * the second core saves (development machine, 2 cores). */
#define CA_MASK_COUNT_PAR_MIN ((int64_t)1 << 22)
#define CA_MASK_FILL_PAR_MIN  ((int64_t)1 << 19)
#define CA_MASK_TASKS         16

typedef struct {
    const uint8_t *m;
    int64_t n, per, st;
    int64_t *out;
    int64_t count[CA_MASK_TASKS];
    int64_t start[CA_MASK_TASKS];
} mask_job;

static void
mask_pieces(mask_job *j)
{
    /* whole words a piece: a split by the size alone, as the pool wants */
    j->per = ((j->n + CA_MASK_TASKS - 1) / CA_MASK_TASKS + 63) & ~(int64_t)63;
}

static void
count_task(void *ctx, int64_t t)
{
    mask_job *j = ctx;
    int64_t i0, i1;
    ca_host_piece(t, j->per, j->n, &i0, &i1);
    j->count[t] = i0 < i1 ? ca_host_count_true(j->m + i0, i1 - i0) : 0;
}

static void
fill_task(void *ctx, int64_t t)
{
    mask_job *j = ctx;
    int64_t i0, i1;
    ca_host_piece(t, j->per, j->n, &i0, &i1);
    if (i0 < i1 && j->count[t] > 0) {
        fill_any(j->m + i0, i1 - i0, i0 * j->st, j->st, j->count[t],
                 j->out + j->start[t]);
    }
}

static int
use_pool(int64_t n, int64_t min)
{
    return n >= min && ca_host_threads() >= 2;
}

int
ca_host_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch)
{
    if (!use_pool(n, CA_MASK_COUNT_PAR_MIN)) {
        scratch[0] = ca_host_count_true(mask, n);
        return 0;
    }
    mask_job j = { .m = mask, .n = n };
    mask_pieces(&j);
    ca_host_parallel(CA_MASK_TASKS, count_task, &j);
    int64_t c = 0;
    for (int t = 0; t < CA_MASK_TASKS; t++) {
        c += j.count[t];
    }
    scratch[0] = c;
    return 0;
}

/* One run of n mask bytes (ndim 1 after the dispatch merged what it could):
 * counted and filled piece by piece on the pool, each piece writing after the
 * true elements of the pieces before it. */
static void
offsets_1d(const uint8_t *mask, int64_t n, int64_t count, int64_t st, int64_t *out)
{
    if (!use_pool(n, CA_MASK_FILL_PAR_MIN)) {
        fill_any(mask, n, 0, st, count, out);
        return;
    }
    mask_job j = { .m = mask, .n = n, .st = st, .out = out };
    mask_pieces(&j);
    ca_host_parallel(CA_MASK_TASKS, count_task, &j);
    int64_t s = 0;
    for (int t = 0; t < CA_MASK_TASKS; t++) {
        j.start[t] = s;
        s += j.count[t];
    }
    ca_host_parallel(CA_MASK_TASKS, fill_task, &j);
}

int
ca_host_mask_offsets(const uint8_t *mask, int64_t n, int64_t count, int ndim,
                     const int64_t *shape, const int64_t *strides, int64_t *out)
{
    if (ndim == 0) {
        if (n > 0 && mask[0]) {
            out[0] = 0;
        }
        return 0;
    }
    if (ndim == 1) {
        offsets_1d(mask, n, count, strides[0], out);
        return 0;
    }
    /* runs along the innermost dim, the outer coordinates as counters */
    int64_t coord[CA_MAX_DIMS] = { 0 };
    int64_t off = 0, j = 0;
    const int in = ndim - 1;
    const int64_t len = shape[in], st = strides[in];
    for (int64_t i = 0; i < n; i += len) {
        const int64_t t = ca_host_count_true(mask + i, len);
        if (t > 0) {
            fill_any(mask + i, len, off, st, t, out + j);
        }
        j += t;
        for (int k = in - 1; k >= 0; k--) {
            if (++coord[k] < shape[k]) {
                off += strides[k];
                break;
            }
            coord[k] = 0;
            off -= strides[k] * (shape[k] - 1);
        }
    }
    return 0;
}

/* ---- compress ------------------------------------------------------------------ */

/* a[mask] of blocks of SZ bytes, up to the last true element `last`: runs of
 * eight true mask bytes (and longer) are one memcpy, eight false ones are
 * skipped, other groups are branch-free (each element is stored and kept only
 * where the mask is true: every store lands below `count`, as a true element is
 * still to come at `last`). */
static CA_ALWAYS_INLINE void
compress_run(const int sz, const char *src, const uint8_t *mask, int64_t last,
             char *dst)
{
    int64_t i = 0, j = 0;
    const int64_t end = last + 1;
    while (i + 8 <= end) {
        uint64_t w;
        memcpy(&w, mask + i, 8);
        if (w == CA_MASK_ONES) {
            int64_t e = i + 8;
            while (e + 8 <= end && (memcpy(&w, mask + e, 8), w == CA_MASK_ONES)) {
                e += 8;
            }
            memcpy(dst + j * sz, src + i * sz, (size_t)((e - i) * sz));
            j += e - i;
            i = e;
            continue;
        }
        if (w != 0) {
            for (int k = 0; k < 8; k++) {
                memcpy(dst + j * sz, src + (i + k) * sz, sz);
                j += mask[i + k] != 0;
            }
        }
        i += 8;
    }
    for (; i < end; i++) {
        memcpy(dst + j * sz, src + i * sz, sz);
        j += mask[i] != 0;
    }
}

int
ca_host_mask_compress(const char *src, const uint8_t *mask, int64_t n, int64_t block,
                      int64_t count, char *dst)
{
    if (count == 0) {
        return 0;
    }
    if (count == n) {
        memcpy(dst, src, (size_t)(n * block));
        return 0;
    }
    int64_t last = n - 1;
    while (last > 0 && mask[last] == 0) {
        last--;
    }
    switch (block) {
    case 1: compress_run(1, src, mask, last, dst); return 0;
    case 2: compress_run(2, src, mask, last, dst); return 0;
    case 4: compress_run(4, src, mask, last, dst); return 0;
    case 8: compress_run(8, src, mask, last, dst); return 0;
    case 16: compress_run(16, src, mask, last, dst); return 0;
    default: break;
    }
    int64_t j = 0;
    for (int64_t i = 0; i <= last; i++) {
        if (mask[i] != 0) {
            memcpy(dst + j * block, src + i * block, (size_t)block);
            j++;
        }
    }
    return 0;
}

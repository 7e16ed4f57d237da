/*
 * sort.cu: ca_sort on the GPU (kernels.h; host_sort.c dispatches here).
 *
 * One call is three passes over the data: a map kernel turns each element into
 * its unsigned key (sort_keys.h; inverted for descending order) and, for
 * argsort, writes its position within the row; CUB sorts the keys (and
 * positions) on double buffers; an unmap kernel turns the sorted keys back into
 * values and widens the positions to int64. Positions are 32-bit while a row
 * fits in INT32_MAX, so the sort moves 4 bytes per position, not 8.
 *
 * Rows of up to CA_SORT_BLOCK_MAX (2048) keys of up to 64 bits, one or many,
 * are sorted by one thread block each in one launch (sort_block.cu). Longer:
 * one row goes to DeviceRadixSort over the dtype's significant bits (fewer
 * when the caller passes CA_SORT_KEY_BITS: unique() of integers knows their
 * range); several rows to one DeviceSegmentedSort over their offsets. (Rows longer than
 * INT32_MAX with more than one row go row by row: the segmented sort's
 * positions are 32-bit.) Scratch, all from the caller's one `temp` block:
 * two key buffers, two position buffers, the row offsets, CUB's own storage.
 *
 * One long row of 32/64-bit integers sorted ascending for its values (sort,
 * unique; not argsort) skips the map and unmap: CUB's own key of an integer is
 * ours, so DeviceRadixSort reads the input and writes the output directly
 * (ca_cub_direct_keys; CUB's scratch holds one alternate key buffer). For
 * 2^26 int64 keys that is 8 radix passes of 16 bytes a key plus CUB's
 * histogram read, where the map and unmap added 32 bytes more.
 *
 * The argsort of one long float32 row (ascending) lets CUB sort the floats
 * themselves (ca_cub_f32_pairs), with no key map: CUB's float order is NumPy's
 * for numbers (-0.0 and +0.0 equal, so stable ties keep their order) but not for
 * NaNs, which it orders by their bits: those with the sign bit set first, the
 * others after +inf. So the positions are CUB's with the leading NaN block
 * skipped, then the positions of all NaNs in index order (NumPy's NaNs: last,
 * equal, stable): a one-thread binary search of the sorted keys finds both NaN
 * blocks (one load at each end when there are none), and an ordered compaction
 * writes the NaN positions (three small kernels that return at once when the
 * row holds no NaN). 84 bytes a key where the map path moved 92: the iota
 * (4), CUB's histogram read (4) and 4 passes of 16, the widening (12, 16-byte
 * accesses). H200 profile of 2^26 keys before the 32-bit CUB count: 4 onesweep
 * passes 2085 us, widening 226, histogram 108, iota 61, NaN bounds 17.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include <cub/block/block_scan.cuh>

#include "grid_1d.cuh"
#include "sort_cub.cuh"
#include "sort_keys.h"

/* sort_cub_f32.cu: CUB's own ascending sort of float32 keys (read from in, sorted
 * keys to keys_out) with 32-bit values; temp == NULL: only *bytes. */
int ca_cub_f32_pairs(void *temp, size_t *bytes, const float *in, float *keys_out,
                     const uint32_t *vals_in, uint32_t *vals_out, int64_t n,
                     cudaStream_t st);

extern "C" int ca_cuda_sort(int dtype, const void *in, int64_t nseg, int64_t n,
                            void *out, int64_t *idx, int flags, void *temp,
                            size_t *temp_bytes, ca_stream_t stream);

namespace {


template <typename K> __device__ inline K key_word(ca_skey k);
template <>
__device__ inline uint32_t
key_word<uint32_t>(ca_skey k)
{
    return (uint32_t)k.lo;
}
template <>
__device__ inline uint64_t
key_word<uint64_t>(ca_skey k)
{
    return k.lo;
}
template <>
__device__ inline ca_u128
key_word<ca_u128>(ca_skey k)
{
    return ((ca_u128)k.hi << 64) | (ca_u128)k.lo;
}

template <typename K>
__device__ inline ca_skey
word_key(K w)
{
    ca_skey k;
    k.hi = 0;
    k.lo = (uint64_t)w;
    return k;
}
template <>
__device__ inline ca_skey
word_key<ca_u128>(ca_u128 w)
{
    ca_skey k;
    k.hi = (uint64_t)(w >> 64);
    k.lo = (uint64_t)w;
    return k;
}

/* keys[i] = key(in[i]) ^ mask; positions within the row (n long) when wanted.
 * `mod` is false when there is one row (the position is i itself). */
template <int DT, typename K, typename V>
__global__ void
map_kernel(const char *in, int64_t total, int64_t n, int canon, ca_skey mask, K *keys,
           V *pos, bool mod)
{
    constexpr int size = dtype_size(DT);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        ca_skey k = ca_sort_key(DT, in + i * size, canon);
        k.hi ^= mask.hi;
        k.lo ^= mask.lo;
        keys[i] = key_word<K>(k);
        if (pos != nullptr) {
            pos[i] = (V)(mod ? i % n : i);
        }
    }
}

/* out[i] = value of keys[i] ^ mask; idx[i] = pos[i]. Either may be NULL. */
template <int DT, typename K, typename V>
__global__ void
unmap_kernel(const K *keys, const V *pos, int64_t total, ca_skey mask, char *out,
             int64_t *idx)
{
    constexpr int size = dtype_size(DT);
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < total;
         i += (int64_t)gridDim.x * blockDim.x) {
        if (out != nullptr) {
            ca_skey k = word_key<K>(keys[i]);
            k.hi ^= mask.hi;
            k.lo ^= mask.lo;
            ca_sort_unkey(DT, k, out + i * size);
        }
        if (idx != nullptr) {
            idx[i] = (int64_t)pos[i];
        }
    }
}

__global__ void
offsets_kernel(int64_t *off, int64_t nseg, int64_t n)
{
    for (int64_t s = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; s <= nseg;
         s += (int64_t)gridDim.x * blockDim.x) {
        off[s] = s * n;
    }
}

/* The CUB calls of key word K (sort_cub_*.cu, sort_seg_*.cu). */
template <typename K> struct cub_of;
#define CA_CUB_OF(K, sfx)                                                              \
    template <> struct cub_of<K> {                                                     \
        static int radix(void *t, size_t *b, K *k0, K *k1, void *v0, void *v1, int vs, \
                         int64_t n, int eb, int *sel, cudaStream_t st)                 \
        {                                                                              \
            return ca_cub_radix_##sfx(t, b, k0, k1, v0, v1, vs, n, eb, sel, st);       \
        }                                                                              \
        static int seg(void *t, size_t *b, K *k0, K *k1, uint32_t *v0, uint32_t *v1,   \
                       int pairs, int64_t n, int64_t ns, const int64_t *off, int *sel, \
                       cudaStream_t st)                                                \
        {                                                                              \
            return ca_cub_seg_##sfx(t, b, k0, k1, v0, v1, pairs, n, ns, off, sel, st); \
        }                                                                              \
    };
CA_CUB_OF(uint32_t, u32)
CA_CUB_OF(uint64_t, u64)
CA_CUB_OF(ca_u128, u128)

/* One sort: the rows, what to write, and how the keys are made. */
struct job {
    int dtype, canon, vsize, end_bit;
    bool segmented;
    ca_skey mask;
    const char *in;
    char *out;
    int64_t *idx;
    int64_t nseg, n;
};

/* Offsets into `temp` of each buffer (256-byte aligned, as CUB wants). */
struct plan {
    int64_t total;
    size_t o_k1, o_v0, o_v1, o_off, o_cub, cub_bytes, all;
};

template <typename K>
int
cub_call(const job &j, const plan &p, char *t, size_t *cb, int *sel, cudaStream_t st)
{
    K *k0 = t ? (K *)t : nullptr;
    K *k1 = t ? (K *)(t + p.o_k1) : nullptr;
    void *v0 = t && j.idx ? t + p.o_v0 : nullptr;
    void *v1 = t && j.idx ? t + p.o_v1 : nullptr;
    char *cub = t ? t + p.o_cub : nullptr;
    if (j.segmented) {
        const int64_t *off = t ? (const int64_t *)(t + p.o_off) : nullptr;
        return cub_of<K>::seg(cub, cb, k0, k1, (uint32_t *)v0, (uint32_t *)v1,
                              j.idx != nullptr, p.total, j.nseg, off, sel, st);
    }
    return cub_of<K>::radix(cub, cb, k0, k1, v0, v1, j.idx ? j.vsize : 0, p.total,
                            j.end_bit, sel, st);
}

template <typename K>
int
make_plan(const job &j, plan *p, cudaStream_t st)
{
    p->total = j.nseg * j.n;
    size_t kb = round256((size_t)p->total * sizeof(K));
    size_t vb = j.idx ? round256((size_t)p->total * (size_t)j.vsize) : 0;
    size_t ob = j.segmented ? round256((size_t)(j.nseg + 1) * sizeof(int64_t)) : 0;
    p->o_k1 = kb;
    p->o_v0 = 2 * kb;
    p->o_v1 = p->o_v0 + vb;
    p->o_off = p->o_v1 + vb;
    p->o_cub = p->o_off + ob;
    p->cub_bytes = 0;
    if (j.n > 1) {
        int sel[2];
        int e = cub_call<K>(j, *p, nullptr, &p->cub_bytes, sel, st);
        if (e != 0) {
            return e;
        }
    }
    p->all = p->o_cub + round256(p->cub_bytes);
    return 0;
}

template <int DT, typename K, typename V>
int
run_typed(const job &j, const plan &p, char *t, cudaStream_t st)
{
    const unsigned nb = blocks_for(p.total);
    V *pos0 = j.idx ? (V *)(t + p.o_v0) : nullptr;
    map_kernel<DT, K, V><<<nb, kThreads, 0, st>>>(j.in, p.total, j.n, j.canon, j.mask,
                                                  (K *)t, pos0, j.nseg > 1);
    int e = (int)cudaGetLastError();
    if (e != 0) {
        return e;
    }
    int sel[2] = { 0, 0 };
    if (j.n > 1) {
        if (j.segmented) {
            int64_t *off = (int64_t *)(t + p.o_off);
            offsets_kernel<<<blocks_for(j.nseg + 1), kThreads, 0, st>>>(off, j.nseg,
                                                                        j.n);
            if ((e = (int)cudaGetLastError()) != 0) {
                return e;
            }
        }
        size_t cb = p.cub_bytes;
        if ((e = cub_call<K>(j, p, t, &cb, sel, st)) != 0) {
            return e;
        }
    }
    const K *keys = (const K *)(t + (sel[0] ? p.o_k1 : 0));
    const V *pos = j.idx ? (const V *)(t + (sel[1] ? p.o_v1 : p.o_v0)) : nullptr;
    unmap_kernel<DT, K, V>
        <<<nb, kThreads, 0, st>>>(keys, pos, p.total, j.mask, j.out, j.idx);
    return (int)cudaGetLastError();
}

/* Size (temp == NULL) or run one job of dtype DT, key word K. */
template <int DT, typename K>
int
run(const job &j, void *temp, size_t *temp_bytes, cudaStream_t st)
{
    plan p;
    int e = make_plan<K>(j, &p, st);
    if (e != 0) {
        return e;
    }
    if (temp_answered(temp, temp_bytes, p.all, &e)) {
        return e;
    }
    if (j.vsize == 8) {
        return run_typed<DT, K, uint64_t>(j, p, (char *)temp, st);
    }
    return run_typed<DT, K, uint32_t>(j, p, (char *)temp, st);
}

int
dispatch(const job &j, void *temp, size_t *temp_bytes, cudaStream_t st)
{
    switch (j.dtype) {
#define CA_P_SORT_CASE(dt, K)                                                          \
    case dt: return run<dt, K>(j, temp, temp_bytes, st);
        CA_P_SORT_CASE(CA_BOOL, uint32_t)
        CA_P_SORT_CASE(CA_INT8, uint32_t)
        CA_P_SORT_CASE(CA_UINT8, uint32_t)
        CA_P_SORT_CASE(CA_INT16, uint32_t)
        CA_P_SORT_CASE(CA_UINT16, uint32_t)
        CA_P_SORT_CASE(CA_INT32, uint32_t)
        CA_P_SORT_CASE(CA_UINT32, uint32_t)
        CA_P_SORT_CASE(CA_INT64, uint64_t)
        CA_P_SORT_CASE(CA_UINT64, uint64_t)
        CA_P_SORT_CASE(CA_FLOAT16, uint32_t)
        CA_P_SORT_CASE(CA_FLOAT32, uint32_t)
        CA_P_SORT_CASE(CA_FLOAT64, uint64_t)
        CA_P_SORT_CASE(CA_COMPLEX64, uint64_t)
        CA_P_SORT_CASE(CA_COMPLEX128, ca_u128)
#undef CA_P_SORT_CASE
    default: return CA_KERR_UNSUPPORTED;
    }
}

/* One row of at most INT32_MAX integers, ascending, values only, out not in:
 * CUB from in to out (ca_cub_direct_keys, 32-bit counts; longer rows take the
 * map path, whose keys-only sort counts in 64 bits). */
bool
direct_ok(const job &j, int64_t nseg, int flags)
{
    return nseg == 1 && j.n <= (int64_t)INT32_MAX && j.idx == nullptr &&
           j.out != nullptr && j.out != j.in && !(flags & CA_SORT_DESCENDING) &&
           (j.dtype == CA_INT32 || j.dtype == CA_UINT32 || j.dtype == CA_INT64 ||
            j.dtype == CA_UINT64);
}

/* ---- argsort of one long float32 row on CUB's float order (see the top) ---- */

constexpr int kNanBlocks = 1024; /* the NaN compaction's blocks, at most */
constexpr int kNanThreads = 256;
constexpr unsigned kFull = 0xffffffffu;

__device__ inline bool
f32_nan(uint32_t b)
{
    return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0;
}

__global__ void
iota_kernel(uint32_t *p, int64_t n)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        p[i] = (uint32_t)i;
    }
}

/* In CUB's sorted keys k[0:n]: ctr[0] = the leading NaNs (sign bit set),
 * ctr[1] = all NaNs (those and the trailing ones). One thread. Each NaN block
 * is looked for at its end of the keys first: without NaNs of that sign (the
 * common case) that is one load, not a binary search's ~26 dependent ones from
 * DRAM (some 20 us on 2^26 keys, two searches). */
__global__ void
nan_bounds_kernel(const uint32_t *k, int64_t n, int64_t *ctr)
{
    if (threadIdx.x != 0 || blockIdx.x != 0) {
        return;
    }
    const uint32_t first = k[0], last = k[n - 1];
    int64_t lo = 0, hi = n; /* the first key that is not a leading NaN */
    if (!(f32_nan(first) && (first >> 31))) {
        hi = 0;
    }
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const uint32_t b = k[mid];
        if (f32_nan(b) && (b >> 31)) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    const int64_t lead = lo;
    hi = n; /* the first trailing NaN (sign bit clear), in [lead, n] */
    if (!(f32_nan(last) && !(last >> 31))) {
        lo = n;
    }
    while (lo < hi) {
        const int64_t mid = lo + (hi - lo) / 2;
        const uint32_t b = k[mid];
        if (f32_nan(b) && !(b >> 31)) {
            hi = mid;
        }
        else {
            lo = mid + 1;
        }
    }
    ctr[0] = lead;
    ctr[1] = lead + (n - lo);
}

/* idx[i] = pos[i + leading NaNs] for the n - (all NaNs) numbers. When
 * pos + skip and idx are 16-byte aligned (no leading NaNs, or a multiple of 4 of
 * them: pos is a 256-aligned scratch buffer, idx a fresh array), a thread widens
 * four positions at once: one 16-byte load, two 16-byte stores (the pass is
 * 12 bytes a key, 805 MB for 2^26; scalar it ran at ~3.6 TB/s on the H200). The
 * last keep % 4 positions, and every position otherwise, go one at a time. */
__global__ void
shifted_unmap_kernel(const uint32_t *pos, int64_t n, const int64_t *ctr, int64_t *idx)
{
    const int64_t skip = ctr[0], keep = n - ctr[1];
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t stride = (int64_t)gridDim.x * blockDim.x;
    const uint32_t *src = pos + skip;
    int64_t done = 0;
    if ((((uintptr_t)src | (uintptr_t)idx) & 15) == 0) {
        const int64_t quads = keep / 4;
        const uint4 *s4 = (const uint4 *)src;
        longlong2 *d2 = (longlong2 *)idx;
        for (int64_t q = tid; q < quads; q += stride) {
            const uint4 v = s4[q];
            d2[2 * q] = make_longlong2((long long)v.x, (long long)v.y);
            d2[2 * q + 1] = make_longlong2((long long)v.z, (long long)v.w);
        }
        done = quads * 4;
    }
    for (int64_t i = done + tid; i < keep; i += stride) {
        idx[i] = (int64_t)src[i];
    }
}

/* The compaction's blocks: each takes `span` consecutive elements (a multiple of
 * its threads), in rounds of kNanThreads. */
int
nan_blocks(int64_t n)
{
    const int64_t want = (n + 4095) / 4096;
    return (int)(want < kNanBlocks ? want : kNanBlocks);
}

int64_t
nan_span(int64_t n, int nb)
{
    const int64_t s = (n + nb - 1) / nb;
    return (s + kNanThreads - 1) / kNanThreads * kNanThreads;
}

/* cnt[b] = the NaNs of block b's span of x (nothing when there are none). */
__global__ void
__launch_bounds__(kNanThreads)
    nan_count_kernel(const uint32_t *x, int64_t n, int64_t span, const int64_t *ctr,
                     int64_t *cnt)
{
    if (ctr[1] == 0) {
        return;
    }
    const int64_t b0 = (int64_t)blockIdx.x * span;
    const int64_t b1 = b0 + span < n ? b0 + span : n;
    int64_t c = 0;
    for (int64_t base = b0; base < b1; base += kNanThreads) {
        const int64_t i = base + threadIdx.x;
        c += __syncthreads_count(i < b1 && f32_nan(x[i]));
    }
    if (threadIdx.x == 0) {
        cnt[blockIdx.x] = c;
    }
}

/* cnt[0:nb] -> its exclusive prefix sums (one block of kNanBlocks threads). */
__global__ void
__launch_bounds__(kNanBlocks) nan_scan_kernel(int64_t *cnt, int nb, const int64_t *ctr)
{
    if (ctr[1] == 0) {
        return;
    }
    typedef cub::BlockScan<long long, kNanBlocks> Scan;
    __shared__ typename Scan::TempStorage tmp;
    const int t = threadIdx.x;
    long long v = t < nb ? (long long)cnt[t] : 0, ex;
    Scan(tmp).ExclusiveSum(v, ex);
    if (t < nb) {
        cnt[t] = ex;
    }
}

/* The positions of block b's NaNs, in index order, at idx[n - all NaNs +
 * off[b] ...]. */
__global__ void
__launch_bounds__(kNanThreads)
    nan_write_kernel(const uint32_t *x, int64_t n, int64_t span, const int64_t *ctr,
                     const int64_t *off, int64_t *idx)
{
    if (ctr[1] == 0) {
        return;
    }
    __shared__ int warp_tot[kNanThreads / 32];
    const int lane = (int)(threadIdx.x & 31), w = (int)(threadIdx.x >> 5);
    const int64_t b0 = (int64_t)blockIdx.x * span;
    const int64_t b1 = b0 + span < n ? b0 + span : n;
    int64_t at = n - ctr[1] + off[blockIdx.x];
    for (int64_t base = b0; base < b1; base += kNanThreads) {
        const int64_t i = base + threadIdx.x;
        const bool f = i < b1 && f32_nan(x[i]);
        const unsigned ball = __ballot_sync(kFull, f);
        if (lane == 0) {
            warp_tot[w] = __popc(ball);
        }
        __syncthreads();
        int before = 0, total = 0;
        for (int k = 0; k < kNanThreads / 32; k++) {
            const int c = warp_tot[k];
            before += k < w ? c : 0;
            total += c;
        }
        if (f) {
            idx[at + before + __popc(ball & ((1u << lane) - 1u))] = i;
        }
        at += total;
        __syncthreads(); /* warp_tot is the next round's */
    }
}

/* Whether a job is the argsort of one long float32 row, ascending, with 32-bit
 * positions (and the full key). */
bool
f32_arg_ok(const job &j, int64_t nseg, int flags)
{
    return nseg == 1 && j.idx != nullptr && j.out == nullptr && j.dtype == CA_FLOAT32 &&
           !(flags & CA_SORT_DESCENDING) && j.vsize == 4 && j.end_bit == 32;
}

/* Size (temp == NULL) or run it. Scratch: CUB's sorted keys, the positions in
 * and out, the NaN counters and block offsets, CUB's own storage (which holds
 * its alternate buffers). */
int
f32_argsort(const job &j, void *temp, size_t *temp_bytes, cudaStream_t st)
{
    const int64_t n = j.n;
    const size_t wb = round256((size_t)n * 4);
    const size_t o_ctr = 3 * wb, o_cnt = o_ctr + 256;
    const size_t o_cub = o_cnt + round256(kNanBlocks * sizeof(int64_t));
    size_t cub_bytes = 0;
    int e = ca_cub_f32_pairs(nullptr, &cub_bytes, nullptr, nullptr, nullptr, nullptr, n,
                             st);
    if (cub_temp_answered(temp, temp_bytes, o_cub, cub_bytes, e, &e)) {
        return e;
    }
    char *t = (char *)temp;
    float *keys = (float *)t;
    uint32_t *p0 = (uint32_t *)(t + wb), *p1 = (uint32_t *)(t + 2 * wb);
    int64_t *ctr = (int64_t *)(t + o_ctr), *cnt = (int64_t *)(t + o_cnt);
    const uint32_t *x = (const uint32_t *)j.in;
    iota_kernel<<<blocks_for(n), kThreads, 0, st>>>(p0, n);
    if ((e = (int)cudaGetLastError()) != 0) {
        return e;
    }
    if ((e = ca_cub_f32_pairs(t + o_cub, &cub_bytes, (const float *)j.in, keys, p0, p1,
                              n, st)) != 0) {
        return e;
    }
    nan_bounds_kernel<<<1, 32, 0, st>>>((const uint32_t *)keys, n, ctr);
    shifted_unmap_kernel<<<blocks_for((n + 3) / 4), kThreads, 0, st>>>(p1, n, ctr,
                                                                       j.idx);
    const int nb = nan_blocks(n);
    const int64_t span = nan_span(n, nb);
    nan_count_kernel<<<nb, kNanThreads, 0, st>>>(x, n, span, ctr, cnt);
    nan_scan_kernel<<<1, kNanBlocks, 0, st>>>(cnt, nb, ctr);
    nan_write_kernel<<<nb, kNanThreads, 0, st>>>(x, n, span, ctr, cnt, j.idx);
    return (int)cudaGetLastError();
}

/* Short rows: one thread block per row (sort_block.cu). It needs no scratch,
 * but asks for a token 256 bytes: a size of 0 would tell the caller that there
 * is nothing to sort. */
int
block_rows(const job &j, int64_t nseg, void *temp, size_t *temp_bytes, cudaStream_t st)
{
    if (temp == nullptr) {
        *temp_bytes = 256;
        return 0;
    }
    ca_block_sort s;
    s.in = j.in;
    s.out = j.out;
    s.idx = j.idx;
    s.nseg = nseg;
    s.n = (int)j.n;
    s.dtype = j.dtype;
    s.size = dtype_size(j.dtype);
    s.key_bytes = ca_skey_bits(j.dtype) > 32 ? 8 : 4;
    s.canon = j.canon;
    s.end_bit = j.end_bit;
    s.mask = j.mask.lo;
    return ca_block_sort_rows(&s, st);
}

} // namespace

extern "C" int
ca_cuda_sort(int dtype, const void *in, int64_t nseg, int64_t n, void *out,
             int64_t *idx, int flags, void *temp, size_t *temp_bytes,
             ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    if (nseg == 0 || n == 0) {
        *temp_bytes = 0;
        return 0;
    }
    job j;
    j.dtype = dtype;
    j.canon = idx != nullptr;
    j.vsize = n > (int64_t)INT32_MAX ? 8 : 4;
    j.end_bit = ca_skey_bits(dtype);
    const int hint = (flags >> 8) & 0xFF; /* CA_SORT_KEY_BITS */
    if (hint > 0 && hint < j.end_bit) {
        j.end_bit = hint;
    }
    j.mask = ca_skey_mask(dtype);
    if (!(flags & CA_SORT_DESCENDING)) {
        j.mask.hi = j.mask.lo = 0;
    }
    j.in = (const char *)in;
    j.out = (char *)out;
    j.idx = idx;
    j.n = n;
    if (n > 1 && n <= CA_SORT_BLOCK_MAX && dtype != CA_COMPLEX128) {
        return block_rows(j, nseg, temp, temp_bytes, st);
    }
    if (n > CA_SORT_BLOCK_MAX && direct_ok(j, nseg, flags)) {
        return ca_cub_direct_keys(dtype, temp, temp_bytes, in, out, n, j.end_bit, st);
    }
    if (n > CA_SORT_BLOCK_MAX && f32_arg_ok(j, nseg, flags)) {
        return f32_argsort(j, temp, temp_bytes, st);
    }
    if (nseg == 1 || j.vsize == 4 || n == 1) {
        j.nseg = nseg;
        j.segmented = nseg > 1 && n > 1;
        return dispatch(j, temp, temp_bytes, st);
    }
    /* Rows too long for 32-bit positions, several of them: one sort per row,
     * the same scratch reused (the stream orders them). */
    j.nseg = 1;
    j.segmented = false;
    if (temp == nullptr) {
        return dispatch(j, temp, temp_bytes, st);
    }
    const int64_t size = dtype_size(dtype);
    for (int64_t r = 0; r < nseg; r++) {
        j.in = (const char *)in + r * n * size;
        j.out = out ? (char *)out + r * n * size : nullptr;
        j.idx = idx ? idx + r * n : nullptr;
        int e = dispatch(j, temp, temp_bytes, st);
        if (e != 0) {
            return e;
        }
    }
    return 0;
}

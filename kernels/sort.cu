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
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "sort_cub.cuh"
#include "sort_keys.h"

extern "C" int ca_cuda_sort(int dtype, const void *in, int64_t nseg, int64_t n,
                            void *out, int64_t *idx, int flags, void *temp,
                            size_t *temp_bytes, ca_stream_t stream);

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 1 << 16;

unsigned
blocks_for(int64_t n)
{
    int64_t b = (n + kThreads - 1) / kThreads;
    return (unsigned)(b < kMaxBlocks ? b : kMaxBlocks);
}

size_t
round256(size_t b)
{
    return (b + 255) & ~(size_t)255;
}

/* Bytes per element (ca_dtype_size, usable as a constant in kernels). */
__host__ __device__ constexpr int
dtype_size(int dt)
{
    return dt == CA_BOOL || dt == CA_INT8 || dt == CA_UINT8        ? 1
           : dt == CA_INT16 || dt == CA_UINT16 || dt == CA_FLOAT16 ? 2
           : dt == CA_INT32 || dt == CA_UINT32 || dt == CA_FLOAT32 ? 4
           : dt == CA_COMPLEX128                                   ? 16
                                                                   : 8;
}

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
template <> struct cub_of<uint32_t> {
    static int radix(void *t, size_t *b, uint32_t *k0, uint32_t *k1, void *v0, void *v1,
                     int vs, int64_t n, int eb, int *sel, cudaStream_t st)
    {
        return ca_cub_radix_u32(t, b, k0, k1, v0, v1, vs, n, eb, sel, st);
    }
    static int seg(void *t, size_t *b, uint32_t *k0, uint32_t *k1, uint32_t *v0,
                   uint32_t *v1, int pairs, int64_t n, int64_t ns, const int64_t *off,
                   int *sel, cudaStream_t st)
    {
        return ca_cub_seg_u32(t, b, k0, k1, v0, v1, pairs, n, ns, off, sel, st);
    }
};
template <> struct cub_of<uint64_t> {
    static int radix(void *t, size_t *b, uint64_t *k0, uint64_t *k1, void *v0, void *v1,
                     int vs, int64_t n, int eb, int *sel, cudaStream_t st)
    {
        return ca_cub_radix_u64(t, b, k0, k1, v0, v1, vs, n, eb, sel, st);
    }
    static int seg(void *t, size_t *b, uint64_t *k0, uint64_t *k1, uint32_t *v0,
                   uint32_t *v1, int pairs, int64_t n, int64_t ns, const int64_t *off,
                   int *sel, cudaStream_t st)
    {
        return ca_cub_seg_u64(t, b, k0, k1, v0, v1, pairs, n, ns, off, sel, st);
    }
};
template <> struct cub_of<ca_u128> {
    static int radix(void *t, size_t *b, ca_u128 *k0, ca_u128 *k1, void *v0, void *v1,
                     int vs, int64_t n, int eb, int *sel, cudaStream_t st)
    {
        return ca_cub_radix_u128(t, b, k0, k1, v0, v1, vs, n, eb, sel, st);
    }
    static int seg(void *t, size_t *b, ca_u128 *k0, ca_u128 *k1, uint32_t *v0,
                   uint32_t *v1, int pairs, int64_t n, int64_t ns, const int64_t *off,
                   int *sel, cudaStream_t st)
    {
        return ca_cub_seg_u128(t, b, k0, k1, v0, v1, pairs, n, ns, off, sel, st);
    }
};

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
    if (temp == nullptr) {
        *temp_bytes = p.all;
        return 0;
    }
    if (*temp_bytes < p.all) {
        return (int)cudaErrorInvalidValue;
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

/* One row of integers, ascending, values only, out not in: CUB from in to out
 * (ca_cub_direct_keys). */
bool
direct_ok(const job &j, int64_t nseg, int flags)
{
    return nseg == 1 && j.idx == nullptr && j.out != nullptr && j.out != j.in &&
           !(flags & CA_SORT_DESCENDING) &&
           (j.dtype == CA_INT32 || j.dtype == CA_UINT32 || j.dtype == CA_INT64 ||
            j.dtype == CA_UINT64);
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

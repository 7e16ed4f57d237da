/*
 * index.cu: the GPU's gather, scatter and mask kernels and their launchers
 * (kernels.h documents the semantics; host_index.c is the cpu device's version;
 * dispatch_index.c picks one after merging dimensions).
 *
 * Every launcher launches on the caller's stream and returns cudaGetLastError().
 * Nothing here synchronizes: an out-of-range index is written to the caller's
 * flag in device memory, and the caller reads it back.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "grid_1d.cuh"
#include "index_cuda.h"


namespace {

/* Element storage by size; 16-byte elements (complex128) only need 8-byte
 * alignment, like NumPy's. */
struct alignas(8) u128 {
    uint64_t a, b;
};
template <int SZ> struct elem;
template <> struct elem<1> {
    typedef uint8_t type;
};
template <> struct elem<2> {
    typedef uint16_t type;
};
template <> struct elem<4> {
    typedef uint32_t type;
};
template <> struct elem<8> {
    typedef uint64_t type;
};
template <> struct elem<16> {
    typedef u128 type;
};

__device__ inline void
report(int64_t *flag, int axis, int64_t value)
{
    unsigned long long *f = reinterpret_cast<unsigned long long *>(flag);
    if (atomicCAS(f, 0ull, (unsigned long long)(axis + 1)) == 0ull) {
        atomicExch(f + 1, (unsigned long long)value);
    }
}

/* Offsets of position i of the pass in its three operands. I is uint32_t when
 * every count fits, which makes the divisions several times cheaper. */
template <typename I>
__device__ inline void
pass_offsets(const ca_index_pass &p, I i, int64_t &doff, int64_t &voff, int64_t &ioff)
{
    doff = voff = ioff = 0;
    for (int k = p.ndim - 1; k >= 0; k--) {
        I ext = (I)p.shape[k];
        I c = i % ext;
        i /= ext;
        doff += (int64_t)c * p.strides[k];
        voff += (int64_t)c * p.vstrides[k];
        ioff += (int64_t)c * p.istrides[k];
    }
}

/* The index at ioff, as a byte offset into the indexed array; false when out
 * of range (reported). */
__device__ inline bool
index_at(const ca_index_pass &p, int64_t ioff, int64_t *flag, int64_t &o)
{
    int64_t v = 0;
    if (p.idx != nullptr) {
        v = *reinterpret_cast<const int64_t *>(reinterpret_cast<const char *>(p.idx) +
                                               ioff);
    }
    if (p.extent >= 0) {
        int64_t w = v < 0 ? v + p.extent : v;
        if (w < 0 || w >= p.extent) {
            report(flag, p.axis, v);
            o = 0;
            return false;
        }
        o = w * p.scale;
        return true;
    }
    o = v;
    return true;
}

template <int SZ, bool PUT, typename I>
__global__ void
take_put_kernel(const ca_index_pass p, int64_t n, int64_t *flag)
{
    typedef typename elem<SZ>::type T;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t doff, voff, ioff, o;
        pass_offsets<I>(p, (I)i, doff, voff, ioff);
        bool ok = index_at(p, ioff, flag, o);
        T *e = reinterpret_cast<T *>(p.data + doff + o);
        if (PUT) {
            if (ok) {
                if (p.vals != nullptr) {
                    *e = *reinterpret_cast<const T *>(p.vals + voff);
                }
                else {
                    T val;
                    memcpy(&val, p.value, sizeof(T));
                    *e = val;
                }
            }
        }
        else {
            T *out = reinterpret_cast<T *>(p.vals + voff);
            if (ok) {
                *out = *e;
            }
            else {
                T zero;
                memset(&zero, 0, sizeof(T));
                *out = zero;
            }
        }
    }
}

/* Any element size and alignment, a byte at a time: for data that is not
 * aligned to its element size (foreign memory). */
template <bool PUT>
__global__ void
take_put_bytes_kernel(const ca_index_pass p, int64_t n, int itemsize, int64_t *flag)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t doff, voff, ioff, o;
        pass_offsets<int64_t>(p, i, doff, voff, ioff);
        bool ok = index_at(p, ioff, flag, o);
        char *e = p.data + doff + o;
        if (PUT) {
            if (ok) {
                const char *src = p.vals != nullptr
                                      ? p.vals + voff
                                      : reinterpret_cast<const char *>(p.value);
                for (int b = 0; b < itemsize; b++) {
                    e[b] = src[b];
                }
            }
        }
        else {
            char *out = p.vals + voff;
            for (int b = 0; b < itemsize; b++) {
                out[b] = ok ? e[b] : 0;
            }
        }
    }
}

template <bool ACC>
__global__ void
offsets_kernel(const ca_index_pass p, int64_t n, int64_t *flag)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t doff, voff, ioff, o;
        pass_offsets<int64_t>(p, i, doff, voff, ioff);
        index_at(p, ioff, flag, o);
        if (p.vals != nullptr) {
            int64_t *out = reinterpret_cast<int64_t *>(p.vals + voff);
            *out = ACC ? *out + o : o;
        }
    }
}

int64_t
pass_size(const ca_index_pass *p)
{
    int64_t n = 1;
    for (int k = 0; k < p->ndim; k++) {
        n *= p->shape[k];
    }
    return n;
}


/* Whether every address a pass touches is aligned for `itemsize`-byte
 * elements (u128 needs 8). For byte-offset indexes, `scale` bounds their
 * alignment (kernels.h). */
bool
pass_aligned(const ca_index_pass *p, int itemsize)
{
    uint64_t acc = (uint64_t)(uintptr_t)p->data | (uint64_t)(uintptr_t)p->vals |
                   (uint64_t)p->scale;
    for (int k = 0; k < p->ndim; k++) {
        acc |= (uint64_t)p->strides[k] | (uint64_t)p->vstrides[k];
    }
    int need = itemsize < 8 ? itemsize : 8;
    return align_of(acc) >= need;
}

template <bool PUT>
int
launch_take_put(const ca_index_pass *p, int itemsize, int64_t *flag, cudaStream_t st)
{
    int64_t n = pass_size(p);
    if (n == 0) {
        return 0;
    }
    unsigned g = blocks_for(n);
    bool small = n <= (int64_t)UINT32_MAX;
    if (!pass_aligned(p, itemsize)) {
        take_put_bytes_kernel<PUT><<<g, kThreads, 0, st>>>(*p, n, itemsize, flag);
        return (int)cudaGetLastError();
    }
#define CA_LAUNCH_SZ(SZ)                                                               \
    case SZ:                                                                           \
        if (small) {                                                                   \
            take_put_kernel<SZ, PUT, uint32_t><<<g, kThreads, 0, st>>>(*p, n, flag);   \
        }                                                                              \
        else {                                                                         \
            take_put_kernel<SZ, PUT, int64_t><<<g, kThreads, 0, st>>>(*p, n, flag);    \
        }                                                                              \
        break;
    switch (itemsize) {
        CA_LAUNCH_SZ(1)
        CA_LAUNCH_SZ(2)
        CA_LAUNCH_SZ(4)
        CA_LAUNCH_SZ(8)
        CA_LAUNCH_SZ(16)
    default: return CA_KERR_UNSUPPORTED;
    }
#undef CA_LAUNCH_SZ
    return (int)cudaGetLastError();
}

/* ---- boolean masks ----------------------------------------------------------- */
/* Each block owns kChunk consecutive mask bytes, kItems consecutive ones per
 * thread, so a thread's true elements are consecutive in the output. Counting
 * writes one count per block to scratch[1 + b]; one block scans those into
 * offsets (scratch[0] = the total); the offsets pass recounts its chunk and
 * writes positions starting at its block's offset. */
constexpr int kItems = 16;
constexpr int64_t kChunk = (int64_t)kThreads * kItems;
constexpr int kScanThreads = 1024;

__device__ inline int
thread_count(const uint8_t *mask, int64_t n, int64_t start)
{
    int c = 0;
    for (int j = 0; j < kItems; j++) {
        int64_t i = start + j;
        if (i < n && mask[i] != 0) {
            c++;
        }
    }
    return c;
}

/* Exclusive prefix sum of v over the block (blockDim.x == NT, a multiple of
 * 32); *total gets the block's sum. */
template <int NT, typename T>
__device__ inline T
block_exclusive_scan(T v, T *total)
{
    __shared__ T warp_sums[NT / 32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    T x = v;
    for (int d = 1; d < 32; d <<= 1) {
        T y = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) {
            x += y;
        }
    }
    if (lane == 31) {
        warp_sums[warp] = x;
    }
    __syncthreads();
    if (warp == 0) {
        T w = lane < NT / 32 ? warp_sums[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            T y = __shfl_up_sync(0xffffffffu, w, d);
            if (lane >= d) {
                w += y;
            }
        }
        if (lane < NT / 32) {
            warp_sums[lane] = w;
        }
    }
    __syncthreads();
    T before = warp > 0 ? warp_sums[warp - 1] : 0;
    *total = warp_sums[NT / 32 - 1];
    __syncthreads(); /* warp_sums may be reused by the next call */
    return before + x - v;
}

__global__ void
mask_count_kernel(const uint8_t *mask, int64_t n, int64_t *scratch)
{
    int64_t start = (int64_t)blockIdx.x * kChunk + (int64_t)threadIdx.x * kItems;
    int c = thread_count(mask, n, start);
    int total;
    block_exclusive_scan<kThreads, int>(c, &total);
    if (threadIdx.x == 0) {
        scratch[1 + blockIdx.x] = total;
    }
}

__global__ void
mask_scan_kernel(int64_t *scratch, int64_t nblocks)
{
    int64_t carry = 0;
    for (int64_t base = 0; base < nblocks; base += kScanThreads) {
        int64_t i = base + threadIdx.x;
        int64_t v = i < nblocks ? scratch[1 + i] : 0;
        int64_t total;
        int64_t ex = block_exclusive_scan<kScanThreads, int64_t>(v, &total);
        if (i < nblocks) {
            scratch[1 + i] = carry + ex;
        }
        carry += total;
    }
    if (threadIdx.x == 0) {
        scratch[0] = carry;
    }
}

struct mask_layout {
    int ndim;
    int64_t shape[CA_MAX_DIMS];
    int64_t strides[CA_MAX_DIMS];
};

__global__ void
mask_offsets_kernel(const uint8_t *mask, int64_t n, const int64_t *scratch,
                    const mask_layout lay, int64_t *out)
{
    int64_t start = (int64_t)blockIdx.x * kChunk + (int64_t)threadIdx.x * kItems;
    int c = thread_count(mask, n, start);
    int total;
    int64_t pos =
        scratch[1 + blockIdx.x] + block_exclusive_scan<kThreads, int>(c, &total);
    for (int j = 0; j < kItems; j++) {
        int64_t i = start + j;
        if (i < n && mask[i] != 0) {
            int64_t rem = i;
            int64_t off = 0;
            for (int k = lay.ndim - 1; k >= 0; k--) {
                off += (rem % lay.shape[k]) * lay.strides[k];
                rem /= lay.shape[k];
            }
            out[pos++] = off;
        }
    }
}

struct value16 {
    unsigned char b[16];
};

/* The byte offsets d and m of element i (C order) in s's two operands. */
__device__ __forceinline__ void
offsets2(const ca_strided &s, int64_t i, int64_t *d, int64_t *m)
{
    int64_t rem = i;
    *d = 0;
    *m = 0;
    for (int k = s.ndim - 1; k >= 0; k--) {
        int64_t c = rem % s.shape[k];
        rem /= s.shape[k];
        *d += c * s.strides[0][k];
        *m += c * s.strides[1][k];
    }
}

template <int SZ>
__global__ void
masked_fill_kernel(const ca_strided s, int64_t n, const value16 v)
{
    typedef typename elem<SZ>::type T;
    T val;
    memcpy(&val, v.b, sizeof(T));
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t d, m;
        offsets2(s, i, &d, &m);
        if (s.data[1][m] != 0) {
            *reinterpret_cast<T *>(s.data[0] + d) = val;
        }
    }
}

__global__ void
masked_fill_bytes_kernel(const ca_strided s, int64_t n, int itemsize, const value16 v)
{
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        int64_t d, m;
        offsets2(s, i, &d, &m);
        if (s.data[1][m] != 0) {
            for (int b = 0; b < itemsize; b++) {
                s.data[0][d + b] = (char)v.b[b];
            }
        }
    }
}

} // namespace

extern "C" int
ca_cuda_index_take(const ca_index_pass *p, int itemsize, int64_t *flag,
                   ca_stream_t stream)
{
    return launch_take_put<false>(p, itemsize, flag, (cudaStream_t)stream);
}

extern "C" int
ca_cuda_index_put(const ca_index_pass *p, int itemsize, int64_t *flag,
                  ca_stream_t stream)
{
    return launch_take_put<true>(p, itemsize, flag, (cudaStream_t)stream);
}

extern "C" int
ca_cuda_index_offsets(const ca_index_pass *p, int accumulate, int64_t *flag,
                      ca_stream_t stream)
{
    int64_t n = pass_size(p);
    if (n == 0) {
        return 0;
    }
    cudaStream_t st = (cudaStream_t)stream;
    if (accumulate) {
        offsets_kernel<true><<<blocks_for(n), kThreads, 0, st>>>(*p, n, flag);
    }
    else {
        offsets_kernel<false><<<blocks_for(n), kThreads, 0, st>>>(*p, n, flag);
    }
    return (int)cudaGetLastError();
}

extern "C" int64_t
ca_cuda_mask_scratch_size(int64_t n)
{
    return 1 + (n + kChunk - 1) / kChunk;
}

extern "C" int
ca_cuda_mask_count(const uint8_t *mask, int64_t n, int64_t *scratch, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    int64_t nblocks = (n + kChunk - 1) / kChunk;
    if (nblocks > INT32_MAX) {
        return CA_KERR_UNSUPPORTED;
    }
    if (nblocks > 0) {
        mask_count_kernel<<<(unsigned)nblocks, kThreads, 0, st>>>(mask, n, scratch);
        cudaError_t e = cudaGetLastError();
        if (e != cudaSuccess) {
            return (int)e;
        }
    }
    /* Also when n == 0: it writes scratch[0] = 0. */
    mask_scan_kernel<<<1, kScanThreads, 0, st>>>(scratch, nblocks);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_mask_offsets(const uint8_t *mask, int64_t n, const int64_t *scratch, int ndim,
                     const int64_t *shape, const int64_t *strides, int64_t *out,
                     ca_stream_t stream)
{
    int64_t nblocks = (n + kChunk - 1) / kChunk;
    if (nblocks == 0) {
        return 0;
    }
    if (nblocks > INT32_MAX || ndim > CA_MAX_DIMS || ndim < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    mask_layout lay;
    lay.ndim = ndim;
    for (int k = 0; k < ndim; k++) {
        lay.shape[k] = shape[k];
        lay.strides[k] = strides[k];
    }
    mask_offsets_kernel<<<(unsigned)nblocks, kThreads, 0, (cudaStream_t)stream>>>(
        mask, n, scratch, lay, out);
    return (int)cudaGetLastError();
}

extern "C" int
ca_cuda_masked_fill(const ca_strided *s, int itemsize, const void *value,
                    ca_stream_t stream)
{
    int64_t n = 1;
    for (int k = 0; k < s->ndim; k++) {
        n *= s->shape[k];
    }
    if (n == 0) {
        return 0;
    }
    if (itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    /* The value travels as a kernel parameter. */
    value16 v;
    memset(&v, 0, sizeof v);
    memcpy(v.b, value, (size_t)itemsize);
    uint64_t acc = (uint64_t)(uintptr_t)s->data[0];
    for (int k = 0; k < s->ndim; k++) {
        acc |= (uint64_t)s->strides[0][k];
    }
    int need = itemsize < 8 ? itemsize : 8;
    cudaStream_t st = (cudaStream_t)stream;
    unsigned g = blocks_for(n);
    if (align_of(acc) < need) {
        masked_fill_bytes_kernel<<<g, kThreads, 0, st>>>(*s, n, itemsize, v);
        return (int)cudaGetLastError();
    }
    switch (itemsize) {
    case 1: masked_fill_kernel<1><<<g, kThreads, 0, st>>>(*s, n, v); break;
    case 2: masked_fill_kernel<2><<<g, kThreads, 0, st>>>(*s, n, v); break;
    case 4: masked_fill_kernel<4><<<g, kThreads, 0, st>>>(*s, n, v); break;
    case 8: masked_fill_kernel<8><<<g, kThreads, 0, st>>>(*s, n, v); break;
    case 16: masked_fill_kernel<16><<<g, kThreads, 0, st>>>(*s, n, v); break;
    default:
        masked_fill_bytes_kernel<<<g, kThreads, 0, st>>>(*s, n, itemsize, v);
        break;
    }
    return (int)cudaGetLastError();
}

/* ---- tril / triu ------------------------------------------------------------ */

namespace {

/* One element per thread (w units of U each): its coordinates from the flat
 * index, innermost first (column, row, then the stack dimensions); the index
 * arithmetic in I (32 bits when every index fits, else 64). */
template <class U, class I>
__global__ void
tri_copy_kernel(const ca_strided s, int64_t n, int64_t k, int lower, int w)
{
    const int nd = s.ndim;
    const I ncol = (I)s.shape[nd - 1];
    const I nrow = (I)s.shape[nd - 2];
    for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < n;
         t += (int64_t)gridDim.x * blockDim.x) {
        const I i = (I)t;
        const I col = i % ncol;
        I rem = i / ncol;
        const I row = rem % nrow;
        rem /= nrow;
        int64_t d =
            (int64_t)col * s.strides[0][nd - 1] + (int64_t)row * s.strides[0][nd - 2];
        int64_t m =
            (int64_t)col * s.strides[1][nd - 1] + (int64_t)row * s.strides[1][nd - 2];
        for (int j = nd - 3; j >= 0; j--) {
            const I e = (I)s.shape[j];
            const I c = rem % e;
            rem /= e;
            d += (int64_t)c * s.strides[0][j];
            m += (int64_t)c * s.strides[1][j];
        }
        const int64_t diff = (int64_t)col - (int64_t)row;
        const bool keep = lower ? diff <= k : diff >= k;
        U *dst = reinterpret_cast<U *>(s.data[0] + d);
        const U *src = reinterpret_cast<const U *>(s.data[1] + m);
        for (int e = 0; e < w; e++) {
            dst[e] = keep ? src[e] : (U)0;
        }
    }
}

template <class U>
void
tri_copy_launch(const ca_strided &s, int64_t n, int64_t k, int lower, int w,
                cudaStream_t st)
{
    const unsigned g = blocks_for(n);
    if (n <= (int64_t)INT32_MAX) {
        tri_copy_kernel<U, uint32_t><<<g, kThreads, 0, st>>>(s, n, k, lower, w);
    }
    else {
        tri_copy_kernel<U, uint64_t><<<g, kThreads, 0, st>>>(s, n, k, lower, w);
    }
}

} // namespace

extern "C" int
ca_cuda_tri_copy(const ca_strided *s, int itemsize, int64_t k, int lower,
                 ca_stream_t stream)
{
    int64_t n = 1;
    for (int j = 0; j < s->ndim; j++) {
        n *= s->shape[j];
    }
    if (n == 0) {
        return 0;
    }
    if (s->ndim < 2 || itemsize <= 0 || itemsize > 16) {
        return CA_KERR_UNSUPPORTED;
    }
    /* the widest unit (up to 8 bytes) every address and the itemsize allow */
    uint64_t acc = (uint64_t)itemsize | (uint64_t)(uintptr_t)s->data[0] |
                   (uint64_t)(uintptr_t)s->data[1];
    for (int j = 0; j < s->ndim; j++) {
        acc |= (uint64_t)s->strides[0][j] | (uint64_t)s->strides[1][j];
    }
    int unit = align_of(acc);
    unit = unit > 8 ? 8 : unit;
    const int w = itemsize / unit;
    cudaStream_t st = (cudaStream_t)stream;
    switch (unit) {
    case 8: tri_copy_launch<uint64_t>(*s, n, k, lower, w, st); break;
    case 4: tri_copy_launch<uint32_t>(*s, n, k, lower, w, st); break;
    case 2: tri_copy_launch<uint16_t>(*s, n, k, lower, w, st); break;
    default: tri_copy_launch<uint8_t>(*s, n, k, lower, w, st); break;
    }
    return (int)cudaGetLastError();
}

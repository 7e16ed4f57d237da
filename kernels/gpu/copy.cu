/*
 * copy.cu: the copy family on the GPU (ca_copy_cast, ca_fill behind
 * kernels/dispatch/dispatch_copy.c). s arrives coalesced. One launch per call:
 *
 *   contiguous, same bits    copy_bytes_kernel<V>: one V-byte word per thread
 *                            (16 when dst and src are congruent mod 16), a grid
 *                            covering all words, bytewise head and tail
 *   contiguous, a cast       cast_contig_kernel<D,S>: N elements per thread per
 *                            step, N*size up to 16 bytes on the narrow side
 *   a 2-D transpose, bits    transpose_kernel<T,TILE>: shared-memory tiles, both
 *                            sides coalesced; batch dims unravelled per tile
 *   anything else            strided_kernel<Op>: 32-bit index math with
 *                            precomputed divisors when the layout fits, else 64
 *   fill                     fill_bytes_kernel (a 16-byte pattern) or
 *                            fill_strided_kernel<T>
 *
 * Same-bits copies (same dtype, or signed<->unsigned of one width) are
 * instantiated by element size, not per dtype; casts per (dst, src) pair. A
 * cast whose operands are transposed goes through the strided kernel (no tile).
 * Misaligned operands (a byte-offset view(dtype)) are legal: kernels then load
 * and store through memcpy instead of faulting. Grids other than the same-bits
 * contiguous copy's are capped at one resident wave (SMs x blocks per SM) and the
 * kernels loop.
 */
#include <atomic>

#include "copy_kernels.h"

using namespace ca_copy;

namespace {

/* ---- per-device launch facts, cached --------------------------------------------- */
constexpr int kMaxDevices = 64;
std::atomic<int> g_sms[kMaxDevices];
std::atomic<int> g_blocks_per_sm[kMaxDevices];

cudaError_t
resident_blocks(int *out)
{
    int dev = 0, sms = 0, threads = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err != cudaSuccess) {
        return err;
    }
    if (dev >= 0 && dev < kMaxDevices) {
        sms = g_sms[dev].load(std::memory_order_relaxed);
        threads = g_blocks_per_sm[dev].load(std::memory_order_relaxed);
        if (sms > 0 && threads > 0) {
            *out = sms * threads;
            return cudaSuccess;
        }
    }
    err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) {
        return err;
    }
    err = cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    if (err != cudaSuccess) {
        return err;
    }
    int per_sm = threads / kBlock > 0 ? threads / kBlock : 1;
    if (dev >= 0 && dev < kMaxDevices) {
        g_sms[dev].store(sms, std::memory_order_relaxed);
        g_blocks_per_sm[dev].store(per_sm, std::memory_order_relaxed);
    }
    *out = sms * per_sm;
    return cudaSuccess;
}

/* ---- contiguous, same bits ---------------------------------------------------------- */
/* One V-byte word per thread and a grid that covers all the words (grid-stride
 * only past kCopyMaxGrid blocks): the shape of the element-wise contiguous kernel
 * (ew_kernels.cuh), which moves exp(a) on float32 -- the same traffic as a copy --
 * at ~4280 GB/s on an H200, where a one-wave grid looping over four words per
 * thread copied at ~3920 (and the one-wave cast kernel lags likewise). With
 * many short blocks the block scheduler, not a fixed partition, balances the
 * SMs' share of the stream. */
constexpr int64_t kCopyMaxGrid = (int64_t)1 << 20;

template <int V>
__global__ void
__launch_bounds__(kBlock)
    copy_bytes_kernel(char *__restrict__ dst, const char *__restrict__ src,
                      int64_t nbytes, int64_t head)
{
    typedef typename Word<V>::type W;
    const int64_t tid = (int64_t)blockIdx.x * kBlock + threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * kBlock;
    const int64_t nw = (nbytes - head) / V;
    const W *__restrict__ s = reinterpret_cast<const W *>(src + head);
    W *__restrict__ d = reinterpret_cast<W *>(dst + head);
    for (int64_t i = tid; i < nw; i += step) {
        d[i] = s[i];
    }
    /* Fewer than V bytes before the first and after the last word: block 0. */
    if (tid < head) {
        dst[tid] = src[tid];
    }
    const int64_t t0 = head + nw * V;
    if (tid < nbytes - t0) {
        dst[t0 + tid] = src[t0 + tid];
    }
}

template <int V>
cudaError_t
launch_copy_bytes(char *dst, const char *src, int64_t nbytes, cudaStream_t st)
{
    int64_t head = (int64_t)((V - (uintptr_t)dst % V) % V);
    if (head > nbytes) {
        head = nbytes;
    }
    const int64_t nw = (nbytes - head) / V;
    int64_t blocks = (nw + kBlock - 1) / kBlock;
    blocks = blocks < 1 ? 1 : (blocks > kCopyMaxGrid ? kCopyMaxGrid : blocks);
    copy_bytes_kernel<V><<<(unsigned)blocks, kBlock, 0, st>>>(dst, src, nbytes, head);
    return cudaGetLastError();
}

cudaError_t
copy_bytes(char *dst, const char *src, int64_t nbytes, cudaStream_t st)
{
    uintptr_t diff = (uintptr_t)dst - (uintptr_t)src;
    if (diff % 16 == 0) {
        return launch_copy_bytes<16>(dst, src, nbytes, st);
    }
    if (diff % 8 == 0) {
        return launch_copy_bytes<8>(dst, src, nbytes, st);
    }
    if (diff % 4 == 0) {
        return launch_copy_bytes<4>(dst, src, nbytes, st);
    }
    if (diff % 2 == 0) {
        return launch_copy_bytes<2>(dst, src, nbytes, st);
    }
    return launch_copy_bytes<1>(dst, src, nbytes, st);
}

/* ---- transpose (same bits) ---------------------------------------------------------- */
/* dst is unit-stride along C, src along R; the batch dims are everything else. */
struct TransposeArgs {
    char *dst;
    const char *src;
    int64_t R, C;
    int64_t dR; /* dst stride along R (along C it is the element size) */
    int64_t sC; /* src stride along C (along R it is the element size) */
    int64_t tilesR, tilesC, ntiles;
    int nb;
    int64_t bshape[CA_MAX_DIMS];
    int64_t bst0[CA_MAX_DIMS];
    int64_t bst1[CA_MAX_DIMS];
};

/* 256 threads as TILE x (256 / TILE). The padding makes the column reads of the
 * shared tile hit 32 distinct banks (a row pitch of an odd number of words). */
template <typename T, int TILE>
__global__ void
__launch_bounds__(kBlock) transpose_kernel(TransposeArgs a)
{
    constexpr int ROWS = kBlock / TILE;
    constexpr int PER = TILE / ROWS;
    constexpr int PAD = sizeof(T) < 4 ? 4 / (int)sizeof(T) : 1;
    constexpr int64_t E = sizeof(T);
    __shared__ T tile[TILE][TILE + PAD];
    const int x = threadIdx.x, y = threadIdx.y;
    for (int64_t t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
        const int64_t tc = t % a.tilesC;
        int64_t rest = t / a.tilesC;
        const int64_t tr = rest % a.tilesR;
        int64_t b = rest / a.tilesR;
        int64_t ob0 = 0, ob1 = 0;
        for (int d = a.nb - 1; d >= 0; d--) {
            int64_t q = b / a.bshape[d];
            int64_t r = b - q * a.bshape[d];
            ob0 += r * a.bst0[d];
            ob1 += r * a.bst1[d];
            b = q;
        }
        const int64_t i0 = tr * TILE, j0 = tc * TILE;
        const char *s = a.src + ob1 + (i0 + x) * E + (j0 + y) * a.sC;
        char *d = a.dst + ob0 + (i0 + y) * a.dR + (j0 + x) * E;
        const int64_t sstep = ROWS * a.sC, dstep = ROWS * a.dR;
        if (i0 + TILE <= a.R && j0 + TILE <= a.C) {
            T v[PER];
#pragma unroll
            for (int k = 0; k < PER; k++) {
                v[k] = *reinterpret_cast<const T *>(s + k * sstep);
            }
#pragma unroll
            for (int k = 0; k < PER; k++) {
                tile[y + k * ROWS][x] = v[k];
            }
            __syncthreads();
#pragma unroll
            for (int k = 0; k < PER; k++) {
                *reinterpret_cast<T *>(d + k * dstep) = tile[x][y + k * ROWS];
            }
        }
        else {
#pragma unroll
            for (int k = 0; k < PER; k++) {
                if (i0 + x < a.R && j0 + y + k * ROWS < a.C) {
                    tile[y + k * ROWS][x] = *reinterpret_cast<const T *>(s + k * sstep);
                }
            }
            __syncthreads();
#pragma unroll
            for (int k = 0; k < PER; k++) {
                if (i0 + y + k * ROWS < a.R && j0 + x < a.C) {
                    *reinterpret_cast<T *>(d + k * dstep) = tile[x][y + k * ROWS];
                }
            }
        }
        __syncthreads();
    }
}

template <int E>
cudaError_t
launch_transpose(TransposeArgs &a, int wave, cudaStream_t st)
{
    typedef typename Storage<E>::type T;
    constexpr int TILE = E <= 4 ? 64 : 32;
    a.tilesR = (a.R + TILE - 1) / TILE;
    a.tilesC = (a.C + TILE - 1) / TILE;
    int64_t nbatch = 1;
    for (int d = 0; d < a.nb; d++) {
        nbatch *= a.bshape[d];
    }
    a.ntiles = a.tilesR * a.tilesC * nbatch;
    int64_t blocks = a.ntiles < wave ? a.ntiles : wave;
    transpose_kernel<T, TILE>
        <<<(unsigned)blocks, dim3(TILE, kBlock / TILE), 0, st>>>(a);
    return cudaGetLastError();
}

/* ---- fill --------------------------------------------------------------------------- */
/* Byte o of the run is value byte o % e; the 16-byte words start at `head`, so
 * byte k of every word is value byte (head + k) % e (e divides 16): `word` holds
 * them, and byte k of it is also byte (k - head) mod 16 of the value repeated,
 * which is how the head and the tail bytes are read from it (no indexed
 * parameter array, which would go to local memory). */
__device__ __forceinline__ char
word_byte(uint4 w, int64_t k)
{
    const unsigned k16 = (unsigned)(k & 15);
    const unsigned v = k16 < 8 ? (k16 < 4 ? w.x : w.y) : (k16 < 12 ? w.z : w.w);
    return (char)(v >> (8 * (k16 & 3)));
}

__global__ void
__launch_bounds__(kBlock)
    fill_bytes_kernel(char *__restrict__ p, int64_t nbytes, int64_t head, uint4 word)
{
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int64_t nw = (nbytes - head) / 16;
    uint4 *w = reinterpret_cast<uint4 *>(p + head);
    for (int64_t i = tid; i < nw; i += step) {
        w[i] = word;
    }
    /* Byte o (any o) is word byte (o - head) mod 16. */
    if (tid < head) {
        p[tid] = word_byte(word, tid - head + 16);
    }
    const int64_t t0 = head + nw * 16;
    if (tid < nbytes - t0) {
        p[t0 + tid] = word_byte(word, t0 + tid - head);
    }
}

template <typename T>
__global__ void
__launch_bounds__(kBlock) fill_strided_kernel(StridedArgs a, T value)
{
    const bool al = a.aligned != 0;
    if (a.use32) {
        const uint32_t n = (uint32_t)a.n;
        CA_COPY_GRID_LOOP(uint32_t, i, n)
        {
            int32_t o0, o1;
            offsets32(a, i, &o0, &o1);
            store<T>(a.dst + o0, value, al);
        }
        return;
    }
    CA_COPY_GRID_LOOP(int64_t, i, a.n)
    {
        int64_t o0, o1;
        offsets64(a, i, &o0, &o1);
        store<T>(a.dst + o0, value, al);
    }
}

template <int E>
cudaError_t
launch_fill_strided(const StridedArgs &a, const void *value, int wave, cudaStream_t st)
{
    typedef typename Storage<E>::type T;
    T v;
    memcpy(&v, value, sizeof v);
    fill_strided_kernel<T><<<grid_for(a.n, wave), kBlock, 0, st>>>(a, v);
    return cudaGetLastError();
}

/* ---- dispatch ---------------------------------------------------------------- */
const CastRow &
cast_row_of(int dst_dtype)
{
    return dst_dtype < 7             ? cast_rows_0[dst_dtype]
           : dst_dtype < CA_BFLOAT16 ? cast_rows_1[dst_dtype - 7]
                                     : cast_rows_2[dst_dtype - CA_BFLOAT16];
}

StridedFn
move_strided(int e)
{
    switch (e) {
    case 1: return &launch_strided<MoveOp<Storage<1>::type>>;
    case 2: return &launch_strided<MoveOp<Storage<2>::type>>;
    case 4: return &launch_strided<MoveOp<Storage<4>::type>>;
    case 8: return &launch_strided<MoveOp<Storage<8>::type>>;
    case 16: return &launch_strided<MoveOp<Storage<16>::type>>;
    default: return nullptr;
    }
}

/* Alignment the kernels assume for an element of `dtype` when it is moved as
 * bits (by size) or as its own type (a cast). */
size_t
storage_align(int dtype, bool as_bits)
{
    static const size_t own[CA_NTYPES] = {
        alignof(ca_bool),      alignof(int8_t),        alignof(uint8_t),
        alignof(int16_t),      alignof(uint16_t),      alignof(int32_t),
        alignof(uint32_t),     alignof(int64_t),       alignof(uint64_t),
        alignof(ca_half),      alignof(float),         alignof(double),
        alignof(ca_complex64), alignof(ca_complex128), alignof(ca_bf16),
        alignof(ca_f8e4m3),    alignof(ca_f8e5m2)
    };
    if (!as_bits) {
        return own[dtype];
    }
    switch (ca_dtype_size[dtype]) {
    case 1: return alignof(Storage<1>::type);
    case 2: return alignof(Storage<2>::type);
    case 4: return alignof(Storage<4>::type);
    case 8: return alignof(Storage<8>::type);
    default: return alignof(Storage<16>::type);
    }
}

bool
operand_aligned(const ca_strided *s, int op, size_t align)
{
    if ((uintptr_t)s->data[op] % align != 0) {
        return false;
    }
    for (int d = 0; d < s->ndim; d++) {
        if (s->shape[d] > 1 && s->strides[op][d] % (int64_t)align != 0) {
            return false;
        }
    }
    return true;
}

void
fill_strided_args(StridedArgs *a, const ca_strided *s, bool aligned)
{
    a->dst = s->data[0];
    a->src = s->nops > 1 ? s->data[1] : s->data[0];
    a->ndim = s->ndim;
    a->aligned = aligned ? 1 : 0;
    a->use32 = ca_strided_fits_int32(s);
    a->n = 1;
    for (int d = 0; d < s->ndim; d++) {
        a->shape[d] = s->shape[d];
        a->st0[d] = s->strides[0][d];
        a->st1[d] = s->nops > 1 ? s->strides[1][d] : 0;
        a->n *= s->shape[d];
        if (a->use32) {
            fast_divisor((uint32_t)s->shape[d], &a->mul[d], &a->shr[d]);
        }
    }
}

/* A same-bits copy that is a transpose: dst unit-stride along the innermost dim,
 * src unit-stride along another one, both big enough to fill tiles. */
bool
try_transpose(const ca_strided *s, int e, int wave, cudaStream_t st, cudaError_t *err)
{
    const int L = s->ndim - 1;
    int k = -1;
    if (s->ndim < 2 || s->strides[0][L] != e || s->strides[1][L] == e ||
        s->shape[L] < 8) {
        return false;
    }
    for (int d = 0; d < L; d++) {
        if (s->strides[1][d] == e) {
            k = d;
            break;
        }
    }
    if (k < 0 || s->shape[k] < 8) {
        return false;
    }
    TransposeArgs a;
    a.dst = s->data[0];
    a.src = s->data[1];
    a.R = s->shape[k];
    a.C = s->shape[L];
    a.dR = s->strides[0][k];
    a.sC = s->strides[1][L];
    a.nb = 0;
    for (int d = 0; d < L; d++) {
        if (d == k) {
            continue;
        }
        a.bshape[a.nb] = s->shape[d];
        a.bst0[a.nb] = s->strides[0][d];
        a.bst1[a.nb] = s->strides[1][d];
        a.nb++;
    }
    switch (e) {
    case 1: *err = launch_transpose<1>(a, wave, st); break;
    case 2: *err = launch_transpose<2>(a, wave, st); break;
    case 4: *err = launch_transpose<4>(a, wave, st); break;
    case 8: *err = launch_transpose<8>(a, wave, st); break;
    default: *err = launch_transpose<16>(a, wave, st); break;
    }
    return true;
}

bool
same_view(const ca_strided *s)
{
    if (s->data[0] != s->data[1]) {
        return false;
    }
    for (int d = 0; d < s->ndim; d++) {
        if (s->strides[0][d] != s->strides[1][d]) {
            return false;
        }
    }
    return true;
}

} /* namespace */

/* ---- entry points ------------------------------------------------------------------- */
extern "C" int
ca_copy_cast_cuda(const ca_strided *s, int dst_dtype, int src_dtype, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const int ed = ca_dtype_size[dst_dtype], es = ca_dtype_size[src_dtype];
    const bool bits = ca_copy_is_bitcopy(dst_dtype, src_dtype) != 0;
    int64_t n = 1;
    int wave = 0;
    cudaError_t err;

    for (int d = 0; d < s->ndim; d++) {
        n *= s->shape[d];
    }
    if (n == 0 || (bits && same_view(s))) {
        return 0;
    }
    const bool contiguous = s->ndim == 0 || (s->ndim == 1 && s->strides[0][0] == ed &&
                                             s->strides[1][0] == es);
    if (contiguous && bits) {
        return (int)copy_bytes(s->data[0], s->data[1], n * ed, st); /* no wave cap */
    }
    err = resident_blocks(&wave);
    if (err != cudaSuccess) {
        return (int)err;
    }
    if (contiguous) {
        ContigFn fn = cast_row_of(dst_dtype).contig[src_dtype];
        if (fn == nullptr) {
            return CA_KERR_UNSUPPORTED;
        }
        return (int)fn(s->data[0], s->data[1], n, wave, st);
    }
    const bool aligned = operand_aligned(s, 0, storage_align(dst_dtype, bits)) &&
                         operand_aligned(s, 1, storage_align(src_dtype, bits));
    if (bits && aligned && try_transpose(s, ed, wave, st, &err)) {
        return (int)err;
    }
    StridedArgs a;
    fill_strided_args(&a, s, aligned);
    StridedFn fn = bits ? move_strided(ed) : cast_row_of(dst_dtype).strided[src_dtype];
    if (fn == nullptr) {
        return CA_KERR_UNSUPPORTED;
    }
    return (int)fn(a, wave, st);
}

extern "C" int
ca_fill_cuda(const ca_strided *s, int dtype, const void *value, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
    const int e = ca_dtype_size[dtype];
    int64_t n = 1;
    int wave = 0;
    cudaError_t err;

    for (int d = 0; d < s->ndim; d++) {
        n *= s->shape[d];
    }
    if (n == 0) {
        return 0;
    }
    err = resident_blocks(&wave);
    if (err != cudaSuccess) {
        return (int)err;
    }
    if (s->ndim == 0 || (s->ndim == 1 && s->strides[0][0] == e)) {
        /* One kernel for every memory kind the kernels can reach (device, managed,
         * mapped pinned), where cudaMemsetAsync's support varies. */
        char *p = s->data[0];
        const int64_t nbytes = n * e;
        int64_t head = (int64_t)((16 - (uintptr_t)p % 16) % 16);
        const unsigned char *v = (const unsigned char *)value;
        unsigned char w[16];
        uint4 word;
        if (head > nbytes) {
            head = nbytes;
        }
        for (int k = 0; k < 16; k++) {
            w[k] = v[(head + k) % e];
        }
        memcpy(&word, w, sizeof word);
        fill_bytes_kernel<<<grid_for((nbytes - head) / 16, wave), kBlock, 0, st>>>(
            p, nbytes, head, word);
        return (int)cudaGetLastError();
    }
    StridedArgs a;
    fill_strided_args(&a, s, operand_aligned(s, 0, storage_align(dtype, true)));
    switch (e) {
    case 1: return (int)launch_fill_strided<1>(a, value, wave, st);
    case 2: return (int)launch_fill_strided<2>(a, value, wave, st);
    case 4: return (int)launch_fill_strided<4>(a, value, wave, st);
    case 8: return (int)launch_fill_strided<8>(a, value, wave, st);
    case 16: return (int)launch_fill_strided<16>(a, value, wave, st);
    default: return CA_KERR_UNSUPPORTED;
    }
}

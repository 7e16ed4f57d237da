/*
 * copy_kernels.h: the copy family's device code shared by kernels/gpu/copy.cu (the
 * entry points, same-bits copies, transposes, fills) and kernels/copy_cast_*.cu
 * (the per-pair cast kernels, split over files so nvcc runs them in parallel).
 * Named .h, not .cuh, so setup.py's rebuild check (the kernels' headers) sees it.
 */
#ifndef CA_COPY_KERNELS_H
#define CA_COPY_KERNELS_H

#ifndef __CUDACC__
#error "copy_kernels.h is CUDA C++: include it from .cu files only"
#endif

#include <cuda_runtime.h>

#include <utility>

#include "copy_impl.h"
#include "scalar.h"

namespace ca_copy {

constexpr int kBlock = 256;

/* Blocks for `threads` threads of work, capped at one resident wave. */
inline unsigned
grid_for(int64_t threads, int wave)
{
    int64_t blocks = (threads + kBlock - 1) / kBlock;
    if (blocks > wave) {
        blocks = wave;
    }
    return blocks < 1 ? 1u : (unsigned)blocks;
}

/* ---- storage types by size --------------------------------------------------------- */
struct alignas(8) Bytes16 {
    uint64_t lo, hi;
};
template <int E> struct Storage;
template <> struct Storage<1> {
    typedef uint8_t type;
};
template <> struct Storage<2> {
    typedef uint16_t type;
};
template <> struct Storage<4> {
    typedef uint32_t type;
};
template <> struct Storage<8> {
    typedef uint64_t type;
};
template <> struct Storage<16> {
    typedef Bytes16 type;
};

template <int V> struct Word;
template <> struct Word<1> {
    typedef uint8_t type;
};
template <> struct Word<2> {
    typedef uint16_t type;
};
template <> struct Word<4> {
    typedef uint32_t type;
};
template <> struct Word<8> {
    typedef uint2 type;
};
template <> struct Word<16> {
    typedef uint4 type;
};

template <typename T>
__device__ __forceinline__ T
load(const char *p, bool aligned)
{
    if (aligned) {
        return *reinterpret_cast<const T *>(p);
    }
    T v;
    memcpy(&v, p, sizeof(T));
    return v;
}

template <typename T>
__device__ __forceinline__ void
store(char *p, T v, bool aligned)
{
    if (aligned) {
        *reinterpret_cast<T *>(p) = v;
    }
    else {
        memcpy(p, &v, sizeof(T));
    }
}

/* ---- element operations -------------------------------------------------------- */
template <typename T> struct MoveOp {
    typedef T Src;
    typedef T Dst;
    static __device__ __forceinline__ T apply(T x) { return x; }
};

template <int D, int S> struct CastOp {
    typedef typename ca_ctype<S>::type Src;
    typedef typename ca_ctype<D>::type Dst;
    static __device__ __forceinline__ Dst apply(Src x)
    {
        return ca_caster<D, S>::cast(x);
    }
};

struct StridedArgs;
typedef cudaError_t (*ContigFn)(char *, const char *, int64_t, int, cudaStream_t);
typedef cudaError_t (*StridedFn)(const StridedArgs &, int, cudaStream_t);

/* ---- contiguous, a cast -------------------------------------------------------------- */
/* Elements per vector: 16 bytes on the narrower side, at most 64 on the wider. */
constexpr int
vec_count(int dsize, int ssize)
{
    int lo = dsize < ssize ? dsize : ssize, hi = dsize < ssize ? ssize : dsize;
    int n = 16 / lo;
    while (n > 1 && n * hi > 64) {
        n /= 2;
    }
    return n;
}

template <typename T, int N> struct alignas(sizeof(T) * N) Vec {
    T v[N];
};

/* vec: dst and src are element-aligned and congruent, so after `head` scalar
 * elements both run in aligned N-element vectors. Otherwise a scalar loop
 * (through memcpy when `aligned` is false). */
template <int D, int S>
__global__ void
__launch_bounds__(kBlock)
    cast_contig_kernel(char *__restrict__ dst, const char *__restrict__ src, int64_t n,
                       int64_t head, int vec, int aligned)
{
    typedef CastOp<D, S> Op;
    typedef typename Op::Src ST;
    typedef typename Op::Dst DT;
    constexpr int N = vec_count(sizeof(DT), sizeof(ST));
    typedef Vec<ST, N> VS;
    typedef Vec<DT, N> VD;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    if (!vec) {
        for (int64_t i = tid; i < n; i += step) {
            ST x = load<ST>(src + i * (int64_t)sizeof(ST), aligned != 0);
            store<DT>(dst + i * (int64_t)sizeof(DT), Op::apply(x), aligned != 0);
        }
        return;
    }
    const int64_t nv = (n - head) / N;
    const VS *__restrict__ vs = reinterpret_cast<const VS *>(src + head * sizeof(ST));
    VD *__restrict__ vd = reinterpret_cast<VD *>(dst + head * sizeof(DT));
    int64_t i = tid;
    for (; i + step < nv; i += 2 * step) {
        VS x0 = vs[i], x1 = vs[i + step];
        VD y0, y1;
#pragma unroll
        for (int k = 0; k < N; k++) {
            y0.v[k] = Op::apply(x0.v[k]);
            y1.v[k] = Op::apply(x1.v[k]);
        }
        vd[i] = y0;
        vd[i + step] = y1;
    }
    if (i < nv) {
        VS x0 = vs[i];
        VD y0;
#pragma unroll
        for (int k = 0; k < N; k++) {
            y0.v[k] = Op::apply(x0.v[k]);
        }
        vd[i] = y0;
    }
    const ST *s = reinterpret_cast<const ST *>(src);
    DT *d = reinterpret_cast<DT *>(dst);
    if (tid < head) {
        d[tid] = Op::apply(s[tid]);
    }
    const int64_t t0 = head + nv * N;
    if (tid < n - t0) {
        d[t0 + tid] = Op::apply(s[t0 + tid]);
    }
}

template <int D, int S>
cudaError_t
launch_cast_contig(char *dst, const char *src, int64_t n, int wave, cudaStream_t st)
{
    typedef typename ca_ctype<S>::type ST;
    typedef typename ca_ctype<D>::type DT;
    constexpr int N = vec_count(sizeof(DT), sizeof(ST));
    const uintptr_t a = (uintptr_t)dst, b = (uintptr_t)src;
    int vec = 0, aligned = a % alignof(DT) == 0 && b % alignof(ST) == 0;
    int64_t head = 0, work = n;
    if (a % sizeof(DT) == 0 && b % sizeof(ST) == 0) {
        uintptr_t ea = a / sizeof(DT) % N, eb = b / sizeof(ST) % N;
        if (ea == eb) {
            head = (int64_t)((N - ea) % N);
            if (head < n) {
                vec = 1;
                work = (n - head) / N / 2 + 1;
            }
        }
    }
    cast_contig_kernel<D, S>
        <<<grid_for(work, wave), kBlock, 0, st>>>(dst, src, n, head, vec, aligned);
    return cudaGetLastError();
}

/* ---- strided --------------------------------------------------------------------------- */
struct StridedArgs {
    char *dst;
    const char *src;
    int64_t n;
    int ndim;
    int use32;   /* element count and every offset fit in int32 */
    int aligned; /* every address is a multiple of its storage type's alignment */
    int64_t shape[CA_MAX_DIMS];
    int64_t st0[CA_MAX_DIMS];
    int64_t st1[CA_MAX_DIMS];
    /* q = (umulhi(i, mul) + i) >> shr is i / shape for i < 2^31 */
    uint32_t mul[CA_MAX_DIMS];
    uint32_t shr[CA_MAX_DIMS];
};

inline void
fast_divisor(uint32_t d, uint32_t *mul, uint32_t *shr)
{
    uint32_t s = 0;
    while (s < 32 && (1ull << s) < d) {
        s++;
    }
    *shr = s;
    *mul = (uint32_t)(((1ull << 32) * ((1ull << s) - d)) / d + 1);
}

__device__ __forceinline__ void
offsets32(const StridedArgs &a, uint32_t i, int32_t *o0, int32_t *o1)
{
    int32_t x0 = 0, x1 = 0;
    for (int d = a.ndim - 1; d > 0; d--) {
        uint32_t q = (__umulhi(i, a.mul[d]) + i) >> a.shr[d];
        int32_t r = (int32_t)(i - q * (uint32_t)a.shape[d]);
        x0 += r * (int32_t)a.st0[d];
        x1 += r * (int32_t)a.st1[d];
        i = q;
    }
    *o0 = x0 + (int32_t)i * (int32_t)a.st0[0];
    *o1 = x1 + (int32_t)i * (int32_t)a.st1[0];
}

__device__ __forceinline__ void
offsets64(const StridedArgs &a, int64_t i, int64_t *o0, int64_t *o1)
{
    int64_t x0 = 0, x1 = 0;
    for (int d = a.ndim - 1; d > 0; d--) {
        int64_t q = i / a.shape[d];
        int64_t r = i - q * a.shape[d];
        x0 += r * a.st0[d];
        x1 += r * a.st1[d];
        i = q;
    }
    *o0 = x0 + i * a.st0[0];
    *o1 = x1 + i * a.st1[0];
}

/* A grid-stride loop (the strided kernels' and the fill's): I, a TYPE, takes this
 * thread's elements of [0, N), a grid's worth of threads apart. It declares
 * I##_step before the loop, so it stands only where a declaration may. */
#define CA_COPY_GRID_LOOP(TYPE, I, N)                                                  \
    const TYPE I##_step = (TYPE)gridDim.x * blockDim.x;                                \
    for (TYPE I = (TYPE)blockIdx.x * blockDim.x + threadIdx.x; I < (N); I += I##_step)

/* Src::load gives one source element for a byte offset, Dst stores. Four
 * elements per thread per step, loads before stores, on the 32-bit path. */
template <typename Op>
__global__ void
__launch_bounds__(kBlock) strided_kernel(StridedArgs a)
{
    typedef typename Op::Src ST;
    typedef typename Op::Dst DT;
    const bool al = a.aligned != 0;
    if (a.use32) {
        const uint32_t n = (uint32_t)a.n;
        const uint32_t step = gridDim.x * blockDim.x;
        uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
        for (; i + 3 * step < n; i += 4 * step) {
            int32_t o0[4], o1[4];
            ST v[4];
#pragma unroll
            for (int k = 0; k < 4; k++) {
                offsets32(a, i + k * step, &o0[k], &o1[k]);
                v[k] = load<ST>(a.src + o1[k], al);
            }
#pragma unroll
            for (int k = 0; k < 4; k++) {
                store<DT>(a.dst + o0[k], Op::apply(v[k]), al);
            }
        }
        for (; i < n; i += step) {
            int32_t o0, o1;
            offsets32(a, i, &o0, &o1);
            store<DT>(a.dst + o0, Op::apply(load<ST>(a.src + o1, al)), al);
        }
        return;
    }
    CA_COPY_GRID_LOOP(int64_t, i, a.n)
    {
        int64_t o0, o1;
        offsets64(a, i, &o0, &o1);
        store<DT>(a.dst + o0, Op::apply(load<ST>(a.src + o1, al)), al);
    }
}

template <typename Op>
cudaError_t
launch_strided(const StridedArgs &a, int wave, cudaStream_t st)
{
    strided_kernel<Op><<<grid_for(a.n, wave), kBlock, 0, st>>>(a);
    return cudaGetLastError();
}

/* ---- per-pair dispatch rows ---------------------------------------------------------- */
template <int D, int S>
constexpr bool
bitcopy_pair()
{
    return D == S ||
           (D >= CA_INT8 && D <= CA_UINT64 && S >= CA_INT8 && S <= CA_UINT64 &&
            sizeof(typename ca_ctype<D>::type) == sizeof(typename ca_ctype<S>::type));
}

/* The launchers of one destination dtype, by source dtype; nullptr where the
 * pair is a same-bits copy (copy.cu moves those by size). */
struct CastRow {
    ContigFn contig[CA_NTYPES];
    StridedFn strided[CA_NTYPES];
};

template <int D, int S>
constexpr ContigFn
contig_entry()
{
    if constexpr (bitcopy_pair<D, S>()) {
        return nullptr;
    }
    else {
        return &launch_cast_contig<D, S>;
    }
}

template <int D, int S>
constexpr StridedFn
strided_entry()
{
    if constexpr (bitcopy_pair<D, S>()) {
        return nullptr;
    }
    else {
        return &launch_strided<CastOp<D, S>>;
    }
}

template <int D, int... S>
constexpr CastRow
make_row(std::integer_sequence<int, S...>)
{
    return CastRow{ { contig_entry<D, S>()... }, { strided_entry<D, S>()... } };
}

template <int D>
constexpr CastRow
cast_row()
{
    return make_row<D>(std::make_integer_sequence<int, CA_NTYPES>());
}

/* Rows 0..6 live in copy_cast_0.cu, rows 7..13 in copy_cast_1.cu, ml_dtypes'
 * 14..16 in copy_cast_2.cu. */
extern const CastRow cast_rows_0[7];
extern const CastRow cast_rows_1[CA_BFLOAT16 - 7];
extern const CastRow cast_rows_2[CA_NTYPES - CA_BFLOAT16];

} /* namespace ca_copy */

#endif /* CA_COPY_KERNELS_H */

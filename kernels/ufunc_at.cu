/*
 * ufunc_at.cu: ufunc.at's unbuffered scatter on the GPU (kernels.h:
 * ca_ufunc_at; host_ufunc_at.c dispatches here and has the cpu loop).
 *
 * A thread takes kVec consecutive updates with vector loads (one when the
 * arrays are not aligned to that), grid-stride; the checked form tests each
 * index as it reads it (no separate pass over the positions). The update is
 * atomic: the hardware's own atomics where the op and type have one
 * (add/subtract of 32/64-bit integers, float32, float64 and the parts of
 * complex numbers; max/min and and/or/xor of 32/64-bit integers), else a
 * compare-and-swap loop over the element's 4- or 8-byte word (for 1- and
 * 2-byte types, the aligned 32-bit word holding the element) that applies
 * ufunc_at.h's element math.
 */
#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include <type_traits>

#include "ufunc_at.h"

extern "C" int ca_cuda_ufunc_at(int code, int dtype, void *target, const int64_t *pos,
                                int64_t extent, const void *values, int64_t n,
                                ca_stream_t stream);
extern "C" int ca_cuda_ufunc_at_check(const int64_t *pos, int64_t n, int64_t extent,
                                      int64_t *flag, ca_stream_t stream);
extern "C" int ca_cuda_ufunc_at_checked(int code, int dtype, void *target,
                                        const int64_t *pos, int64_t extent,
                                        const void *values, int64_t n,
                                        const ca_at_report *r, ca_stream_t stream);

namespace {

constexpr int kThreads = 256;
constexpr int64_t kMaxBlocks = 1 << 16;
constexpr int64_t kMaxCheckBlocks = 128;
/* Updates per thread of the vector path (positions and values both aligned to
 * kVec elements): two 16-byte loads of positions, one of float32 values. */
constexpr int kVec = 4;

template <typename T, int W> struct alignas(sizeof(T) * W) at_vec {
    T v[W];
};

/* A checked launch's report (kernels.h, ca_at_report), by value. */
struct at_rep {
    unsigned long long *flag; /* NULL: unchecked (and nchk 0) */
    char *slot;               /* NULL: no host slot */
    unsigned long long *slot_seq;
    unsigned long long seq;
    unsigned nchk; /* the grid's first nchk blocks check, the others scatter */
};

template <typename T, typename F>
__device__ __forceinline__ void
cas_update(T *p, T v, F f)
{
    if constexpr (sizeof(T) == 8) {
        unsigned long long *w = reinterpret_cast<unsigned long long *>(p);
        unsigned long long old = *w, assumed;
        do {
            assumed = old;
            T a;
            memcpy(&a, &assumed, sizeof a);
            const T r = f(a, v);
            unsigned long long nw;
            memcpy(&nw, &r, sizeof nw);
            if (nw == assumed) {
                return;
            }
            old = atomicCAS(w, assumed, nw);
        } while (old != assumed);
    }
    else if constexpr (sizeof(T) == 4) {
        unsigned int *w = reinterpret_cast<unsigned int *>(p);
        unsigned int old = *w, assumed;
        do {
            assumed = old;
            T a;
            memcpy(&a, &assumed, sizeof a);
            const T r = f(a, v);
            unsigned int nw;
            memcpy(&nw, &r, sizeof nw);
            if (nw == assumed) {
                return;
            }
            old = atomicCAS(w, assumed, nw);
        } while (old != assumed);
    }
    else {
        static_assert(sizeof(T) == 1 || sizeof(T) == 2, "1, 2, 4 or 8 bytes");
        /* little-endian: the element is the word's bytes [shift / 8, ...) */
        const uintptr_t addr = reinterpret_cast<uintptr_t>(p);
        unsigned int *w = reinterpret_cast<unsigned int *>(addr & ~(uintptr_t)3);
        const unsigned int shift = (unsigned int)(addr & 3) * 8u;
        const unsigned int mask = (sizeof(T) == 1 ? 0xffu : 0xffffu) << shift;
        unsigned int old = *w, assumed;
        do {
            assumed = old;
            const unsigned int bits = (assumed & mask) >> shift;
            T a;
            memcpy(&a, &bits, sizeof a);
            const T r = f(a, v);
            unsigned int rb = 0;
            memcpy(&rb, &r, sizeof r);
            const unsigned int nw = (assumed & ~mask) | ((rb << shift) & mask);
            if (nw == assumed) {
                return;
            }
            old = atomicCAS(w, assumed, nw);
        } while (old != assumed);
    }
}

template <typename T, typename U> constexpr bool is = std::is_same<T, U>::value;

template <int CODE, typename T, typename F>
__device__ __forceinline__ void
update(T *p, T v, F f)
{
    constexpr bool add = CODE == CA_AT_ADD, sub = CODE == CA_AT_SUBTRACT;
    if constexpr ((add || sub) && (is<T, float> || is<T, double>)) {
        atomicAdd(p, add ? v : -v);
    }
    else if constexpr ((add || sub) && (is<T, ca_complex64> || is<T, ca_complex128>)) {
        atomicAdd(&p->re, add ? v.re : -v.re);
        atomicAdd(&p->im, add ? v.im : -v.im);
    }
    else if constexpr ((add || sub) && (is<T, int32_t> || is<T, uint32_t>)) {
        /* wrapping arithmetic: a - v == a + (0 - v) modulo 2^32 */
        const unsigned int u = (unsigned int)v;
        atomicAdd(reinterpret_cast<unsigned int *>(p), add ? u : 0u - u);
    }
    else if constexpr ((add || sub) && (is<T, int64_t> || is<T, uint64_t>)) {
        const unsigned long long u = (unsigned long long)v;
        atomicAdd(reinterpret_cast<unsigned long long *>(p), add ? u : 0ull - u);
    }
    else if constexpr ((CODE == CA_AT_MAXIMUM || CODE == CA_AT_FMAX) &&
                       is<T, int32_t>) {
        atomicMax(reinterpret_cast<int *>(p), (int)v);
    }
    else if constexpr ((CODE == CA_AT_MAXIMUM || CODE == CA_AT_FMAX) &&
                       is<T, uint32_t>) {
        atomicMax(reinterpret_cast<unsigned int *>(p), (unsigned int)v);
    }
    else if constexpr ((CODE == CA_AT_MAXIMUM || CODE == CA_AT_FMAX) &&
                       is<T, int64_t>) {
        atomicMax(reinterpret_cast<long long *>(p), (long long)v);
    }
    else if constexpr ((CODE == CA_AT_MAXIMUM || CODE == CA_AT_FMAX) &&
                       is<T, uint64_t>) {
        atomicMax(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
    }
    else if constexpr ((CODE == CA_AT_MINIMUM || CODE == CA_AT_FMIN) &&
                       is<T, int32_t>) {
        atomicMin(reinterpret_cast<int *>(p), (int)v);
    }
    else if constexpr ((CODE == CA_AT_MINIMUM || CODE == CA_AT_FMIN) &&
                       is<T, uint32_t>) {
        atomicMin(reinterpret_cast<unsigned int *>(p), (unsigned int)v);
    }
    else if constexpr ((CODE == CA_AT_MINIMUM || CODE == CA_AT_FMIN) &&
                       is<T, int64_t>) {
        atomicMin(reinterpret_cast<long long *>(p), (long long)v);
    }
    else if constexpr ((CODE == CA_AT_MINIMUM || CODE == CA_AT_FMIN) &&
                       is<T, uint64_t>) {
        atomicMin(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
    }
    else if constexpr (CODE == CA_AT_AND && sizeof(T) == 4 && !is<T, float>) {
        atomicAnd(reinterpret_cast<unsigned int *>(p), (unsigned int)v);
    }
    else if constexpr (CODE == CA_AT_AND && sizeof(T) == 8 && !is<T, double>) {
        atomicAnd(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
    }
    else if constexpr (CODE == CA_AT_OR && sizeof(T) == 4 && !is<T, float>) {
        atomicOr(reinterpret_cast<unsigned int *>(p), (unsigned int)v);
    }
    else if constexpr (CODE == CA_AT_OR && sizeof(T) == 8 && !is<T, double>) {
        atomicOr(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
    }
    else if constexpr (CODE == CA_AT_XOR && sizeof(T) == 4 && !is<T, float>) {
        atomicXor(reinterpret_cast<unsigned int *>(p), (unsigned int)v);
    }
    else if constexpr (CODE == CA_AT_XOR && sizeof(T) == 8 && !is<T, double>) {
        atomicXor(reinterpret_cast<unsigned long long *>(p), (unsigned long long)v);
    }
    else {
        cas_update(p, v, f);
    }
}

/* One update at index q; with `check`, an index outside [-extent, extent) is
 * skipped. */
template <int CODE, typename T, typename F>
__device__ __forceinline__ void
apply_one(T *t, int64_t q, int64_t extent, T v, F f, bool check)
{
    if (check && (q < -extent || q >= extent)) {
        return;
    }
    update<CODE, T>(t + (q < 0 ? q + extent : q), v, f);
}

__device__ __forceinline__ void
note_bad(int64_t q, int64_t extent, bool &bad, int64_t &offender)
{
    if (q < -extent || q >= extent) {
        bad = true;
        offender = q;
    }
}

/* The checking blocks of a checked launch (blockIdx.x < nchk): every index, W
 * at a time with vector loads and four loads in flight per thread; a thread
 * reports the last offender it saw, one of them wins. The last block to finish
 * copies flag[0..1] into the host slot, then stores the sequence number there
 * (readback.cu's order: value, system fence, number). */
template <int W>
__device__ __forceinline__ void
check_blocks(const int64_t *__restrict__ pos, int64_t n, int64_t extent,
             const at_rep &r)
{
    constexpr int U = 4;
    bool bad = false;
    int64_t offender = 0;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)r.nchk * blockDim.x;
    const int64_t nv = n / W;
    const at_vec<int64_t, W> *pv = reinterpret_cast<const at_vec<int64_t, W> *>(pos);
    for (int64_t j = tid; j < nv; j += U * step) {
        at_vec<int64_t, W> q[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (j + u * step < nv) {
                q[u] = pv[j + u * step];
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (j + u * step < nv) {
#pragma unroll
                for (int e = 0; e < W; e++) {
                    note_bad(q[u].v[e], extent, bad, offender);
                }
            }
        }
    }
    if (W > 1 && tid < n - nv * W) {
        note_bad(__ldg(pos + nv * W + tid), extent, bad, offender);
    }
    if (bad && atomicCAS(r.flag, 0ull, 1ull) == 0ull) {
        atomicExch(r.flag + 1, (unsigned long long)offender);
    }
    __syncthreads(); /* the block's reports before its count */
    if (threadIdx.x == 0) {
        __threadfence();
        const unsigned long long done = atomicAdd(r.flag + 2, 1ull);
        if (done == r.nchk - 1 && r.slot != nullptr) {
            __threadfence();
            unsigned long long w[2];
            w[0] = atomicAdd(r.flag, 0ull);
            w[1] = atomicAdd(r.flag + 1, 0ull);
            memcpy(r.slot, w, sizeof w);
            __threadfence_system();
            *reinterpret_cast<volatile unsigned long long *>(r.slot_seq) = r.seq;
        }
    }
}

/* The scatter: W consecutive updates per thread (vector loads of positions and
 * values when W > 1), grid-stride over the blocks past the checking ones; the
 * last n % W by their first threads. A checked launch skips a bad index (the
 * checking blocks report it). */
template <int CODE, typename T, typename F, int W>
__global__ void
at_kernel(T *t, const int64_t *__restrict__ pos, int64_t extent,
          const T *__restrict__ v, int64_t n, const at_rep r)
{
    if (blockIdx.x < r.nchk) {
        check_blocks<W>(pos, n, extent, r);
        return;
    }
    F f{};
    const bool check = r.flag != nullptr;
    const int64_t tid = (int64_t)(blockIdx.x - r.nchk) * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)(gridDim.x - r.nchk) * blockDim.x;
    const int64_t nv = n / W;
    for (int64_t j = tid; j < nv; j += step) {
        if constexpr (W == 1) {
            apply_one<CODE, T>(t, __ldg(pos + j), extent, v[j], f, check);
        }
        else {
            const at_vec<int64_t, W> q =
                reinterpret_cast<const at_vec<int64_t, W> *>(pos)[j];
            const at_vec<T, W> x = reinterpret_cast<const at_vec<T, W> *>(v)[j];
#pragma unroll
            for (int e = 0; e < W; e++) {
                apply_one<CODE, T>(t, q.v[e], extent, x.v[e], f, check);
            }
        }
    }
    if (W > 1 && tid < n - nv * W) {
        const int64_t i = nv * W + tid;
        apply_one<CODE, T>(t, __ldg(pos + i), extent, v[i], f, check);
    }
}

/* The vector path when both arrays start on kVec-element boundaries (any
 * base allocation does; a view one element in does not). A checked launch
 * puts its checking blocks first, so that they run first (blocks start in
 * order in practice; the result does not depend on it): a few, each thread
 * reading at least 64 vectors, as the scatter, bound by its atomics, leaves
 * memory bandwidth to spare. */
template <int CODE, typename T, typename F>
int
launch_at(T *t, const int64_t *pos, int64_t extent, const T *v, int64_t n, at_rep r,
          cudaStream_t st)
{
    const bool vec = (uintptr_t)pos % (kVec * sizeof(int64_t)) == 0 &&
                     (uintptr_t)v % (kVec * sizeof(T)) == 0;
    const int64_t work = vec ? (n + kVec - 1) / kVec : n;
    int64_t b = (work + kThreads - 1) / kThreads;
    b = b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b);
    if (r.flag != nullptr) {
        const int64_t c = work / ((int64_t)kThreads * 64);
        r.nchk = (unsigned)(c < 1 ? 1 : (c > kMaxCheckBlocks ? kMaxCheckBlocks : c));
    }
    const unsigned grid = (unsigned)b + r.nchk;
    if (vec) {
        at_kernel<CODE, T, F, kVec><<<grid, kThreads, 0, st>>>(t, pos, extent, v, n, r);
    }
    else {
        at_kernel<CODE, T, F, 1><<<grid, kThreads, 0, st>>>(t, pos, extent, v, n, r);
    }
    return (int)cudaGetLastError();
}

/* One pass over the indices before any update, so that a bad index leaves the
 * target unchanged (as NumPy): W indices per thread (vector loads when W > 1),
 * the last n % W by the grid's first threads. A thread reports the last
 * offender it saw. */
template <int W>
__global__ void
at_check_kernel(const int64_t *__restrict__ pos, int64_t n, int64_t extent,
                unsigned long long *flag)
{
    bool bad = false;
    int64_t offender = 0;
    const int64_t tid = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int64_t step = (int64_t)gridDim.x * blockDim.x;
    const int64_t nv = n / W;
    for (int64_t j = tid; j < nv; j += step) {
        const at_vec<int64_t, W> q =
            reinterpret_cast<const at_vec<int64_t, W> *>(pos)[j];
#pragma unroll
        for (int e = 0; e < W; e++) {
            if (q.v[e] < -extent || q.v[e] >= extent) {
                bad = true;
                offender = q.v[e];
            }
        }
    }
    if (W > 1 && tid < n - nv * W) {
        const int64_t q = __ldg(pos + nv * W + tid);
        if (q < -extent || q >= extent) {
            bad = true;
            offender = q;
        }
    }
    if (bad && atomicCAS(flag, 0ull, 1ull) == 0ull) {
        atomicExch(flag + 1, (unsigned long long)offender);
    }
}

/* The pairs with a hardware atomic never call theirs. */
#pragma nv_diag_suppress 177
#define CA_P_FUNCTOR(c, fn, dt, T, sfx, lk)                                            \
    struct at_##fn##_##dt {                                                            \
        __device__ __forceinline__ T operator()(T a, T b) const                        \
        {                                                                              \
            return ca_at_##fn##_##dt(a, b);                                            \
        }                                                                              \
    };
CA_AT_FOR_EACH(CA_P_FUNCTOR)
#undef CA_P_FUNCTOR
#pragma nv_diag_default 177

} // namespace

static int
ufunc_at_launch(int code, int dtype, void *target, const int64_t *pos, int64_t extent,
                const void *values, int64_t n, const at_rep &r, ca_stream_t stream)
{
    cudaStream_t st = (cudaStream_t)stream;
#define CA_P_LAUNCH(c, fn, dt, T, sfx, lk)                                             \
    if (code == (c) && dtype == (dt)) {                                                \
        return launch_at<c, T, at_##fn##_##dt>((T *)target, pos, extent,               \
                                               (const T *)values, n, r, st);           \
    }
    CA_AT_FOR_EACH(CA_P_LAUNCH)
#undef CA_P_LAUNCH
    return CA_KERR_UNSUPPORTED;
}

extern "C" int
ca_cuda_ufunc_at(int code, int dtype, void *target, const int64_t *pos, int64_t extent,
                 const void *values, int64_t n, ca_stream_t stream)
{
    const at_rep r = { nullptr, nullptr, nullptr, 0, 0 };
    return ufunc_at_launch(code, dtype, target, pos, extent, values, n, r, stream);
}

extern "C" int
ca_cuda_ufunc_at_checked(int code, int dtype, void *target, const int64_t *pos,
                         int64_t extent, const void *values, int64_t n,
                         const ca_at_report *rep, ca_stream_t stream)
{
    const at_rep r = { reinterpret_cast<unsigned long long *>(rep->flag), rep->slot,
                       rep->slot_seq, rep->seq, 0 };
    return ufunc_at_launch(code, dtype, target, pos, extent, values, n, r, stream);
}

extern "C" int
ca_cuda_ufunc_at_check(const int64_t *pos, int64_t n, int64_t extent, int64_t *flag,
                       ca_stream_t stream)
{
    const bool vec = (uintptr_t)pos % (kVec * sizeof(int64_t)) == 0;
    const int64_t work = vec ? (n + kVec - 1) / kVec : n;
    int64_t b = (work + kThreads - 1) / kThreads;
    b = b < 1 ? 1 : (b > kMaxBlocks ? kMaxBlocks : b);
    cudaStream_t st = (cudaStream_t)stream;
    unsigned long long *f = reinterpret_cast<unsigned long long *>(flag);
    if (vec) {
        at_check_kernel<kVec><<<(unsigned)b, kThreads, 0, st>>>(pos, n, extent, f);
    }
    else {
        at_check_kernel<1><<<(unsigned)b, kThreads, 0, st>>>(pos, n, extent, f);
    }
    return (int)cudaGetLastError();
}

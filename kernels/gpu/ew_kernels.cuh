/*
 * ew_kernels.cuh: the two GPU kernels every element-wise loop is stamped from, and
 * their launcher. Included by the generated build/generated/ew_gpu_*.cu files,
 * which define one functor per (op, loop):
 *
 *   struct Op { typedef O, I0, I1, I2;  static constexpr int nin, vec;
 *               static __device__ O f(I0, I1, I2); };   // storage types in and out
 *
 * - Contiguous kernel: every array operand is one dense run, aligned to `vec`
 *   elements; each thread moves `vec` elements per operand with one vector load
 *   (16 bytes for the widest type), 32-bit indices, grid-stride loop.
 * - Dense kernel: one dense run per array operand that is not aligned to whole
 *   vectors (a view one element off, as diff's a[1:] - a[:-1]): each thread moves
 *   CA_EW_DENSE_U elements a block-width apart (coalesced, all loads in flight
 *   before the math), 32-bit indices, grid-stride loop.
 * - Strided kernel: one element per thread; the coalesced dimensions (innermost
 *   first) turn the index into per-operand byte offsets with 32-bit division.
 *   Two dimensions with rows of a block or more (broadcasts such as a[:, None] + b
 *   and ufunc.outer) take its rows path: CA_EW_ROWS_U elements per thread, offsets
 *   stepped rather than divided.
 * - Row-vector kernel: two dimensions whose rows are dense in the output and in
 *   every input not broadcast along them, aligned to whole vectors (outer, a row
 *   or column broadcast): `vec` elements of each of CA_EW_ROWVEC_R rows per
 *   thread with vector loads and stores.
 * - Either kernel reads an input from the launch parameters instead of memory when
 *   its bit of `mask` is set (a Python scalar costs no copy to the device); the
 *   test is the same for the whole grid, so warps never diverge on it.
 */
#ifndef CA_EW_KERNELS_CUH
#define CA_EW_KERNELS_CUH

#include <cuda_runtime.h>
#include <stdint.h>
#include <string.h>

#include "ew_internal.h"
#include "ew_math.h"
#include "special_math.h"

/* The type of an unused input slot. */
struct ca_ew_none {
    unsigned char unused;
};

template <class T, int E> struct alignas(sizeof(T) * E) ca_ew_vec {
    T v[E];
};

template <class T>
__device__ __forceinline__ T
ca_ew_scalar(const ca_scalar_arg &s)
{
    T v;
    memcpy(&v, s.bytes, sizeof(T));
    return v;
}

/* Input `k` (1-based operand index) as a vector of E elements at vector index v. */
template <class T, int E>
__device__ __forceinline__ ca_ew_vec<T, E>
ca_ew_load_vec(const ca_ew_cparams &p, int k, uint32_t v)
{
    ca_ew_vec<T, E> r;
    if (p.mask & (1u << (k - 1))) {
        const T s = ca_ew_scalar<T>(p.scalar[k - 1]);
#pragma unroll
        for (int e = 0; e < E; e++) {
            r.v[e] = s;
        }
    }
    else {
        r = reinterpret_cast<const ca_ew_vec<T, E> *>(p.ptr[k])[v];
    }
    return r;
}

template <class T>
__device__ __forceinline__ T
ca_ew_load_one(const ca_ew_cparams &p, int k, int64_t byte_offset)
{
    if (p.mask & (1u << (k - 1))) {
        return ca_ew_scalar<T>(p.scalar[k - 1]);
    }
    return *reinterpret_cast<const T *>(p.ptr[k] + byte_offset);
}

/* x = input k through the loader above (T from x's type), for ca_ew_load_ins. */
template <class T>
__device__ __forceinline__ void
ca_ew_set_one(T &x, const ca_ew_cparams &p, int k, int64_t byte_offset)
{
    x = ca_ew_load_one<T>(p, k, byte_offset);
}

/* Op's inputs into a, b and c, each by load(x, k) (k the 1-based operand index);
 * the slots past Op::nin keep the zeros they start with. The strided and
 * row-vector kernels read their inputs through this, whatever their addressing.
 * The contiguous and dense kernels keep their loads written out on purpose:
 * through this helper nvcc scheduled them differently for some ops (their SASS
 * changed: complex64's contiguous tail, the dense loop of some comparisons), and
 * they are the kernels every dense op runs. */
template <class Op, class A, class B, class C, class Load>
__device__ __forceinline__ void
ca_ew_load_ins(A &a, B &b, C &c, Load load)
{
    load(a, 1);
    if constexpr (Op::nin >= 2) {
        load(b, 2);
    }
    if constexpr (Op::nin >= 3) {
        load(c, 3);
    }
}

/* The functor's storage types under short names, as every kernel below uses them. */
#define CA_EW_OP_TYPES(Op)                                                             \
    typedef typename Op::O O;                                                          \
    typedef typename Op::I0 I0;                                                        \
    typedef typename Op::I1 I1;                                                        \
    typedef typename Op::I2 I2

template <class Op>
__global__ void
__launch_bounds__(CA_EW_BLOCK) ca_ew_contig_kernel(const ca_ew_cparams p)
{
    CA_EW_OP_TYPES(Op);
    constexpr int E = Op::vec;
    const uint32_t n = p.n;
    const uint32_t nvec = n / E;
    const uint32_t step = gridDim.x * CA_EW_BLOCK;

    for (uint32_t v = blockIdx.x * CA_EW_BLOCK + threadIdx.x; v < nvec; v += step) {
        ca_ew_vec<I0, E> a = ca_ew_load_vec<I0, E>(p, 1, v);
        ca_ew_vec<I1, E> b{};
        ca_ew_vec<I2, E> c{};
        if constexpr (Op::nin >= 2) {
            b = ca_ew_load_vec<I1, E>(p, 2, v);
        }
        if constexpr (Op::nin >= 3) {
            c = ca_ew_load_vec<I2, E>(p, 3, v);
        }
        ca_ew_vec<O, E> r;
#pragma unroll
        for (int e = 0; e < E; e++) {
            r.v[e] = Op::f(a.v[e], b.v[e], c.v[e]);
        }
        reinterpret_cast<ca_ew_vec<O, E> *>(p.ptr[0])[v] = r;
    }
    /* The last n % E elements: block 0's first threads, one each. */
    if (E > 1 && blockIdx.x == 0) {
        const uint32_t i = nvec * E + threadIdx.x;
        if (i < n) {
            I0 a = ca_ew_load_one<I0>(p, 1, (int64_t)i * (int64_t)sizeof(I0));
            I1 b{};
            I2 c{};
            if constexpr (Op::nin >= 2) {
                b = ca_ew_load_one<I1>(p, 2, (int64_t)i * (int64_t)sizeof(I1));
            }
            if constexpr (Op::nin >= 3) {
                c = ca_ew_load_one<I2>(p, 3, (int64_t)i * (int64_t)sizeof(I2));
            }
            reinterpret_cast<O *>(p.ptr[0])[i] = Op::f(a, b, c);
        }
    }
}

#define CA_EW_DENSE_U 8

template <class Op>
__global__ void
__launch_bounds__(CA_EW_BLOCK) ca_ew_dense_kernel(const ca_ew_cparams p)
{
    CA_EW_OP_TYPES(Op);
    constexpr int U = CA_EW_DENSE_U;
    const uint32_t n = p.n; /* < 2^31 (the dispatcher cuts runs at 2^30) */
    const uint32_t tile = CA_EW_BLOCK * U;
    const uint32_t step = gridDim.x * tile;

    for (uint32_t base = blockIdx.x * tile; base < n; base += step) {
        I0 a[U] = {};
        I1 b[U] = {};
        I2 c[U] = {};
#pragma unroll
        for (int u = 0; u < U; u++) {
            const uint32_t i = base + (uint32_t)u * CA_EW_BLOCK + threadIdx.x;
            if (i < n) {
                a[u] = ca_ew_load_one<I0>(p, 1, (int64_t)i * (int64_t)sizeof(I0));
                if constexpr (Op::nin >= 2) {
                    b[u] = ca_ew_load_one<I1>(p, 2, (int64_t)i * (int64_t)sizeof(I1));
                }
                if constexpr (Op::nin >= 3) {
                    c[u] = ca_ew_load_one<I2>(p, 3, (int64_t)i * (int64_t)sizeof(I2));
                }
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            const uint32_t i = base + (uint32_t)u * CA_EW_BLOCK + threadIdx.x;
            if (i < n) {
                reinterpret_cast<O *>(p.ptr[0])[i] = Op::f(a[u], b[u], c[u]);
            }
        }
    }
}

/* Elements per thread of the two-dimension strided path. */
#define CA_EW_ROWS_U 4

/* Whether the strided kernel takes its two-dimension path: rows at least a block
 * wide, so that a thread's column steps wrap at most once per step. */
static inline __host__ __device__ bool
ca_ew_rows_path(const ca_ew_sparams &p)
{
    return p.ndim == 2 && p.shape[0] >= CA_EW_BLOCK;
}

/* Two dimensions (the broadcasts a[:, None] op b, a op b[None, :], outer): each
 * thread moves CA_EW_ROWS_U elements a block-width apart (coalesced, all loads in
 * flight before the math) and steps its byte offsets instead of dividing: one
 * 32-bit division per U elements, one 64-bit add per operand and element. */
template <class Op>
__device__ __forceinline__ void
ca_ew_rows(const ca_ew_sparams &p)
{
    CA_EW_OP_TYPES(Op);
    constexpr int NOPS = Op::nin + 1;
    constexpr int U = CA_EW_ROWS_U;
    const uint32_t n = p.c.n, w = p.shape[0];
    const uint32_t tile = CA_EW_BLOCK * U;
    int64_t step[NOPS], wrap[NOPS];
#pragma unroll
    for (int k = 0; k < NOPS; k++) {
        step[k] = (int64_t)CA_EW_BLOCK * p.strides[k][0];
        wrap[k] = p.strides[k][1] - (int64_t)w * p.strides[k][0];
    }
    for (uint32_t base = blockIdx.x * tile; base < n; base += gridDim.x * tile) {
        const uint32_t i0 = base + threadIdx.x;
        const uint32_t r = i0 / w;
        uint32_t c = i0 - r * w;
        int64_t off[NOPS];
#pragma unroll
        for (int k = 0; k < NOPS; k++) {
            off[k] = (int64_t)r * p.strides[k][1] + (int64_t)c * p.strides[k][0];
        }
        I0 a[U] = {};
        I1 b[U] = {};
        I2 d[U] = {};
        int64_t o[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            o[u] = off[0];
            if (i0 + (uint32_t)u * CA_EW_BLOCK < n) {
                ca_ew_load_ins<Op>(a[u], b[u], d[u], [&](auto &x, int k) {
                    ca_ew_set_one(x, p.c, k, off[k]);
                });
            }
            c += CA_EW_BLOCK; /* w >= CA_EW_BLOCK: wraps at most once */
            const bool wrapped = c >= w;
            c = wrapped ? c - w : c;
#pragma unroll
            for (int k = 0; k < NOPS; k++) {
                off[k] += step[k] + (wrapped ? wrap[k] : 0);
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (i0 + (uint32_t)u * CA_EW_BLOCK < n) {
                *reinterpret_cast<O *>(p.c.ptr[0] + o[u]) = Op::f(a[u], b[u], d[u]);
            }
        }
    }
}

template <class Op>
__global__ void
__launch_bounds__(CA_EW_BLOCK) ca_ew_strided_kernel(const ca_ew_sparams p)
{
    CA_EW_OP_TYPES(Op);
    constexpr int NOPS = Op::nin + 1;
    const uint32_t step = gridDim.x * CA_EW_BLOCK;

    if (ca_ew_rows_path(p)) {
        ca_ew_rows<Op>(p);
        return;
    }

    for (uint32_t i = blockIdx.x * CA_EW_BLOCK + threadIdx.x; i < p.c.n; i += step) {
        int64_t off[NOPS];
#pragma unroll
        for (int k = 0; k < NOPS; k++) {
            off[k] = 0;
        }
        uint32_t r = i;
#pragma unroll
        for (int d = 0; d < CA_EW_KDIMS; d++) {
            uint32_t coord;
            if (d == p.ndim - 1) {
                coord = r;
            }
            else {
                const uint32_t q = r / p.shape[d];
                coord = r - q * p.shape[d];
                r = q;
            }
#pragma unroll
            for (int k = 0; k < NOPS; k++) {
                off[k] += (int64_t)coord * p.strides[k][d];
            }
            if (d == p.ndim - 1) {
                break;
            }
        }
        I0 a;
        I1 b{};
        I2 c{};
        ca_ew_load_ins<Op>(a, b, c,
                           [&](auto &x, int k) { ca_ew_set_one(x, p.c, k, off[k]); });
        *reinterpret_cast<O *>(p.c.ptr[0] + off[0]) = Op::f(a, b, c);
    }
}

/* Input k (1-based) of a row-vector tile as E elements: the launch scalar, the
 * row's one element (inner stride 0: a broadcast along the row), or E dense
 * elements at vector index cv of the row. The choice is the same for the whole
 * grid, so warps do not diverge on it. */
template <class T, int E>
__device__ __forceinline__ ca_ew_vec<T, E>
ca_ew_row_load(const ca_ew_sparams &p, int k, uint32_t r, uint32_t cv)
{
    ca_ew_vec<T, E> v;
    if (p.c.mask & (1u << (k - 1))) {
        const T s = ca_ew_scalar<T>(p.c.scalar[k - 1]);
#pragma unroll
        for (int e = 0; e < E; e++) {
            v.v[e] = s;
        }
        return v;
    }
    const char *row = p.c.ptr[k] + (int64_t)r * p.strides[k][1];
    if (p.strides[k][0] == 0) {
        const T s = *reinterpret_cast<const T *>(row);
#pragma unroll
        for (int e = 0; e < E; e++) {
            v.v[e] = s;
        }
        return v;
    }
    return reinterpret_cast<const ca_ew_vec<T, E> *>(row)[cv];
}

/* x = ca_ew_row_load (T and E from x's type), for ca_ew_load_ins. */
template <class T, int E>
__device__ __forceinline__ void
ca_ew_set_row(ca_ew_vec<T, E> &x, const ca_ew_sparams &p, int k, uint32_t r,
              uint32_t cv)
{
    x = ca_ew_row_load<T, E>(p, k, r, cv);
}

/* Rows of one row-vector tile: a thread moves one vector column of this many
 * rows, every load in flight before the math and the stores. */
#define CA_EW_ROWVEC_R 4

/* A result at least this big (bytes) is stored with evict-first (streaming)
 * stores: it cannot stay in L2 anyway, and the write stream then does not push
 * out lines the kernel still reads. H200, 4096 x 4096 float32 outer: 17.7 us
 * with plain stores, 16.7 with streaming ones (cudaMemsetAsync of the same 64
 * MiB: 17.4). */
#define CA_EW_STREAM_BYTES ((uint64_t)32 << 20)

/* *p = v, through the L2's evict-first policy when `stream` (st.global.cs). */
template <class V>
__device__ __forceinline__ void
ca_ew_store(V *p, const V &v, bool stream)
{
    if (stream && sizeof(V) == 16) {
        int4 t;
        memcpy(&t, &v, sizeof t);
        __stcs(reinterpret_cast<int4 *>(p), t);
    }
    else if (stream && sizeof(V) == 8) {
        int2 t;
        memcpy(&t, &v, sizeof t);
        __stcs(reinterpret_cast<int2 *>(p), t);
    }
    else {
        *p = v;
    }
}

/* Two dimensions whose rows are dense, aligned runs of whole vectors in the
 * output and in every input that is not broadcast along them (a[:, None] op b,
 * a op w[None, :], ufunc.outer; the dispatcher checks): a block takes a tile of
 * CA_EW_ROWVEC_R rows by CA_EW_BLOCK vectors, each thread one vector column of
 * it, with vector loads and stores. One division per tile, none per thread; a
 * thread has CA_EW_ROWVEC_R stores (64 bytes for 16-byte vectors) in flight,
 * which a write-only result (outer) needs to keep the memory busy; a result of
 * CA_EW_STREAM_BYTES or more is stored with streaming stores. */
template <class Op>
__global__ void
__launch_bounds__(CA_EW_BLOCK) ca_ew_rowvec_kernel(const ca_ew_sparams p)
{
    CA_EW_OP_TYPES(Op);
    constexpr int E = Op::vec;
    constexpr int R = CA_EW_ROWVEC_R;
    const uint32_t wv = p.shape[0] / E, rows = p.shape[1];
    const uint32_t tpr = (wv + CA_EW_BLOCK - 1) / CA_EW_BLOCK;
    /* < 2^31: rows * wv < 2^31 and wv >= 32 */
    const uint32_t tiles = tpr * ((rows + R - 1) / R);
    const int64_t rs = p.strides[0][1];
    const bool stream =
        (uint64_t)rows * (uint64_t)(rs < 0 ? -rs : rs) >= CA_EW_STREAM_BYTES;

    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const uint32_t rt = t / tpr;
        const uint32_t cv = (t - rt * tpr) * CA_EW_BLOCK + threadIdx.x;
        if (cv >= wv) {
            continue;
        }
        const uint32_t r0 = rt * R;
        ca_ew_vec<I0, E> a[R] = {};
        ca_ew_vec<I1, E> b[R] = {};
        ca_ew_vec<I2, E> c[R] = {};
#pragma unroll
        for (int u = 0; u < R; u++) {
            if (r0 + (uint32_t)u < rows) {
                ca_ew_load_ins<Op>(a[u], b[u], c[u], [&](auto &x, int k) {
                    ca_ew_set_row(x, p, k, r0 + (uint32_t)u, cv);
                });
            }
        }
#pragma unroll
        for (int u = 0; u < R; u++) {
            if (r0 + (uint32_t)u < rows) {
                ca_ew_vec<O, E> o;
#pragma unroll
                for (int e = 0; e < E; e++) {
                    o.v[e] = Op::f(a[u].v[e], b[u].v[e], c[u].v[e]);
                }
                char *row = p.c.ptr[0] + (int64_t)(r0 + (uint32_t)u) * p.strides[0][1];
                ca_ew_store(reinterpret_cast<ca_ew_vec<O, E> *>(row) + cv, o, stream);
            }
        }
    }
}

/* Blocks for `work` items of one thread each; the kernels loop past the cap. */
static inline unsigned int
ca_ew_grid(uint32_t work)
{
    uint32_t blocks = (work + CA_EW_BLOCK - 1) / CA_EW_BLOCK;
    if (blocks == 0) {
        blocks = 1;
    }
    /* 2^20 blocks of 256 threads already cover 2^28 items in one pass; the
     * grid-stride loops do the rest. */
    return blocks > (1u << 20) ? (1u << 20) : blocks;
}

/* One element per thread and every type aligned to its size: the contiguous
 * kernel's loads are the elements' own, so it serves the dense requests too (the
 * dispatcher asks for dense only when a pointer is off its element size, which
 * neither kernel could load) and the dense kernel is never compiled for the op. */
template <class Op>
static constexpr bool
ca_ew_contig_serves_dense()
{
    return Op::vec == 1 && alignof(typename Op::O) == sizeof(typename Op::O) &&
           alignof(typename Op::I0) == sizeof(typename Op::I0) &&
           alignof(typename Op::I1) == sizeof(typename Op::I1) &&
           alignof(typename Op::I2) == sizeof(typename Op::I2);
}

template <class Op>
static int
ca_ew_launch(const ca_ew_sparams *p, int contig, ca_stream_t stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (contig == CA_EW_DENSE) {
        if constexpr (ca_ew_contig_serves_dense<Op>()) {
            contig = 1;
        }
        else {
            ca_ew_dense_kernel<Op>
                <<<ca_ew_grid((p->c.n + CA_EW_DENSE_U - 1) / CA_EW_DENSE_U),
                   CA_EW_BLOCK, 0, s>>>(p->c);
            return (int)cudaGetLastError();
        }
    }
    if (contig == CA_EW_ROWVEC && Op::vec > 1) {
        if constexpr (Op::vec > 1) {
            const uint32_t wv = p->shape[0] / Op::vec;
            const uint32_t tiles =
                (wv + CA_EW_BLOCK - 1) / CA_EW_BLOCK *
                ((p->shape[1] + CA_EW_ROWVEC_R - 1) / CA_EW_ROWVEC_R);
            const uint32_t blocks = tiles < (1u << 20) ? tiles : (1u << 20);
            ca_ew_rowvec_kernel<Op><<<blocks, CA_EW_BLOCK, 0, s>>>(*p);
        }
    }
    else if (contig == 1) {
        ca_ew_contig_kernel<Op>
            <<<ca_ew_grid(p->c.n / Op::vec), CA_EW_BLOCK, 0, s>>>(p->c);
    }
    else {
        const uint32_t work =
            ca_ew_rows_path(*p) ? (p->c.n + CA_EW_ROWS_U - 1) / CA_EW_ROWS_U : p->c.n;
        ca_ew_strided_kernel<Op><<<ca_ew_grid(work), CA_EW_BLOCK, 0, s>>>(*p);
    }
    return (int)cudaGetLastError();
}

#endif /* CA_EW_KERNELS_CUH */

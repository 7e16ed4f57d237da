/*
 * reduce_scan.cu: cumsum and cumprod on the GPU (see reduce.cu for the design).
 */
#include "reduce_impl.cuh"
#include "reduce_scan_cub.cuh"

namespace ca_red {
namespace {

struct ScanArgs {
    const char *in;
    char *out;
    void *ws;
    int nbatch;
    int64_t bshape[KD], bin[KD], bout[KD];
    int64_t len, sin, sout, nrows, chunks, chunk_len;
};

/* Byte offsets of row `row` (the batch dims) in the input and the output. */
__device__ __forceinline__ void
row_offsets(const ScanArgs &a, int64_t row, int64_t &oi, int64_t &oo)
{
    oi = oo = 0;
    CA_RED_DIM_WALK(a.nbatch, a.bshape, row, {
        oi += i * a.bin[d];
        oo += i * a.bout[d];
    })
}

/* Item b of the BLOCK passes, (row, chunk) = divmod(b, chunks): the row's offsets
 * and the chunk's elements [i0, i1). */
__device__ __forceinline__ void
chunk_of(const ScanArgs &a, int64_t b, int64_t &oi, int64_t &oo, int64_t &i0,
         int64_t &i1)
{
    const int64_t row = b / a.chunks, c = b - row * a.chunks;
    row_offsets(a, row, oi, oo);
    i0 = c * a.chunk_len;
    i1 = a.len < i0 + a.chunk_len ? a.len : i0 + a.chunk_len;
}

/* acc combined with element x at position i (the scan ops take no context). */
template <class Op>
__device__ __forceinline__ typename Op::Acc
scan_step(typename Op::Acc acc, typename Op::In x, int64_t i)
{
    return Op::comb(acc, Op::load(x, i, NoCtx()));
}

/* SEQ: one thread walks one row. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK) k_scan_seq(const ScanArgs a)
{
    CA_RED_OP_TYPES(Op);
    CA_RED_FOR_GRID(row, a.nrows)
    {
        int64_t oi, oo;
        row_offsets(a, row, oi, oo);
        const char *p = a.in + oi;
        char *q = a.out + oo;
        typename Op::Acc acc = Op::init();
        for (int64_t i = 0; i < a.len; i++) {
            acc = scan_step<Op>(acc, *(const In *)p, i);
            *reinterpret_cast<Out *>(q) = Op::fin(acc, 1.0, 0);
            p += a.sin;
            q += a.sout;
        }
    }
}

/* BLOCK, first pass (chunks > 1): the total of each chunk of each row. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK) k_scan_totals(const ScanArgs a)
{
    CA_RED_OP_TYPES(Op);
    const int64_t nb = a.nrows * a.chunks;
    for (int64_t b = blockIdx.x; b < nb; b += gridDim.x) {
        int64_t oi, oo, i0, i1;
        chunk_of(a, b, oi, oo, i0, i1);
        Acc acc = Op::init();
        const char *p = a.in + oi;
        const int64_t st = blockDim.x;
        int64_t i = i0 + threadIdx.x;
        /* four loads in flight before the combines */
        for (; i + 3 * st < i1; i += 4 * st) {
            const In x0 = *(const In *)(p + i * a.sin);
            const In x1 = *(const In *)(p + (i + st) * a.sin);
            const In x2 = *(const In *)(p + (i + 2 * st) * a.sin);
            const In x3 = *(const In *)(p + (i + 3 * st) * a.sin);
            acc = scan_step<Op>(acc, x0, i);
            acc = scan_step<Op>(acc, x1, i + st);
            acc = scan_step<Op>(acc, x2, i + 2 * st);
            acc = scan_step<Op>(acc, x3, i + 3 * st);
        }
        for (; i < i1; i += st) {
            acc = scan_step<Op>(acc, *(const In *)(p + i * a.sin), i);
        }
        acc = group_reduce<Op>(acc, (int)blockDim.x);
        if (threadIdx.x == 0) {
            reinterpret_cast<Acc *>(a.ws)[b] = acc;
        }
    }
}

/* BLOCK, second pass: chunk totals -> exclusive prefixes, a thread per row. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK) k_scan_carry(const ScanArgs a)
{
    CA_RED_OP_TYPES(Op);
    CA_RED_FOR_GRID(row, a.nrows)
    {
        Acc *t = reinterpret_cast<Acc *>(a.ws) + row * a.chunks;
        Acc run = Op::init();
        for (int64_t c = 0; c < a.chunks; c++) {
            const Acc v = t[c];
            t[c] = run;
            run = Op::comb(run, v);
        }
    }
}

/* BLOCK, last pass: each block scans its chunk tile by tile, SCAN_ITEMS adjacent
 * elements per thread, starting from the chunk's carry; the next tile's elements
 * are loaded before the current tile's block scan, so the loads overlap it.
 * Every element is read and written by the same thread (which reads it before
 * it writes it), so out may be in. */
template <class Op>
__global__ void
__launch_bounds__(BLOCK) k_scan_block(const ScanArgs a)
{
    CA_RED_OP_TYPES(Op);
    const int64_t nb = a.nrows * a.chunks;
    const int64_t tile = (int64_t)blockDim.x * SCAN_ITEMS;
    for (int64_t b = blockIdx.x; b < nb; b += gridDim.x) {
        int64_t oi, oo, i0, i1;
        chunk_of(a, b, oi, oo, i0, i1);
        Acc carry = a.chunks > 1 ? reinterpret_cast<const Acc *>(a.ws)[b] : Op::init();
        const char *p = a.in + oi;
        In nxt[SCAN_ITEMS] = {};
        {
            const int64_t first = i0 + (int64_t)threadIdx.x * SCAN_ITEMS;
#pragma unroll
            for (int k = 0; k < SCAN_ITEMS; k++) {
                if (first + k < i1) {
                    nxt[k] = *(const In *)(p + (first + k) * a.sin);
                }
            }
        }
        for (int64_t t0 = i0; t0 < i1; t0 += tile) {
            const int64_t first = t0 + (int64_t)threadIdx.x * SCAN_ITEMS;
            In cur[SCAN_ITEMS];
#pragma unroll
            for (int k = 0; k < SCAN_ITEMS; k++) {
                cur[k] = nxt[k];
            }
            const int64_t nfirst = first + tile;
#pragma unroll
            for (int k = 0; k < SCAN_ITEMS; k++) {
                if (nfirst + k < i1) {
                    nxt[k] = *(const In *)(p + (nfirst + k) * a.sin);
                }
            }
            Acc x[SCAN_ITEMS];
            Acc run = Op::init();
#pragma unroll
            for (int k = 0; k < SCAN_ITEMS; k++) {
                const int64_t i = first + k;
                if (i < i1) {
                    run = scan_step<Op>(run, cur[k], i);
                }
                x[k] = run;
            }
            Acc excl, total;
            block_scan<Op>(run, excl, total);
            const Acc base = Op::comb(carry, excl);
#pragma unroll
            for (int k = 0; k < SCAN_ITEMS; k++) {
                const int64_t i = first + k;
                if (i < i1) {
                    *reinterpret_cast<Out *>(a.out + oo + i * a.sout) =
                        Op::fin(Op::comb(base, x[k]), 1.0, 0);
                }
            }
            carry = Op::comb(carry, total);
        }
    }
}

template <class Op>
int
run_scan(const ca_scan_desc &d, cudaStream_t stream)
{
    ScanArgs a;
    memset(&a, 0, sizeof a);
    a.in = d.in;
    a.out = d.out;
    a.ws = d.workspace;
    a.nbatch = d.nbatch;
    copy_dims(a.bshape, d.batch_shape, d.nbatch);
    copy_dims(a.bin, d.batch_in, d.nbatch);
    copy_dims(a.bout, d.batch_out, d.nbatch);
    a.len = d.len;
    a.sin = d.in_stride;
    a.sout = d.out_stride;
    a.nrows = d.nrows;
    a.chunks = d.chunks;
    a.chunk_len = d.chunk_len;
    if (d.strategy == CA_SS_SEQ) {
        k_scan_seq<Op><<<grid_for(ceil_div(a.nrows, BLOCK)), BLOCK, 0, stream>>>(a);
        return (int)cudaGetLastError();
    }
    if (a.chunks > 1) {
        if (a.ws == nullptr) {
            return (int)cudaErrorInvalidValue;
        }
        k_scan_totals<Op><<<grid_for(a.nrows * a.chunks), BLOCK, 0, stream>>>(a);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess) {
            return (int)err;
        }
        k_scan_carry<Op><<<grid_for(ceil_div(a.nrows, BLOCK)), BLOCK, 0, stream>>>(a);
        err = cudaGetLastError();
        if (err != cudaSuccess) {
            return (int)err;
        }
    }
    k_scan_block<Op><<<grid_for(a.nrows * a.chunks), BLOCK, 0, stream>>>(a);
    return (int)cudaGetLastError();
}

struct ScanEntry {
    int in_size, out_size, acc_size;
    int (*run)(const ca_scan_desc &, cudaStream_t);
};

struct ScanTable {
    ScanEntry e[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];
    bool has[CA_RED_NOPS][CA_NTYPES][CA_NTYPES];
};

/* The scan pairs of kernels/reductions.def, with their generated op structs. */
ScanTable
build_scan_table()
{
    ScanTable t;
    memset(&t, 0, sizeof t);
#define CA_S_ENTRY(op, in, out, O)                                                     \
    t.e[op][in][out].in_size = (int)sizeof(typename O::In);                            \
    t.e[op][in][out].out_size = (int)sizeof(typename O::Out);                          \
    t.e[op][in][out].acc_size = (int)sizeof(typename O::Acc);                          \
    t.e[op][in][out].run = &run_scan<O>;                                               \
    t.has[op][in][out] = true;
    CA_RED_GPU_SCANS(CA_S_ENTRY)
#undef CA_S_ENTRY
    return t;
}

const ScanEntry *
find_scan(int op, int in, int out)
{
    static const ScanTable table = build_scan_table();
    if (op < 0 || op >= CA_RED_NOPS || in < 0 || in >= CA_NTYPES || out < 0 ||
        out >= CA_NTYPES || !table.has[op][in][out]) {
        return nullptr;
    }
    return &table.e[op][in][out];
}

} /* namespace */
} /* namespace ca_red */

using namespace ca_red;

/* The pair's CUB scan of x[0:n] (reduce_scan_cub_*.cu), or CA_KERR_UNSUPPORTED. */
static int
cub_scan(int op, int in, int out, const void *x, void *y, int64_t n, void *temp,
         size_t *bytes, cudaStream_t st)
{
    int e = cub_scan_sum(op, in, out, x, y, (int)n, temp, bytes, st);
    if (e == CA_KERR_UNSUPPORTED) {
        e = cub_scan_prod(op, in, out, x, y, (int)n, temp, bytes, st);
    }
    return e;
}

/* One contiguous row longer than a few BLOCK tiles (which would take BLOCK's
 * three launches) goes to CUB when the pair has a CUB scan: sets the plan. */
static int
plan_cub(int op, ca_scan_desc *d, const ScanEntry *e, int in_dtype, int out_dtype)
{
    const int64_t most_block = (int64_t)BLOCK * SCAN_ITEMS * 4;
    if (d->nbatch != 0 || d->nrows != 1 || d->len <= most_block ||
        d->len > (int64_t)INT32_MAX || d->in_stride != e->in_size ||
        d->out_stride != e->out_size) {
        return CA_KERR_UNSUPPORTED;
    }
    size_t bytes = 0;
    const int rc = cub_scan(op, in_dtype, out_dtype, nullptr, nullptr, d->len, nullptr,
                            &bytes, nullptr);
    if (rc != 0) {
        return rc;
    }
    d->strategy = CA_SS_CUB;
    d->workspace_bytes = bytes > 0 ? bytes : 1;
    return 0;
}

extern "C" int
ca_cuda_scan_plan(int device, int op, ca_scan_desc *d, int in_dtype, int out_dtype)
{
    const ScanEntry *e = find_scan(op, in_dtype, out_dtype);
    if (e == nullptr || d->nbatch > KD) {
        return CA_KERR_UNSUPPORTED;
    }
    int sms = 0;
    const int err = device_sms(device, &sms);
    if (err != 0) {
        return err;
    }
    const int64_t rows = d->nrows, len = d->len;
    const bool rows_adjacent =
        d->nbatch > 0 && iabs(d->batch_in[d->nbatch - 1]) < iabs(d->in_stride);
    d->chunks = 1;
    d->chunk_len = len;
    d->workspace_bytes = 0;
    const int rc = plan_cub(op, d, e, in_dtype, out_dtype);
    if (rc != CA_KERR_UNSUPPORTED) {
        return rc;
    }
    if (len <= 16 || (rows_adjacent && rows >= 2048)) {
        d->strategy = CA_SS_SEQ;
        return 0;
    }
    d->strategy = CA_SS_BLOCK;
    const int64_t tile = (int64_t)BLOCK * SCAN_ITEMS;
    const int64_t want = (int64_t)sms * 8;
    if (rows < want) {
        int64_t chunks = ceil_div(want, rows);
        const int64_t most = ceil_div(len, tile * 4);
        chunks = chunks < most ? chunks : most;
        if (chunks > 1) {
            const int64_t chunk_len = ceil_div(ceil_div(len, chunks), tile) * tile;
            chunks = ceil_div(len, chunk_len);
            d->chunk_len = chunk_len;
            d->chunks = chunks;
        }
    }
    if (d->chunks > 1) {
        d->workspace_bytes = (size_t)(rows * d->chunks * e->acc_size);
    }
    return 0;
}

extern "C" int
ca_cuda_scan(int op, ca_scan_desc *d, int in_dtype, int out_dtype, ca_stream_t stream)
{
    const ScanEntry *e = find_scan(op, in_dtype, out_dtype);
    if (e == nullptr) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nrows == 0 || d->len == 0) {
        return 0;
    }
    if (d->strategy == CA_SS_CUB) {
        /* the plan sized CUB's storage; without it CUB would only size it again */
        if (d->workspace == nullptr) {
            return (int)cudaErrorInvalidValue;
        }
        size_t bytes = d->workspace_bytes;
        return cub_scan(op, in_dtype, out_dtype, d->in, d->out, d->len, d->workspace,
                        &bytes, (cudaStream_t)stream);
    }
    return e->run(*d, (cudaStream_t)stream);
}

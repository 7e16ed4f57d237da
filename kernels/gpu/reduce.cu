/*
 * reduce.cu: the reductions and scans of the GPU.
 *
 * One set of kernel templates serves every (op, input, output) triple of
 * kernels/reductions.def; an op is a small struct (init, load, comb, fin),
 * generated per triple (build/generated/red_gpu_ops.h, instantiated by
 * red_gpu_<k>.cu) from the helpers of kernels/shared/reduce_math.h, and the
 * accumulator type is the op's. Float sums accumulate in double per thread
 * (float16 in float32): the kernels are memory-bound, so the wider adds cost
 * nothing and a float32 sum of 2^26 values stays exact to a few ulps.
 *
 * Layouts (after ca_reduce_merge):
 * - ROW: the innermost input dim is reduced (or there is one output). A group
 *   of G threads (a warp up to the block) reduces one output; with few outputs
 *   the reduced range is split over several groups (S splits, one wave of
 *   blocks in all), which write partials to the workspace; the last block of
 *   each output to finish (a ticket from a per-output counter, see
 *   reduce_impl.cuh's ticket_finish) combines them in the same launch, or,
 *   without counters, a second launch does. A contiguous reduced dim is read
 *   with 16-byte loads.
 * - COL: the innermost input dim is kept. A thread owns an output (COLVEC: 16
 *   bytes of adjacent outputs) and walks the reduced elements, so a warp reads
 *   adjacent memory; with few outputs the walk is split as above.
 * Small reductions are one launch with no workspace, and nothing synchronizes.
 *
 * Scans (cumsum, cumprod): SEQ, a thread per row, when rows are adjacent in
 * memory or short; BLOCK otherwise: blocks scan tiles of a chunk of a row with a
 * running carry, and long rows are cut into chunks whose totals are reduced
 * and scanned first (three launches). One contiguous row longer than 4096 of
 * the common pairs goes to CUB's single-pass scan instead (reduce_scan_cub.cuh).
 */
#include <atomic>

#include "reduce_impl.cuh"

namespace ca_red {

namespace {

Table
build_table()
{
    Table t;
    memset(&t, 0, sizeof t);
    CA_RED_GPU_REGISTER_ALL(t)
    return t;
}

const Entry *
find_entry(int op, int in, int out)
{
    static const Table table = build_table(); /* thread-safe static init */
    if (op < 0 || op >= CA_RED_NOPS || in < 0 || in >= CA_NTYPES || out < 0 ||
        out >= CA_NTYPES || !table.has[op][in][out]) {
        return nullptr;
    }
    return &table.e[op][in][out];
}

constexpr int MAX_DEVICES = 64;
std::atomic<int> sm_count[MAX_DEVICES];

} /* namespace */

int
device_sms(int device, int *sms)
{
    if (device >= 0 && device < MAX_DEVICES) {
        const int v = sm_count[device].load(std::memory_order_relaxed);
        if (v > 0) {
            *sms = v;
            return 0;
        }
    }
    int v = 0;
    const cudaError_t err =
        cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, device);
    if (err != cudaSuccess) {
        return (int)err;
    }
    if (v < 1) {
        v = 1;
    }
    if (device >= 0 && device < MAX_DEVICES) {
        sm_count[device].store(v, std::memory_order_relaxed);
    }
    *sms = v;
    return 0;
}

} /* namespace ca_red */

using namespace ca_red;

/* ---- the plan ---------------------------------------------------------------------------- */
/* The plan's splits of each output's R reduced elements: S of them, `chunk`
 * elements each (S recounted from it), and their partial results' workspace (AS
 * bytes each) when S > 1. */
static int
split_rows(ca_reduce_desc *d, int64_t S, int64_t chunk, int64_t AS)
{
    const int64_t R = d->nred_elems;
    if (S > 1) {
        S = ceil_div(R, chunk);
        d->chunk = chunk;
    }
    d->splits = (int)S;
    if (S > 1) {
        d->workspace_bytes = (size_t)(d->nout * S * AS);
    }
    return 0;
}

extern "C" int
ca_cuda_reduce_plan(int device, int op, ca_reduce_desc *d, int in_dtype, int out_dtype)
{
    const Entry *e = find_entry(op, in_dtype, out_dtype);
    if (e == nullptr || d->nkeep > KD || d->nred > KD) {
        return CA_KERR_UNSUPPORTED;
    }
    int sms = 0;
    const int err = device_sms(device, &sms);
    if (err != 0) {
        return err;
    }
    /* threads that fill the GPU once (COL; ROW below) */
    const int64_t T = (int64_t)sms * 2048;
    const int64_t nout = d->nout, R = d->nred_elems;
    const int64_t SZ = e->in_size, AS = e->acc_size;
    const bool inner_red =
        d->nred > 0 && (d->nkeep == 0 ||
                        iabs(d->red_in[d->nred - 1]) < iabs(d->keep_in[d->nkeep - 1]));
    d->splits = 1;
    d->chunk = R;
    d->group = 32;
    d->workspace_bytes = 0;

    if (R > 0 && d->nred > 0 && (nout == 1 || (inner_red && R >= 32))) {
        d->strategy = CA_RS_ROW;
        const int G = pow2_group(ceil_div(R, 16));
        d->group = G;
        /* Split rows fill one wave of k_row exactly: its launch bounds keep at
         * least 4 blocks of BLOCK threads on every SM (64 registers), so up to
         * 4 * sms blocks run at once (528 on an H200) and none waits for a second
         * wave. Such a split has G == BLOCK (R >= 64 G needs R > 2048). */
        const int64_t Trow = (int64_t)sms * 4 * BLOCK;
        int64_t S = 1;
        if (nout * G < Trow && R >= (int64_t)G * 64) {
            S = Trow / (nout * G);
            const int64_t most = R / ((int64_t)G * 64);
            S = S < most ? S : most;
        }
        /* chunks of a multiple of 64 elements keep each split's alignment */
        return split_rows(d, S, S > 1 ? ceil_div(ceil_div(R, S), 64) * 64 : R, AS);
    }

    /* COL, COLVEC */
    d->strategy = CA_RS_COL;
    bool vec = SZ >= 4 && SZ <= 8 && d->nkeep > 0 && d->nred <= 1 &&
               d->keep_in[d->nkeep - 1] == SZ &&
               d->keep_shape[d->nkeep - 1] % (16 / SZ) == 0 &&
               ((uintptr_t)d->in % 16) == 0;
    for (int i = 0; i + 1 < d->nkeep && vec; i++) {
        vec = d->keep_in[i] % 16 == 0;
    }
    if (vec && d->nred == 1) {
        vec = d->red_in[0] % 16 == 0;
    }
    const int64_t threads = vec ? nout / (16 / SZ) : nout;
    if (vec) {
        d->strategy = CA_RS_COLVEC;
    }
    /* 16-byte loads keep enough bytes in flight with half the threads */
    const int64_t Tc = vec ? T / 2 : T;
    int64_t S = 1;
    if (threads < Tc && R >= 64) {
        S = ceil_div(Tc, threads);
        const int64_t most = R / 32;
        S = S < most ? S : most;
    }
    return split_rows(d, S, S > 1 ? ceil_div(R, S) : R, AS);
}

extern "C" int
ca_cuda_reduce(int op, ca_reduce_desc *d, int in_dtype, int out_dtype,
               ca_stream_t stream)
{
    const Entry *e = find_entry(op, in_dtype, out_dtype);
    if (e == nullptr) {
        return CA_KERR_UNSUPPORTED;
    }
    if (d->nout == 0) {
        return 0;
    }
    return e->run(*d, (cudaStream_t)stream);
}

#include "cuda_runtime.h"
dim3 threadIdx, blockIdx, gridDim, blockDim;
int emu_sms = 2;
std::atomic<long> emu_launches{ 0 };
EmuBarrier emu_bb, emu_wb[64];
uint32_t emu_warp_buf[64][32];
alignas(16) unsigned char emu_dyn_smem[1 << 16];
ucontext_t emu_sched;
static std::vector<ucontext_t> fctx;
static std::vector<std::vector<char>> stacks;
static std::vector<int> done;
static unsigned cur;
static void (*g_tramp)(void *);
static void *g_ctx;

void
emu_yield()
{
    swapcontext(&fctx[cur], &emu_sched);
}

static void
fiber_main(int i)
{
    g_tramp(g_ctx);
    done[i] = 1;
}

void
emu_run_block(void (*tramp)(void *), void *ctx, unsigned block)
{
    g_tramp = tramp;
    g_ctx = ctx;
    fctx.resize(block);
    stacks.resize(block);
    done.assign(block, 0);
    emu_bb.n = block;
    emu_bb.arrived = 0;
    for (unsigned w = 0; w < block / 32; w++) {
        emu_wb[w].n = 32;
        emu_wb[w].arrived = 0;
    }
    for (unsigned t = 0; t < block; t++) {
        stacks[t].resize(1 << 17);
        getcontext(&fctx[t]);
        fctx[t].uc_stack.ss_sp = stacks[t].data();
        fctx[t].uc_stack.ss_size = stacks[t].size();
        fctx[t].uc_link = &emu_sched;
        makecontext(&fctx[t], (void (*)())fiber_main, 1, (int)t);
    }
    unsigned left = block;
    while (left) {
        left = 0;
        for (unsigned t = 0; t < block; t++) {
            if (done[t])
                continue;
            cur = t;
            threadIdx.x = t;
            swapcontext(&emu_sched, &fctx[t]);
            if (!done[t])
                left++;
        }
    }
}

/* CUB's scans are not emulated (reduce_scan_cub_*.cu): the plans fall back to
 * the block scans */
#include "kernels.h"
namespace ca_red {
int
cub_scan_sum(int, int, int, const void *, void *, int, void *, size_t *, cudaStream_t)
{
    return CA_KERR_UNSUPPORTED;
}
int
cub_scan_prod(int, int, int, const void *, void *, int, void *, size_t *, cudaStream_t)
{
    return CA_KERR_UNSUPPORTED;
}
} /* namespace ca_red */

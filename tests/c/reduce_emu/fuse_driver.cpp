// The fused sum (kernels/gpu/ew_fuse.cuh's ca_fuse_sum_kernel, through
// dispatch_fuse.c's ca_fused_sum) against the plain path it replaces: the fused
// element-wise kernel storing the chain ((a * b + c) * d - e), then the plain
// reduction (ca_reduce_plan + ca_reduce: reduce_impl.cuh's k_row), both run by
// the CPU emulation. The sums (and the readback mirror) must be the same bits,
// for float32 and float64, every n the fused sum takes, sums and means. Exit
// status 1 on any mismatch. Built by fuse_build.sh.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

#include "cuda_runtime.h"
#include "kernels.h"
#include "ew_table.h"
#include "red_table.h"

static std::mt19937_64 rng(2024);

static int
loop_of(const char *name, int t)
{
    for (int op = 0; op < CA_EW_NOPS; op++) {
        if (strcmp(ca_ew_ops[op].name, name) != 0)
            continue;
        for (int l = ca_ew_ops[op].first_loop;
             l < ca_ew_ops[op].first_loop + ca_ew_ops[op].nloops; l++) {
            const int8_t *ty = ca_ew_loops[l].types;
            if (ty[0] == t && ty[1] == t && ty[2] == t)
                return l;
        }
    }
    fprintf(stderr, "no loop %s\n", name);
    exit(2);
}

template <class T>
static int
run(int family, int dtype, int64_t n, bool mean, long *checks)
{
    const size_t sz = sizeof(T);
    std::vector<T *> leaf(5);
    for (auto &p : leaf) {
        p = (T *)aligned_alloc(256, ((n * sz + 255) / 256) * 256);
        std::uniform_real_distribution<double> u(-2, 2);
        for (int64_t i = 0; i < n; i++)
            p[i] = (T)u(rng);
    }
    ca_fuse_params p;
    memset(&p, 0, sizeof p);
    p.nleaf = 5;
    for (int j = 0; j < 5; j++) {
        p.leaf[j] = (const char *)leaf[j];
        p.leaf_type[j] = dtype;
    }
    const char *ops[4] = { "multiply", "add", "multiply", "subtract" };
    const int src[4][2] = { { 0, 1 },
                            { CA_FUSE_MAXLEAF + 0, 2 },
                            { CA_FUSE_MAXLEAF + 1, 3 },
                            { CA_FUSE_MAXLEAF + 2, 4 } };
    p.ninstr = 4;
    for (int k = 0; k < 4; k++) {
        p.ins[k].slot = ca_ew_fuse_slot[family][loop_of(ops[k], dtype)];
        p.ins[k].src[0] = (uint8_t)src[k][0];
        p.ins[k].src[1] = (uint8_t)src[k][1];
        p.ins[k].src[2] = CA_FUSE_CONST;
    }
    p.n = (uint32_t)n;
    T *tmp = (T *)aligned_alloc(256, ((n * sz + 255) / 256) * 256);
    p.out = (char *)tmp;
    p.out_type = dtype;
    const int erc = ca_fused_elementwise(0, family, &p, nullptr);
    if (erc != 0) {
        fprintf(stderr, "fused element-wise failed: %d (slots %d %d %d %d)\n", erc,
                p.ins[0].slot, p.ins[1].slot, p.ins[2].slot, p.ins[3].slot);
        return 1;
    }
    alignas(16) T plain = 0, fused = 0;
    alignas(16) char mirror_plain[16] = {}, mirror_fused[16] = {};
    unsigned long long flag_plain = 0, flag_fused = 0;
    ca_reduce_desc d[2];
    T *outs[2] = { &plain, &fused };
    char *mir[2] = { mirror_plain, mirror_fused };
    unsigned long long *flg[2] = { &flag_plain, &flag_fused };
    for (int w = 0; w < 2; w++) {
        memset(&d[w], 0, sizeof d[w]);
        d[w].nred = 1;
        d[w].red_shape[0] = n;
        d[w].red_in[0] = (int64_t)sz;
        d[w].in = (const char *)tmp;
        d[w].out = (char *)outs[w];
        d[w].divisor = mean ? (double)n : 1.0;
        if (ca_reduce_plan(0, CA_RED_SUM, &d[w], dtype, dtype) != 0) {
            fprintf(stderr, "plan failed\n");
            return 1;
        }
        d[w].mirror = mir[w];
        d[w].mirror_flag = flg[w];
        d[w].mirror_seq = 7;
    }
    int bad = 0;
    if (ca_reduce(0, CA_RED_SUM, &d[0], dtype, dtype, nullptr) != 0)
        bad = 1;
    const int rc = ca_fused_sum(0, family, &p, &d[1], nullptr);
    /* what the fused sum takes: the plan's one split of one row over at most
     * CA_FUSE_SUM_MAXGROUP lanes (with the real block, rows of 2 to 2048) */
    const bool takes =
        d[1].nred == 1 && d[1].splits == 1 && d[1].group <= CA_FUSE_SUM_MAXGROUP;
    if (EMU_BLOCK == 256 && takes != (n >= 2 && n <= 2048)) {
        fprintf(stderr, "n=%ld: the plan's group %d, splits %d\n", (long)n, d[1].group,
                d[1].splits);
        bad = 1;
    }
    if ((rc == 0) != takes) {
        fprintf(stderr, "n=%ld: ca_fused_sum returned %d\n", (long)n, rc);
        bad = 1;
    }
    if (rc == 0) {
        (*checks)++;
        if (memcmp(&plain, &fused, sz) != 0 ||
            memcmp(mirror_plain, mirror_fused, sz) != 0 || flag_fused != 7 ||
            (d[0].mirror != nullptr && flag_plain != 7)) {
            fprintf(stderr,
                    "MISMATCH %s n=%ld %s: plain %.17g fused %.17g (mirror %.17g, flag "
                    "%llu)\n",
                    sz == 4 ? "float32" : "float64", (long)n, mean ? "mean" : "sum",
                    (double)plain, (double)fused, (double)*(T *)mirror_fused,
                    flag_fused);
            bad = 1;
        }
        double ref = 0;
        for (int64_t i = 0; i < n; i++)
            ref += (double)tmp[i];
        if (mean)
            ref /= (double)n;
        if (std::fabs(ref - (double)fused) > 1e-4 * (1 + std::fabs(ref))) {
            fprintf(stderr, "WRONG n=%ld: fused %.9g, the stored chain sums to %.9g\n",
                    (long)n, (double)fused, ref);
            bad = 1;
        }
    }
    for (auto q : leaf)
        free(q);
    free(tmp);
    return bad;
}

int
main()
{
    long checks = 0;
    int bad = 0;
    const int64_t ns[] = { 1,    2,    3,    4,    5,    7,    8,    31,   32,   33,
                           63,   64,   65,   100,  127,  128,  129,  511,  512,  513,
                           1000, 1023, 1024, 1025, 1027, 1500, 2047, 2048, 2049, 4096 };
    for (int64_t n : ns) {
        for (int mean = 0; mean < 2; mean++) {
            bad |= run<float>(CA_FUSE_F32, CA_FLOAT32, n, mean, &checks);
            bad |= run<double>(CA_FUSE_F64, CA_FLOAT64, n, mean, &checks);
        }
    }
    fprintf(stderr, "fused sums: %ld compared with the plain reduction, %s\n", checks,
            bad ? "FAILURES" : "all the same bits");
    return bad;
}

// Compare the emulated GPU reductions and scans (kernels/reduce*.cu run by the CPU
// emulation of inc/cuda_runtime.h) with the host loops, over every supported pair
// and many layouts. Exit status 1 on any mismatch.
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <algorithm>
#include <vector>

#include "cuda_runtime.h"
#include "kernels.h"
#include "reduce_plan.h"
#include "scalar.h"

static std::mt19937_64 rng(12345);
static long checks = 0, failures = 0;
/* EMU_DUMP=file: every GPU and host result is appended there, so two builds can be
 * compared bitwise (cmp the files). */
static FILE *dumpf = nullptr;
static void
dump(const void *p, size_t n)
{
    if (dumpf)
        fwrite(p, 1, n, dumpf);
}

static double
urand()
{
    return std::uniform_real_distribution<double>(0, 1)(rng);
}
static int
irand(int lo, int hi)
{
    return std::uniform_int_distribution<int>(lo, hi)(rng);
}

static void
put(char *p, int dt, double re, double im)
{
    switch (dt) {
    case CA_BOOL: *(uint8_t *)p = re != 0; break;
    case CA_INT8: *(int8_t *)p = (int8_t)re; break;
    case CA_UINT8: *(uint8_t *)p = (uint8_t)re; break;
    case CA_INT16: *(int16_t *)p = (int16_t)re; break;
    case CA_UINT16: *(uint16_t *)p = (uint16_t)re; break;
    case CA_INT32: *(int32_t *)p = (int32_t)re; break;
    case CA_UINT32: *(uint32_t *)p = (uint32_t)re; break;
    case CA_INT64: *(int64_t *)p = (int64_t)re; break;
    case CA_UINT64: *(uint64_t *)p = (uint64_t)re; break;
    case CA_FLOAT16: *(ca_half *)p = ca_double_to_half(re); break;
    case CA_FLOAT32: *(float *)p = (float)re; break;
    case CA_FLOAT64: *(double *)p = re; break;
    case CA_COMPLEX64:
        ((float *)p)[0] = (float)re;
        ((float *)p)[1] = (float)im;
        break;
    case CA_COMPLEX128:
        ((double *)p)[0] = re;
        ((double *)p)[1] = im;
        break;
    }
}

static std::complex<double>
get(const char *p, int dt)
{
    switch (dt) {
    case CA_BOOL: return *(const uint8_t *)p != 0;
    case CA_INT8: return *(const int8_t *)p;
    case CA_UINT8: return *(const uint8_t *)p;
    case CA_INT16: return *(const int16_t *)p;
    case CA_UINT16: return *(const uint16_t *)p;
    case CA_INT32: return *(const int32_t *)p;
    case CA_UINT32: return *(const uint32_t *)p;
    case CA_INT64: return (double)*(const int64_t *)p;
    case CA_UINT64: return (double)*(const uint64_t *)p;
    case CA_FLOAT16: return ca_half_to_float(*(const ca_half *)p);
    case CA_FLOAT32: return *(const float *)p;
    case CA_FLOAT64: return *(const double *)p;
    case CA_COMPLEX64: return { ((const float *)p)[0], ((const float *)p)[1] };
    case CA_COMPLEX128: return { ((const double *)p)[0], ((const double *)p)[1] };
    }
    return 0;
}

struct View {
    std::vector<char> buf;
    char *data;
    int ndim;
    int64_t shape[8], strides[8];
    int64_t size;
};

// A random layout of `shape`: permuted parent, steps, flips, and a byte offset
// (offset elements: one-element misalignment of 16-byte boundaries).
static View
make_view(int dt, int ndim, const int64_t *shape, bool ties, bool nans, int mode)
{
    View v;
    v.ndim = ndim;
    int isz = ca_dtype_size[dt];
    int perm[8];
    int64_t step[8];
    bool flip[8];
    for (int d = 0; d < ndim; d++) {
        perm[d] = d;
        step[d] = 1;
        flip[d] = false;
    }
    if (mode >= 1) {
        std::shuffle(perm, perm + ndim, rng);
        for (int d = 0; d < ndim; d++) {
            step[d] = irand(0, 3) == 0 ? 2 : 1;
            flip[d] = irand(0, 4) == 0;
        }
    }
    if (mode == 0) { /* contiguous */
    }
    int64_t pstride[8];
    int64_t acc = isz;
    for (int k = ndim - 1; k >= 0; k--) {
        int d = perm[k];
        pstride[d] = acc;
        acc *= shape[d] * step[d];
    }
    int off = (mode == 2) ? 1 : 0;
    v.buf.assign((size_t)acc + (size_t)(off + 2) * isz + 64, 0);
    char *base = v.buf.data();
    base += (16 - ((uintptr_t)base % 16)) % 16; /* 16-aligned parent */
    base += off * isz;
    v.size = 1;
    int64_t start = 0;
    for (int d = 0; d < ndim; d++) {
        v.shape[d] = shape[d];
        v.strides[d] = pstride[d] * step[d];
        if (flip[d]) {
            start += (shape[d] - 1) * v.strides[d];
            v.strides[d] = -v.strides[d];
        }
        v.size *= shape[d];
    }
    v.data = base + start;
    // fill
    int64_t idx[8] = { 0 };
    for (int64_t e = 0; e < v.size; e++) {
        int64_t o = 0;
        for (int d = 0; d < ndim; d++)
            o += idx[d] * v.strides[d];
        double re, im;
        if (ties) {
            re = irand(-3, 3);
            im = irand(-1, 1);
        }
        else {
            re = std::round((urand() * 20 - 10) * 8) / 8;
            im = std::round((urand() * 20 - 10) * 8) / 8;
        }
        if (dt == CA_BOOL)
            re = irand(0, 2) != 0;
        if (ca_dtype_size[dt] &&
            (dt == CA_UINT8 || dt == CA_UINT16 || dt == CA_UINT32 || dt == CA_UINT64))
            re = std::fabs(re);
        if (nans && (dt >= CA_FLOAT16) && irand(0, 40) == 0) {
            if (dt >= CA_COMPLEX64 && irand(0, 1))
                im = NAN;
            else
                re = NAN;
        }
        put(v.data + o, dt, re, im);
        for (int d = ndim - 1; d >= 0; d--) {
            if (++idx[d] < shape[d])
                break;
            idx[d] = 0;
        }
    }
    return v;
}

static void
fill_desc(ca_reduce_desc *d, const View &v, const bool *red, int out_isz, int aux_isz)
{
    memset(d, 0, sizeof *d);
    // output: C-contiguous over kept dims
    int64_t kshape[8];
    int nk = 0;
    for (int i = 0; i < v.ndim; i++)
        if (!red[i])
            kshape[nk++] = v.shape[i];
    int64_t ostr[8], astr[8];
    int64_t a = out_isz, b = aux_isz;
    for (int k = nk - 1; k >= 0; k--) {
        ostr[k] = a;
        a *= kshape[k];
        astr[k] = b;
        b *= kshape[k];
    }
    int k = 0;
    for (int i = 0; i < v.ndim; i++) {
        if (red[i]) {
            d->red_shape[d->nred] = v.shape[i];
            d->red_in[d->nred] = v.strides[i];
            d->nred++;
        }
        else {
            d->keep_shape[d->nkeep] = v.shape[i];
            d->keep_in[d->nkeep] = v.strides[i];
            d->keep_out[d->nkeep] = ostr[k];
            d->keep_aux[d->nkeep] = aux_isz ? astr[k] : 0;
            d->nkeep++;
            k++;
        }
    }
    d->in = v.data;
    d->divisor = 1.0;
}

static int64_t
nout_of(const View &v, const bool *red)
{
    int64_t n = 1;
    for (int i = 0; i < v.ndim; i++)
        if (!red[i])
            n *= v.shape[i];
    return n;
}

/* the kernel ops' names (build/generated/red_table.h's CA_RED_* order), by number past them */
static const char *opnames[] = { "sum",    "prod", "max", "min",  "argmax",
                                 "argmin", "any",  "all", "sqdev" };
static const char *
opname_of(int op)
{
    static char buf[16];
    if (op >= 0 && op < (int)(sizeof opnames / sizeof opnames[0]))
        return opnames[op];
    snprintf(buf, sizeof buf, "op%d", op);
    return buf;
}
#include <map>
#include <tuple>
static std::map<std::tuple<int, int, int, int>, long>
    fails_by_pair; /* op, in, out, strategy */

static bool
run(int device, int op, ca_reduce_desc d, int in, int out, std::vector<char> &res,
    int *strategy, int *splits)
{
    int rc = ca_reduce_plan(device, op, &d, in, out);
    if (rc != 0) {
        if (rc == CA_KERR_UNSUPPORTED && device >= 0)
            return false;
        fprintf(stderr, "plan rc=%d\n", rc);
        abort();
    }
    std::vector<char> ws(d.workspace_bytes + 32);
    char *w = ws.data();
    w += (16 - ((uintptr_t)w % 16)) % 16;
    d.workspace = d.workspace_bytes ? w : nullptr;
    d.out = res.data();
    if (strategy)
        *strategy = d.strategy;
    if (splits)
        *splits = d.splits;
    rc = ca_reduce(device, op, &d, in, out, nullptr);
    if (rc != 0) {
        fprintf(stderr, "reduce rc=%d\n", rc);
        abort();
    }
    return true;
}

static void
compare_red(int op, int in, int out, const View &v, const bool *red)
{
    const int64_t nout = nout_of(v, red);
    const int osz = ca_dtype_size[out];
    int aux_dt = ca_reduce_aux_dtype(CA_RED_SQDEV, in);
    int asz = op == CA_RED_SQDEV ? ca_dtype_size[aux_dt] : 0;
    ca_reduce_desc d;
    fill_desc(&d, v, red, osz, asz);
    int64_t R = 1;
    for (int i = 0; i < d.nred; i++)
        R *= d.red_shape[i];
    std::vector<char> aux;
    if (op == CA_RED_SQDEV) {
        aux.assign((size_t)(nout * asz + 16), 0);
        ca_reduce_desc m;
        fill_desc(&m, v, red, asz, 0);
        m.divisor = (double)R;
        run(CA_CPU, CA_RED_SUM, m, in, aux_dt, aux, nullptr, nullptr);
        d.aux = aux.data();
        d.divisor = R > 1 ? (double)(R - 1) : 1.0;
        d.flags = irand(0, 1) ? CA_RED_SQRT : 0;
    }
    else if (op == CA_RED_SUM && irand(0, 3) == 0 && out >= CA_FLOAT16) {
        d.divisor = (double)R; /* a mean */
    }
    std::vector<char> g((size_t)(nout * osz + 16)), h((size_t)(nout * osz + 16));
    int strategy = -1, splits = 0;
    if (!run(0, op, d, in, out, g, &strategy, &splits)) {
        return;
    }
    run(CA_CPU, op, d, in, out, h, nullptr, nullptr);
    dump(g.data(), (size_t)(nout * osz));
    dump(h.data(), (size_t)(nout * osz));
    for (int64_t o = 0; o < nout; o++) {
        checks++;
        auto a = get(g.data() + o * osz, out), b = get(h.data() + o * osz, out);
        bool ok;
        const bool prod = op == CA_RED_PROD || op == CA_RED_NANPROD;
        if (op == CA_RED_SUM || op == CA_RED_NANSUM || prod || op == CA_RED_SQDEV) {
            if (out < CA_FLOAT16) {
                ok = memcmp(g.data() + o * osz, h.data() + o * osz, osz) == 0;
            }
            else {
                double tol = out == CA_FLOAT16                            ? 4e-3
                             : (out == CA_FLOAT32 || out == CA_COMPLEX64) ? 4e-6
                                                                          : 1e-12;
                bool an = std::isnan(a.real()) || std::isnan(a.imag());
                bool bn = std::isnan(b.real()) || std::isnan(b.imag());
                ok = (an && bn) ||
                     (!an && !bn &&
                      (std::abs(a - b) <= tol * (std::abs(b) + 1) || a == b));
                /* products: the order of 0 * inf (an overflowed partial) differs */
                if (prod &&
                    (an || bn || std::isinf(std::abs(a)) || std::isinf(std::abs(b))))
                    ok = true;
                if (!an && !bn && std::isinf(std::abs(b)))
                    ok = a == b;
            }
        }
        else if (op == CA_RED_MAX || op == CA_RED_MIN) {
            bool an = std::isnan(a.real()) || std::isnan(a.imag());
            bool bn = std::isnan(b.real()) || std::isnan(b.imag());
            ok = (an && bn) || memcmp(g.data() + o * osz, h.data() + o * osz, osz) == 0;
        }
        else {
            ok = memcmp(g.data() + o * osz, h.data() + o * osz, osz) == 0;
        }
        if (!ok) {
            failures++;
            fails_by_pair[{ op, in, out, strategy }]++;
            if (failures < 30) {
                fprintf(stderr,
                        "FAIL %s %s->%s strat=%d splits=%d ndim=%d "
                        "shape=(%ld,%ld,%ld,%ld) out %ld: gpu (%g,%g) host (%g,%g)\n",
                        opname_of(op), ca_dtype_name[in], ca_dtype_name[out], strategy,
                        splits, v.ndim, (long)v.shape[0],
                        v.ndim > 1 ? (long)v.shape[1] : 0L,
                        v.ndim > 2 ? (long)v.shape[2] : 0L,
                        v.ndim > 3 ? (long)v.shape[3] : 0L, (long)o, a.real(), a.imag(),
                        b.real(), b.imag());
            }
        }
    }
}

struct Pair {
    int op, in, out;
};
static std::vector<Pair> pairs;
#define ADDP(op, in, out) pairs.push_back({ op, in, out });

static void
scan_case(int op, int in, const View &v, int axis)
{
    int out = 0;
    for (int o = 0; o < CA_NTYPES; o++)
        if (ca_scan_supported(op, in, o))
            out = o;
    int osz = ca_dtype_size[out];
    ca_scan_desc d;
    memset(&d, 0, sizeof d);
    int64_t ostr[8], a = osz;
    for (int k = v.ndim - 1; k >= 0; k--) {
        ostr[k] = a;
        a *= v.shape[k];
    }
    for (int i = 0; i < v.ndim; i++) {
        if (i == axis)
            continue;
        d.batch_shape[d.nbatch] = v.shape[i];
        d.batch_in[d.nbatch] = v.strides[i];
        d.batch_out[d.nbatch] = ostr[i];
        d.nbatch++;
    }
    d.len = v.shape[axis];
    d.in_stride = v.strides[axis];
    d.out_stride = ostr[axis];
    d.in = v.data;
    std::vector<char> g((size_t)(v.size * osz + 16)), h((size_t)(v.size * osz + 16));
    ca_scan_desc dg = d, dh = d;
    int rc = ca_scan_plan(0, op, &dg, in, out);
    if (rc) {
        fprintf(stderr, "scan plan rc %d\n", rc);
        abort();
    }
    std::vector<char> ws(dg.workspace_bytes + 32);
    char *w = ws.data();
    w += (16 - ((uintptr_t)w % 16)) % 16;
    dg.workspace = dg.workspace_bytes ? w : nullptr;
    dg.out = g.data();
    if (ca_scan(0, op, &dg, in, out, nullptr))
        abort();
    ca_scan_plan(CA_CPU, op, &dh, in, out);
    dh.out = h.data();
    ca_scan(CA_CPU, op, &dh, in, out, nullptr);
    dump(g.data(), (size_t)(v.size * osz));
    dump(h.data(), (size_t)(v.size * osz));
    for (int64_t e = 0; e < v.size; e++) {
        checks++;
        auto x = get(g.data() + e * osz, out), y = get(h.data() + e * osz, out);
        bool ok;
        if (out < CA_FLOAT16)
            ok = memcmp(g.data() + e * osz, h.data() + e * osz, osz) == 0;
        else {
            double tol = out == CA_FLOAT16                            ? 8e-3
                         : (out == CA_FLOAT32 || out == CA_COMPLEX64) ? 1e-5
                                                                      : 1e-11;
            ok = std::abs(x - y) <= tol * (std::abs(y) + 10) || x == y ||
                 (std::isnan(std::abs(x)) && std::isnan(std::abs(y)));
            if (op == CA_RED_PROD &&
                (std::isnan(std::abs(x)) || std::isnan(std::abs(y)) ||
                 std::isinf(std::abs(x)) || std::isinf(std::abs(y))))
                ok = true;
        }
        if (!ok) {
            failures++;
            if (failures < 30)
                fprintf(stderr,
                        "SCAN FAIL %s %s strat=%d chunks=%ld elem %ld: (%g,%g) vs "
                        "(%g,%g) shape (%ld,%ld) axis %d\n",
                        opname_of(op), ca_dtype_name[in], dg.strategy, (long)dg.chunks,
                        (long)e, x.real(), x.imag(), y.real(), y.imag(),
                        (long)v.shape[0], v.ndim > 1 ? (long)v.shape[1] : 0L, axis);
        }
    }
}

int
main(int argc, char **argv)
{
    int level = argc > 1 ? atoi(argv[1]) : 1;
    if (getenv("EMU_SMS"))
        emu_sms = atoi(getenv("EMU_SMS"));
    if (getenv("EMU_DUMP"))
        dumpf = fopen(getenv("EMU_DUMP"), "wb");
    for (int op = 0; op < CA_RED_NOPS; op++)
        for (int in = 0; in < CA_NTYPES; in++)
            for (int out = 0; out < CA_NTYPES; out++)
                if (ca_reduce_supported(op, in, out))
                    ADDP(op, in, out)
    /* one order whatever the table's (the random cases follow it) */
    std::sort(pairs.begin(), pairs.end(), [](const Pair &a, const Pair &b) {
        return a.op != b.op ? a.op < b.op : a.in != b.in ? a.in < b.in : a.out < b.out;
    });
    struct Shape {
        int ndim;
        int64_t s[4];
    } shapes[] = {
        { 1, { 5000 } },     { 1, { 100003 } },   { 1, { 7 } },
        { 2, { 7, 3000 } },  { 2, { 3, 40000 } }, { 2, { 300, 50 } },
        { 2, { 50, 300 } },  { 2, { 5000, 16 } }, { 2, { 4000, 7 } },
        { 3, { 6, 8, 10 } }, { 3, { 5, 6, 7 } },  { 4, { 3, 4, 5, 6 } },
        { 2, { 1, 33 } },    { 2, { 64, 1 } },    { 3, { 2, 3000, 4 } },
    };
    int nshapes = sizeof shapes / sizeof shapes[0];
    long cases = 0;
    for (auto &p : pairs) {
        bool arg = p.op == CA_RED_ARGMAX || p.op == CA_RED_ARGMIN;
        for (int si = 0; si < nshapes; si++) {
            auto &sh = shapes[si];
            int64_t total = 1;
            for (int d = 0; d < sh.ndim; d++)
                total *= sh.s[d];
            if (level < 2 && total > 20000 && irand(0, 3) != 0)
                continue;
            for (int mode = 0; mode < 3; mode++) {
                if (level < 2 && mode == 1 && irand(0, 1))
                    continue;
                bool ties =
                    arg || p.op == CA_RED_MAX || p.op == CA_RED_MIN || irand(0, 1);
                bool nans = irand(0, 2) == 0;
                View v = make_view(p.in, sh.ndim, sh.s, ties, nans, mode);
                // axes: all, each single, and a random subset
                std::vector<std::vector<bool>> axsets;
                axsets.push_back(std::vector<bool>(sh.ndim, true));
                for (int d = 0; d < sh.ndim; d++) {
                    std::vector<bool> r(sh.ndim, false);
                    r[d] = true;
                    axsets.push_back(r);
                }
                if (!arg && sh.ndim >= 2) {
                    std::vector<bool> r(sh.ndim);
                    for (int d = 0; d < sh.ndim; d++)
                        r[d] = irand(0, 1);
                    axsets.push_back(r);
                    std::vector<bool> none(sh.ndim, false);
                    if (irand(0, 3) == 0)
                        axsets.push_back(none);
                }
                for (auto &ax : axsets) {
                    if (level < 2 && total > 20000 && irand(0, 2))
                        continue;
                    bool red[8];
                    for (int d = 0; d < sh.ndim; d++)
                        red[d] = ax[d];
                    compare_red(p.op, p.in, p.out, v, red);
                    cases++;
                }
            }
        }
    }
    fprintf(stderr, "reductions: %ld cases, %ld checks, %ld failures, %ld launches\n",
            cases, checks, failures, emu_launches.load());
    for (auto &kv : fails_by_pair) {
        fprintf(stderr, "  failures %s %s->%s strat=%d: %ld\n",
                opname_of(std::get<0>(kv.first)), ca_dtype_name[std::get<1>(kv.first)],
                ca_dtype_name[std::get<2>(kv.first)], std::get<3>(kv.first), kv.second);
    }
    // scans
    struct SShape {
        int ndim;
        int64_t s[3];
    } sshapes[] = {
        { 1, { 100003 } },   { 1, { 5000 } },      { 2, { 3, 20000 } },
        { 2, { 3000, 40 } }, { 2, { 40, 3000 } },  { 2, { 64, 7 } },
        { 2, { 3000, 3 } },  { 3, { 4, 5, 300 } }, { 1, { 10 } },
    };
    for (int op = CA_RED_SUM; op <= CA_RED_PROD; op++) {
        for (int in = 0; in < CA_NTYPES; in++) {
            for (auto &sh : sshapes) {
                for (int mode = 0; mode < 3; mode++) {
                    View v =
                        make_view(in, sh.ndim, sh.s, op == CA_RED_PROD, false, mode);
                    for (int ax = 0; ax < sh.ndim; ax++) {
                        if (level < 2 && irand(0, 2) == 0)
                            continue;
                        scan_case(op, in, v, ax);
                    }
                }
            }
        }
    }
    fprintf(stderr, "total: %ld checks, %ld failures, %ld launches\n", checks, failures,
            emu_launches.load());
    return failures != 0;
}

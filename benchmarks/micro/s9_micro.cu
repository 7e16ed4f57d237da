// Session 9 micro-benchmarks: add.outer tiles, add.at with a fused index check, int64 sort policies.
#include <cub/device/device_radix_sort.cuh>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <algorithm>
#include <chrono>
#include <functional>
#include <initializer_list>
#include <type_traits>
#include <vector>

/* the library's check pass, timed beside the fused variants */
#include "../../kernels/gpu/ufunc_at_check.cuh"

#define CK(x)                                                                          \
    do {                                                                               \
        cudaError_t e_ = (x);                                                          \
        if (e_ != cudaSuccess) {                                                       \
            printf("CUDA %s at %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));       \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

static cudaStream_t S;
static int SMS;
static void
free_all(std::initializer_list<void *> ptrs)
{
    for (void *p : ptrs) {
        CK(cudaFree(p));
    }
}

static float
time_events(std::function<void()> f, int calls, int rounds = 5)
{
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    for (int i = 0; i < 3; i++)
        f();
    std::vector<float> r;
    for (int k = 0; k < rounds; k++) {
        CK(cudaEventRecord(a, S));
        for (int i = 0; i < calls; i++)
            f();
        CK(cudaEventRecord(b, S));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        r.push_back(ms * 1000.f / calls);
    }
    std::sort(r.begin(), r.end());
    CK(cudaGetLastError());
    return r[r.size() / 2];
}
static float
time_wall(std::function<void()> f, int calls, int rounds = 5)
{
    for (int i = 0; i < 3; i++)
        f();
    CK(cudaStreamSynchronize(S));
    std::vector<float> r;
    for (int k = 0; k < rounds; k++) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < calls; i++)
            f();
        CK(cudaStreamSynchronize(S));
        auto t1 = std::chrono::steady_clock::now();
        r.push_back(std::chrono::duration<float, std::micro>(t1 - t0).count() / calls);
    }
    std::sort(r.begin(), r.end());
    return r[r.size() / 2];
}

__device__ __forceinline__ uint64_t
mix(uint64_t z)
{
    z += 0x9e3779b97f4a7c15ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
__global__ void
fill_f32(float *x, int64_t n, uint64_t seed)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        x[i] = (float)(mix(i ^ seed) >> 40) * (1.0f / 16777216.0f);
}
__global__ void
fill_i64(int64_t *x, int64_t n, uint64_t seed, int shift, uint64_t mod)
{
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x) {
        uint64_t v = mix(i ^ seed) >> shift;
        x[i] = (int64_t)(mod ? v % mod : v);
    }
}
__global__ void
count_diff(const int64_t *a, const int64_t *b, int64_t n, unsigned long long *c)
{
    unsigned long long k = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n;
         i += (int64_t)gridDim.x * blockDim.x)
        k += a[i] != b[i];
    if (k)
        atomicAdd(c, k);
}
__global__ void
count_unsorted(const int64_t *a, int64_t n, unsigned long long *c)
{
    unsigned long long k = 0;
    for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i + 1 < n;
         i += (int64_t)gridDim.x * blockDim.x)
        k += a[i] > a[i + 1];
    if (k)
        atomicAdd(c, k);
}

/* ---------------- outer ---------------- */
template <int R, int B, int VPT, bool CS>
__global__ void
__launch_bounds__(B) outer_k(const float *a, const float *b, float *out, uint32_t rows,
                             uint32_t wv, uint32_t tiles, uint32_t tpr)
{
    const float4 *b4 = reinterpret_cast<const float4 *>(b);
    float4 *o4 = reinterpret_cast<float4 *>(out);
    for (uint32_t t = blockIdx.x; t < tiles; t += gridDim.x) {
        const uint32_t rt = t / tpr;
        const uint32_t c0 = (t - rt * tpr) * B * VPT + threadIdx.x;
        const uint32_t r0 = rt * R;
        float4 bv[VPT];
        float av[R];
#pragma unroll
        for (int j = 0; j < VPT; j++)
            bv[j] = c0 + j * B < wv ? b4[c0 + j * B] : make_float4(0, 0, 0, 0);
#pragma unroll
        for (int u = 0; u < R; u++)
            av[u] = r0 + u < rows ? a[r0 + u] : 0.f;
#pragma unroll
        for (int u = 0; u < R; u++) {
            if (r0 + u >= rows)
                continue;
#pragma unroll
            for (int j = 0; j < VPT; j++) {
                const uint32_t cv = c0 + j * B;
                if (cv >= wv)
                    continue;
                float4 o = make_float4(av[u] + bv[j].x, av[u] + bv[j].y,
                                       av[u] + bv[j].z, av[u] + bv[j].w);
                float4 *p = o4 + (size_t)(r0 + u) * wv + cv;
                if (CS)
                    __stcs(p, o);
                else
                    *p = o;
            }
        }
    }
}
template <int R, int B, int VPT, bool CS>
static void
outer_case(const char *name, const float *a, const float *b, float *out, int n,
           int grid_cap)
{
    const uint32_t wv = n / 4, tpr = (wv + B * VPT - 1) / (B * VPT),
                   tiles = tpr * ((n + R - 1) / R);
    const uint32_t grid = grid_cap ? std::min<uint32_t>(tiles, grid_cap) : tiles;
    float us = time_events(
        [&] {
            outer_k<R, B, VPT, CS><<<grid, B, 0, S>>>(a, b, out, n, wv, tiles, tpr);
        },
        200);
    printf("outer %-34s grid %6u  %7.2f us  %7.1f GB/s\n", name, grid, us,
           4.0 * n * n / us / 1e3);
}
static void
bench_outer()
{
    const int n = 4096;
    float *a, *b, *out, *tmp;
    CK(cudaMalloc(&a, n * 4));
    CK(cudaMalloc(&b, n * 4));
    CK(cudaMalloc(&out, (size_t)n * n * 4));
    CK(cudaMalloc(&tmp, (size_t)n * n * 4));
    fill_f32<<<64, 256, 0, S>>>(a, n, 1);
    fill_f32<<<64, 256, 0, S>>>(b, n, 2);
    float us =
        time_events([&] { CK(cudaMemsetAsync(out, 0, (size_t)n * n * 4, S)); }, 200);
    printf("outer %-34s              %7.2f us  %7.1f GB/s\n", "cudaMemsetAsync 64 MB",
           us, 4.0 * n * n / us / 1e3);
    us = time_events(
        [&] {
            CK(cudaMemcpyAsync(tmp, out, (size_t)n * n * 4, cudaMemcpyDeviceToDevice,
                               S));
        },
        100);
    printf("outer %-34s              %7.2f us  %7.1f GB/s (r+w)\n",
           "cudaMemcpyAsync D2D 64 MB", us, 8.0 * n * n / us / 1e3);
    // the variants: name, kernel, grid cap in blocks per SM (0: none)
    static const struct {
        const char *name;
        void (*run)(const char *, const float *, const float *, float *, int, int);
        int per_sm;
    } cases[] = {
        { "R4 B256 V1 (current)", outer_case<4, 256, 1, false>, 0 },
        { "R1 B256 V1", outer_case<1, 256, 1, false>, 0 },
        { "R2 B256 V1", outer_case<2, 256, 1, false>, 0 },
        { "R8 B256 V1", outer_case<8, 256, 1, false>, 0 },
        { "R16 B256 V1", outer_case<16, 256, 1, false>, 0 },
        { "R4 B256 V1 stcs", outer_case<4, 256, 1, true>, 0 },
        { "R8 B256 V1 stcs", outer_case<8, 256, 1, true>, 0 },
        { "R4 B128 V1", outer_case<4, 128, 1, false>, 0 },
        { "R4 B512 V1", outer_case<4, 512, 1, false>, 0 },
        { "R8 B512 V1", outer_case<8, 512, 1, false>, 0 },
        { "R4 B256 V2", outer_case<4, 256, 2, false>, 0 },
        { "R2 B256 V2", outer_case<2, 256, 2, false>, 0 },
        { "R4 B256 V1 grid 8/SM", outer_case<4, 256, 1, false>, 8 },
        { "R4 B256 V1 grid 16/SM", outer_case<4, 256, 1, false>, 16 },
        { "R8 B256 V1 grid 8/SM", outer_case<8, 256, 1, false>, 8 },
        { "R4 B256 V1 (current, again)", outer_case<4, 256, 1, false>, 0 },
    };
    for (const auto &c : cases) {
        c.run(c.name, a, b, out, n, c.per_sm * SMS);
    }
    free_all({ a, b, out, tmp });
}

/* ---------------- add.at ---------------- */
template <int U, bool CHECK, bool CS>
__global__ void
at_k(float *t, const int64_t *__restrict__ pos, int64_t extent,
     const float *__restrict__ v, int64_t n, unsigned long long *flag)
{
    bool bad = false;
    int64_t off = 0;
    const int64_t step = (int64_t)gridDim.x * blockDim.x * U;
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x * U + threadIdx.x; i < n;
         i += step) {
        int64_t q[U];
        float x[U];
#pragma unroll
        for (int u = 0; u < U; u++) {
            const int64_t k = i + (int64_t)u * blockDim.x;
            if (k < n) {
                q[u] = CS ? __ldcs(pos + k) : __ldg(pos + k);
                x[u] = CS ? __ldcs(v + k) : __ldg(v + k);
            }
            else {
                q[u] = INT64_MIN;
                x[u] = 0.f;
            }
        }
#pragma unroll
        for (int u = 0; u < U; u++) {
            if (q[u] == INT64_MIN)
                continue;
            if (CHECK && (q[u] < -extent || q[u] >= extent)) {
                bad = true;
                off = q[u];
                continue;
            }
            atomicAdd(t + (q[u] < 0 ? q[u] + extent : q[u]), x[u]);
        }
    }
    if (CHECK && bad && atomicCAS(flag, 0ull, 1ull) == 0ull)
        atomicExch(flag + 1, (unsigned long long)off);
}
static unsigned
grid_for(int64_t n, int per)
{
    int64_t b = (n + 256LL * per - 1) / (256LL * per);
    return (unsigned)std::min<int64_t>(b, 1 << 16);
}

template <int U, bool CHECK, bool CS>
static void
at_case(const char *name, float *t, const int64_t *pos, int64_t ext, const float *v,
        int64_t n, unsigned long long *flag)
{
    float us = time_events(
        [&] {
            at_k<U, CHECK, CS><<<grid_for(n, U), 256, 0, S>>>(t, pos, ext, v, n, flag);
        },
        20);
    printf("at %7lld->%8lld %-30s %8.2f us  %6.1f G/s\n", (long long)n, (long long)ext,
           name, us, n / us / 1e3);
}
static void
bench_at(int64_t n, int64_t bins)
{
    float *t, *v, *saved;
    int64_t *pos;
    unsigned long long *flag, *hflag;
    CK(cudaMalloc(&t, bins * 4));
    CK(cudaMalloc(&saved, bins * 4));
    CK(cudaMalloc(&v, n * 4));
    CK(cudaMalloc(&pos, n * 8));
    CK(cudaMalloc(&flag, 16));
    CK(cudaMallocHost(&hflag, 16));
    CK(cudaMemsetAsync(t, 0, bins * 4, S));
    CK(cudaMemsetAsync(flag, 0, 16, S));
    fill_f32<<<1024, 256, 0, S>>>(v, n, 3);
    fill_i64<<<1024, 256, 0, S>>>(pos, n, 4, 0, (uint64_t)bins);
    float us = time_events(
        [&] { at_check_kernel<<<grid_for(n, 1), 256, 0, S>>>(pos, n, bins, flag); },
        20);
    printf("at %7lld->%8lld %-30s %8.2f us\n", (long long)n, (long long)bins,
           "check pass alone", us);
    us = time_events(
        [&] { CK(cudaMemcpyAsync(saved, t, bins * 4, cudaMemcpyDeviceToDevice, S)); },
        20);
    printf("at %7lld->%8lld %-30s %8.2f us\n", (long long)n, (long long)bins,
           "target copy aside alone", us);
    at_case<1, false, false>("U1 (current scatter)", t, pos, bins, v, n, flag);
    at_case<1, true, false>("U1 fused check", t, pos, bins, v, n, flag);
    at_case<1, true, true>("U1 fused check ldcs", t, pos, bins, v, n, flag);
    at_case<1, false, true>("U1 ldcs", t, pos, bins, v, n, flag);
    at_case<2, true, false>("U2 fused check", t, pos, bins, v, n, flag);
    at_case<2, true, true>("U2 fused check ldcs", t, pos, bins, v, n, flag);
    at_case<4, true, true>("U4 fused check ldcs", t, pos, bins, v, n, flag);
    at_case<1, false, false>("U1 (current, again)", t, pos, bins, v, n, flag);
    // whole calls, host sync per call as the library does
    auto report = [&](const char *name, float us) {
        printf("at %7lld->%8lld %-30s %8.2f us  %6.1f G/s\n", (long long)n,
               (long long)bins, name, us, n / us / 1e3);
    };
    // the flag read back and waited for, as the library's check does
    auto wait_flag = [&] {
        CK(cudaMemcpyAsync(hflag, flag, 16, cudaMemcpyDeviceToHost, S));
        CK(cudaStreamSynchronize(S));
        if (hflag[0])
            exit(2);
    };
    us = time_wall(
        [&] {
            CK(cudaMemsetAsync(flag, 0, 16, S));
            at_check_kernel<<<grid_for(n, 1), 256, 0, S>>>(pos, n, bins, flag);
            wait_flag();
            at_k<1, false, false>
                <<<grid_for(n, 1), 256, 0, S>>>(t, pos, bins, v, n, flag);
        },
        20);
    report("CALL check+sync+scatter", us);
    // the target saved aside, then the fused scatter and check (plain or ldcs loads)
    auto fused_call = [&](auto ldcs) {
        CK(cudaMemcpyAsync(saved, t, bins * 4, cudaMemcpyDeviceToDevice, S));
        CK(cudaMemsetAsync(flag, 0, 16, S));
        at_k<1, true, decltype(ldcs)::value>
            <<<grid_for(n, 1), 256, 0, S>>>(t, pos, bins, v, n, flag);
        wait_flag();
    };
    us = time_wall([&] { fused_call(std::false_type()); }, 20);
    report("CALL copy+fused+sync", us);
    us = time_wall([&] { fused_call(std::true_type()); }, 20);
    report("CALL copy+fused ldcs+sync", us);
    us = time_wall(
        [&] {
            at_k<1, false, false>
                <<<grid_for(n, 1), 256, 0, S>>>(t, pos, bins, v, n, flag);
        },
        20);
    report("CALL scatter only (CuPy-like)", us);
    free_all({ t, saved, v, pos, flag });
    CK(cudaFreeHost(hflag));
}

/* ---------------- int64 sort ---------------- */
typedef int (*sortfn)(void *, size_t *, const int64_t *, int64_t *, uint32_t, int,
                      cudaStream_t);
#define SV(x)                                                                          \
    extern "C" int x(void *, size_t *, const int64_t *, int64_t *, uint32_t, int,      \
                     cudaStream_t);
#include "variants.h"
#include "variants_r9.h"
#undef SV
static int
lib_default(void *tmp, size_t *bytes, const int64_t *in, int64_t *out, uint32_t n,
            int eb, cudaStream_t st)
{
    return (int)cub::DeviceRadixSort::SortKeys(tmp, *bytes, in, out, n, 0, eb, st);
}
static void
bench_sort()
{
    const int64_t n = 1 << 26;
    int64_t *in, *out, *ref;
    unsigned long long *cnt, hc;
    CK(cudaMalloc(&in, n * 8));
    CK(cudaMalloc(&out, n * 8));
    CK(cudaMalloc(&ref, n * 8));
    CK(cudaMalloc(&cnt, 8));
    fill_i64<<<1024, 256, 0, S>>>(in, n, 5, 2, 0); // [0, 2^62) as the benchmark's data
    struct V {
        const char *name;
        sortfn f;
        int eb;
    };
    std::vector<V> vs = { { "cub default (library now)", lib_default, 64 } };
#define SV(x) vs.push_back({ #x, x, 64 });
#include "variants.h"
#undef SV
#define SV(x) vs.push_back({ #x " end_bit 63", x, 63 });
#include "variants_r9.h"
#undef SV
    vs.push_back({ "cub default (again)", lib_default, 64 });
    size_t mx = 0;
    for (auto &v : vs) {
        size_t b = 0;
        if (v.f(nullptr, &b, in, out, (uint32_t)n, v.eb, S)) {
            printf("size query failed %s\n", v.name);
        }
        mx = std::max(mx, b);
    }
    void *tmp;
    CK(cudaMalloc(&tmp, mx));
    {
        size_t b = mx;
        lib_default(tmp, &b, in, ref, (uint32_t)n, 64, S);
    }
    for (auto &v : vs) {
        size_t b = mx;
        int rc = v.f(tmp, &b, in, out, (uint32_t)n, v.eb, S);
        if (rc) {
            printf("sort %-40s rc %d\n", v.name, rc);
            cudaGetLastError();
            continue;
        }
        CK(cudaMemsetAsync(cnt, 0, 8, S));
        count_diff<<<1024, 256, 0, S>>>(out, ref, n, cnt);
        CK(cudaMemcpyAsync(&hc, cnt, 8, cudaMemcpyDeviceToHost, S));
        CK(cudaStreamSynchronize(S));
        float us = time_events(
            [&] {
                size_t bb = mx;
                v.f(tmp, &bb, in, out, (uint32_t)n, v.eb, S);
            },
            5, 5);
        printf("sort %-40s %9.1f us  %6.2f G keys/s  mismatches %llu\n", v.name, us,
               n / us / 1e3, hc);
    }
    CK(cudaMemsetAsync(cnt, 0, 8, S));
    count_unsorted<<<1024, 256, 0, S>>>(ref, n, cnt);
    CK(cudaMemcpyAsync(&hc, cnt, 8, cudaMemcpyDeviceToHost, S));
    CK(cudaStreamSynchronize(S));
    printf("sort reference unsorted pairs: %llu\n", hc);
    free_all({ in, out, ref, tmp, cnt });
}

int
main(int argc, char **argv)
{
    CK(cudaStreamCreateWithFlags(&S, cudaStreamNonBlocking));
    CK(cudaDeviceGetAttribute(&SMS, cudaDevAttrMultiProcessorCount, 0));
    const char *what = argc > 1 ? argv[1] : "all";
    if (!strcmp(what, "all") || !strcmp(what, "outer"))
        bench_outer();
    if (!strcmp(what, "all") || !strcmp(what, "at")) {
        bench_at(1 << 24, 1 << 20);
        bench_at(1 << 20, 1 << 24);
    }
    if (!strcmp(what, "all") || !strcmp(what, "sort"))
        bench_sort();
    CK(cudaDeviceSynchronize());
    printf("mb9 done\n");
    return 0;
}

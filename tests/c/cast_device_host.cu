/*
 * cast_device_host.cu: scalar.h's casts computed on the GPU against the same
 * functions on the host (the cpu device's code), byte for byte: every bit pattern
 * of the 1- and 2-byte types, and random bits plus scaled integers of the wider
 * ones, to all 17 types. The GPU's own conversion instructions differ from the
 * host's where scalar.h lets them in (a half -> float NaN is canonical on the
 * GPU). Built and run by tests/test_cast_device_host.py; prints one line per
 * mismatching pair and "done: N mismatching pairs".
 */
#include "scalar.h"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

template <int D, int S>
__global__ void
kcast(const typename ca_ctype<S>::type *in, typename ca_ctype<D>::type *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = ca_caster<D, S>::cast(in[i]);
}

static const char *const names[CA_NTYPES] = {
    "bool",      "int8",       "uint8",    "int16",         "uint16",     "int32",
    "uint32",    "int64",      "uint64",   "float16",       "float32",    "float64",
    "complex64", "complex128", "bfloat16", "float8_e4m3fn", "float8_e5m2"
};

static int total_bad = 0;

/* A NaN of NumPy's float types may differ in sign and payload (NumPy's own loops
 * differ there, and the GPU's float16 conversions give the canonical NaN); every
 * other result, the ml_dtypes types' NaNs included, must be the same bytes. */
static bool
nan_part(const unsigned char *p, int size)
{
    unsigned long long b = 0;
    memcpy(&b, p, size);
    if (size == 2)
        return (b & 0x7fffu) > 0x7c00u;
    if (size == 4)
        return (b & 0x7fffffffu) > 0x7f800000u;
    return (b & 0x7fffffffffffffffull) > 0x7ff0000000000000ull;
}

template <int D>
bool
same(const typename ca_ctype<D>::type &a, const typename ca_ctype<D>::type &b)
{
    if (memcmp(&a, &b, sizeof a) == 0)
        return true;
    if (D != CA_FLOAT16 && D != CA_FLOAT32 && D != CA_FLOAT64 && D != CA_COMPLEX64 &&
        D != CA_COMPLEX128)
        return false;
    const int parts = (D == CA_COMPLEX64 || D == CA_COMPLEX128) ? 2 : 1;
    const int size = (int)sizeof a / parts;
    const unsigned char *pa = (const unsigned char *)&a,
                        *pb = (const unsigned char *)&b;
    for (int k = 0; k < parts; k++) {
        const unsigned char *x = pa + k * size, *y = pb + k * size;
        if (memcmp(x, y, size) != 0 && !(nan_part(x, size) && nan_part(y, size)))
            return false;
    }
    return true;
}

template <int D, int S>
void
check(const std::vector<unsigned char> &bytes, int n)
{
    typedef typename ca_ctype<S>::type ST;
    typedef typename ca_ctype<D>::type DT;
    ST *din;
    DT *dout;
    cudaMalloc(&din, n * sizeof(ST));
    cudaMalloc(&dout, n * sizeof(DT));
    cudaMemcpy(din, bytes.data(), n * sizeof(ST), cudaMemcpyHostToDevice);
    kcast<D, S><<<(n + 255) / 256, 256>>>(din, dout, n);
    std::vector<DT> got(n);
    cudaMemcpy(got.data(), dout, n * sizeof(DT), cudaMemcpyDeviceToHost);
    const ST *hin = (const ST *)bytes.data();
    int bad = 0, first = -1;
    for (int i = 0; i < n; i++) {
        DT w = ca_caster<D, S>::cast(hin[i]);
        if (!same<D>(w, got[i])) {
            if (first < 0)
                first = i;
            bad++;
        }
    }
    if (bad) {
        unsigned long long sb = 0, wb = 0, gb = 0;
        memcpy(&sb, &hin[first], sizeof(ST) < 8 ? sizeof(ST) : 8);
        DT w = ca_caster<D, S>::cast(hin[first]);
        memcpy(&wb, &w, sizeof(DT) < 8 ? sizeof(DT) : 8);
        memcpy(&gb, &got[first], sizeof(DT) < 8 ? sizeof(DT) : 8);
        printf("MISMATCH %s <- %s: %d/%d, first src %llx host %llx dev %llx\n",
               names[D], names[S], bad, n, sb, wb, gb);
        total_bad++;
    }
    cudaFree(din);
    cudaFree(dout);
}

template <int S>
std::vector<unsigned char>
inputs(int &n)
{
    typedef typename ca_ctype<S>::type ST;
    size_t sz = sizeof(ST);
    std::vector<unsigned char> b;
    if (sz <= 2) {
        n = 1 << (8 * sz);
        b.resize(n * sz);
        for (int i = 0; i < n; i++)
            memcpy(&b[i * sz], &i, sz);
        return b;
    }
    n = 1 << 20;
    b.resize(n * sz);
    unsigned long long x = 88172645463325252ull;
    for (size_t i = 0; i < b.size(); i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        b[i] = (unsigned char)(x >> 24);
    }
    // plus values near the formats' edges: small ints and doubles/floats of them
    for (int i = 0; i < 65536 && (size_t)(i + 1) * sz <= b.size() / 2; i++) {
        long long v = (long long)(i - 32768) *
                      (i % 3 == 0 ? 1 : (i % 3 == 1 ? 65537 : 4294967297ll));
        if (S == CA_FLOAT64) {
            double d = (double)v * 0.001953125;
            memcpy(&b[i * sz], &d, 8);
        }
        else if (S == CA_FLOAT32) {
            float f = (float)v * 0.001953125f;
            memcpy(&b[i * sz], &f, 4);
        }
        else if (S == CA_COMPLEX128) {
            double d[2] = { (double)v * 0.001953125, 1.0 };
            memcpy(&b[i * sz], d, 16);
        }
        else
            memcpy(&b[i * sz], &v, sz);
    }
    return b;
}

template <int S>
void
all_dst()
{
    int n;
    std::vector<unsigned char> b = inputs<S>(n);
#define P_ONE(code, ctype, name) check<code, S>(b, n);
    CA_FOR_EACH_DTYPE(P_ONE)
#undef P_ONE
}

int
main()
{
    all_dst<CA_FLOAT16>();
    all_dst<CA_BFLOAT16>();
    all_dst<CA_FLOAT8_E4M3FN>();
    all_dst<CA_FLOAT8_E5M2>();
    all_dst<CA_FLOAT32>();
    all_dst<CA_FLOAT64>();
    all_dst<CA_INT32>();
    all_dst<CA_INT64>();
    all_dst<CA_UINT32>();
    all_dst<CA_UINT64>();
    all_dst<CA_COMPLEX128>();
    cudaError_t e = cudaDeviceSynchronize();
    printf("done: %d mismatching pairs, cuda %s\n", total_bad, cudaGetErrorString(e));
    return 0;
}

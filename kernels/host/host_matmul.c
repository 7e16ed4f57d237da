/*
 * host_matmul.c: matrix products on the host.
 *
 * ca_matmul_tiled (bool, integers, float32, float64, any strides) has its host
 * loops here and dispatches to matmul_int.cu for a GPU. ca_gemm_host is a reference for
 * cuBLAS's strided-batched gemm: same column-major conventions and operation
 * flags, accumulating in double. The cpu device computes products through
 * NumPy; csrc/ops/linalg.c can route the cpu device through the cuBLAS call plan
 * and this stand-in instead, so the plan (operation flags, leading dimensions,
 * batch strides, copies) is tested where no GPU is present.
 */
#include <string.h>

#include "matmul_impl.h"
#include "scalar.h"

/* ======================================================================== */
/* Bool, integer, float32 and float64 products                                */
/* ======================================================================== */
/* One loop for every product: T elements, accumulated in ACC in order of l.
 * Integer products wrap like NumPy's (which accumulates in the element type): the
 * sum is computed modulo 2^64 in unsigned arithmetic (ACC uint64_t, no signed
 * overflow) and truncated, which is the same residue. Floats accumulate in their
 * own precision (ACC = T): the GPU kernel's arithmetic but for its fused
 * multiply-adds. */
#define CA_MATMUL_LOOP(NAME, T, ACC)                                                   \
    static void NAME(int64_t batch, int64_t m, int64_t n, int64_t k, const char *a,    \
                     int64_t a_sb, int64_t a_sm, int64_t a_sk, const char *b,          \
                     int64_t b_sb, int64_t b_sk, int64_t b_sn, char *c, int64_t c_sb,  \
                     int64_t c_sm, int64_t c_sn)                                       \
    {                                                                                  \
        for (int64_t p = 0; p < batch; p++) {                                          \
            for (int64_t i = 0; i < m; i++) {                                          \
                const char *ar = a + p * a_sb + i * a_sm;                              \
                for (int64_t j = 0; j < n; j++) {                                      \
                    const char *bc = b + p * b_sb + j * b_sn;                          \
                    ACC acc = 0;                                                       \
                    for (int64_t l = 0; l < k; l++) {                                  \
                        T x, y;                                                        \
                        memcpy(&x, ar + l * a_sk, sizeof x);                           \
                        memcpy(&y, bc + l * b_sk, sizeof y);                           \
                        acc += (ACC)x * (ACC)y;                                        \
                    }                                                                  \
                    T r = (T)acc;                                                      \
                    memcpy(c + p * c_sb + i * c_sm + j * c_sn, &r, sizeof r);          \
                }                                                                      \
            }                                                                          \
        }                                                                              \
    }
#define CA_INT_LOOP(NAME, T) CA_MATMUL_LOOP(NAME, T, uint64_t)
CA_INT_LOOP(int_loop_8, uint8_t)
CA_INT_LOOP(int_loop_16, uint16_t)
CA_INT_LOOP(int_loop_32, uint32_t)
CA_INT_LOOP(int_loop_64, uint64_t)

/* Signed elements are read as their unsigned counterparts: the product of
 * the residues modulo 2^N is the residue of the product, so the unsigned
 * loops serve both. */

#define CA_FLOAT_LOOP(NAME, T) CA_MATMUL_LOOP(NAME, T, T)
CA_FLOAT_LOOP(float_loop_32, float)
CA_FLOAT_LOOP(float_loop_64, double)

static void
bool_loop(int64_t batch, int64_t m, int64_t n, int64_t k, const char *a, int64_t a_sb,
          int64_t a_sm, int64_t a_sk, const char *b, int64_t b_sb, int64_t b_sk,
          int64_t b_sn, char *c, int64_t c_sb, int64_t c_sm, int64_t c_sn)
{
    for (int64_t p = 0; p < batch; p++) {
        for (int64_t i = 0; i < m; i++) {
            for (int64_t j = 0; j < n; j++) {
                ca_bool r = 0;
                for (int64_t l = 0; l < k && !r; l++) {
                    r = a[p * a_sb + i * a_sm + l * a_sk] != 0 &&
                        b[p * b_sb + l * b_sk + j * b_sn] != 0;
                }
                c[p * c_sb + i * c_sm + j * c_sn] = (char)r;
            }
        }
    }
}

int
ca_matmul_tiled(int device, int dtype, int64_t batch, int64_t m, int64_t n, int64_t k,
                const void *a, int64_t a_sb, int64_t a_sm, int64_t a_sk, const void *b,
                int64_t b_sb, int64_t b_sk, int64_t b_sn, void *c, int64_t c_sb,
                int64_t c_sm, int64_t c_sn, ca_stream_t stream)
{
    if (!ca_matmul_tiled_dtype(dtype) || batch < 0 || m < 0 || n < 0 || k < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    if (batch == 0 || m == 0 || n == 0) {
        return 0;
    }
    if (device != CA_CPU) {
#if CA_HAVE_CUDA
        return ca_matmul_tiled_cuda(dtype, batch, m, n, k, a, a_sb, a_sm, a_sk, b, b_sb,
                                    b_sk, b_sn, c, c_sb, c_sm, c_sn, stream);
#else
        (void)stream;
        return CA_KERR_NO_CUDA;
#endif
    }
    const char *pa = (const char *)a, *pb = (const char *)b;
    char *pc = (char *)c;
    if (dtype == CA_FLOAT32) {
        float_loop_32(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc,
                      c_sb, c_sm, c_sn);
        return 0;
    }
    if (dtype == CA_FLOAT64) {
        float_loop_64(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc,
                      c_sb, c_sm, c_sn);
        return 0;
    }
    switch (ca_dtype_size[dtype] * (dtype == CA_BOOL ? 0 : 1)) {
    case 0:
        bool_loop(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc, c_sb,
                  c_sm, c_sn);
        break;
    case 1:
        int_loop_8(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc, c_sb,
                   c_sm, c_sn);
        break;
    case 2:
        int_loop_16(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc,
                    c_sb, c_sm, c_sn);
        break;
    case 4:
        int_loop_32(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc,
                    c_sb, c_sm, c_sn);
        break;
    default:
        int_loop_64(batch, m, n, k, pa, a_sb, a_sm, a_sk, pb, b_sb, b_sk, b_sn, pc,
                    c_sb, c_sm, c_sn);
        break;
    }
    return 0;
}

/* ======================================================================== */
/* The cuBLAS stand-in                                                        */
/* ======================================================================== */
typedef struct {
    double re, im;
} zval;

static zval
load(int dtype, const char *p)
{
    zval v = { 0.0, 0.0 };
    switch (dtype) {
    case CA_FLOAT16: {
        ca_half h;
        memcpy(&h, p, sizeof h);
        v.re = ca_half_to_float(h);
        break;
    }
    case CA_BFLOAT16: {
        ca_bf16 h;
        memcpy(&h, p, sizeof h);
        v.re = ca_bf16_to_float(h);
        break;
    }
    case CA_FLOAT32: {
        float f;
        memcpy(&f, p, sizeof f);
        v.re = f;
        break;
    }
    case CA_FLOAT64: memcpy(&v.re, p, sizeof v.re); break;
    case CA_COMPLEX64: {
        ca_complex64 z;
        memcpy(&z, p, sizeof z);
        v.re = z.re;
        v.im = z.im;
        break;
    }
    default: {
        ca_complex128 z;
        memcpy(&z, p, sizeof z);
        v.re = z.re;
        v.im = z.im;
        break;
    }
    }
    return v;
}

static void
store(int dtype, char *p, zval v)
{
    switch (dtype) {
    case CA_FLOAT16: {
        ca_half h = ca_double_to_half(v.re);
        memcpy(p, &h, sizeof h);
        break;
    }
    case CA_BFLOAT16: {
        /* cuBLAS rounds its float32 accumulator once */
        ca_bf16 h = ca_float_to_bf16((float)v.re);
        memcpy(p, &h, sizeof h);
        break;
    }
    case CA_FLOAT32: {
        float f = (float)v.re;
        memcpy(p, &f, sizeof f);
        break;
    }
    case CA_FLOAT64: memcpy(p, &v.re, sizeof v.re); break;
    case CA_COMPLEX64: {
        ca_complex64 z = { (float)v.re, (float)v.im };
        memcpy(p, &z, sizeof z);
        break;
    }
    default: {
        ca_complex128 z = { v.re, v.im };
        memcpy(p, &z, sizeof z);
        break;
    }
    }
}

/* Element (i, l) of op(X), X column-major with leading dimension ld. */
static zval
op_elem(int dtype, int op, const char *x, int64_t ld, int64_t i, int64_t l,
        int64_t size)
{
    zval v = op == 0 ? load(dtype, x + (i + l * ld) * size)
                     : load(dtype, x + (l + i * ld) * size);
    if (op == 2) {
        v.im = -v.im;
    }
    return v;
}

int
ca_gemm_host(int dtype, int opa, int opb, int64_t m, int64_t n, int64_t k,
             const void *a, int64_t lda, int64_t stride_a, const void *b, int64_t ldb,
             int64_t stride_b, void *c, int64_t ldc, int64_t stride_c, int64_t batch)
{
    if ((dtype < CA_FLOAT16 || dtype > CA_COMPLEX128) && dtype != CA_BFLOAT16) {
        return CA_KERR_UNSUPPORTED;
    }
    if (opa < 0 || opa > 2 || opb < 0 || opb > 2 || m < 0 || n < 0 || k < 0 ||
        batch < 0) {
        return CA_KERR_UNSUPPORTED;
    }
    /* cuBLAS's argument rules, so a bad plan fails here as it would there. */
    if (ldc < (m > 1 ? m : 1) ||
        lda < ((opa == 0 ? m : k) > 1 ? (opa == 0 ? m : k) : 1) ||
        ldb < ((opb == 0 ? k : n) > 1 ? (opb == 0 ? k : n) : 1)) {
        return CA_KERR_UNSUPPORTED;
    }
    const int64_t size = ca_dtype_size[dtype];
    for (int64_t p = 0; p < batch; p++) {
        const char *pa = (const char *)a + p * stride_a * size;
        const char *pb = (const char *)b + p * stride_b * size;
        char *pc = (char *)c + p * stride_c * size;
        for (int64_t j = 0; j < n; j++) {
            for (int64_t i = 0; i < m; i++) {
                zval acc = { 0.0, 0.0 };
                for (int64_t l = 0; l < k; l++) {
                    zval x = op_elem(dtype, opa, pa, lda, i, l, size);
                    zval y = op_elem(dtype, opb, pb, ldb, l, j, size);
                    acc.re += x.re * y.re - x.im * y.im;
                    acc.im += x.re * y.im + x.im * y.re;
                }
                store(dtype, pc + (i + j * ldc) * size, acc);
            }
        }
    }
    return 0;
}

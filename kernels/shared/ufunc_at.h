/*
 * ufunc_at.h: the (op, dtype) pairs the unbuffered scatter of ufunc.at applies
 * itself (kernels.h: ca_ufunc_at), and one update of each, written once for
 * the host loop (host_ufunc_at.c) and the GPU kernel (ufunc_at.cu).
 *
 * An update is NumPy's element math of the op's homogeneous loop (ew_math.h,
 * the same helpers the ops.def kernels call): storage in, storage out, float16
 * computed as float32 and rounded once, bool as 0/1.
 */
#ifndef CA_UFUNC_AT_H
#define CA_UFUNC_AT_H

#include "ew_math.h"
#include "kernels.h"

/* X(code, fn, dtype, storage type, math suffix, load kind) per dtype group */
#define CA_AT_G_BOOL(X, c, f) X(c, f, CA_BOOL, ca_bool, b, BOOL)
#define CA_AT_G_INTS(X, c, f)                                                          \
    X(c, f, CA_INT8, int8_t, i8, PLAIN)                                                \
    X(c, f, CA_UINT8, uint8_t, u8, PLAIN)                                              \
    X(c, f, CA_INT16, int16_t, i16, PLAIN)                                             \
    X(c, f, CA_UINT16, uint16_t, u16, PLAIN)                                           \
    X(c, f, CA_INT32, int32_t, i32, PLAIN)                                             \
    X(c, f, CA_UINT32, uint32_t, u32, PLAIN)                                           \
    X(c, f, CA_INT64, int64_t, i64, PLAIN)                                             \
    X(c, f, CA_UINT64, uint64_t, u64, PLAIN)
#define CA_AT_G_FLOATS(X, c, f)                                                        \
    X(c, f, CA_FLOAT16, ca_half, f32, HALF)                                            \
    X(c, f, CA_FLOAT32, float, f32, PLAIN)                                             \
    X(c, f, CA_FLOAT64, double, f64, PLAIN)
#define CA_AT_G_C64(X, c, f)  X(c, f, CA_COMPLEX64, ca_complex64, c64, CPLX)
#define CA_AT_G_C128(X, c, f) X(c, f, CA_COMPLEX128, ca_complex128, c128, CPLX)

/* Every pair: complex128 (16 bytes, no compare-and-swap that wide) only where
 * the update is component-wise (add, subtract); logical ops on bool only. */
#define CA_AT_FOR_EACH(X)                                                              \
    CA_AT_G_BOOL(X, CA_AT_ADD, add)                                                    \
    CA_AT_G_INTS(X, CA_AT_ADD, add)                                                    \
    CA_AT_G_FLOATS(X, CA_AT_ADD, add)                                                  \
    CA_AT_G_C64(X, CA_AT_ADD, add)                                                     \
    CA_AT_G_C128(X, CA_AT_ADD, add)                                                    \
    CA_AT_G_INTS(X, CA_AT_SUBTRACT, sub)                                               \
    CA_AT_G_FLOATS(X, CA_AT_SUBTRACT, sub)                                             \
    CA_AT_G_C64(X, CA_AT_SUBTRACT, sub)                                                \
    CA_AT_G_C128(X, CA_AT_SUBTRACT, sub)                                               \
    CA_AT_G_BOOL(X, CA_AT_MULTIPLY, mul)                                               \
    CA_AT_G_INTS(X, CA_AT_MULTIPLY, mul)                                               \
    CA_AT_G_FLOATS(X, CA_AT_MULTIPLY, mul)                                             \
    CA_AT_G_C64(X, CA_AT_MULTIPLY, mul)                                                \
    CA_AT_G_BOOL(X, CA_AT_MAXIMUM, max)                                                \
    CA_AT_G_INTS(X, CA_AT_MAXIMUM, max)                                                \
    CA_AT_G_FLOATS(X, CA_AT_MAXIMUM, max)                                              \
    CA_AT_G_C64(X, CA_AT_MAXIMUM, max)                                                 \
    CA_AT_G_BOOL(X, CA_AT_MINIMUM, min)                                                \
    CA_AT_G_INTS(X, CA_AT_MINIMUM, min)                                                \
    CA_AT_G_FLOATS(X, CA_AT_MINIMUM, min)                                              \
    CA_AT_G_C64(X, CA_AT_MINIMUM, min)                                                 \
    CA_AT_G_BOOL(X, CA_AT_FMAX, fmax)                                                  \
    CA_AT_G_INTS(X, CA_AT_FMAX, fmax)                                                  \
    CA_AT_G_FLOATS(X, CA_AT_FMAX, fmax)                                                \
    CA_AT_G_C64(X, CA_AT_FMAX, fmax)                                                   \
    CA_AT_G_BOOL(X, CA_AT_FMIN, fmin)                                                  \
    CA_AT_G_INTS(X, CA_AT_FMIN, fmin)                                                  \
    CA_AT_G_FLOATS(X, CA_AT_FMIN, fmin)                                                \
    CA_AT_G_C64(X, CA_AT_FMIN, fmin)                                                   \
    CA_AT_G_BOOL(X, CA_AT_AND, band)                                                   \
    CA_AT_G_INTS(X, CA_AT_AND, band)                                                   \
    CA_AT_G_BOOL(X, CA_AT_OR, bor)                                                     \
    CA_AT_G_INTS(X, CA_AT_OR, bor)                                                     \
    CA_AT_G_BOOL(X, CA_AT_XOR, bxor)                                                   \
    CA_AT_G_INTS(X, CA_AT_XOR, bxor)                                                   \
    CA_AT_G_BOOL(X, CA_AT_LAND, land)                                                  \
    CA_AT_G_BOOL(X, CA_AT_LOR, lor)

#define CA_AT_LOAD_PLAIN(x)     (x)
#define CA_AT_LOAD_BOOL(x)      ((x) != 0)
#define CA_AT_LOAD_HALF(x)      ca_half_to_float(x)
#define CA_AT_LOAD_CPLX(x)      (x)
#define CA_AT_STORE_PLAIN(T, r) ((T)(r))
#define CA_AT_STORE_BOOL(T, r)  ((ca_bool)((r) != 0))
#define CA_AT_STORE_HALF(T, r)  ca_float_to_half((float)(r))
#define CA_AT_STORE_CPLX(T, r)  (r)

/* ca_at_<fn>_<dtype>(old, value): the new element. */
#define CA_AT_ELEM(code, fn, dt, T, sfx, lk)                                           \
    CA_HD T ca_at_##fn##_##dt(T a, T v)                                                \
    {                                                                                  \
        return CA_AT_STORE_##lk(                                                       \
            T, ca_##fn##_##sfx(CA_AT_LOAD_##lk(a), CA_AT_LOAD_##lk(v)));               \
    }
CA_AT_FOR_EACH(CA_AT_ELEM)
#undef CA_AT_ELEM

#endif /* CA_UFUNC_AT_H */

/* layout.c: dimension coalescing and the layout predicates of ca_strided. */
#include "dim_merge.h"
#include "kernels.h"

/* |x| without the undefined behaviour of llabs(INT64_MIN) (no valid stride is). */
static int64_t
abs64(int64_t x)
{
    return x < 0 ? -x : x;
}

/* Dimension a belongs outside dimension b: a larger |stride| in the first operand
 * that differs, operand 0 (the output) first. */
static int
goes_outside(const ca_strided *s, int a, int b)
{
    for (int op = 0; op < s->nops; op++) {
        int64_t x = abs64(s->strides[op][a]), y = abs64(s->strides[op][b]);
        if (x != y) {
            return x > y;
        }
    }
    return 0;
}

static void
swap_dims(ca_strided *s, int a, int b)
{
    int64_t t = s->shape[a];
    s->shape[a] = s->shape[b];
    s->shape[b] = t;
    for (int op = 0; op < s->nops; op++) {
        t = s->strides[op][a];
        s->strides[op][a] = s->strides[op][b];
        s->strides[op][b] = t;
    }
}

int64_t
ca_strided_coalesce(ca_strided *s)
{
    int64_t n = 1;

    for (int d = 0; d < s->ndim; d++) {
        n *= s->shape[d];
    }
    if (n == 0) {
        s->ndim = 1;
        s->shape[0] = 0;
        for (int op = 0; op < s->nops; op++) {
            s->strides[op][0] = 0;
        }
        return 0;
    }

    int64_t *str[CA_MAX_OPERANDS];
    for (int op = 0; op < s->nops; op++) {
        str[op] = s->strides[op];
    }
    int nd = ca_drop_unit_dims(s->ndim, s->shape, s->nops, str);

    /* Walk every dimension the way the output runs forward: where operand 0 has a
     * negative stride, reverse that dimension in all operands at once (the element
     * pairing is unchanged; each base pointer moves to the new first element). */
    for (int d = 0; d < nd; d++) {
        if (s->strides[0][d] >= 0) {
            continue;
        }
        for (int op = 0; op < s->nops; op++) {
            s->data[op] += (s->shape[d] - 1) * s->strides[op][d];
            s->strides[op][d] = -s->strides[op][d];
        }
    }

    /* Stable insertion sort: outermost (largest output stride) first. Stable so
     * ties keep the caller's (C) order. */
    for (int i = 1; i < nd; i++) {
        for (int j = i; j > 0 && goes_outside(s, j, j - 1); j--) {
            swap_dims(s, j, j - 1);
        }
    }

    /* Merge dimension d into the one outside it when, in every operand, stepping
     * the outer one is the same as running off the end of the inner one. */
    s->ndim = ca_merge_dims(nd, s->shape, s->nops, str);
    return n;
}

int
ca_strided_is_contiguous(const ca_strided *s, const int *itemsizes)
{
    for (int d = 0; d < s->ndim; d++) {
        if (s->shape[d] == 0) {
            return 1;
        }
    }
    for (int op = 0; op < s->nops; op++) {
        int64_t expect = itemsizes[op];
        for (int d = s->ndim - 1; d >= 0; d--) {
            if (s->shape[d] == 1) {
                continue;
            }
            if (s->strides[op][d] != expect) {
                return 0;
            }
            expect *= s->shape[d];
        }
    }
    return 1;
}

int
ca_strided_fits_int32(const ca_strided *s)
{
    int64_t n = 1;
    for (int d = 0; d < s->ndim; d++) {
        if (s->shape[d] > INT32_MAX) {
            return 0;
        }
        n *= s->shape[d];
        if (n > INT32_MAX) {
            return 0;
        }
    }
    if (n == 0) {
        return 1;
    }
    /* Every partial sum of r_d * stride_d lies between the sum of the negative
     * terms and the sum of the positive ones: bound both. */
    for (int op = 0; op < s->nops; op++) {
        int64_t pos = 0, neg = 0;
        for (int d = 0; d < s->ndim; d++) {
            int64_t st = s->strides[op][d], ext = s->shape[d] - 1;
            if (ext == 0) {
                continue;
            }
            if (st > INT32_MAX || st < -(int64_t)INT32_MAX) {
                return 0;
            }
            if (st > 0) {
                pos += ext * st;
            }
            else {
                neg += ext * -st;
            }
            if (pos > INT32_MAX || neg > INT32_MAX) {
                return 0;
            }
        }
    }
    return 1;
}

void
ca_strided_extent(const ca_strided *s, int op, int64_t *lo, int64_t *hi)
{
    int64_t a = 0, b = 0;
    for (int d = 0; d < s->ndim; d++) {
        int64_t span = (s->shape[d] - 1) * s->strides[op][d];
        if (s->shape[d] == 0) {
            *lo = 0;
            *hi = -1;
            return;
        }
        if (span > 0) {
            b += span;
        }
        else {
            a += span;
        }
    }
    *lo = a;
    *hi = b;
}

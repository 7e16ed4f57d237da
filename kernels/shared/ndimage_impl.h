/*
 * ndimage_impl.h: the per-point and per-line math of cuarray.scipy.ndimage's
 * kernels (kernels.h's ca_ndi_*), shared by the GPU kernels (gpu/ndimage.cu) and
 * the host loops (host/host_ndimage.c), so both devices compute the same numbers.
 *
 * Everything is float64, as SciPy's ndimage computes (its line buffers are
 * double whatever the array type); the Python layer casts in and out.
 * Boundary modes use SciPy's codes (_ni_support._extend_mode_to_code):
 * filters see grid-wrap as wrap, grid-constant as constant, grid-mirror as
 * reflect (the caller maps them); interpolation keeps all seven.
 */
#ifndef CA_NDIMAGE_IMPL_H
#define CA_NDIMAGE_IMPL_H

#include <math.h>
#include <stdint.h>

#include "scalar.h"

/* ---- boundaries ------------------------------------------------------------ */

/* x mod m in [0, m) for m > 0. */
CA_HD int64_t
ca_ndi_mod(int64_t x, int64_t m)
{
    int64_t r = x % m;
    return r < 0 ? r + m : r;
}

/* The in-range index that integer index i of a line of n reads under `mode`
 * (SciPy's line extension: reflect repeats edge samples, mirror does not), or
 * -1 for the constant value. */
CA_HD int64_t
ca_ndi_map_index(int64_t i, int64_t n, int mode)
{
    if (i >= 0 && i < n) {
        return i;
    }
    switch (mode) {
    case CA_NDI_NEAREST: return i < 0 ? 0 : n - 1;
    case CA_NDI_WRAP:
    case CA_NDI_GRID_WRAP: return ca_ndi_mod(i, n);
    case CA_NDI_REFLECT: {
        int64_t j = ca_ndi_mod(i, 2 * n);
        return j < n ? j : 2 * n - 1 - j;
    }
    case CA_NDI_MIRROR: {
        if (n == 1) {
            return 0;
        }
        int64_t j = ca_ndi_mod(i, 2 * n - 2);
        return j < n ? j : 2 * n - 2 - j;
    }
    default: return -1;
    }
}

/* ---- filters over a footprint -------------------------------------------------- */

/* k-th smallest of v[0:n] (0 <= k < n), reordering v: Hoare's selection. */
CA_HD double
ca_ndi_select(double *v, int64_t n, int64_t k)
{
    int64_t lo = 0, hi = n - 1;
    while (lo < hi) {
        double p = v[lo + (hi - lo) / 2];
        int64_t i = lo, j = hi;
        while (i <= j) {
            while (v[i] < p) {
                i++;
            }
            while (v[j] > p) {
                j--;
            }
            if (i <= j) {
                double t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                j--;
            }
        }
        if (k <= j) {
            hi = j;
        }
        else if (k >= i) {
            lo = i;
        }
        else {
            break;
        }
    }
    return v[k];
}

/* v converted to the ca_dtype t and back (integers wrap through int64, as a
 * C cast does on the targets we build for); t < 0: v itself. */
CA_HD double
ca_ndi_as_type(double v, int t)
{
    switch (t) {
    case CA_BOOL: return v != 0.0;
    case CA_INT8: return (double)(int8_t)(int64_t)v;
    case CA_UINT8: return (double)(uint8_t)(int64_t)v;
    case CA_INT16: return (double)(int16_t)(int64_t)v;
    case CA_UINT16: return (double)(uint16_t)(int64_t)v;
    case CA_INT32: return (double)(int32_t)(int64_t)v;
    case CA_UINT32: return (double)(uint32_t)(int64_t)v;
    case CA_INT64: return (double)(int64_t)v;
    case CA_UINT64: return (double)(uint64_t)v;
    case CA_FLOAT32: return (double)(float)v;
    default: return v;
    }
}

/* The accumulator's start for op (correlation, min, max). */
CA_HD double
ca_ndi_acc0(int op)
{
    return op == CA_NDI_MIN ? INFINITY : op == CA_NDI_MAX ? -INFINITY : 0.0;
}

/* acc combined with tap k's value v (not for CA_NDI_RANK). */
CA_HD double
ca_ndi_accum(const ca_ndi_filter_args *a, double acc, double v, const double *w,
             int64_t k)
{
    switch (a->op) {
    case CA_NDI_CORRELATE: return acc + w[k] * v;
    case CA_NDI_MIN:
        v = w ? ca_ndi_as_type(v - w[k], a->vtype) : v;
        return v < acc ? v : acc;
    default: v = w ? ca_ndi_as_type(v + w[k], a->vtype) : v; return v > acc ? v : acc;
    }
}

/* Output point i of a filter (kernels.h: ca_ndi_filter). buf: a.nk doubles of
 * scratch for CA_NDI_RANK. */
CA_HD double
ca_ndi_filter_point(const ca_ndi_filter_args *a, const double *in, const int64_t *offs,
                    const int64_t *loffs, const double *w, int64_t i, double *buf)
{
    int64_t c[CA_MAX_DIMS];
    int64_t r = i;
    int interior = 1;
    for (int d = a->ndim - 1; d >= 0; d--) {
        c[d] = r % a->shape[d];
        r /= a->shape[d];
        interior &= (c[d] + a->lo[d] >= 0) & (c[d] + a->hi[d] < a->shape[d]);
    }
    double acc = ca_ndi_acc0(a->op);
    for (int64_t k = 0; k < a->nk; k++) {
        double v;
        if (interior) {
            v = in[i + loffs[k]];
        }
        else {
            int64_t j = 0;
            for (int d = 0; d < a->ndim; d++) {
                int64_t m = ca_ndi_map_index(c[d] + offs[k * a->ndim + d], a->shape[d],
                                             a->mode);
                if (m < 0) {
                    j = -1;
                    break;
                }
                j = j * a->shape[d] + m;
            }
            v = j < 0 ? a->cval : in[j];
        }
        if (a->op == CA_NDI_RANK) {
            buf[k] = v;
        }
        else {
            acc = ca_ndi_accum(a, acc, v, w, k);
        }
    }
    return a->op == CA_NDI_RANK ? ca_ndi_select(buf, a->nk, a->rank) : acc;
}

/* ---- spline prefilter (SciPy's ni_splines.c boundary starts) ------------------- */

/* The poles of the B-spline interpolation filter of `order` (2..5) in z[0:2];
 * the count. */
CA_HD int
ca_ndi_spline_poles(int order, double *z)
{
    switch (order) {
    case 2: z[0] = sqrt(8.0) - 3.0; return 1;
    case 3: z[0] = sqrt(3.0) - 2.0; return 1;
    case 4:
        z[0] = sqrt(664.0 - sqrt(438976.0)) + sqrt(304.0) - 19.0;
        z[1] = sqrt(664.0 + sqrt(438976.0)) - sqrt(304.0) - 19.0;
        return 2;
    default:
        z[0] = sqrt(67.5 - sqrt(4436.25)) + sqrt(26.25) - 6.5;
        z[1] = sqrt(67.5 + sqrt(4436.25)) - sqrt(26.25) - 6.5;
        return 2;
    }
}

/* c[k * s] for k in [0, n): one line with stride s (elements). The causal start
 * c[0] and the anticausal start c[n-1] for pole z by the line's boundary: the
 * mirror form (mirror, constant, wrap), the reflect form (reflect, nearest,
 * grid-mirror) or the periodic one (grid-wrap). */
CA_HD void
ca_ndi_spline_starts(double *c, int64_t n, int64_t s, double z, int mode, int anti)
{
#define C_(k) c[(k)*s]
    if (mode == CA_NDI_GRID_WRAP) {
        double zi = z;
        if (!anti) {
            for (int64_t i = 1; i < n; i++, zi *= z) {
                C_(0) += zi * C_(n - i);
            }
            C_(0) /= 1.0 - zi;
        }
        else {
            for (int64_t i = 0; i < n - 1; i++, zi *= z) {
                C_(n - 1) += zi * C_(i);
            }
            C_(n - 1) *= z / (zi - 1.0);
        }
    }
    else if (mode == CA_NDI_REFLECT || mode == CA_NDI_NEAREST) {
        if (!anti) {
            /* The sum goes to a local: its last term reads c[0] itself, which
             * must still be the input (SciPy before 1.18 summed into c[0] and
             * so was off by about z^(2n); scipy/scipy#24615). */
            double zi = z, zn = pow(z, (double)n), c0 = C_(0);
            double sum = c0 + zn * C_(n - 1);
            for (int64_t i = 1; i < n; i++, zi *= z) {
                sum += zi * (C_(i) + zn * C_(n - 1 - i));
            }
            C_(0) = c0 + sum * z / (1.0 - zn * zn);
        }
        else {
            C_(n - 1) *= z / (z - 1.0);
        }
    }
    else {
        if (!anti) {
            double zi = z, zn1 = pow(z, (double)(n - 1));
            C_(0) += zn1 * C_(n - 1);
            for (int64_t i = 1; i < n - 1; i++, zi *= z) {
                C_(0) += zi * (C_(i) + zn1 * C_(n - 1 - i));
            }
            C_(0) /= 1.0 - zn1 * zn1;
        }
        else {
            C_(n - 1) = (z * C_(n - 2) + C_(n - 1)) * z / (z * z - 1.0);
        }
    }
#undef C_
}

/* The B-spline coefficients of one line in place (n >= 2, order 2..5). */
CA_HD void
ca_ndi_spline_line(double *c, int64_t n, int64_t s, int order, int mode)
{
    double z[2];
    int np = ca_ndi_spline_poles(order, z);
    double gain = 1.0;
    for (int p = 0; p < np; p++) {
        gain *= (1.0 - z[p]) * (1.0 - 1.0 / z[p]);
    }
    for (int64_t i = 0; i < n; i++) {
        c[i * s] *= gain;
    }
    for (int p = 0; p < np; p++) {
        double zp = z[p];
        ca_ndi_spline_starts(c, n, s, zp, mode, 0);
        for (int64_t i = 1; i < n; i++) {
            c[i * s] += zp * c[(i - 1) * s];
        }
        ca_ndi_spline_starts(c, n, s, zp, mode, 1);
        for (int64_t i = n - 2; i >= 0; i--) {
            c[i * s] = zp * (c[(i + 1) * s] - c[i * s]);
        }
    }
}

/* ---- interpolation (SciPy's ni_interpolation.c map_coordinate) ----------------- */

/* The centred B-spline of `order` (0..5) at x. */
CA_HD double
ca_ndi_bspline(int order, double x)
{
    double a = fabs(x), t;
    switch (order) {
    case 0: return a < 0.5 ? 1.0 : 0.0;
    case 1: return a < 1.0 ? 1.0 - a : 0.0;
    case 2:
        if (a < 0.5) {
            return 0.75 - a * a;
        }
        t = 1.5 - a;
        return a < 1.5 ? 0.5 * t * t : 0.0;
    case 3:
        if (a < 1.0) {
            return 2.0 / 3.0 - a * a + 0.5 * a * a * a;
        }
        t = 2.0 - a;
        return a < 2.0 ? t * t * t / 6.0 : 0.0;
    case 4:
        if (a < 0.5) {
            return 115.0 / 192.0 - 0.625 * a * a + 0.25 * a * a * a * a;
        }
        if (a < 1.5) {
            return (55.0 + 20.0 * a - 120.0 * a * a + 80.0 * a * a * a -
                    16.0 * a * a * a * a) /
                   96.0;
        }
        t = 5.0 - 2.0 * a;
        return a < 2.5 ? t * t * t * t / 384.0 : 0.0;
    default:
        if (a < 1.0) {
            return 0.55 - 0.5 * a * a + 0.25 * a * a * a * a - a * a * a * a * a / 12.0;
        }
        if (a < 2.0) {
            return 17.0 / 40.0 + 0.625 * a - 1.75 * a * a + 1.25 * a * a * a -
                   0.375 * a * a * a * a + a * a * a * a * a / 24.0;
        }
        t = 3.0 - a;
        return a < 3.0 ? t * t * t * t * t / 120.0 : 0.0;
    }
}

/* A coordinate outside [0, n-1] folded back by `mode` (SciPy's map_coordinate);
 * -1 for constant. */
CA_HD double
ca_ndi_map_coord(double x, int64_t n, int mode)
{
    if (x >= 0.0 && x <= (double)(n - 1)) {
        return x;
    }
    if (n <= 1 && mode != CA_NDI_CONSTANT) {
        return 0.0;
    }
    double len = (double)n;
    if (x < 0.0) {
        switch (mode) {
        case CA_NDI_MIRROR: {
            double p = 2.0 * len - 2.0;
            x = p * (double)(int64_t)(-x / p) + x;
            return x <= 1.0 - len ? x + p : -x;
        }
        case CA_NDI_REFLECT: {
            double p = 2.0 * len;
            if (x < -p) {
                x = p * (double)(int64_t)(-x / p) + x;
            }
            return x < -len ? x + p : (x > -1e-15 ? 1e-15 : -x) - 1.0;
        }
        case CA_NDI_WRAP: {
            double p = len - 1.0;
            return x + p * ((double)(int64_t)(-x / p) + 1.0);
        }
        case CA_NDI_GRID_WRAP:
            return x + len * ((double)(int64_t)((-1.0 - x) / len) + 1.0);
        case CA_NDI_NEAREST: return 0.0;
        default: return -1.0;
        }
    }
    switch (mode) {
    case CA_NDI_MIRROR: {
        double p = 2.0 * len - 2.0;
        x -= p * (double)(int64_t)(x / p);
        return x >= len ? p - x : x;
    }
    case CA_NDI_REFLECT: {
        double p = 2.0 * len;
        x -= p * (double)(int64_t)(x / p);
        return x >= len ? p - x - 1.0 : x;
    }
    case CA_NDI_WRAP: {
        double p = len - 1.0;
        return x - p * (double)(int64_t)(x / p);
    }
    case CA_NDI_GRID_WRAP: return x - len * (double)(int64_t)(x / len);
    case CA_NDI_NEAREST: return len - 1.0;
    default: return -1.0;
    }
}

/* The coefficient index a spline tap at integer j of a line of n reads: the
 * coefficients extend as the prefilter assumed (mirror, reflect or periodic;
 * nearest repeats the edge); -1 (grid-constant: the constant value). */
CA_HD int64_t
ca_ndi_tap_index(int64_t j, int64_t n, int mode)
{
    if (j >= 0 && j < n) {
        return j;
    }
    switch (mode) {
    case CA_NDI_GRID_CONSTANT: return -1;
    case CA_NDI_GRID_WRAP: return ca_ndi_mod(j, n);
    case CA_NDI_NEAREST:
    case CA_NDI_REFLECT: return ca_ndi_map_index(j, n, mode);
    default: return ca_ndi_map_index(j, n, CA_NDI_MIRROR);
    }
}

/* The value at coordinate x[0:ndim] of the coefficients `in` (C order,
 * a->shape; kernels.h: ca_ndi_map). */
CA_HD double
ca_ndi_map_point(const ca_ndi_map_args *a, const double *in, const double *x)
{
    int order = a->order, nd = a->ndim;
    int64_t start[CA_NDI_MAP_DIMS];
    double wts[CA_NDI_MAP_DIMS][6];
    int64_t idx[CA_NDI_MAP_DIMS][6];
    for (int d = 0; d < nd; d++) {
        int64_t n = a->shape[d];
        double cc = x[d];
        /* grid-constant and nearest interpolate anywhere (their taps read the
         * constant or the edge); the other modes fold the coordinate first */
        if (a->mode != CA_NDI_GRID_CONSTANT && a->mode != CA_NDI_NEAREST) {
            cc = ca_ndi_map_coord(cc, n, a->mode);
            if (cc <= -1.0) {
                return a->cval;
            }
        }
        start[d] = (order & 1) ? (int64_t)floor(cc) - order / 2
                               : (int64_t)floor(cc + 0.5) - order / 2;
        for (int t = 0; t <= order; t++) {
            int64_t j = start[d] + t;
            wts[d][t] = order == 0 ? 1.0 : ca_ndi_bspline(order, cc - (double)j);
            idx[d][t] = ca_ndi_tap_index(j, n, a->mode);
        }
    }
    /* sum over the (order + 1)^ndim taps, the last dimension fastest */
    int t[CA_NDI_MAP_DIMS];
    for (int d = 0; d < nd; d++) {
        t[d] = 0;
    }
    double acc = 0.0;
    for (;;) {
        double wgt = 1.0;
        int64_t j = 0;
        for (int d = 0; d < nd; d++) {
            wgt *= wts[d][t[d]];
            j = (j < 0 || idx[d][t[d]] < 0) ? -1 : j * a->shape[d] + idx[d][t[d]];
        }
        acc += wgt * (j < 0 ? a->cval : in[j]);
        int d = nd - 1;
        while (d >= 0 && ++t[d] > order) {
            t[d] = 0;
            d--;
        }
        if (d < 0) {
            break;
        }
    }
    return acc;
}

/* The coordinate of output point i: coords[d * nout + i], or the affine map
 * matrix[d, :ndim] @ (its index) + matrix[d, ndim]. */
CA_HD void
ca_ndi_map_coords(const ca_ndi_map_args *a, const double *coords, const double *matrix,
                  int64_t i, double *x)
{
    if (coords != NULL) {
        for (int d = 0; d < a->ndim; d++) {
            x[d] = coords[d * a->nout + i];
        }
        return;
    }
    double o[CA_MAX_DIMS];
    int64_t r = i;
    for (int d = a->out_ndim - 1; d >= 0; d--) {
        o[d] = (double)(r % a->out_shape[d]);
        r /= a->out_shape[d];
    }
    for (int d = 0; d < a->ndim; d++) {
        const double *row = matrix + d * (a->out_ndim + 1);
        double s = row[a->out_ndim];
        for (int e = 0; e < a->out_ndim; e++) {
            s += row[e] * o[e];
        }
        x[d] = s;
    }
}

/* ---- labels ---------------------------------------------------------------------- */

/* The root of i (parents only ever point at smaller indices). */
CA_HD int64_t
ca_ndi_find(const int64_t *p, int64_t i)
{
    while (p[i] != i) {
        i = p[i];
    }
    return i;
}

/* The index of the neighbour at offset k of point i (c: i's coordinates), or
 * -1 outside the array. */
CA_HD int64_t
ca_ndi_neighbour(const ca_ndi_shape *s, const int64_t *offs, int64_t k,
                 const int64_t *c)
{
    int64_t j = 0;
    for (int d = 0; d < s->ndim; d++) {
        int64_t m = c[d] + offs[k * s->ndim + d];
        if (m < 0 || m >= s->shape[d]) {
            return -1;
        }
        j = j * s->shape[d] + m;
    }
    return j;
}

CA_HD void
ca_ndi_unravel(const ca_ndi_shape *s, int64_t i, int64_t *c)
{
    for (int d = s->ndim - 1; d >= 0; d--) {
        c[d] = i % s->shape[d];
        i /= s->shape[d];
    }
}

/* ---- exact Euclidean distance, one line (Felzenszwalb & Huttenlocher) ---------- */

/* f[k * s] (squared distances so far; inf: none yet) for k in [0, n) becomes
 * min_q f[q] + (h (k - q))^2; arg (if not NULL) the minimising q. v (int64) and
 * z (double) hold n and n + 1 entries of scratch, g n entries (a copy of f). */
CA_HD void
ca_ndi_edt_line(double *f, int64_t n, int64_t s, double h, int64_t *arg, int64_t *v,
                double *z, double *g)
{
    int64_t k = -1;
    double h2 = h * h;
    for (int64_t q = 0; q < n; q++) {
        g[q] = f[q * s];
        if (isinf(g[q])) {
            continue;
        }
        for (;;) {
            if (k < 0) {
                k = 0;
                v[0] = q;
                z[0] = -INFINITY;
                z[1] = INFINITY;
                break;
            }
            int64_t p = v[k];
            double x = ((g[q] + h2 * (double)q * q) - (g[p] + h2 * (double)p * p)) /
                       (2.0 * h2 * (double)(q - p));
            if (x <= z[k]) {
                k--;
                continue;
            }
            k++;
            v[k] = q;
            z[k] = x;
            z[k + 1] = INFINITY;
            break;
        }
    }
    int64_t j = 0;
    for (int64_t q = 0; q < n; q++) {
        if (k < 0) {
            f[q * s] = INFINITY;
            if (arg) {
                arg[q * s] = q;
            }
            continue;
        }
        while (z[j + 1] < (double)q) {
            j++;
        }
        double dq = h * (double)(q - v[j]);
        f[q * s] = g[v[j]] + dq * dq;
        if (arg) {
            arg[q * s] = v[j];
        }
    }
}

#endif /* CA_NDIMAGE_IMPL_H */

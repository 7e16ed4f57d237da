/*
 * random_dist.h: the distributions of ca_random_dist (kernels.h), one sample
 * function per distribution, shared by the GPU kernels (random_dist.cu) and
 * the host loops (host_random_dist.c).
 *
 * Two kinds of op (kernels.h lists them):
 *
 * - Transforms (op < CA_RD_NTRANSFORM): each sample is a closed-form function
 *   of one uniform (or, for the normal family, one Box-Muller normal) and its
 *   parameters. They use the Philox blocks exactly as uniform()/normal() do:
 *   4 float32 or 2 float64 (or int64) samples per block, sample i from block
 *   i / per-block, so a transform of float32 is as fast as uniform().
 * - Stream ops: sample i owns a private word stream: block (offset + i) of
 *   the call, then counter (.., .., attempt, tag) for attempt = 1, 2, ... of
 *   the same block, so rejection loops run inside the kernel and never meet
 *   another sample's (or call's) words. These compute in double.
 *
 * With cuRAND bit generators (`words` non-NULL, 4 words per block) the blocks
 * come from the buffer instead of Philox; a stream op's refills are then
 * Philox blocks keyed by the sample's own four buffer words (tag 1).
 *
 * The methods are NumPy's (Marsaglia-Tsang gamma, Hormann's PTRS Poisson and
 * BTRS binomial, Best-Fisher von Mises, Kemp's logseries, ...): the comments at
 * each function say which. Every rejection loop is bounded (CA_RD_MAX_TRIES
 * attempts, after which the sample is NaN or -1): a NaN parameter must not
 * hang a GPU thread.
 */
#ifndef CA_RANDOM_DIST_H
#define CA_RANDOM_DIST_H

#include "random_impl.h"

#define CA_RD_PI          3.14159265358979323846
#define CA_RD_MAX_TRIES   100000
#define CA_RD_INT64_MAX_D 9.2233720368547758e18

/* ---- the per-sample word stream ------------------------------------------- */
typedef struct {
    uint32_t k0, k1; /* Philox key */
    uint32_t c0, c1; /* counter words 0 and 1 */
    uint32_t tag;    /* counter word 3 */
    uint32_t attempt;
    int pos;
    ca_u32x4 w;
    int have_z; /* a cached second Box-Muller normal */
    double z;
} ca_rd_stream;

CA_HD void
ca_rd_stream_init(ca_rd_stream *s, uint64_t seed, uint64_t block, const uint32_t *words,
                  uint64_t i)
{
    s->attempt = 0;
    s->pos = 0;
    s->have_z = 0;
    s->z = 0.0;
    if (words != NULL) {
        const uint32_t *p = words + 4 * i;
        s->w.x = p[0];
        s->w.y = p[1];
        s->w.z = p[2];
        s->w.w = p[3];
        s->k0 = p[0];
        s->k1 = p[1];
        s->c0 = p[2];
        s->c1 = p[3];
        s->tag = 1;
        return;
    }
    s->k0 = (uint32_t)seed;
    s->k1 = (uint32_t)(seed >> 32);
    s->c0 = (uint32_t)block;
    s->c1 = (uint32_t)(block >> 32);
    s->tag = 0;
    s->w = ca_philox_block(seed, block, 0);
}

CA_HD uint32_t
ca_rd_u32(ca_rd_stream *s)
{
    if (s->pos == 4) {
        ca_u32x4 c;
        c.x = s->c0;
        c.y = s->c1;
        c.z = ++s->attempt;
        c.w = s->tag;
        s->w = ca_philox4x32_10(c, s->k0, s->k1);
        s->pos = 0;
    }
    return ca_u32x4_get(s->w, s->pos++);
}

/* (0, 1), 52 random bits. */
CA_HD double
ca_rd_u01(ca_rd_stream *s)
{
    uint32_t lo = ca_rd_u32(s);
    uint32_t hi = ca_rd_u32(s);
    return ca_u01_open_f64(lo, hi);
}

CA_HD double
ca_rd_normal(ca_rd_stream *s)
{
    if (s->have_z) {
        s->have_z = 0;
        return s->z;
    }
    ca_u32x4 w;
    w.x = ca_rd_u32(s);
    w.y = ca_rd_u32(s);
    w.z = ca_rd_u32(s);
    w.w = ca_rd_u32(s);
    double z0, z1;
    ca_box_muller_f64(w, &z0, &z1);
    s->z = z1;
    s->have_z = 1;
    return z0;
}

CA_HD double
ca_rd_exp(ca_rd_stream *s)
{
    return -log(ca_rd_u01(s));
}

/* ---- transforms ------------------------------------------------------------ */
/* Which base value a transform takes: a [0, 1) uniform (as uniform()), an
 * open (0, 1) uniform, or a Box-Muller normal. */
enum { CA_RD_BASE_U01 = 0, CA_RD_BASE_OPEN = 1, CA_RD_BASE_NORMAL = 2 };

CA_HD int
ca_rd_base(int op)
{
    switch (op) {
    case CA_RD_UNIFORM:
    case CA_RD_POWER:
    case CA_RD_TRIANGULAR: return CA_RD_BASE_U01;
    case CA_RD_NORMAL:
    case CA_RD_LOGNORMAL: return CA_RD_BASE_NORMAL;
    default: return CA_RD_BASE_OPEN;
    }
}

/* (0, 1) with 24 bits: (2k + 1) 2^-24 for the top 23 bits k, exact in float. */
CA_HD float
ca_u01_open2_f32(uint32_t x)
{
    return fmaf((float)(x >> 9), 1.1920928955078125e-07f, 5.9604644775390625e-08f);
}

/* One float32 sample of transform `op` from its base value. */
CA_HD float
ca_rd_transform_f32(int op, float u, float a, float b, float c)
{
    switch (op) {
    case CA_RD_UNIFORM:
    case CA_RD_NORMAL: return fmaf(u, b, a);
    case CA_RD_LOGNORMAL: return expf(fmaf(u, b, a));
    case CA_RD_EXPONENTIAL: return -logf(u) * a;
    case CA_RD_GUMBEL: return a - b * logf(-logf(u));
    case CA_RD_LAPLACE:
        return u >= 0.5f ? a - b * logf(2.0f - 2.0f * u) : a + b * logf(2.0f * u);
    case CA_RD_LOGISTIC: return a + b * logf(u / (1.0f - u));
    case CA_RD_PARETO: return expm1f(-logf(u) / a);
    case CA_RD_POWER: return powf(u, 1.0f / a);
    case CA_RD_RAYLEIGH: return a * sqrtf(-2.0f * logf(u));
    case CA_RD_WEIBULL: return a == 0.0f ? 0.0f : powf(-logf(u), 1.0f / a);
    case CA_RD_CAUCHY: return tanf((float)CA_RD_PI * (u - 0.5f));
    case CA_RD_TRIANGULAR: {
        float base = c - a, lb = b - a;
        if (u <= lb / base) {
            return a + sqrtf(u * lb * base);
        }
        return c - sqrtf((1.0f - u) * (c - b) * base);
    }
    default: return NAN;
    }
}

CA_HD double
ca_rd_transform_f64(int op, double u, double a, double b, double c)
{
    switch (op) {
    case CA_RD_UNIFORM:
    case CA_RD_NORMAL: return fma(u, b, a);
    case CA_RD_LOGNORMAL: return exp(fma(u, b, a));
    case CA_RD_EXPONENTIAL: return -log(u) * a;
    case CA_RD_GUMBEL: return a - b * log(-log(u));
    case CA_RD_LAPLACE:
        return u >= 0.5 ? a - b * log(2.0 - 2.0 * u) : a + b * log(2.0 * u);
    case CA_RD_LOGISTIC: return a + b * log(u / (1.0 - u));
    case CA_RD_PARETO: return expm1(-log(u) / a);
    case CA_RD_POWER: return pow(u, 1.0 / a);
    case CA_RD_RAYLEIGH: return a * sqrt(-2.0 * log(u));
    case CA_RD_WEIBULL: return a == 0.0 ? 0.0 : pow(-log(u), 1.0 / a);
    case CA_RD_CAUCHY: return tan(CA_RD_PI * (u - 0.5));
    case CA_RD_TRIANGULAR: {
        double base = c - a, lb = b - a;
        if (u <= lb / base) {
            return a + sqrt(u * lb * base);
        }
        return c - sqrt((1.0 - u) * (c - b) * base);
    }
    default: return NAN;
    }
}

/* Geometric (trials to the first success): inversion, ceil(log U / log(1-p)). */
CA_HD int64_t
ca_rd_geometric(double u, double p)
{
    if (p >= 1.0) {
        return 1;
    }
    if (!(p > 0.0)) {
        return -1;
    }
    double x = ceil(log(u) / log1p(-p));
    if (!(x >= 1.0)) {
        return 1;
    }
    return x >= CA_RD_INT64_MAX_D ? INT64_MAX : (int64_t)x;
}

/* The base values of one Philox block: 4 (float32) or 2 (float64) of them. */
CA_HD void
ca_rd_base_f32(int base, ca_u32x4 r, float v[4])
{
    if (base == CA_RD_BASE_NORMAL) {
        ca_box_muller_f32(r.x, r.y, &v[0], &v[1]);
        ca_box_muller_f32(r.z, r.w, &v[2], &v[3]);
    }
    else if (base == CA_RD_BASE_U01) {
        v[0] = ca_u01_f32(r.x);
        v[1] = ca_u01_f32(r.y);
        v[2] = ca_u01_f32(r.z);
        v[3] = ca_u01_f32(r.w);
    }
    else {
        v[0] = ca_u01_open2_f32(r.x);
        v[1] = ca_u01_open2_f32(r.y);
        v[2] = ca_u01_open2_f32(r.z);
        v[3] = ca_u01_open2_f32(r.w);
    }
}

CA_HD void
ca_rd_base_f64(int base, ca_u32x4 r, double v[2])
{
    if (base == CA_RD_BASE_NORMAL) {
        ca_box_muller_f64(r, &v[0], &v[1]);
    }
    else if (base == CA_RD_BASE_U01) {
        v[0] = ca_u01_f64(r.x, r.y);
        v[1] = ca_u01_f64(r.z, r.w);
    }
    else {
        v[0] = ca_u01_open_f64(r.x, r.y);
        v[1] = ca_u01_open_f64(r.z, r.w);
    }
}

/* Parameter k of sample i. */
CA_HD double
ca_rd_param(const ca_rd_params *p, int k, uint64_t i)
{
    return p->p[k] != NULL ? p->p[k][i] : p->v[k];
}

/* Block j of a call: Philox, or the cuRAND words. */
CA_HD ca_u32x4
ca_rd_block(uint64_t seed, uint64_t offset, const uint32_t *words, uint64_t j)
{
    if (words != NULL) {
        ca_u32x4 r;
        r.x = words[4 * j];
        r.y = words[4 * j + 1];
        r.z = words[4 * j + 2];
        r.w = words[4 * j + 3];
        return r;
    }
    return ca_philox_block(seed, offset + j, 0);
}

/* ---- gamma family ------------------------------------------------------------ */
/* Marsaglia and Tsang (2000) for a >= 1: d = a - 1/3, c = 1/sqrt(9d); accept
 * d v^3 (v = (1 + c x)^3, x normal) by the squeeze or the log test. */
CA_HD double
ca_rd_gamma_mt(ca_rd_stream *s, double a)
{
    const double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double x = ca_rd_normal(s);
        double v = 1.0 + c * x;
        if (v <= 0.0) {
            continue;
        }
        v = v * v * v;
        double u = ca_rd_u01(s);
        double x2 = x * x;
        if (u < 1.0 - 0.0331 * x2 * x2) {
            return d * v;
        }
        if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) {
            return d * v;
        }
    }
    return NAN;
}

/* Standard gamma: Marsaglia-Tsang; for a < 1, gamma(a + 1) U^(1/a). */
CA_HD double
ca_rd_gamma(ca_rd_stream *s, double a)
{
    if (!(a > 0.0)) {
        return a == 0.0 ? 0.0 : NAN;
    }
    if (a < 1.0) {
        double g = ca_rd_gamma_mt(s, a + 1.0);
        return g * exp(log(ca_rd_u01(s)) / a);
    }
    return ca_rd_gamma_mt(s, a);
}

CA_HD double
ca_rd_chisquare(ca_rd_stream *s, double df)
{
    return 2.0 * ca_rd_gamma(s, 0.5 * df);
}

/* Beta: Johnk's method for a, b <= 1 (in logs when X + Y underflows), else
 * the ratio of two gammas. */
CA_HD double
ca_rd_beta(ca_rd_stream *s, double a, double b)
{
    if (a <= 1.0 && b <= 1.0) {
        for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
            double u = ca_rd_u01(s), v = ca_rd_u01(s);
            double x = pow(u, 1.0 / a), y = pow(v, 1.0 / b), xy = x + y;
            if (xy <= 1.0) {
                if (xy > 0.0) {
                    return x / xy;
                }
                double lx = log(u) / a, ly = log(v) / b;
                double lm = lx > ly ? lx : ly;
                lx -= lm;
                ly -= lm;
                return exp(lx - log(exp(lx) + exp(ly)));
            }
        }
        return NAN;
    }
    double ga = ca_rd_gamma(s, a), gb = ca_rd_gamma(s, b);
    return ga / (ga + gb);
}

/* ---- Poisson ------------------------------------------------------------------- */
/* lam < 10: inversion (sequential search of the CDF from 0; one uniform), with
 * e = exp(-lam) given: a loop drawing many samples of one lam computes it once. */
CA_HD int64_t
ca_rd_poisson_small_e(ca_rd_stream *s, double lam, double e)
{
    double u = ca_rd_u01(s);
    double p = e, f = p;
    int64_t k = 0;
    while (u > f && k < 1000) {
        k++;
        p *= lam / (double)k;
        f += p;
    }
    return k;
}

CA_HD int64_t
ca_rd_poisson_small(ca_rd_stream *s, double lam)
{
    return ca_rd_poisson_small_e(s, lam, exp(-lam));
}

/* lam >= 10: Hormann's transformed rejection with squeeze (PTRS, 1993). */
CA_HD int64_t
ca_rd_poisson_ptrs(ca_rd_stream *s, double lam)
{
    const double slam = sqrt(lam), loglam = log(lam);
    const double b = 0.931 + 2.53 * slam, a = -0.059 + 0.02483 * b;
    const double invalpha = 1.1239 + 1.1328 / (b - 3.4), vr = 0.9277 - 3.6224 / (b - 2);
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double u = ca_rd_u01(s) - 0.5, v = ca_rd_u01(s);
        double us = 0.5 - fabs(u);
        double k = floor((2 * a / us + b) * u + lam + 0.43);
        if (us >= 0.07 && v <= vr) {
            return (int64_t)k;
        }
        if (k < 0 || (us < 0.013 && v > us)) {
            continue;
        }
        if (log(v) + log(invalpha) - log(a / (us * us) + b) <=
            -lam + k * loglam - lgamma(k + 1)) {
            return (int64_t)k;
        }
    }
    return -1;
}

CA_HD int64_t
ca_rd_poisson(ca_rd_stream *s, double lam)
{
    if (!(lam >= 0.0) || lam > 1e18) {
        return -1;
    }
    if (lam == 0.0) {
        return 0;
    }
    return lam < 10.0 ? ca_rd_poisson_small(s, lam) : ca_rd_poisson_ptrs(s, lam);
}

/* ---- binomial ------------------------------------------------------------------ */
/* n p < 30 (p <= 1/2): inversion from 0 (NumPy's), restarted past a bound. */
CA_HD int64_t
ca_rd_binomial_inv(ca_rd_stream *s, double n, double p)
{
    const double q = 1.0 - p, qn = exp(n * log1p(-p)), np = n * p;
    const double r = p / q, g = r * (n + 1.0);
    double bound = np + 10.0 * sqrt(np * q + 1.0);
    if (bound > n) {
        bound = n;
    }
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double u = ca_rd_u01(s), px = qn;
        double x = 0.0;
        while (u > px) {
            x += 1.0;
            if (x > bound) {
                break;
            }
            u -= px;
            px *= (g / x - r);
        }
        if (x <= bound) {
            return (int64_t)x;
        }
    }
    return -1;
}

/* log(k!) - Stirling's approximation of it, exact below 10. */
CA_HD double
ca_rd_stirling_tail(double k)
{
    switch ((int)(k < 10.0 ? k : 10.0)) {
    case 0: return 0.08106146679532733;
    case 1: return 0.04134069595540946;
    case 2: return 0.027677925684997717;
    case 3: return 0.02079067210376584;
    case 4: return 0.01664469118982126;
    case 5: return 0.013876128823072875;
    case 6: return 0.011896709945893313;
    case 7: return 0.010411265261973668;
    case 8: return 0.00925546218270945;
    case 9: return 0.008330563433359472;
    default: {
        double k1 = k + 1.0, k1sq = k1 * k1;
        return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / k1sq) / k1sq) / k1;
    }
    }
}

/* n p >= 30 (p <= 1/2): Hormann's BTRS (transformed rejection with squeeze,
 * 1993), the binomial sibling of PTRS; log(f(k) / f(mode)) through Stirling's
 * series, so large n keeps its precision. */
CA_HD int64_t
ca_rd_binomial_btrs(ca_rd_stream *s, double n, double p)
{
    const double q = 1.0 - p, spq = sqrt(n * p * q), r = p / q;
    const double b = 1.15 + 2.53 * spq, a = -0.0873 + 0.0248 * b + 0.01 * p;
    const double c = n * p + 0.5, vr = 0.92 - 4.2 / b;
    const double alpha = (2.83 + 5.1 / b) * spq;
    const double m = floor((n + 1.0) * p);
    const double tm = ca_rd_stirling_tail(m) + ca_rd_stirling_tail(n - m);
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double u = ca_rd_u01(s) - 0.5, v = ca_rd_u01(s);
        double us = 0.5 - fabs(u);
        double k = floor((2.0 * a / us + b) * u + c);
        if (k < 0.0 || k > n) {
            continue;
        }
        if (us >= 0.07 && v <= vr) {
            return (int64_t)k;
        }
        v = log(v * alpha / (a / (us * us) + b));
        double ub = (m + 0.5) * log((m + 1.0) / (r * (n - m + 1.0))) +
                    (n + 1.0) * log1p((k - m) / (n - k + 1.0)) +
                    (k + 0.5) * log(r * (n - k + 1.0) / (k + 1.0)) + tm -
                    ca_rd_stirling_tail(k) - ca_rd_stirling_tail(n - k);
        if (v <= ub) {
            return (int64_t)k;
        }
    }
    return -1;
}

CA_HD int64_t
ca_rd_binomial(ca_rd_stream *s, double n, double p)
{
    if (!(p >= 0.0 && p <= 1.0) || !(n >= 0.0)) {
        return -1;
    }
    if (n == 0.0 || p == 0.0) {
        return 0;
    }
    if (p == 1.0) {
        return (int64_t)n;
    }
    int flip = p > 0.5;
    double pp = flip ? 1.0 - p : p;
    int64_t x =
        n * pp < 30.0 ? ca_rd_binomial_inv(s, n, pp) : ca_rd_binomial_btrs(s, n, pp);
    return flip && x >= 0 ? (int64_t)n - x : x;
}

/* ---- hypergeometric -------------------------------------------------------------- */
/* log C(n, k) */
CA_HD double
ca_rd_lchoose(double n, double k)
{
    return lgamma(n + 1.0) - lgamma(k + 1.0) - lgamma(n - k + 1.0);
}

/* Inversion from the mode outward: the probabilities of mode, mode - 1,
 * mode + 1, mode - 2, ... are subtracted from one uniform until it is spent
 * (any order of the support is a valid inversion; from the mode it takes
 * O(standard deviation) steps). The pmf ratios come from the recurrence
 * P(k+1)/P(k) = (g-k)(s-k) / ((k+1)(b-s+k+1)). */
CA_HD int64_t
ca_rd_hypergeometric(ca_rd_stream *s, double g, double b, double n)
{
    if (!(g >= 0.0 && b >= 0.0 && n >= 0.0 && n <= g + b)) {
        return -1;
    }
    const double lo = n - b > 0.0 ? n - b : 0.0, hi = n < g ? n : g;
    double mode = floor((n + 1.0) * (g + 1.0) / (g + b + 2.0));
    mode = mode < lo ? lo : mode > hi ? hi : mode;
    const double pm = exp(ca_rd_lchoose(g, mode) + ca_rd_lchoose(b, n - mode) -
                          ca_rd_lchoose(g + b, n));
    double u = ca_rd_u01(s) - pm;
    double kd = mode, ku = mode, pd = pm, pu = pm;
    while (u > 0.0 && (kd > lo || ku < hi)) {
        if (ku < hi) {
            pu *= (g - ku) * (n - ku) / ((ku + 1.0) * (b - n + ku + 1.0));
            ku += 1.0;
            u -= pu;
            if (u <= 0.0) {
                return (int64_t)ku;
            }
        }
        if (kd > lo) {
            pd *= kd * (b - n + kd) / ((g - kd + 1.0) * (n - kd + 1.0));
            kd -= 1.0;
            u -= pd;
            if (u <= 0.0) {
                return (int64_t)kd;
            }
        }
    }
    return (int64_t)mode; /* rounding left a sliver of mass: the mode takes it */
}

/* ---- the rest -------------------------------------------------------------------- */
/* Kemp's second accelerated generator (1981), as NumPy. */
CA_HD int64_t
ca_rd_logseries(ca_rd_stream *s, double p)
{
    if (!(p >= 0.0 && p < 1.0)) {
        return -1;
    }
    const double r = log1p(-p);
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double v = ca_rd_u01(s);
        if (v >= p) {
            return 1;
        }
        double u = ca_rd_u01(s);
        double q = -expm1(r * u);
        if (v <= q * q) {
            double x = floor(1.0 + log(v) / log(q));
            if (x < 1.0) {
                continue;
            }
            return x >= CA_RD_INT64_MAX_D ? INT64_MAX : (int64_t)x;
        }
        return v >= q ? 1 : 2;
    }
    return -1;
}

/* Zipf: rejection from the continuous Pareto envelope (Devroye), as NumPy. */
CA_HD int64_t
ca_rd_zipf(ca_rd_stream *s, double a)
{
    if (!(a > 1.0)) {
        return -1;
    }
    const double am1 = a - 1.0, b = pow(2.0, am1);
    for (int t = 0; t < CA_RD_MAX_TRIES; t++) {
        double u = ca_rd_u01(s), v = ca_rd_u01(s);
        double x = floor(pow(u, -1.0 / am1));
        if (!(x >= 1.0) || x >= CA_RD_INT64_MAX_D) {
            continue;
        }
        double tt = pow(1.0 + 1.0 / x, am1);
        if (v * x * (tt - 1.0) / (b - 1.0) <= tt / b) {
            return (int64_t)x;
        }
    }
    return -1;
}

/* Best and Fisher (1979), with NumPy's small- and large-kappa branches; the
 * result wrapped into [-pi, pi]. */
CA_HD double
ca_rd_vonmises(ca_rd_stream *s, double mu, double kappa)
{
    if (!(kappa >= 0.0) || isnan(mu)) {
        return NAN;
    }
    if (kappa < 1e-8) {
        return CA_RD_PI * (2.0 * ca_rd_u01(s) - 1.0);
    }
    double res, sv;
    if (kappa > 1e6) {
        res = mu + sqrt(1.0 / kappa) * ca_rd_normal(s);
    }
    else {
        if (kappa < 1e-5) {
            sv = 1.0 / kappa + kappa;
        }
        else {
            double r = 1.0 + sqrt(1.0 + 4.0 * kappa * kappa);
            double rho = (r - sqrt(2.0 * r)) / (2.0 * kappa);
            sv = (1.0 + rho * rho) / (2.0 * rho);
        }
        double w = 0.0;
        int ok = 0;
        for (int t = 0; t < CA_RD_MAX_TRIES && !ok; t++) {
            double z = cos(CA_RD_PI * ca_rd_u01(s));
            w = (1.0 + sv * z) / (sv + z);
            double y = kappa * (sv - w);
            double v = ca_rd_u01(s);
            ok = (y * (2.0 - y) - v >= 0.0) || (log(y / v) + 1.0 - y >= 0.0);
        }
        if (!ok) {
            return NAN;
        }
        w = w > 1.0 ? 1.0 : w < -1.0 ? -1.0 : w;
        res = acos(w);
        if (ca_rd_u01(s) < 0.5) {
            res = -res;
        }
        res += mu;
    }
    int neg = res < 0.0;
    double m = fmod(fabs(res) + CA_RD_PI, 2.0 * CA_RD_PI) - CA_RD_PI;
    return neg ? -m : m;
}

/* Wald (inverse Gaussian): Michael, Schucany and Haas (1976). */
CA_HD double
ca_rd_wald(ca_rd_stream *s, double mean, double scale)
{
    double mu2l = mean / (2.0 * scale);
    double y = ca_rd_normal(s);
    y = mean * y * y;
    double x = mean + mu2l * (y - sqrt(4.0 * scale * y + y * y));
    return ca_rd_u01(s) <= mean / (mean + x) ? x : mean * mean / x;
}

CA_HD double
ca_rd_noncentral_chisquare(ca_rd_stream *s, double df, double nonc)
{
    if (isnan(nonc)) {
        return NAN;
    }
    if (nonc == 0.0) {
        return ca_rd_chisquare(s, df);
    }
    if (df > 1.0) {
        double c = ca_rd_chisquare(s, df - 1.0);
        double z = ca_rd_normal(s) + sqrt(nonc);
        return c + z * z;
    }
    int64_t i = ca_rd_poisson(s, nonc / 2.0);
    return i < 0 ? NAN : ca_rd_chisquare(s, df + 2.0 * (double)i);
}

/* One double sample of stream op `op` (continuous ones). */
CA_HD double
ca_rd_stream_f64(int op, ca_rd_stream *s, double a, double b, double c)
{
    switch (op) {
    case CA_RD_GAMMA: return b * ca_rd_gamma(s, a);
    case CA_RD_BETA: return ca_rd_beta(s, a, b);
    case CA_RD_CHISQUARE: return ca_rd_chisquare(s, a);
    case CA_RD_F: return ca_rd_chisquare(s, a) * b / (ca_rd_chisquare(s, b) * a);
    case CA_RD_STANDARD_T: {
        double z = ca_rd_normal(s);
        return sqrt(a / 2.0) * z / sqrt(ca_rd_gamma(s, a / 2.0));
    }
    case CA_RD_NONCENTRAL_CHISQUARE: return ca_rd_noncentral_chisquare(s, a, b);
    case CA_RD_NONCENTRAL_F:
        return ca_rd_noncentral_chisquare(s, a, c) * b / (ca_rd_chisquare(s, b) * a);
    case CA_RD_VONMISES: return ca_rd_vonmises(s, a, b);
    case CA_RD_WALD: return ca_rd_wald(s, a, b);
    default: return NAN;
    }
}

/* One int64 sample of a discrete stream op (-1: bad parameters). */
CA_HD int64_t
ca_rd_stream_i64(int op, ca_rd_stream *s, double a, double b, double c)
{
    switch (op) {
    case CA_RD_POISSON: return ca_rd_poisson(s, a);
    case CA_RD_BINOMIAL: return ca_rd_binomial(s, a, b);
    case CA_RD_NEGATIVE_BINOMIAL: {
        if (!(b > 0.0 && b <= 1.0) || !(a > 0.0)) {
            return -1;
        }
        if (b == 1.0) {
            return 0;
        }
        double y = ca_rd_gamma(s, a) * ((1.0 - b) / b);
        return ca_rd_poisson(s, y);
    }
    case CA_RD_HYPERGEOMETRIC: return ca_rd_hypergeometric(s, a, b, c);
    case CA_RD_LOGSERIES: return ca_rd_logseries(s, a);
    case CA_RD_ZIPF: return ca_rd_zipf(s, a);
    default: return -1;
    }
}

/* ---- the device-specific halves behind kernels/dispatch/dispatch_random.c ------------ */
#ifdef __cplusplus
extern "C" {
#endif
int ca_random_dist_host(int op, void *out, int64_t n, int dtype, uint64_t seed,
                        uint64_t offset, const ca_rd_params *prm,
                        const uint32_t *words);
#if defined(CA_HAVE_CUDA) && CA_HAVE_CUDA
#ifdef __CUDACC__
}
/* The grid of 256-thread blocks for a grid-stride loop over `work` items
 * (random.cu). */
cudaError_t ca_random_grid(uint64_t work, int *grid);
extern "C" {
#endif
int ca_random_dist_cuda(int op, void *out, int64_t n, int dtype, uint64_t seed,
                        uint64_t offset, const ca_rd_params *prm, const uint32_t *words,
                        ca_stream_t stream);
#endif
#ifdef __cplusplus
}
#endif

#endif /* CA_RANDOM_DIST_H */

/*
 * special_misc.h (included by special_math.h): Wright's generalized Bessel
 * function, associated Legendre functions (lpmv, the normalized ones under
 * sph_harm_y), spherical Bessel y_n, and the Lambert W function (complex).
 */
#ifndef CA_SPECIAL_MISC_H
#define CA_SPECIAL_MISC_H

/* Wright's Phi(a, b; x) = sum x^k / (k! Gamma(a k + b)) for a, b, x >= 0 (SciPy's
 * domain; NaN elsewhere): positive terms, each e^(k log x - lgamma(k + 1) -
 * lgamma(a k + b)) (1/Gamma(0) = 0 for the k = 0 term of b = 0), summed past
 * the largest until they fall below 1e-17 of the sum. */
CA_HD double
ca_p_sp_wright_bessel(double a, double b, double x)
{
    if (a != a || b != b || x != x || a < 0.0 || b < 0.0 || x < 0.0) {
        return NAN;
    }
    if (a == (double)INFINITY || b == (double)INFINITY) {
        return NAN;
    }
    if (x == (double)INFINITY) {
        return INFINITY;
    }
    if (x == 0.0) {
        return ca_p_sp_rgamma(b);
    }
    const double lx = log(x);
    double s = ca_p_sp_rgamma(b), last = s;
    for (int k = 1; k < 200000; k++) {
        const double g = a * k + b;
        const double t =
            exp(k * lx - lgamma(k + 1.0) - lgamma(g)) * ca_p_sp_gammasgn(g);
        s += t;
        if (t < last && t <= 1e-17 * s) {
            break;
        }
        last = t;
    }
    return s;
}

CA_SP_LOOPS3(wright_bessel)

/* ---- associated Legendre functions ------------------------------------------- */

/* P_v^m(x) for integer m >= 0 and integer v >= m, |x| <= 1, with the
 * Condon-Shortley phase: P_m^m = (-1)^m (2m-1)!! (1-x^2)^(m/2),
 * P_(m+1)^m = x (2m+1) P_m^m, and the upward recurrence in degree
 * (l - m) P_l^m = (2l - 1) x P_(l-1)^m - (l + m - 1) P_(l-2)^m (DLMF 14.10.3). */
CA_HD double
ca_p_sp_legendre_int(int64_t m, int64_t v, double x)
{
    double pmm = 1.0;
    const double sq = sqrt((1.0 - x) * (1.0 + x));
    for (int64_t i = 1; i <= m; i++) {
        pmm *= -(2.0 * i - 1.0) * sq;
    }
    if (v == m) {
        return pmm;
    }
    double p1 = x * (2.0 * m + 1.0) * pmm, p0 = pmm;
    for (int64_t l = m + 2; l <= v; l++) {
        const double p =
            ((2.0 * l - 1.0) * x * p1 - (double)(l + m - 1) * p0) / (double)(l - m);
        p0 = p1;
        p1 = p;
    }
    return p1;
}

/* P_v^m(x) for real v, integer m >= 0, -1 < x <= 1 (DLMF 14.3.1 with the
 * Condon-Shortley phase): (-1)^m (v+m)! / ((v-m)! 2^m m!) (1 - x^2)^(m/2)
 * 2F1(m - v, m + v + 1; m + 1; (1 - x) / 2), the series summed to 1e-17
 * (slow as x -> -1). */
CA_HD double
ca_p_sp_legendre_hyp(double m, double v, double x)
{
    const double z = 0.5 * (1.0 - x);
    const double a = m - v, b = m + v + 1.0, c = m + 1.0;
    double t = 1.0, s = 1.0;
    for (int k = 0; k < 200000; k++) {
        t *= (a + k) * (b + k) / ((c + k) * (k + 1.0)) * z;
        s += t;
        if (t == 0.0 || (fabs(t) <= 1e-17 * fabs(s) && k > 2)) {
            break;
        }
    }
    double pre = ca_p_sp_poch(v - m + 1.0, 2.0 * m); /* (v+m)! / (v-m)! */
    for (int i = 1; i <= (int)m; i++) {
        pre *= -0.5 / i;
    }
    return pre * pow((1.0 - x) * (1.0 + x), 0.5 * m) * s;
}

/* SciPy's lpmv(m, v, x): m an integer (NaN otherwise), |x| <= 1; P_v = P_(-v-1);
 * |v|, |m| up to 1e6 (NaN beyond: the series cancels, the recurrence runs long);
 * negative m by P_v^(-m) = (-1)^m (v-m)! / (v+m)! P_v^m (DLMF 14.9.3). */
CA_HD double
ca_p_sp_lpmv(double m, double v, double x)
{
    if (m != m || v != v || m != floor(m) || fabs(v) > 1e6 || fabs(m) > 1e6) {
        return NAN;
    }
    if (v < -0.5) {
        v = -v - 1.0;
    }
    if (m == 0.0 && v == 0.0) {
        return 1.0; /* P_0 = 1 everywhere (SciPy's answer for any x) */
    }
    if (x != x || fabs(x) > 1.0) {
        return NAN;
    }
    const double am = fabs(m);
    double r;
    if (v == floor(v)) {
        if (am > v) {
            return 0.0 *
                   x; /* P_v^m = 0 for |m| > v, integer v (SciPy: -0.0 for x < 0) */
        }
        r = ca_p_sp_legendre_int((int64_t)am, (int64_t)v, x);
    }
    else {
        if (x == -1.0) {
            return INFINITY; /* SciPy's answer at the singular end */
        }
        r = ca_p_sp_legendre_hyp(am, v, x);
    }
    if (m < 0.0) {
        const double f = ca_p_sp_poch(v + am + 1.0, -2.0 * am); /* (v-m)!/(v+m)! */
        r *= (fmod(am, 2.0) == 0.0 ? 1.0 : -1.0) * f;
    }
    return r;
}

CA_SP_LOOPS3(lpmv)

/* The normalized associated Legendre function of spherical harmonics,
 * sqrt((2n+1)/(4 pi) (n-m)!/(n+m)!) P_n^m(cos theta) for 0 <= m <= n, by the
 * recurrence of the normalized functions (no factorials to overflow):
 * Pbar_m^m = (-1)^m sqrt((2m+1)/(4 pi) prod_(k<=m) (2k-1)/(2k)) sin^m theta,
 * Pbar_(m+1)^m = sqrt(2m+3) cos theta Pbar_m^m,
 * Pbar_l^m = a_l (cos theta Pbar_(l-1)^m - Pbar_(l-2)^m / a_(l-1)),
 * a_l = sqrt((4l^2 - 1) / (l^2 - m^2)). Negative m: (-1)^m Pbar_n^|m| (the
 * e^(i m phi) factor is the caller's); |m| > n or n < 0: 0. */
CA_HD double
ca_p_sp_sph_legendre(int64_t n, int64_t m, double theta)
{
    const int64_t am = m < 0 ? -m : m;
    if (n < 0 || am > n) {
        return 0.0;
    }
    const double ct = cos(theta), st = sin(theta);
    double p = 1.0;
    for (int64_t k = 1; k <= am; k++) {
        p *= -sqrt((2.0 * k - 1.0) / (2.0 * k)) * st;
    }
    p *= sqrt((2.0 * am + 1.0) / (4.0 * CA_SP_PI));
    if (n > am) {
        double p0 = p, p1 = sqrt(2.0 * am + 3.0) * ct * p;
        double aprev = sqrt(2.0 * am + 3.0);
        for (int64_t l = am + 2; l <= n; l++) {
            const double l2 = (double)l * l, m2 = (double)am * am;
            const double al = sqrt((4.0 * l2 - 1.0) / (l2 - m2));
            const double pn = al * (ct * p1 - p0 / aprev);
            p0 = p1;
            p1 = pn;
            aprev = al;
        }
        p = p1;
    }
    if (m < 0 && (am & 1)) {
        p = -p;
    }
    return p;
}

CA_P_DEF(double, ca_sp__sph_legendre_i64_i64_f64, (int64_t n, int64_t m, double t),
         ca_p_sp_sph_legendre(n, m, t))

/* ---- spherical Bessel y_n ---------------------------------------------------- */

/* y_n(x) (deriv: y_n'(x)): y_0 = -cos x / x, y_1 = -cos x / x^2 - sin x / x and
 * the upward recurrence y_(k+1) = (2k + 1) / x y_k - y_(k-1) (DLMF 10.51.1,
 * stable for y); y_n' = (n / x) y_n - y_(n+1) (DLMF 10.51.2). y_n(-x) =
 * (-1)^(n+1) y_n(x), so y_n'(-x) = (-1)^n y_n'(x); -inf at 0 (y_n': +inf),
 * 0 at +-inf, NaN for n < 0. */
CA_HD double
ca_p_sp_spherical_yn_int(int64_t n, double x, int deriv)
{
    if (x != x || n < 0) {
        return NAN;
    }
    if (x == 0.0) {
        return deriv ? INFINITY : -(double)INFINITY;
    }
    if (fabs(x) == (double)INFINITY) {
        return 0.0;
    }
    const double ax = fabs(x), c = cos(ax), s = sin(ax);
    double y = -c / ax, yn = -c / (ax * ax) - s / ax; /* y_k, y_(k+1) at k = 0 */
    for (int64_t k = 1; k <= n && yn > -(double)INFINITY; k++) {
        const double next = (2.0 * k + 1.0) / ax * yn - y;
        y = yn;
        yn = next;
    }
    /* y = y_n, yn = y_(n+1) */
    const double r = deriv ? (double)n / ax * y - yn : y;
    const int odd = (int)((n + (deriv ? 0 : 1)) & 1);
    return (x < 0.0 && odd) ? -r : r;
}

CA_P_DEF(double, ca_sp__spherical_yn_i64_f64, (int64_t n, double x),
         ca_p_sp_spherical_yn_int(n, x, 0))
CA_P_DEF(float, ca_sp__spherical_yn_i64_f32, (int64_t n, float x),
         (float)ca_p_sp_spherical_yn_int(n, (double)x, 0))
CA_P_DEF(double, ca_sp__spherical_yn_d_i64_f64, (int64_t n, double x),
         ca_p_sp_spherical_yn_int(n, x, 1))
CA_P_DEF(float, ca_sp__spherical_yn_d_i64_f32, (int64_t n, float x),
         (float)ca_p_sp_spherical_yn_int(n, (double)x, 1))

/* ---- Lambert W ---------------------------------------------------------------- */

/* W_k(z), the k-th branch of the inverse of w e^w (Corless, Gonnet, Hare,
 * Jeffrey & Knuth, "On the Lambert W function", 1996): a first guess from the
 * branch-point series -1 + p - p^2/3 + 11/72 p^3, p = +-sqrt(2 (e z + 1)), near
 * -1/e (the sign picks branch 0, or -1 from above the real axis, 1 from below),
 * log1p(z) for k = 0 and small z, else the asymptotic L1 - L2 + L2 / L1,
 * L1 = log z + 2 pi i k, L2 = log L1; then Halley's iteration until the step
 * is below tol |w| (SciPy's stopping rule). */
CA_HD ca_complex128
ca_p_sp_lambertw(ca_complex128 z, int64_t k, double tol)
{
    if (z.re != z.re || z.im != z.im) {
        return ca_p_z(NAN, NAN);
    }
    if (fabs(z.re) == (double)INFINITY || fabs(z.im) == (double)INFINITY) {
        const ca_complex128 l = ca_log_c128(z);
        return ca_p_z(INFINITY, l.im + 2.0 * CA_SP_PI * (double)k);
    }
    if (z.re == 0.0 && z.im == 0.0) {
        return k == 0 ? z : ca_p_z(-(double)INFINITY, 0.0);
    }
    const double e = 2.718281828459045235360287471352662498;
    const ca_complex128 one = ca_p_z(1.0, 0.0);
    const ca_complex128 zb = ca_p_z(z.re + 1.0 / e, z.im);
    const double dz = hypot(zb.re, zb.im);
    ca_complex128 w;
    int series = 0;
    double sgn = 1.0;
    if (dz < 0.3) {
        if (k == 0) {
            series = 1;
        }
        else if ((k == -1 && z.im >= 0.0) || (k == 1 && z.im < 0.0)) {
            series = 1;
            sgn = -1.0;
        }
    }
    if (series) {
        ca_complex128 p = ca_sqrt_c128(ca_p_z(2.0 * e * zb.re, 2.0 * e * zb.im));
        p = ca_p_z(sgn * p.re, sgn * p.im);
        const ca_complex128 p2 = ca_mul_c128(p, p), p3 = ca_mul_c128(p2, p);
        w = ca_p_z(-1.0 + p.re - p2.re / 3.0 + 11.0 / 72.0 * p3.re,
                   p.im - p2.im / 3.0 + 11.0 / 72.0 * p3.im);
    }
    else if (k == 0 && hypot(z.re, z.im) < 1.5) {
        w = ca_p_sp_clog1p(z);
    }
    else {
        ca_complex128 l1 = ca_log_c128(z);
        l1.im += 2.0 * CA_SP_PI * (double)k;
        const ca_complex128 l2 = ca_log_c128(l1);
        w = ca_add_c128(ca_sub_c128(l1, l2), ca_div_c128(l2, l1));
    }
    for (int i = 0; i < 100; i++) {
        const ca_complex128 ew = ca_exp_c128(w);
        const ca_complex128 f = ca_sub_c128(ca_mul_c128(w, ew), z);
        const ca_complex128 wp1 = ca_add_c128(w, one);
        const ca_complex128 wp2 = ca_add_c128(wp1, one);
        const ca_complex128 den = ca_sub_c128(
            ca_mul_c128(ew, wp1),
            ca_div_c128(ca_mul_c128(wp2, f), ca_p_z(2.0 * wp1.re, 2.0 * wp1.im)));
        const ca_complex128 d = ca_div_c128(f, den);
        const ca_complex128 wn = ca_sub_c128(w, d);
        if (d.re != d.re || d.im != d.im) {
            break;
        }
        w = wn;
        if (hypot(d.re, d.im) <= tol * hypot(wn.re, wn.im)) {
            break;
        }
    }
    return w;
}

CA_P_DEF(ca_complex128, ca_sp__lambertw_c128_i64_f64,
         (ca_complex128 z, int64_t k, double t), ca_p_sp_lambertw(z, k, t))
CA_P_DEF(ca_complex64, ca_sp__lambertw_c64_i64_f32,
         (ca_complex64 z, int64_t k, float t),
         ca_p_z2c(ca_p_sp_lambertw(ca_p_c2z(z), k, (double)t)))

#endif /* CA_SPECIAL_MISC_H */

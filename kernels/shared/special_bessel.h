/*
 * special_bessel.h (included by special_math.h): Bessel functions of integer
 * order J0, J1, Y0, Y1, Yn and the modified K0, K1 (and e^x K0, e^x K1).
 */
#ifndef CA_SPECIAL_BESSEL_H
#define CA_SPECIAL_BESSEL_H

#define CA_SP_EULER 0.577215664901532860606512090082402431
#define CA_SP_2_PI  0.636619772367581343075535053490057448 /* 2 / pi */

/* J0 and J1 (and Y0, Y1 with `y`) of 0 < x <= 2 by their power series:
 * J_n = (x/2)^n sum (-x^2/4)^k / (k! (k+n)!), and (A&S 9.1.11)
 * Y0 = (2/pi) ((log(x/2) + gamma) J0 - sum H_k (-x^2/4)^k / k!^2),
 * Y1 = -2 / (pi x) + (2/pi) log(x/2) J1 - (x / 2pi) sum (psi(k+1) + psi(k+2))
 *      (-x^2/4)^k / (k! (k+1)!). */
CA_HD void
ca_p_sp_bessel_jy_small(double x, double *j0, double *j1, double *y0, double *y1)
{
    const double q = -0.25 * x * x;
    double t0 = 1.0, t1 = 1.0, s0 = 1.0, s1 = 1.0, h = 0.0, sy0 = 0.0;
    double sy1 = -2.0 * CA_SP_EULER + 1.0; /* psi(1) + psi(2) */
    for (int k = 1; k < 40; k++) {
        t0 *= q / ((double)k * k);
        t1 *= q / ((double)k * (k + 1));
        s0 += t0;
        s1 += t1;
        h += 1.0 / k;
        sy0 += h * t0;
        sy1 += (2.0 * (h - CA_SP_EULER) + 1.0 / (k + 1)) * t1;
        if (fabs(t0) < 1e-18) {
            break;
        }
    }
    const double l = log(0.5 * x);
    *j0 = s0;
    *j1 = 0.5 * x * s1;
    *y0 = CA_SP_2_PI * ((l + CA_SP_EULER) * s0 - sy0);
    *y1 = -CA_SP_2_PI / x + CA_SP_2_PI * l * *j1 - x / (2.0 * CA_SP_PI) * sy1;
}

/* 2 < x <= 25: Miller's backward recurrence J_(n-1) = (2n/x) J_n - J_(n+1) from
 * an order well above x, normalized by J0 + 2 sum J_2k = 1 (A&S 9.1.46), and
 * Neumann's series with the same J's (A&S 9.1.88 and its derivative):
 * (pi/2) Y0 = L J0 - 2 sum (-1)^k J_2k / k,
 * (pi/2) Y1 = L J1 - J0 / x + sum (-1)^k (J_2k-1 - J_2k+1) / k, L = log(x/2) + gamma;
 * the last sum is sum_k (-1)^k (1/k + 1/(k-1)) J_2k-1 (no 1/(k-1) at k = 1). */
CA_HD void
ca_p_sp_bessel_jy_miller(double x, double *j0, double *j1, double *y0, double *y1)
{
    const int top = 2 * ((int)(x + 30.0 + 4.0 * cbrt(x)) / 2);
    const double r2 = 2.0 / x;   /* one division, not one per step */
    double jp = 0.0, jn = 1e-30; /* J_(n+1), J_n (unnormalized) */
    double norm = 0.0, sy0 = 0.0, sy1 = 0.0;
    for (int n = top; n >= 1; n--) {
        const double jm = (r2 * n) * jn - jp;
        jp = jn;
        jn = jm; /* now jn = J_(n-1), jp = J_n */
        const int m = n - 1;
        if (m > 0 && (m & 1) == 0) {
            const int k = m / 2;
            norm += 2.0 * jn;
            if (y0) {
                sy0 += ((k & 1) ? -2.0 : 2.0) * jn / k;
            }
        }
        else if ((m & 1) && y0) {
            const int k = (m + 1) / 2;
            const double c = 1.0 / k + (k > 1 ? 1.0 / (k - 1) : 0.0);
            sy1 += ((k & 1) ? -c : c) * jn;
        }
        if (fabs(jn) > 1e250) {
            jn *= 1e-250;
            jp *= 1e-250;
            norm *= 1e-250;
            sy0 *= 1e-250;
            sy1 *= 1e-250;
        }
    }
    norm += jn;
    const double J0 = jn / norm, J1 = jp / norm;
    const double l = y0 ? log(0.5 * x) + CA_SP_EULER : 0.0;
    *j0 = J0;
    *j1 = J1;
    if (y0) { /* NULL y0, y1: J only (no Neumann sums) */
        *y0 = CA_SP_2_PI * (l * J0 - sy0 / norm);
        *y1 = CA_SP_2_PI * (l * J1 - J0 / x + sy1 / norm);
    }
}

/* x > 25: Hankel's asymptotic expansions (A&S 9.2.5-10) J_n = sqrt(2/(pi x))
 * (P cos chi - Q sin chi), Y_n = sqrt(2/(pi x)) (P sin chi + Q cos chi),
 * chi = x - (n/2 + 1/4) pi, P and Q the even and odd terms (alternating) of
 * t_k = prod_(j<=k) (4n^2 - (2j-1)^2) / (k! (8x)^k), summed to the smallest term
 * (below 1e-20 from x = 25). cos chi and sin chi come from sin x and cos x
 * (the library reduces x exactly; x - pi/4 would round). */
CA_HD void
ca_p_sp_bessel_jy_large(double x, int n, double *j, double *y)
{
    const double mu = 4.0 * n * n, r = 1.0 / (8.0 * x);
    double t = 1.0, p = 1.0, q = 0.0, last = 1.0;
    for (int k = 1; k < 60; k++) {
        const double f = (double)(2 * k - 1);
        t *= (mu - f * f) * r / k;
        if (fabs(t) > last) {
            break;
        }
        last = fabs(t);
        switch (k & 3) {
        case 1: q += t; break;
        case 2: p -= t; break;
        case 3: q -= t; break;
        default: p += t; break;
        }
        if (last < 1e-17) {
            break;
        }
    }
    const double s = sin(x), c = cos(x);
    double cc, ss; /* cos chi, sin chi, times sqrt 2 */
    if (n == 0) {
        cc = c + s;
        ss = s - c;
    }
    else {
        cc = s - c;
        ss = -(s + c);
    }
    const double amp = sqrt(1.0 / (CA_SP_PI * x)); /* sqrt(2/(pi x)) / sqrt 2 */
    *j = amp * (p * cc - q * ss);
    *y = amp * (p * ss + q * cc);
}

/* J0, J1, Y0, Y1 of x > 0 (finite). */
CA_HD void
ca_p_sp_bessel_jy(double x, double *j0, double *j1, double *y0, double *y1)
{
    if (x <= 2.0) {
        ca_p_sp_bessel_jy_small(x, j0, j1, y0, y1);
    }
    else if (x <= 25.0) {
        ca_p_sp_bessel_jy_miller(x, j0, j1, y0, y1);
    }
    else {
        ca_p_sp_bessel_jy_large(x, 0, j0, y0);
        ca_p_sp_bessel_jy_large(x, 1, j1, y1);
    }
}

/* which: 0 J0, 1 J1, 2 Y0, 3 Y1. J0 is even and J1 odd; Y's are NaN for x < 0,
 * -inf at 0; NaN at +-inf, as SciPy's. */
CA_HD double
ca_p_sp_bessel_jy1(double x, int which)
{
    if (x != x) {
        return x;
    }
    if (which >= 2) {
        if (x < 0.0) {
            return NAN;
        }
        if (x == 0.0) {
            return -(double)INFINITY;
        }
    }
    const double ax = fabs(x);
    if (ax == (double)INFINITY) {
        return NAN; /* Cephes' answer (the limit is 0) */
    }
    if (ax == 0.0) {
        return which == 0 ? 1.0 : x; /* J1(+-0) = +-0 */
    }
    double v[4];
    if (which < 2 && ax > 2.0 && ax <= 25.0) {
        ca_p_sp_bessel_jy_miller(ax, &v[0], &v[1], (double *)0, (double *)0);
        return (which == 1 && x < 0.0) ? -v[1] : v[which];
    }
    if (which == 0 || which == 2) {
        if (ax > 25.0) {
            ca_p_sp_bessel_jy_large(ax, 0, &v[0], &v[2]);
        }
        else {
            ca_p_sp_bessel_jy(ax, &v[0], &v[1], &v[2], &v[3]);
        }
    }
    else if (ax > 25.0) {
        ca_p_sp_bessel_jy_large(ax, 1, &v[1], &v[3]);
    }
    else {
        ca_p_sp_bessel_jy(ax, &v[0], &v[1], &v[2], &v[3]);
    }
    return (which == 1 && x < 0.0) ? -v[1] : v[which];
}

CA_P_DEF(double, ca_p_sp_j0, (double x), ca_p_sp_bessel_jy1(x, 0))
CA_P_DEF(double, ca_p_sp_j1, (double x), ca_p_sp_bessel_jy1(x, 1))
CA_P_DEF(double, ca_p_sp_y0, (double x), ca_p_sp_bessel_jy1(x, 2))
CA_P_DEF(double, ca_p_sp_y1, (double x), ca_p_sp_bessel_jy1(x, 3))

/* Y_n by the forward recurrence Y_(k+1) = (2k / x) Y_k - Y_(k-1) from Y0, Y1
 * (stable: Y grows with the order); Y_-n = (-1)^n Y_n. */
CA_HD double
ca_p_sp_yn_int(int64_t n, double x)
{
    double sign = 1.0;
    if (n < 0) {
        n = -n;
        sign = (n & 1) ? -1.0 : 1.0;
    }
    if (n > 10000000) {
        return NAN;
    }
    if (x != x) {
        return x;
    }
    if (x < 0.0) {
        return NAN;
    }
    if (x == 0.0) {
        return -sign * (double)INFINITY;
    }
    if (x == (double)INFINITY) {
        return NAN; /* as Y0, Y1 */
    }
    double ym = ca_p_sp_bessel_jy1(x, 2);
    if (n == 0) {
        return sign * ym;
    }
    double y = ca_p_sp_bessel_jy1(x, 3);
    for (int64_t k = 1; k < n && y > -(double)INFINITY; k++) {
        const double yp = (2.0 * (double)k / x) * y - ym;
        ym = y;
        y = yp;
    }
    return sign * y;
}

/* SciPy's float loops of yn take n as a double, truncated toward zero. */
CA_HD double
ca_p_sp_yn(double n, double x)
{
    if (n != n) {
        return n;
    }
    if (fabs(n) > 1e7) {
        return NAN; /* beyond the recurrence's reach (SciPy truncates n to a C int) */
    }
    return ca_p_sp_yn_int((int64_t)n, x);
}

/* ---- K0, K1 and their scaled forms ------------------------------------------- */

/* 0 < x <= 2: A&S 9.6.13 and 9.6.11 with psi(k + 1) = H_k - gamma:
 * K0 = -(log(x/2) + gamma) I0 + sum H_k (x^2/4)^k / k!^2,
 * K1 = 1/x + log(x/2) I1 - (x/4) sum (psi(k+1) + psi(k+2)) (x^2/4)^k / (k! (k+1)!). */
CA_HD double
ca_p_sp_bessel_k_small(double x, int nu)
{
    const double q = 0.25 * x * x, l = log(0.5 * x);
    double t = 1.0, h = 0.0, s;
    if (nu == 0) {
        s = 0.0;
        for (int k = 1; k < 40; k++) {
            t *= q / ((double)k * k);
            h += 1.0 / k;
            s += h * t;
            if (t < 1e-18) {
                break;
            }
        }
        return -(l + CA_SP_EULER) * ca_p_sp_bessel_i_pos(x, 0, 0) + s;
    }
    s = 1.0 - 2.0 * CA_SP_EULER; /* k = 0: psi(1) + psi(2) */
    for (int k = 1; k < 40; k++) {
        t *= q / ((double)k * (k + 1));
        h += 1.0 / k;
        s += (2.0 * (h - CA_SP_EULER) + 1.0 / (k + 1)) * t;
        if (t < 1e-18) {
            break;
        }
    }
    return 1.0 / x + l * ca_p_sp_bessel_i_pos(x, 1, 0) - 0.25 * x * s;
}

/* x > 2: e^x K_nu(x) = int_0^inf e^(-x (cosh t - 1)) cosh(nu t) dt by the
 * trapezoidal rule, whose error falls like e^(-2 pi d / h) for an integrand
 * analytic in a strip |Im t| < d (a double-exponentially decaying one: Trefethen
 * & Weideman, SIAM Review 2014); h = min(0.2, 0.6 / sqrt x) puts it below 1e-17,
 * and the sum stops once x (cosh t - 1) passes 45. cosh t - 1 = 2 sinh^2(t/2). */
CA_HD double
ca_p_sp_bessel_ke_large(double x, int nu)
{
    double h = 0.6 / sqrt(x);
    if (h > 0.2) {
        h = 0.2;
    }
    double s = 0.5;
    for (int j = 1; j < 2000; j++) {
        const double t = j * h, sh = sinh(0.5 * t);
        const double e = 2.0 * x * sh * sh;
        s += exp(-e) * (nu ? cosh(t) : 1.0);
        if (e > 45.0) {
            break;
        }
    }
    return s * h;
}

/* K_nu (scaled: e^x K_nu): +inf at 0, NaN for x < 0, 0 at +inf. */
CA_HD double
ca_p_sp_bessel_k(double x, int nu, int scaled)
{
    if (x != x) {
        return x;
    }
    if (x < 0.0) {
        return NAN;
    }
    if (x == 0.0) {
        return INFINITY;
    }
    if (x == (double)INFINITY) {
        return 0.0;
    }
    if (x <= 2.0) {
        const double k = ca_p_sp_bessel_k_small(x, nu);
        return scaled ? k * exp(x) : k;
    }
    const double ke = ca_p_sp_bessel_ke_large(x, nu);
    return scaled ? ke : ke * exp(-x);
}

CA_SP_FLAGS4(ca_p_sp_bessel_k, k0, k0e, k1, k1e)

CA_SP_LOOPS1(j0)
CA_SP_LOOPS1(j1)
CA_SP_LOOPS1(y0)
CA_SP_LOOPS1(y1)
CA_SP_LOOPS2(yn)
CA_P_DEF(double, ca_sp_yn_i64_f64, (int64_t n, double x), ca_p_sp_yn_int(n, x))

#endif /* CA_SPECIAL_BESSEL_H */

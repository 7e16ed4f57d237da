/*
 * special_elliptic.h (included by special_math.h): elliptic integrals (ellipk,
 * ellipkm1, ellipkinc, ellipeinc), Jacobi's elliptic functions (ellipj), the
 * sine/cosine and hyperbolic sine/cosine integrals (sici, shichi).
 */
#ifndef CA_SPECIAL_ELLIPTIC_H
#define CA_SPECIAL_ELLIPTIC_H

/* K(1 - p) = pi / (2 AGM(1, sqrt p)) (A&S 17.6): p itself, so m near 1 keeps
 * its digits. NaN for p < 0 (m > 1), +inf at p = 0, 0 at p = +inf. */
CA_HD double
ca_p_sp_ellipkm1(double p)
{
    if (p != p || p < 0.0) {
        return NAN;
    }
    if (p == 0.0) {
        return INFINITY;
    }
    if (p == (double)INFINITY) {
        return 0.0;
    }
    double a = 1.0, b = sqrt(p);
    for (int i = 0; i < 60 && fabs(a - b) > 1e-16 * a; i++) {
        const double an = 0.5 * (a + b);
        b = sqrt(a * b);
        a = an;
    }
    return 0.5 * CA_SP_PI / (0.5 * (a + b));
}

CA_P_DEF(double, ca_p_sp_ellipk, (double m), ca_p_sp_ellipkm1(1.0 - m))

/* Carlson's symmetric integrals by the duplication algorithm (Carlson,
 * "Numerical computation of real or complex elliptic integrals", 1995):
 * R_F(x, y, z) and R_D(x, y, z), iterated until the arguments agree to 1e-3
 * relative, then their 5th-order Taylor polynomials (error ~ 1e-18). */
/* One duplication step: x, y, z -> (x + l) / 4, ... with
 * l = sqrt(x y) + sqrt(x z) + sqrt(y z); returns l. */
CA_HD double
ca_p_sp_carlson_dup(double *x, double *y, double *z)
{
    const double sx = sqrt(*x), sy = sqrt(*y), sz = sqrt(*z);
    const double l = sx * sy + sx * sz + sy * sz;
    *x = 0.25 * (*x + l);
    *y = 0.25 * (*y + l);
    *z = 0.25 * (*z + l);
    return l;
}

CA_HD double
ca_p_sp_carlson_rf(double x, double y, double z)
{
    double A = (x + y + z) / 3.0;
    for (int i = 0; i < 100; i++) {
        const double dev = fmax(fabs(A - x), fmax(fabs(A - y), fabs(A - z)));
        if (dev < 1e-3 * fabs(A)) {
            break;
        }
        A = 0.25 * (A + ca_p_sp_carlson_dup(&x, &y, &z));
    }
    const double X = 1.0 - x / A, Y = 1.0 - y / A, Z = -(X + Y);
    const double E2 = X * Y - Z * Z, E3 = X * Y * Z;
    return (1.0 - E2 / 10.0 + E3 / 14.0 + E2 * E2 / 24.0 - 3.0 * E2 * E3 / 44.0) /
           sqrt(A);
}

CA_HD double
ca_p_sp_carlson_rd(double x, double y, double z)
{
    double A = (x + y + 3.0 * z) / 5.0, sum = 0.0, fac = 1.0;
    for (int i = 0; i < 100; i++) {
        const double dev = fmax(fabs(A - x), fmax(fabs(A - y), fabs(A - z)));
        if (dev < 1e-3 * fabs(A)) {
            break;
        }
        const double z0 = z;
        const double l = ca_p_sp_carlson_dup(&x, &y, &z);
        sum += fac / (sqrt(z0) * (z0 + l));
        fac *= 0.25;
        A = 0.25 * (A + l);
    }
    const double X = 1.0 - x / A, Y = 1.0 - y / A, Z = -(X + Y) / 3.0;
    const double XY = X * Y, Z2 = Z * Z;
    const double E2 = XY - 6.0 * Z2, E3 = (3.0 * XY - 8.0 * Z2) * Z;
    const double E4 = 3.0 * (XY - Z2) * Z2, E5 = XY * Z2 * Z;
    const double poly = 1.0 - 3.0 * E2 / 14.0 + E3 / 6.0 + 9.0 * E2 * E2 / 88.0 -
                        3.0 * E4 / 22.0 - 9.0 * E2 * E3 / 52.0 + 3.0 * E5 / 26.0;
    return 3.0 * sum + fac * poly / (A * sqrt(A));
}

/* F(phi | m) (want_e = 0) or E(phi | m): phi = n pi + r, |r| <= pi/2, then
 * F = 2 n K(m) + sin r R_F(cos^2 r, 1 - m sin^2 r, 1) and
 * E = 2 n E(m) + sin r R_F - (m/3) sin^3 r R_D(cos^2 r, 1 - m sin^2 r, 1)
 * (DLMF 19.25.5, 19.25.9); NaN for m > 1 (Cephes' domain). */
CA_HD double
ca_p_sp_ellip_inc(double phi, double m, int want_e)
{
    if (phi != phi || m != m || m > 1.0) {
        return NAN;
    }
    if (fabs(phi) == (double)INFINITY) {
        return m == -(double)INFINITY ? NAN : phi;
    }
    if (m == -(double)INFINITY) {
        return want_e ? (phi == 0.0 ? phi : copysign(INFINITY, phi)) : 0.0;
    }
    const double n = rint(phi / CA_SP_PI);
    const double r = phi - n * CA_SP_PI;
    const double s = sin(r), c = cos(r), s2 = s * s;
    const double y = 1.0 - m * s2;
    double v = s * ca_p_sp_carlson_rf(c * c, y, 1.0);
    if (want_e) {
        v -= m / 3.0 * s2 * s * ca_p_sp_carlson_rd(c * c, y, 1.0);
    }
    if (n != 0.0) {
        double full;
        if (m == 1.0) {
            full = want_e ? 1.0 : INFINITY;
        }
        else {
            full = ca_p_sp_carlson_rf(0.0, 1.0 - m, 1.0);
            if (want_e) {
                full -= m / 3.0 * ca_p_sp_carlson_rd(0.0, 1.0 - m, 1.0);
            }
        }
        v += 2.0 * n * full;
    }
    return v;
}

CA_P_DEF(double, ca_p_sp_ellipkinc, (double phi, double m),
         ca_p_sp_ellip_inc(phi, m, 0))
CA_P_DEF(double, ca_p_sp_ellipeinc, (double phi, double m),
         ca_p_sp_ellip_inc(phi, m, 1))

/* Jacobi's sn, cn, dn and the amplitude ph of u for 0 <= m <= 1 (which: 0..3)
 * by the descending Landen / AGM scheme (A&S 16.4): a_0 = 1, b_0 = sqrt(1 - m),
 * c_0 = sqrt m, halving to c_N < 1e-16; phi_N = 2^N a_N u, then
 * phi_(n-1) = (phi_n + asin(c_n sin(phi_n) / a_n)) / 2; sn = sin phi_0,
 * cn = cos phi_0, dn = cos phi_0 / cos(phi_1 - phi_0). m = 0: sin, cos, 1, u;
 * m = 1: tanh, sech, sech, gd(u). NaN outside [0, 1]. */
CA_HD double
ca_p_sp_ellipj(double u, double m, int which)
{
    if (u != u || m != m || m < 0.0 || m > 1.0) {
        return NAN;
    }
    if (m < 1e-9) {
        /* A&S 16.13: first order in m */
        const double s = sin(u), c = cos(u), t = 0.25 * m * (u - s * c);
        switch (which) {
        case 0: return s - t * c;
        case 1: return c + t * s;
        case 2: return 1.0 - 0.5 * m * s * s;
        default: return u - t;
        }
    }
    if (m == 1.0) {
        const double sech = 1.0 / cosh(u);
        switch (which) {
        case 0: return tanh(u);
        case 1: return sech;
        case 2: return sech;
        default: return 2.0 * atan(exp(u)) - 0.5 * CA_SP_PI;
        }
    }
    double a[12], c[12];
    a[0] = 1.0;
    double b = sqrt(1.0 - m);
    c[0] = sqrt(m);
    double twon = 1.0;
    int n = 0;
    while (fabs(c[n] / a[n]) > 1.1e-16 && n < 10) {
        a[n + 1] = 0.5 * (a[n] + b);
        c[n + 1] = 0.5 * (a[n] - b);
        b = sqrt(a[n] * b);
        twon *= 2.0;
        n++;
    }
    double phi = twon * a[n] * u, phi1 = phi;
    for (; n > 0; n--) {
        phi1 = phi;
        phi = 0.5 * (phi + asin(c[n] * sin(phi) / a[n]));
    }
    switch (which) {
    case 0: return sin(phi);
    case 1: return cos(phi);
    case 2: return cos(phi) / cos(phi1 - phi);
    default: return phi;
    }
}

CA_P_DEF(double, ca_p_sp__ellipj_sn, (double u, double m), ca_p_sp_ellipj(u, m, 0))
CA_P_DEF(double, ca_p_sp__ellipj_cn, (double u, double m), ca_p_sp_ellipj(u, m, 1))
CA_P_DEF(double, ca_p_sp__ellipj_dn, (double u, double m), ca_p_sp_ellipj(u, m, 2))
CA_P_DEF(double, ca_p_sp__ellipj_ph, (double u, double m), ca_p_sp_ellipj(u, m, 3))

CA_SP_LOOPS1(ellipk)
CA_SP_LOOPS1(ellipkm1)
CA_SP_LOOPS2(ellipkinc)
CA_SP_LOOPS2(ellipeinc)
CA_SP_LOOPS2(_ellipj_sn)
CA_SP_LOOPS2(_ellipj_cn)
CA_SP_LOOPS2(_ellipj_dn)
CA_SP_LOOPS2(_ellipj_ph)

/* ---- sici, shichi ------------------------------------------------------------ */

/* E1(i x) for x > 2 by the continued fraction of E1 (A&S 5.1.22) in complex
 * arithmetic (modified Lentz); Ci(x) = -Re, Si(x) = pi/2 + Im (A&S 5.2.23). */
CA_HD void
ca_p_sp_sici_cf(double x, double *si, double *ci)
{
    /* b = 1 + i x, c = 1/tiny, d = 1/b, h = d */
    double br = 1.0, bi = x;
    double cr = 1.0 / CA_SP_TINY, ci_ = 0.0;
    double den = br * br + bi * bi;
    double dr = br / den, di = -bi / den;
    double hr = dr, hi = di;
    for (int i = 1; i < 1000; i++) {
        const double an = -(double)i * i;
        br += 2.0;
        /* d = 1 / (an d + b) */
        double tr = an * dr + br, ti = an * di + bi;
        den = tr * tr + ti * ti;
        dr = tr / den;
        di = -ti / den;
        /* c = b + an / c */
        den = cr * cr + ci_ * ci_;
        const double ncr = br + an * cr / den, nci = bi - an * ci_ / den;
        cr = ncr;
        ci_ = nci;
        /* del = c d; h *= del */
        const double er = cr * dr - ci_ * di, ei = cr * di + ci_ * dr;
        const double nhr = hr * er - hi * ei;
        hi = hr * ei + hi * er;
        hr = nhr;
        if (fabs(er - 1.0) + fabs(ei) < 1e-16) {
            break;
        }
    }
    /* E1(ix) = h e^(-ix) */
    const double cs = cos(x), sn = sin(x);
    const double er = hr * cs + hi * sn, ei = hi * cs - hr * sn;
    *ci = -er;
    *si = 0.5 * CA_SP_PI + ei;
}

/* Si, Ci (hyperbolic: Shi, Chi) of x >= 0 by their power series for x <= 2
 * (A&S 5.2.14, 5.2.16, 5.2.18, 5.2.19): sum (+-1)^k x^(2k+1) / ((2k+1)(2k+1)!)
 * and gamma + log x + sum (+-1)^k x^(2k) / (2k (2k)!); beyond, the continued
 * fraction (sici) or Shi, Chi = (Ei(x) +- E1(x)) / 2. */
CA_HD void
ca_p_sp_sici_pos(double x, int hyper, double *s, double *c)
{
    if (x <= 2.0 || (hyper && x <= 8.0)) {
        const double x2 = hyper ? x * x : -x * x;
        double t = x, ss = x, cs = 0.0;
        for (int k = 1; k < 100; k++) {
            t *= x2 / ((2.0 * k) * (2.0 * k + 1.0));   /* x^(2k+1)/(2k+1)! signed */
            const double tc = t * (2.0 * k + 1.0) / x; /* x^(2k)/(2k)! */
            ss += t / (2.0 * k + 1.0);
            cs += tc / (2.0 * k);
            if (fabs(t) < 1e-18 * fabs(ss)) {
                break;
            }
        }
        *s = ss;
        *c = CA_SP_EULER + log(x) + cs;
        return;
    }
    if (hyper) {
        const double ei = ca_p_sp_expi(x), e1 = ca_p_sp_expn_int(1, x);
        *s = 0.5 * (ei + e1);
        *c = 0.5 * (ei - e1);
        return;
    }
    ca_p_sp_sici_cf(x, s, c);
}

/* which 0: Si (Shi), 1: Ci (Chi); Si and Shi odd, Ci and Chi of -x SciPy's
 * real value of |x|; Si(inf) = pi/2, Ci(inf) = 0, Ci(-inf) NaN, Shi, Chi -> inf. */
CA_HD double
ca_p_sp_sici(double x, int hyper, int which)
{
    if (x != x) {
        return x;
    }
    const double ax = fabs(x);
    double s, c;
    if (ax == 0.0) {
        s = x;
        c = -(double)INFINITY;
        return which ? c : s;
    }
    if (ax == (double)INFINITY) {
        if (hyper) {
            s = INFINITY;
            c = INFINITY;
        }
        else {
            s = 0.5 * CA_SP_PI;
            c = x > 0.0 ? 0.0 : NAN;
        }
    }
    else if (!hyper && ax > 1e18) {
        s = 0.5 * CA_SP_PI - cos(ax) / ax;
        c = sin(ax) / ax;
    }
    else {
        ca_p_sp_sici_pos(ax, hyper, &s, &c);
    }
    return which ? c : (x < 0.0 ? -s : s);
}

CA_SP_FLAGS4(ca_p_sp_sici, _sici_si, _sici_ci, _shichi_shi, _shichi_chi)

#endif /* CA_SPECIAL_ELLIPTIC_H */

/*
 * special_expint.h (included by special_math.h): exponential integrals (exp1,
 * expi, expn), the zeta functions (Hurwitz zeta, Riemann zeta, zetac) and small
 * element-wise functions (expm1, log1p with complex loops, exprel, round, radian).
 */
#ifndef CA_SPECIAL_EXPINT_H
#define CA_SPECIAL_EXPINT_H

/* ---- exponential integrals ---------------------------------------------------- */

/* E_n(x) for x > 1 by its continued fraction e^-x (1 / (x + n - 1 n / (x + n + 2 -
 * 2 (n + 1) / (x + n + 4 - ...)))) (A&S 5.1.22, even form), modified Lentz. */
CA_HD double
ca_p_sp_expn_cf(double n, double x)
{
    double b = x + n, c = 1.0 / CA_SP_TINY, d = 1.0 / b, h = d;
    for (int i = 1; i < 10000; i++) {
        const double an = -i * (n - 1.0 + i);
        b += 2.0;
        d = 1.0 / (an * d + b);
        c = b + an / c;
        const double del = c * d;
        h *= del;
        if (fabs(del - 1.0) < 1e-16) {
            break;
        }
    }
    return h * exp(-x);
}

/* E_n(x) for 0 < x <= 1 by its series (A&S 5.1.12):
 * (-x)^(n-1) / (n-1)! (psi(n) - log x) - sum_(k != n-1) (-x)^k / ((k - n + 1) k!). */
CA_HD double
ca_p_sp_expn_series(double n, double x)
{
    const int ni = (int)n;
    double s = ni != 1 ? 1.0 / (n - 1.0) : -log(x) - CA_SP_EULER, fact = 1.0;
    for (int i = 1; i < 1000; i++) {
        fact *= -x / i;
        double del;
        if (i != ni - 1) {
            del = -fact / (i - n + 1.0);
        }
        else {
            double psi = -CA_SP_EULER;
            for (int k = 1; k < ni; k++) {
                psi += 1.0 / k;
            }
            del = fact * (psi - log(x));
        }
        s += del;
        if (fabs(del) < fabs(s) * 1e-17) {
            break;
        }
    }
    return s;
}

CA_HD double
ca_p_sp_expn_int(int64_t n, double x)
{
    if (x != x || n < 0 || x < 0.0) {
        return NAN;
    }
    if (n > 2147483647) {
        return NAN; /* SciPy's n is a C int: NaN beyond, whatever x */
    }
    if (x == (double)INFINITY) {
        return 0.0;
    }
    if (x == 0.0) {
        return n < 2 ? INFINITY : 1.0 / (double)(n - 1);
    }
    if (n == 0) {
        return exp(-x) / x;
    }
    if (n > 100000000) {
        return exp(-x) / (x + (double)n); /* the CF's first term, to 1e-16 */
    }
    /* the fraction converges fast once x + n is large; the series below */
    return (x > 1.0 || n > 50) ? ca_p_sp_expn_cf((double)n, x)
                               : ca_p_sp_expn_series((double)n, x);
}

/* SciPy's float loops take n as a double, truncated toward zero. */
CA_HD double
ca_p_sp_expn(double n, double x)
{
    if (n != n) {
        return n;
    }
    if (n <= -1.0) {
        return NAN; /* n in (-1, 0) truncates to 0 (SciPy: E_0) */
    }
    return ca_p_sp_expn_int(n > 4e18 ? (int64_t)4e18 : (int64_t)n, x);
}

CA_HD double
ca_p_sp_exp1(double x)
{
    if (x != x || x < 0.0) {
        return NAN;
    }
    return ca_p_sp_expn_int(1, x);
}

/* Ei(x): -E1(-x) for x < 0; for 0 < x <= 40 the series gamma + log x +
 * sum x^k / (k k!) (A&S 5.1.10; positive terms), beyond the asymptotic
 * e^x / x sum k! / x^k to its smallest term (A&S 5.1.51). */
CA_HD double
ca_p_sp_expi(double x)
{
    if (x != x) {
        return x;
    }
    if (x < 0.0) {
        return -ca_p_sp_expn_int(1, -x);
    }
    if (x == 0.0) {
        return -(double)INFINITY;
    }
    if (x == (double)INFINITY) {
        return x;
    }
    if (x <= 40.0) {
        double t = 1.0, s = 0.0;
        for (int k = 1; k < 500; k++) {
            t *= x / k;
            const double term = t / k;
            s += term;
            if (term < 1e-17 * s) {
                break;
            }
        }
        return CA_SP_EULER + log(x) + s;
    }
    double t = 1.0, s = 1.0;
    for (int k = 1; k < 100; k++) {
        const double tn = t * k / x;
        if (tn > t || tn < 1e-18) {
            break;
        }
        t = tn;
        s += t;
    }
    /* e^x in halves: e^x / x may be finite where e^x is not */
    const double h = exp(0.5 * x);
    return h * (h / x) * s;
}

CA_SP_LOOPS1(exp1)
CA_SP_LOOPS1(expi)
CA_SP_LOOPS2(expn)
CA_P_DEF(double, ca_sp_expn_i64_f64, (int64_t n, double x), ca_p_sp_expn_int(n, x))

/* ---- zeta functions ---------------------------------------------------------- */

/* Hurwitz zeta(s, q) = sum_k (q + k)^-s for s > 1: the sum to w = q + N >= 9
 * (N >= 9), then the Euler-Maclaurin tail w^(1-s) / (s - 1) + w^-s / 2 +
 * sum_j B_2j / (2j)! s (s+1) ... (s+2j-2) w^(-s-2j+1) (A&S 23.2.3 with 23.1.30;
 * 14 terms). Negative q: only integer s (each term a real power). */
CA_HD double
ca_p_sp_hurwitz(double s, double q)
{
    const double c[14] = { 0.083333333333333329,   -0.0013888888888888889,
                           3.3068783068783071e-05, -8.2671957671957675e-07,
                           2.08767569878681e-08,   -5.2841901386874932e-10,
                           1.3382536530684679e-11, -3.3896802963225827e-13,
                           8.5860620562778452e-15, -2.1748686985580619e-16,
                           5.5090028283602295e-18, -1.3954464685812522e-19,
                           3.5347070396294673e-21, -8.9535174270375463e-23 };
    if (s != s || q != q) {
        return NAN;
    }
    if (s == 1.0) {
        return INFINITY;
    }
    if (s < 1.0) {
        return NAN;
    }
    if (q <= 0.0) {
        if (q == floor(q)) {
            return INFINITY;
        }
        if (s != floor(s)) {
            return NAN;
        }
    }
    if (q == (double)INFINITY) {
        return 0.0;
    }
    double w = q, sum = pow(w, -s);
    for (int i = 0; i < 9 || w <= 9.0; i++) {
        w += 1.0;
        const double b = pow(w, -s);
        sum += b;
        if (fabs(b / sum) < 1e-17) {
            return sum;
        }
    }
    /* the terms from w on: sum (w + k)^-s, k >= 0, by Euler-Maclaurin */
    const double ws = pow(w, -s);
    double tail = w * ws / (s - 1.0) - 0.5 * ws;
    double fac = s * ws / w, pw = 1.0; /* s (s+1)...(s+2j-2) w^(-s-2j+1) */
    for (int j = 0; j < 14; j++) {
        const double t = c[j] * fac * pw;
        tail += t;
        if (fabs(t) < 1e-17 * fabs(sum + tail)) {
            break;
        }
        pw /= w * w;
        fac *= (s + 2 * j + 1) * (s + 2 * j + 2);
    }
    return sum + tail;
}

/* eta(s) = sum (-1)^k / (k + 1)^s by Borwein's algorithm 2 with n = 26 (error
 * below 3 (3 + sqrt 8)^-26 = 3e-20 for real s >= 0; Borwein, "An efficient
 * algorithm for the Riemann zeta function", 1991). */
CA_HD double
ca_p_sp_eta_borwein(double s)
{
    const int n = 26;
    double d[27];
    double term = 1.0, acc = 1.0;
    d[0] = 1.0;
    for (int i = 1; i <= n; i++) {
        term *= 4.0 * (n + i - 1) * (n - i + 1) / ((2.0 * i - 1.0) * (2.0 * i));
        acc += term;
        d[i] = acc;
    }
    double sum = 0.0;
    for (int k = 0; k < n; k++) {
        const double t = (d[k] - d[n]) / pow(k + 1.0, s);
        sum += (k & 1) ? -t : t;
    }
    return -sum / d[n];
}

/* zeta(x) - 1 for real x: the Hurwitz sum from q = 2 for x > 1 (no 1 to cancel),
 * eta(x) / (1 - 2^(1-x)) on (-1/2, 1), and the functional equation
 * zeta(x) = 2 (2 pi)^(x-1) sin(pi x / 2) Gamma(1 - x) zeta(1 - x) below 0 (in logs
 * where Gamma(1 - x) overflows). */
CA_HD double
ca_p_sp_zetac(double x)
{
    if (x != x) {
        return x;
    }
    if (x >= 127.0) {
        return 0.0; /* SciPy's (Cephes') cut: 2^-x and below are flushed to 0 */
    }
    if (x == 1.0) {
        return INFINITY;
    }
    if (x > 1.0) {
        return ca_p_sp_hurwitz(x, 2.0);
    }
    if (x > -0.5) {
        return ca_p_sp_eta_borwein(x) /
                   -expm1((1.0 - x) * 0.693147180559945309417232121458) -
               1.0;
    }
    if (x == -(double)INFINITY) {
        return NAN;
    }
    const double sn = ca_p_sp_sinpi(0.5 * x);
    if (sn == 0.0) {
        return -1.0; /* the trivial zeros */
    }
    const double z1 = 1.0 + ca_p_sp_zetac(1.0 - x);
    if (x > -170.0) {
        return 2.0 * pow(2.0 * CA_SP_PI, x - 1.0) * sn * tgamma(1.0 - x) * z1 - 1.0;
    }
    const double l = 0.693147180559945309417232121458 +
                     (x - 1.0) * 1.83787706640934548356065947281 + log(fabs(sn)) +
                     lgamma(1.0 - x) + log(z1);
    return (sn < 0.0 ? -1.0 : 1.0) * exp(l) - 1.0;
}

/* Riemann zeta: 1 + zetac (direct below 1, where no 1 is to cancel) */
CA_HD double
ca_p_sp_riemann_zeta(double x)
{
    if (x > 1.0) {
        return x == (double)INFINITY ? 1.0 : 1.0 + ca_p_sp_hurwitz(x, 2.0);
    }
    return x == 1.0 ? INFINITY : ca_p_sp_zetac(x) + 1.0;
}

CA_P_DEF(double, ca_p_sp__zeta, (double x, double q), ca_p_sp_hurwitz(x, q))
CA_SP_LOOPS1(zetac)
CA_SP_LOOPS1(riemann_zeta)
CA_SP_LOOPS2(_zeta)

/* ---- small element-wise functions -------------------------------------------- */

CA_P_DEF(double, ca_p_sp_expm1, (double x), expm1(x))
CA_P_DEF(double, ca_p_sp_log1p, (double x), log1p(x))

/* e^z - 1 = (expm1(x) cos y + cosm1(y)) + i e^x sin y: no cancellation near 0. */
CA_HD ca_complex128
ca_p_sp_cexpm1(ca_complex128 z)
{
    const double x = z.re, y = z.im;
    if (!(fabs(x) < (double)INFINITY && fabs(y) < (double)INFINITY)) {
        const ca_complex128 e = ca_exp_c128(z);
        return ca_p_z(e.re - 1.0, e.im);
    }
    if (x > 700.0) {
        const ca_complex128 e = ca_exp_c128(z);
        return ca_p_z(e.re - 1.0, e.im);
    }
    const double s = sin(0.5 * y);
    return ca_p_z(expm1(x) * cos(y) - 2.0 * s * s, exp(x) * sin(y));
}

CA_P_DEF(ca_complex128, ca_sp_expm1_c128, (ca_complex128 a), ca_p_sp_cexpm1(a))
CA_P_DEF(ca_complex64, ca_sp_expm1_c64, (ca_complex64 a),
         ca_p_z2c(ca_p_sp_cexpm1(ca_p_c2z(a))))
CA_P_DEF(ca_complex128, ca_sp_log1p_c128, (ca_complex128 a), ca_p_sp_clog1p(a))
CA_P_DEF(ca_complex64, ca_sp_log1p_c64, (ca_complex64 a),
         ca_p_z2c(ca_p_sp_clog1p(ca_p_c2z(a))))

/* (e^x - 1) / x: 1 near 0 (|x| < 1e-16), expm1's quotient elsewhere, inf for
 * large x and 0 at -inf (Cephes' exprel). */
CA_HD double
ca_p_sp_exprel(double x)
{
    if (fabs(x) < 1e-16) {
        return 1.0;
    }
    if (x > 717.0) {
        return INFINITY;
    }
    return expm1(x) / x;
}

/* round half away from zero?  SciPy's round is half to even (Cephes round). */
CA_P_DEF(double, ca_p_sp_round, (double x), rint(x))

/* degrees, minutes, seconds -> radians */
CA_P_DEF(double, ca_p_sp_radian, (double d, double m, double s),
         (d + m / 60.0 + s / 3600.0) * CA_SP_PI180)

CA_SP_LOOPS1(expm1)
CA_SP_LOOPS1(log1p)
CA_SP_LOOPS1(exprel)
CA_SP_LOOPS1(round)
CA_SP_LOOPS3(radian)

#endif /* CA_SPECIAL_EXPINT_H */

/*
 * special_normal.h (included by special_math.h): the normal distribution and the
 * inverse error functions: ndtr, log_ndtr, ndtri, erfinv, erfcinv.
 */
#ifndef CA_SPECIAL_NORMAL_H
#define CA_SPECIAL_NORMAL_H

#define CA_SP_SQRT1_2 0.707106781186547524400844362104849039
#define CA_SP_SQRT2   1.414213562373095048801688724209698079

/* Phi(x) = erfc(-x / sqrt 2) / 2; erf's form where |x / sqrt 2| < 1/sqrt 2, whose
 * result is near 1/2 (Cephes ndtr's split). */
CA_HD double
ca_p_sp_ndtr(double x)
{
    const double t = x * CA_SP_SQRT1_2;
    if (fabs(t) < CA_SP_SQRT1_2) {
        return 0.5 + 0.5 * erf(t);
    }
    const double y = 0.5 * erfc(fabs(t));
    return t > 0.0 ? 1.0 - y : y;
}

/* log Phi(x): log1p(-Phi(-x)) for x > 0 (Phi(-x) <= 1/2 is accurate), log Phi
 * down to -1, and for
 * x < -1 log(erfcx(-x / sqrt 2) / 2) - x^2 / 2: erfcx varies slowly, so the
 * rounding of -x / sqrt 2 costs nothing and x^2 / 2 is taken from x itself. */
CA_HD double
ca_p_sp_log_ndtr(double x)
{
    if (x != x) {
        return x;
    }
    if (x > 0.0) {
        return log1p(-ca_p_sp_ndtr(-x));
    }
    if (x > -1.0) {
        return log(ca_p_sp_ndtr(x));
    }
    if (x == -(double)INFINITY) {
        return x;
    }
    return log(0.5 * ca_p_sp_erfcx(-x * CA_SP_SQRT1_2)) - 0.5 * x * x;
}

/* The normal quantile's first guess: Acklam's rational approximations (relative
 * error 1.2e-9), a central one in c = p - 1/2 and a tail one in the lower tail
 * probability p (0 < p < 0.02425) giving the negative quantile. */
CA_HD double
ca_p_sp_acklam_central(double c)
{
    const double r = c * c;
    const double num = ((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r -
                          2.759285104469687e+02) *
                             r +
                         1.383577518672690e+02) *
                            r -
                        3.066479806614716e+01) *
                           r +
                       2.506628277459239e+00;
    const double den = ((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r -
                          1.556989798598866e+02) *
                             r +
                         6.680131188771972e+01) *
                            r -
                        1.328068155288572e+01) *
                           r +
                       1.0;
    return c * num / den;
}

CA_HD double
ca_p_sp_acklam_tail(double p)
{
    const double q = sqrt(-2.0 * log(p));
    const double num = ((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q -
                          2.400758277161838e+00) *
                             q -
                         2.549732539343734e+00) *
                            q +
                        4.374664141464968e+00) *
                           q +
                       2.938163982698783e+00;
    const double den = (((7.784695709041462e-03 * q + 3.224671290700398e-01) * q +
                         2.445134137142996e+00) *
                            q +
                        3.754408661907416e+00) *
                           q +
                       1.0;
    return num / den;
}

/* w >= 0 with erf(w) = y, 0 <= y < 1, given z = 1 - y as exactly as the caller
 * has it: Acklam's guess, then two Halley steps on erf(w) - y (small y) or on
 * z - erfc(w) (y >= 1/2, written with erfcx: (sqrt(pi)/2) (z e^(w^2) - erfcx(w))
 * is the Newton step, no underflow down to z = 1e-308). */
CA_HD double
ca_p_sp_erfinv_pos(double y, double z)
{
    const double hs = 0.886226925452758013649083741671; /* sqrt(pi) / 2 */
    double w = y < 0.9515 ? ca_p_sp_acklam_central(0.5 * y) * CA_SP_SQRT1_2
                          : -ca_p_sp_acklam_tail(0.5 * z) * CA_SP_SQRT1_2;
    for (int i = 0; i < 2; i++) {
        double u;
        if (y < 0.5) {
            u = hs * (erf(w) - y) * exp(w * w);
        }
        else {
            u = hs * (exp(log(z) + w * w) - ca_p_sp_erfcx(w));
        }
        w -= u / (1.0 + w * u);
    }
    return w;
}

CA_HD double
ca_p_sp_erfinv(double y)
{
    if (!(fabs(y) <= 1.0)) {
        return NAN;
    }
    if (fabs(y) == 1.0) {
        return y * (double)INFINITY;
    }
    if (y == 0.0) {
        return y;
    }
    const double a = fabs(y);
    const double w = ca_p_sp_erfinv_pos(a, 1.0 - a);
    return y < 0.0 ? -w : w;
}

/* erfc(w) = z: erfinv(1 - z), with 1 - z's tail taken from z itself. */
CA_HD double
ca_p_sp_erfcinv(double z)
{
    if (!(z >= 0.0 && z <= 2.0)) {
        return NAN;
    }
    if (z == 0.0 || z == 2.0) {
        return z == 0.0 ? (double)INFINITY : -(double)INFINITY;
    }
    if (z <= 1.0) {
        return ca_p_sp_erfinv_pos(1.0 - z, z);
    }
    return -ca_p_sp_erfinv_pos(z - 1.0, 2.0 - z);
}

/* Phi^-1(p) = sqrt 2 erfinv(2p - 1), the tail below 1/2 from 2p (exact). */
CA_HD double
ca_p_sp_ndtri(double p)
{
    if (!(p >= 0.0 && p <= 1.0)) {
        return NAN;
    }
    if (p == 0.0 || p == 1.0) {
        return p == 0.0 ? -(double)INFINITY : (double)INFINITY;
    }
    if (p < 0.5) {
        return -CA_SP_SQRT2 * ca_p_sp_erfinv_pos(1.0 - 2.0 * p, 2.0 * p);
    }
    return CA_SP_SQRT2 * ca_p_sp_erfinv_pos(2.0 * p - 1.0, 2.0 - 2.0 * p);
}

CA_SP_LOOPS1(ndtr)
CA_SP_LOOPS1(log_ndtr)
CA_SP_LOOPS1(erfinv)
CA_SP_LOOPS1(erfcinv)
CA_SP_LOOPS1(ndtri)

#endif /* CA_SPECIAL_NORMAL_H */

#include "check.h"
/* tgamma, lgamma, lgamma_r (their derivatives need digamma, which pyenzyme emits into the module), frexp and
   modf, in double and float. modf compiles to llvm.modf ({frac, int}), checked in reverse mode here. */
double f_tgamma(double x) { return tgamma(x); }
double f_lgamma(double x) { return lgamma(1.5 * x); }
double f_lgamma_r(double x) { int sign; double l = lgamma_r(x, &sign); return sign * exp(l); } /* = tgamma */
double f_gamma_ratio(double x) { return tgamma(x + 0.5) / tgamma(x); }
double f_float(double x) { float y = (float)x; return (double)(tgammaf(y) + lgammaf(y)); }
double f_frexp(double x) { int e; double m = frexp(x * x, &e); return m * m + e; }
double f_frexpf(double x) { int e; float m = frexpf((float)x, &e); return (double)m * 3.0; }
double f_modf(double x) { double ip; double fr = modf(x * x, &ip); return fr * fr + ip; }
double f_modf_out(double x, double *ip) { return modf(3.0 * x, ip) * x; }

/* digamma by brute force: the recurrence to x >= 40, then log and four series terms. */
static double digamma_ref(double x) {
  double acc = 0;
  if (x < 0.5) return digamma_ref(1 - x) - 3.14159265358979323846 / tan(3.14159265358979323846 * x);
  while (x < 40) { acc -= 1 / x; x += 1; }
  double w = 1 / (x * x);
  return acc + log(x) - 0.5 / x - w * (1.0 / 12 - w * (1.0 / 120 - w * (1.0 / 252 - w / 240)));
}

int main(void) {
  double pts[] = {-2.5, -0.3, 0.4, 1.7, 4.6, 11.3};
  for (int k = 0; k < 6; k++) {
    double x = pts[k];
    CHECK_SCALAR("tgamma", f_tgamma, x, tgamma(x) * digamma_ref(x));
    CHECK_SCALAR("lgamma", f_lgamma, x, 1.5 * digamma_ref(1.5 * x));
    CHECK_SCALAR("lgamma_r", f_lgamma_r, x, tgamma(x) * digamma_ref(x));
    if (x > 0) CHECK_SCALAR("gamma ratio", f_gamma_ratio, x,
                            tgamma(x + 0.5) / tgamma(x) * (digamma_ref(x + 0.5) - digamma_ref(x)));
  }
  double fpts[] = {0.6, 2.25, 5.5};
  for (int k = 0; k < 3; k++) {
    double x = fpts[k], v = 0;
    float y = (float)x;
    double want = (double)tgammaf(y) * digamma_ref(y) + digamma_ref(y);
    check("float gamma reverse", __enzyme_autodiff((void *)f_float, x), want, 1e-5);
    check("float gamma forward", __enzyme_fwddiff((void *)f_float, x, 1.0), want, 1e-5);
    check("float gamma central", CENTRAL_H(f_float(v), v, x, 1e-3), want, 1e-2);
  }
  double xs[] = {-3.3, 0.7, 1.9, 5.1};
  for (int k = 0; k < 4; k++) {
    double x = xs[k], v = 0;
    int e;
    double m = frexp(x * x, &e);
    CHECK_SCALAR("frexp", f_frexp, x, 2 * m * ldexp(1.0, -e) * 2 * x);
    frexpf((float)x, &e);
    check("frexpf reverse", __enzyme_autodiff((void *)f_frexpf, x), 3.0 * ldexp(1.0, -e), 1e-12);
    check("frexpf forward", __enzyme_fwddiff((void *)f_frexpf, x, 1.0), 3.0 * ldexp(1.0, -e), 1e-12);
    double ip, fr = modf(x * x, &ip);
    check("modf reverse", __enzyme_autodiff((void *)f_modf, x), 2 * fr * 2 * x, 1e-12);
    check("modf central", CENTRAL(f_modf(v), v, x), 2 * fr * 2 * x, 1e-6);
    /* modf with the integral part stored through a pointer: its adjoint is consumed (derivative 0). */
    double ipv = 0, dip = 5.0;  /* a seed on *ip must not leak into dx */
    double got = __enzyme_autodiff((void *)f_modf_out, enzyme_out, x, enzyme_dup, &ipv, &dip);
    double fr3 = modf(3.0 * x, &ip);
    check("modf out-pointer reverse", got, 3.0 * x + fr3, 1e-12);
    check("modf out-pointer shadow consumed", dip, 0.0, 0.0);
    (void)v;
  }
  return finish();
}

#include "check.h"
/* __enzyme_iter(n, step): a truncated Taylor series of exp whose length grows by one term per derivative,
   so the derivative of the n-term series is the n-term series again (to rounding), in forward and reverse
   mode and for a derivative of a derivative.  Without the extra term it would miss x^n / n!. */
#include <stdint.h>
uint64_t __enzyme_iter(uint64_t, uint64_t);

static double exp_terms(double x, uint64_t n) {
  double term = 1, sum = 1;
  for (uint64_t i = 1; i <= n; i++) { term *= x / (double)i; sum += term; }
  return sum;
}

double series_exp(double x) { return exp_terms(x, __enzyme_iter(8, 1)); }

double d_series_exp(double x) { return __enzyme_fwddiff((void *)series_exp, x, 1.0); }
double r_series_exp(double x) { return __enzyme_autodiff((void *)series_exp, x); }

int main(void) {
  const double xs[3] = {0.3, 1.4, -2.2};
  for (int k = 0; k < 3; k++) {
    double x = xs[k], v;
    double eight = exp_terms(x, 8);
    check("primal has 8 terms", series_exp(x), eight, 1e-15);
    check("reverse derivative has 8 terms", __enzyme_autodiff((void *)series_exp, x), eight, 1e-14);
    check("forward derivative has 8 terms", d_series_exp(x), eight, 1e-14);
    check("second derivative has 8 terms", __enzyme_fwddiff((void *)d_series_exp, x, 1.0), eight, 1e-14);
    check("reverse over forward", __enzyme_autodiff((void *)d_series_exp, x), eight, 1e-14);
    check("reverse over reverse", __enzyme_autodiff((void *)r_series_exp, x), eight, 1e-14);
    /* Central differences see the primal's 8 terms: one fewer after differentiating. */
    check("central differences", CENTRAL(series_exp(v), v, x), exp_terms(x, 7), 1e-6);
  }
  return finish();
}

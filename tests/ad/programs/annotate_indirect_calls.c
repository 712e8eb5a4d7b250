#include "check.h"
/* Enzyme annotations apply to calls through function pointers too: a table of terms, one of them marked
   inactive (a penalty that only steers the primal), one a fast exp declared function_like.  The derivative
   is the same as with direct calls; checked against the analytic formula in reverse and forward mode. */
typedef double (*term_fn)(double);

__attribute__((enzyme_inactive)) double penalty(double x) { return 0.01 * x * x * x * x; }

__attribute__((enzyme_function_like("exp"))) double rough_exp(double x) {
  return 1 + x + x * x / 2 + x * x * x / 6 + x * x * x * x / 24;   /* exp' = exp: the rule uses the result */
}

double quadratic(double x) { return 0.5 * x * x; }

static term_fn terms[3] = {quadratic, penalty, rough_exp};

__attribute__((noinline)) double total(double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += terms[i](x);
  return s;
}

int main(void) {
  double x = 0.3;
  double expect = x + rough_exp(x);   /* quadratic' + 0 + rough_exp(x) */
  check("reverse", __enzyme_autodiff((void *)total, x, 3), expect, 1e-13);
  check("forward", __enzyme_fwddiff((void *)total, x, 1.0, 3), expect, 1e-13);
  return finish();
}

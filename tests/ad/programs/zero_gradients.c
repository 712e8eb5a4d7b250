#include "check.h"
/* Inputs that do not reach the result get a gradient of +0.0, not -0.0 (adjoints start from -0.0 inside
   the derivative, IEEE's additive identity, and are made positive where they are handed back). */
typedef struct { double dx, dy; } Pair;
Pair __enzyme_autodiff_pair(void *, double, double);
double __enzyme_autodiff_c(void *, double, int, double);

double only_x(double x, double y) { (void)y; return x * x; }  /* a parameter the model ignores */
double branch(double x, double c) { return c > 0 ? 3.0 : x * x; }
double loop_sum(const double *x, int n) { double s = 0; for (int i = 1; i < n; i++) s += x[i] * x[i]; return s; }

static void check_positive_zero(const char *what, double got) {
  check(what, got, 0.0, 0.0);
  if (signbit(got)) { printf("MISMATCH %s: -0.0 instead of +0.0\n", what); failures++; }
}

int main(void) {
  Pair p = __enzyme_autodiff_pair((void *)only_x, 1.5, -2.0);
  check("d only_x / dx", p.dx, 3.0, 1e-15);
  check_positive_zero("d only_x / dy", p.dy);
  check_positive_zero("d branch / dx where the branch skips x", __enzyme_autodiff_c((void *)branch, -0.7, enzyme_const, 1.0));
  check("d branch / dx where it uses x", __enzyme_autodiff_c((void *)branch, -0.7, enzyme_const, -1.0), -1.4, 1e-15);
  double x[4] = {-0.5, 1.0, -2.0, 0.25}, d[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)loop_sum, enzyme_dup, x, d, enzyme_const, 4);
  check_positive_zero("d loop_sum / dx[0] (never read)", d[0]);
  for (int k = 1; k < 4; k++) check("d loop_sum / dx[k]", d[k], 2 * x[k], 1e-15);
  return finish();
}

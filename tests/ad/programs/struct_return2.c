#include "check.h"
/* Several active scalar outputs: the gradient returned as a 2-double struct, enzyme_out mixed with dup and const. */
typedef struct { double a, b; } T2;
T2 __enzyme_autodiff_t2(void *, ...);
double f(double x, double y) { return x * x * y + sin(y); }
double g(double x, const double *p, double y, int n) { double s = 0; for (int i = 0; i < n; i++) s += p[i] * pow(x, i); return s * y; }

int main(void) {
  double x = 1.2, y = -0.4;
  T2 r = __enzyme_autodiff_t2((void *)f, x, y);
  check("default activity (both out) d/dx", r.a, 2 * x * y, 1e-12);
  check("default activity (both out) d/dy", r.b, x * x + cos(y), 1e-12);
  double p[3] = {1.0, 0.5, -2.0}, dp[3] = {0};
  T2 s = __enzyme_autodiff_t2((void *)g, enzyme_out, x, enzyme_dup, p, dp, enzyme_out, y, enzyme_const, 3);
  double poly = p[0] + p[1] * x + p[2] * x * x;
  check("out/dup/out d/dx", s.a, (p[1] + 2 * p[2] * x) * y, 1e-12);
  check("out/dup/out d/dy", s.b, poly, 1e-12);
  for (int i = 0; i < 3; i++) check("out/dup/out d/dp", dp[i], pow(x, i) * y, 1e-12);
  double v;
  check("d/dx central", CENTRAL(g(v, p, y, 3), v, x), s.a, 1e-6);
  return finish();
}

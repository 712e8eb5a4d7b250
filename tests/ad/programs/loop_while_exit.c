#include "check.h"
/* Data-dependent loop exits: a while loop whose trip count depends on x, a search loop, a convergence loop. */
double bisect_count(double x) { double y = x, acc = 0; while (y > 0.1) { acc += y * y; y *= 0.5; } return acc; }
double first_above(const double *x, int n, double t) { int i = 0; while (i < n && x[i] <= t) i++; return i < n ? x[i] * x[i] : 0.0; }
double fixed_point(double a) { double y = 1.0; for (int it = 0; it < 200; it++) { double ny = cos(a * y); if (fabs(ny - y) < 1e-15) { y = ny; break; } y = ny; } return y; }

int main(void) {
  double x = 3.3, v;
  /* acc = sum_k (x 2^-k)^2 over k = 0..K-1 where x 2^-(K-1) > 0.1 : K = 6 for x = 3.3 */
  double g = 0;
  for (int k = 0; k < 6; k++) g += 2 * x * pow(0.25, k);
  CHECK_SCALAR("while loop", bisect_count, x, g);
  double arr[5] = {0.1, 0.4, 1.7, 2.5, 3.0}, darr[5] = {0};
  __enzyme_autodiff((void *)first_above, enzyme_dup, arr, darr, enzyme_const, 5, enzyme_const, 1.0);
  for (int i = 0; i < 5; i++) check("search loop", darr[i], i == 2 ? 2 * 1.7 : 0.0, 1e-12);
  double xd[5] = {1, 1, 1, 1, 1};
  check("search loop forward", __enzyme_fwddiff((void *)first_above, enzyme_dup, arr, xd, enzyme_const, 5, enzyme_const, 1.0), 3.4, 1e-12);
  /* y = cos(a y) at the fixed point: dy/da = -sin(a y) y / (1 + a sin(a y)) */
  double a = 0.8, y = fixed_point(a), dy = -sin(a * y) * y / (1 + a * sin(a * y));
  check("fixed point reverse", __enzyme_autodiff((void *)fixed_point, a), dy, 1e-9);
  check("fixed point forward", __enzyme_fwddiff((void *)fixed_point, a, 1.0), dy, 1e-9);
  check("fixed point central", CENTRAL(fixed_point(v), v, a), dy, 1e-6);
  return finish();
}

#include "check.h"
// Lambdas called directly: capturing by value and by reference, a lambda mutating a captured accumulator,
// a generic lambda, and a lambda passed to a function template (resolved statically, not through a pointer).
template <typename F> double apply_n(F f, double x, int n) { for (int i = 0; i < n; i++) x = f(x); return x; }
double f(double x, double k) {
  auto scale = [k](double y) { return k * y; };
  double acc = 0;
  auto add = [&acc](double y) { acc += y * y; };
  auto sq = [](auto y) { return y * y; };
  add(scale(x));
  add(sin(x));
  return acc + sq(x) + apply_n([k](double y) { return y * 0.5 + k * 0.1 * y * y; }, x, 3);
}

int main() {
  double x = 0.7, k = 1.3, v;
  double r = __enzyme_autodiff((void *)f, x, enzyme_const, k);
  check("lambdas reverse central", r, CENTRAL(f(v, k), v, x), 1e-6);
  check("lambdas forward", __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, k), r, 1e-12);
  double rk = __enzyme_autodiff((void *)f, enzyme_const, x, k);
  check("captured value d/dk central", rk, CENTRAL(f(x, v), v, k), 1e-6);
  /* the closed-form part: d/dx [(kx)^2 + sin^2 x + x^2] */
  double rest = 2 * k * k * x + 2 * sin(x) * cos(x) + 2 * x;
  double y = x, dy = 1;
  for (int i = 0; i < 3; i++) { dy = dy * (0.5 + 2 * k * 0.1 * y); y = y * 0.5 + k * 0.1 * y * y; }
  check("lambdas analytic", r, rest + dy, 1e-12);
  return finish();
}

#include "check.h"
// Function objects (structs with operator()) with parameters, passed by value to templates (static dispatch),
// composed into a pipeline; a stateful functor that counts its calls (int state is inactive).
struct Affine { double a, b; double operator()(double x) const { return a * x + b; } };
struct Logistic { double k; double operator()(double x) const { return 1.0 / (1.0 + exp(-k * x)); } };
struct Counter { int calls = 0; double operator()(double x) { calls++; return x * x; } };
template <typename F, typename G> struct Compose {
  F f; G g;
  double operator()(double x) const { return g(f(x)); }
};
template <typename F> double integrate(F f, double lo, double hi, int n) {   // midpoint rule
  double h = (hi - lo) / n, s = 0;
  for (int i = 0; i < n; i++) s += f(lo + (i + 0.5) * h);
  return s * h;
}
double model(const double *p, double x) {
  Compose<Affine, Logistic> c{{p[0], p[1]}, {p[2]}};
  Counter sq;
  return c(x) + integrate(c, 0.0, x, 8) + sq(p[0]) * 0.1;
}

int main() {
  double p[3] = {1.5, -0.5, 2.0}, dp[3] = {0, 0, 0}, x = 0.8, v;
  double dx = __enzyme_autodiff((void *)model, enzyme_dup, p, dp, x);
  check("d/dx central", dx, CENTRAL(model(p, v), v, x), 1e-6);
  for (int i = 0; i < 3; i++) check("d/dp central", dp[i], CENTRAL(model(p, x), p[i], p[i]), 1e-6);
  double pd[3] = {1.0, 0.5, -1.0};
  check("forward", __enzyme_fwddiff((void *)model, enzyme_dup, p, pd, x, 0.25), dot(dp, pd, 3) + 0.25 * dx, 1e-12);
  return finish();
}

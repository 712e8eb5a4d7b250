#include "check.h"
#include <functional>
/* A lambda capturing two active doubles by value (and an array by reference) kept in a std::function, which
   copies the closure to the heap (24 bytes: more than std::function keeps in place) (std::function's manager clones it with a memcpy at -O0, a helper reached
   only through the manager pointer: the copy's layout comes from the closure's call operator), then the
   std::function itself copied (the manager's clone operation).  Objective: a sum over a small loop. */
using Fn = std::function<double(double)>;

static double sum_over(Fn f, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += f(0.1 * i);
  return s;
}

double objective(const double *p, int n) {
  double scale = p[0] * p[0], bias = p[0] * p[1];
  const double *shift = p + 1;
  Fn f = [scale, bias, &shift](double t) { return scale * t * t + shift[0] * t + bias; };
  Fn g = f;  // the manager's clone
  return sum_over(g, n) + sum_over(f, n / 2);
}

int main() {
  double p[2] = {1.3, -0.4}, dp[2] = {0, 0};
  const int n = 7;
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp, enzyme_const, n);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)objective, enzyme_dup, p, t, enzyme_const, n), dp[i], 1e-10);
    double q[2] = {1.3, -0.4};
    check("central", CENTRAL(objective(q, n), q[i], p[i]), dp[i], 1e-6);
  }
  return finish();
}

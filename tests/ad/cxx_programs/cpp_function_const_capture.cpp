#include "check.h"
#include <functional>
/* A lambda capturing `const double` locals by copy, which clang folds into the call operator (it never reads
   those captures), next to an active double and an int, kept in a std::function (32-byte closure on the heap)
   and the std::function copied (the manager's clone memcpy at -O0).  The folded captures' bytes are typed by
   the closure's record type (%class.anon), the int's padding left out.  Analytic oracle:
   f(t) = rate on [t_on, t_off), 0 elsewhere, summed over a grid, times the gain. */
using Fn = std::function<double(double)>;

static double total(const Fn &f, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i) s += f(0.5 * i);
  return s;
}

double dose(const double *p, int n) {
  const double t_on = 2.0, t_off = 5.0;
  double rate = p[0] * p[1];
  int skip = 3;
  auto infusion = [=](double t) { return (t >= t_on && t < t_off && skip != 7) ? rate * t : 0.0; };
  Fn f = infusion;  // copies the lvalue closure
  Fn g = f;         // the manager's clone
  return total(g, n) + 0.5 * total(f, n);
}

int main() {
  double p[2] = {1.3, 0.7}, dp[2] = {0, 0};
  const int n = 14;
  double grid = 0;  /* sum of t over t = 0.5 i in [2, 5) */
  for (int i = 0; i < n; ++i) grid += (0.5 * i >= 2.0 && 0.5 * i < 5.0) ? 0.5 * i : 0.0;
  __enzyme_autodiff((void *)dose, enzyme_dup, p, dp, enzyme_const, n);
  check("analytic d/dp0", dp[0], 1.5 * p[1] * grid, 1e-12);
  check("analytic d/dp1", dp[1], 1.5 * p[0] * grid, 1e-12);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)dose, enzyme_dup, p, t, enzyme_const, n), dp[i], 1e-10);
    double q[2] = {1.3, 0.7};
    check("central", CENTRAL(dose(q, n), q[i], p[i]), dp[i], 1e-6);
  }
  return finish();
}

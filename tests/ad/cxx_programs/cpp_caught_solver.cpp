#include "check.h"
#include <stdexcept>
/* A Newton solver that gives up by throwing, called in a loop with a fallback in the catch handler: the
   derivative follows the path each element took.  The solver's augmented sweep has pushed its iterations on
   the tape before it throws; the handler's copy drops them.  Elements 2 and 4 do not converge in the allowed
   iterations (they are caught); the others do. */
struct Solver {
  double tol;
  int maxit;
};

__attribute__((noinline)) double newton_sqrt(double a, const Solver &s) {
  double x = a > 1 ? a : 1.0;
  for (int i = 0; i < s.maxit; ++i) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) < s.tol * nx) return nx;
    x = nx;
  }
  throw std::runtime_error("no convergence");
}

double weighted_roots(const double *v, const double *w, int n) {
  Solver s{1e-13, 7};
  double total = 0;
  for (int i = 0; i < n; ++i) {
    double r;
    try {
      r = newton_sqrt(v[i], s);
    } catch (const std::runtime_error &) {
      r = log1p(v[i]) * w[i];  // fallback
    }
    total += r * v[i] * w[i];
  }
  return total;
}

int main() {
  const int n = 5;
  double v[n] = {0.3, 2.0, 120.0, 1.7, 150.0}, w[n] = {1.5, 0.5, 2.0, 1.25, 0.75};
  double dv[n] = {0}, dw[n] = {0};
  __enzyme_autodiff((void *)weighted_roots, enzyme_dup, v, dv, enzyme_dup, w, dw, enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double caught = v[i] > 100;  // as the solver decides for these values
    double x = v[i], y = w[i];
    double ev = caught ? (log1p(x) + x / (1 + x)) * y * y : 1.5 * sqrt(x) * y;
    double ew = caught ? 2 * log1p(x) * x * y : sqrt(x) * x;
    check("analytic v", dv[i], ev, 1e-10);
    check("analytic w", dw[i], ew, 1e-10);
    double tv[n] = {0}, tw[n] = {0};
    tv[i] = 1;
    check("forward v", __enzyme_fwddiff((void *)weighted_roots, enzyme_dup, v, tv, enzyme_dup, w, tw,
                                        enzyme_const, n), dv[i], 1e-10);
    double q[n];
    for (int j = 0; j < n; ++j) q[j] = w[j];
    check("central w", CENTRAL(weighted_roots(v, q, n), q[i], w[i]), dw[i], 1e-6);
  }
  return finish();
}

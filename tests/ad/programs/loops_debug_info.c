/* Loops differentiated in a build with debug information (tests/ad/test_programs.py also builds this
   program with -g): the derivatives copy the loops' metadata, which must not keep pointing at the
   original functions' source locations once LLVM inlines the derivatives into their callers. */
#include "check.h"

/* Truncated series of -log(1 - x): sum_{k=1..n} x^k / k; its derivative is (1 - x^n) / (1 - x). */
static double log_series(double x, int n) {
  double s = 0, p = 1;
  for (int k = 1; k <= n; k++) {
    p *= x;
    s += p / k;
  }
  return s;
}

static double log_series40(double x) { return log_series(x, 40); }

/* Quadratic form a^T W a with W[i][j] = 1 / (1 + |i - j|): its gradient is 2 W a. */
static double smoothness(const double *a, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      e += a[i] * a[j] / (1.0 + abs(i - j));
  return e;
}

int main(void) {
  double x = 0.3;
  CHECK_SCALAR("log series", log_series40, x, (1 - pow(x, 40)) / (1 - x));

  enum { N = 6 };
  double a[N], grad[N] = {0}, dir[N], tangent;
  for (int i = 0; i < N; i++) {
    a[i] = 0.5 + 0.25 * i;
    dir[i] = 1.0 / (i + 1);
  }
  __enzyme_autodiff((void *)smoothness, enzyme_dup, a, grad, enzyme_const, N);
  tangent = __enzyme_fwddiff((void *)smoothness, enzyme_dup, a, dir, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double expected = 0;
    for (int j = 0; j < N; j++) expected += 2 * a[j] / (1.0 + abs(i - j));
    char what[32];
    snprintf(what, sizeof what, "smoothness grad[%d]", i);
    check(what, grad[i], expected, 1e-12);
  }
  check("smoothness forward = grad . dir", tangent, dot(grad, dir, N), 1e-12);
  return finish();
}

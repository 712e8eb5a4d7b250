/* Variadic functions inside differentiated code (issue 11): the `...` arguments are read with va_arg.
   - horner: double coefficients, some active;
   - weighted: int weights and double values interleaved, two passes over the same list through va_copy;
   - sum_arrays: active arrays passed as `const double *` through `...` (the shadow pointer must follow);
   - logmsg: the usual logging helper handing its list to vfprintf, called with active values (inactive);
   - poly_ext: a variadic function visible outside the module, also called through a pointer (it keeps a
     va_start wrapper; the direct call is rewritten).
   Checked against the analytic gradient and central differences, reverse and forward. */
#include "check.h"
#include <stdarg.h>

static double horner(double x, int n, ...) {
  va_list ap;
  va_start(ap, n);
  double c[8];
  for (int i = 0; i < n && i < 8; i++) c[i] = va_arg(ap, double);
  va_end(ap);
  double v = 0.0;
  for (int i = n - 1; i >= 0; i--) v = v * x + c[i];
  return v;
}

static double weighted(int n, ...) {
  va_list ap, again;
  va_start(ap, n);
  va_copy(again, ap);
  int total = 0;
  for (int i = 0; i < n; i++) {
    total += va_arg(ap, int);
    (void)va_arg(ap, double);
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int w = va_arg(again, int);
    s += w * va_arg(again, double);
  }
  va_end(again);
  va_end(ap);
  return s / total;
}

static double sum_arrays(int n, ...) {
  va_list ap;
  va_start(ap, n);
  double s = 0.0;
  for (int k = 0; k < n; k++) {
    const double *a = va_arg(ap, const double *);
    long len = va_arg(ap, long);
    for (long i = 0; i < len; i++) s += a[i];
  }
  va_end(ap);
  return s;
}

static int verbose = 0;
static void logmsg(const char *fmt, ...) {
  if (!verbose) return;
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
}

double poly_ext(double x, int n, ...) {
  va_list ap;
  va_start(ap, n);
  double v = 0.0, xk = 1.0;
  for (int i = 0; i < n; i++) {
    v += va_arg(ap, double) * xk;
    xk *= x;
  }
  va_end(ap);
  return v;
}
double (*volatile poly_ext_ptr)(double, int, ...) = poly_ext;

double objective(const double *p) {
  double a = p[0], b = p[1], c = p[2];
  double h = horner(a, 3, 1.0, b, c);
  double w = weighted(2, 3, a * b, 1, c);
  double s = sum_arrays(2, p, 2L, p + 2, 1L);
  logmsg("h=%g w=%g s=%g n=%d\n", h, w, s, 2);
  double e = poly_ext(b, 2, a, c);
  return h * w + s * s + e;
}

int main(void) {
  double p[3] = {0.7, -1.3, 2.1}, dp[3] = {0, 0, 0};
  double a = p[0], b = p[1], c = p[2];
  double h = 1 + b * a + c * a * a, w = (3 * a * b + c) / 4, s = a + b + c;
  double dh[3] = {b + 2 * c * a, a, a * a}, dw[3] = {0.75 * b, 0.75 * a, 0.25}, de[3] = {1, c, b};
  double expected[3];
  for (int q = 0; q < 3; q++) expected[q] = dh[q] * w + h * dw[q] + 2 * s + de[q];
  check("value", objective(p), h * w + s * s + (a + c * b), 1e-13);
  check("through the pointer", poly_ext_ptr(b, 2, a, c), a + c * b, 1e-13);
  verbose = 1;
  __enzyme_autodiff((void *)objective, enzyme_dup, p, dp);
  verbose = 0;
  for (int q = 0; q < 3; q++) {
    char name[32];
    snprintf(name, sizeof name, "reverse d/dp%d", q);
    check(name, dp[q], expected[q], 1e-12);
    double t[3] = {0, 0, 0};
    t[q] = 1.0;
    snprintf(name, sizeof name, "forward d/dp%d", q);
    check(name, __enzyme_fwddiff((void *)objective, enzyme_dup, p, t), expected[q], 1e-12);
    snprintf(name, sizeof name, "central d/dp%d", q);
    check(name, CENTRAL(objective(p), p[q], p[q]), expected[q], 1e-6);
  }
  return finish();
}

#include "check.h"
/* Counted loops: up, down, strided, with the bound in a struct-free int argument, and a loop-carried product. */
double up(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += sin(x[i]) * (i + 1); return s; }
double down(const double *x, int n) { double s = 1; for (int i = n - 1; i >= 0; i--) s = s * x[i] + 1.0; return s; }
double strided(const double *x, int n) { double s = 0; for (int i = 1; i < n; i += 2) s += x[i] * x[i - 1]; return s; }
double product(const double *x, int n) { double p = 1; for (unsigned i = 0; i < (unsigned)n; i++) p *= x[i]; return p; }

int main(void) {
  enum { N = 6 };
  double x[N] = {0.3, -0.7, 1.1, 0.5, 2.0, -1.3};
  double d_up[N] = {0}, d_down[N] = {0}, d_str[N] = {0}, d_prod[N] = {0};
  __enzyme_autodiff((void *)up, enzyme_dup, x, d_up, enzyme_const, N);
  __enzyme_autodiff((void *)down, enzyme_dup, x, d_down, enzyme_const, N);
  __enzyme_autodiff((void *)strided, enzyme_dup, x, d_str, enzyme_const, N);
  __enzyme_autodiff((void *)product, enzyme_dup, x, d_prod, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    check("up analytic", d_up[i], cos(x[i]) * (i + 1), 1e-12);
    check("down central", d_down[i], CENTRAL(down(x, N), x[i], x[i]), 1e-6);
    double ds = (i % 2 == 1) ? x[i - 1] : (i + 1 < N ? x[i + 1] : 0);
    check("strided analytic", d_str[i], ds, 1e-12);
    double p = 1;
    for (int j = 0; j < N; j++) if (j != i) p *= x[j];
    check("product analytic", d_prod[i], p, 1e-12);
  }
  /* forward mode: directional derivative equals <gradient, direction> */
  double xd[N] = {1, -0.5, 0.25, 2, 0, 1.5};
  check("up forward", __enzyme_fwddiff((void *)up, enzyme_dup, x, xd, enzyme_const, N), dot(d_up, xd, N), 1e-12);
  check("down forward", __enzyme_fwddiff((void *)down, enzyme_dup, x, xd, enzyme_const, N), dot(d_down, xd, N), 1e-12);
  check("strided forward", __enzyme_fwddiff((void *)strided, enzyme_dup, x, xd, enzyme_const, N), dot(d_str, xd, N), 1e-12);
  check("product forward", __enzyme_fwddiff((void *)product, enzyme_dup, x, xd, enzyme_const, N), dot(d_prod, xd, N), 1e-12);
  return finish();
}

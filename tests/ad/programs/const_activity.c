#include "check.h"
/* Mixed activities on one function: each argument in turn const or active, pointers const or dup, the same
   function differentiated under several activity patterns in one program (separate derivatives). */
double f(double a, const double *v, double b, int n, double *scratch) {
  double s = 0;
  for (int i = 0; i < n; i++) { scratch[i] = a * v[i] + b; s += scratch[i] * scratch[i]; }
  return s;
}

int main(void) {
  enum { N = 3 };
  double a = 0.7, b = -0.2, v[N] = {1.0, -0.5, 2.0}, sc[N], dsc[N] = {0}, dv[N] = {0};
  double r[N];
  for (int i = 0; i < N; i++) r[i] = a * v[i] + b;
  double ga = 0, gb = 0;
  for (int i = 0; i < N; i++) { ga += 2 * r[i] * v[i]; gb += 2 * r[i]; }
  check("a active, rest const", __enzyme_autodiff((void *)f, a, enzyme_const, v, enzyme_const, b, enzyme_const, N, enzyme_dup, sc, dsc), ga, 1e-12);
  check("b active", __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_const, v, b, enzyme_const, N, enzyme_dup, sc, dsc), gb, 1e-12);
  __enzyme_autodiff((void *)f, enzyme_const, a, enzyme_dup, v, dv, enzyme_const, b, enzyme_const, N, enzyme_dup, sc, dsc);
  for (int i = 0; i < N; i++) check("v dup", dv[i], 2 * r[i] * a, 1e-12);
  check("forward a only", __enzyme_fwddiff((void *)f, a, 1.0, enzyme_const, v, enzyme_const, b, enzyme_const, N, enzyme_dup, sc, dsc), ga, 1e-12);
  double vd[N] = {1, 1, 1};
  check("forward v and b", __enzyme_fwddiff((void *)f, enzyme_const, a, enzyme_dup, v, vd, b, 2.0, enzyme_const, N, enzyme_dup, sc, dsc),
        dot(dv, vd, N) + 2.0 * gb, 1e-12);
  double w;
  check("central a", CENTRAL(f(w, v, b, N, sc), w, a), ga, 1e-6);
  return finish();
}

#include "check.h"
/* Calls between functions (not inlined at -O0), recursion and double recursion. */
__attribute__((noinline)) double poly(double x, const double *c, int n) { double s = 0; for (int i = n - 1; i >= 0; i--) s = s * x + c[i]; return s; }
__attribute__((noinline)) void scale(double *v, double k, int n) { for (int i = 0; i < n; i++) v[i] *= k; }
double outer(double *v, double x, int n) { scale(v, x, n); double c[3] = {1.0, v[0], v[1]}; return poly(x, c, 3) + v[2]; }
double rec(double x, int n) { if (n == 0) return x; return sin(rec(x, n - 1)) * x; }
double fibd(double x, int n) { if (n < 2) return x; return fibd(x, n - 1) * 0.5 + fibd(x, n - 2) * x; }

int main(void) {
  double v0[3] = {0.5, -1.5, 2.0}, v[3], dv[3] = {0}, w;
  for (int i = 0; i < 3; i++) v[i] = v0[i];
  double dxo = __enzyme_autodiff((void *)outer, enzyme_dup, v, dv, 0.8, enzyme_const, 3);
  double vv[3];
  #define OUTER_AT(xx) ({ for (int _i = 0; _i < 3; _i++) vv[_i] = v0[_i]; outer(vv, xx, 3); })
  check("calls d/dx", dxo, CENTRAL(OUTER_AT(w), w, 0.8), 1e-6);
  for (int k = 0; k < 3; k++) {
    double base = v0[k];
    #define OUTER_V(val) ({ for (int _i = 0; _i < 3; _i++) vv[_i] = v0[_i]; vv[k] = (val); outer(vv, 0.8, 3); })
    check("calls d/dv", dv[k], CENTRAL(OUTER_V(w), w, base), 1e-6);
  }
  double dr = __enzyme_autodiff((void *)rec, 0.6, enzyme_const, 5);
  check("recursion reverse", dr, CENTRAL(rec(w, 5), w, 0.6), 1e-6);
  check("recursion forward", __enzyme_fwddiff((void *)rec, 0.6, 1.0, enzyme_const, 5), dr, 1e-12);
  double df = __enzyme_autodiff((void *)fibd, 0.9, enzyme_const, 8);
  check("double recursion reverse", df, CENTRAL(fibd(w, 8), w, 0.9), 1e-6);
  check("double recursion forward", __enzyme_fwddiff((void *)fibd, 0.9, 1.0, enzyme_const, 8), df, 1e-12);
  return finish();
}

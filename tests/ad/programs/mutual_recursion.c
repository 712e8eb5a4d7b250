#include "check.h"
/* Mutual recursion (even/odd chains) and exponentiation by squaring (recursion depth depends on an int). */
double odd_step(double x, int n);
double even_step(double x, int n) { return n == 0 ? x : odd_step(sin(x) + x * 0.5, n - 1); }
double odd_step(double x, int n) { return n == 0 ? x * x : even_step(x * x * 0.3 + 1.0, n - 1); }
double ipow(double x, int n) {
  if (n == 0) return 1.0;
  double h = ipow(x, n / 2);
  return n % 2 ? h * h * x : h * h;
}

int main(void) {
  double x = 0.6, v;
  for (int n = 0; n < 6; n++) {
    double r = __enzyme_autodiff((void *)even_step, x, enzyme_const, n);
    check("mutual recursion central", r, CENTRAL(even_step(v, n), v, x), 1e-6);
    check("mutual recursion forward", __enzyme_fwddiff((void *)even_step, x, 1.0, enzyme_const, n), r, 1e-12);
  }
  int ns[4] = {1, 5, 8, 13};
  for (int k = 0; k < 4; k++) {
    int n = ns[k];
    check("power by squaring", __enzyme_autodiff((void *)ipow, 1.1, enzyme_const, n), n * pow(1.1, n - 1), 1e-12);
    check("power by squaring forward", __enzyme_fwddiff((void *)ipow, 1.1, 1.0, enzyme_const, n), n * pow(1.1, n - 1), 1e-12);
  }
  return finish();
}

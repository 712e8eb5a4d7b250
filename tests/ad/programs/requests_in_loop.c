#include "check.h"
/* One __enzyme_autodiff call per active argument, chosen by `if (k == ...)` inside a loop over k, as drivers
   that differentiate with respect to each parameter in turn are written.  Optimized, the loop passes hoist the
   load of enzyme_const out of the loop and the calls see it through an LCSSA phi (was: "argument 1 of @model
   has type double but i32 was passed"). */
double model(double a, double b, double c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(a * i + b) * exp(-c * i);
  return s;
}

int main(void) {
  double a = 0.7, b = 0.2, c = 0.3, d[3];
  for (int k = 0; k < 3; k++) {
    if (k == 0) d[0] = __enzyme_autodiff((void *)model, a, enzyme_const, b, enzyme_const, c, enzyme_const, 12);
    if (k == 1) d[1] = __enzyme_autodiff((void *)model, enzyme_const, a, b, enzyme_const, c, enzyme_const, 12);
    if (k == 2) d[2] = __enzyme_autodiff((void *)model, enzyme_const, a, enzyme_const, b, c, enzyme_const, 12);
  }
  check("d/da central", d[0], CENTRAL(model(a, b, c, 12), a, a), 1e-6);
  check("d/db central", d[1], CENTRAL(model(a, b, c, 12), b, b), 1e-6);
  check("d/dc central", d[2], CENTRAL(model(a, b, c, 12), c, c), 1e-6);
  return finish();
}

#include "check.h"
#include <complex.h>
/* C99 complex arithmetic: without -ffast-math, z * w and z / w call compiler-rt's __muldc3/__divdc3
   (__mulsc3/__divsc3 returning <2 x float> for float complex). */
typedef struct { double da, db; } Pair;

double f(double a, double b) {
  double complex z = a + b * I;
  double complex w = z * z * z;
  return creal(w) + cimag(w / (1.0 + z)) + cabs(z);
}

double g(double a, double b) {  /* single precision, widened at the end */
  float complex z = (float)a + (float)b * I;
  float complex w = z * (2.0f - z) / (3.0f + z * z);
  return crealf(w) - 2 * cimagf(w);
}

int main(void) {
  double a = 0.7, b = -0.4, x, v;
  Pair (*rev)(void *, double, double) = (Pair (*)(void *, double, double))__enzyme_autodiff;
  Pair d = rev((void *)f, a, b);
  check("df/da", d.da, CENTRAL(f(x, b), x, a), 1e-6);
  check("df/db", d.db, CENTRAL(f(a, x), x, b), 1e-6);
  /* Holomorphic part by hand: d/da Re(z^3) = Re(3 z^2) */
  double complex z = a + b * I;
  check("d Re(z^3)/da analytic", creal(3 * z * z), CENTRAL(creal((x + b * I) * (x + b * I) * (x + b * I)), x, a), 1e-6);
  check("forward along a", __enzyme_fwddiff((void *)f, a, 1.0, b, 0.0), d.da, 1e-10);
  check("forward along b", __enzyme_fwddiff((void *)f, a, 0.0, b, 1.0), d.db, 1e-10);
  Pair e = rev((void *)g, a, b);
  check("forward g along a", __enzyme_fwddiff((void *)g, a, 1.0, b, 0.0), e.da, 1e-5);
  check("dg/da", e.da, CENTRAL_H(g(v, b), v, a, 1e-3), 2e-3);
  check("dg/db", e.db, CENTRAL_H(g(a, v), v, b, 1e-3), 2e-3);
  return finish();
}

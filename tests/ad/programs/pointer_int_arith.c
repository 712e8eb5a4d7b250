#include "check.h"
#include <stdint.h>
/* Addresses computed as integers ((uintptr_t)p + k, masks): the pointer made back from the integer points into
   the same object, and its shadow is found at the same byte offset of the shadow. */
double f(double *x, int n) {
  double *q = (double *)((uintptr_t)x + sizeof(double));            /* &x[1] */
  double *last = (double *)((uintptr_t)(x + n) - sizeof(double));  /* &x[n-1] */
  uintptr_t base = (uintptr_t)x & ~(uintptr_t)7;                    /* x is 8-aligned: the same address */
  double *b = (double *)base;
  return q[0] * q[0] + 3 * last[0] + b[0] * x[0];
}

int main(void) {
  double x[4] = {1.5, -2.0, 0.5, 3.0}, dx[4] = {0, 0, 0, 0};
  double expected[4] = {2 * x[0], 2 * x[1], 0, 3};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 4; i++) {
    check("reverse", dx[i], expected[i], 1e-12);
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, 4), expected[i], 1e-12);
    double y[4] = {1.5, -2.0, 0.5, 3.0};
    check("central", CENTRAL(f(y, 4), y[i], x[i]), expected[i], 1e-6);
  }
  return finish();
}

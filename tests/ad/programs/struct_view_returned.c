#include "check.h"
/* A struct holding a float and a pointer into the input, returned by value from a helper (in registers as
   { double, ptr }): the pointer keeps its shadow through the return in both modes. */
struct view { double w; const double *p; };
__attribute__((noinline)) static struct view pick(const double *x) { struct view v = {3.0 * x[0], x + 1}; return v; }
double f(const double *x) { struct view v = pick(x); return v.w * v.p[0]; }

int main(void) {
  double x[2] = {1.25, -0.5}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  check("view d0 reverse", dx[0], 3.0 * x[1], 1e-13);
  check("view d1 reverse", dx[1], 3.0 * x[0], 1e-13);
  double t0[2] = {1, 0}, t1[2] = {0, 1};
  check("view d0 forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t0), 3.0 * x[1], 1e-13);
  check("view d1 forward", __enzyme_fwddiff((void *)f, enzyme_dup, x, t1), 3.0 * x[0], 1e-13);
  double v;
  check("view d0 central", CENTRAL(f(x), x[0], v = x[0]), 3.0 * x[1], 1e-6);
  return finish();
}

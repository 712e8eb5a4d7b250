#include "check.h"
/* Calls returning a struct by value or a pointer into active memory (non-inlined at every level),
   and a 3-double gradient returned through the ABI's hidden struct pointer. */
typedef struct { double re, im; } Cplx;
typedef struct { double a, b, c; } T3;
T3 __enzyme_autodiff_t3(void *, ...);
__attribute__((noinline)) Cplx twice(Cplx a) { Cplx r = {2 * a.re * a.im, 3 * a.im}; return r; }
double through_struct(double x) { Cplx z = {x, x * x}; Cplx r = twice(z); return r.re + r.im; }
__attribute__((noinline)) double *at(double *p, int i) { return p + i; }
double load_via(double *x) { return *at(x, 1) * x[0]; }
double store_via(double *x) { *at(x, 1) = x[0] * x[0]; return *at(x, 1) * 2; }
double three(double a, double b, double c) { return a * b + sin(c) * a; }

int main(void) {
  double v;
  /* through_struct(x) = 2 x^3 + 3 x^2 */
  double d = __enzyme_autodiff((void *)through_struct, 0.5);
  check("struct-returning call reverse", d, 6 * 0.25 + 6 * 0.5, 1e-12);
  check("struct-returning call forward", __enzyme_fwddiff((void *)through_struct, 0.5, 1.0), d, 1e-12);
  check("struct-returning call fd", d, CENTRAL(through_struct(v), v, 0.5), 1e-6);
  double x[2] = {1.5, 2.0}, dx[2] = {0};
  __enzyme_autodiff((void *)load_via, enzyme_dup, x, dx);
  check("pointer-returning call, load d0", dx[0], 2.0, 1e-12);
  check("pointer-returning call, load d1", dx[1], 1.5, 1e-12);
  double y[2] = {1.5, 2.0}, dy[2] = {0};
  __enzyme_autodiff((void *)store_via, enzyme_dup, y, dy);
  check("pointer-returning call, store d0", dy[0], 4 * 1.5, 1e-12);
  check("pointer-returning call, store d1 (overwritten)", dy[1], 0.0, 1e-12);
  T3 g = __enzyme_autodiff_t3((void *)three, 1.0, 0.75, 0.3);
  check("sret gradient a", g.a, 0.75 + sin(0.3), 1e-12);
  check("sret gradient b", g.b, 1.0, 1e-12);
  check("sret gradient c", g.c, cos(0.3), 1e-12);
  return finish();
}

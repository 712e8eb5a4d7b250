#include "check.h"
/* Small structs passed by value (split into scalar registers); results come back through pointers.
   (Reverse mode through a helper *returning* a {double, double} struct gives zero today: forward only below.) */
typedef struct { double re, im; } Cplx;
typedef struct { double re, im; } Grad2;
Grad2 __enzyme_autodiff_g2(void *, ...);
__attribute__((noinline)) void cmul(Cplx a, Cplx b, Cplx *r) { r->re = a.re * b.re - a.im * b.im; r->im = a.re * b.im + a.im * b.re; }
__attribute__((noinline)) Cplx cmul_ret(Cplx a, Cplx b) { Cplx r = {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; return r; }
double f_ret(double x, double y) { Cplx z = {x, y}; Cplx w = cmul_ret(z, z); return w.re * w.im; }
__attribute__((noinline)) double cabs2(Cplx a) { return a.re * a.re + a.im * a.im; }
/* |z^3 + c|^2 with z = x + iy */
double f(double x, double y) {
  Cplx z = {x, y}, c = {0.3, -0.1};
  Cplx z2, z3;
  cmul(z, z, &z2);
  cmul(z2, z, &z3);
  z3.re += c.re; z3.im += c.im;
  return cabs2(z3);
}

int main(void) {
  double x = 0.6, y = 0.8, v;
  Grad2 g = __enzyme_autodiff_g2((void *)f, enzyme_out, x, enzyme_out, y);
  /* z^3 = (x^3 - 3xy^2) + i(3x^2y - y^3); f = u^2 + w^2 */
  double u = x * x * x - 3 * x * y * y + 0.3, w = 3 * x * x * y - y * y * y - 0.1;
  double fx = 2 * u * (3 * x * x - 3 * y * y) + 2 * w * (6 * x * y), fy = 2 * u * (-6 * x * y) + 2 * w * (3 * x * x - 3 * y * y);
  check("d/dx", g.re, fx, 1e-12);
  check("d/dy", g.im, fy, 1e-12);
  check("d/dx central", CENTRAL(f(v, y), v, x), fx, 1e-6);
  check("forward", __enzyme_fwddiff((void *)f, x, 0.5, y, -1.0), 0.5 * fx - fy, 1e-12);
  /* z^2 = (x^2 - y^2) + i 2xy; f_ret = 2xy (x^2 - y^2) = 2x^3 y - 2 x y^3 */
  check("struct return forward", __enzyme_fwddiff((void *)f_ret, x, 1.0, y, 0.0), 6 * x * x * y - 2 * y * y * y, 1e-12);
  return finish();
}

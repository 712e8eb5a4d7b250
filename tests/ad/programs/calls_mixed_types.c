#include "check.h"
/* noinline callees with mixed signatures: float return with float and double arguments, int arguments, outputs
   through pointers to the caller's stack, and a result that is ignored while the memory effect matters. */
__attribute__((noinline)) float fh(float a, double b) { return a * (float)b; }
double f(double x) { return fh((float)x, x) * 2.0; }
__attribute__((noinline)) double with_int(int k, double x) { return x * k; }
double g(double x) { double s = 0; for (int k = 0; k < 3; k++) s += with_int(k, x * x); return s; }
__attribute__((noinline)) void two_out(double x, double *a, double *b) { *a = sin(x); *b = cos(x); }
double h(double x) { double a, b; two_out(x, &a, &b); return a * b; }
__attribute__((noinline)) double unused_result(double *p) { p[0] *= 2; return p[0]; }
double u(double *p) { unused_result(p); return p[0] * p[0]; }
int main(void) {
  double v;
  check("float helper", __enzyme_autodiff((void *)f, 1.25), 4 * 1.25, 1e-6);
  check("float helper fwd", __enzyme_fwddiff((void *)f, 1.25, 1.0), 4 * 1.25, 1e-6);
  CHECK_SCALAR("int arg helper", g, 0.7, 6 * 0.7);
  CHECK_SCALAR("outputs through stack pointers", h, 0.7, cos(1.4));
  double p[1] = {1.5}, dp[1] = {0};
  __enzyme_autodiff((void *)u, enzyme_dup, p, dp);
  check("unused result, memory effect", dp[0], 8 * 1.5, 1e-12);
  double q[1] = {1.5}, qd[1] = {1.0};
  check("unused result forward", __enzyme_fwddiff((void *)u, enzyme_dup, q, qd), 8 * 1.5, 1e-12);
  check("unused result central", CENTRAL(({ double _t[1] = {v}; u(_t); }), v, 1.5), 8 * 1.5, 1e-6);
  return finish();
}

#include "check.h"
#include <stdint.h>
#include <string.h>
/* Custom forward derivatives (__enzyme_register_derivative_*) and inactive functions (__enzyme_inactivefn_*):
   a bit-trick reciprocal square root the engine cannot differentiate itself, a routine writing through a
   pointer, a libm function whose built-in rule is overridden, and a function marked inactive. */
__attribute__((noinline)) double fast_rsqrt(double x) {
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  bits = 0x5fe6eb50c7b537a9ULL - (bits >> 1);   /* integer code on the bits of x: no derivative to follow */
  double y;
  memcpy(&y, &bits, sizeof y);
  for (int i = 0; i < 5; i++) y = y * (1.5 - 0.5 * x * y * y);  /* Newton: full precision */
  return y;
}
static double fast_rsqrt_fwd(double x, double dx) { return -0.5 * dx / (x * sqrt(x)); }
void *__enzyme_register_derivative_rsqrt[2] = {(void *)fast_rsqrt, (void *)fast_rsqrt_fwd};

/* dst[0..1] = (src0*src1, src0 + sin(src1)) */
__attribute__((noinline)) void pair_op(const double *src, double *dst) {
  dst[0] = src[0] * src[1];
  dst[1] = src[0] + sin(src[1]);
}
static void pair_op_fwd(const double *src, const double *dsrc, double *dst, double *ddst) {
  (void)dst;
  ddst[0] = dsrc[0] * src[1] + src[0] * dsrc[1];
  ddst[1] = dsrc[0] + cos(src[1]) * dsrc[1];
}
void *__enzyme_register_derivative_pair_op[] = {(void *)pair_op, (void *)pair_op_fwd};

/* cbrt has a built-in rule; a registered one takes precedence (this one is also correct). */
static double cbrt_fwd(double x, double dx) { double c = cbrt(x); return dx / (3 * c * c); }
void *__enzyme_register_derivative_cbrt[2] = {(void *)cbrt, (void *)cbrt_fwd};

/* Marked inactive: its result counts as a constant. */
__attribute__((noinline)) double calibration(double x) { return 0.25 * x * x; }
void *__enzyme_inactivefn_calibration = (void *)calibration;

double f(double x) { return fast_rsqrt(x) * x + cbrt(x); }
double g(double x, double y) {
  double s[2] = {x, y}, d[2];
  pair_op(s, d);
  return d[0] * d[1];
}
double h(double x) { return x * calibration(x); }

int main(void) {
  double x = 1.7, y = 0.4, v;
  double df = 0.5 / sqrt(x) + 1 / (3 * cbrt(x) * cbrt(x));
  check("rsqrt primal", fast_rsqrt(x), 1 / sqrt(x), 1e-14);
  check("rsqrt request", __enzyme_fwddiff((void *)fast_rsqrt, x, 1.0), -0.5 / (x * sqrt(x)), 1e-13);
  check("f forward", __enzyme_fwddiff((void *)f, x, 1.0), df, 1e-13);
  check("f central", CENTRAL(f(v), v, x), df, 1e-6);
  double p0 = x * y, p1 = x + sin(y);
  double gx = y * p1 + p0, gy = x * p1 + p0 * cos(y);
  check("g dx forward", __enzyme_fwddiff((void *)g, x, 1.0, y, 0.0), gx, 1e-13);
  check("g dy forward", __enzyme_fwddiff((void *)g, x, 0.0, y, 1.0), gy, 1e-13);
  check("g dx central", CENTRAL(g(v, y), v, x), gx, 1e-6);
  check("g dy central", CENTRAL(g(x, v), v, y), gy, 1e-6);
  double src[2] = {x, y}, dsrc[2] = {0.5, -2.0}, dst[2] = {0, 0}, ddst[2] = {0, 0};
  __enzyme_fwddiff((void *)pair_op, src, dsrc, dst, ddst);
  check("pair_op primal", dst[0], p0, 1e-15);
  check("pair_op tangent 0", ddst[0], 0.5 * y - 2.0 * x, 1e-13);
  check("pair_op tangent 1", ddst[1], 0.5 - 2.0 * cos(y), 1e-13);
  check("h inactive call", __enzyme_fwddiff((void *)h, x, 1.0), calibration(x), 1e-13);
  return finish();
}

#include "check.h"
/* Single-precision functions: sinf, cosf, expf, logf, sqrtf, powf, tanhf, fabsf, fmaxf, atan2f, cbrtf, erff.
   Entry points with fixed float prototypes (no promotion); promoted_varargs.c passes floats through "...". */
float __enzyme_autodiff_f(void *, float);
float __enzyme_fwddiff_f(void *, float, float);
float __enzyme_autodiff_fc(void *, float, int, float);
float __enzyme_fwddiff_cf(void *, int, float, float, float);
float f(float x) { return sinf(x) * expf(0.5f * x) + logf(x + 2.0f) + sqrtf(x * x + 1.0f) + powf(x, 1.5f); }
float g(float x) { return tanhf(x) * cosf(x) + fabsf(x - 2.0f) + fmaxf(x, 0.25f) + atan2f(x, 2.0f) + cbrtf(x) + erff(x); }
float h(float x, float y) { return x * y / (x + y) + hypotf(x, y); }

int main(void) {
  float x = 0.8f, y = 1.7f;
  double xd = x, v;
  double df = cos(xd) * exp(0.5 * xd) + 0.5 * sin(xd) * exp(0.5 * xd) + 1 / (xd + 2) + xd / sqrt(xd * xd + 1) + 1.5 * sqrt(xd);
  double t = tanh(xd);
  double dg = (1 - t * t) * cos(xd) - t * sin(xd) - 1.0 + 1.0 + 2.0 / (4 + xd * xd) + 1 / (3 * cbrt(xd) * cbrt(xd))
            + 2 / sqrt(3.14159265358979323846) * exp(-xd * xd);
  check("f reverse", __enzyme_autodiff_f((void *)f, x), df, 1e-5);
  check("f forward", __enzyme_fwddiff_f((void *)f, x, 1.0f), df, 1e-5);
  check("f central", CENTRAL_H(f((float)v), v, xd, 1e-3), df, 1e-3);
  check("g reverse", __enzyme_autodiff_f((void *)g, x), dg, 1e-5);
  check("g forward", __enzyme_fwddiff_f((void *)g, x, 1.0f), dg, 1e-5);
  check("g central", CENTRAL_H(g((float)v), v, xd, 1e-3), dg, 1e-3);
  double yd = y, s = xd + yd, r = sqrt(xd * xd + yd * yd);
  double hx = yd * yd / (s * s) + xd / r, hy = xd * xd / (s * s) + yd / r;
  check("h dx reverse", __enzyme_autodiff_fc((void *)h, x, enzyme_const, y), hx, 1e-5);
  check("h dy forward", __enzyme_fwddiff_cf((void *)h, enzyme_const, x, y, 1.0f), hy, 1e-5);
  check("h dy central", CENTRAL_H(h(x, (float)v), v, yd, 1e-3), hy, 1e-3);
  return finish();
}

#include "check.h"
/* switch statements: fallthrough, dense jump tables, switch inside a loop on data-derived ints, enum cases. */
typedef enum { LINEAR, QUAD, SINE, EXPO, CLAMP } Kind;
double activation(double x, Kind k) {
  switch (k) {
    case LINEAR: return x;
    case QUAD: return x * x;
    case SINE: return sin(x);
    case EXPO: return exp(x) - 1;
    case CLAMP: return x < -1 ? -1 : (x > 1 ? 1 : x);
  }
  return 0;
}
double fallthrough(double x, int k) {
  double r = 0;
  switch (k) {
    case 3: r += x * x * x; /* fallthrough */
    case 2: r += x * x;     /* fallthrough */
    case 1: r += x; break;
    default: r = -x;
  }
  return r;
}
double piecewise_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    switch ((int)floor(x[i])) {   /* the case comes from the data, the derivative from the chosen branch */
      case 0: s += x[i] * x[i]; break;
      case 1: s += 3 * x[i]; break;
      case -1: s += cos(x[i]); break;
      default: s += 0.5 * x[i] * x[i] * x[i];
    }
  }
  return s;
}

int main(void) {
  double x = 0.45, v;
  double expect[5] = {1, 2 * x, cos(x), exp(x), 1};
  for (int k = 0; k < 5; k++) {
    check("activation reverse", __enzyme_autodiff((void *)activation, x, enzyme_const, k), expect[k], 1e-12);
    check("activation forward", __enzyme_fwddiff((void *)activation, x, 1.0, enzyme_const, k), expect[k], 1e-12);
    check("activation central", CENTRAL(activation(v, (Kind)k), v, x), expect[k], 1e-6);
  }
  check("clamped region", __enzyme_autodiff((void *)activation, 1.5, enzyme_const, CLAMP), 0.0, 0.0);
  double ft[5] = {-1, 1, 2 * x + 1, 3 * x * x + 2 * x + 1, -1};
  for (int k = 0; k < 5; k++) {
    check("fallthrough reverse", __enzyme_autodiff((void *)fallthrough, x, enzyme_const, k), ft[k], 1e-12);
    check("fallthrough forward", __enzyme_fwddiff((void *)fallthrough, x, 1.0, enzyme_const, k), ft[k], 1e-12);
  }
  double xs[5] = {0.3, 1.7, -0.4, 2.2, 1.1}, d[5] = {0};
  __enzyme_autodiff((void *)piecewise_loop, enzyme_dup, xs, d, enzyme_const, 5);
  double pe[5] = {0.6, 3.0, -sin(-0.4), 1.5 * 2.2 * 2.2, 3.0};
  for (int i = 0; i < 5; i++) {
    check("switch in loop", d[i], pe[i], 1e-12);
    check("switch in loop central", d[i], CENTRAL(piecewise_loop(xs, 5), xs[i], xs[i]), 1e-6);
  }
  return finish();
}

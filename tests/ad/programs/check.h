/* Shared helpers for the AD test programs: each program exits non-zero on any mismatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#ifdef __cplusplus
}
#endif

static int failures = 0;

static void check(const char *what, double got, double expected, double rtol) {
  double err = fabs(got - expected), scale = fabs(expected) > 1.0 ? fabs(expected) : 1.0;
  if (!(err <= rtol * scale)) {
    printf("MISMATCH %s: got %.15g expected %.15g\n", what, got, expected);
    failures++;
  } else {
    printf("ok %s: %.15g\n", what, got);
  }
}

/* Central difference of a scalar function of one variable. */
#define CENTRAL(fexpr, var, x0) ({ double _x0 = (x0); double _h = 1e-6 * (fabs(_x0) > 1 ? fabs(_x0) : 1.0); \
  double _s = var; var = _x0 + _h; double _p = (fexpr); var = _x0 - _h; double _m = (fexpr); var = _s; \
  (_p - _m) / (2 * _h); })

/* Central difference with a chosen relative step (single precision needs a larger one); divides by
   the step actually taken, since assigning to a float variable rounds it. */
#define CENTRAL_H(fexpr, var, x0, hrel) ({ double _x0 = (x0); double _h = (hrel) * (fabs(_x0) > 1 ? fabs(_x0) : 1.0); \
  __typeof__(var) _s = var; var = _x0 + _h; double _xp = var, _p = (fexpr); var = _x0 - _h; double _xm = var, \
  _m = (fexpr); var = _s; (_p - _m) / (_xp - _xm); })

/* A scalar function of one double: reverse, forward, the analytic value and central differences agree. */
#define CHECK_SCALAR(name, f, x0, expected) do { double _x = (x0), _v = 0, _d = (expected); \
  check(name " reverse", __enzyme_autodiff((void *)f, _x), _d, 1e-11); \
  check(name " forward", __enzyme_fwddiff((void *)f, _x, 1.0), _d, 1e-11); \
  check(name " central", CENTRAL(f(_v), _v, _x), _d, 1e-6); } while (0)

static double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

static int finish(void) {
  printf(failures ? "FAILED %d\n" : "ALL OK\n", failures);
  return failures != 0;
}

/* Shared helpers for the AD test programs: each program exits non-zero on any mismatch. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

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

static int finish(void) {
  printf(failures ? "FAILED %d\n" : "ALL OK\n", failures);
  return failures != 0;
}

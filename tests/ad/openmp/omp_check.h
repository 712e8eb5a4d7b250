/* Shared helpers of the OpenMP test programs: derivatives against central differences of the primal. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

static int failures = 0;

static void check(const char *what, int i, double got, double expected, double rtol) {
  double err = fabs(got - expected), scale = fabs(expected) > 1.0 ? fabs(expected) : 1.0;
  if (!(err <= rtol * scale)) {
    printf("MISMATCH %s[%d]: got %.15g expected %.15g\n", what, i, got, expected);
    failures++;
  }
}

/* The central-difference gradient of a scalar function of n doubles. */
static void central_gradient(double (*f)(double *), double *x, int n, double *g) {
  for (int i = 0; i < n; i++) {
    double x0 = x[i], h = 1e-6 * (fabs(x0) > 1 ? fabs(x0) : 1.0);
    x[i] = x0 + h;
    double p = f(x);
    x[i] = x0 - h;
    double m = f(x);
    x[i] = x0;
    g[i] = (p - m) / (2 * h);
  }
}

static int finish(void) {
  printf(failures ? "FAILED %d (threads %d)\n" : "ALL OK (threads %d)\n", failures ? failures : omp_get_max_threads(),
         omp_get_max_threads());
  return failures != 0;
}

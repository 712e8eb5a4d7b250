/* Gradients whose sweeps need no tape (enzyme.driver.unused_tapes): a libm loop whose augmented sweep only
   computes the discarded primal, one that also counts its calls in a global (an effect the gradient must keep;
   restrict: else the store might overwrite x and x is cached),
   and one that caches values on the tape.  Checked against analytic formulas and finite differences. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

long calls;

double energy(const double *x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += 1.5 * x[i] * x[i] + 0.5 * cos(x[i]);
  return s;
}

double counted(const double *restrict x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += x[i] * x[i] * x[i];
  calls++;
  return s;
}

double softplus(const double *x, long n) {
  double s = 0.0;
  for (long i = 0; i < n; i++) s += log(1.0 + exp(0.7 * x[i] - 0.3));
  return s;
}

static int check(const char *what, double got, double want) {
  if (fabs(got - want) > 1e-6 * (1.0 + fabs(want))) {
    printf("%s: got %.12g, want %.12g\n", what, got, want);
    return 1;
  }
  return 0;
}

static double central(double (*f)(const double *, long), double *x, long n, long i) {
  double h = 1e-6, keep = x[i];
  x[i] = keep + h;
  double up = f(x, n);
  x[i] = keep - h;
  double down = f(x, n);
  x[i] = keep;
  return (up - down) / (2 * h);
}

int main(void) {
  enum { N = 7 };
  double x[N], dx[N];
  int bad = 0;
  for (long i = 0; i < N; i++) x[i] = 0.3 * (double)i - 0.8;

  for (long i = 0; i < N; i++) dx[i] = 0.0;
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, (long)N);
  for (long i = 0; i < N; i++) {
    bad |= check("energy analytic", dx[i], 3.0 * x[i] - 0.5 * sin(x[i]));
    bad |= check("energy fd", dx[i], central(energy, x, N, i));
  }

  for (long i = 0; i < N; i++) dx[i] = 0.0;
  calls = 0;
  __enzyme_autodiff((void *)counted, enzyme_dup, x, dx, enzyme_const, (long)N);
  if (calls != 1) {
    printf("counted: the gradient ran the primal's store %ld times, not once\n", calls);
    bad = 1;
  }
  for (long i = 0; i < N; i++) bad |= check("counted analytic", dx[i], 3.0 * x[i] * x[i]);

  for (long i = 0; i < N; i++) dx[i] = 0.0;
  __enzyme_autodiff((void *)softplus, enzyme_dup, x, dx, enzyme_const, (long)N);
  for (long i = 0; i < N; i++) {
    double e = exp(0.7 * x[i] - 0.3);
    bad |= check("softplus analytic", dx[i], 0.7 * e / (1.0 + e));
    bad |= check("softplus fd", dx[i], central(softplus, x, N, i));
  }
  if (!bad) printf("ALL OK\n");
  return bad;
}

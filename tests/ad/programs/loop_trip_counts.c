#include "check.h"
/* Loops whose trip count the reverse sweep computes from their start and bound instead of taping it:
   counters that wrap around in a narrow type (a do-while from s back to s runs 256 times), counting
   down, triangular nests, bounds read from memory; a loop left early keeps its taped count.  And a
   read-only input the function also writes through another pointer that aliases it. */
double wrapping(double x, unsigned char s, unsigned char e) {
  double y = 0;
  unsigned char i = s;
  do { y += sin(x * (1 + i % 7)); i++; } while (i != e);
  return y;
}
static double wrap_256(double x) { return wrapping(x, 9, 9); }
static double wrap_10(double x) { return wrapping(x, 250, 4); }
static double wrap_exact(unsigned char s, unsigned char e, double x) {
  double d = 0;
  unsigned char i = s;
  do { d += (1 + i % 7) * cos(x * (1 + i % 7)); i++; } while (i != e);
  return d;
}

double down_triangle(double x, long n) {
  double s = 0;
  for (long i = n - 1; i >= 0; i--)
    for (long j = i + 1; j < n; j++) s += sin(x * (double)(i + 1)) * (double)j;
  return s;
}
static double down_5(double x) { return down_triangle(x, 5); }

int bound_in_memory;
double bound_from_memory(double x) {
  double s = 1;
  for (int i = 0; i < bound_in_memory; i++) s = s * x + 0.5;
  return s;
}

double early_exit(double x) {
  double s = 0;
  for (int i = 0; i < 100; i++) {
    s += x * x * i;
    if (s > 20.0) break;
  }
  return s;
}

double aliased_input(double *a, const double *b, int n, double x) {
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x * b[i]) * a[i];
  a[0] = 5.0; /* a and b are the same array: b[0] changes after it was read */
  return s;
}

int main(void) {
  double x = 0.8;
  CHECK_SCALAR("do-while wrapping to its start (256 iterations)", wrap_256, x, wrap_exact(9, 9, x));
  CHECK_SCALAR("do-while wrapping past 255", wrap_10, x, wrap_exact(250, 4, x));
  double e = 0;
  for (long i = 4; i >= 0; i--)
    for (long j = i + 1; j < 5; j++) e += (i + 1) * cos(x * (i + 1)) * j;
  CHECK_SCALAR("counting down, triangular", down_5, x, e);
  bound_in_memory = 6;
  double p = 0, s = 1;
  for (int i = 0; i < 6; i++) { p = p * x + s; s = s * x + 0.5; }
  CHECK_SCALAR("bound read from memory", bound_from_memory, x, p);
  /* 2.25 i: 2.25, 6.75, 13.5, 22.5 > 20 after i = 4: s = x^2 (1 + 2 + 3 + 4) */
  double y = 1.5;
  CHECK_SCALAR("loop left early", early_exit, y, 2 * y * 10);
  double v[4] = {0.3, -1.1, 0.7, 2.0}, v0[4] = {0.3, -1.1, 0.7, 2.0};
  double d = __enzyme_autodiff((void *)aliased_input, enzyme_const, v, enzyme_const, v, enzyme_const, 4, 0.9);
  double expected = 0;
  for (int i = 0; i < 4; i++) expected += v0[i] * cos(0.9 * v0[i]) * v0[i];
  check("input overwritten through an alias", d, expected, 1e-12);
  return finish();
}

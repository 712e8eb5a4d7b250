/* Gradients of array_runtime.f90 in reverse and forward mode against central differences. */
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double chain_energy(const double *x, int n);
double layer_loss(const double *p, int m);
double masked_loss(const double *x, int n);

/* f(x, arg) over `len` inputs: every reverse and forward derivative must match central differences. */
#define CHECK(f, x, len, arg)                                                                   \
  do {                                                                                          \
    double dx[64] = {0};                                                                        \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, arg);                         \
    for (int k = 0; k < (len); k++) {                                                           \
      double h = 1e-6, o = x[k], t[64] = {0};                                                   \
      x[k] = o + h; double up = f(x, arg); x[k] = o - h; double down = f(x, arg); x[k] = o;      \
      double fd = (up - down) / (2 * h);                                                        \
      t[k] = 1;                                                                                 \
      double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t, enzyme_const, arg);             \
      int ok = fabs(fd - dx[k]) <= 1e-6 * (1 + fabs(fd)) && fabs(fd - fw) <= 1e-6 * (1 + fabs(fd)); \
      printf("%s d[%d]: reverse %.12g forward %.12g central %.12g%s\n", #f, k, dx[k], fw, fd,    \
             ok ? "" : "  WRONG");                                                               \
      bad |= !ok;                                                                               \
    }                                                                                           \
  } while (0)

int main(void) {
  int bad = 0;
  double x[6] = {0.3, -1.2, 0.8, 2.0, 0.5, -0.7};
  CHECK(chain_energy, x, 6, 6);
  double p[18];
  for (int k = 0; k < 18; k++) p[k] = 0.1 * (k % 7) - 0.25 + 0.03 * k;
  CHECK(layer_loss, p, 18, 3);
  CHECK(masked_loss, x, 6, 6);
  return bad;
}

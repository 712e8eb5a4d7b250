/* Gradients of names_unpack.f90 in reverse and forward mode against central differences. */
#include <math.h>
#include <stdio.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double names_energy(const double *x, int n);

int main(void) {
  int bad = 0, n = 8;
  double x[8] = {0.3, -1.2, 0.8, 2.0, 0.5, -0.7, 1.1, 0.05}, dx[8] = {0};
  __enzyme_autodiff((void *)names_energy, enzyme_dup, x, dx, enzyme_const, n);
  for (int k = 0; k < n; k++) {
    double h = 1e-6, o = x[k], t[8] = {0};
    x[k] = o + h; double up = names_energy(x, n); x[k] = o - h; double down = names_energy(x, n); x[k] = o;
    double fd = (up - down) / (2 * h);
    t[k] = 1;
    double fw = __enzyme_fwddiff((void *)names_energy, enzyme_dup, x, t, enzyme_const, n);
    int ok = fabs(fd - dx[k]) <= 1e-6 * (1 + fabs(fd)) && fabs(fd - fw) <= 1e-6 * (1 + fabs(fd));
    printf("names_energy d[%d]: reverse %.12g forward %.12g central %.12g%s\n", k, dx[k], fw, fd, ok ? "" : "  WRONG");
    bad |= !ok;
  }
  return bad;
}

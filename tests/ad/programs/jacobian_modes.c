#include "check.h"
/* A vector function R^3 -> R^3: full Jacobian by columns (one forward pass per input) and by rows (one reverse
   pass per output), compared entry by entry and with central differences. */
void F(const double *x, double *y) {
  y[0] = x[0] * x[1] + sin(x[2]);
  y[1] = exp(x[0] - x[2]) * x[1];
  y[2] = x[0] * x[0] * x[0] / (1 + x[1] * x[1]) + hypot(x[1], x[2]);
}

int main(void) {
  enum { N = 3 };
  double x[N] = {0.4, -1.2, 0.9}, y[N], Jf[N][N], Jr[N][N];
  for (int j = 0; j < N; j++) {
    double xd[N] = {0}, yd[N] = {0};
    xd[j] = 1.0;
    __enzyme_fwddiff((void *)F, enzyme_dup, x, xd, enzyme_dup, y, yd);
    for (int i = 0; i < N; i++) Jf[i][j] = yd[i];
  }
  for (int i = 0; i < N; i++) {
    double xb[N] = {0}, yb[N] = {0};
    yb[i] = 1.0;
    __enzyme_autodiff((void *)F, enzyme_dup, x, xb, enzyme_dup, y, yb);
    for (int j = 0; j < N; j++) Jr[i][j] = xb[j];
  }
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      check("forward column = reverse row", Jf[i][j], Jr[i][j], 1e-12);
      double yy[N];
      check("Jacobian central", Jf[i][j], CENTRAL((F(x, yy), yy[i]), x[j], x[j]), 1e-6);
    }
  return finish();
}

#include "check.h"
/* Fixed-size 2-D arrays (double a[R][C]) passed as pointers to rows; row and column sums; determinant of 3x3. */
enum { R = 3, C = 4 };
double row_col(double a[R][C]) {
  double s = 0;
  for (int i = 0; i < R; i++) { double r = 0; for (int j = 0; j < C; j++) r += a[i][j]; s += r * r; }
  for (int j = 0; j < C; j++) { double c = 0; for (int i = 0; i < R; i++) c += a[i][j] * (j + 1); s += c; }
  return s;
}
double det3(double m[3][3]) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
       + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}

int main(void) {
  double a[R][C], da[R][C] = {{0}};
  for (int i = 0; i < R; i++) for (int j = 0; j < C; j++) a[i][j] = 0.1 * i - 0.2 * j + 0.05 * i * j;
  __enzyme_autodiff((void *)row_col, enzyme_dup, a, da);
  for (int i = 0; i < R; i++) {
    double r = 0;
    for (int j = 0; j < C; j++) r += a[i][j];
    for (int j = 0; j < C; j++) check("row/col sums", da[i][j], 2 * r + (j + 1), 1e-12);
  }
  double m[3][3] = {{2, -1, 0.5}, {0.3, 1.5, -2}, {1, 0.25, 3}}, dm[3][3] = {{0}}, md[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  __enzyme_autodiff((void *)det3, enzyme_dup, m, dm);
  /* d det / dm_ij = cofactor C_ij; <grad, I> = trace of the adjugate */
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
      check("det cofactor", dm[i][j], m[i1][j1] * m[i2][j2] - m[i1][j2] * m[i2][j1], 1e-12);
    }
  check("det forward = trace(adj)", __enzyme_fwddiff((void *)det3, enzyme_dup, m, md), dm[0][0] + dm[1][1] + dm[2][2], 1e-12);
  return finish();
}

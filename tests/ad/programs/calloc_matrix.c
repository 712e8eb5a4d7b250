#include "check.h"
/* calloc'd matrices: Gram matrix G = X^T X built with += into zeroed memory, then its Frobenius norm. */
double gram_norm(const double *X, int rows, int cols) {
  double *G = calloc(cols * cols, sizeof(double));
  for (int r = 0; r < rows; r++)
    for (int i = 0; i < cols; i++)
      for (int j = 0; j < cols; j++) G[i * cols + j] += X[r * cols + i] * X[r * cols + j];
  double s = 0;
  for (int k = 0; k < cols * cols; k++) s += G[k] * G[k];
  free(G);
  return s;
}

int main(void) {
  enum { RW = 3, CL = 2 };
  double X[RW * CL] = {1.0, 0.5, -0.3, 2.0, 0.7, -1.2}, dX[RW * CL] = {0}, Xd[RW * CL] = {1, 0, 0.5, -1, 2, 0.25};
  __enzyme_autodiff((void *)gram_norm, enzyme_dup, X, dX, enzyme_const, RW, enzyme_const, CL);
  /* d ||X^T X||_F^2 / dX = 4 X (X^T X) */
  double G[CL * CL] = {0};
  for (int r = 0; r < RW; r++) for (int i = 0; i < CL; i++) for (int j = 0; j < CL; j++) G[i * CL + j] += X[r * CL + i] * X[r * CL + j];
  for (int r = 0; r < RW; r++)
    for (int i = 0; i < CL; i++) {
      double g = 0;
      for (int j = 0; j < CL; j++) g += 4 * X[r * CL + j] * G[j * CL + i];
      check("gram analytic", dX[r * CL + i], g, 1e-12);
      check("gram central", dX[r * CL + i], CENTRAL(gram_norm(X, RW, CL), X[r * CL + i], X[r * CL + i]), 1e-6);
    }
  check("gram forward", __enzyme_fwddiff((void *)gram_norm, enzyme_dup, X, Xd, enzyme_const, RW, enzyme_const, CL), dot(dX, Xd, RW * CL), 1e-12);
  return finish();
}

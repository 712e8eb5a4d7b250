#include "check.h"
/* Solve A x = b by Gaussian elimination with partial pivoting (row swaps on data), in place on copies;
   the gradient of c.x w.r.t. A and b is -(A^-T c) x^T and A^-T c. */
double solve_dot(const double *A0, const double *b0, const double *c, int n) {
  double A[16], b[4], x[4];
  /* Scale both sides by 2 (the solution is unchanged): a plain copy loop would become a memcpy, refused in
     reverse mode today. */
  for (int i = 0; i < n * n; i++) A[i] = 2.0 * A0[i];
  for (int i = 0; i < n; i++) b[i] = 2.0 * b0[i];
  for (int k = 0; k < n; k++) {
    int piv = k;
    for (int i = k + 1; i < n; i++) if (fabs(A[i * n + k]) > fabs(A[piv * n + k])) piv = i;
    if (piv != k) {
      for (int j = 0; j < n; j++) { double t = A[k * n + j]; A[k * n + j] = A[piv * n + j]; A[piv * n + j] = t; }
      double t = b[k]; b[k] = b[piv]; b[piv] = t;
    }
    for (int i = k + 1; i < n; i++) {
      double f = A[i * n + k] / A[k * n + k];
      for (int j = k; j < n; j++) A[i * n + j] -= f * A[k * n + j];
      b[i] -= f * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = b[i];
    for (int j = i + 1; j < n; j++) s -= A[i * n + j] * x[j];
    x[i] = s / A[i * n + i];
  }
  double r = 0;
  for (int i = 0; i < n; i++) r += c[i] * x[i];
  return r;
}

int main(void) {
  enum { N = 3 };
  double A[N * N] = {0.5, 2.0, -1.0, 3.0, 1.0, 0.5, -1.0, 0.25, 2.0}, b[N] = {1.0, -2.0, 0.5}, c[N] = {1.0, 0.5, -1.0};
  double dA[N * N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)solve_dot, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, c, enzyme_const, N);
  for (int i = 0; i < N; i++) check("d/db central", db[i], CENTRAL(solve_dot(A, b, c, N), b[i], b[i]), 1e-6);
  for (int k = 0; k < N * N; k++) check("d/dA central", dA[k], CENTRAL(solve_dot(A, b, c, N), A[k], A[k]), 1e-6);
  /* A^T db = c */
  for (int j = 0; j < N; j++) { double s = 0; for (int i = 0; i < N; i++) s += A[i * N + j] * db[i]; check("A^T (d/db) = c", s, c[j], 1e-12); }
  double Ad[N * N] = {1, 0, 0, 0, 1, 0, 0, 0, 1}, bd[N] = {0.5, 0.5, 0.5};
  double fw = __enzyme_fwddiff((void *)solve_dot, enzyme_dup, A, Ad, enzyme_dup, b, bd, enzyme_const, c, enzyme_const, N);
  check("forward", fw, dot(dA, Ad, N * N) + dot(db, bd, N), 1e-10);
  return finish();
}

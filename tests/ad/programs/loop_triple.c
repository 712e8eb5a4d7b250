#include "check.h"
/* Triple-nested loops: C = A B then ||C||^2, and a tensor contraction with an output array. */
double matmul_norm(const double *A, const double *B, double *C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      C[i * n + j] = 0;
      for (int k = 0; k < n; k++) C[i * n + j] += A[i * n + k] * B[k * n + j];
    }
  double s = 0;
  for (int i = 0; i < n * n; i++) s += C[i] * C[i];
  return s;
}
void contract(const double *T, const double *v, double *out, int n) {
  for (int i = 0; i < n; i++) {
    out[i] = 0;
    for (int j = 0; j < n; j++) for (int k = 0; k < n; k++) out[i] += T[(i * n + j) * n + k] * v[j] * v[k];
  }
}

int main(void) {
  enum { N = 3 };
  double A[N * N], B[N * N], C[N * N], dA[N * N] = {0}, dB[N * N] = {0}, dC[N * N] = {0};
  for (int k = 0; k < N * N; k++) { A[k] = 0.2 * k - 0.7; B[k] = 1.0 / (k + 1); }
  __enzyme_autodiff((void *)matmul_norm, enzyme_const, A, enzyme_dup, B, dB, enzyme_dup, C, dC, enzyme_const, N);
  __enzyme_autodiff((void *)matmul_norm, enzyme_dup, A, dA, enzyme_const, B, enzyme_dup, C, dC, enzyme_const, N);
  /* d/dA ||AB||^2 = 2 (AB) B^T ; d/dB = 2 A^T (AB) */
  for (int i = 0; i < N; i++)
    for (int k = 0; k < N; k++) {
      double ga = 0, gb = 0;
      for (int j = 0; j < N; j++) { ga += 2 * C[i * N + j] * B[k * N + j]; gb += 2 * A[j * N + i] * C[j * N + k]; }
      check("matmul dA", dA[i * N + k], ga, 1e-12);
      check("matmul dB", dB[i * N + k], gb, 1e-12);
    }
  double T[N * N * N], v[N] = {0.4, -0.9, 1.3}, out[N], vdot[N] = {1.0, 0.5, -0.25}, odot[N] = {0};
  for (int k = 0; k < N * N * N; k++) T[k] = sin(0.3 * k);
  __enzyme_fwddiff((void *)contract, enzyme_const, T, enzyme_dup, v, vdot, enzyme_dup, out, odot, enzyme_const, N);
  double obar[N] = {0.7, -1.1, 2.0}, obar0[N], vbar[N] = {0};
  for (int i = 0; i < N; i++) obar0[i] = obar[i];
  __enzyme_autodiff((void *)contract, enzyme_const, T, enzyme_dup, v, vbar, enzyme_dup, out, obar, enzyme_const, N);
  check("contract <obar, J vdot> = <J^T obar, vdot>", dot(obar0, odot, N), dot(vbar, vdot, N), 1e-12);
  for (int i = 0; i < N; i++) {
    double g = 0;
    for (int j = 0; j < N; j++) for (int k = 0; k < N; k++) g += (T[(i * N + j) * N + k] + T[(i * N + k) * N + j]) * v[k] * vdot[j];
    check("contract forward analytic", odot[i], g, 1e-12);
  }
  return finish();
}

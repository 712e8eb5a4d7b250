#include "check.h"
/* In-place algorithms: normalise a vector in place, Gram-Schmidt on two vectors, in-place reversal via swaps. */
void normalize(double *v, int n) { double s = 0; for (int i = 0; i < n; i++) s += v[i] * v[i]; s = sqrt(s); for (int i = 0; i < n; i++) v[i] /= s; }
double gram_schmidt(double *a, double *b, int n) {
  normalize(a, n);
  double p = 0;
  for (int i = 0; i < n; i++) p += a[i] * b[i];
  for (int i = 0; i < n; i++) b[i] -= p * a[i];
  normalize(b, n);
  return a[0] * b[1] - a[1] * b[0] + b[n - 1];
}
void reverse_inplace(double *v, int n) { for (int i = 0, j = n - 1; i < j; i++, j--) { double t = v[i]; v[i] = v[j] * 2.0; v[j] = t; } }

int main(void) {
  enum { N = 3 };
  double a0[N] = {1.0, 0.5, -0.3}, b0[N] = {0.2, 1.2, 0.8}, a[N], b[N], da[N] = {0}, db[N] = {0};
  for (int i = 0; i < N; i++) { a[i] = a0[i]; b[i] = b0[i]; }
  __enzyme_autodiff((void *)gram_schmidt, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N);
  double wa[N], wb[N];
  #define GS_AT(arr, k, val) ({ for (int _i = 0; _i < N; _i++) { wa[_i] = a0[_i]; wb[_i] = b0[_i]; } arr[k] = (val); gram_schmidt(wa, wb, N); })
  for (int k = 0; k < N; k++) {
    double v;
    check("gram-schmidt da central", da[k], CENTRAL(GS_AT(wa, k, v), v, a0[k]), 1e-6);
    check("gram-schmidt db central", db[k], CENTRAL(GS_AT(wb, k, v), v, b0[k]), 1e-6);
  }
  double ad[N] = {1, 0.5, 0}, bd[N] = {0, -1, 2};
  for (int i = 0; i < N; i++) { wa[i] = a0[i]; wb[i] = b0[i]; }
  double fw = __enzyme_fwddiff((void *)gram_schmidt, enzyme_dup, wa, ad, enzyme_dup, wb, bd, enzyme_const, N);
  double ad0[N] = {1, 0.5, 0}, bd0[N] = {0, -1, 2};
  check("gram-schmidt forward", fw, dot(da, ad0, N) + dot(db, bd0, N), 1e-10);
  enum { M = 5 };
  double v[M] = {1, 2, 3, 4, 5}, vbar[M] = {1, 10, 100, 1000, 10000};
  __enzyme_autodiff((void *)reverse_inplace, enzyme_dup, v, vbar, enzyme_const, M);
  /* out[i] = 2 v[M-1-i] for i < M/2, out[j] = v[M-1-j] for j > M/2, middle untouched */
  double expect[M] = {10000, 1000, 100, 2 * 10, 2 * 1};
  for (int i = 0; i < M; i++) check("in-place reversal adjoint", vbar[i], expect[i], 1e-12);
  return finish();
}

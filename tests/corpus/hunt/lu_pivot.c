#include "hunt.h"
/* LU factorization with partial pivoting (physical row swaps, permutation vector), forward and back
   substitution, and the log |det|.  Objective: w.x + log|det A| for A x = b.  Inputs: A and b.
   A's first column is built so that the pivots swap rows. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static int lu_factor(double *a, int *piv, int n) {
  for (int k = 0; k < n; k++) {
    int p = k;
    double big = fabs(a[k * n + k]);
    for (int i = k + 1; i < n; i++)
      if (fabs(a[i * n + k]) > big) { big = fabs(a[i * n + k]); p = i; }
    if (big == 0.0) return -1;
    piv[k] = p;
    if (p != k)
      for (int j = 0; j < n; j++) { double t = a[k * n + j]; a[k * n + j] = a[p * n + j]; a[p * n + j] = t; }
    for (int i = k + 1; i < n; i++) {
      double l = a[i * n + k] /= a[k * n + k];
      for (int j = k + 1; j < n; j++) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return 0;
}

static void lu_solve(const double *lu, const int *piv, double *b, int n) {
  for (int k = 0; k < n; k++)
    if (piv[k] != k) { double t = b[k]; b[k] = b[piv[k]]; b[piv[k]] = t; }
  for (int i = 1; i < n; i++)
    for (int j = 0; j < i; j++) b[i] -= lu[i * n + j] * b[j];
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) b[i] -= lu[i * n + j] * b[j];
    b[i] /= lu[i * n + i];
  }
}

double solve_objective(const double *A, const double *b, const double *w, int n) {
  double *lu = malloc(sizeof(double) * n * n), *x = malloc(sizeof(double) * n);
  int *piv = malloc(sizeof(int) * n);
  memcpy(lu, A, sizeof(double) * n * n);
  memcpy(x, b, sizeof(double) * n);
  double J = NAN;
  if (lu_factor(lu, piv, n) == 0) {
    lu_solve(lu, piv, x, n);
    J = 0.0;
    for (int i = 0; i < n; i++) J += w[i] * x[i] + log(fabs(lu[i * n + i]));
  }
  free(lu); free(x); free(piv);
  return J;
}

enum { N = 6, NP = 6 };
static double A[N * N], b[N], w[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    for (int j = 0; j < N; j++) A[i * N + j] = sin(1.0 + i * 1.7 + j * 0.9) + (i == j ? 0.5 : 0.0);
    b[i] = cos(0.3 * i);
    w[i] = 1.0 / (1 + i);
  }
  A[0] = 0.01; /* forces a row swap at the first step */
  double *prim[NP] = {&A[0], &A[7], &A[N * N - 1], &A[3 * N + 1], &b[0], &b[4]};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(solve_objective(A, b, w, N), *prim[q]);
  double dA[N * N] = {0}, db[N] = {0};
  double *shad[NP] = {&dA[0], &dA[7], &dA[N * N - 1], &dA[3 * N + 1], &db[0], &db[4]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)solve_objective, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, w, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)solve_objective, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, w,
                             enzyme_const, N);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dA2[N * N] = {0}, db2[N] = {0};
  double *shad2[NP] = {&dA2[0], &dA2[7], &dA2[N * N - 1], &dA2[3 * N + 1], &db2[0], &db2[4]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)solve_objective, enzyme_width, 2, enzyme_dup, A, dA, dA2, enzyme_dup, b, db,
                               db2, enzyme_const, w, enzyme_const, N);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)solve_objective, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, w,
                                enzyme_const, N);
  hunt_check("primal", r.primal, solve_objective(A, b, w, N));
  __enzyme_reverse((void *)solve_objective, enzyme_dup, A, dA, enzyme_dup, b, db, enzyme_const, w, enzyme_const, N,
                   1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  double dA2[N * N] = {0}, db2[N] = {0};
  double *shad2[NP] = {&dA2[0], &dA2[7], &dA2[N * N - 1], &dA2[3 * N + 1], &db2[0], &db2[4]};
  __enzyme_autodiff_void((void *)solve_objective, enzyme_width, 2, enzyme_dup, A, dA, dA2, enzyme_dup, b, db, db2,
                         enzyme_const, w, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
  for (int q = 0; q < NP; q++) ad[q] = *shad2[q];
  hunt_check_vec("grad_lane2", ad, fd, NP);
#endif
  return hunt_finish();
}

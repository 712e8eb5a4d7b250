#include "hunt.h"
/* Fortran-77-style C: a file-scope static work array reused as scratch by the solver (no allocation in
   the hot path), and a static "last result" cache.  Active values pass through the static buffer.
   Objective: a tridiagonal solve's weighted sum.  Inputs: the diagonal and the right-hand side. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

#define NMAX 64
static double work_c[NMAX], work_d[NMAX];
static double last_result;

double tridiag_weighted(const double *diag, const double *rhs, int n) {
  /* Thomas algorithm with off-diagonals -1, scratch in the static arrays */
  work_c[0] = -1.0 / diag[0];
  work_d[0] = rhs[0] / diag[0];
  for (int i = 1; i < n; i++) {
    double m = diag[i] + work_c[i - 1];
    work_c[i] = -1.0 / m;
    work_d[i] = (rhs[i] + work_d[i - 1]) / m;
  }
  double x = work_d[n - 1], s = (1.0 + n) * x;
  for (int i = n - 2; i >= 0; i--) {
    x = work_d[i] - work_c[i] * x;
    s += (1.0 + i) * x;
  }
  last_result = s;
  return s;
}

enum { N = 10 };
static double diag[N], rhs[N];

int main(void) {
  for (int i = 0; i < N; i++) { diag[i] = 3.0 + 0.2 * sin(i); rhs[i] = cos(0.4 * i); }
  const int idx[4] = {0, 5, 9, 2};
  double fd[4], ad[4];
  for (int q = 0; q < 2; q++) fd[q] = HUNT_FD(tridiag_weighted(diag, rhs, N), diag[idx[q]]);
  for (int q = 2; q < 4; q++) fd[q] = HUNT_FD(tridiag_weighted(diag, rhs, N), rhs[idx[q]]);
  double dd[N] = {0}, dr[N] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)tridiag_weighted, enzyme_dup, diag, dd, enzyme_dup, rhs, dr, enzyme_const, N);
  ad[0] = dd[idx[0]]; ad[1] = dd[idx[1]]; ad[2] = dr[idx[2]]; ad[3] = dr[idx[3]];
  hunt_check_vec("grad", ad, fd, 4);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 4; q++) {
    double *s = q < 2 ? &dd[idx[q]] : &dr[idx[q]];
    *s = 1.0;
    ad[q] = __enzyme_fwddiff((void *)tridiag_weighted, enzyme_dup, diag, dd, enzyme_dup, rhs, dr, enzyme_const, N);
    *s = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 4);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)tridiag_weighted, enzyme_dup, diag, dd, enzyme_dup, rhs, dr, enzyme_const, N);
  __enzyme_reverse((void *)tridiag_weighted, enzyme_dup, diag, dd, enzyme_dup, rhs, dr, enzyme_const, N, 1.0, r.tape);
  ad[0] = dd[idx[0]]; ad[1] = dd[idx[1]]; ad[2] = dr[idx[2]]; ad[3] = dr[idx[3]];
  hunt_check_vec("grad", ad, fd, 4);
  (void)r;
#endif
  return hunt_finish();
}

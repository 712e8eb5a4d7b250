#include "hunt.h"
/* C driver for lsq.f90: derivative of the Gauss-Newton result with respect to the data y (the
   sensitivity of a fitted model to its measurements) and the starting point. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

double gauss_newton(const double *t, const double *y, int m, const double *p0, int iters);

enum { M = 10, ITERS = 6, NP = 5 };
static double t[M], y[M], p0[2] = {1.8, 0.6};

int main(void) {
  for (int i = 0; i < M; i++) { t[i] = 0.3 * i; y[i] = 2.0 * exp(-0.7 * t[i]) + 0.02 * sin(5.0 * i); }
  double *prim[NP] = {&y[0], &y[4], &y[9], &p0[0], &p0[1]};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(gauss_newton(t, y, M, p0, ITERS), *prim[q]);
  double dy[M] = {0}, dp0[2] = {0};
  double *shad[NP] = {&dy[0], &dy[4], &dy[9], &dp0[0], &dp0[1]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)gauss_newton, enzyme_const, t, enzyme_dup, y, dy, enzyme_const, M, enzyme_dup, p0, dp0,
                    enzyme_const, ITERS);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)gauss_newton, enzyme_const, t, enzyme_dup, y, dy, enzyme_const, M, enzyme_dup, p0,
                             dp0, enzyme_const, ITERS);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)gauss_newton, enzyme_const, t, enzyme_dup, y, dy, enzyme_const, M, enzyme_dup,
                                p0, dp0, enzyme_const, ITERS);
  hunt_check("primal", r.primal, gauss_newton(t, y, M, p0, ITERS));
  __enzyme_reverse((void *)gauss_newton, enzyme_const, t, enzyme_dup, y, dy, enzyme_const, M, enzyme_dup, p0, dp0,
                   enzyme_const, ITERS, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Gaussian-process regression: negative log marginal likelihood with a squared-exponential kernel
   on log hyperparameters theta = (log lengthscale, log signal sd, log noise sd), Cholesky, two
   triangular solves and the log determinant.  Inputs: theta and the training inputs X (1-D). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static double sq_exp(double a, double b, double ell, double sf2) {
  double r = (a - b) / ell;
  return sf2 * exp(-0.5 * r * r);
}

/* In-place lower Cholesky; returns 0 on success. */
static int cholesky(double *L, int n) {
  for (int j = 0; j < n; j++) {
    double d = L[j * n + j];
    for (int k = 0; k < j; k++) d -= L[j * n + k] * L[j * n + k];
    if (d <= 0) return 1;
    d = sqrt(d);
    L[j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double s = L[i * n + j];
      for (int k = 0; k < j; k++) s -= L[i * n + k] * L[j * n + k];
      L[i * n + j] = s / d;
    }
    for (int i = 0; i < j; i++) L[i * n + j] = 0.0; /* clear the upper triangle */
  }
  return 0;
}

double gp_nll(const double *theta, const double *X, const double *y, int n) {
  double ell = exp(theta[0]), sf2 = exp(2 * theta[1]), sn2 = exp(2 * theta[2]);
  double *L = malloc(sizeof(double) * n * n), *alpha = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) L[i * n + j] = sq_exp(X[i], X[j], ell, sf2) + (i == j ? sn2 : 0.0);
  if (cholesky(L, n)) { free(L); free(alpha); return INFINITY; }
  for (int i = 0; i < n; i++) { /* L z = y */
    double s = y[i];
    for (int k = 0; k < i; k++) s -= L[i * n + k] * alpha[k];
    alpha[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) { /* L^T alpha = z */
    double s = alpha[i];
    for (int k = i + 1; k < n; k++) s -= L[k * n + i] * alpha[k];
    alpha[i] = s / L[i * n + i];
  }
  double quad = 0.0, logdet = 0.0;
  for (int i = 0; i < n; i++) { quad += y[i] * alpha[i]; logdet += log(L[i * n + i]); }
  free(L); free(alpha);
  return 0.5 * quad + logdet + 0.5 * n * log(2 * M_PI);
}

enum { N = 12, NP = 6 };
static double theta[3] = {-0.3, 0.2, -1.5}, X[N], Y[N];

int main(void) {
  for (int i = 0; i < N; i++) { X[i] = -2.0 + 4.0 * i / (N - 1) + 0.05 * sin(7.0 * i); Y[i] = sin(1.3 * X[i]) + 0.1 * cos(5.0 * i); }
  double *prim[NP] = {&theta[0], &theta[1], &theta[2], &X[0], &X[5], &X[11]};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(gp_nll(theta, X, Y, N), *prim[q]);
  double dtheta[3] = {0}, dX[N] = {0};
  double *shad[NP] = {&dtheta[0], &dtheta[1], &dtheta[2], &dX[0], &dX[5], &dX[11]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)gp_nll, enzyme_dup, theta, dtheta, enzyme_dup, X, dX, enzyme_const, Y, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)gp_nll, enzyme_dup, theta, dtheta, enzyme_dup, X, dX, enzyme_const, Y,
                             enzyme_const, N);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dtheta2[3] = {0}, dX2[N] = {0};
  double *shad2[NP] = {&dtheta2[0], &dtheta2[1], &dtheta2[2], &dX2[0], &dX2[5], &dX2[11]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)gp_nll, enzyme_width, 2, enzyme_dup, theta, dtheta, dtheta2, enzyme_dup, X, dX,
                               dX2, enzyme_const, Y, enzyme_const, N);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)gp_nll, enzyme_dup, theta, dtheta, enzyme_dup, X, dX, enzyme_const, Y,
                                enzyme_const, N);
  hunt_check("primal", r.primal, gp_nll(theta, X, Y, N));
  __enzyme_reverse((void *)gp_nll, enzyme_dup, theta, dtheta, enzyme_dup, X, dX, enzyme_const, Y, enzyme_const, N,
                   1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  double dtheta2[3] = {0}, dX2[N] = {0};
  double *shad2[NP] = {&dtheta2[0], &dtheta2[1], &dtheta2[2], &dX2[0], &dX2[5], &dX2[11]};
  __enzyme_autodiff_void((void *)gp_nll, enzyme_width, 2, enzyme_dup, theta, dtheta, dtheta2, enzyme_dup, X, dX, dX2,
                         enzyme_const, Y, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
  for (int q = 0; q < NP; q++) ad[q] = *shad2[q];
  hunt_check_vec("grad_lane2", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Elastic-net regression by cyclic coordinate descent (glmnet style): standardized design matrix in a
   malloc'd column-major block, residual updated in place, soft-thresholding with copysign/fmax, a
   convergence test on the largest coefficient change, printf logging every few sweeps, and the
   validation error of the fit.  Inputs: training targets, the penalty and the mixing parameter. */
#include <stdlib.h>

typedef struct {
  int n, p;
  double *X;    /* column-major n x p */
  double *colsq; /* (1/n) sum x_ij^2 */
} Design;

static const double VAL_WEIGHTS[4] = {1.0, 0.5, 0.75, 1.25};

static double soft_threshold(double z, double g) { return copysign(fmax(fabs(z) - g, 0.0), z); }

static Design make_design(int n, int p) {
  Design d = {n, p, malloc(sizeof(double) * n * p), malloc(sizeof(double) * p)};
  for (int j = 0; j < p; j++) {
    double mean = 0, var = 0;
    for (int i = 0; i < n; i++) {
      double v = sin(0.7 * (i + 1) * (j + 1)) + 0.3 * cos(1.3 * i - 0.4 * j) + 0.05 * j;
      d.X[j * n + i] = v;
      mean += v;
    }
    mean /= n;
    for (int i = 0; i < n; i++) {
      d.X[j * n + i] -= mean;
      var += d.X[j * n + i] * d.X[j * n + i];
    }
    double sd = sqrt(var / n);
    for (int i = 0; i < n; i++) d.X[j * n + i] /= sd;
    d.colsq[j] = 1.0;
  }
  return d;
}

static void free_design(Design *d) {
  free(d->X);
  free(d->colsq);
}

static int coordinate_descent(const Design *d, const double *y, double lambda, double alpha, double *beta,
                              double *intercept) {
  int n = d->n, p = d->p;
  double *r = malloc(sizeof(double) * n);
  double ybar = 0;
  for (int i = 0; i < n; i++) ybar += y[i];
  ybar /= n;
  *intercept = ybar;
  for (int i = 0; i < n; i++) r[i] = y[i] - ybar;
  for (int j = 0; j < p; j++) beta[j] = 0;
  int sweep;
  for (sweep = 0; sweep < 500; sweep++) {
    double maxdelta = 0;
    for (int j = 0; j < p; j++) {
      const double *xj = d->X + (size_t)j * n;
      double rho = 0;
      for (int i = 0; i < n; i++) rho += xj[i] * r[i];
      rho = rho / n + d->colsq[j] * beta[j];
      double bnew = soft_threshold(rho, lambda * alpha) / (d->colsq[j] + lambda * (1 - alpha));
      double delta = bnew - beta[j];
      if (delta != 0) {
        for (int i = 0; i < n; i++) r[i] -= xj[i] * delta;
        beta[j] = bnew;
      }
      if (fabs(delta) > maxdelta) maxdelta = fabs(delta);
    }
    if (sweep % 100 == 99) printf("  sweep %d max change %.3e\n", sweep + 1, maxdelta);
    if (maxdelta < 1e-13) break;
  }
  free(r);
  return sweep;
}

double enet_validation(const double *y, double lambda, double alpha, int n, int p) {
  Design d = make_design(n, p);
  double *beta = malloc(sizeof(double) * p), b0;
  coordinate_descent(&d, y, lambda, alpha, beta, &b0);
  /* validation rows: shifted copies of the training design */
  double err = 0;
  for (int i = 0; i < 4; i++) {
    double pred = b0, target = y[(3 * i + 1) % n] + 0.1 * i;
    for (int j = 0; j < p; j++) pred += beta[j] * d.X[j * n + (i * 5 + 2) % n];
    err += VAL_WEIGHTS[i] * (pred - target) * (pred - target);
  }
  double penalty = 0;
  for (int j = 0; j < p; j++) penalty += fabs(beta[j]);
  free(beta);
  free_design(&d);
  return err + 0.01 * penalty;
}

int main(void) {
  enum { N = 24, P = 6 };
  double y[N], lambda = 0.08, alpha = 0.6;
  for (int i = 0; i < N; i++) y[i] = 1.0 + 0.8 * sin(0.7 * (i + 1)) - 0.5 * sin(2.1 * (i + 1)) + 0.1 * cos(0.37 * i * i);
  enum { NPAR = N + 2 };
  double *prim[NPAR];
  for (int i = 0; i < N; i++) prim[i] = &y[i];
  prim[N] = &lambda; prim[N + 1] = &alpha;
  double fd[NPAR], ad[NPAR], dy[N] = {0};
  for (int k = 0; k < NPAR; k++) fd[k] = HUNT_FD(enet_validation(y, lambda, alpha, N, P), *prim[k]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)enet_validation, enzyme_dup, y, dy, enzyme_const, lambda, enzyme_const, alpha,
                    enzyme_const, N, enzyme_const, P);
  for (int i = 0; i < N; i++) ad[i] = dy[i];
  ad[N] = __enzyme_autodiff((void *)enet_validation, enzyme_const, y, lambda, enzyme_const, alpha, enzyme_const, N,
                            enzyme_const, P);
  ad[N + 1] = __enzyme_autodiff((void *)enet_validation, enzyme_const, y, enzyme_const, lambda, alpha, enzyme_const,
                                N, enzyme_const, P);
  hunt_check_vec("grad", ad, fd, NPAR);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NPAR; k++) {
    if (k < N) dy[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)enet_validation, enzyme_dup, y, dy, lambda, k == N ? 1.0 : 0.0, alpha,
                             k == N + 1 ? 1.0 : 0.0, enzyme_const, N, enzyme_const, P);
    if (k < N) dy[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NPAR);
#endif
  return hunt_finish();
}

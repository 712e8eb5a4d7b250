#include "hunt.h"
/* Robust line fit diagnostics: residuals of a line model, the median absolute residual via qsort
   (libc, with a comparator) as the scale, and a Huber loss with that scale.  Inputs: slope and
   intercept (params array). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double huber(double r, double delta) {
  double a = fabs(r);
  return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}

double robust_loss(const double *params, const double *x, const double *y, int n) {
  double *res = malloc(sizeof(double) * n), *absr = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) {
    res[i] = y[i] - (params[0] * x[i] + params[1]);
    absr[i] = fabs(res[i]);
  }
  qsort(absr, n, sizeof(double), cmp_double);
  double scale = 1.4826 * (n % 2 ? absr[n / 2] : 0.5 * (absr[n / 2 - 1] + absr[n / 2]));
  double L = 0.0;
  for (int i = 0; i < n; i++) L += huber(res[i] / scale, 1.345);
  free(res); free(absr);
  return L;
}

enum { N = 11 };
static double params[2] = {0.8, -0.2}, xs[N], ys[N];

int main(void) {
  for (int i = 0; i < N; i++) { xs[i] = i - 5.0; ys[i] = 0.7 * xs[i] + 0.1 + 0.3 * sin(3.1 * i) + (i == 7 ? 4.0 : 0.0); }
  double fd[2], ad[2];
  hunt_fd_step = 1e-6;
  for (int q = 0; q < 2; q++) fd[q] = HUNT_FD(robust_loss(params, xs, ys, N), params[q]);
  double dparams[2] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)robust_loss, enzyme_dup, params, dparams, enzyme_const, xs, enzyme_const, ys, enzyme_const, N);
  hunt_check_vec("grad", dparams, fd, 2);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 2; q++) {
    dparams[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)robust_loss, enzyme_dup, params, dparams, enzyme_const, xs, enzyme_const, ys,
                             enzyme_const, N);
    dparams[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 2);
#endif
  return hunt_finish();
}

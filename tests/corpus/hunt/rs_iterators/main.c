#include "hunt.h"
/* C driver for spectra.rs: gradient of the robust spectral misfit with respect to every peak and
   baseline parameter. */
double spectrum_misfit(const double *params, size_t npar, const double *x, const double *y, size_t m);

enum { NPAR = 12, M = 60 };
static double par[NPAR] = {1.0, 0.3, 2.0, 2.5, 0.2, 1.2, 4.0, 0.5, 0.8, 0.1, 0.05, -0.01};
static double x[M], y[M];

int main(void) {
  for (int i = 0; i < M; i++) {
    x[i] = 5.0 * i / (M - 1);
    double xi = x[i];
    y[i] = 2.1 / (1 + pow((xi - 1.1) / 0.28, 2)) + 1.1 / (1 + pow((xi - 2.45) / 0.22, 2)) +
           0.9 / (1 + pow((xi - 3.9) / 0.55, 2)) + 0.12 + 0.04 * xi + 0.1 * sin(13.0 * i);
  }
  double fd[NPAR], ad[NPAR];
  hunt_fd_step = 1e-6; /* the Huber loss switches branch where a residual crosses its threshold */
  for (int k = 0; k < NPAR; k++) fd[k] = HUNT_FD(spectrum_misfit(par, NPAR, x, y, M), par[k]);
#ifdef MODE_REV
  double dpar[NPAR] = {0};
  __enzyme_autodiff((void *)spectrum_misfit, enzyme_dup, par, dpar, enzyme_const, (size_t)NPAR, enzyme_const, x,
                    enzyme_const, y, enzyme_const, (size_t)M);
  for (int k = 0; k < NPAR; k++) ad[k] = dpar[k];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NPAR; k++) {
    double dpar[NPAR] = {0};
    dpar[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)spectrum_misfit, enzyme_dup, par, dpar, enzyme_const, (size_t)NPAR, enzyme_const,
                             x, enzyme_const, y, enzyme_const, (size_t)M);
  }
#endif
  hunt_check_vec("grad", ad, fd, NPAR);
  return hunt_finish();
}

#include "hunt.h"
/* C driver for kinetics.f90: calibration gradients of both models (SEIR and predator-prey) with respect to
   the four rate parameters and the initial state. */
double fit_objective(const double *theta, const double *y0, const double *tobs, const double *yobs, int nobs,
                     int model);

enum { NOBS = 6, NQ = 8 };
static double theta[4] = {0.9, 0.4, 0.25, 0.05}, yinit[4], tobs[NOBS], yobs[NOBS];

static void grad(int model, const char *what) {
  double fd[NQ], ad[NQ];
  for (int k = 0; k < NQ; k++) {
    double *x = k < 4 ? &theta[k] : &yinit[k - 4];
    fd[k] = HUNT_FD(fit_objective(theta, yinit, tobs, yobs, NOBS, model), *x);
  }
#ifdef MODE_REV
  double dth[4] = {0}, dy0[4] = {0};
  __enzyme_autodiff((void *)fit_objective, enzyme_dup, theta, dth, enzyme_dup, yinit, dy0, enzyme_const, tobs,
                    enzyme_const, yobs, enzyme_const, NOBS, enzyme_const, model);
  for (int k = 0; k < NQ; k++) ad[k] = k < 4 ? dth[k] : dy0[k - 4];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NQ; k++) {
    double dth[4] = {0}, dy0[4] = {0};
    if (k < 4) dth[k] = 1; else dy0[k - 4] = 1;
    ad[k] = __enzyme_fwddiff((void *)fit_objective, enzyme_dup, theta, dth, enzyme_dup, yinit, dy0, enzyme_const, tobs,
                             enzyme_const, yobs, enzyme_const, NOBS, enzyme_const, model);
  }
#endif
  hunt_check_vec(what, ad, fd, NQ);
}

int main(void) {
  /* step-size control switches at accept/reject boundaries: keep the FD step small */
  hunt_fd_step = 1e-6;
  hunt_rtol = 1e-4;
  for (int i = 0; i < NOBS; i++) {
    tobs[i] = 1.5 * (i + 1);
    yobs[i] = 0.05 + 0.02 * (i + 1) + 0.01 * sin(i);
  }
  yinit[0] = 0.95; yinit[1] = 0.03; yinit[2] = 0.02; yinit[3] = 0.0;
  grad(1, "seir");
  for (int i = 0; i < NOBS; i++) yobs[i] = 1.0 + 0.3 * cos(0.8 * i);
  yinit[0] = 3.0; yinit[1] = 1.2;
  grad(2, "predprey");
  return hunt_finish();
}

#include "hunt.h"
/* C driver for odes.rs: parameter and initial-value gradients for both models, each with the fixed-step
   RK4 and the adaptive Cash-Karp integrator. */
#include <stddef.h>
double ode_misfit(const double *theta, const double *y0, const double *tobs, const double *yobs, size_t nobs,
                  int model, int adaptive);

enum { NOBS = 6, NQ = 5 };
static double theta[3], yinit[2], tobs[NOBS], yobs[NOBS];

static void grad(int model, int adaptive, const char *what) {
  double fd[NQ], ad[NQ];
  for (int q = 0; q < NQ; q++) {
    double *x = q < 3 ? &theta[q] : &yinit[q - 3];
    fd[q] = HUNT_FD(ode_misfit(theta, yinit, tobs, yobs, NOBS, model, adaptive), *x);
  }
#ifdef MODE_REV
  double dth[3] = {0}, dy[2] = {0};
  __enzyme_autodiff((void *)ode_misfit, enzyme_dup, theta, dth, enzyme_dup, yinit, dy, enzyme_const, tobs,
                    enzyme_const, yobs, enzyme_const, (size_t)NOBS, enzyme_const, model, enzyme_const, adaptive);
  for (int q = 0; q < NQ; q++) ad[q] = q < 3 ? dth[q] : dy[q - 3];
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NQ; q++) {
    double dth[3] = {0}, dy[2] = {0};
    if (q < 3) dth[q] = 1; else dy[q - 3] = 1;
    ad[q] = __enzyme_fwddiff((void *)ode_misfit, enzyme_dup, theta, dth, enzyme_dup, yinit, dy, enzyme_const, tobs,
                             enzyme_const, yobs, enzyme_const, (size_t)NOBS, enzyme_const, model, enzyme_const,
                             adaptive);
  }
#endif
  hunt_check_vec(what, ad, fd, NQ);
}

int main(void) {
  hunt_fd_step = 1e-6; /* adaptive steps switch at accept/reject boundaries */
  hunt_rtol = 1e-4;
  for (int i = 0; i < NOBS; i++) tobs[i] = 0.7 * (i + 1);
  theta[0] = 0.3; theta[1] = 2.0; theta[2] = 0.5; yinit[0] = 0.8; yinit[1] = 0.0;
  for (int i = 0; i < NOBS; i++) yobs[i] = 0.8 * cos(1.4 * tobs[i]) * exp(-0.15 * tobs[i]);
  grad(0, 0, "pend_rk4");
  grad(0, 1, "pend_ck");
  theta[0] = 1.0; theta[1] = 1.5; theta[2] = 0.4; yinit[0] = 1.2; yinit[1] = 2.5;
  for (int i = 0; i < NOBS; i++) yobs[i] = 1.0 + 0.4 * sin(tobs[i]);
  grad(1, 0, "bruss_rk4");
  grad(1, 1, "bruss_ck");
  return hunt_finish();
}

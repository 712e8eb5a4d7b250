#define _GNU_SOURCE /* sincos */
#include <complex.h>
#include "hunt.h"
/* Electrochemistry fit: a consecutive reaction A -> B -> C with Arrhenius rates under a temperature ramp
   (RK4), then the impedance spectrum of a Randles cell whose charge-transfer resistance depends on the
   concentration of B, computed with C99 `double complex` (cexp, cabs, carg, csqrt, I) plus a cable delay
   e^{-i w tau} evaluated with GNU sincos.  Objective: least-squares misfit of the spectrum against a
   synthetic measurement, in magnitude and phase.  Parameters: p = {Ea1, Ea2, log A, C_dl, tau, sigma}. */
#define RGAS 8.314
#define NF 12

static void rates(const double *p, double T, double *k1, double *k2) {
  double pre = exp(p[2]);
  *k1 = pre * exp(-p[0] / (RGAS * T));
  *k2 = 0.5 * pre * exp(-p[1] / (RGAS * T));
}

static void deriv(const double *p, double T, const double c[3], double dc[3]) {
  double k1, k2;
  rates(p, T, &k1, &k2);
  dc[0] = -k1 * c[0];
  dc[1] = k1 * c[0] - k2 * c[1];
  dc[2] = k2 * c[1];
}

static double complex randles(double w, double rs, double rct, double cdl, double sigma, double tau) {
  double complex zw = sigma * (1.0 - I) / sqrt(w);              /* Warburg element */
  double complex zf = rct + zw;
  double complex z = rs + zf / (1.0 + I * w * cdl * zf);
  double s, c;
  sincos(w * tau, &s, &c);
  double complex delay = c - I * s;                              /* e^{-i w tau} */
  return z * delay + 0.01 * csqrt(I * w) * cexp(-I * w * tau);
}

double impedance_misfit(const double *p, const double *zmeas_re, const double *zmeas_im, int steps) {
  double c[3] = {1.0, 0.0, 0.0}, k[4][3], tmp[3];
  double dt = 1.0 / steps;
  for (int s = 0; s < steps; s++) {
    double t = s * dt, T = 300 + 40 * t;
    deriv(p, T, c, k[0]);
    for (int j = 0; j < 3; j++) tmp[j] = c[j] + 0.5 * dt * k[0][j];
    deriv(p, T + 20 * dt, tmp, k[1]);
    for (int j = 0; j < 3; j++) tmp[j] = c[j] + 0.5 * dt * k[1][j];
    deriv(p, T + 20 * dt, tmp, k[2]);
    for (int j = 0; j < 3; j++) tmp[j] = c[j] + dt * k[2][j];
    deriv(p, T + 40 * dt, tmp, k[3]);
    for (int j = 0; j < 3; j++) c[j] += dt / 6 * (k[0][j] + 2 * k[1][j] + 2 * k[2][j] + k[3][j]);
  }
  double rct = 2.0 / (0.05 + c[1]);
  double misfit = 0;
  for (int f = 0; f < NF; f++) {
    double w = 2 * M_PI * pow(10.0, -1.0 + 0.4 * f);
    double complex z = randles(w, 0.5, rct, p[3], p[5], p[4]);
    double complex zm = zmeas_re[f] + I * zmeas_im[f];
    double dmag = log(cabs(z)) - log(cabs(zm));
    double dphase = carg(z) - carg(zm);
    misfit += dmag * dmag + 0.5 * dphase * dphase + 0.1 * creal((z - zm) * conj(z - zm)) / (1 + w);
  }
  return misfit;
}

enum { NPAR = 6, STEPS = 40 };
static double p[NPAR] = {42000.0, 47000.0, 14.0, 2e-3, 1e-4, 0.3};
static double zre[NF], zim[NF];

int main(void) {
  for (int f = 0; f < NF; f++) { /* "measured" spectrum: a nearby parameter set with noise */
    double q[NPAR] = {41000.0, 47500.0, 14.2, 2.5e-3, 1.2e-4, 0.35};
    double complex z = 0;
    double w = 2 * M_PI * pow(10.0, -1.0 + 0.4 * f);
    z = randles(w, 0.5, 2.0 / (0.05 + 0.3 + 0.01 * q[0] / 41000.0), q[3], q[5], q[4]);
    zre[f] = creal(z) * (1 + 0.02 * sin(f));
    zim[f] = cimag(z) * (1 + 0.02 * cos(f));
  }
  double fd[NPAR], ad[NPAR];
  for (int i = 0; i < NPAR; i++) { /* a step relative to each parameter, also the small ones */
    hunt_fd_step = fabs(p[i]) < 1 ? 1e-4 * fabs(p[i]) : 1e-4;
    fd[i] = HUNT_FD(impedance_misfit(p, zre, zim, STEPS), p[i]);
  }
#ifdef MODE_REV
  double dp[NPAR] = {0};
  __enzyme_autodiff((void *)impedance_misfit, enzyme_dup, p, dp, enzyme_const, zre, enzyme_const, zim,
                    enzyme_const, STEPS);
  for (int i = 0; i < NPAR; i++) ad[i] = dp[i];
#endif
#ifdef MODE_FWD
  for (int i = 0; i < NPAR; i++) {
    double dp[NPAR] = {0};
    dp[i] = 1;
    ad[i] = __enzyme_fwddiff((void *)impedance_misfit, enzyme_dup, p, dp, enzyme_const, zre, enzyme_const, zim,
                             enzyme_const, STEPS);
  }
#endif
  /* parameters differ by eight orders of magnitude: compare relative sensitivities p_i * dJ/dp_i */
  for (int i = 0; i < NPAR; i++) { ad[i] *= p[i]; fd[i] *= p[i]; }
  hunt_check_vec("grad", ad, fd, NPAR);
  return hunt_finish();
}

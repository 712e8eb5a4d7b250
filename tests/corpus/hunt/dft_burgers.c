#include "hunt.h"
#include <complex.h>
/* Pseudo-spectral viscous Burgers equation on a periodic domain: a hand-written O(N^2) discrete Fourier
   transform on calloc'd C99 double complex arrays, the derivative u_x by multiplying with i k, the viscous
   term integrated exactly per mode (integrating factor), the nonlinear term by Heun steps, and the 2/3
   de-aliasing rule.  Objective: the kinetic energy at the end plus the power in mode 2.
   Inputs: viscosity, amplitude of the initial sine, phase of the initial cosine. */
enum { N = 24 };

static void dft(const double complex *in, double complex *out, int sign) {
  for (int k = 0; k < N; k++) {
    double complex acc = 0.0;
    for (int j = 0; j < N; j++) acc += in[j] * cexp(sign * 2.0 * M_PI * I * (double)(j * k % N) / N);
    out[k] = sign > 0 ? acc / N : acc;
  }
}

static int wavenumber(int k) { return k <= N / 2 ? k : k - N; }

/* nonlinear term -u u_x, computed from the spectrum uh, written as a spectrum */
static void nonlinear(const double complex *uh, double complex *nh, double complex *work, double complex *ux) {
  for (int k = 0; k < N; k++) work[k] = I * wavenumber(k) * uh[k];
  dft(work, ux, +1);
  dft(uh, work, +1);
  for (int j = 0; j < N; j++) work[j] = -creal(work[j]) * creal(ux[j]);
  dft(work, nh, -1);
  for (int k = 0; k < N; k++)
    if (abs(wavenumber(k)) > N / 3) nh[k] = 0.0;
}

double burgers_spectral(const double *p, int nsteps) {
  double nu = p[0], amp = p[1], phase = p[2];
  const double dt = 0.02;
  double complex *u = calloc(N, sizeof(double complex));
  double complex *uh = calloc(N, sizeof(double complex));
  double complex *n1 = calloc(N, sizeof(double complex));
  double complex *n2 = calloc(N, sizeof(double complex));
  double complex *stage = calloc(N, sizeof(double complex));
  double complex *work = calloc(N, sizeof(double complex));
  double complex *ux = calloc(N, sizeof(double complex));
  for (int j = 0; j < N; j++) {
    double x = 2.0 * M_PI * j / N;
    u[j] = amp * sin(x) + 0.3 * cos(2.0 * x + phase);
  }
  dft(u, uh, -1);
  for (int n = 0; n < nsteps; n++) {
    nonlinear(uh, n1, work, ux);
    for (int k = 0; k < N; k++) {
      double e = exp(-nu * wavenumber(k) * wavenumber(k) * dt);
      stage[k] = e * (uh[k] + dt * n1[k]);
    }
    nonlinear(stage, n2, work, ux);
    for (int k = 0; k < N; k++) {
      double e = exp(-nu * wavenumber(k) * wavenumber(k) * dt);
      uh[k] = e * (uh[k] + 0.5 * dt * n1[k]) + 0.5 * dt * n2[k];
    }
  }
  dft(uh, u, +1);
  double energy = 0.0;
  for (int j = 0; j < N; j++) energy += 0.5 * creal(u[j]) * creal(u[j]) / N;
  double mode2 = cabs(uh[2]) / N;
  free(u); free(uh); free(n1); free(n2); free(stage); free(work); free(ux);
  return energy + mode2 * mode2;
}

static double p[3] = {0.08, 1.1, 0.4};

int main(void) {
  const int nsteps = 15;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(burgers_spectral(p, nsteps), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)burgers_spectral, enzyme_dup, p, dp, enzyme_const, nsteps);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)burgers_spectral, enzyme_dup, p, dp, enzyme_const, nsteps);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

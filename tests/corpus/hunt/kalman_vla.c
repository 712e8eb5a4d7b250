#include "hunt.h"
/* Kalman filter negative log-likelihood of a noisy constant-velocity track, written with C99
   variable-length arrays for the small matrices (state n = 2, observation of position only).
   Inputs: process noise q and measurement noise r (active), observations (const). */
static void matmul(int n, int m, int p, double A[n][m], double B[m][p], double C[n][p]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < p; j++) {
      double s = 0;
      for (int k = 0; k < m; k++) s += A[i][k] * B[k][j];
      C[i][j] = s;
    }
}

double kalman_nll(double q, double r, const double *obs, int nobs, double dt) {
  const int n = 2;
  double x[2] = {obs[0], 0.0};
  double P[n][n], F[n][n], Ft[n][n], Q[n][n], T1[n][n], T2[n][n];
  memset(P, 0, sizeof P);
  P[0][0] = r; P[1][1] = 1.0;
  F[0][0] = 1; F[0][1] = dt; F[1][0] = 0; F[1][1] = 1;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) Ft[i][j] = F[j][i];
  /* white-acceleration process noise */
  Q[0][0] = q * dt * dt * dt / 3; Q[0][1] = Q[1][0] = q * dt * dt / 2; Q[1][1] = q * dt;
  double nll = 0;
  for (int t = 1; t < nobs; t++) {
    double xp[2] = {x[0] + dt * x[1], x[1]};
    matmul(n, n, n, F, P, T1);
    matmul(n, n, n, T1, Ft, T2);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) P[i][j] = T2[i][j] + Q[i][j];
    double innov = obs[t] - xp[0];
    double S = P[0][0] + r;
    nll += 0.5 * (log(2 * M_PI * S) + innov * innov / S);
    double K[2] = {P[0][0] / S, P[1][0] / S};
    x[0] = xp[0] + K[0] * innov;
    x[1] = xp[1] + K[1] * innov;
    double P00 = P[0][0], P01 = P[0][1];
    for (int j = 0; j < n; j++) {
      P[0][j] -= K[0] * (j == 0 ? P00 : P01);
      P[1][j] -= K[1] * (j == 0 ? P00 : P01);
    }
  }
  return nll;
}

enum { NOBS = 40 };
static double obs[NOBS];
int main(void) {
  for (int t = 0; t < NOBS; t++) obs[t] = 0.5 * t * 0.1 + 0.05 * sin(3.1 * t) + 0.02 * cos(7.7 * t);
  double q = 0.3, r = 0.01, dt = 0.1;
  double fd[2] = {HUNT_FD(kalman_nll(q, r, obs, NOBS, dt), q), HUNT_FD(kalman_nll(q, r, obs, NOBS, dt), r)};
  double ad[2];
#ifdef MODE_REV
  typedef struct { double dq, dr; } g2;
  g2 g = ((g2(*)(void *, ...))__enzyme_autodiff)((void *)kalman_nll, enzyme_out, q, enzyme_out, r, enzyme_const,
                                                 obs, enzyme_const, NOBS, enzyme_const, dt);
  ad[0] = g.dq; ad[1] = g.dr;
  hunt_check_vec("grad", ad, fd, 2);
#endif
#ifdef MODE_FWD
  ad[0] = __enzyme_fwddiff((void *)kalman_nll, q, 1.0, r, 0.0, enzyme_const, obs, enzyme_const, NOBS, enzyme_const, dt);
  ad[1] = __enzyme_fwddiff((void *)kalman_nll, q, 0.0, r, 1.0, enzyme_const, obs, enzyme_const, NOBS, enzyme_const, dt);
  hunt_check_vec("grad", ad, fd, 2);
#endif
  return hunt_finish();
}

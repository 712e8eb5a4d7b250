#include "hunt.h"
/* Two-point boundary value problems by single shooting: a model is a struct of function pointers
   (right-hand side, its Jacobian, the boundary residual), picked from a table by index.  RK4 carries the
   state and its sensitivity to the unknown initial slope (variational equations) so that Newton's method
   can update the slope; a fixed number of Newton steps.  Models: a damped pendulum hitting a final angle,
   and a Duffing oscillator.  Objective: the slope found for each model plus the integral of the solution
   squared along the converged trajectory.  Inputs: damping, stiffness, final target. */
typedef struct {
  const char *name;
  void (*rhs)(double t, const double *y, const double *par, double *dy);
  void (*jac)(double t, const double *y, const double *par, double J[2][2]);
  double (*bc)(const double *y_end, const double *par);
} Model;

static void pend_rhs(double t, const double *y, const double *par, double *dy) {
  (void)t;
  dy[0] = y[1];
  dy[1] = -par[1] * sin(y[0]) - par[0] * y[1];
}
static void pend_jac(double t, const double *y, const double *par, double J[2][2]) {
  (void)t;
  J[0][0] = 0; J[0][1] = 1;
  J[1][0] = -par[1] * cos(y[0]); J[1][1] = -par[0];
}
static double pend_bc(const double *y, const double *par) { return y[0] - par[2]; }

static void duff_rhs(double t, const double *y, const double *par, double *dy) {
  dy[0] = y[1];
  dy[1] = -par[0] * y[1] - par[1] * y[0] - 0.5 * y[0] * y[0] * y[0] + 0.3 * cos(1.2 * t);
}
static void duff_jac(double t, const double *y, const double *par, double J[2][2]) {
  (void)t;
  J[0][0] = 0; J[0][1] = 1;
  J[1][0] = -par[1] - 1.5 * y[0] * y[0]; J[1][1] = -par[0];
}
static double duff_bc(const double *y, const double *par) { return y[0] + 0.5 * y[1] - par[2]; }

static const Model models[] = {
    {"pendulum", pend_rhs, pend_jac, pend_bc},
    {"duffing", duff_rhs, duff_jac, duff_bc},
};

/* augmented state z = (y0, y1, dy0/ds, dy1/ds) */
static void aug_rhs(const Model *m, double t, const double *z, const double *par, double *dz) {
  double J[2][2];
  m->rhs(t, z, par, dz);
  m->jac(t, z, par, J);
  dz[2] = J[0][0] * z[2] + J[0][1] * z[3];
  dz[3] = J[1][0] * z[2] + J[1][1] * z[3];
}

static double integrate(const Model *m, double s, const double *par, double T, int nsteps, double *zend) {
  double z[4] = {0.2, s, 0.0, 1.0}, k1[4], k2[4], k3[4], k4[4], tmp[4];
  double h = T / nsteps, t = 0.0, quad = 0.0;
  for (int n = 0; n < nsteps; n++) {
    aug_rhs(m, t, z, par, k1);
    for (int i = 0; i < 4; i++) tmp[i] = z[i] + 0.5 * h * k1[i];
    aug_rhs(m, t + 0.5 * h, tmp, par, k2);
    for (int i = 0; i < 4; i++) tmp[i] = z[i] + 0.5 * h * k2[i];
    aug_rhs(m, t + 0.5 * h, tmp, par, k3);
    for (int i = 0; i < 4; i++) tmp[i] = z[i] + h * k3[i];
    aug_rhs(m, t + h, tmp, par, k4);
    double before = z[0] * z[0];
    for (int i = 0; i < 4; i++) z[i] += h / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
    quad += 0.5 * h * (before + z[0] * z[0]);
    t += h;
  }
  memcpy(zend, z, sizeof z);
  return quad;
}

static double shoot(const Model *m, const double *par, double *quad_out) {
  double s = 0.0, z[4], quad = 0.0;
  for (int it = 0; it < 10; it++) {
    quad = integrate(m, s, par, 2.0, 80, z);
    double F = m->bc(z, par);
    /* dF/ds by a difference of the boundary functional along the sensitivity */
    double zp[2] = {z[0] + 1e-7 * z[2], z[1] + 1e-7 * z[3]};
    double dF = (m->bc(zp, par) - F) / 1e-7;
    s -= F / dF;
  }
  *quad_out = quad;
  return s;
}

double shooting_objective(const double *par) {
  double total = 0.0;
  for (size_t k = 0; k < sizeof models / sizeof models[0]; k++) {
    double quad;
    double s = shoot(&models[k], par, &quad);
    total += s + 0.5 * quad;
  }
  return total;
}

static double par[3] = {0.3, 2.0, 0.7};

int main(void) {
  double fd[3], ad[3], dp[3] = {0};
  hunt_fd_step = 1e-3;
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(shooting_objective(par), par[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)shooting_objective, enzyme_dup, par, dp);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)shooting_objective, enzyme_dup, par, dp);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

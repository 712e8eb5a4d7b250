#include "hunt.h"
/* Stiff van der Pol oscillator by backward Euler; each step solves the implicit equations with
   Newton's method (2x2 Jacobian by Cramer's rule) until the update is below a tolerance, and
   falls back to halving the step when Newton fails to converge.  Outputs the trajectory's
   end point through an array.  Inputs: mu and the initial state. */
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
void __enzyme_autodiff_void(void *, ...);
void __enzyme_fwddiff_void(void *, ...);
void *__enzyme_augmentfwd_void(void *, ...);
void __enzyme_reverse_void(void *, ...);

typedef struct { double mu; int newton_iters, halvings; } Stats;

static int newton_step(double mu, const double *yold, double *y, double h) {
  for (int it = 0; it < 30; it++) {
    double f0 = y[0] - yold[0] - h * y[1];
    double f1 = y[1] - yold[1] - h * (mu * (1 - y[0] * y[0]) * y[1] - y[0]);
    double j00 = 1.0, j01 = -h;
    double j10 = -h * (-2.0 * mu * y[0] * y[1] - 1.0), j11 = 1.0 - h * mu * (1 - y[0] * y[0]);
    double det = j00 * j11 - j01 * j10;
    double d0 = (f0 * j11 - j01 * f1) / det, d1 = (j00 * f1 - j10 * f0) / det;
    y[0] -= d0;
    y[1] -= d1;
    if (fabs(d0) + fabs(d1) < 1e-13 * (1 + fabs(y[0]) + fabs(y[1]))) return it + 1;
  }
  return -1;
}

void vdp_backward_euler(const double *mu, const double *y0, double *yend, double t_end, int nsteps, Stats *st) {
  double y[2] = {y0[0], y0[1]}, yold[2];
  double h = t_end / nsteps, t = 0.0;
  st->newton_iters = st->halvings = 0;
  while (t < t_end - 1e-12) {
    if (t + h > t_end) h = t_end - t;
    yold[0] = y[0]; yold[1] = y[1];
    int its = newton_step(*mu, yold, y, h);
    if (its < 0) { y[0] = yold[0]; y[1] = yold[1]; h *= 0.5; st->halvings++; continue; }
    st->newton_iters += its;
    t += h;
  }
  yend[0] = y[0];
  yend[1] = y[1];
}

static double mu = 3.0, y0v[2] = {2.0, 0.0}, t_end = 1.5;
static Stats st;
static double J(void) {
  double ye[2];
  vdp_backward_euler(&mu, y0v, ye, t_end, 60, &st);
  return ye[0] + 0.3 * ye[1];
}

int main(void) {
  enum { NP = 3 };
  double *prim[NP] = {&mu, &y0v[0], &y0v[1]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* Newton iteration counts are piecewise constant */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(J(), *prim[q]);
  double dmu = 0, dy0[2] = {0}, ye[2], dye[2];
  double *shad[NP] = {&dmu, &dy0[0], &dy0[1]};
#ifdef MODE_REV
  dye[0] = 1.0; dye[1] = 0.3;
  __enzyme_autodiff_void((void *)vdp_backward_euler, enzyme_dup, &mu, &dmu, enzyme_dup, y0v, dy0, enzyme_dupnoneed,
                         ye, dye, enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    __enzyme_fwddiff_void((void *)vdp_backward_euler, enzyme_dup, &mu, &dmu, enzyme_dup, y0v, dy0, enzyme_dup, ye, dye,
                          enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st);
    *shad[q] = 0.0;
    ad[q] = dye[0] + 0.3 * dye[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dmu2 = 0, dy02[2] = {0}, dye2[2];
  dmu = 1.0; dy02[0] = 1.0;
  __enzyme_fwddiff_void((void *)vdp_backward_euler, enzyme_width, 2, enzyme_dup, &mu, &dmu, &dmu2, enzyme_dup, y0v,
                        dy0, dy02, enzyme_dup, ye, dye, dye2, enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st);
  ad[0] = dye[0] + 0.3 * dye[1]; ad[1] = dye2[0] + 0.3 * dye2[1];
  hunt_check_vec("grad", ad, fd, 2);
#endif
#ifdef MODE_SPLIT
  void *tape = __enzyme_augmentfwd_void((void *)vdp_backward_euler, enzyme_dup, &mu, &dmu, enzyme_dup, y0v, dy0,
                                        enzyme_dup, ye, dye, enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st);
  dye[0] = 1.0; dye[1] = 0.3;
  __enzyme_reverse_void((void *)vdp_backward_euler, enzyme_dup, &mu, &dmu, enzyme_dup, y0v, dy0, enzyme_dup, ye, dye,
                        enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st, tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  /* two output weightings at once: lane 1 is the objective's, lane 2 d(ye[1]) alone */
  double dmu2 = 0, dy02[2] = {0}, dye2[2] = {0.0, 1.0}, fd2[NP];
  dye[0] = 1.0; dye[1] = 0.3;
  __enzyme_autodiff_void((void *)vdp_backward_euler, enzyme_width, 2, enzyme_dup, &mu, &dmu, &dmu2, enzyme_dup, y0v,
                         dy0, dy02, enzyme_dup, ye, dye, dye2, enzyme_const, t_end, enzyme_const, 60, enzyme_const, &st);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
  double *shad2[NP] = {&dmu2, &dy02[0], &dy02[1]};
  for (int q = 0; q < NP; q++) {
    ad[q] = *shad2[q];
    fd2[q] = HUNT_FD((vdp_backward_euler(&mu, y0v, ye, t_end, 60, &st), ye[1]), *prim[q]);
  }
  hunt_check_vec("grad_y1", ad, fd2, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Dormand-Prince 5(4) with adaptive step-size control (accept/reject, safety factor, growth limits,
   last step clipped to land on t_end), on the Lotka-Volterra system with parameters p[4].
   Objective: a combination of the final state.  Inputs: parameters and initial state. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef void (*rhs_fn)(double t, const double *y, double *dy, const double *p);

static void lotka_volterra(double t, const double *y, double *dy, const double *p) {
  (void)t;
  dy[0] = p[0] * y[0] - p[1] * y[0] * y[1];
  dy[1] = p[3] * y[0] * y[1] - p[2] * y[1];
}

static const double C[7] = {0, 1.0 / 5, 3.0 / 10, 4.0 / 5, 8.0 / 9, 1, 1};
static const double A[7][6] = {
    {0},
    {1.0 / 5},
    {3.0 / 40, 9.0 / 40},
    {44.0 / 45, -56.0 / 15, 32.0 / 9},
    {19372.0 / 6561, -25360.0 / 2187, 64448.0 / 6561, -212.0 / 729},
    {9017.0 / 3168, -355.0 / 33, 46732.0 / 5247, 49.0 / 176, -5103.0 / 18656},
    {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84}};
static const double B5[7] = {35.0 / 384, 0, 500.0 / 1113, 125.0 / 192, -2187.0 / 6784, 11.0 / 84, 0};
static const double B4[7] = {5179.0 / 57600, 0, 7571.0 / 16695, 393.0 / 640, -92097.0 / 339200, 187.0 / 2100, 1.0 / 40};

enum { DIM = 2 };

/* Integrates y in place from t0 to t1; returns the number of accepted steps. */
static int dopri5(rhs_fn f, double *y, const double *p, double t0, double t1, double rtol, double atol) {
  double k[7][DIM], ytmp[DIM], ynew[DIM], t = t0, h = 0.01 * (t1 - t0);
  int accepted = 0;
  while (t < t1) {
    if (t + h > t1) h = t1 - t;
    for (int s = 0; s < 7; s++) {
      for (int i = 0; i < DIM; i++) {
        double acc = y[i];
        for (int j = 0; j < s; j++) acc += h * A[s][j] * k[j][i];
        ytmp[i] = acc;
      }
      f(t + C[s] * h, ytmp, k[s], p);
    }
    double err = 0.0;
    for (int i = 0; i < DIM; i++) {
      double y5 = y[i], y4 = y[i];
      for (int s = 0; s < 7; s++) { y5 += h * B5[s] * k[s][i]; y4 += h * B4[s] * k[s][i]; }
      ynew[i] = y5;
      double sc = atol + rtol * fmax(fabs(y[i]), fabs(y5));
      err = fmax(err, fabs(y5 - y4) / sc);
    }
    double factor = err == 0.0 ? 5.0 : fmin(5.0, fmax(0.2, 0.9 * pow(err, -0.2)));
    if (err <= 1.0) {
      t += h;
      memcpy(y, ynew, sizeof ynew);
      accepted++;
    }
    h *= factor;
  }
  return accepted;
}

double final_state(const double *p, double *y0, double t_end) {
  dopri5(lotka_volterra, y0, p, 0.0, t_end, 1e-9, 1e-12);
  return y0[0] + 2.0 * y0[1];
}

enum { NP = 6 };
static double p[4] = {1.1, 0.4, 0.4, 0.1}, yinit[2] = {10.0, 5.0}, y[2], t_end = 3.0;
static double run(void) { memcpy(y, yinit, sizeof y); return final_state(p, y, t_end); }

int main(void) {
  hunt_fd_step = 1e-6; /* the accepted step sequence is piecewise constant in the inputs */
  double *prim[NP] = {&p[0], &p[1], &p[2], &p[3], &yinit[0], &yinit[1]};
  double fd[NP + 1], ad[NP + 1];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(run(), *prim[q]);
  fd[NP] = HUNT_FD(run(), t_end);
  double dp[4] = {0}, dy[2] = {0};
  double *shad[NP] = {&dp[0], &dp[1], &dp[2], &dp[3], &dy[0], &dy[1]};
#ifdef MODE_REV
  memcpy(y, yinit, sizeof y);
  ad[NP] = __enzyme_autodiff((void *)final_state, enzyme_dup, p, dp, enzyme_dup, y, dy, t_end);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  for (int q = 0; q <= NP; q++) {
    memset(dp, 0, sizeof dp); memset(dy, 0, sizeof dy);
    if (q < NP) *shad[q] = 1.0;
    memcpy(y, yinit, sizeof y);
    ad[q] = __enzyme_fwddiff((void *)final_state, enzyme_dup, p, dp, enzyme_dup, y, dy, t_end, q == NP ? 1.0 : 0.0);
  }
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_BATCH
  double dp2[4], dy2[2];
  double *shad2[NP] = {&dp2[0], &dp2[1], &dp2[2], &dp2[3], &dy2[0], &dy2[1]};
  for (int q = 0; q < NP; q += 2) {
    memset(dp, 0, sizeof dp); memset(dy, 0, sizeof dy); memset(dp2, 0, sizeof dp2); memset(dy2, 0, sizeof dy2);
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    memcpy(y, yinit, sizeof y);
    v2 t = __enzyme_fwddiff_v2((void *)final_state, enzyme_width, 2, enzyme_dup, p, dp, dp2, enzyme_dup, y, dy, dy2,
                               t_end, 0.0, 0.0);
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  memcpy(y, yinit, sizeof y);
  aug_t r = __enzyme_augmentfwd((void *)final_state, enzyme_dup, p, dp, enzyme_dup, y, dy, t_end);
  hunt_check("primal", r.primal, run());
  ad[NP] = __enzyme_reverse((void *)final_state, enzyme_dup, p, dp, enzyme_dup, y, dy, t_end, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

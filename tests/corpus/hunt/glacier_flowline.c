#include "hunt.h"
/* Mountain glacier flowline model in the shallow-ice approximation, the way a glaciologist writes it for a
   class: a bed profile sampled from a piecewise-linear valley table, Glen's flow law with n = 3 through
   `pow(fabs(slope), n - 1)`, a staggered diffusivity D = 2A/(n+2) (rho g)^n H^(n+2) |ds/dx|^(n-1), a
   linear mass balance above and below the equilibrium-line altitude capped by a maximum accumulation
   (fmin), thickness kept non-negative (fmax), an adaptive time step from the largest diffusivity (CFL,
   fmin with the output interval), a config struct through a pointer, and a yearly log line to stderr.
   Objective: ice volume and terminus-length proxy after a spin-up.  Inputs: rate factor scale, ELA,
   mass-balance gradient, max accumulation (struct, dup) and sliding-free bed overdeepening depth. */
typedef struct {
  double a_scale;   /* multiplies A = 2.4e-24 Pa^-3 s^-1 (temperate ice) */
  double ela;       /* m */
  double beta;      /* m ice / yr / m */
  double b_max;     /* m / yr */
} glacier_params;

#define NX 60
#define DX 200.0
static const double RHO = 910.0, G = 9.81, GLEN_N = 3.0, SEC_PER_YR = 31556926.0;
static const double VALLEY_X[] = {0.0, 3000.0, 6000.0, 9000.0, 12000.0};
static const double VALLEY_Z[] = {3000.0, 2550.0, 2250.0, 2050.0, 1950.0};

static double bed_height(double x, double overdeepening) {
  int n = (int)(sizeof VALLEY_X / sizeof VALLEY_X[0]);
  double z = VALLEY_Z[n - 1];
  for (int i = 0; i < n - 1; i++)
    if (x <= VALLEY_X[i + 1]) {
      double w = (x - VALLEY_X[i]) / (VALLEY_X[i + 1] - VALLEY_X[i]);
      z = (1 - w) * VALLEY_Z[i] + w * VALLEY_Z[i + 1];
      break;
    }
  /* a Gaussian basin carved by earlier glaciations */
  return z - overdeepening * exp(-pow((x - 4000.0) / 1200.0, 2));
}

static double mass_balance(const glacier_params *p, double surface) {
  return fmin(p->beta * (surface - p->ela), p->b_max);
}

double glacier_run(const glacier_params *p, double overdeepening, double years) {
  double bed[NX], H[NX], flux[NX + 1];
  for (int i = 0; i < NX; i++) {
    bed[i] = bed_height((i + 0.5) * DX, overdeepening);
    H[i] = 0.0;
  }
  const double A = 2.4e-24 * p->a_scale * SEC_PER_YR;  /* per year */
  const double gamma = 2.0 * A / (GLEN_N + 2.0) * pow(RHO * G, GLEN_N);
  double t = 0.0, next_log = 0.0;
  int steps = 0;
  while (t < years) {
    double dmax = 1e-6;
    flux[0] = 0.0;      /* ice divide */
    flux[NX] = 0.0;
    for (int i = 1; i < NX; i++) {
      double s_l = bed[i - 1] + H[i - 1], s_r = bed[i] + H[i];
      double slope = (s_r - s_l) / DX;
      double h_face = 0.5 * (H[i - 1] + H[i]);
      double D = gamma * pow(h_face, GLEN_N + 2.0) * pow(fabs(slope), GLEN_N - 1.0);
      if (D > dmax) dmax = D;
      flux[i] = -D * slope;
    }
    double dt = fmin(0.2 * DX * DX / dmax, 1.0);
    if (t + dt > years) dt = years - t;
    for (int i = 0; i < NX; i++) {
      double b = mass_balance(p, bed[i] + H[i]);
      H[i] = fmax(H[i] + dt * (b - (flux[i + 1] - flux[i]) / DX), 0.0);
    }
    t += dt;
    steps++;
    if (t >= next_log) {
      fprintf(stderr, "t=%6.1f yr dt=%.3f H0=%.2f\n", t, dt, H[0]);
      next_log += 50.0;
    }
  }
  double volume = 0.0, length = 0.0;
  for (int i = 0; i < NX; i++) {
    volume += H[i] * DX;
    length += DX * tanh(H[i] / 20.0); /* smooth "glacierised" length */
  }
  return volume / 1e6 + length / 1e3;
}

static glacier_params gp = {1.0, 2600.0, 0.007, 2.0};
int main(void) {
  double od = 80.0, yrs = 150.0, fd[5], ad[5];
  hunt_fd_step = 1e-7; /* thickness clipped at the moving terminus: many small kinks */
  printf("objective %.12g\n", glacier_run(&gp, od, yrs));
  fd[0] = HUNT_FD(glacier_run(&gp, od, yrs), gp.a_scale);
  fd[1] = HUNT_FD(glacier_run(&gp, od, yrs), gp.ela);
  fd[2] = HUNT_FD(glacier_run(&gp, od, yrs), gp.beta);
  fd[3] = HUNT_FD(glacier_run(&gp, od, yrs), gp.b_max);
  fd[4] = HUNT_FD(glacier_run(&gp, od, yrs), od);
#ifdef MODE_REV
  glacier_params dg = {0};
  ad[4] = __enzyme_autodiff((void *)glacier_run, enzyme_dup, &gp, &dg, enzyme_out, od, enzyme_const, yrs);
  ad[0] = dg.a_scale; ad[1] = dg.ela; ad[2] = dg.beta; ad[3] = dg.b_max;
#endif
#ifdef MODE_FWD
  glacier_params seeds[4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, zero = {0};
  for (int k = 0; k < 4; k++)
    ad[k] = __enzyme_fwddiff((void *)glacier_run, enzyme_dup, &gp, &seeds[k], enzyme_const, od, enzyme_const, yrs);
  ad[4] = __enzyme_fwddiff((void *)glacier_run, enzyme_dup, &gp, &zero, enzyme_dup, od, 1.0, enzyme_const, yrs);
#endif
  hunt_check_vec("grad", ad, fd, 5);
  return hunt_finish();
}

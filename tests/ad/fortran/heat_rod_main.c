/* heat_rod.f90: inputs are the initial temperatures of N cells, then k0 and beta. */
#include "modes_check.h"

double rod_objective(const double *t0, int n, double k0, double beta, int nsteps);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
pair_t __enzyme_fwddiff_pair(void *, ...);
typedef struct { double d[2]; } out2_t;
out2_t __enzyme_autodiff_out2(void *, ...);
augmented_t __enzyme_augmentfwd(void *, ...);
out2_t __enzyme_reverse_out2(void *, ...);

enum { N = 12, STEPS = 30 };

static double objective(double *x) { return rod_objective(x, N, x[N], x[N + 1], STEPS); }

static void gradient(double *x, double *dx) {
  out2_t g = __enzyme_autodiff_out2((void *)rod_objective, enzyme_dup, x, dx, enzyme_const, N, x[N], x[N + 1],
                                    enzyme_const, STEPS);
  dx[N] += g.d[0];
  dx[N + 1] += g.d[1];
}

static double tangent(double *x, double *t) {
  return __enzyme_fwddiff((void *)rod_objective, enzyme_dup, x, t, enzyme_const, N, x[N], t[N], x[N + 1], t[N + 1],
                          enzyme_const, STEPS);
}

static void tangent2(double *x, double *t1, double *t2, double r[2]) {
  pair_t p = __enzyme_fwddiff_pair((void *)rod_objective, enzyme_width, 2, enzyme_dup, x, t1, t2, enzyme_const, N,
                                   x[N], t1[N], t2[N], x[N + 1], t1[N + 1], t2[N + 1], enzyme_const, STEPS);
  r[0] = p.d[0];
  r[1] = p.d[1];
}

static double split(double *x, double *dx) {
  augmented_t a = __enzyme_augmentfwd((void *)rod_objective, enzyme_dup, x, dx, enzyme_const, N, x[N], x[N + 1],
                                      enzyme_const, STEPS);
  out2_t g = __enzyme_reverse_out2((void *)rod_objective, enzyme_dup, x, dx, enzyme_const, N, x[N], x[N + 1],
                                   enzyme_const, STEPS, 1.0, a.tape);
  dx[N] += g.d[0];
  dx[N + 1] += g.d[1];
  return a.primal;
}

int main(void) {
  double x[N + 2];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.5 * sin(0.7 * i);
  x[N] = 0.02;
  x[N + 1] = 0.8;
  return check_modes("rod_objective", x, N + 2) != 0;
}

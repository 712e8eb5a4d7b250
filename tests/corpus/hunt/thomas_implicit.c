#include "hunt.h"
/* Implicit (backward Euler) 1-D heat equation with a temperature-dependent conductivity, solved each
   step with the Thomas algorithm; boundary conditions chosen by an enum in a switch; state buffers
   from calloc, copied with memcpy.  Objective: heat flux at the right wall after the last step.
   Inputs: initial temperatures T0 (dup) and the conductivity slope beta (active). */
typedef enum { BC_DIRICHLET, BC_NEUMANN } bc_kind;
typedef struct { bc_kind left, right; double left_value, right_value; } boundary;

static void thomas(int n, const double *a, const double *b, const double *c, double *d, double *work) {
  /* a: sub, b: main, c: super diagonal; d: right-hand side, overwritten by the solution */
  work[0] = c[0] / b[0];
  d[0] = d[0] / b[0];
  for (int i = 1; i < n; i++) {
    double m = b[i] - a[i] * work[i - 1];
    work[i] = c[i] / m;
    d[i] = (d[i] - a[i] * d[i - 1]) / m;
  }
  for (int i = n - 2; i >= 0; i--) d[i] -= work[i] * d[i + 1];
}

double wall_flux(const double *T0, int n, double beta, int steps, const boundary *bc) {
  double *T = calloc(n, sizeof *T), *rhs = calloc(n, sizeof *rhs);
  double *a = calloc(n, sizeof *a), *b = calloc(n, sizeof *b), *c = calloc(n, sizeof *c), *w = calloc(n, sizeof *w);
  memcpy(T, T0, n * sizeof *T);
  double dx = 1.0 / (n - 1), dt = 1e-3;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++) {
      double k = 1.0 + beta * T[i]; /* conductivity lagged from the previous step */
      double lam = k * dt / (dx * dx);
      a[i] = -lam; b[i] = 1 + 2 * lam; c[i] = -lam; rhs[i] = T[i];
    }
    switch (bc->left) {
    case BC_DIRICHLET: b[0] = 1; c[0] = 0; rhs[0] = bc->left_value; break;
    case BC_NEUMANN: c[0] = -2 * (-a[0]); break;
    }
    switch (bc->right) {
    case BC_DIRICHLET: b[n - 1] = 1; a[n - 1] = 0; rhs[n - 1] = bc->right_value; break;
    case BC_NEUMANN: a[n - 1] = -2 * (-c[n - 1]); break;
    }
    thomas(n, a, b, c, rhs, w);
    memcpy(T, rhs, n * sizeof *T);
  }
  double flux = -(1.0 + beta * T[n - 1]) * (T[n - 1] - T[n - 2]) / dx;
  free(T); free(rhs); free(a); free(b); free(c); free(w);
  return flux;
}

enum { N = 24, STEPS = 15, NP = 5 };
static double T0[N];
static const int probes[NP] = {1, 5, 11, 17, 22};
int main(void) {
  for (int i = 0; i < N; i++) T0[i] = 300 + 20 * sin(M_PI * i / (N - 1)) + 0.5 * i;
  boundary bc = {BC_NEUMANN, BC_DIRICHLET, 0.0, 305.0};
  double beta = 2e-3, fd[NP + 1], ad[NP + 1];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(wall_flux(T0, N, beta, STEPS, &bc), T0[probes[k]]);
  fd[NP] = HUNT_FD(wall_flux(T0, N, beta, STEPS, &bc), beta);
#ifdef MODE_REV
  double dT0[N] = {0};
  ad[NP] = __enzyme_autodiff((void *)wall_flux, enzyme_dup, T0, dT0, enzyme_const, N, enzyme_out, beta,
                             enzyme_const, STEPS, enzyme_const, &bc);
  for (int k = 0; k < NP; k++) ad[k] = dT0[probes[k]];
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
#ifdef MODE_FWD
  double dT0[N] = {0};
  for (int k = 0; k < NP; k++) {
    dT0[probes[k]] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)wall_flux, enzyme_dup, T0, dT0, enzyme_const, N, enzyme_dup, beta, 0.0,
                             enzyme_const, STEPS, enzyme_const, &bc);
    dT0[probes[k]] = 0.0;
  }
  ad[NP] = __enzyme_fwddiff((void *)wall_flux, enzyme_dup, T0, dT0, enzyme_const, N, enzyme_dup, beta, 1.0,
                            enzyme_const, STEPS, enzyme_const, &bc);
  hunt_check_vec("grad", ad, fd, NP + 1);
#endif
  return hunt_finish();
}

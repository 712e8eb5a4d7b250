#include "check.h"
/* Implicit Euler for the 1-D heat equation, written like a legacy solver: the tridiagonal (Thomas) solve and
   the time stepper keep their work arrays in `static` locals, sized once for the largest grid.  The objective
   (the thermal energy after a few steps) is differentiated with respect to the initial temperatures and the
   diffusivity, checked against central differences in reverse, forward, batch and split mode; calling the
   derivative twice gives the same answer. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);

#define NMAX 64

static void thomas(int n, const double *a, const double *b, const double *c, const double *d, double *x) {
  static double cp[NMAX], dp[NMAX];
  cp[0] = c[0] / b[0];
  dp[0] = d[0] / b[0];
  for (int i = 1; i < n; i++) {
    double m = b[i] - a[i] * cp[i - 1];
    cp[i] = c[i] / m;
    dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
  }
  x[n - 1] = dp[n - 1];
  for (int i = n - 2; i >= 0; i--) x[i] = dp[i] - cp[i] * x[i + 1];
}

double heat_energy(const double *u0, double kappa, int n, int steps) {
  static double u[NMAX], next[NMAX], lower[NMAX], diag[NMAX], upper[NMAX];
  const double h = 1.0 / (n + 1), dt = 0.01;
  double r = kappa * dt / (h * h);
  for (int i = 0; i < n; i++) {
    u[i] = u0[i];
    lower[i] = -r;
    diag[i] = 1 + 2 * r;
    upper[i] = -r;
  }
  for (int s = 0; s < steps; s++) {
    thomas(n, lower, diag, upper, u, next);
    for (int i = 0; i < n; i++) u[i] = next[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++) e += u[i] * u[i] * h;
  return e;
}

enum { N = 12, STEPS = 5 };

int main(void) {
  double u0[N], fd[N], g1[N] = {0}, g2[N] = {0};
  const double kappa = 0.3;
  for (int i = 0; i < N; i++) u0[i] = sin(3.0 * (i + 1) / (N + 1)) + 0.1 * i;
  double u[N];
  for (int i = 0; i < N; i++) u[i] = u0[i];
  for (int i = 0; i < N; i++) fd[i] = CENTRAL(heat_energy(u, kappa, N, STEPS), u[i], u0[i]);
  double kv = kappa, fdk = CENTRAL(heat_energy(u0, kv, N, STEPS), kv, kappa);

  double dk1 = __enzyme_autodiff((void *)heat_energy, enzyme_dup, u0, g1, kappa, enzyme_const, N, enzyme_const, STEPS);
  double dk2 = __enzyme_autodiff((void *)heat_energy, enzyme_dup, u0, g2, kappa, enzyme_const, N, enzyme_const, STEPS);
  check("reverse dkappa", dk1, fdk, 1e-6);
  check("reverse dkappa twice", dk2, dk1, 1e-14);
  for (int i = 0; i < N; i++) {
    check("reverse du0", g1[i], fd[i], 1e-6);
    check("reverse du0 twice", g2[i], g1[i], 1e-14);
  }

  double zero[N] = {0};
  check("forward dkappa", __enzyme_fwddiff((void *)heat_energy, u0, zero, kappa, 1.0, N, STEPS), fdk, 1e-6);
  for (int i = 0; i < N; i += 3) {
    double dir[N] = {0};
    dir[i] = 1;
    check("forward du0", __enzyme_fwddiff((void *)heat_energy, u0, dir, kappa, 0.0, N, STEPS), fd[i], 1e-6);
    check("forward du0 again", __enzyme_fwddiff((void *)heat_energy, u0, dir, kappa, 0.0, N, STEPS), fd[i], 1e-6);
  }

  double d1[N] = {0};
  d1[5] = 1;
  v2 both = __enzyme_fwddiff_v2((void *)heat_energy, enzyme_width, 2, u0, zero, d1, kappa, 1.0, 0.0, N, STEPS);
  check("batch forward dkappa", both.d[0], fdk, 1e-6);
  check("batch forward du0[5]", both.d[1], fd[5], 1e-6);

  double s[N] = {0};
  aug_t aug = __enzyme_augmentfwd((void *)heat_energy, enzyme_dup, u0, s, kappa, enzyme_const, N, enzyme_const, STEPS);
  heat_energy(u0, 2.0, N, 1);  /* the static arrays change before the reverse sweep runs */
  double dks = __enzyme_reverse((void *)heat_energy, enzyme_dup, u0, s, kappa, enzyme_const, N, enzyme_const, STEPS,
                                1.0, aug.tape);
  check("split dkappa", dks, fdk, 1e-6);
  for (int i = 0; i < N; i++) check("split du0", s[i], fd[i], 1e-6);
  return finish();
}

#include "check.h"
/* Loops marked as fixed points from inside (__enzyme_set_fixed_point, as a Fortran FIXED_POINT directive
   lowers): a while loop tested in its header carrying an iteration count and a tightening tolerance, and a
   do-while loop tested at its end with a local state array.  pyenzyme outlines one iteration and
   differentiates at the converged state; the gradients are checked against central differences of the
   unmarked loops, and the iteration count and final state against the unmarked run. */
#include <stdint.h>
#include <string.h>

void __enzyme_set_fixed_point(double reduction, int64_t max_iters, void *control, ...);

enum { N = 4 };
double state[N], coef[N];
int64_t sweeps;

__attribute__((noinline)) static double sweep(double tol) {
  double nxt[N], change = 0;
  for (int k = 0; k < N; k++)
    nxt[k] = 0.3 * sin(state[k] + 0.4 * state[(k + 1) % N]) + coef[k] * (1 + 0.1 * state[(k + 3) % N]);
  for (int k = 0; k < N; k++) {
    change = fmax(change, fabs(nxt[k] - state[k]));
    state[k] = nxt[k];
  }
  return change > tol ? change : 0;
}

static double energy(void) {
  double s = 0;
  for (int k = 0; k < N; k++) s += state[k] * state[k] * coef[k] + state[k];
  return s;
}

static double solve_while(const double *c, int marked) {
  for (int k = 0; k < N; k++) { state[k] = 0; coef[k] = c[k]; }
  double change = 1, tol = 1e-6;
  int64_t n = 0;
  while (change > 0) {
    if (marked) __enzyme_set_fixed_point(1e-28, (int64_t)-1, (void *)0, state, (int64_t)sizeof(state));
    change = sweep(tol);
    tol = fmax(tol * 0.01, 1e-15);
    n++;
  }
  sweeps = n;
  return energy();
}
static double while_plain(const double *c) { return solve_while(c, 0); }
static double while_marked(const double *c) { return solve_while(c, 1); }

/* A local state, relaxed in place until it stops changing. */
__attribute__((noinline)) static int relax(double *v, const double *c) {
  double change = 0;
  for (int k = 0; k < N; k++) {
    double nv = 0.5 * v[k] + 0.25 * cos(v[(k + 1) % N]) * c[k] + 0.2 * c[(k + 2) % N];
    change = fmax(change, fabs(nv - v[k]));
    v[k] = nv;
  }
  return change > 1e-15;
}

static double solve_do(const double *c, int marked) {
  double v[N] = {0};
  int again;
  do {
    if (marked) __enzyme_set_fixed_point(1e-28, (int64_t)-1, (void *)0, v, (int64_t)sizeof(v));
    again = relax(v, c);
  } while (again);
  double s = 0;
  for (int k = 0; k < N; k++) s += v[k] * v[k] * (k + 1);
  return s;
}
static double do_plain(const double *c) { return solve_do(c, 0); }
static double do_marked(const double *c) { return solve_do(c, 1); }

int main(void) {
  double c[N] = {0.2, 0.35, -0.1, 0.15}, dc[N] = {0}, dc0[N] = {0};
  __enzyme_autodiff((void *)while_plain, enzyme_dup, c, dc0);
  int64_t n0 = sweeps;
  double s0[N];
  memcpy(s0, state, sizeof state);
  __enzyme_autodiff((void *)while_marked, enzyme_dup, c, dc);
  check("same number of sweeps", (double)sweeps, (double)n0, 0.0);
  check("same final state", (double)memcmp(state, s0, sizeof state), 0.0, 0.0);
  for (int k = 0; k < N; k++) {
    check("while: central", dc[k], CENTRAL(while_plain(c), c[k], c[k]), 1e-6);
    check("while: through the iterations", dc[k], dc0[k], 1e-10);
  }
  /* Forward mode through the marked loop: the tangent along a direction of c. */
  double dir[N] = {1.0, -0.5, 0.25, 2.0}, h = 1e-6, cp[N], cm[N];
  for (int k = 0; k < N; k++) { cp[k] = c[k] + h * dir[k]; cm[k] = c[k] - h * dir[k]; }
  double t = __enzyme_fwddiff((void *)while_marked, enzyme_dup, c, dir);
  check("while: forward", t, (while_plain(cp) - while_plain(cm)) / (2 * h), 1e-6);
  check("while: forward equals reverse", t, dot(dc, dir, N), 1e-9);
  double e[N] = {0}, e0[N] = {0};
  __enzyme_autodiff((void *)do_plain, enzyme_dup, c, e0);
  __enzyme_autodiff((void *)do_marked, enzyme_dup, c, e);
  for (int k = 0; k < N; k++) {
    check("do-while: central", e[k], CENTRAL(do_plain(c), c[k], c[k]), 1e-6);
    check("do-while: through the iterations", e[k], e0[k], 1e-10);
  }
  return finish();
}

#include "check.h"
/* enzyme_inactive, as upstream programs use it: calls of a marked function carry no derivative, neither
   through their result nor through what they write into pointer arguments.  A fit whose normalization is
   computed from the data but held constant, a small jitter term (enzyme_inactive_noblock), a monitor that
   copies the state into a history buffer, and a measurement noise model defined in another file and only
   declared here.  Checked against the analytic gradient with the marked parts held constant, in reverse,
   forward, split and batch mode. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);
int enzyme_nofree, enzyme_allocated;   /* upstream marker names stay plain variables */

enum { N = 3, HISTORY = 64 };
static double history[HISTORY];
static int recorded = 0;

__attribute__((enzyme_inactive)) void robust_scale(const double *x, int n, double *scale) {
  double s = 0;
  for (int i = 0; i < n; i++) s += fabs(x[i]);
  *scale = s / n + 1.0;
}

[[enzyme::inactive]] void monitor(const double *x, int n) {
  for (int i = 0; i < n && recorded < HISTORY; i++) history[recorded++] = x[i];
}

__attribute__((enzyme_inactive_noblock)) double jitter(double x) { return 1e-3 * sin(40 * x); }

__attribute__((enzyme_inactive)) double measurement_noise(double t);   /* annotate_inactive_helper.c */

double loss(const double *x, int n, double t) {
  double scale;
  robust_scale(x, n, &scale);
  monitor(x, n);
  double r = 0;
  for (int i = 0; i < n; i++) r += (x[i] / scale) * (x[i] / scale);
  return r + jitter(x[0]) + measurement_noise(t) * x[1] * t;
}

int main(void) {
  double x[N] = {0.5, -1.25, 2.0}, t = 0.3;
  double scale = (0.5 + 1.25 + 2.0) / N + 1.0, noise = measurement_noise(t);
  double expect[N], dt_expect = noise * x[1];   /* noise(t) is a constant: d/dt = noise * x1 */
  for (int i = 0; i < N; i++) expect[i] = 2 * x[i] / (scale * scale) + (i == 1 ? noise * t : 0);

  double dx[N] = {0};
  double dt = __enzyme_autodiff((void *)loss, x, dx, N, t);
  for (int i = 0; i < N; i++) check("reverse dx", dx[i], expect[i], 1e-12);
  check("reverse dt", dt, dt_expect, 1e-12);
  check("monitor ran", recorded, N, 0);

  for (int i = 0; i < N; i++) {
    double tx[N] = {0};
    tx[i] = 1.0;
    check("forward dx", __enzyme_fwddiff((void *)loss, x, tx, N, t, 0.0), expect[i], 1e-12);
  }
  double zero[N] = {0};
  check("forward dt", __enzyme_fwddiff((void *)loss, x, zero, N, t, 1.0), dt_expect, 1e-12);

  double sx[N] = {0};
  aug_t aug = __enzyme_augmentfwd((void *)loss, x, sx, N, t);
  check("split primal", aug.primal, loss(x, N, t), 1e-15);
  double sdt = __enzyme_reverse((void *)loss, x, sx, N, t, 1.0, aug.tape);
  for (int i = 0; i < N; i++) check("split dx", sx[i], expect[i], 1e-12);
  check("split dt", sdt, dt_expect, 1e-12);

  double d1[N] = {1, 0, 0}, d2[N] = {0, 1, 0};
  v2 both = __enzyme_fwddiff_v2((void *)loss, enzyme_width, 2, x, d1, d2, N, t, 0.0, 0.0);
  check("batch forward 0", both.d[0], expect[0], 1e-12);
  check("batch forward 1", both.d[1], expect[1], 1e-12);
  return finish();
}

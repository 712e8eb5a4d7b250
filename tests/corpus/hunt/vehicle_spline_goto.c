#define _GNU_SOURCE
#include "hunt.h"
/* Longitudinal vehicle model on a hilly road: the road elevation is a natural cubic spline through survey
   points (given out of order, sorted with glibc qsort_r and a comparator taking a direction flag), the
   spline's second derivatives from a tridiagonal solve, the segment of a position found with libc bsearch
   over the knot intervals.  The driver logic is a goto-based state machine (accelerate / cruise / brake)
   stepping the speed and position with semi-implicit Euler.  Objective: fuel used (an integral of positive
   tractive power) plus a penalty on the arrival speed.  Inputs: mass, drag coefficient, cruise speed. */
enum { NK = 9 };

typedef struct { double x, z; } Survey;

static int by_station(const void *a, const void *b, void *dir) {
  const Survey *p = a, *q = b;
  int d = *(const int *)dir;
  return d * ((p->x > q->x) - (p->x < q->x));
}

typedef struct { double x[NK], z[NK], m2[NK]; } Spline;

static void spline_setup(Spline *s, const Survey *pts) {
  double a[NK], b[NK], c[NK], r[NK];
  for (int i = 0; i < NK; i++) { s->x[i] = pts[i].x; s->z[i] = pts[i].z; }
  a[0] = c[0] = 0; b[0] = 1; r[0] = 0;
  a[NK - 1] = c[NK - 1] = 0; b[NK - 1] = 1; r[NK - 1] = 0;
  for (int i = 1; i < NK - 1; i++) {
    double h0 = s->x[i] - s->x[i - 1], h1 = s->x[i + 1] - s->x[i];
    a[i] = h0 / 6; b[i] = (h0 + h1) / 3; c[i] = h1 / 6;
    r[i] = (s->z[i + 1] - s->z[i]) / h1 - (s->z[i] - s->z[i - 1]) / h0;
  }
  for (int i = 1; i < NK; i++) {
    double w = a[i] / b[i - 1];
    b[i] -= w * c[i - 1];
    r[i] -= w * r[i - 1];
  }
  s->m2[NK - 1] = r[NK - 1] / b[NK - 1];
  for (int i = NK - 2; i >= 0; i--) s->m2[i] = (r[i] - c[i] * s->m2[i + 1]) / b[i];
}

static int find_interval(const void *key, const void *elem) {
  double x = *(const double *)key;
  const double *lo = elem;
  if (x < lo[0]) return -1;
  if (x >= lo[1]) return 1;
  return 0;
}

/* slope dz/dx of the road at x */
static double road_slope(const Spline *s, double x) {
  if (x <= s->x[0]) x = s->x[0];
  if (x >= s->x[NK - 1]) x = s->x[NK - 1] - 1e-12;
  const double *hit = bsearch(&x, s->x, NK - 1, sizeof(double), find_interval);
  int i = hit ? (int)(hit - s->x) : NK - 2;
  double h = s->x[i + 1] - s->x[i];
  double A = (s->x[i + 1] - x) / h, B = (x - s->x[i]) / h;
  return (s->z[i + 1] - s->z[i]) / h - (3 * A * A - 1) / 6 * h * s->m2[i] + (3 * B * B - 1) / 6 * h * s->m2[i + 1];
}

double drive(const double *p, int nsteps) {
  double mass = p[0], cd = p[1], vcruise = p[2];
  static const Survey raw[NK] = {{400, 12}, {0, 0}, {150, 6}, {700, -4}, {50, 1}, {550, 8}, {300, 15}, {800, 0}, {220, 9}};
  Survey pts[NK];
  memcpy(pts, raw, sizeof pts);
  int ascending = 1;
  qsort_r(pts, NK, sizeof(Survey), by_station, &ascending);
  Spline road;
  spline_setup(&road, pts);
  const double g = 9.81, dt = 0.5, fmax_drive = 4000.0, fbrake = 6000.0;
  double x = 0.0, v = 5.0, fuel = 0.0, force;
  int n = 0;
accelerate:
  if (n >= nsteps) goto done;
  force = fmax_drive * (1.0 - v / (1.3 * vcruise));
  if (v > vcruise) goto cruise;
  goto step;
cruise:
  force = cd * v * v + mass * g * road_slope(&road, x) + 0.01 * mass * g;
  if (v > 1.15 * vcruise) goto brake;
  goto step;
brake:
  force = -fbrake * (v - vcruise) / vcruise;
  goto step;
step: {
  double slope = road_slope(&road, x);
  double acc = (force - cd * v * v - mass * g * slope - 0.01 * mass * g) / mass;
  v += dt * acc;
  x += dt * v;
  if (force > 0) fuel += dt * force * v * 2.5e-4;
  n++;
  if (v < vcruise) goto accelerate;
  if (n >= nsteps) goto done;
  goto cruise;
}
done:
  return fuel + 0.5 * (v - vcruise) * (v - vcruise);
}

static double p[3] = {1200.0, 0.45, 14.0};

int main(void) {
  const int nsteps = 60;
  double fd[3], ad[3], dp[3] = {0};
  hunt_fd_step = 1e-6;
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(drive(p, nsteps), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)drive, enzyme_dup, p, dp, enzyme_const, nsteps);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)drive, enzyme_dup, p, dp, enzyme_const, nsteps);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

#include "hunt.h"
/* Spatial interpolation of rain-gauge data: ordinary kriging with a spherical or exponential variogram
   (chosen by an enum through a function-pointer table), using the k nearest gauges of each target found
   by qsort of {distance, index} records, the kriging system (with its Lagrange multiplier row) solved by
   LU with partial pivoting on a malloc'd matrix, and inverse-distance weighting as the fallback when the
   system is singular.  Objective: leave-one-out cross-validation error plus a kriged areal mean.  Inputs:
   the gauge values (dup) and the variogram sill, range and nugget (dup, struct). */
typedef enum { SPHERICAL, EXPONENTIAL } vario_kind;
typedef struct { double sill, range, nugget; vario_kind kind; } variogram;
typedef struct { double x, y; } point;
typedef struct { double d; int idx; } neighbour;
typedef double (*vario_fn)(double h, const variogram *v);

static double spherical(double h, const variogram *v) {
  if (h <= 0) return 0.0;
  if (h >= v->range) return v->nugget + v->sill;
  double r = h / v->range;
  return v->nugget + v->sill * (1.5 * r - 0.5 * r * r * r);
}
static double exponential(double h, const variogram *v) {
  return h <= 0 ? 0.0 : v->nugget + v->sill * (1.0 - exp(-3.0 * h / v->range));
}
static const vario_fn VARIO[] = {spherical, exponential};

static int by_distance(const void *a, const void *b) {
  double da = ((const neighbour *)a)->d, db = ((const neighbour *)b)->d;
  return (da > db) - (da < db);
}

static int lu_solve(double *A, double *b, int n) { /* row-major, in place */
  int *perm = malloc(n * sizeof *perm);
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int k = 0; k < n; k++) {
    int p = k;
    for (int i = k + 1; i < n; i++) if (fabs(A[i * n + k]) > fabs(A[p * n + k])) p = i;
    if (fabs(A[p * n + k]) < 1e-12) { free(perm); return -1; }
    if (p != k) {
      for (int j = 0; j < n; j++) { double t = A[k * n + j]; A[k * n + j] = A[p * n + j]; A[p * n + j] = t; }
      double t = b[k]; b[k] = b[p]; b[p] = t;
      int ti = perm[k]; perm[k] = perm[p]; perm[p] = ti;
    }
    for (int i = k + 1; i < n; i++) {
      double m = A[i * n + k] /= A[k * n + k];
      for (int j = k + 1; j < n; j++) A[i * n + j] -= m * A[k * n + j];
      b[i] -= m * b[k];
    }
  }
  for (int i = n - 1; i >= 0; i--) {
    for (int j = i + 1; j < n; j++) b[i] -= A[i * n + j] * b[j];
    b[i] /= A[i * n + i];
  }
  free(perm);
  return 0;
}

/* estimate at target from gauges (skip == index to leave out, or -1) */
static double krige(const point *gauges, const double *z, int n, point target, int skip, const variogram *v, int k) {
  neighbour *nb = malloc(n * sizeof *nb);
  int m = 0;
  for (int i = 0; i < n; i++) {
    if (i == skip) continue;
    nb[m].d = hypot(gauges[i].x - target.x, gauges[i].y - target.y);
    nb[m].idx = i;
    m++;
  }
  qsort(nb, m, sizeof *nb, by_distance);
  if (k > m) k = m;
  int s = k + 1;
  double *A = calloc(s * s, sizeof *A), *rhs = calloc(s, sizeof *rhs);
  vario_fn gamma = VARIO[v->kind];
  for (int i = 0; i < k; i++) {
    for (int j = 0; j < k; j++) {
      const point *pi = &gauges[nb[i].idx], *pj = &gauges[nb[j].idx];
      A[i * s + j] = gamma(hypot(pi->x - pj->x, pi->y - pj->y), v);
    }
    A[i * s + k] = A[k * s + i] = 1.0;
    rhs[i] = gamma(nb[i].d, v);
  }
  rhs[k] = 1.0;
  double est = 0.0;
  if (lu_solve(A, rhs, s) == 0) {
    for (int i = 0; i < k; i++) est += rhs[i] * z[nb[i].idx];
  } else { /* inverse distance weighting */
    double wsum = 0.0;
    for (int i = 0; i < k; i++) { double w = 1.0 / pow(nb[i].d + 1e-9, 2.0); est += w * z[nb[i].idx]; wsum += w; }
    est /= wsum;
  }
  free(A); free(rhs); free(nb);
  return est;
}

double cv_objective(const point *gauges, const double *z, int n, const variogram *v) {
  double loo = 0.0;
  for (int i = 0; i < n; i++) {
    double e = krige(gauges, z, n, gauges[i], i, v, 6) - z[i];
    loo += e * e / n;
  }
  double areal = 0.0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) areal += krige(gauges, z, n, (point){10.0 + 30.0 * a, 12.0 + 28.0 * b}, -1, v, 6) / 9;
  return loo + 0.1 * areal;
}

enum { NG = 14 };
static point gauges[NG];
static double rain[NG];
static variogram vg = {40.0, 55.0, 2.0, SPHERICAL};
static double eval(void) { return cv_objective(gauges, rain, NG, &vg); }
int main(void) {
  for (int i = 0; i < NG; i++) {
    gauges[i].x = 50 + 40 * sin(2.3 * i + 0.4) * cos(0.7 * i);
    gauges[i].y = 50 + 38 * cos(1.9 * i) * sin(1.1 * i + 0.3);
    rain[i] = 20 + 0.3 * gauges[i].x - 0.1 * gauges[i].y + 6 * sin(0.9 * i);
  }
  double fd[NG + 3], ad[NG + 3];
  for (int pass = 0; pass < 2; pass++) {
    vg.kind = pass == 0 ? SPHERICAL : EXPONENTIAL;
    printf("objective (%s) %.12g\n", pass == 0 ? "spherical" : "exponential", eval());
    for (int i = 0; i < NG; i++) fd[i] = HUNT_FD(eval(), rain[i]);
    fd[NG] = HUNT_FD(eval(), vg.sill);
    fd[NG + 1] = HUNT_FD(eval(), vg.range);
    fd[NG + 2] = HUNT_FD(eval(), vg.nugget);
#ifdef MODE_REV
    double dz[NG] = {0};
    variogram dv = {0};
    __enzyme_autodiff((void *)cv_objective, enzyme_const, gauges, enzyme_dup, rain, dz, enzyme_const, NG,
                      enzyme_dup, &vg, &dv);
    for (int i = 0; i < NG; i++) ad[i] = dz[i];
    ad[NG] = dv.sill; ad[NG + 1] = dv.range; ad[NG + 2] = dv.nugget;
    hunt_check_vec(pass == 0 ? "spherical" : "exponential", ad, fd, NG + 3);
#endif
#ifdef MODE_FWD
    double dz[NG] = {0};
    variogram dv = {0};
    for (int i = 0; i < NG + 3; i++) {
      double *slot = i < NG ? &dz[i] : i == NG ? &dv.sill : i == NG + 1 ? &dv.range : &dv.nugget;
      *slot = 1.0;
      ad[i] = __enzyme_fwddiff((void *)cv_objective, enzyme_const, gauges, enzyme_dup, rain, dz, enzyme_const, NG,
                               enzyme_dup, &vg, &dv);
      *slot = 0.0;
    }
    hunt_check_vec(pass == 0 ? "spherical" : "exponential", ad, fd, NG + 3);
#endif
  }
  return hunt_finish();
}

#include "check.h"
#include <string.h>
#include <strings.h>
/* glibc declares mempcpy only under _GNU_SOURCE, which check.h's earlier includes would miss. */
extern void *mempcpy(void *restrict dst, const void *restrict src, size_t n);
/* bzero, bcopy (source first; may overlap) and mempcpy (returns dst + n) on arrays of doubles inside
   the differentiated function: a moving-average filter with a history window and a packed output. */

enum { W = 3, N = 6 };

/* y[i] = mean of the last W inputs (zero history before the start): the window shifts with bcopy. */
static void moving_average(const double *x, double *y, int n) {
  double window[W];
  bzero(window, sizeof window);
  for (int i = 0; i < n; i++) {
    bcopy(window, window + 1, (W - 1) * sizeof(double));   /* overlapping move right by one */
    window[0] = x[i];
    double s = 0;
    for (int k = 0; k < W; k++) s += window[k];
    y[i] = s / W;
  }
}

/* Packs the input and its filtered version one after the other (mempcpy's return value is where the
   second part starts), then a weighted energy of the packed vector. */
double filtered_energy(const double *x, double *packed, int n) {
  double y[N];
  moving_average(x, y, n);
  double *end = mempcpy(packed, x, n * sizeof(double));
  end = mempcpy(end, y, n * sizeof(double));
  double e = 0;
  for (double *p = packed; p < end; p++) e += (1.0 + (p - packed)) * *p * *p;
  return e;
}

/* Scales a vector into a scratch buffer that bzero clears first; only the first m entries are written. */
double partial_scale(const double *x, double *scratch, int n, int m) {
  bzero(scratch, n * sizeof(double));
  for (int i = 0; i < m; i++) scratch[i] = sin(x[i]) * x[n - 1 - i];
  double s = 0;
  for (int i = 0; i < n; i++) s += scratch[i] * scratch[i] + x[i] * scratch[i];
  return s;
}

static double energy_at(const double *x0, int k, double v) {
  double x[N], packed[2 * N];
  memcpy(x, x0, sizeof x);
  x[k] = v;
  return filtered_energy(x, packed, N);
}

static double scale_at(const double *x0, int k, double v) {
  double x[N], scratch[N];
  memcpy(x, x0, sizeof x);
  x[k] = v;
  return partial_scale(x, scratch, N, N - 2);
}

int main(void) {
  double x0[N] = {0.5, -1.25, 2.0, 0.75, -0.3, 1.5};
  double w;

  double packed[2 * N], dpacked[2 * N] = {0}, dx[N] = {0};
  __enzyme_autodiff((void *)filtered_energy, enzyme_dup, x0, dx, enzyme_dup, packed, dpacked, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double fd = CENTRAL(energy_at(x0, k, w), w, x0[k]);
    check("filtered_energy reverse", dx[k], fd, 1e-6);
    double t[N] = {0}, tpacked[2 * N] = {0};
    t[k] = 1;
    check("filtered_energy forward",
          __enzyme_fwddiff((void *)filtered_energy, enzyme_dup, x0, t, enzyme_dup, packed, tpacked, enzyme_const, N),
          fd, 1e-6);
    /* Forward mode also gives the tangent of the packed output: x itself, then the moving average. */
    check("packed tangent (copy of x)", tpacked[k], 1.0, 1e-12);
    for (int i = 0; i < N; i++)
      check("packed tangent (moving average)", tpacked[N + i], (i >= k && i < k + W) ? 1.0 / W : 0.0, 1e-12);
  }
  for (int i = 0; i < 2 * N; i++) check("packed adjoint consumed", dpacked[i], 0.0, 0.0);

  double scratch[N], dscratch[N] = {0}, dx2[N] = {0};
  for (int i = 0; i < N; i++) scratch[i] = 7.0;  /* stale contents bzero must clear */
  __enzyme_autodiff((void *)partial_scale, enzyme_dup, x0, dx2, enzyme_dup, scratch, dscratch, enzyme_const, N,
                    enzyme_const, N - 2);
  for (int k = 0; k < N; k++) {
    double fd = CENTRAL(scale_at(x0, k, w), w, x0[k]);
    check("partial_scale reverse", dx2[k], fd, 1e-6);
    double t[N] = {0}, tscratch[N];
    for (int i = 0; i < N; i++) tscratch[i] = 7.0;
    t[k] = 1;
    check("partial_scale forward",
          __enzyme_fwddiff((void *)partial_scale, enzyme_dup, x0, t, enzyme_dup, scratch, tscratch, enzyme_const, N,
                           enzyme_const, N - 2),
          fd, 1e-6);
    check("bzero clears the tangent past m", tscratch[N - 1], 0.0, 0.0);
  }
  return finish();
}

/* Hessians at degenerate points, where the gradient's intermediate adjoints are exactly zero: a flat
   triangle's area (the cross product has two zero components) and sqrt(1 + (x y)^2) at x = 0.  A guard
   that zeroed `partial * seed` wherever the seed was 0 made forward over reverse lose `partial * t(seed)`
   there.  Columns through __enzyme_todense, checked against central differences of the gradient. */
#include "sparse.h"

static double energy(const double *p) {
  double a[3], b[3], c[3];
  for (int i = 0; i < 3; i++) { a[i] = p[3 + i] - p[i]; b[i] = p[6 + i] - p[i]; }
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
  double area = 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
  double d = 1 - area / 2.0;
  double q = p[9] * p[10];
  return 2.0 * d * d + sqrt(1.0 + q * q);
}

static void gradient(const double *p, double *g) { __enzyme_autodiff((void *)energy, enzyme_dup, p, g); }

enum { N = 11 };

__attribute__((noinline)) static std::vector<Entry> hessian(const double *p) {
  std::vector<Entry> t;
  for (size_t c = 0; c < N; c++) {
    double *seed = __enzyme_todense((void *)unit_load, (void *)unit_store, c);
    double *column = __enzyme_todense((void *)column_load, (void *)column_store, c, &t);
    __enzyme_fwddiff((void *)gradient, enzyme_dup, p, seed, enzyme_dupnoneed, (double *)0, column);
  }
  return t;
}

int main() {
  /* a triangle in the plane x = -0.5 (its normal along x), and x = 0 for the product term */
  double p[N] = {-0.5, -0.5, 0.5, -0.5, 0.5, 0.5, -0.5, 0.5, -0.5, 0.0, 1.5};
  std::vector<double> h = densify(hessian(p), N);
  check("d2/dx2 sqrt(1 + (x y)^2) at x = 0 is y^2", h[9 * N + 9], 1.5 * 1.5, 1e-12);
  const double eps = 1e-5;
  for (int j = 0; j < N; j++) {
    double xp[N], xm[N], gp[N] = {0}, gm[N] = {0};
    for (int k = 0; k < N; k++) xp[k] = xm[k] = p[k];
    xp[j] += eps; xm[j] -= eps;
    gradient(xp, gp);
    gradient(xm, gm);
    for (int i = 0; i < N; i++) {
      char what[64];
      snprintf(what, sizeof what, "H[%d][%d] central", i, j);
      check(what, h[i * N + j], (gp[i] - gm[i]) / (2 * eps), 1e-6);
    }
  }
  return finish();
}

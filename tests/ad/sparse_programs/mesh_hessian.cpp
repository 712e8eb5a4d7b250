/* The Hessian of a triangle-mesh energy (area preservation plus edge springs) over 3-D vertex positions,
   assembled into triplets through __enzyme_todense.  The positions themselves are read through a
   todense view (a load function over the real array), so the primal reads go through calls as well.
   Checked against central differences of the reverse-mode gradient on the plain array. */
#include "sparse.h"

enum { NV = 9, NT = 8 };
static const int TRIS[NT][3] = {{0, 1, 4}, {0, 4, 3}, {1, 2, 5}, {1, 5, 4}, {3, 4, 7}, {3, 7, 6}, {4, 5, 8}, {4, 8, 7}};

static double tri_area(const double *p, const int *t) {
  double u[3], v[3], c[3];
  for (int k = 0; k < 3; k++) { u[k] = p[3 * t[1] + k] - p[3 * t[0] + k]; v[k] = p[3 * t[2] + k] - p[3 * t[0] + k]; }
  c[0] = u[1] * v[2] - u[2] * v[1];
  c[1] = u[2] * v[0] - u[0] * v[2];
  c[2] = u[0] * v[1] - u[1] * v[0];
  return 0.5 * sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

static double spring(const double *p, int a, int b) {
  double s = 0;
  for (int k = 0; k < 3; k++) { double d = p[3 * a + k] - p[3 * b + k]; s += d * d; }
  double l = sqrt(s) - 1.0;
  return l * l;
}

static double energy(const double *p, const int *tris, int nt) {
  double e = 0;
  for (int t = 0; t < nt; t++) {
    const int *tr = tris + 3 * t;
    double a = tri_area(p, tr) - 0.5;
    e += a * a + 0.3 * spring(p, tr[0], tr[1]) + 0.3 * spring(p, tr[1], tr[2]);
  }
  return e;
}

static void gradient(const double *p, double *g, const int *tris, int nt) {
  __enzyme_autodiff((void *)energy, enzyme_dup, p, g, enzyme_const, tris, enzyme_const, nt);
}

/* The positions as a todense view: reads forward to the array, writes are a bug. */
static double view_load(int64_t off, const double *pos) { return pos[off / (int64_t)sizeof(double)]; }
static void view_store(double, int64_t, const double *) { fprintf(stderr, "store into the positions\n"); abort(); }

__attribute__((noinline)) static std::vector<Entry> hessian(const double *pos) {
  std::vector<Entry> t;
  double *view = __enzyme_todense((void *)view_load, (void *)view_store, pos);
  for (size_t c = 0; c < 3 * NV; c++) {
    double *seed = __enzyme_todense((void *)unit_load, (void *)unit_store, c);
    double *column = __enzyme_todense((void *)column_load, (void *)column_store, c, &t);
    __enzyme_fwddiff((void *)gradient, enzyme_dup, view, seed, enzyme_dupnoneed, (double *)0, column,
                     enzyme_const, &TRIS[0][0], enzyme_const, (int)NT);
  }
  return t;
}

int main() {
  double pos[3 * NV];
  for (int v = 0; v < NV; v++) {
    pos[3 * v] = (v % 3) * 1.1 + 0.05 * v;
    pos[3 * v + 1] = (v / 3) * 0.9 - 0.03 * v * v;
    pos[3 * v + 2] = 0.2 * sin(1.0 + v);
  }
  std::vector<Entry> t = hessian(pos);
  const int n = 3 * NV;
  std::vector<double> h = densify(t, n);
  /* entries only between vertices sharing a triangle */
  for (const Entry &e : t) {
    int a = (int)e.row / 3, b = (int)e.col / 3, shared = a == b;
    for (int tr = 0; tr < NT; tr++) {
      int ha = 0, hb = 0;
      for (int k = 0; k < 3; k++) { ha |= TRIS[tr][k] == a; hb |= TRIS[tr][k] == b; }
      shared |= ha && hb;
    }
    if (!shared) { printf("FAIL entry (%zu, %zu) between unconnected vertices\n", e.row, e.col); failures++; }
  }
  const double eps = 1e-6;
  for (int j = 0; j < n; j++) {
    double xp[3 * NV], xm[3 * NV], gp[3 * NV] = {0}, gm[3 * NV] = {0};
    for (int k = 0; k < n; k++) xp[k] = xm[k] = pos[k];
    xp[j] += eps; xm[j] -= eps;
    gradient(xp, gp, &TRIS[0][0], NT);
    gradient(xm, gm, &TRIS[0][0], NT);
    for (int i = 0; i < n; i++) {
      char what[64];
      snprintf(what, sizeof what, "H[%d][%d] central", i, j);
      check(what, h[i * n + j], (gp[i] - gm[i]) / (2 * eps), 1e-5);
    }
  }
  /* symmetric, as a Hessian must be */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) check("symmetry", h[i * n + j], h[j * n + i], 1e-10);
  return finish();
}

#include "check.h"
/* Structs with mixed int/double fields, arrays of structs, pointer-to-pointer. */
typedef struct { int n; double scale; double *data; int flags; double bias; } Model;
double eval(Model *m) { double s = m->bias; for (int i = 0; i < m->n; i++) s += m->scale * m->data[i] * m->data[i]; return s; }
typedef struct { double x, y; int id; } Pt;
double path(const Pt *p, int n) { double L = 0; for (int i = 1; i < n; i++) { double dx = p[i].x - p[i-1].x, dy = p[i].y - p[i-1].y; L += sqrt(dx * dx + dy * dy); } return L; }
double pp(double **rows, int n) { double s = 0; for (int i = 0; i < n; i++) s += rows[i][0] * rows[i][1]; return s; }

int main(void) {
  double data[3] = {1.0, 2.0, 3.0}, ddata[3] = {0};
  Model m = {3, 0.5, data, 7, 0.25}, dm = {0, 0.0, ddata, 0, 0.0};
  __enzyme_autodiff((void *)eval, enzyme_dup, &m, &dm);
  check("struct scale", dm.scale, 14.0, 1e-12);
  check("struct bias", dm.bias, 1.0, 1e-12);
  for (int i = 0; i < 3; i++) check("struct data", ddata[i], 2 * 0.5 * data[i], 1e-12);
  Pt p[3] = {{0, 0, 1}, {3, 4, 2}, {6, 0, 3}}, dp[3] = {{0}};
  __enzyme_autodiff((void *)path, enzyme_dup, p, dp, enzyme_const, 3);
  check("path d p0.x", dp[0].x, -0.6, 1e-12);
  check("path d p1.x", dp[1].x, 0.6 - 0.6, 1e-12);
  check("path d p1.y", dp[1].y, 0.8 + 0.8, 1e-12);
  check("path d p2.y", dp[2].y, -0.8, 1e-12);
  double r0[2] = {1.5, 2.0}, r1[2] = {-1.0, 0.5}, d0[2] = {0}, d1[2] = {0};
  double *rows[2] = {r0, r1}, *drows[2] = {d0, d1};
  __enzyme_autodiff((void *)pp, enzyme_dup, rows, drows, enzyme_const, 2);
  check("pointer-to-pointer", d0[0], 2.0, 1e-12);
  check("pointer-to-pointer", d1[1], -1.0, 1e-12);
  return finish();
}

#include "check.h"
/* Arrays of structs: particle system energy with int ids and masses; gradient lands field by field. */
typedef struct { double x, y; double m; int id; int fixed; } Particle;
double energy(const Particle *p, int n, double k) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    if (!p[i].fixed) e += 9.81 * p[i].m * p[i].y;
    for (int j = i + 1; j < n; j++) {
      double dx = p[i].x - p[j].x, dy = p[i].y - p[j].y;
      e += k * p[i].m * p[j].m / sqrt(dx * dx + dy * dy + 0.1);
    }
  }
  return e;
}

int main(void) {
  enum { N = 4 };
  Particle p[N] = {{0, 0, 1.0, 0, 0}, {1, 0.5, 2.0, 1, 1}, {-0.5, 1, 0.5, 2, 0}, {0.3, -0.7, 1.5, 3, 0}}, dp[N] = {{0}};
  double k = 0.8;
  __enzyme_autodiff((void *)energy, enzyme_dup, p, dp, enzyme_const, N, enzyme_const, k);
  for (int i = 0; i < N; i++) {
    check("d/dx central", dp[i].x, CENTRAL(energy(p, N, k), p[i].x, p[i].x), 1e-6);
    check("d/dy central", dp[i].y, CENTRAL(energy(p, N, k), p[i].y, p[i].y), 1e-6);
    check("d/dm central", dp[i].m, CENTRAL(energy(p, N, k), p[i].m, p[i].m), 1e-6);
    check("int id shadow untouched", dp[i].id, 0, 0);
  }
  double dk = __enzyme_autodiff((void *)energy, enzyme_const, p, enzyme_const, N, k);
  double v;
  check("d/dk central", dk, CENTRAL(energy(p, N, v), v, k), 1e-6);
  Particle pd[N] = {{0}};
  for (int i = 0; i < N; i++) { pd[i].x = 0.1 * i; pd[i].y = 1.0 - i; pd[i].m = 0.5; }
  double fw = __enzyme_fwddiff((void *)energy, enzyme_dup, p, pd, enzyme_const, N, enzyme_const, k);
  double rv = 0;
  for (int i = 0; i < N; i++) rv += dp[i].x * pd[i].x + dp[i].y * pd[i].y + dp[i].m * pd[i].m;
  check("forward = <gradient, direction>", fw, rv, 1e-12);
  return finish();
}

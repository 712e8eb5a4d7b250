#include "check.h"
#include <string.h>
/* Particles {double x, y; int id;} (4 bytes of padding) built from coordinates, numbered by the loop counter,
   and passed around by struct assignment in small helpers that never touch the fields; one bubble pass
   orders them by x before a pair potential weighted by the ids is summed. */
typedef struct {
  double x, y;
  int id;
} Particle;

static void put(Particle *dst, const Particle *src) { *dst = *src; }

static void swap(Particle *a, Particle *b) {
  Particle t;
  put(&t, a);
  put(a, b);
  put(b, &t);
}

double energy(const double *pos, int n) {
  Particle ps[8];
  for (int i = 0; i < n; i++) {
    Particle q = {pos[2 * i], pos[2 * i + 1], i};
    put(&ps[i], &q);
  }
  for (int i = 0; i + 1 < n; i++)
    if (ps[i].x > ps[i + 1].x) swap(&ps[i], &ps[i + 1]);
  double e = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double dx = ps[i].x - ps[j].x, dy = ps[i].y - ps[j].y;
      e += (1 + (ps[i].id + 2 * ps[j].id) % 3) / (1.0 + dx * dx + dy * dy);
    }
  return e + 0.3 * ps[n - 1].y;
}

int main(void) {
  enum { n = 5 };
  double pos[2 * n] = {0.3, 1.0, -0.2, 0.4, 1.1, -0.7, 0.8, 0.2, -0.5, -0.9};
  double d[2 * n] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, pos, d, enzyme_const, n);
  for (int k = 0; k < 2 * n; k++) {
    double t[2 * n] = {0}, y[2 * n];
    t[k] = 1;
    check("forward", __enzyme_fwddiff((void *)energy, enzyme_dup, pos, t, enzyme_const, n), d[k], 1e-11);
    memcpy(y, pos, sizeof y);
    check("central", CENTRAL(energy(y, n), y[k], pos[k]), d[k], 1e-6);
  }
  return finish();
}

#include "check.h"
/* Whole-struct copies (llvm.memcpy at -O0) in functions that never touch the fields: the float layout of the
   copied bytes comes from type analysis of the callers; padding between fields is skipped. */
typedef struct { double a, b; } Pair;
typedef struct { double a; int n; double b; } Mixed;  /* 4 bytes of padding after n */

static void swap(Pair *p, Pair *q) { Pair t = *p; *p = *q; *q = t; }
static void copy_mixed(Mixed *dst, const Mixed *src) { *dst = *src; }

double bubble(Pair *v, int n) {
  for (int i = 0; i + 1 < n; i++)
    if (v[i].a > v[i + 1].a) swap(&v[i], &v[i + 1]);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * v[i].a * v[i].b;
  return s;
}

double mixed(Mixed *m) {
  Mixed t;
  copy_mixed(&t, m);
  t.a *= t.n;
  copy_mixed(m, &t);
  return m->a * m->b;
}

int main(void) {
  Pair v[3] = {{3, 1}, {1, 2}, {2, 3}}, dv[3] = {{0, 0}, {0, 0}, {0, 0}};
  __enzyme_autodiff((void *)bubble, enzyme_dup, v, dv, 3);
  /* After one pass the order is v1, v2, v0: s = 1*a1*b1 + 2*a2*b2 + 3*a0*b0. */
  check("da0", dv[0].a, 3 * 1.0, 1e-12);
  check("db0", dv[0].b, 3 * 3.0, 1e-12);
  check("da1", dv[1].a, 2.0, 1e-12);
  check("db1", dv[1].b, 1.0, 1e-12);
  check("da2", dv[2].a, 2 * 3.0, 1e-12);
  check("db2", dv[2].b, 2 * 2.0, 1e-12);
  Pair w[3] = {{3, 1}, {1, 2}, {2, 3}}, dw[3] = {{1, 0}, {0, 0}, {0, 0}};
  check("forward along a0", __enzyme_fwddiff((void *)bubble, enzyme_dup, w, dw, 3), 3.0, 1e-12);

  Mixed m = {1.5, 3, 2.5}, dm = {0, 0, 0};
  __enzyme_autodiff((void *)mixed, enzyme_dup, &m, &dm);
  /* m->a becomes 3*a: f = 3*a*b, df/da = 3*b, df/db = 3*a (original a). */
  check("mixed da", dm.a, 3 * 2.5, 1e-12);
  check("mixed db", dm.b, 3 * 1.5, 1e-12);
  check("mixed int untouched", (double)dm.n, 0.0, 0.0);
  Mixed c = {1.5, 3, 2.5};
  double x;
  check("central mixed a", CENTRAL((c = (Mixed){x, 3, 2.5}, mixed(&c)), x, 1.5), 3 * 2.5, 1e-6);
  return finish();
}

#include "check.h"
/* Structs mixing int, float, double, char and pointer fields; int fields drive control flow; padding between fields. */
typedef struct { char tag; double a; int n; float f; double b[3]; short s; double *ext; long count; } Mixed;
double eval(Mixed *m) {
  double r = m->a * m->f;
  for (int i = 0; i < m->n; i++) r += m->b[i] * m->b[i] * (m->tag == 'q' ? 2.0 : 1.0);
  r += m->ext[0] * m->s;
  m->count++;
  return r * m->a;
}

int main(void) {
  double ext = 1.5, dext = 0;
  Mixed m = {'q', 0.7, 3, 0.5f, {1.0, -2.0, 0.5}, 4, &ext, 0}, dm;
  memset_zero: {
    char *p = (char *)&dm;
    for (unsigned i = 0; i < sizeof dm; i++) p[i] = 0;
  }
  dm.ext = &dext;
  __enzyme_autodiff((void *)eval, enzyme_dup, &m, &dm);
  double inner = m.a * m.f + 2 * (1.0 + 4.0 + 0.25) + ext * 4;
  check("da", dm.a, inner + m.a * m.f, 1e-12);
  check("df (float field)", dm.f, m.a * m.a, 1e-6);
  for (int i = 0; i < 3; i++) check("db[i]", dm.b[i], 4 * m.b[i] * m.a, 1e-12);
  check("dext through pointer field", dext, 4 * m.a, 1e-12);
  check("count side effect ran once", (double)m.count, 1.0, 0.0);
  Mixed t = m, dt = dm;
  double dd = 0;
  dt.a = 1.0; dt.f = 0; dt.b[0] = dt.b[1] = dt.b[2] = 0; dt.ext = &dd;
  check("forward along a", __enzyme_fwddiff((void *)eval, enzyme_dup, &t, &dt), inner + m.a * m.f, 1e-12);
  double v;
  check("central along a", CENTRAL(eval(&t), t.a, m.a), inner + m.a * m.f, 1e-6);
  return finish();
}

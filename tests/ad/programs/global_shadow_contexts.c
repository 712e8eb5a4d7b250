#include "check.h"
/* Several global-shadow contexts in one program: each __enzyme_context has shadows of its own, so the same
   model differentiated in two contexts accumulates into two places; a gradient computed in one context can
   be differentiated again (forward over reverse) in another; a context of two lanes makes a call of two
   directions; and a descriptor global whose initializer points to another global has a shadow pointing to
   that global's shadow.  Checked against central differences. */
extern int enzyme_context;
void *__enzyme_context(int);
void *__enzyme_shadow(void *, void *, int);
void __enzyme_zero_shadows(void *);
typedef struct { double d[2]; } pair;
pair __enzyme_fwddiff_pair(void *, ...) __asm__("__enzyme_fwddiff");

double amp = 1.5, decay = 0.4;

double model(double x) { return amp * exp(-decay * x) * x; }

/* d model / d x in its own (inner) context, the parameters' adjoints going to that context's shadows. */
double dmodel(double x) {
  void *inner = __enzyme_context(1);
  __enzyme_zero_shadows(inner);
  return __enzyme_autodiff((void *)model, enzyme_context, inner, x);
}

/* A table reached through a descriptor: its shadow's base points to the table's shadow, its length is kept. */
double table[4] = {0.5, -1.0, 2.0, 0.25};
struct { double *base; long n; double bias; } view = {table, 4, 0.1};

__attribute__((noinline)) double poly(double x) {
  double s = view.bias, xn = 1;
  for (long i = 0; i < view.n; i++) { s += view.base[i] * xn; xn *= x; }
  return s;
}

int main(void) {
  double x = 0.8, p;
  void *a = __enzyme_context(1), *b = __enzyme_context(1);
  double *da = (double *)__enzyme_shadow(a, &amp, 0), *db = (double *)__enzyme_shadow(b, &amp, 0);
  double *dda = (double *)__enzyme_shadow(a, &decay, 0);
  __enzyme_zero_shadows(a);
  __enzyme_zero_shadows(b);
  double gx = __enzyme_autodiff((void *)model, enzyme_context, a, x);
  check("dx", gx, CENTRAL(model(p), p, x), 1e-6);
  check("context a: damp", *da, CENTRAL(model(x), amp, amp), 1e-6);
  check("context a: ddecay", *dda, CENTRAL(model(x), decay, decay), 1e-6);
  check("context b untouched", *db, 0.0, 0.0);
  __enzyme_autodiff((void *)model, enzyme_context, b, 2 * x);
  check("context b: damp", *db, CENTRAL(model(2 * x), amp, amp), 1e-6);
  check("context a kept", *da, CENTRAL(model(x), amp, amp), 1e-6);

  /* Forward over reverse: the tangent of dmodel along x, then along amp (seeded in context a). */
  __enzyme_zero_shadows(a);
  check("d2/dx2", __enzyme_fwddiff((void *)dmodel, enzyme_context, a, x, 1.0), CENTRAL(dmodel(p), p, x), 1e-6);
  *da = 1.0;
  check("d2/dx damp", __enzyme_fwddiff((void *)dmodel, enzyme_context, a, x, 0.0),
        CENTRAL(dmodel(x), amp, amp), 1e-6);

  /* Two lanes: the tangents of poly along table[1] and along bias, in one call. */
  void *c2 = __enzyme_context(2);
  double **dbase0 = (double **)__enzyme_shadow(c2, &view.base, 0);
  double *dtable0 = (double *)__enzyme_shadow(c2, &table, 0);
  double *dtable1 = (double *)__enzyme_shadow(c2, &table, 1);
  double *dbias1 = (double *)__enzyme_shadow(c2, &view.bias, 1);
  long *dn1 = (long *)__enzyme_shadow(c2, &view.n, 1);
  check("shadow base points to the table's shadow", (double)(*dbase0 == dtable0), 1.0, 0.0);
  check("shadow length kept", (double)*dn1, 4.0, 0.0);
  dtable0[1] = 1.0;
  *dbias1 = 1.0;
  (void)dtable1;
  pair t = __enzyme_fwddiff_pair((void *)poly, enzyme_context, c2, x, 0.0, 0.0);
  check("lane 0: d/dtable[1]", t.d[0], CENTRAL(poly(x), table[1], table[1]), 1e-6);
  check("lane 1: d/dbias", t.d[1], CENTRAL(poly(x), view.bias, view.bias), 1e-6);
  /* Zeroing resets the descriptor's shadow to its initial state (pointers to shadows, numbers kept). */
  __enzyme_zero_shadows(c2);
  check("zeroed tangent", dtable0[1] + *dbias1, 0.0, 0.0);
  check("base survives zeroing", (double)(*dbase0 == dtable0), 1.0, 0.0);
  return finish();
}

#include "check.h"
/* Shadow objects with virtual methods, set up the way upstream Enzyme's users do: the shadow object's vtable
   pointer is replaced by __enzyme_virtualreverse of it.  Reverse mode accumulates into the shadow's
   parameters through the virtual call; checked against forward mode and central differences. */
template <typename T> T __enzyme_virtualreverse(T);

struct Law {
  double k;
  virtual double stress(double strain) const = 0;
  virtual ~Law() {}
};
struct Linear : Law {
  double stress(double e) const override { return k * e; }
};
struct Cubic : Law {
  double stress(double e) const override { return k * e + 0.5 * k * e * e * e; }
};

/* Energy of a chain of springs with one law: sum of stress(strain_i) * strain_i / 2. */
__attribute__((noinline)) double energy(const Law &law, const double *strain, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += 0.5 * law.stress(strain[i]) * strain[i];
  return s;
}

template <typename L> static void run(const char *name, double k) {
  const int n = 3;
  double e[n] = {0.1, -0.4, 0.7}, de[n] = {0, 0, 0};
  L law, dlaw;
  law.k = k;
  *(void **)&dlaw = __enzyme_virtualreverse(*(void **)&dlaw);
  dlaw.k = 0.0;
  __enzyme_autodiff((void *)energy, enzyme_dup, &law, &dlaw, enzyme_dup, e, de, enzyme_const, n);
  L tl;
  tl.k = 1.0;  /* forward mode: the tangent of k */
  double dz[n] = {0, 0, 0};
  double tk = __enzyme_fwddiff((void *)energy, enzyme_dup, &law, &tl, enzyme_dup, e, dz, enzyme_const, n);
  double kv, ev;
  char what[64];
  snprintf(what, sizeof what, "%s dk reverse vs forward", name);
  check(what, dlaw.k, tk, 1e-13);
  snprintf(what, sizeof what, "%s dk central", name);
  L lc;
  check(what, dlaw.k, CENTRAL((lc.k = kv, energy(lc, e, n)), kv, k), 1e-6);
  for (int i = 0; i < n; i++) {
    snprintf(what, sizeof what, "%s dstrain central", name);
    double ec[n] = {e[0], e[1], e[2]};
    lc.k = k;
    check(what, de[i], CENTRAL((ec[i] = ev, energy(lc, ec, n)), ev, e[i]), 1e-6);
  }
}

int main() {
  run<Linear>("linear", 2.5);
  run<Cubic>("cubic", 0.8);
  return finish();
}

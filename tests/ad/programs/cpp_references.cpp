#include "check.h"
// References: output parameters by reference, reference to array element, const references to structs,
// a function returning a reference into its argument, whole-struct copies (a memcpy at -O0).
struct State { double p, q; };
void step(const State &in, State &out, double dt) { out.p = in.p - dt * sin(in.q); out.q = in.q + dt * out.p; }
double &largest(double (&arr)[3]) { int k = 0; for (int i = 1; i < 3; i++) if (arr[i] > arr[k]) k = i; return arr[k]; }
double energy_after(State *s, int steps) {
  State a = *s, b;
  for (int i = 0; i < steps; i++) { step(a, b, 0.1); a = b; }
  return 0.5 * a.p * a.p - cos(a.q);
}
double bump(double (*arr)[3]) { double &m = largest(*arr); m *= m; return (*arr)[0] + (*arr)[1] + (*arr)[2]; }

int main() {
  State s{0.3, 1.1}, ds{0, 0};
  __enzyme_autodiff((void *)energy_after, enzyme_dup, &s, &ds, enzyme_const, 5);
  check("d/dp central", ds.p, CENTRAL(energy_after(&s, 5), s.p, s.p), 1e-6);
  check("d/dq central", ds.q, CENTRAL(energy_after(&s, 5), s.q, s.q), 1e-6);
  State sd{1.0, 0.5};
  check("forward", __enzyme_fwddiff((void *)energy_after, enzyme_dup, &s, &sd, enzyme_const, 5), ds.p + 0.5 * ds.q, 1e-12);
  double arr[3] = {0.5, 2.0, 1.0}, darr[3] = {0, 0, 0};
  __enzyme_autodiff((void *)bump, enzyme_dup, &arr, &darr);
  check("reference into array d0", darr[0], 1.0, 1e-12);
  check("reference into array d1 (squared in place)", darr[1], 4.0, 1e-12);
  check("reference into array d2", darr[2], 1.0, 1e-12);
  return finish();
}

#include "check.h"
/* A checkpointed loop in C++: the step in a namespace, the loop in a function template, Enzyme-MLIR's binomial
   schedule; the gradient must equal the plain loop's and central differences, and the state after it the
   plain loop's. */
#include <enzyme/checkpoint.h>
#include <cstring>

namespace sim {
__attribute__((noinline)) static void step(int64_t i, double *u, const double *k) {
  double t[4];
  for (int j = 0; j < 4; j++) t[j] = u[j] + 0.1 * k[j] * std::cos(u[(j + 1) % 4]) + 0.001 * i;
  for (int j = 0; j < 4; j++) u[j] = t[j];
}

template <bool Checkpointed> double run(double *u, const double *k, int64_t n, EnzymeCkptConfig *c) {
  if (Checkpointed)
    __enzyme_checkpoint_for((void *)step, 0, n, enzyme_scheme, &EnzymeCkptBinomial, c, enzyme_checkpoint_region, u,
                            (int64_t)(4 * sizeof(double)), u, k);
  else
    for (int64_t i = 0; i < n; i++) step(i, u, k);
  double s = 0;
  for (int j = 0; j < 4; j++) s += u[j] * u[j];
  return s;
}
}  // namespace sim

int main() {
  double u1[4] = {1, 2, 3, 4}, u2[4] = {1, 2, 3, 4}, k[4] = {.5, .6, .7, .8};
  double d1[4] = {}, d2[4] = {}, dk1[4] = {}, dk2[4] = {};
  EnzymeCkptStats stats;
  EnzymeCkptConfig c = {3, 0, nullptr, 0, &stats};
  __enzyme_autodiff((void *)sim::run<false>, enzyme_dup, u1, d1, enzyme_dup, k, dk1, enzyme_const, (int64_t)30,
                    enzyme_const, &c);
  __enzyme_autodiff((void *)sim::run<true>, enzyme_dup, u2, d2, enzyme_dup, k, dk2, enzyme_const, (int64_t)30,
                    enzyme_const, &c);
  for (int j = 0; j < 4; j++) {
    check("du", d2[j], d1[j], 1e-12);
    check("dk", dk2[j], dk1[j], 1e-12);
    check("state after", u2[j], u1[j], 0);
  }
  double u[4] = {1, 2, 3, 4}, kk[4] = {.5, .6, .7, .8};
  double central = CENTRAL(([&] { double v[4]; std::memcpy(v, u, sizeof(v)); return sim::run<false>(v, kk, 30, &c); })(),
                           kk[2], 0.7);
  check("dk[2] vs central differences", dk2[2], central, 1e-6);
  check("steps differentiated", (double)stats.taped_steps, 30, 0);
  return finish();
}

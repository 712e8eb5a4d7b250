#include "check.h"
#include <cstdint>
#include <cstring>
/* C++ code that inspects doubles through their bits without computing a double from them (isfinite and
   exponent tests on the bits, std::signbit) has no derivative through those integers: the engine must neither
   refuse it nor lose the derivative of the doubles themselves.  A hand-written |x| picks its branch by the sign
   bit and negates through the bits. */
static bool finite_bits(double x) {
  uint64_t u = __builtin_bit_cast(uint64_t, x);
  return (u & 0x7ff0000000000000ull) != 0x7ff0000000000000ull;
}
static int exponent_of(double x) {
  uint64_t u;
  std::memcpy(&u, &x, sizeof u);
  return int((u >> 52) & 0x7ff) - 1023;
}
static double flip(double x) { return __builtin_bit_cast(double, __builtin_bit_cast(uint64_t, x) ^ 0x8000000000000000ull); }

/* Sum of |x_i|^3 over the finite entries, each scaled by 2^-(its exponent) (a piecewise-constant factor). */
double energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++) {
    if (!finite_bits(x[i])) continue;
    double v = std::signbit(x[i]) ? flip(x[i]) : x[i];
    e += v * v * v * std::ldexp(1.0, -exponent_of(x[i]));
  }
  return e;
}

int main() {
  double x[4] = {1.5, -2.5, 0.75, INFINITY}, dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < 3; i++) {
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    double fw = __enzyme_fwddiff((void *)energy, enzyme_dup, x, t, enzyme_const, 4);
    double want = 3 * x[i] * x[i] * (x[i] < 0 ? -1 : 1) * std::ldexp(1.0, -exponent_of(x[i]));
    char what[64];
    snprintf(what, sizeof what, "energy reverse d%d", i);
    check(what, dx[i], want, 1e-13);
    snprintf(what, sizeof what, "energy forward d%d", i);
    check(what, fw, want, 1e-13);
    double v;
    snprintf(what, sizeof what, "energy central d%d", i);
    check(what, CENTRAL(energy(x, 3), x[i], v = x[i]), want, 1e-6);
  }
  check("energy reverse d3 (infinite entry skipped)", dx[3], 0.0, 0);
  return finish();
}

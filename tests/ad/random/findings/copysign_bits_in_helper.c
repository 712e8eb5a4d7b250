/* FIXED (enzyme/analysis/type_solver.py; regression: tests/ad/programs/float_bits_helpers.c and
   tests/analysis/filecheck/sign_bits.ll @g).  Found by the random tester, kind bits_helpers, -O0..-O3.

   copysign through the bits inside a noinline helper that takes and returns the bits as an integer, the
   sign taken from another double: f(a) = 3 * copysign(a, y), y = -1 constant.
   Observed: reverse 0, forward 0.  Expected: -3 (both modes).
   Mechanism: type analysis typed `and`/`or`/`xor` results only when one operand was a constant mask, so
   `(u & ~SIGN) | (bits_of(y) & SIGN)` (two non-constant operands) stayed untyped; the helper's return was
   then not known to hold float bits, its derivative returned no tangent/adjoint, and the caller got zero
   instead of a refusal.  A sign-bit operation now carries its magnitude source's float type forwards.

   Build: enzyme-cc -O2 copysign_bits_in_helper.c -lm && ./a.out */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
#define SIGN 0x8000000000000000ull
static inline uint64_t bits_of(double v) { uint64_t u; memcpy(&u, &v, sizeof u); return u; }
static inline double double_of(uint64_t u) { double v; memcpy(&v, &u, sizeof v); return v; }
__attribute__((noinline)) static uint64_t sign_op(uint64_t u, double y) { return (u & ~SIGN) | (bits_of(y) & SIGN); }
__attribute__((noinline)) static double through(double v, double y) { return double_of(sign_op(bits_of(v), y)); }
double f(double a, double y) { return through(a, y) * 3.0; }
int main(void) {
  double r = __enzyme_autodiff((void *)f, 2.0, enzyme_const, -1.0);
  double t = __enzyme_fwddiff((void *)f, 2.0, 1.0, enzyme_const, -1.0);
  printf("reverse %g forward %g (expected -3)\n", r, t);
  return !(r == -3.0 && t == -3.0);
}

/* FIXED: refused now (was silently wrong at -O1..-O3).  Found by the random tester: kind bits_memory
   (numbers mode) and the refusal programs fast_rsqrt/sqrt_guess/exponent_bump/truncate_low_word reading x[]
   through `(const uint64_t *)x`.

   Root cause: clang tags an i64 load through a `uint64_t *` with the scalar TBAA type "long" (allowed: a
   double read through a uint64_t lvalue is undefined behaviour in ISO C), and enzyme/analysis/tbaa.py takes
   integer tags as proof the bytes are integers.  The load is then "integer data": nothing was differentiated
   or refused, and the derivative was dropped (0).  -O0 (no TBAA) and -fno-strict-aliasing were right.
   - f1: |x[1]| * x[0] through `xb[1] & ~SIGN`: reverse 0, forward 0 (expected -2).
   - f2 (below): fast inverse square root on the bits, the double made by a noinline helper: no refusal,
     reverse 0 and forward 0 (central differences -0.09375); -O0 refused it.
   - a loop reading the sign through `((const uint64_t *)x)[i]` (variable index) made TBAA type *every*
     byte of x as "long"; reverse mode then dropped all derivatives of x, even of plain `x[i]` terms.
   Fix (enzyme/ad/float_bits.py, used by both modes): integer bits that may come from memory with a shadow,
   whatever type analysis says about it, and that carry no derivative, are refused where they become a float
   again (a bitcast, or a call to a function that bitcasts its parameter).  Regressions:
   tests/ad/test_refusals.py::test_float_made_of_bits_typed_as_integers_is_refused.
   Not done: differentiating these (sign-bit operations through a uint64_t view work at -O0 and with memcpy,
   programs/float_bits.c); that needs type analysis to see the request site's `double x[]` (seed the request
   function's argument trees from its caller) or to distrust scalar integer TBAA tags on shadowed memory.

   Build: enzyme-cc -O2 tbaa_integer_view_of_doubles.c -lm   (must fail with a one-line refusal) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) static double double_of_call(uint64_t u) { double v; memcpy(&v, &u, 8); return v; }
/* (f1, now refused) double f1(const double *x) { const uint64_t *xb = (const uint64_t *)x;
                          return double_of(xb[1] & 0x7fffffffffffffffull) * x[0]; } */
double f2(const double *x) {
  uint64_t u = ((const uint64_t *)x)[1];
  u = 0x5fe6eb50c7b537a9ull - (u >> 1);  /* fast inverse square root: no derivative, must be refused */
  return double_of_call(u) * x[0];
}
int main(void) {
  double x[2] = {2.0, 4.0}, dx[2] = {0, 0}, t[2] = {0, 1};
  __enzyme_autodiff((void *)f2, enzyme_dup, x, dx);
  double fw = __enzyme_fwddiff((void *)f2, enzyme_dup, x, t);
  printf("f2: reverse d1 %g forward d1 %g: should have been refused\n", dx[1], fw);  /* was 0 and 0 */
  return 1;
}

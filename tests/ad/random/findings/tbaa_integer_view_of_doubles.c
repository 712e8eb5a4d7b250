/* PARTLY FIXED.  Found by the random tester: kind bits_memory (numbers mode) and the refusal programs
   fast_rsqrt/exponent_bump/truncate_low_word reading x[] through `(const uint64_t *)x`, at -O1..-O3.

   Root cause: clang tags an i64 load through a `uint64_t *` with the scalar TBAA type "long" (allowed: a
   double read through a uint64_t lvalue is undefined behaviour in ISO C), and enzyme/analysis/tbaa.py takes
   integer tags as proof the bytes are integers.  The load is then "integer data", nothing is differentiated
   or refused, and the derivative is dropped (0).  -O0 (no TBAA) and -fno-strict-aliasing are right.

   Fixed on this branch (regressions: tests/ad/test_refusals.py::
   test_float_made_of_bits_typed_as_integers_is_refused):
   - f1 below, |x[1]| * x[0] through `xb[1] & ~SIGN`: was reverse 0 / forward 0 (expected -2); now refused
     in both modes where the bits become a double again (enzyme/ad/float_bits.makes_float_of_untracked_bits).
   - a loop reading the sign through `((const uint64_t *)x)[i]` with a variable index made TBAA type *every*
     byte of x as "long"; TypeInfo.pointee_is_integer_only took that for integer-only memory and reverse mode
     dropped all derivatives of x, even plain `x[i]` terms (0 instead of 1); now refused in reverse mode,
     forward mode is right.

   OPEN (f2 below, silently wrong at -O1..-O3): the integer arithmetic happens in the caller on TBAA-"long"
   bits and a noinline helper makes the double (`double_of_call(u)`): no refusal, reverse 0 and forward 0
   where central differences give -0.09375 (-O0 refuses, as it should).  The bitcast is in the callee, whose
   argument is not read from memory there, and the caller's `sub` on the bits is not refused because the
   load is typed Integer.  Candidate fixes: (a) seed the request function's argument trees from the request
   site, so the caller's `double x[]` conflicts with the TBAA "long"; (b) refuse integer arithmetic on
   integers loaded from memory with a shadow whose only integer evidence is a scalar TBAA tag; (c) refuse a
   call passing such integers to a parameter the callee types as float bits.

   Build: enzyme-cc -O2 tbaa_integer_view_of_doubles.c -lm && ./a.out   (exit status 1 while f2 is wrong) */
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
  printf("f2: reverse d1 %g forward d1 %g: should have been refused\n", dx[1], fw);
  return 1;
}

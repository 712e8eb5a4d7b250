/* OPEN (silently wrong at -O1..-O3).  Found by the random tester: kind bits_memory (numbers mode) and the
   refusal programs fast_rsqrt/exponent_bump/truncate_low_word reading x[] through `(const uint64_t *)x`.

   fabs of x[1] done on the bits read through an integer view of the double array:
     f(x) = |x[1]| * x[0],  x = {2, -4}:  d f / d x[1] = sign(x[1]) * x[0] = -2.
   Observed at -O1, -O2, -O3: reverse 0, forward 0 (batch modes too).  -O0: -2 (correct).
   With integer arithmetic instead of the mask (fast_rsqrt: u = 0x5fe6eb50c7b537a9 - (u >> 1)), -O0 refuses
   (correct) but -O1..-O3 accept it and return 0: a wrong number where a refusal is required.
   With -fno-strict-aliasing both are right (-2; refused).

   Mechanism: clang tags the i64 load `xb[1]` with the scalar TBAA tag "long" (it may, under strict
   aliasing, since a double read through a uint64_t lvalue is undefined behaviour in ISO C).  enzyme/analysis/
   tbaa.py turns every integer tag into Integer facts for the accessed bytes, so type analysis types x's
   bytes 8..15 and the load as Integer; float_bits.may_hold_active_bits then takes the load for integer data
   (is_integer_data), the and/sub on it is neither differentiated nor refused, and the derivative is lost.
   The request's own caller (main: `double x[2]`) knows those bytes are doubles, but the root function is
   analysed without its request site's argument facts, so no conflict is seen.
   Not fixed here: trusting scalar integer TBAA is a deliberate, tested design decision
   (tests/analysis/test_c_programs.py::test_tbaa_alone_types_integer_memory, filecheck/tbaa_only.ll).
   Candidate fixes: (a) seed the request function's argument trees from the request site's type analysis,
   so the TBAA Integer conflicts with the caller's Float and the conflict is refused; or (b) do not take a
   scalar (non struct-path) integer tag on an access of float width (i16/i32/i64) as proof that the bytes
   are integers when the memory has a shadow (treat the load as possible float bits: sign-bit operations
   differentiated, other integer arithmetic refused).

   Build: enzyme-cc -O2 tbaa_integer_view_of_doubles.c -lm && ./a.out   (exit status 1 while wrong) */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
static inline double double_of(uint64_t u) { double v; memcpy(&v, &u, 8); return v; }
double f(const double *x) {
  const uint64_t *xb = (const uint64_t *)x;
  return double_of(xb[1] & 0x7fffffffffffffffull) * x[0];
}
int main(void) {
  double x[2] = {2.0, -4.0}, dx[2] = {0, 0}, t[2] = {0, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t);
  printf("reverse d1 %g forward d1 %g (expected -2)\n", dx[1], fw);
  return !(dx[1] == -2.0 && fw == -2.0);
}

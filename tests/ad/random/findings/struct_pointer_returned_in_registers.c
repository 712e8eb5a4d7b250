/* FIXED: now refused (enzyme/ad/reverse.py, `returns a { double, ptr } holding a pointer`; regression:
   tests/ad/test_refusals.py::test_struct_holding_a_pointer_returned_by_value_in_reverse).  Found by the
   random tester, kind struct_copies (a struct with a pointer field passed by value through a noinline
   helper), reverse mode, -O0..-O3.

   A small struct holding a pointer, returned by value in registers ({ double, ptr }).
   Observed: reverse d/dx = {15, 0}.  Expected: {15, 6} (forward mode gets 6).
   Mechanism: reverse mode returns the shadow of a returned pointer, but not of a pointer inside a returned
   aggregate; the caller's extractvalue had no shadow, its load was taken for constant memory, and the
   adjoint through it was dropped.  Returning the shadow aggregate would need shadows for aggregate values
   and extractvalue at call sites in the augmented sweep; until then the return is refused.

   Build: enzyme-cc -O2 struct_pointer_returned_in_registers.c -lm && ./a.out */
#include <stdio.h>
extern int enzyme_dup;
double __enzyme_autodiff(void *, ...);
/* A struct holding a pointer, returned by value in registers ({ double, ptr }). */
struct view { double w; const double *p; };
__attribute__((noinline)) static struct view pick(const double *x) { struct view v = {3.0 * x[0], x + 1}; return v; }
double f(const double *x) { struct view v = pick(x); return v.w * v.p[0]; }
int main(void) {
  double x[2] = {2.0, 5.0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  printf("reverse %g %g (want 15 6)\n", dx[0], dx[1]);
  return !(dx[0] == 15 && dx[1] == 6);
}

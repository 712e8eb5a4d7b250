/* OPEN (conservative refusal, not a wrong number).  Found by the random tester, kind struct_copies; this
   reproducer is refused at -O0 (at -O2 the loop is unrolled and the copies disappear).

   Structs copied whole between elements of an array (assignment lowered to memcpy) whose `short` field is
   only ever stored with a constant.
   Observed: reverse mode refuses the copy ("type analysis cannot tell which copied bytes are
   floating-point data").  Expected: the derivative, 2 * 3 * x = 12 at x = 2, n = 3 (as at -O2, and as with
   `a[0].scale = (short)n`).
   Mechanism: enzyme/ad/copy_types.py requires every copied byte to be typed, padding, or a lone char field
   of the declared type; `store i16 3` types nothing (a constant integer store may be the bits of a half,
   float or double: InstCombine writes float constants as integers), so bytes 8..9 stay unknown.
   Possible fix: type a constant store's bytes as Integer when the declared type of the object at that
   offset is an integer leaf of a non-union struct (clang names unions %union.*).
   (Fixed on this branch: padding and lone char fields of arrays of structs and byval copies, and the
   shadows of copied pointers: tests/ad/programs/struct_copies_pointers.c.)

   Build: enzyme-cc -O0 struct_copy_constant_int_field.c -lm && ./a.out */
#include <stdio.h>
#include <string.h>
extern int enzyme_const;
double __enzyme_autodiff(void *, ...);
struct item { double v; short scale; };
double f(double x, int n) {
  struct item a[3];
  a[0].v = x * x;
  a[0].scale = 3;
  for (int i = 1; i < n; i++) a[i] = a[i - 1];
  return a[n - 1].v * a[n - 1].scale;
}
int main(void) {
  double d = __enzyme_autodiff((void *)f, 2.0, enzyme_const, 3);
  printf("%g (expected 12)\n", d);
  return d != 12.0;
}

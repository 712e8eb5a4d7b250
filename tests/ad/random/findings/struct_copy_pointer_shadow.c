/* FIXED (enzyme/ad/reverse.py + copy_types.emit_pointer_shadows; regression:
   tests/ad/programs/struct_copies_pointers.c `links`).  Found by the random tester, kind struct_copies,
   reverse mode, -O0..-O3.

   An array of structs holding a pointer into x, copied element by element (memcpy / struct assignment with
   a variable index, so the copies survive optimization).
   Observed: segmentation fault in reverse mode (forward mode right).  Expected: d/dx = {3, 2}.
   Mechanism: the augmented forward sweep of a memcpy between memories with shadows copied nothing; the
   reverse sweep only moves the float leaves' adjoints back.  The shadow of the copied pointer stayed null
   in the destination's shadow, and the reverse sweep dereferenced it.  The forward sweep now copies the
   shadows of the pointer leaves of the copy (float adjoints still move back in the reverse sweep).

   Build: enzyme-cc -O2 struct_copy_pointer_shadow.c -lm && ./a.out */
#include <string.h>
#include <stdio.h>
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
struct s { double d; const double *p; };
double f(const double *x, int n) {
  struct s S; S.d = x[0]; S.p = &x[1];
  struct s arr[3]; arr[0] = S; for (int j = 1; j < 3; j++) arr[j] = arr[j - 1];
  struct s T; memcpy(&T, &arr[n % 3], sizeof T);
  return T.d * T.p[0];
}
int main(void) {
  double x[2] = {2.0, 3.0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 5);
  printf("%g %g (expected 3 2)\n", dx[0], dx[1]);
  return !(dx[0] == 3 && dx[1] == 2);
}

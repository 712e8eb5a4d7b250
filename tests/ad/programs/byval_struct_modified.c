#include "check.h"
/* Structs too big for registers go by value through a `byval` pointer (always at -O0): the callee owns that
   copy and writes into it, the caller's struct is unchanged.  Here mat_add adds into its first argument, which
   is the caller's A (read again afterwards) or a compound literal of constants (no shadow of its own). */
typedef struct { double m[2][2]; } mat2;
static mat2 mat_add(mat2 a, mat2 b, double s) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) a.m[i][j] += s * b.m[i][j];
  return a;
}
double f(double x, double y) {
  mat2 A = {{{x, 2 * x}, {x * y, 1}}}, B = {{{y, y * y}, {3, x}}};
  mat2 C = mat_add(A, B, y);
  C = mat_add(C, A, -0.5);
  mat2 I = mat_add((mat2){{{1, 0}, {0, 1}}}, A, -0.25);
  return C.m[0][0] * C.m[1][1] + C.m[0][1] * C.m[1][0] + A.m[0][1] * I.m[1][1] + I.m[0][0];
}
int main(void) {
  double x = 0.7, y = 1.3, v;
  double dx = __enzyme_autodiff((void *)f, x, enzyme_const, y);
  check("dx", dx, CENTRAL(f(v, y), v, x), 1e-6);
  double dy = __enzyme_autodiff((void *)f, enzyme_const, x, y);
  check("dy", dy, CENTRAL(f(x, v), v, y), 1e-6);
  check("fwd dx", __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, y), dx, 1e-10);
  check("fwd dy", __enzyme_fwddiff((void *)f, enzyme_const, x, y, 1.0), dy, 1e-10);
  /* analytic: C = A + yB - A/2 = A/2 + yB, I = Id - A/4 */
  double c00 = x / 2 + y * y, c11 = 0.5 + y * x, c01 = x + y * y * y, c10 = x * y / 2 + 3 * y;
  double dc00 = 0.5, dc11 = y, dc01 = 1, dc10 = y / 2;
  double i11 = 1 - 0.25, i00 = 1 - x / 4;
  check("dx analytic", dx, dc00 * c11 + c00 * dc11 + dc01 * c10 + c01 * dc10 + 2 * i11 - 0.25, 1e-12);
  return finish();
}

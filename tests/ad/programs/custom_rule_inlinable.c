#include "check.h"
/* A registered forward derivative for a small function not marked noinline: clang -O1..-O3 would inline it
   into f, where the rule no longer applies.  Its body hides the square from AD in an asm statement, so only
   the rule can differentiate it: if the rule were skipped the build would fail, not give another number. */
double square(double x) {
  double y = x * x;
  __asm__("" : "+x"(y));
  return y;
}
double square_fwd(double x, double dx) { return 2 * x * dx; }
void *__enzyme_register_derivative_square[2] = {(void *)square, (void *)square_fwd};

double f(double x) { return square(x) * 3 + square(x + 1); }

int main(void) {
  double x = 1.25, v;
  double expected = 6 * x + 2 * (x + 1);
  check("forward through the rule", __enzyme_fwddiff((void *)f, x, 1.0), expected, 1e-12);
  check("central", CENTRAL(f(v), v, x), expected, 1e-6);
  return finish();
}

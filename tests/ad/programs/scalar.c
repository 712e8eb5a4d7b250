#include "check.h"
typedef struct { double dx, dy; } Grad2;
Grad2 __enzyme_autodiff_grad2(void *, ...);

__attribute__((noinline)) static double sq(double x) { return x * x; }
double f(double x, double y) { return sin(x) * y + sq(x) / y + exp(x * y) - log(y) * pow(x, 2.5) + sqrt(x + y) + fabs(x - y) + tanh(x) * cbrt(y); }

int main(void) {
  double x = 0.7, y = 1.3, v;
  double dfx = cos(x) * y + 2 * x / y + y * exp(x * y) - log(y) * 2.5 * pow(x, 1.5) + 0.5 / sqrt(x + y) - 1.0
             + (1 - tanh(x) * tanh(x)) * cbrt(y);
  double dfy = sin(x) - x * x / (y * y) + x * exp(x * y) - pow(x, 2.5) / y + 0.5 / sqrt(x + y) + 1.0
             + tanh(x) / (3 * cbrt(y) * cbrt(y));
  check("reverse d/dx", __enzyme_autodiff((void *)f, x, enzyme_const, y), dfx, 1e-12);
  Grad2 g = __enzyme_autodiff_grad2((void *)f, enzyme_out, x, enzyme_out, y);
  check("reverse both d/dx", g.dx, dfx, 1e-12);
  check("reverse both d/dy", g.dy, dfy, 1e-12);
  check("forward d/dx", __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0), dfx, 1e-12);
  check("forward d/dy", __enzyme_fwddiff((void *)f, enzyme_const, x, enzyme_dup, y, 1.0), dfy, 1e-12);
  check("finite difference d/dx", dfx, CENTRAL(f(v, y), v, x), 1e-6);
  check("finite difference d/dy", dfy, CENTRAL(f(x, v), v, y), 1e-6);
  return finish();
}

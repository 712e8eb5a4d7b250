#include "check.h"
#include <stdexcept>
#include <string>
/* Exceptions thrown and caught inside the differentiated function: a throw in the try block of the function
   itself (an invoke of __cxa_throw), a library call that throws (std::stod of a bad string, caught by
   std::invalid_argument), and a handler that reads the exception's message.  The derivative follows the path
   the primal took in forward and reverse mode. */
__attribute__((noinline)) double checked_log(double x) {
  if (x <= 0) throw std::domain_error("log of " + std::to_string(x));
  return log(x);
}

double piecewise(double x, double scale) {
  double y;
  try {
    if (x < -2) throw std::out_of_range("far left");
    y = checked_log(x) * scale;
  } catch (const std::out_of_range &) {
    y = x * x * scale;
  } catch (const std::exception &e) {
    y = (e.what()[0] == 'l' ? 3.0 : 1.0) * sin(x) * scale;
  }
  double offset;
  try {
    offset = std::stod(x > 1 ? "0.5" : "n/a");
  } catch (const std::invalid_argument &) {
    offset = 0.25;
  }
  return y * x + offset * scale;
}

static double px, ps;
static double pf(void) { return piecewise(px, ps); }

int main() {
  const double xs[] = {-3.0, -0.5, 0.5, 2.0};
  for (double x : xs) {
    double s = 1.75;
    double ex = x < -2 ? 3 * x * x * s : x <= 0 ? 3 * (sin(x) + x * cos(x)) * s : (log(x) + 1) * s;
    double es = x < -2 ? x * x * x : x <= 0 ? 3 * sin(x) * x : log(x) * x;
    es += x > 1 ? 0.5 : 0.25;
    check("reverse x", __enzyme_autodiff((void *)piecewise, x, enzyme_const, s), ex, 1e-11);
    check("reverse scale", __enzyme_autodiff((void *)piecewise, enzyme_const, x, s), es, 1e-11);
    check("forward x", __enzyme_fwddiff((void *)piecewise, x, 1.0, enzyme_const, s), ex, 1e-11);
    check("forward scale", __enzyme_fwddiff((void *)piecewise, enzyme_const, x, s, 1.0), es, 1e-11);
    px = x;
    ps = s;
    check("central x", CENTRAL(pf(), px, x), ex, 1e-6);
    check("central scale", CENTRAL(pf(), ps, s), es, 1e-6);
  }
  return finish();
}

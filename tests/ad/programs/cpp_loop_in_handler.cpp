#include "check.h"
/* A loop inside a catch handler that cleans up and rethrows (as std::deque's map allocation does): the
   handler is not differentiated, yet its loop was planned for the reverse sweep and building the derivative
   crashed (KeyError on the loop's header) at -O1..-O3.  The derivative against central differences. */
#include <vector>

static double* blocks[4];

static void make_blocks(int n, const double* x) {
  int made = 0;
  try {
    for (; made < 4; ++made) {
      blocks[made] = new double[n];
      for (int i = 0; i < n; ++i) blocks[made][i] = x[i] * (made + 1);
    }
  } catch (...) {
    for (int k = 0; k < made; ++k) delete[] blocks[k];
    throw;
  }
}

extern "C" double spread(const double* x, int n) {
  make_blocks(n, x);
  double s = 0;
  for (int b = 0; b < 4; ++b) {
    for (int i = 0; i < n; ++i) s += blocks[b][i] * blocks[b][i];
    delete[] blocks[b];
  }
  return s;
}

int main() {
  const int n = 5;
  double x[n] = {0.5, -1.0, 1.5, 2.0, -0.25}, dx[n] = {0};
  __enzyme_autodiff((void*)spread, enzyme_dup, x, dx, enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double t[n] = {0};
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void*)spread, enzyme_dup, x, t, enzyme_const, n);
    double fd = CENTRAL(spread(x, n), x[i], x[i]);
    check("loop in handler reverse", dx[i], fd, 1e-6);
    check("loop in handler forward", fwd, fd, 1e-6);
  }
  return finish();
}

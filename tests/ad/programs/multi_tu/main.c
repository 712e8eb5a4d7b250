#include "check.h"
/* Three translation units, C and C++, in one module: main.c differentiates a C entry point (physics.c)
   that calls an extern "C" function implemented in C++ (drag.cpp). */
double trajectory_range(const double *params, int steps);

int main(void) {
  double p[3] = {12.0, 0.7, 0.05}, dp[3] = {0}, pd[3] = {0.5, -0.1, 2.0};   /* speed, angle, drag */
  __enzyme_autodiff((void *)trajectory_range, enzyme_dup, p, dp, enzyme_const, 100);
  for (int k = 0; k < 3; k++) check("range central", dp[k], CENTRAL(trajectory_range(p, 100), p[k], p[k]), 1e-6);
  check("range forward", __enzyme_fwddiff((void *)trajectory_range, enzyme_dup, p, pd, enzyme_const, 100), dot(dp, pd, 3), 1e-10);
  return finish();
}

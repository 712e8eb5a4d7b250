#include "check.h"
#include <numeric>
#include <vector>
// A pointer walking a constant (enzyme_const) array beside active data: std::inner_product's loop at
// -O1 and above carries `phi ptr [%w.next, %loop], [%w, %entry]`, whose only origin is the argument with
// no shadow (was refused: "a pointer that may point to active memory merges with one that has no shadow").
double weighted(const double *x, const double *w, int n) {
  std::vector<double> sq(n);
  for (int i = 0; i < n; i++) sq[i] = x[i] * x[i];
  return std::inner_product(sq.begin(), sq.end(), w, 0.0);
}

int main() {
  double x[5] = {0.5, -1.0, 2.0, 0.25, 1.5}, w[5] = {1.0, 2.0, 0.5, 3.0, -1.0}, dx[5] = {0};
  __enzyme_autodiff((void *)weighted, enzyme_dup, x, dx, enzyme_const, w, enzyme_const, 5);
  for (int i = 0; i < 5; i++) check("reverse d/dx_i = 2 w_i x_i", dx[i], 2 * w[i] * x[i], 1e-12);
  double tx[5] = {1, 0, 0, 0, 1};
  check("forward", __enzyme_fwddiff((void *)weighted, enzyme_dup, x, tx, enzyme_const, w, enzyme_const, 5),
        dx[0] + dx[4], 1e-12);
  return finish();
}

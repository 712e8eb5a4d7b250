/* Prints the gradient of energy() at x = (0.5, 2.0, -1.5), computed by reverse-mode AD
   across C, Fortran and Rust, one component per line: "grad[i] = value". */
#include <stdio.h>

#include <enzyme/enzyme.h>

#include "model.h"

int main(void) {
  double x[3] = {0.5, 2.0, -1.5};
  double dx[3] = {0.0, 0.0, 0.0};
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, 3);
  printf("energy = %.17g\n", energy(x, 3));
  for (int i = 0; i < 3; i++) {
    printf("grad[%d] = %.17g\n", i, dx[i]);
  }
  return 0;
}

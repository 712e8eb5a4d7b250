#include <math.h>

#include "model.h"

/* A C term plus one term computed in Fortran and one in Rust. */
double energy(const double *x, int n) {
  return MIXED_SCALE * sin(x[0]) * x[1] + fortran_sumsq(x, n) + rust_cubes(x, n);
}

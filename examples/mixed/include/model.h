/* The model: energy(x) = MIXED_SCALE * sin(x0) * x1 + sum x_i^2 (Fortran) + sum x_i^3 / 3 (Rust). */
#ifndef MIXED_MODEL_H
#define MIXED_MODEL_H

double energy(const double *x, int n);
double fortran_sumsq(const double *x, int n);
double rust_cubes(const double *x, int n);

#endif

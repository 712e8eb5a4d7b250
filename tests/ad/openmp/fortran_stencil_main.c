/* Drives fortran_stencil.f90: both modes against central differences of the Fortran primal. */
#include "omp_check.h"
enum { N = 27 };
double stencil_energy(const double *u, double *w, int n);
static double wbuf[N];
static double energy_of(double *u) { return stencil_energy(u, wbuf, N); }
int main(void) {
  double u[N], fd[N], du[N], dw[N];
  for (int i = 0; i < N; i++) u[i] = cos(0.25 * i) + 0.1 * i;
  central_gradient(energy_of, u, N, fd);
  memset(du, 0, sizeof du);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)stencil_energy, enzyme_dup, u, du, enzyme_dup, wbuf, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) check("fortran reverse", i, du[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(du, 0, sizeof du);
    memset(dw, 0, sizeof dw);
    du[i] = 1;
    check("fortran forward", i,
          __enzyme_fwddiff((void *)stencil_energy, enzyme_dup, u, du, enzyme_dup, wbuf, dw, enzyme_const, N), fd[i],
          1e-6);
  }
  return finish();
}

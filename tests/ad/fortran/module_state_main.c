/* module_state.f90: inputs are the 12 field values and the relaxation rate.  The function runs once before the
 * derivatives, so the module arrays are allocated when they are called. */
#include "modes_check.h"

double relax_energy(const double *x, int n);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
pair_t __enzyme_fwddiff_pair(void *, ...);
augmented_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { N = 13 };

static double objective(double *x) { return relax_energy(x, N); }

static void gradient(double *x, double *dx) {
  __enzyme_autodiff((void *)relax_energy, enzyme_dup, x, dx, enzyme_const, N);
}

static double tangent(double *x, double *t) {
  return __enzyme_fwddiff((void *)relax_energy, enzyme_dup, x, t, enzyme_const, N);
}

static void tangent2(double *x, double *t1, double *t2, double r[2]) {
  pair_t p = __enzyme_fwddiff_pair((void *)relax_energy, enzyme_width, 2, enzyme_dup, x, t1, t2, enzyme_const, N);
  r[0] = p.d[0];
  r[1] = p.d[1];
}

static double split(double *x, double *dx) {
  augmented_t a = __enzyme_augmentfwd((void *)relax_energy, enzyme_dup, x, dx, enzyme_const, N);
  __enzyme_reverse((void *)relax_energy, enzyme_dup, x, dx, enzyme_const, N, 1.0, a.tape);
  return a.primal;
}

int main(void) {
  double x[N];
  for (int i = 0; i < 12; i++) x[i] = 0.4 + 0.5 * sin(0.9 * i + 0.3);
  x[12] = 0.7;
  objective(x);
  return check_modes("relax_energy", x, N) != 0;
}

/* particle_cloud.f90: inputs are four numbers per particle (position, charge). */
#include "modes_check.h"

double cloud_energy(const double *coords, int n);
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
pair_t __enzyme_fwddiff_pair(void *, ...);
augmented_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { N = 5 };

static double objective(double *c) { return cloud_energy(c, N); }
static void gradient(double *c, double *dc) {
  __enzyme_autodiff((void *)cloud_energy, enzyme_dup, c, dc, enzyme_const, N);
}
static double tangent(double *c, double *t) {
  return __enzyme_fwddiff((void *)cloud_energy, enzyme_dup, c, t, enzyme_const, N);
}
static void tangent2(double *c, double *t1, double *t2, double r[2]) {
  pair_t q = __enzyme_fwddiff_pair((void *)cloud_energy, enzyme_width, 2, enzyme_dup, c, t1, t2, enzyme_const, N);
  r[0] = q.d[0];
  r[1] = q.d[1];
}
static double split(double *c, double *dc) {
  augmented_t a = __enzyme_augmentfwd((void *)cloud_energy, enzyme_dup, c, dc, enzyme_const, N);
  __enzyme_reverse((void *)cloud_energy, enzyme_dup, c, dc, enzyme_const, N, 1.0, a.tape);
  return a.primal;
}

int main(void) {
  double c[4 * N];
  for (int i = 0; i < N; i++) {
    c[4 * i] = cos(1.3 * i);
    c[4 * i + 1] = sin(0.9 * i) + 0.2 * i;
    c[4 * i + 2] = 0.3 * i - 0.5;
    c[4 * i + 3] = i % 2 ? 0.8 : -0.6;
  }
  return check_modes("cloud_energy", c, 4 * N) != 0;
}

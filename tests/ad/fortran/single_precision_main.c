/* single_precision.f90 in float: differences of float sums are noisy, hence the larger step and tolerance. */
#define REAL float
#define FD_STEP 1e-2
#define TOLERANCE 2e-3
#include "modes_check.h"

float fit_loss(const float *p, int n);
float __enzyme_autodiff(void *, ...);
float __enzyme_fwddiff(void *, ...);
pair_t __enzyme_fwddiff_pair(void *, ...);
augmented_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { N = 6 };

static float objective(float *p) { return fit_loss(p, N); }
static void gradient(float *p, float *dp) { __enzyme_autodiff((void *)fit_loss, enzyme_dup, p, dp, enzyme_const, N); }
static float tangent(float *p, float *t) {
  return __enzyme_fwddiff((void *)fit_loss, enzyme_dup, p, t, enzyme_const, N);
}
static void tangent2(float *p, float *t1, float *t2, float r[2]) {
  pair_t q = __enzyme_fwddiff_pair((void *)fit_loss, enzyme_width, 2, enzyme_dup, p, t1, t2, enzyme_const, N);
  r[0] = q.d[0];
  r[1] = q.d[1];
}
static float split(float *p, float *dp) {
  augmented_t a = __enzyme_augmentfwd((void *)fit_loss, enzyme_dup, p, dp, enzyme_const, N);
  __enzyme_reverse((void *)fit_loss, enzyme_dup, p, dp, enzyme_const, N, 1.0f, a.tape);
  return a.primal;
}

int main(void) {
  float p[N] = {0.5f, -1.0f, 2.0f, 0.25f, -0.75f, 1.5f};
  return check_modes("fit_loss", p, N) != 0;
}

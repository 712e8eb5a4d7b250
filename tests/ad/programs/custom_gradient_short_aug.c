/* Registered gradients whose augmented forward leaves the result to the function itself, as upstream
   Enzyme allows for non-pointer results: foo_aug returns nothing (then foo_rev takes no tape) or only a
   tape.  The derivatives are checked against the analytic ones, central differences and forward mode
   (which differentiates the bodies, not the rules). */
#include "check.h"

/* softplus(x) = log(1 + e^x); its derivative, the logistic function, is the registered gradient. */
__attribute__((noinline)) double softplus(double x) { return x > 0 ? x + log1p(exp(-x)) : log1p(exp(x)); }
void softplus_aug(double x) { (void)x; }
double softplus_rev(double x, double dret) { return dret / (1 + exp(-x)); }
void *__enzyme_register_gradient_softplus[3] = {(void *)softplus, (void *)softplus_aug, (void *)softplus_rev};

/* hypot2(x, y) = sqrt(x^2 + y^2): the augmented forward keeps the norm on a tape of its own. */
__attribute__((noinline)) double hypot2(double x, double y) { return sqrt(x * x + y * y); }
void *hypot2_aug(double x, double y) {
  double *saved = malloc(sizeof(double));
  *saved = sqrt(x * x + y * y);
  return saved;
}
typedef struct { double dx, dy; } pair;
pair hypot2_rev(double x, double y, double dret, void *tape) {
  double r = *(double *)tape;
  free(tape);
  pair out = {dret * x / r, dret * y / r};
  return out;
}
void *__enzyme_register_gradient_hypot2[3] = {(void *)hypot2, (void *)hypot2_aug, (void *)hypot2_rev};

/* A loss using both: the rules' results feed further arithmetic and a loop. */
static double loss(const double *w, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) s += softplus(w[i] - w[i + 1]) * hypot2(w[i], 0.5 + w[i + 1]);
  return s;
}

static double softplus_only(double x) { return 3 * softplus(2 * x); }

int main(void) {
  double x = 0.4;
  CHECK_SCALAR("softplus", softplus_only, x, 6 / (1 + exp(-2 * x)));

  enum { N = 5 };
  double w[N] = {0.3, -1.2, 0.8, 2.0, -0.5}, grad[N] = {0}, dir[N] = {0.5, -1, 0.25, 1, 2};
  __enzyme_autodiff((void *)loss, enzyme_dup, w, grad, enzyme_const, N);
  double tangent = __enzyme_fwddiff((void *)loss, enzyme_dup, w, dir, enzyme_const, N);
  check("loss forward = grad . dir", tangent, dot(grad, dir, N), 1e-12);
  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "loss grad[%d]", i);
    check(what, grad[i], CENTRAL(loss(w, N), w[i], w[i]), 1e-7);
  }
  return finish();
}

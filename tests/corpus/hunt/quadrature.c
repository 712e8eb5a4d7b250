#include "hunt.h"
/* Expected-utility integrals as a statistician writes them: recursive adaptive Simpson (depth and
   subdivision decided by the integrand), a 10-point Gauss-Legendre rule from `static const` node/weight
   tables on mapped intervals, special functions (erf, erfc, lgamma, tgamma via a Gamma density, pow,
   expm1, log1p), and a `double (*)(double, void *)` integrand with a context struct.  Objective: a
   posterior-weighted loss as a function of the prior's shape/rate and a loss scale. */
typedef double (*integrand)(double x, void *ctx);
typedef struct { double shape, rate, scale; } Prior;

static const double GL_X[5] = {0.1488743389816312, 0.4333953941292472, 0.6794095682990244, 0.8650633666889845,
                               0.9739065285171717};
static const double GL_W[5] = {0.2955242247147529, 0.2692667193099963, 0.2190863625159820, 0.1494513491505806,
                               0.0666713443086881};

static double gauss_legendre(integrand f, void *ctx, double a, double b) {
  double mid = 0.5 * (a + b), half = 0.5 * (b - a), s = 0;
  for (int i = 0; i < 5; i++) s += GL_W[i] * (f(mid - half * GL_X[i], ctx) + f(mid + half * GL_X[i], ctx));
  return s * half;
}

static double simpson_rec(integrand f, void *ctx, double a, double b, double fa, double fm, double fb, double whole,
                          double tol, int depth) {
  double m = 0.5 * (a + b), lm = 0.5 * (a + m), rm = 0.5 * (m + b);
  double flm = f(lm, ctx), frm = f(rm, ctx);
  double left = (m - a) / 6 * (fa + 4 * flm + fm), right = (b - m) / 6 * (fm + 4 * frm + fb);
  double delta = left + right - whole;
  if (depth <= 0 || fabs(delta) <= 15 * tol) return left + right + delta / 15;
  return simpson_rec(f, ctx, a, m, fa, flm, fm, left, tol / 2, depth - 1) +
         simpson_rec(f, ctx, m, b, fm, frm, fb, right, tol / 2, depth - 1);
}

static double adaptive_simpson(integrand f, void *ctx, double a, double b, double tol) {
  double fa = f(a, ctx), fb = f(b, ctx), fm = f(0.5 * (a + b), ctx);
  return simpson_rec(f, ctx, a, b, fa, fm, fb, (b - a) / 6 * (fa + 4 * fm + fb), tol, 30);
}

static double gamma_pdf(double x, const Prior *p) {
  return exp(p->shape * log(p->rate) - lgamma(p->shape) + (p->shape - 1) * log(x) - p->rate * x);
}

static double loss_density(double x, void *ctx) {
  const Prior *p = ctx;
  double loss = p->scale * (expm1(0.3 * x) - 0.3 * x) + log1p(x * x);
  return gamma_pdf(x, p) * loss;
}

static double tail_density(double x, void *ctx) {
  const Prior *p = ctx;
  return gamma_pdf(x, p) * erfc((x - 2.0) / (sqrt(2.0) * p->scale)) * pow(x, 0.5);
}

double expected_loss(double shape, double rate, double scale) {
  Prior p = {shape, rate, scale};
  double body = adaptive_simpson(loss_density, &p, 1e-8, 6.0, 1e-11);
  double tail = 0;
  for (int k = 0; k < 4; k++) tail += gauss_legendre(tail_density, &p, 6.0 + 4 * k, 10.0 + 4 * k);
  double norm_check = tgamma(shape) * pow(rate, -shape);  /* integral of x^(a-1) e^(-bx) */
  return body + 0.5 * tail + 0.01 * norm_check + 0.1 * erf(shape - rate);
}

int main(void) {
  hunt_fd_step = 1e-6;  /* adaptive subdivision must not change between the FD evaluations */
  double a = 2.5, b = 1.3, s = 0.7;
  double fd[3] = {HUNT_FD(expected_loss(a, b, s), a), HUNT_FD(expected_loss(a, b, s), b),
                  HUNT_FD(expected_loss(a, b, s), s)};
  double ad[3];
#ifdef MODE_REV
  typedef struct { double a, b, s; } three;
  extern three __enzyme_autodiff_three(void *, ...);
  three g = __enzyme_autodiff_three((void *)expected_loss, a, b, s);
  ad[0] = g.a; ad[1] = g.b; ad[2] = g.s;
#endif
#ifdef MODE_FWD
  ad[0] = __enzyme_fwddiff((void *)expected_loss, a, 1.0, b, 0.0, s, 0.0);
  ad[1] = __enzyme_fwddiff((void *)expected_loss, a, 0.0, b, 1.0, s, 0.0);
  ad[2] = __enzyme_fwddiff((void *)expected_loss, a, 0.0, b, 0.0, s, 1.0);
#endif
  hunt_check_vec("grad", ad, fd, 3);
  return hunt_finish();
}

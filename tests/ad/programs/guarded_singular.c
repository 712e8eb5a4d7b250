#include "check.h"
#include <complex.h>
/* Values computed and then dropped, exactly where they are infinite: a reciprocal guarded by y != 0 (LLVM
   computes 1/y before the select), a CFL time step cfl/umax that LLVM hoists out of the loop and so also
   computes for the empty-array path (cfl/0), a product with that infinite step, a complex quotient the
   program computes before testing the divisor, and reciprocals stored in an array and used only where the
   divisor is nonzero.  The dropped value's adjoint is zero and its partials are
   infinite: reverse mode must give the derivative of the branch taken (0·inf is 0 there), as forward mode and
   central differences do. */
typedef struct { double dx, dy; } g2;
g2 __enzyme_autodiff_g2(void *, ...);

double safe_ratio(double x, double y) {
  double inv = y != 0.0 ? 1.0 / y : 0.0;
  return x * inv + x;
}

/* (x / y) * x when y is nonzero, else x: the dropped product has an infinite factor at y == 0. */
double guarded_product(double x, double y) { return y != 0.0 ? (x / y) * x : x; }

/* Explicit steps of u' = -u^2 with a CFL step clipped to land on t_end; u is advanced in place. */
double clipped_steps(double *u, int n, double cfl, double t_end) {
  double t = 0.0;
  while (t < t_end) {
    double umax = 0.0;
    for (int i = 0; i < n; i++) umax = fmax(umax, fabs(u[i]));
    double dt = cfl / umax;
    if (t + dt > t_end) dt = t_end - t;
    for (int i = 0; i < n; i++) u[i] = u[i] - dt * u[i] * u[i];
    t += dt;
  }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += u[i] * u[i];
  return s;
}

double complex_guard(double a, double b) {
  double complex q = (1.0 + a * I) / (b + 0.0 * I);
  return b != 0.0 ? creal(q) * cimag(q) : a;
}

/* Jacobi scaling with a zero diagonal entry skipped: the reciprocals go through memory. */
double scaled_sum(const double *d, const double *b, int n) {
  double *inv = malloc(n * sizeof(double)), s = 0.0;
  for (int i = 0; i < n; i++) inv[i] = 1.0 / d[i];
  for (int i = 0; i < n; i++) s += d[i] != 0.0 ? b[i] * b[i] * inv[i] : b[i];
  free(inv);
  return s;
}

enum { N = 4 };
static const double U0[N] = {1.0, 0.5, 0.7, 0.2};

static double run_steps(double cfl) {
  double u[N];
  for (int i = 0; i < N; i++) u[i] = U0[i];
  return clipped_steps(u, N, cfl, 0.1);
}

int main(void) {
  double v = 0;
  for (int k = 0; k < 2; k++) {
    double y = k ? 0.5 : 0.0;  /* the guarded point and an ordinary one */
    g2 g = __enzyme_autodiff_g2((void *)safe_ratio, 2.0, y);
    double gx = y != 0.0 ? 1.0 / y + 1.0 : 1.0, gy = y != 0.0 ? -2.0 / (y * y) : 0.0;
    check("safe_ratio dx reverse", g.dx, gx, 1e-14);
    check("safe_ratio dy reverse", g.dy, gy, 1e-14);
    check("safe_ratio dx forward", __enzyme_fwddiff((void *)safe_ratio, 2.0, 1.0, y, 0.0), gx, 1e-14);
    check("safe_ratio dy forward", __enzyme_fwddiff((void *)safe_ratio, 2.0, 0.0, y, 1.0), gy, 1e-14);
    check("safe_ratio dx central", CENTRAL(safe_ratio(v, y), v, 2.0), gx, 1e-6);

    g = __enzyme_autodiff_g2((void *)guarded_product, 3.0, y);
    gx = y != 0.0 ? 6.0 / y : 1.0, gy = y != 0.0 ? -9.0 / (y * y) : 0.0;
    check("guarded_product dx reverse", g.dx, gx, 1e-14);
    check("guarded_product dy reverse", g.dy, gy, 1e-14);
    check("guarded_product dx forward", __enzyme_fwddiff((void *)guarded_product, 3.0, 1.0, y, 0.0), gx, 1e-14);
    check("guarded_product dx central", CENTRAL(guarded_product(v, y), v, 3.0), gx, 1e-6);

    double b = k ? 0.5 : 0.0;
    g = __enzyme_autodiff_g2((void *)complex_guard, 0.3, b);
    double ga = b != 0.0 ? 1.0 / (b * b) : 1.0, gb = b != 0.0 ? -2 * 0.3 / (b * b * b) : 0.0;
    check("complex_guard da reverse", g.dx, ga, 1e-13);
    check("complex_guard db reverse", g.dy, gb, 1e-13);
    check("complex_guard da forward", __enzyme_fwddiff((void *)complex_guard, 0.3, 1.0, b, 0.0), ga, 1e-13);
    check("complex_guard da central", CENTRAL(complex_guard(v, b), v, 0.3), ga, 1e-6);
  }

  for (int k = 0; k < 2; k++) {
    double cfl = k ? 0.03 : 0.01, u[N], du[N] = {0};
    for (int i = 0; i < N; i++) u[i] = U0[i];
    double d = __enzyme_autodiff((void *)clipped_steps, enzyme_dup, u, du, enzyme_const, N, cfl, enzyme_const, 0.1);
    double central = CENTRAL(run_steps(v), v, cfl);
    check("clipped_steps dcfl reverse", d, central, 1e-6);
    for (int i = 0; i < N; i++) u[i] = U0[i];
    double dz[N] = {0};
    check("clipped_steps dcfl forward", __enzyme_fwddiff((void *)clipped_steps, enzyme_dup, u, dz, enzyme_const, N,
                                                         cfl, 1.0, enzyme_const, 0.1), d, 1e-10);
  }
  double d[N] = {2.0, 0.0, -0.5, 4.0}, b[N] = {0.3, 1.2, -0.7, 0.9}, dd[N] = {0}, db[N] = {0};
  __enzyme_autodiff((void *)scaled_sum, enzyme_dup, d, dd, enzyme_dup, b, db, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double ed = d[i] != 0.0 ? -b[i] * b[i] / (d[i] * d[i]) : 0.0, eb = d[i] != 0.0 ? 2 * b[i] / d[i] : 1.0;
    check("scaled_sum dd reverse", dd[i], ed, 1e-14);
    check("scaled_sum db reverse", db[i], eb, 1e-14);
    double zd[N] = {0}, zb[N] = {0};
    zb[i] = 1.0;
    check("scaled_sum db forward", __enzyme_fwddiff((void *)scaled_sum, enzyme_dup, d, zd, enzyme_dup, b, zb,
                                                    enzyme_const, N), eb, 1e-14);
    check("scaled_sum db central", CENTRAL(scaled_sum(d, b, N), b[i], b[i]), eb, 1e-6);
  }
  return finish();
}

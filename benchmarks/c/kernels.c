/* The small benchmark kernels: sum of squares and extended Rosenbrock over n doubles, RK4 integration
   of the Lotka-Volterra ODE.  Built twice: through the pyenzyme pipeline (primal and gradient) and by
   plain clang -O3 with every kernel renamed clang_<name> (the reference primal). */
double sumsq(const double *x, long n) { double s = 0; for (long i = 0; i < n; i++) s += x[i] * x[i]; return s; }

double rosen(const double *x, long n) {
  double s = 0;
  for (long i = 0; i + 1 < n; i++) { double a = x[i + 1] - x[i] * x[i], b = 1.0 - x[i]; s += 100.0 * a * a + b * b; }
  return s;
}

static void rhs(double t, const double *y, double *dy, const double *p) {
  dy[0] = p[0] * y[0] - p[1] * y[0] * y[1];
  dy[1] = p[2] * y[0] * y[1] - p[3] * y[1];
  (void)t;
}

double rk4(const double *p, long steps) {
  double y[2] = {1.0, 0.5}, k1[2], k2[2], k3[2], k4[2], t[2], h = 1e-3;
  for (long s = 0; s < steps; s++) {
    rhs(0, y, k1, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k1[i];
    rhs(0, t, k2, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + 0.5 * h * k2[i];
    rhs(0, t, k3, p);
    for (int i = 0; i < 2; i++) t[i] = y[i] + h * k3[i];
    rhs(0, t, k4, p);
    for (int i = 0; i < 2; i++) y[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
  }
  return y[0] + y[1];
}

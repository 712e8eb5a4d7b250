/* The differentiated function: the n-dimensional Rosenbrock function. */
double rosenbrock(const double *x, long n) {
  double sum = 0.0;
  for (long i = 0; i + 1 < n; i++) {
    double a = 1.0 - x[i];
    double b = x[i + 1] - x[i] * x[i];
    sum += a * a + 100.0 * b * b;
  }
  return sum;
}

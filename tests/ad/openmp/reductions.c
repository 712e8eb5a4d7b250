/* Dot products, norms and moments with `reduction(+:...)`, one and two reduction variables and an array
   section; the same sums written by hand with `atomic` and with per-thread partials added in a `critical`
   section, the same into a float accumulator, and a second derivative (forward over forward). */
#include "omp_check.h"
enum { N = 33 };

double dot(const double *a, const double *b, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

double norm2(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}

double variance(const double *x, int n) {
  double sum = 0, sumsq = 0;
#pragma omp parallel for reduction(+ : sum, sumsq)
  for (int i = 0; i < n; i++) {
    sum += x[i];
    sumsq += x[i] * x[i];
  }
  double mean = sum / n;
  return sumsq / n - mean * mean;
}

double cubes_atomic(const double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double c = x[i] * x[i] * x[i];
#pragma omp atomic
    s += c;
  }
  return s;
}

double cubes_critical(const double *x, int n) {
  double s = 0;
#pragma omp parallel
  {
    double partial = 0;
#pragma omp for nowait
    for (int i = 0; i < n; i++) partial += sin(x[i]) * x[i];
#pragma omp critical
    s += partial;
  }
  return s;
}

/* Per-thread double partials added into a float in a critical section: `s += partial` converts s to double and
   the sum back to float around the addition (still a sum, which reverse mode may run in any thread order). */
double mixed_critical(const double *x, int n) {
  float s = 0;
#pragma omp parallel
  {
    double partial = 0;
#pragma omp for
    for (int i = 0; i < n; i++) partial += 0.5 * x[i] * x[i] + cos(x[i]);
#pragma omp critical
    s += partial;
  }
  return s;
}

/* An array reduction: per-bin sums of squares, then a weighted energy of the bins. */
double binned(const double *x, int n) {
  double bins[4] = {0};
#pragma omp parallel for reduction(+ : bins[:4])
  for (int i = 0; i < n; i++) bins[i % 4] += x[i] * x[i];
  double s = 0;
  for (int b = 0; b < 4; b++) s += bins[b] * (b + 1) * bins[b];
  return s;
}

/* Forward over forward: the second directional derivative of cubes_critical along v and w. */
double tangent_of_critical(const double *x, const double *v, int n) {
  return __enzyme_fwddiff((void *)cubes_critical, enzyme_dup, x, v, enzyme_const, n);
}

static double weights[N];
static double dot_of(double *x) { return dot(x, weights, N); }
static double norm_of(double *x) { return norm2(x, N); }
static double variance_of(double *x) { return variance(x, N); }
static double atomic_of(double *x) { return cubes_atomic(x, N); }
static double critical_of(double *x) { return cubes_critical(x, N); }
static double binned_of(double *x) { return binned(x, N); }

/* Reverse over all inputs, forward one input at a time, against central differences of `f`; the kernel's
   arguments after x (and its shadow) are `rest`. */
#define CHECK_ALL(name, f, kernel, ...) do {                                                       \
    double fd[N], dx[N], g[N];                                                                     \
    central_gradient(f, x, N, fd);                                                                 \
    memset(dx, 0, sizeof dx);                                                                      \
    __enzyme_autodiff((void *)kernel, enzyme_dup, x, dx, __VA_ARGS__);                             \
    for (int i = 0; i < N; i++) check(name " reverse", i, dx[i], fd[i], 1e-6);                     \
    for (int i = 0; i < N; i++) {                                                                  \
      memset(dx, 0, sizeof dx);                                                                    \
      dx[i] = 1;                                                                                   \
      g[i] = __enzyme_fwddiff((void *)kernel, enzyme_dup, x, dx, __VA_ARGS__);                     \
    }                                                                                              \
    for (int i = 0; i < N; i++) check(name " forward", i, g[i], fd[i], 1e-6);                      \
  } while (0)

int main(void) {
  double x[N];
  for (int i = 0; i < N; i++) {
    x[i] = cos(0.7 * i) + 0.1 * i;
    weights[i] = 1.0 / (1 + i);
  }
  CHECK_ALL("dot", dot_of, dot, enzyme_const, weights, enzyme_const, N);
  CHECK_ALL("norm", norm_of, norm2, enzyme_const, N);
  CHECK_ALL("variance", variance_of, variance, enzyme_const, N);
  CHECK_ALL("atomic", atomic_of, cubes_atomic, enzyme_const, N);
  CHECK_ALL("critical", critical_of, cubes_critical, enzyme_const, N);
  CHECK_ALL("array reduction", binned_of, binned, enzyme_const, N);
  {  /* float result: against the formula d/dx_i = x_i - sin(x_i) (the float sum is too coarse for differences) */
    double dx[N];
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)mixed_critical, enzyme_dup, x, dx, enzyme_const, N);
    for (int i = 0; i < N; i++) check("mixed-precision critical reverse", i, dx[i], x[i] - sin(x[i]), 1e-12);
    for (int i = 0; i < N; i++) {
      memset(dx, 0, sizeof dx);
      dx[i] = 1;
      check("mixed-precision critical forward", i,
            __enzyme_fwddiff((void *)mixed_critical, enzyme_dup, x, dx, enzyme_const, N), x[i] - sin(x[i]), 1e-6);
    }
  }
  double v[N], w[N], second = 0;
  for (int i = 0; i < N; i++) {
    v[i] = 1.0 / (1 + i);
    w[i] = (i % 3) - 1.0;
    second += v[i] * w[i] * (2 * cos(x[i]) - x[i] * sin(x[i]));
  }
  check("forward over forward", 0,
        __enzyme_fwddiff((void *)tangent_of_critical, enzyme_dup, x, w, enzyme_const, v, enzyme_const, N), second,
        1e-10);
  return finish();
}

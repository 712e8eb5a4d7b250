/* Clauses around parallel loops: per-thread partial sums indexed by omp_get_thread_num() with a chunked
   static schedule and a `single` block; `if`, `num_threads` and `firstprivate` (also of active scalars the
   threads change); `collapse(2)`; max and
   product reductions (forward mode only: reverse mode refuses them, tests/ad/test_openmp.py). */
#include "omp_check.h"
enum { N = 23 };

double partials(const double *x, int n) {
  double part[64] = {0};
  int nt = 1;
#pragma omp parallel
  {
    int t = omp_get_thread_num();
#pragma omp single
    nt = omp_get_num_threads();
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++) part[t] += x[i] * x[i] * x[i];
  }
  double s = 0;
  for (int t = 0; t < nt; t++) s += part[t];
  return s;
}

double scaled(const double *x, double *y, int n, double k) {
#pragma omp parallel for firstprivate(k) num_threads(2) if (n > 3)
  for (int i = 0; i < n; i++) y[i] = k * x[i] * x[i];
  double s = 0;
  for (int i = 0; i < n; i++) s += y[i];
  return s;
}

double collapsed(const double *x, int n) {
  double s = 0;
#pragma omp parallel for collapse(2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 3; j++) s += x[i] * x[(i + j) % n];
  return s;
}

double peak_and_growth(const double *x, int n) {
  double m = -1e300, p = 1;
#pragma omp parallel for reduction(max : m) reduction(* : p)
  for (int i = 0; i < n; i++) {
    m = fmax(m, sin(x[i]));
    p *= 1 + 0.1 * x[i];
  }
  return m + p;
}

/* Active firstprivate scalars (a double and a float) that each thread changes after its first iteration: the
   derivative with respect to them sums over the threads' private copies, so it depends on the schedule (the
   finite differences see the same schedule).  __enzyme_double/__enzyme_float are upstream Enzyme's type hints
   (no run-time effect; pyenzyme removes them, from the primal too, which could not link otherwise). */
void __enzyme_double(void *);
void __enzyme_float(void *);
double decaying(const double *x, int n, double c, float g) {
  double s = 0;
#pragma omp parallel for firstprivate(c, g) reduction(+ : s) schedule(static)
  for (int i = 0; i < n; i++) {
    s += c * x[i] + g * x[i] * x[i];
    c = 0.5 * c;
    g = 0.25f * g;
    __enzyme_double(&c);
    __enzyme_float(&g);
  }
  return s;
}

static double ybuf[N];
static double partials_of(double *x) { return partials(x, N); }
static double scaled_of(double *x) { return scaled(x, ybuf, N, 1.7); }
static double collapsed_of(double *x) { return collapsed(x, N); }
static double peak_of(double *x) { return peak_and_growth(x, N); }

int main(void) {
  double x[N], fd[N], dx[N], dy[N];
  for (int i = 0; i < N; i++) x[i] = 0.3 + 0.07 * i;

  central_gradient(partials_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("partials reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("partials forward", i, __enzyme_fwddiff((void *)partials, enzyme_dup, x, dx, enzyme_const, N), fd[i], 1e-6);
  }

  central_gradient(scaled_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  __enzyme_autodiff((void *)scaled, enzyme_dup, x, dx, enzyme_dup, ybuf, dy, enzyme_const, N, enzyme_const, 1.7);
  for (int i = 0; i < N; i++) check("scaled reverse", i, dx[i], fd[i], 1e-6);
  double sum_sq = 0;
  for (int i = 0; i < N; i++) sum_sq += x[i] * x[i];
  memset(dy, 0, sizeof dy);  /* d/dk through the firstprivate copy, forward mode */
  double dk = __enzyme_fwddiff((void *)scaled, enzyme_const, x, enzyme_dup, ybuf, dy, enzyme_const, N, 1.7, 1.0);
  check("scaled forward dk", 0, dk, sum_sq, 1e-9);

  central_gradient(collapsed_of, x, N, fd);
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)collapsed, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("collapsed reverse", i, dx[i], fd[i], 1e-6);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("collapsed forward", i, __enzyme_fwddiff((void *)collapsed, enzyme_dup, x, dx, enzyme_const, N), fd[i],
          1e-6);
  }

  {  /* decaying: d/dc and d/dg (linear in both: the differences are exact with a step of 0.5) */
    const double c = 1.3;
    const float g = 0.75f;
    double fd_c = (decaying(x, N, c + 0.5, g) - decaying(x, N, c - 0.5, g)) / 1.0;
    double fd_g = (decaying(x, N, c, g + 0.5f) - decaying(x, N, c, g - 0.5f)) / 1.0;
    typedef struct { double dc; float dg; } Grad;
    Grad (*grad)(void *, ...) = (Grad (*)(void *, ...))__enzyme_autodiff;
    Grad r = grad((void *)decaying, enzyme_const, x, enzyme_const, N, enzyme_out, c, enzyme_out, g);
    check("firstprivate reverse dc", 0, r.dc, fd_c, 1e-12);
    check("firstprivate reverse dg", 0, r.dg, fd_g, 1e-6);
    check("firstprivate forward dc", 0,
          __enzyme_fwddiff((void *)decaying, enzyme_const, x, enzyme_const, N, enzyme_dup, c, 1.0, enzyme_const, g),
          fd_c, 1e-12);
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)decaying, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, c, enzyme_const, g);
    for (int i = 0; i < N; i++) {
      double x0 = x[i], h = 1e-6;
      x[i] = x0 + h;
      double up = decaying(x, N, c, g);
      x[i] = x0 - h;
      double down = decaying(x, N, c, g);
      x[i] = x0;
      check("firstprivate reverse dx", i, dx[i], (up - down) / (2 * h), 1e-6);
    }
  }

  central_gradient(peak_of, x, N, fd);
  for (int i = 0; i < N; i++) {
    memset(dx, 0, sizeof dx);
    dx[i] = 1;
    check("max/product forward", i, __enzyme_fwddiff((void *)peak_and_growth, enzyme_dup, x, dx, enzyme_const, N),
          fd[i], 1e-6);
  }
  return finish();
}

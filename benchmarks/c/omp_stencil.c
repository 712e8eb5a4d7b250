/* A 2-D explicit heat step with a nonlinear reaction term, parallelized as such solvers are
   (`parallel for` over rows, static schedule), then a misfit with `reduction(+:)`.  The harness times the
   primal and the reverse-mode gradient (best of --reps runs) and checks two gradient entries against
   central differences.  Threads: OMP_NUM_THREADS. */
#include <math.h>
#ifdef _OPENMP
#include <omp.h>
#else  /* the same program serial (built without -fopenmp), for comparison */
#include <time.h>
static double omp_get_wtime(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
static int omp_get_max_threads(void) { return 1; }
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);

enum { NX = 384, NY = 384, STEPS = 8 };

double evolve(double *u, double *v, const double *target, double k) {
  for (int s = 0; s < STEPS; s++) {
#pragma omp parallel for schedule(static)
    for (int i = 1; i < NX - 1; i++)
      for (int j = 1; j < NY - 1; j++) {
        const double *r = u + i * NY;
        double lap = r[j - NY] + r[j + NY] + r[j - 1] + r[j + 1] - 4 * r[j];
        v[i * NY + j] = r[j] + k * lap - 0.05 * r[j] * r[j] * r[j];
      }
    double *t = u; u = v; v = t;
  }
  double misfit = 0;
#pragma omp parallel for schedule(static) reduction(+ : misfit)
  for (int i = 0; i < NX * NY; i++) misfit += (u[i] - target[i]) * (u[i] - target[i]);
  return misfit;
}

static double now(void) { return omp_get_wtime(); }

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 10;
  size_t n = (size_t)NX * NY;
  double *u0 = malloc(n * sizeof(double)), *u = malloc(n * sizeof(double)), *v = calloc(n, sizeof(double));
  double *du = malloc(n * sizeof(double)), *dv = malloc(n * sizeof(double)), *target = malloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++) {
    u0[i] = sin(0.01 * (double)i) * 0.5 + 0.5;
    target[i] = cos(0.003 * (double)i) * 0.3;
  }
  double best_primal = 1e30, best_gradient = 1e30, value = 0;
  for (int r = 0; r < reps; r++) {
    memcpy(u, u0, n * sizeof(double));
    double t0 = now();
    value = evolve(u, v, target, 0.1);
    double t1 = now();
    if (t1 - t0 < best_primal) best_primal = t1 - t0;
  }
  for (int r = 0; r < reps; r++) {
    memcpy(u, u0, n * sizeof(double));
    memset(du, 0, n * sizeof(double));
    memset(dv, 0, n * sizeof(double));
    double t0 = now();
    __enzyme_autodiff((void *)evolve, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, target, enzyme_const, 0.1);
    double t1 = now();
    if (t1 - t0 < best_gradient) best_gradient = t1 - t0;
  }
  int bad = 0;
  size_t probes[2] = {(size_t)NY * 100 + 37, (size_t)NY * 200 + 211};
  for (int p = 0; p < 2; p++) {
    size_t i = probes[p];
    double h = 1e-6;
    memcpy(u, u0, n * sizeof(double));
    u[i] += h;
    double plus = evolve(u, v, target, 0.1);
    memcpy(u, u0, n * sizeof(double));
    u[i] -= h;
    double minus = evolve(u, v, target, 0.1);
    double fd = (plus - minus) / (2 * h);
    if (fabs(fd - du[i]) > 1e-5 * (1 + fabs(fd))) bad = 1;
  }
  printf("threads=%d value=%.12g primal_ms=%.3f gradient_ms=%.3f ratio=%.2f check=%s\n", omp_get_max_threads(), value,
         best_primal * 1e3, best_gradient * 1e3, best_gradient / best_primal, bad ? "MISMATCH" : "ok");
  return bad;
}

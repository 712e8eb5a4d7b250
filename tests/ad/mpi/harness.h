/* Checks the derivatives of `objective` (defined by the including program) against central finite differences
 * of the whole distributed program, on every rank.
 *
 *   mpirun -np P ./prog [reverse|forward|both]
 *
 * Every rank calls the same __enzyme_autodiff/__enzyme_fwddiff.  The objective of the whole program is
 * J(X) = sum over ranks r of objective_r(X), where X is all ranks' inputs: a reverse call seeds every rank's result
 * with 1, so rank q's gradient is dJ/dx_q; a forward call gives each rank the tangent of its own result, and their
 * sum is dJ/dX . V.  The finite differences evaluate J, all ranks together, with one input perturbed.
 * Rank 0 prints "MPI-AD OK" or the first mismatch; the exit status is 0 only if every rank agrees. */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef NLOCAL
#define NLOCAL 6
#endif
#ifndef FD_STEP /* a program with single-precision data takes a larger step (and a looser tolerance) */
#define FD_STEP 1e-6
#endif
#ifndef FD_TOL
#define FD_TOL 1e-5
#endif

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
double objective(double *x, int n);

static double total(double *x, int n) {
  double mine = objective(x, n), all;
  MPI_Allreduce(&mine, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

static int close_enough(double ad, double fd) { return fabs(ad - fd) <= FD_TOL * (0.1 + fabs(fd)); }

static int check(int forward) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[NLOCAL], dx[NLOCAL], v[NLOCAL], xp[NLOCAL];
  for (int i = 0; i < NLOCAL; i++) {
    x[i] = 0.3 + 0.1 * i + 0.17 * rank + 0.05 * sin(3.0 * i + rank);
    v[i] = cos(1.3 * i + 0.7 * rank);
    dx[i] = 0;
  }
  const double h = FD_STEP;
  int ok = 1;
  double worst = 0;
  if (!forward) {
    memcpy(xp, x, sizeof x);
    __enzyme_autodiff((void *)objective, enzyme_dup, xp, dx, enzyme_const, NLOCAL);
    for (int q = 0; q < size; q++)
      for (int i = 0; i < NLOCAL; i++) {
        memcpy(xp, x, sizeof x);
        if (rank == q) xp[i] += h;
        double up = total(xp, NLOCAL);
        memcpy(xp, x, sizeof x);
        if (rank == q) xp[i] -= h;
        double down = total(xp, NLOCAL);
        double fd = (up - down) / (2 * h);
        if (rank == q) {
          if (fabs(dx[i] - fd) > worst) worst = fabs(dx[i] - fd);
          if (ok && !close_enough(dx[i], fd)) {
            printf("rank %d: d/dx[%d]: reverse %.12g, finite differences %.12g\n", rank, i, dx[i], fd);
            ok = 0;
          }
        }
      }
  } else {
    memcpy(xp, x, sizeof x);
    double tangent = __enzyme_fwddiff((void *)objective, enzyme_dup, xp, v, enzyme_const, NLOCAL), sum;
    MPI_Allreduce(&tangent, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < NLOCAL; i++) xp[i] = x[i] + h * v[i];
    double up = total(xp, NLOCAL);
    for (int i = 0; i < NLOCAL; i++) xp[i] = x[i] - h * v[i];
    double down = total(xp, NLOCAL);
    double fd = (up - down) / (2 * h);
    worst = fabs(sum - fd);
    if (!close_enough(sum, fd)) {
      if (rank == 0) printf("forward %.12g, finite differences %.12g\n", sum, fd);
      ok = 0;
    }
  }
  int all_ok;
  double all_worst;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&worst, &all_worst, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf(all_ok ? "MPI-AD OK %s np=%d max|ad-fd|=%.3g\n" : "MPI-AD FAILED %s np=%d max|ad-fd|=%.3g\n",
                        forward ? "forward" : "reverse", size, all_worst);
  return all_ok;
}

#ifndef MPI_NO_BATCH
/* Forward mode with two directions at once (enzyme_width 2): each rank's pair of tangents, summed over the ranks,
 * against central differences of J along each direction (a program whose calls have no batched derivative, such as
 * non-blocking point-to-point, defines MPI_NO_BATCH). */
typedef struct { double d[2]; } mpi_pair_t;
mpi_pair_t __enzyme_fwddiff_pair(void *, ...);
extern int enzyme_width;

static int check_batch(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double x[NLOCAL], v0[NLOCAL], v1[NLOCAL], xp[NLOCAL];
  for (int i = 0; i < NLOCAL; i++) {
    x[i] = 0.3 + 0.1 * i + 0.17 * rank + 0.05 * sin(3.0 * i + rank);
    v0[i] = cos(1.3 * i + 0.7 * rank);
    v1[i] = sin(0.9 * i + 0.4 * rank) - 0.2;
  }
  memcpy(xp, x, sizeof x);
  mpi_pair_t t = __enzyme_fwddiff_pair((void *)objective, enzyme_width, 2, enzyme_dup, xp, v0, v1, enzyme_const,
                                       NLOCAL);
  double sums[2];
  MPI_Allreduce(t.d, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  const double h = FD_STEP;
  int ok = 1;
  double worst = 0;
  for (int k = 0; k < 2; k++) {
    const double *v = k ? v1 : v0;
    for (int i = 0; i < NLOCAL; i++) xp[i] = x[i] + h * v[i];
    double up = total(xp, NLOCAL);
    for (int i = 0; i < NLOCAL; i++) xp[i] = x[i] - h * v[i];
    double down = total(xp, NLOCAL);
    double fd = (up - down) / (2 * h);
    if (fabs(sums[k] - fd) > worst) worst = fabs(sums[k] - fd);
    if (!close_enough(sums[k], fd)) {
      if (rank == 0) printf("batch forward direction %d: %.12g, finite differences %.12g\n", k, sums[k], fd);
      ok = 0;
    }
  }
  int all_ok;
  MPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) printf(all_ok ? "MPI-AD OK batch np=%d max|ad-fd|=%.3g\n" : "MPI-AD FAILED batch np=%d max|ad-fd|=%.3g\n",
                        size, worst);
  return all_ok;
}
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const char *mode = argc > 1 ? argv[1] : "both";
  int ok = 1;
  if (strcmp(mode, "forward") != 0) ok &= check(0);
  if (strcmp(mode, "reverse") != 0) ok &= check(1);
#ifndef MPI_NO_BATCH
  if (strcmp(mode, "both") == 0) ok &= check_batch();
#endif
  MPI_Finalize();
  return ok ? 0 : 1;
}

/* Benchmark kernel: a 1-D halo-exchange stencil over MPI ranks (benchmarks/bench_mpi.py).
 *
 * Each rank owns N cells of a periodic ring; every step exchanges one ghost cell with each neighbour
 * (MPI_Irecv/MPI_Isend/MPI_Waitall), applies a nonlinear diffusion update and the energy sum(u^2) is reduced
 * with MPI_Allreduce.  Rank 0 prints the best-of-REPEAT times of the primal and of the reverse-mode gradient
 * (all ranks synchronised by a barrier around each run) and checks one gradient entry against central finite
 * differences.
 *
 *   mpirun -np P ./mpi_stencil [N] [STEPS] [REPEAT]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

double energy(double *x, double *work, int n, int steps) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double *u = work, *next = work + n + 2;
  for (int i = 0; i < n; i++) u[i + 1] = x[i];
  for (int s = 0; s < steps; s++) {
    MPI_Request req[4];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= n; i++) next[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * u[i] * u[i] * u[i];
    for (int i = 1; i <= n; i++) u[i] = next[i];
  }
  double local = 0, global;
  for (int i = 1; i <= n; i++) local += u[i] * u[i];
  MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return global;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int n = argc > 1 ? atoi(argv[1]) : 100000, steps = argc > 2 ? atoi(argv[2]) : 20;
  int repeat = argc > 3 ? atoi(argv[3]) : 5, rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double *x = malloc(n * sizeof(double)), *dx = malloc(n * sizeof(double));
  double *work = malloc(2 * (n + 2) * sizeof(double)), *dwork = calloc(2 * (n + 2), sizeof(double));
  for (int i = 0; i < n; i++) x[i] = 0.5 + 0.3 * sin(0.001 * i + rank);
  double primal = 1e30, gradient = 1e30, value = 0;
  for (int k = 0; k < repeat; k++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    value = energy(x, work, n, steps);
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = MPI_Wtime();
    memset(dx, 0, n * sizeof(double));
    __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_dup, work, dwork, enzyme_const, n, enzyme_const,
                      steps);
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = MPI_Wtime();
    if (t1 - t0 < primal) primal = t1 - t0;
    if (t2 - t1 < gradient) gradient = t2 - t1;
  }
  /* Every rank seeds its (replicated) result with 1: the gradient is size * dE/dx. */
  const double h = 1e-4;  /* the energy is large: a smaller step drowns in rounding */
  double keep = x[n / 2];
  if (rank == 0) x[n / 2] = keep + h;
  double up = energy(x, work, n, steps);
  if (rank == 0) x[n / 2] = keep - h;
  double down = energy(x, work, n, steps);
  x[n / 2] = keep;
  if (rank == 0) {
    double fd = size * (up - down) / (2 * h);
    int ok = fabs(dx[n / 2] - fd) <= 1e-6 * fabs(fd) + 1e-6;
    printf("ranks=%d n=%d steps=%d energy=%.6g primal_ms=%.3f gradient_ms=%.3f ratio=%.2f check=%s\n", size, n,
           steps, value, primal * 1e3, gradient * 1e3, gradient / primal, ok ? "ok" : "FAILED");
  }
  MPI_Finalize();
  return 0;
}

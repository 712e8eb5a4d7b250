/* The 1-D stencil with non-blocking halo exchange: MPI_Irecv and MPI_Isend to both neighbours, interior cells
 * updated while the messages travel, MPI_Waitall, then the boundary cells.  One extra MPI_Wait per step sends a
 * diagnostic integer (communication that carries no derivative). */
#define MPI_NO_BATCH /* non-blocking point-to-point has no batched forward derivative */
#include "harness.h"

#define STEPS 3

double objective(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double *u = malloc((n + 2) * sizeof(double)), *next = malloc((n + 2) * sizeof(double));
  for (int i = 0; i < n; i++) u[i + 1] = x[i];
  for (int step = 0; step < STEPS; step++) {
    MPI_Request req[4], flag_req;
    int flag_out = step, flag_in;
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 10, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 11, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 10, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 11, MPI_COMM_WORLD, &req[3]);
    MPI_Irecv(&flag_in, 1, MPI_INT, left, 12, MPI_COMM_WORLD, &flag_req);
    MPI_Send(&flag_out, 1, MPI_INT, right, 12, MPI_COMM_WORLD);
    for (int i = 2; i < n; i++) next[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.1 * sin(u[i]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    MPI_Wait(&flag_req, MPI_STATUS_IGNORE);
    if (flag_in != step) abort();
    next[1] = u[1] + 0.2 * (u[0] - 2 * u[1] + u[2]) + 0.1 * sin(u[1]);
    next[n] = u[n] + 0.2 * (u[n - 1] - 2 * u[n] + u[n + 1]) + 0.1 * sin(u[n]);
    for (int i = 1; i <= n; i++) u[i] = next[i];
  }
  double s = 0;
  for (int i = 1; i <= n; i++) s += u[i] * u[i] * (1.0 + 0.1 * i);
  free(u);
  free(next);
  return s;
}

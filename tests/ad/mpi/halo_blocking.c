/* A 1-D diffusion stencil on a periodic ring of ranks, each rank owning NLOCAL cells plus two ghost cells.
 * Halos are exchanged with blocking MPI_Send/MPI_Recv (even ranks send first, odd ranks receive first) on even
 * steps and with MPI_Sendrecv on odd steps.  Returns the rank's share of sum(u^2). */
#include "harness.h"

#define STEPS 4

static void exchange_send_recv(double *u, int n, int left, int right, int rank) {
  if (rank % 2 == 0) {
    MPI_Send(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
    MPI_Send(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
    MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
    MPI_Send(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD);
  }
}

/* The datatype and communicator come in as parameters, as in libraries of exchange routines. */
static void exchange_sendrecv(double *u, int n, int left, int right, MPI_Datatype type, MPI_Comm comm) {
  MPI_Status status;
  MPI_Sendrecv(&u[n], 1, type, right, 2, &u[0], 1, type, left, 2, comm, &status);
  MPI_Sendrecv(&u[1], 1, type, left, 3, &u[n + 1], 1, type, right, 3, comm, &status);
}

double objective(double *x, int n) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int left = (rank + size - 1) % size, right = (rank + 1) % size;
  double *u = malloc((n + 2) * sizeof(double)), *next = malloc((n + 2) * sizeof(double));
  for (int i = 0; i < n; i++) u[i + 1] = x[i];
  for (int step = 0; step < STEPS; step++) {
    if (step % 2 == 0) exchange_send_recv(u, n, left, right, rank);
    else exchange_sendrecv(u, n, left, right, MPI_DOUBLE, MPI_COMM_WORLD);
    for (int i = 1; i <= n; i++) next[i] = u[i] + 0.2 * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.05 * u[i] * u[i];
    for (int i = 1; i <= n; i++) u[i] = next[i];
  }
  double s = 0;
  for (int i = 1; i <= n; i++) s += u[i] * u[i];
  free(u);
  free(next);
  return s;
}

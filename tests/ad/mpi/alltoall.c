/* All-to-all exchanges: MPI_Alltoall (out of place, and MPI_IN_PLACE) and MPI_Alltoallv with blocks of different
 * lengths and a gap in the receive buffer.  Each rank's result mixes what it received with its own inputs, so a
 * wrong block order in the adjoint (or tangent) exchange shows as a wrong derivative. */
#include "harness.h"

enum { MAXP = 8 };

double objective(double *x, int n) {
  (void)n;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  /* two elements for each rank: block j goes to rank j */
  double send[2 * MAXP], recv[2 * MAXP];
  for (int j = 0; j < size; j++) {
    send[2 * j] = x[j % NLOCAL] * (1.0 + 0.25 * j);
    send[2 * j + 1] = x[(j + 2) % NLOCAL] * x[(j + 3) % NLOCAL];
  }
  MPI_Alltoall(send, 2, MPI_DOUBLE, recv, 2, MPI_DOUBLE, MPI_COMM_WORLD);
  double out = 0;
  for (int j = 0; j < 2 * size; j++) out += (1.0 + 0.1 * j) * recv[j] * recv[j] * 0.5;

  /* in place: one element per rank */
  double both[MAXP];
  for (int j = 0; j < size; j++) both[j] = x[(j + 1) % NLOCAL] + 0.3 * j;
  MPI_Alltoall(MPI_IN_PLACE, 1, MPI_DOUBLE, both, 1, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int j = 0; j < size; j++) out += both[j] * x[4] * (j + 1);

  /* v: rank r sends 1 + (r + j) % 2 elements to rank j; the receive buffer leaves one unused slot after each
   * block (its adjoint must stay as it is) */
  int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP], s = 0, r = 0;
  for (int j = 0; j < size; j++) {
    scounts[j] = 1 + (rank + j) % 2;
    sdispls[j] = s;
    s += scounts[j];
    rcounts[j] = 1 + (rank + j) % 2;
    rdispls[j] = r;
    r += rcounts[j] + 1;
  }
  double vsend[2 * MAXP], vrecv[3 * MAXP];
  for (int i = 0; i < s; i++) vsend[i] = sin(x[i % NLOCAL] + 0.1 * i);
  for (int i = 0; i < r; i++) vrecv[i] = x[5];  /* the gaps keep this value */
  MPI_Alltoallv(vsend, scounts, sdispls, MPI_DOUBLE, vrecv, rcounts, rdispls, MPI_DOUBLE, MPI_COMM_WORLD);
  for (int i = 0; i < r; i++) out += vrecv[i] * x[(i + 1) % NLOCAL] * (1.0 + 0.05 * i);
  return out;
}

/* The less common forms: MPI_IN_PLACE reductions, MPI_FLOAT data, MPI_MIN/MPI_MAX (the derivative goes to the rank
 * that supplied the extreme value), MPI_Reduce with MPI_IN_PLACE at the root, and a non-blocking exchange
 * completed by two MPI_Wait calls.  Single precision needs a larger finite-difference step; the objective is a
 * polynomial of low degree, so central differences stay accurate with it. */
#define FD_STEP 1e-2
#define FD_TOL 1e-3
#define MPI_NO_BATCH /* MPI_Isend/MPI_Irecv/MPI_Wait and in-place MIN/MAX have no batched forward derivative */
#include "harness.h"

/* A datatype and an operation read from variables: the derivative helpers decide about them at run time. */
MPI_Datatype volatile double_type;
MPI_Op volatile sum_op;

double objective(double *x, int n) {
  (void)n;
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  float f[2] = {(float)(x[0] * x[1]), (float)(x[2] * x[2])};
  MPI_Allreduce(MPI_IN_PLACE, f, 2, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  double d[2] = {x[3] * x[4], x[5]};
  double_type = MPI_DOUBLE;
  sum_op = MPI_SUM;
  MPI_Allreduce(MPI_IN_PLACE, d, 2, double_type, sum_op, MPI_COMM_WORLD);
  double mine = x[1] * x[2] - 0.5 * rank, lowest;  /* no near-ties between ranks */
  MPI_Allreduce(&mine, &lowest, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  double high = x[4] * x[0] + 0.2 * rank;
  if (rank == 0)
    MPI_Reduce(MPI_IN_PLACE, &high, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  else
    MPI_Reduce(&high, NULL, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double out = x[2] * x[3], in;
  MPI_Request recv, send;
  MPI_Irecv(&in, 1, MPI_DOUBLE, (rank + size - 1) % size, 5, MPI_COMM_WORLD, &recv);
  MPI_Isend(&out, 1, MPI_DOUBLE, (rank + 1) % size, 5, MPI_COMM_WORLD, &send);
  MPI_Wait(&send, MPI_STATUS_IGNORE);
  MPI_Wait(&recv, MPI_STATUS_IGNORE);
  return f[0] + 0.5 * f[1] + d[0] * d[1] + 2.0 * lowest + (rank == 0 ? high : 0.0) + in * x[0];
}

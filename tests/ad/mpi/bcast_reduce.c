/* Parameters live on the root: it broadcasts them (MPI_Bcast), every rank evaluates a model on its own data with
 * them, and the partial losses meet at the root (MPI_Reduce, MPI_SUM); the root returns the loss, the others 0. */
#include "harness.h"

#define NPARAMS 3

double objective(double *x, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double params[NPARAMS];
  if (rank == 0)
    for (int k = 0; k < NPARAMS; k++) params[k] = x[k];
  MPI_Bcast(params, NPARAMS, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double loss[2] = {0, 0};
  for (int i = 0; i < n; i++) {
    double t = 0.1 * (i + rank * n);
    double model = params[0] + params[1] * t + params[2] * sin(t * x[i]);
    double r = model - x[i] * x[i];
    loss[0] += r * r;
    loss[1] += fabs(model) * 0.01;
  }
  double global[2] = {0, 0};
  MPI_Reduce(loss, global, 2, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return rank == 0 ? global[0] + global[1] : 0.0;
}

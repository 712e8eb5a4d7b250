/* A distributed norm: every rank owns a slice of a vector; the 2-norm and the largest |product of neighbours|
 * come from MPI_Allreduce (MPI_SUM and MPI_MAX); each rank returns the same value. */
#include "harness.h"

double objective(double *x, int n) {
  double local = 0, biggest = -1e300;
  for (int i = 0; i < n; i++) local += x[i] * x[i];
  for (int i = 0; i + 1 < n; i++) {
    double p = sin(x[i]) * x[i + 1];
    if (p > biggest) biggest = p;
  }
  double sums[2] = {local, 0.0}, global[2];
  sums[1] = exp(-local);
  MPI_Allreduce(sums, global, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double top;
  MPI_Allreduce(&biggest, &top, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return sqrt(global[0]) + 0.25 * global[1] + top / size;
}

/* MPI calls pyenzyme refuses to differentiate (one per REFUSE_* macro): each must be a compile-time error naming
 * the call and this file's line, never a wrong derivative. */
#include <mpi.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
void __enzyme_autodiff(void *, ...);
typedef struct { double d[2]; } pair_t;
pair_t __enzyme_fwddiff_pair(void *, ...);

/* RUNTIME_DATATYPE: a datatype only known at run time (read from a variable) is checked by the derivative helpers,
 * which stop the program with a message instead of differentiating it. */
MPI_Datatype volatile chosen_type;

double objective(double *x, int n) {
  double s = 0, all[64];
  for (int i = 0; i < n; i++) s += x[i] * x[i];
#if defined(REFUSE_GATHER)
  MPI_Gather(&s, 1, MPI_DOUBLE, all, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);  /* no rule */
#elif defined(REFUSE_PROD)
  MPI_Allreduce(&s, all, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);  /* unsupported reduction */
#elif defined(REFUSE_WILDCARD)
  MPI_Sendrecv(&s, 1, MPI_DOUBLE, 0, 0, all, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);  /* wildcard receive of derivatives */
#elif defined(REFUSE_LONG_DOUBLE)
  long double t = s, u;
  MPI_Allreduce(&t, &u, 1, MPI_LONG_DOUBLE, MPI_SUM, MPI_COMM_WORLD);  /* unsupported datatype */
  all[0] = (double)u;
#elif defined(RUNTIME_DATATYPE)
  long double t = s, u;
  MPI_Allreduce(&t, &u, 1, chosen_type, MPI_SUM, MPI_COMM_WORLD);
  all[0] = (double)u;
#elif defined(REFUSE_TEST)
  MPI_Request request;
  int done = 0;
  MPI_Irecv(all, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &request);
  MPI_Send(&s, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  while (!done) MPI_Test(&request, &done, MPI_STATUS_IGNORE);  /* completion the derivative does not follow */
#elif defined(REFUSE_BATCH)
  MPI_Request request;
  MPI_Irecv(all, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &request);  /* no derivative for two directions at once */
  MPI_Send(&s, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
#endif
  return all[0];
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double x[4] = {1, 2, 3, 4}, dx[4] = {0};
  chosen_type = MPI_LONG_DOUBLE;
#if defined(REFUSE_BATCH)  /* forward mode, enzyme_width 2 */
  double v0[4] = {1, 0, 0, 0}, v1[4] = {0, 1, 0, 0};
  (void)dx;
  __enzyme_fwddiff_pair((void *)objective, enzyme_width, 2, enzyme_dup, x, v0, v1, enzyme_const, 4);
#else
  __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_const, 4);
#endif
  MPI_Finalize();
  return 0;
}

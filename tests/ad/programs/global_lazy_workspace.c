#include "check.h"
/* A solver that allocates its work array on first use and keeps it in a file-scope pointer, growing it when a
   larger problem comes (free + malloc): the derivative is called when the array is already allocated (by the
   primal calls of the central differences), and again with a larger n, which reallocates it inside the
   derivative.  Reverse, forward and split mode against central differences. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

static double *work = NULL;
static int capacity = 0;

double smoothed_energy(const double *x, int n) {
  if (capacity < n) {
    free(work);
    work = malloc(n * sizeof(double));
    capacity = n;
  }
  for (int i = 0; i < n; i++) work[i] = x[i] * x[i];
  for (int sweep = 0; sweep < 3; sweep++)
    for (int i = 1; i < n - 1; i++) work[i] = 0.5 * work[i] + 0.25 * (work[i - 1] + work[i + 1]);
  double s = 0;
  for (int i = 0; i < n; i++) s += work[i] * x[i];
  return s;
}

static void check_all(double *x, int n) {
  double dx[8] = {0}, sx[8] = {0};
  __enzyme_autodiff((void *)smoothed_energy, enzyme_dup, x, dx, enzyme_const, n);
  aug_t a = __enzyme_augmentfwd((void *)smoothed_energy, enzyme_dup, x, sx, enzyme_const, n);
  __enzyme_reverse((void *)smoothed_energy, enzyme_dup, x, sx, enzyme_const, n, 1.0, a.tape);
  for (int k = 0; k < n; k++) {
    double t[8] = {0};
    t[k] = 1;
    double fw = __enzyme_fwddiff((void *)smoothed_energy, enzyme_dup, x, t, enzyme_const, n);
    double fd = CENTRAL(smoothed_energy(x, n), x[k], x[k]);
    check("lazy workspace, reverse", dx[k], fd, 1e-6);
    check("lazy workspace, split", sx[k], fd, 1e-6);
    check("lazy workspace, forward", fw, fd, 1e-6);
  }
}

int main(void) {
  double x[8] = {0.3, -1.2, 0.8, 2.0, 0.5, -0.4, 1.1, 0.7};
  smoothed_energy(x, 5);  /* allocates the work array */
  check_all(x, 5);
  double dx[8] = {0};     /* a larger problem: the derivative reallocates the work array */
  __enzyme_autodiff((void *)smoothed_energy, enzyme_dup, x, dx, enzyme_const, 8);
  for (int k = 0; k < 8; k++)
    check("lazy workspace grown, reverse", dx[k], CENTRAL(smoothed_energy(x, 8), x[k], x[k]), 1e-6);
  check_all(x, 8);
  return finish();
}

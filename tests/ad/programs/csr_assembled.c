#include "check.h"
#include <stdlib.h>
#include <string.h>
/* A 1-D finite-element stiffness matrix assembled inside the differentiated function: element
   contributions as (row, col, value) triplets, converted to CSR with a counting sort (integer row
   pointers and column indices built on the fly), then y = A u and the energy u.y/2. */
typedef struct { int nrows, nnz; int *rowptr, *col; double *val; } Csr;

static void triplets_to_csr(int n, int nt, const int *ti, const int *tj, const double *tv, Csr *a,
                            int *work) {
  memset(a->rowptr, 0, (n + 1) * sizeof(int));
  for (int k = 0; k < nt; k++) a->rowptr[ti[k] + 1]++;
  for (int r = 0; r < n; r++) a->rowptr[r + 1] += a->rowptr[r];
  memcpy(work, a->rowptr, n * sizeof(int));
  for (int k = 0; k < nt; k++) {
    int at = work[ti[k]]++;
    a->col[at] = tj[k];
    a->val[at] = tv[k];
  }
  a->nrows = n;
  a->nnz = nt;
}

static void spmv(const Csr *a, const double *u, double *y) {
  for (int r = 0; r < a->nrows; r++) {
    double s = 0;
    for (int k = a->rowptr[r]; k < a->rowptr[r + 1]; k++) s += a->val[k] * u[a->col[k]];
    y[r] = s;
  }
}

#define NE 6
#define N (NE + 1)
double energy(const double *kappa, const double *u) {
  int *ti = malloc(4 * NE * sizeof(int)), *tj = malloc(4 * NE * sizeof(int));
  double *tv = malloc(4 * NE * sizeof(double));
  int nt = 0;
  for (int e = 0; e < NE; e++) {
    double k = kappa[e] * kappa[e];
    int nodes[2] = {e, e + 1};
    for (int a = 0; a < 2; a++)
      for (int b = 0; b < 2; b++) {
        ti[nt] = nodes[a];
        tj[nt] = nodes[b];
        tv[nt] = a == b ? k : -k;
        nt++;
      }
  }
  Csr a = {0, 0, malloc((N + 1) * sizeof(int)), malloc(nt * sizeof(int)), malloc(nt * sizeof(double))};
  int *work = malloc(N * sizeof(int));
  double *y = malloc(N * sizeof(double));
  triplets_to_csr(N, nt, ti, tj, tv, &a, work);
  Csr view = a;  /* a copy of the header, as a solver keeps */
  spmv(&view, u, y);
  double s = 0;
  for (int i = 0; i < N; i++) s += 0.5 * u[i] * y[i] + 0.1 * y[i] * y[i];
  free(ti); free(tj); free(tv); free(work); free(y);
  free(a.rowptr); free(a.col); free(a.val);
  return s;
}

int main(void) {
  double kappa[NE] = {1.0, 1.2, 0.8, 1.5, 0.9, 1.1}, u[N] = {0, 0.1, 0.3, 0.2, 0.5, 0.4, 0.7};
  double dk[NE] = {0}, du[N] = {0};
  __enzyme_autodiff((void *)energy, enzyme_dup, kappa, dk, enzyme_dup, u, du);
  for (int e = 0; e < NE; e++) {
    double t[NE] = {0}, z[N] = {0}, y[NE];
    t[e] = 1;
    check("forward kappa", __enzyme_fwddiff((void *)energy, enzyme_dup, kappa, t, enzyme_dup, u, z), dk[e], 1e-11);
    memcpy(y, kappa, sizeof y);
    check("central kappa", CENTRAL(energy(y, u), y[e], kappa[e]), dk[e], 1e-6);
  }
  for (int i = 0; i < N; i++) {
    double t[NE] = {0}, z[N] = {0}, y[N];
    z[i] = 1;
    check("forward u", __enzyme_fwddiff((void *)energy, enzyme_dup, kappa, t, enzyme_dup, u, z), du[i], 1e-11);
    memcpy(y, u, sizeof y);
    check("central u", CENTRAL(energy(kappa, y), y[i], u[i]), du[i], 1e-6);
  }
  return finish();
}

#include "check.h"
#include <stdlib.h>
#include <string.h>
/* Short-range pair energy with a linked cell list (integer head/next arrays built inside the
   differentiated function) in a periodic 1-D box, as molecular dynamics codes do. */
#define NP 12
#define NCELL 4
#define BOX 4.0
#define RC 1.0

static int cell_of(double x) {
  int c = (int)floor(x / (BOX / NCELL));
  return ((c % NCELL) + NCELL) % NCELL;
}

static void build_cells(const double *x, int n, int *head, int *next) {
  for (int c = 0; c < NCELL; c++) head[c] = -1;
  for (int i = 0; i < n; i++) {
    int c = cell_of(x[i]);
    next[i] = head[c];
    head[c] = i;
  }
}

static double pair(double r) { double s = 1 - r / RC; return s * s * s; }

double energy(const double *x, int n) {
  int *head = malloc(NCELL * sizeof(int)), *next = malloc(n * sizeof(int));
  int snapshot[NCELL];
  build_cells(x, n, head, next);
  memcpy(snapshot, head, sizeof snapshot);  /* kept to walk the cells */
  double e = 0;
  for (int c = 0; c < NCELL; c++)
    for (int dc = 0; dc <= 1; dc++) {
      int c2 = (c + dc) % NCELL;
      for (int i = snapshot[c]; i >= 0; i = next[i])
        for (int j = head[c2]; j >= 0; j = next[j]) {
          if (dc == 0 && j <= i) continue;
          double d = x[j] - x[i];
          d -= BOX * round(d / BOX);
          double r = fabs(d);
          if (r < RC) e += pair(r);
        }
    }
  free(head);
  free(next);
  return e;
}

int main(void) {
  double x[NP], dx[NP] = {0};
  for (int i = 0; i < NP; i++) x[i] = 0.05 + 0.31 * i + 0.02 * sin(3.0 * i);
  __enzyme_autodiff((void *)energy, enzyme_dup, x, dx, enzyme_const, NP);
  for (int k = 0; k < NP; k++) {
    double t[NP] = {0}, y[NP];
    t[k] = 1;
    check("forward", __enzyme_fwddiff((void *)energy, enzyme_dup, x, t, enzyme_const, NP), dx[k], 1e-11);
    memcpy(y, x, sizeof y);
    check("central", CENTRAL(energy(y, NP), y[k], x[k]), dx[k], 1e-6);
  }
  return finish();
}

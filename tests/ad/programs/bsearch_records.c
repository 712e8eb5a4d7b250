#include "check.h"
/* A piecewise-linear table of {double x, y} records searched with libc bsearch (a comparator testing whether
   the key lies in a record's interval); the value is read through the pointer bsearch returns, so the
   derivative with respect to the table's y values goes through that pointer's shadow.  At -O0 bsearch is a
   call of the C library (glibc inlines it when optimizing): it was refused (no body, no rule). */
typedef struct {
  double x, y;
} knot;

static int in_interval(const void *key, const void *elem) {
  double t = *(const double *)key;
  const knot *k = elem;
  if (t < k[0].x) return -1;
  if (t >= k[1].x) return 1;
  return 0;
}

double interpolate_sum(const double *y, const double *queries, int nq) {
  enum { N = 6 };
  knot table[N];
  for (int i = 0; i < N; i++) table[i] = (knot){0.5 * i * i, y[i]};
  double s = 0;
  for (int q = 0; q < nq; q++) {
    double t = queries[q];
    const knot *k = bsearch(&t, table, N - 1, sizeof(knot), in_interval);
    if (!k) continue;
    double w = (t - k[0].x) / (k[1].x - k[0].x);
    s += (1 - w) * k[0].y + w * k[1].y * k[1].y;
  }
  return s;
}

int main(void) {
  enum { N = 6, NQ = 5 };
  double y[N] = {1.0, 0.5, -0.25, 2.0, 1.5, 0.75}, qs[NQ] = {0.2, 1.1, 3.3, 7.9, 11.0};
  double dy[N] = {0};
  __enzyme_autodiff((void *)interpolate_sum, enzyme_dup, y, dy, enzyme_dup, qs, (double[NQ]){0}, enzyme_const, NQ);
  for (int i = 0; i < N; i++) {
    double t[N] = {0}, zq[NQ] = {0};
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void *)interpolate_sum, enzyme_dup, y, t, enzyme_dup, qs, zq, enzyme_const, NQ);
    double fd = CENTRAL(interpolate_sum(y, qs, NQ), y[i], y[i]);
    check("bsearch reverse", dy[i], fd, 1e-6);
    check("bsearch forward", fwd, fd, 1e-6);
  }
  return finish();
}

#define _GNU_SOURCE
#include "check.h"
/* Records sorted with glibc's qsort_r, whose comparator takes the caller's context (here the sort direction
   and which field is the key), in forward and reverse mode; a weighted sum over the first half of the
   sorted records.  The derivative must follow the permutation (qsort_r was refused: no body, no rule). */
typedef struct {
  double key, weight;
  int id;
} record;

typedef struct {
  int descending;
  int by_weight;
} order;

static int compare_records(const void *a, const void *b, void *ctx) {
  const record *r = a, *s = b;
  const order *o = ctx;
  double x = o->by_weight ? r->weight : r->key, y = o->by_weight ? s->weight : s->key;
  int c = (x > y) - (x < y);
  return o->descending ? -c : c;
}

double sorted_head(const double *key, const double *w, int n) {
  record *r = malloc(n * sizeof *r);
  for (int i = 0; i < n; i++) r[i] = (record){key[i] * key[i], w[i], i};
  order o = {1, 0};
  qsort_r(r, n, sizeof *r, compare_records, &o);
  double s = 0;
  for (int i = 0; i < n / 2; i++) s += r[i].key * r[i].weight + (r[i].id % 2) * r[i].weight;
  free(r);
  return s;
}

int main(void) {
  enum { N = 9 };
  double k[N] = {1.5, -0.5, 3.25, 0.75, 2.0, -1.75, 0.25, 4.5, 1.1}, w[N];
  for (int i = 0; i < N; i++) w[i] = 0.5 + 0.1 * i;
  for (int i = 0; i < N; i++) {
    double tk[N] = {0}, tw[N] = {0}, q[N];
    tk[i] = 1;
    double by_k = __enzyme_fwddiff((void *)sorted_head, enzyme_dup, k, tk, enzyme_dup, w, tw, enzyme_const, N);
    tk[i] = 0;
    tw[i] = 1;
    double by_w = __enzyme_fwddiff((void *)sorted_head, enzyme_dup, k, tk, enzyme_dup, w, tw, enzyme_const, N);
    for (int j = 0; j < N; j++) q[j] = k[j];
    check("qsort_r forward key", by_k, CENTRAL(sorted_head(q, w, N), q[i], k[i]), 1e-6);
    for (int j = 0; j < N; j++) q[j] = w[j];
    check("qsort_r forward weight", by_w, CENTRAL(sorted_head(k, q, N), q[i], w[i]), 1e-6);
  }
  double dk[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)sorted_head, enzyme_dup, k, dk, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double q[N];
    for (int j = 0; j < N; j++) q[j] = k[j];
    check("qsort_r reverse key", dk[i], CENTRAL(sorted_head(q, w, N), q[i], k[i]), 1e-6);
    for (int j = 0; j < N; j++) q[j] = w[j];
    check("qsort_r reverse weight", dw[i], CENTRAL(sorted_head(k, q, N), q[i], w[i]), 1e-6);
  }
  return finish();
}

#include "check.h"
/* A weighted upper-half sum of records sorted by their key with the C library's qsort (24-byte records: a
   double key, a double weight and an int id, then padding), in forward and reverse mode.  The body of qsort
   copies records of a size known only at run time; their layout is that of the array the caller sorts (was
   refused in reverse mode). */
typedef struct {
  double key, weight;
  int id;
} record;

static int by_key(const void *a, const void *b) {
  const record *r = a, *s = b;
  return (r->key > s->key) - (r->key < s->key);
}

double weighted_upper_half(const double *key, const double *w, int n) {
  record *r = malloc(n * sizeof *r);
  for (int i = 0; i < n; i++) r[i] = (record){key[i], w[i] * w[i], i};
  qsort(r, n, sizeof *r, by_key);
  double s = 0;
  for (int i = n / 2; i < n; i++) s += r[i].key * r[i].weight + (r[i].id % 3) * r[i].key;
  free(r);
  return s;
}

int main(void) {
  enum { N = 9 };
  double k[N] = {1.5, -0.5, 3.25, 0.75, 2.0, -1.75, 0.25, 4.5, 1.0}, w[N];
  for (int i = 0; i < N; i++) w[i] = 0.5 + 0.1 * i;
  for (int i = 0; i < N; i++) {
    double tk[N] = {0}, tw[N] = {0}, q[N];
    tk[i] = 1;
    double by_k = __enzyme_fwddiff((void *)weighted_upper_half, enzyme_dup, k, tk, enzyme_dup, w, tw, enzyme_const, N);
    tk[i] = 0;
    tw[i] = 1;
    double by_w = __enzyme_fwddiff((void *)weighted_upper_half, enzyme_dup, k, tk, enzyme_dup, w, tw, enzyme_const, N);
    for (int j = 0; j < N; j++) q[j] = k[j];
    check("records forward key", by_k, CENTRAL(weighted_upper_half(q, w, N), q[i], k[i]), 1e-6);
    for (int j = 0; j < N; j++) q[j] = w[j];
    check("records forward weight", by_w, CENTRAL(weighted_upper_half(k, q, N), q[i], w[i]), 1e-6);
  }
  double dk[N] = {0}, dw[N] = {0};
  __enzyme_autodiff((void *)weighted_upper_half, enzyme_dup, k, dk, enzyme_dup, w, dw, enzyme_const, N);
  for (int i = 0; i < N; i++) {
    double q[N];
    for (int j = 0; j < N; j++) q[j] = k[j];
    check("records reverse key", dk[i], CENTRAL(weighted_upper_half(q, w, N), q[i], k[i]), 1e-6);
    for (int j = 0; j < N; j++) q[j] = w[j];
    check("records reverse weight", dw[i], CENTRAL(weighted_upper_half(k, q, N), q[i], w[i]), 1e-6);
  }
  return finish();
}

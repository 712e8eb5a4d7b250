#include "check.h"
/* Records with a pointer, an int (followed by padding) and doubles, copied by struct assignment inside a
   helper that is only ever called through a function pointer: the helper's callers are unknown, so only
   the copy's own field list (!tbaa.struct, emitted by clang when optimizing) says which bytes are floats,
   which are a pointer and which are padding. */
struct segment {
  const double *coeff; /* shared coefficients: the pointer's shadow moves with the copy */
  int order;
  double length;
  double weight;
};

__attribute__((noinline)) static void copy_segment(struct segment *dst, const struct segment *src) { *dst = *src; }

static void (*volatile copier)(struct segment *, const struct segment *) = copy_segment;

double chain_cost(const double *c, const double *len, int n) {
  struct segment *segs = malloc(n * sizeof *segs), *sorted = malloc(n * sizeof *sorted);
  for (int i = 0; i < n; i++) {
    segs[i].coeff = c + (i % 2);
    segs[i].order = i;
    segs[i].length = len[i];
    segs[i].weight = len[i] * len[i];
  }
  for (int i = 0; i < n; i++) copier(&sorted[n - 1 - i], &segs[i]);  /* reversed copy */
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sorted[i].coeff[0] * sorted[i].length + sorted[i].weight * (sorted[i].order + 1);
  free(segs);
  free(sorted);
  return s;
}

int main(void) {
  enum { N = 5 };
  double c[2] = {1.5, -0.5}, dc[2] = {0, 0}, len[N] = {0.3, 0.7, 1.1, 1.9, 2.3}, dlen[N] = {0};
  __enzyme_autodiff((void *)chain_cost, enzyme_dup, c, dc, enzyme_dup, len, dlen, enzyme_const, N);
  for (int i = 0; i < 2; i++) {
    double tc[2] = {0, 0}, tl[N] = {0};
    tc[i] = 1;
    check("forward coefficient", __enzyme_fwddiff((void *)chain_cost, enzyme_dup, c, tc, enzyme_dup, len, tl,
                                                  enzyme_const, N), dc[i], 1e-12);
    double q[2] = {c[0], c[1]};
    check("central coefficient", CENTRAL(chain_cost(q, len, N), q[i], c[i]), dc[i], 1e-6);
  }
  for (int i = 0; i < N; i++) {
    double q[N];
    for (int j = 0; j < N; j++) q[j] = len[j];
    check("central length", CENTRAL(chain_cost(c, q, N), q[i], len[i]), dlen[i], 1e-6);
  }
  return finish();
}

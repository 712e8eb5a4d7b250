#include "check.h"
/* Vector code in forward mode (clang vector extensions): element-wise arithmetic, shuffles, element
   extraction and insertion, vector loads and stores through pointers, an element-wise intrinsic, and a
   batch of two directions.  Checked against analytic values, central differences and reverse mode. */
extern int enzyme_width;
typedef double v4 __attribute__((vector_size(32)));
typedef struct { double d[2]; } v2r;
v2r __enzyme_fwddiff_v2(void *, ...);

double f(const double *p) {
  v4 a, b;
  __builtin_memcpy(&a, p, sizeof a);        /* a vector load */
  b = a * a + 2.0 * a / (a + 3.0);
  v4 r = __builtin_shufflevector(a, b, 1, 4, 7, 2);
  r[3] = r[0] * b[2];                        /* extract and insert */
  v4 s = __builtin_elementwise_sqrt(r * r + 1.0);
  return s[0] + s[1] * s[2] - s[3];
}

void g(const double *p, double *q) {         /* vector store */
  v4 a;
  __builtin_memcpy(&a, p, sizeof a);
  v4 c = __builtin_shufflevector(a, a, 3, 2, 1, 0) * a;
  __builtin_memcpy(q, &c, sizeof c);
}

static double f_at(const double *p0, int i, double x) {
  double p[4];
  for (int k = 0; k < 4; k++) p[k] = p0[k];
  p[i] = x;
  return f(p);
}

int main(void) {
  double p[4] = {0.4, -1.2, 0.9, 1.6}, v;
  double grad[4] = {0};
  __enzyme_autodiff((void *)f, p, grad);
  for (int i = 0; i < 4; i++) {
    double e[4] = {0};
    e[i] = 1;
    double t = __enzyme_fwddiff((void *)f, p, e);
    check("f forward vs reverse", t, grad[i], 1e-12);
    check("f forward central", t, CENTRAL(f_at(p, i, v), v, p[i]), 1e-6);
  }
  double e1[4] = {1, 0, 0.5, 0}, e2[4] = {0, -1, 0, 2};
  v2r t2 = __enzyme_fwddiff_v2((void *)f, enzyme_width, 2, p, e1, e2);
  check("f batch 1", t2.d[0], dot(grad, e1, 4), 1e-12);
  check("f batch 2", t2.d[1], dot(grad, e2, 4), 1e-12);

  double q[4], dq[4], dd[4] = {1, 2, 3, 4};
  __enzyme_fwddiff((void *)g, p, dd, q, dq);
  for (int i = 0; i < 4; i++) {
    check("g primal", q[i], p[3 - i] * p[i], 1e-15);
    check("g tangent", dq[i], dd[3 - i] * p[i] + p[3 - i] * dd[i], 1e-14);
  }
  return finish();
}

#include "check.h"
/* static inline helpers (inlined at -O1+, separate functions at -O0), always_inline, and a helper used by both
   the primal and through several call paths. */
static inline double softplus(double x) { return x > 20 ? x : log1p(exp(x)); }
static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }
__attribute__((always_inline)) static inline double lerp(double a, double b, double t) { return a + (b - a) * t; }
static inline void update(double *state, double in) { state[0] = lerp(state[0], in, sigmoid(state[1])); state[1] += softplus(in) * 0.1; }
double run(double *state, const double *in, int n) { for (int i = 0; i < n; i++) update(state, in[i]); return state[0] * state[1]; }

int main(void) {
  enum { N = 4 };
  double s0[2] = {0.2, -0.3}, s[2], ds[2] = {0}, in[N] = {0.5, -1.0, 2.0, 0.3}, din[N] = {0}, w[2];
  s[0] = s0[0]; s[1] = s0[1];
  __enzyme_autodiff((void *)run, enzyme_dup, s, ds, enzyme_dup, in, din, enzyme_const, N);
  #define RUN_S(k, val) ({ w[0] = s0[0]; w[1] = s0[1]; w[k] = (val); run(w, in, N); })
  double v;
  check("dstate0 central", ds[0], CENTRAL(RUN_S(0, v), v, s0[0]), 1e-6);
  check("dstate1 central", ds[1], CENTRAL(RUN_S(1, v), v, s0[1]), 1e-6);
  for (int i = 0; i < N; i++) {
    w[0] = s0[0]; w[1] = s0[1];
    check("din central", din[i], CENTRAL(({ w[0] = s0[0]; w[1] = s0[1]; run(w, in, N); }), in[i], in[i]), 1e-6);
  }
  double sd[2] = {1.0, -0.5}, ind[N] = {0.5, 0, 1, -2};
  w[0] = s0[0]; w[1] = s0[1];
  double fw = __enzyme_fwddiff((void *)run, enzyme_dup, w, sd, enzyme_dup, in, ind, enzyme_const, N);
  double sdc[2] = {1.0, -0.5};
  check("forward", fw, dot(ds, sdc, 2) + dot(din, ind, N), 1e-12);
  return finish();
}

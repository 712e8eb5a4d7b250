#include "hunt.h"
/* Rauch-Tung-Striebel smoother for a constant-velocity tracker: 2x2 matrices and 2-vectors as
   typedef'd structs passed and returned by value, the filtered and predicted moments stored in
   malloc'd arrays of structs, a backward smoothing pass, and the Gaussian log-likelihood from the
   innovations.  Inputs: process noise intensity, measurement noise variance, the observations. */
#include <stdlib.h>

typedef struct { double m[2][2]; } mat2;
typedef struct { double v[2]; } vec2;
typedef struct { vec2 x; mat2 P; } moments;

static mat2 mat_mul(mat2 a, mat2 b) {
  mat2 c;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) c.m[i][j] = a.m[i][0] * b.m[0][j] + a.m[i][1] * b.m[1][j];
  return c;
}
static mat2 mat_t(mat2 a) { mat2 t = {{{a.m[0][0], a.m[1][0]}, {a.m[0][1], a.m[1][1]}}}; return t; }
static mat2 mat_add(mat2 a, mat2 b, double s) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) a.m[i][j] += s * b.m[i][j];
  return a;
}
static mat2 mat_inv(mat2 a) {
  double d = a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0];
  mat2 r = {{{a.m[1][1] / d, -a.m[0][1] / d}, {-a.m[1][0] / d, a.m[0][0] / d}}};
  return r;
}
static vec2 mat_vec(mat2 a, vec2 x) {
  vec2 y = {{a.m[0][0] * x.v[0] + a.m[0][1] * x.v[1], a.m[1][0] * x.v[0] + a.m[1][1] * x.v[1]}};
  return y;
}
static vec2 vec_add(vec2 a, vec2 b, double s) {
  a.v[0] += s * b.v[0];
  a.v[1] += s * b.v[1];
  return a;
}

double rts_objective(double q, double r, const double *y, int n, double dt) {
  const mat2 F = {{{1, dt}, {0, 1}}};
  const mat2 Q = {{{q * dt * dt * dt / 3, q * dt * dt / 2}, {q * dt * dt / 2, q * dt}}};
  moments *filt = malloc(sizeof(moments) * n), *pred = malloc(sizeof(moments) * n);
  moments cur = {{{y[0], 0.0}}, {{{r, 0}, {0, 10.0}}}};
  double loglik = 0;
  for (int k = 0; k < n; k++) {
    if (k > 0) {
      cur.x = mat_vec(F, cur.x);
      cur.P = mat_add(mat_mul(mat_mul(F, cur.P), mat_t(F)), Q, 1.0);
    }
    pred[k] = cur;
    /* H = [1 0] */
    double S = cur.P.m[0][0] + r;
    double innov = y[k] - cur.x.v[0];
    vec2 K = {{cur.P.m[0][0] / S, cur.P.m[1][0] / S}};
    loglik += -0.5 * (log(2 * M_PI * S) + innov * innov / S);
    cur.x = vec_add(cur.x, K, innov);
    mat2 KH = {{{K.v[0], 0}, {K.v[1], 0}}};
    mat2 IKH = mat_add((mat2){{{1, 0}, {0, 1}}}, KH, -1.0);
    cur.P = mat_mul(IKH, cur.P);
    filt[k] = cur;
  }
  /* backward pass */
  moments sm = filt[n - 1];
  double roughness = 0;
  for (int k = n - 2; k >= 0; k--) {
    mat2 C = mat_mul(mat_mul(filt[k].P, mat_t(F)), mat_inv(pred[k + 1].P));
    vec2 dx = vec_add(sm.x, pred[k + 1].x, -1.0);
    vec2 xs = vec_add(filt[k].x, mat_vec(C, dx), 1.0);
    mat2 dP = mat_add(sm.P, pred[k + 1].P, -1.0);
    mat2 Ps = mat_add(filt[k].P, mat_mul(mat_mul(C, dP), mat_t(C)), 1.0);
    roughness += (xs.v[1] - sm.x.v[1]) * (xs.v[1] - sm.x.v[1]);
    sm.x = xs;
    sm.P = Ps;
  }
  free(filt);
  free(pred);
  return -loglik + roughness + sm.P.m[0][0];
}

int main(void) {
  enum { N = 30 };
  double y[N], q = 0.5, r = 0.2, dt = 0.1;
  for (int k = 0; k < N; k++) y[k] = 0.3 * k * dt + sin(0.9 * k * dt) + 0.15 * sin(7.3 * k);
  enum { NP = N + 2 };
  double *prim[NP];
  prim[0] = &q; prim[1] = &r;
  for (int k = 0; k < N; k++) prim[2 + k] = &y[k];
  double fd[NP], ad[NP], dy[N] = {0};
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(rts_objective(q, r, y, N, dt), *prim[k]);
#ifdef MODE_REV
  ad[0] = __enzyme_autodiff((void *)rts_objective, q, enzyme_const, r, enzyme_dup, y, dy, enzyme_const, N,
                            enzyme_const, dt);
  for (int k = 0; k < N; k++) ad[2 + k] = dy[k];
  ad[1] = __enzyme_autodiff((void *)rts_objective, enzyme_const, q, r, enzyme_const, y, enzyme_const, N, enzyme_const,
                            dt);
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    if (k >= 2) dy[k - 2] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)rts_objective, q, k == 0 ? 1.0 : 0.0, r, k == 1 ? 1.0 : 0.0, enzyme_dup, y, dy,
                             enzyme_const, N, enzyme_const, dt);
    if (k >= 2) dy[k - 2] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

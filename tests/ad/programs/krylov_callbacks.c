#include "check.h"
/* Library-style matrix-free Krylov solver (PETSc/SUNDIALS style): the operator is a callback with a void*
   context, a struct holding a pointer to the model's active coefficients and an active speed; restarted
   GMRES with modified Gram-Schmidt, Givens rotations and a residual-based early exit, on a nonsymmetric
   convection-diffusion operator.  The objective's gradient in reverse, forward, batch forward and split
   reverse mode is checked against central differences. */
extern int enzyme_width;
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_fwddiff_v2(void *, ...);

typedef void (*apply_fn)(void *ctx, const double *x, double *y, int n);

typedef struct {
  const double *kappa; /* per cell */
  double speed;
  double h;
} ConvDiff;

static void convdiff_apply(void *vctx, const double *x, double *y, int n) {
  const ConvDiff *c = vctx;
  for (int i = 0; i < n; i++) {
    double xl = i > 0 ? x[i - 1] : 0.0, xr = i < n - 1 ? x[i + 1] : 0.0;
    double kl = c->kappa[i], kr = c->kappa[i + 1];
    y[i] = (kl * (x[i] - xl) + kr * (x[i] - xr)) / (c->h * c->h) + c->speed * (x[i] - xl) / c->h;
  }
}

/* Solves A x = b from x = 0 with restarted GMRES; returns iterations used. */
static int gmres(apply_fn A, void *ctx, const double *b, double *x, int n, int m, double tol, int max_restarts) {
  double *V = malloc(sizeof(double) * n * (m + 1)), *H = calloc((m + 1) * m, sizeof(double));
  double *cs = malloc(sizeof(double) * m), *sn = malloc(sizeof(double) * m), *g = malloc(sizeof(double) * (m + 1));
  double *w = malloc(sizeof(double) * n);
  int total = 0;
  for (int i = 0; i < n; i++) x[i] = 0.0;
  double bnorm = 0.0;
  for (int i = 0; i < n; i++) bnorm += b[i] * b[i];
  bnorm = sqrt(bnorm);
  for (int restart = 0; restart < max_restarts; restart++) {
    A(ctx, x, w, n);
    double beta = 0.0;
    for (int i = 0; i < n; i++) { w[i] = b[i] - w[i]; beta += w[i] * w[i]; }
    beta = sqrt(beta);
    if (beta <= tol * bnorm) break;
    for (int i = 0; i < n; i++) V[i] = w[i] / beta;
    for (int i = 0; i <= m; i++) g[i] = 0.0;
    g[0] = beta;
    int k;
    for (k = 0; k < m; k++) {
      A(ctx, V + k * n, w, n);
      for (int j = 0; j <= k; j++) {
        double hjk = 0.0;
        for (int i = 0; i < n; i++) hjk += w[i] * V[j * n + i];
        H[j * m + k] = hjk;
        for (int i = 0; i < n; i++) w[i] -= hjk * V[j * n + i];
      }
      double hn = 0.0;
      for (int i = 0; i < n; i++) hn += w[i] * w[i];
      hn = sqrt(hn);
      H[(k + 1) * m + k] = hn;
      for (int i = 0; i < n; i++) V[(k + 1) * n + i] = w[i] / hn;
      for (int j = 0; j < k; j++) { /* apply previous rotations */
        double t = cs[j] * H[j * m + k] + sn[j] * H[(j + 1) * m + k];
        H[(j + 1) * m + k] = -sn[j] * H[j * m + k] + cs[j] * H[(j + 1) * m + k];
        H[j * m + k] = t;
      }
      double r = hypot(H[k * m + k], H[(k + 1) * m + k]);
      cs[k] = H[k * m + k] / r; sn[k] = H[(k + 1) * m + k] / r;
      H[k * m + k] = r; H[(k + 1) * m + k] = 0.0;
      g[k + 1] = -sn[k] * g[k];
      g[k] = cs[k] * g[k];
      total++;
      if (fabs(g[k + 1]) <= tol * bnorm) { k++; break; }
    }
    for (int j = k - 1; j >= 0; j--) { /* back substitution into g */
      for (int l = j + 1; l < k; l++) g[j] -= H[j * m + l] * g[l];
      g[j] /= H[j * m + j];
    }
    for (int j = 0; j < k; j++)
      for (int i = 0; i < n; i++) x[i] += g[j] * V[j * n + i];
  }
  free(V); free(H); free(cs); free(sn); free(g); free(w);
  return total;
}

double solve_objective(const double *kappa, double speed, const double *b, int n) {
  ConvDiff ctx = {kappa, speed, 1.0 / (n + 1)};
  double *x = malloc(sizeof(double) * n);
  gmres(convdiff_apply, &ctx, b, x, n, 8, 1e-13, 20);
  double J = 0.0;
  for (int i = 0; i < n; i++) J += (1.0 + 0.1 * i) * x[i];
  free(x);
  return J;
}

enum { N = 16 };

int main(void) {
  double kappa[N + 1], b[N], speed = 3.0, dk[N + 1] = {0}, v;
  for (int i = 0; i <= N; i++) kappa[i] = 1.0 + 0.3 * sin(0.8 * i);
  for (int i = 0; i < N; i++) b[i] = 1.0;
  double dspeed = __enzyme_autodiff((void *)solve_objective, enzyme_dup, kappa, dk, speed, enzyme_const, b,
                                    enzyme_const, N);
  check("dspeed central", dspeed, CENTRAL(solve_objective(kappa, v, b, N), v, speed), 1e-6);
  check("dspeed forward", __enzyme_fwddiff((void *)solve_objective, enzyme_dup, kappa, (double[N + 1]){0}, speed,
                                           1.0, enzyme_const, b, enzyme_const, N), dspeed, 1e-10);
  const int idx[3] = {0, 5, N};
  for (int q = 0; q < 3; q++) {
    int i = idx[q];
    double k0 = kappa[i], dfw[N + 1] = {0}, dfw2[N + 1] = {0};
    check("dkappa central", dk[i], CENTRAL(solve_objective(kappa, speed, b, N), kappa[i], k0), 1e-6);
    dfw[i] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)solve_objective, enzyme_width, 2, enzyme_dup, kappa, dfw, dfw2, speed, 0.0,
                               1.0, enzyme_const, b, enzyme_const, N);
    check("dkappa batch forward", t.d[0], dk[i], 1e-10);
    check("dspeed batch forward", t.d[1], dspeed, 1e-10);
  }
  double dks[N + 1] = {0};
  aug_t r = __enzyme_augmentfwd((void *)solve_objective, enzyme_dup, kappa, dks, speed, enzyme_const, b,
                                enzyme_const, N);
  check("split primal", r.primal, solve_objective(kappa, speed, b, N), 1e-14);
  double ds = __enzyme_reverse((void *)solve_objective, enzyme_dup, kappa, dks, speed, enzyme_const, b, enzyme_const, N,
                               1.0, r.tape);
  check("dspeed split", ds, dspeed, 1e-12);
  for (int i = 0; i <= N; i++) check("dkappa split", dks[i], dk[i], 1e-12);
  return finish();
}

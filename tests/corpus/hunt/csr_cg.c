#include "hunt.h"
/* Variable-coefficient 2D diffusion -div(k grad u) = f on an n x n interior grid, assembled into CSR
   (row pointers filled by counting, then columns/values), solved with conjugate gradients to a relative
   residual tolerance (data-dependent iteration count).  Objective: compliance f.u.  Inputs: the
   coefficient per cell (k) and the load f. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  int n, nnz;
  int *rowptr, *col;
  double *val;
} CSR;

static void csr_matvec(const CSR *A, const double *x, double *y) {
  for (int i = 0; i < A->n; i++) {
    double s = 0.0;
    for (int p = A->rowptr[i]; p < A->rowptr[i + 1]; p++) s += A->val[p] * x[A->col[p]];
    y[i] = s;
  }
}

static double dotp(const double *a, const double *b, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/* k has (n+1) x (n+1) cell values around the n x n interior nodes; harmonic means on faces. */
static void assemble(CSR *A, const double *k, int n) {
  int N = n * n;
  A->n = N;
  A->rowptr = malloc(sizeof(int) * (N + 1));
  A->col = malloc(sizeof(int) * 5 * N);
  A->val = malloc(sizeof(double) * 5 * N);
  int p = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      int row = j * n + i;
      A->rowptr[row] = p;
      /* face coefficients: average of the two cells touching each face */
      double kw = 0.5 * (k[j * (n + 1) + i] + k[(j + 1) * (n + 1) + i]);
      double ke = 0.5 * (k[j * (n + 1) + i + 1] + k[(j + 1) * (n + 1) + i + 1]);
      double ks = 0.5 * (k[j * (n + 1) + i] + k[j * (n + 1) + i + 1]);
      double kn = 0.5 * (k[(j + 1) * (n + 1) + i] + k[(j + 1) * (n + 1) + i + 1]);
      if (j > 0) { A->col[p] = row - n; A->val[p++] = -ks; }
      if (i > 0) { A->col[p] = row - 1; A->val[p++] = -kw; }
      A->col[p] = row; A->val[p++] = kw + ke + ks + kn;
      if (i < n - 1) { A->col[p] = row + 1; A->val[p++] = -ke; }
      if (j < n - 1) { A->col[p] = row + n; A->val[p++] = -kn; }
    }
  A->rowptr[N] = p;
  A->nnz = p;
}

static int cg(const CSR *A, const double *b, double *x, double rtol, int maxit) {
  int n = A->n, it = 0;
  double *r = malloc(sizeof(double) * n), *p = malloc(sizeof(double) * n), *q = malloc(sizeof(double) * n);
  for (int i = 0; i < n; i++) { x[i] = 0.0; r[i] = b[i]; p[i] = b[i]; }
  double rr = dotp(r, r, n), stop = rtol * rtol * rr;
  while (rr > stop && it < maxit) {
    csr_matvec(A, p, q);
    double alpha = rr / dotp(p, q, n);
    for (int i = 0; i < n; i++) { x[i] += alpha * p[i]; r[i] -= alpha * q[i]; }
    double rr_new = dotp(r, r, n);
    double beta = rr_new / rr;
    for (int i = 0; i < n; i++) p[i] = r[i] + beta * p[i];
    rr = rr_new;
    it++;
  }
  free(r); free(p); free(q);
  return it;
}

double compliance(const double *k, const double *f, int n) {
  CSR A;
  assemble(&A, k, n);
  double *u = malloc(sizeof(double) * n * n);
  cg(&A, f, u, 1e-13, 10 * n * n);
  double c = dotp(f, u, n * n);
  free(u); free(A.rowptr); free(A.col); free(A.val);
  return c;
}

enum { NG = 6, NK = (NG + 1) * (NG + 1), NF = NG * NG, NP = 6 };
static double k[NK], f[NF];
static const int kprobe[NP / 2] = {0, 17, 48}, fprobe[NP / 2] = {0, 14, 35};

int main(void) {
  for (int i = 0; i < NK; i++) k[i] = 1.0 + 0.5 * sin(0.7 * i) * sin(0.7 * i);
  for (int i = 0; i < NF; i++) f[i] = 1.0 + 0.1 * cos(1.3 * i);
  double fd[NP], ad[NP];
  for (int q = 0; q < NP / 2; q++) {
    fd[q] = HUNT_FD(compliance(k, f, NG), k[kprobe[q]]);
    fd[NP / 2 + q] = HUNT_FD(compliance(k, f, NG), f[fprobe[q]]);
  }
#ifdef MODE_REV
  double dk[NK] = {0}, df[NF] = {0};
  __enzyme_autodiff((void *)compliance, enzyme_dup, k, dk, enzyme_dup, f, df, enzyme_const, NG);
  for (int q = 0; q < NP / 2; q++) { ad[q] = dk[kprobe[q]]; ad[NP / 2 + q] = df[fprobe[q]]; }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  double dk[NK] = {0}, df[NF] = {0};
  for (int q = 0; q < NP / 2; q++) {
    dk[kprobe[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)compliance, enzyme_dup, k, dk, enzyme_dup, f, df, enzyme_const, NG);
    dk[kprobe[q]] = 0.0;
    df[fprobe[q]] = 1.0;
    ad[NP / 2 + q] = __enzyme_fwddiff((void *)compliance, enzyme_dup, k, dk, enzyme_dup, f, df, enzyme_const, NG);
    df[fprobe[q]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dka[NK] = {0}, dkb[NK] = {0}, dfa[NF] = {0}, dfb[NF] = {0};
  for (int q = 0; q < NP / 2; q++) {
    dka[kprobe[q]] = 1.0; dfb[fprobe[q]] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)compliance, enzyme_width, 2, enzyme_dup, k, dka, dkb, enzyme_dup, f, dfa, dfb,
                               enzyme_const, NG);
    dka[kprobe[q]] = 0.0; dfb[fprobe[q]] = 0.0;
    ad[q] = t.d[0]; ad[NP / 2 + q] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  double dk[NK] = {0}, df[NF] = {0};
  aug_t r = __enzyme_augmentfwd((void *)compliance, enzyme_dup, k, dk, enzyme_dup, f, df, enzyme_const, NG);
  hunt_check("primal", r.primal, compliance(k, f, NG));
  __enzyme_reverse((void *)compliance, enzyme_dup, k, dk, enzyme_dup, f, df, enzyme_const, NG, 1.0, r.tape);
  for (int q = 0; q < NP / 2; q++) { ad[q] = dk[kprobe[q]]; ad[NP / 2 + q] = df[fprobe[q]]; }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  double dk[NK] = {0}, df[NF] = {0}, dk2[NK] = {0}, df2[NF] = {0};
  __enzyme_autodiff_void((void *)compliance, enzyme_width, 2, enzyme_dup, k, dk, dk2, enzyme_dup, f, df, df2,
                         enzyme_const, NG);
  for (int q = 0; q < NP / 2; q++) { ad[q] = dk[kprobe[q]]; ad[NP / 2 + q] = df[fprobe[q]]; }
  hunt_check_vec("grad", ad, fd, NP);
  for (int q = 0; q < NP / 2; q++) { ad[q] = dk2[kprobe[q]]; ad[NP / 2 + q] = df2[fprobe[q]]; }
  hunt_check_vec("grad_lane2", ad, fd, NP);
#endif
  return hunt_finish();
}

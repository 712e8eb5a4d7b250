#include "hunt.h"
/* P1 finite elements for -div(k grad u) = 1 on the unit square, structured triangulation, one
   conductivity per element, nodal coordinates perturbable (shape sensitivity).  Element matrices
   from the gradients of the barycentric coordinates, scattered into a dense global matrix through the
   connectivity table; Dirichlet nodes eliminated by zeroing rows/columns; Cholesky solve.
   Objective: compliance.  Inputs: conductivities and node coordinates. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct {
  int nnode, nelem;
  double *xy;      /* 2 per node */
  int *tri;        /* 3 per element */
  int *is_fixed;   /* per node */
} Mesh;

static void element_stiffness(const double *xy, const int *t, double k, double ke[3][3], double fe[3]) {
  double x[3], y[3];
  for (int a = 0; a < 3; a++) { x[a] = xy[2 * t[a]]; y[a] = xy[2 * t[a] + 1]; }
  double det = (x[1] - x[0]) * (y[2] - y[0]) - (x[2] - x[0]) * (y[1] - y[0]);
  double area = 0.5 * fabs(det);
  double b[3] = {y[1] - y[2], y[2] - y[0], y[0] - y[1]};
  double c[3] = {x[2] - x[1], x[0] - x[2], x[1] - x[0]};
  for (int a = 0; a < 3; a++) {
    for (int q = 0; q < 3; q++) ke[a][q] = k * (b[a] * b[q] + c[a] * c[q]) / (4.0 * area);
    fe[a] = area / 3.0;
  }
}

static int cholesky_solve(double *A, double *rhs, int n) {
  for (int j = 0; j < n; j++) {
    double s = A[j * n + j];
    for (int p = 0; p < j; p++) s -= A[j * n + p] * A[j * n + p];
    if (s <= 0.0) return -1;
    double d = sqrt(s);
    A[j * n + j] = d;
    for (int i = j + 1; i < n; i++) {
      double t = A[i * n + j];
      for (int p = 0; p < j; p++) t -= A[i * n + p] * A[j * n + p];
      A[i * n + j] = t / d;
    }
  }
  for (int i = 0; i < n; i++) {
    double t = rhs[i];
    for (int p = 0; p < i; p++) t -= A[i * n + p] * rhs[p];
    rhs[i] = t / A[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double t = rhs[i];
    for (int p = i + 1; p < n; p++) t -= A[p * n + i] * rhs[p];
    rhs[i] = t / A[i * n + i];
  }
  return 0;
}

double fem_compliance(const Mesh *mesh, const double *kappa) {
  int n = mesh->nnode;
  double *K = calloc((size_t)n * n, sizeof(double)), *F = calloc(n, sizeof(double));
  for (int e = 0; e < mesh->nelem; e++) {
    double ke[3][3], fe[3];
    const int *t = mesh->tri + 3 * e;
    element_stiffness(mesh->xy, t, kappa[e], ke, fe);
    for (int a = 0; a < 3; a++) {
      F[t[a]] += fe[a];
      for (int q = 0; q < 3; q++) K[t[a] * n + t[q]] += ke[a][q];
    }
  }
  for (int i = 0; i < n; i++)
    if (mesh->is_fixed[i]) {
      for (int j = 0; j < n; j++) K[i * n + j] = K[j * n + i] = 0.0;
      K[i * n + i] = 1.0;
      F[i] = 0.0;
    }
  double *u = malloc(sizeof(double) * n);
  memcpy(u, F, sizeof(double) * n);
  double c = 0.0;
  if (cholesky_solve(K, u, n) == 0)
    for (int i = 0; i < n; i++) c += F[i] * u[i];
  free(K); free(F); free(u);
  return c;
}

enum { M = 5, NN = (M + 1) * (M + 1), NE = 2 * M * M, NP = 6 };
static double xy[2 * NN], kappa[NE];
static int tri[3 * NE], fixed[NN];
static Mesh mesh = {NN, NE, xy, tri, fixed};

int main(void) {
  for (int j = 0; j <= M; j++)
    for (int i = 0; i <= M; i++) {
      int p = j * (M + 1) + i;
      xy[2 * p] = (double)i / M + (i > 0 && i < M ? 0.02 * sin(3.0 * j) : 0.0);
      xy[2 * p + 1] = (double)j / M + (j > 0 && j < M ? 0.02 * cos(2.0 * i) : 0.0);
      fixed[p] = (i == 0 || j == 0 || i == M || j == M);
    }
  int e = 0;
  for (int j = 0; j < M; j++)
    for (int i = 0; i < M; i++) {
      int p = j * (M + 1) + i;
      int t1[3] = {p, p + 1, p + M + 2}, t2[3] = {p, p + M + 2, p + M + 1};
      memcpy(tri + 3 * e++, t1, sizeof t1);
      memcpy(tri + 3 * e++, t2, sizeof t2);
    }
  for (e = 0; e < NE; e++) kappa[e] = 1.0 + 0.5 * sin(0.37 * e);
  /* probes: three conductivities and three interior coordinates */
  double *prim[NP] = {&kappa[0], &kappa[13], &kappa[41], &xy[2 * 7], &xy[2 * 14 + 1], &xy[2 * 22]};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(fem_compliance(&mesh, kappa), *prim[q]);
  double dxy[2 * NN] = {0}, dkappa[NE] = {0};
  Mesh dmesh = {NN, NE, dxy, tri, fixed}; /* the shadow mesh shares the integer tables */
  double *shad[NP] = {&dkappa[0], &dkappa[13], &dkappa[41], &dxy[2 * 7], &dxy[2 * 14 + 1], &dxy[2 * 22]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)fem_compliance, enzyme_dup, &mesh, &dmesh, enzyme_dup, kappa, dkappa);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)fem_compliance, enzyme_dup, &mesh, &dmesh, enzyme_dup, kappa, dkappa);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dxy2[2 * NN] = {0}, dkappa2[NE] = {0};
  Mesh dmesh2 = {NN, NE, dxy2, tri, fixed};
  double *shad2[NP] = {&dkappa2[0], &dkappa2[13], &dkappa2[41], &dxy2[2 * 7], &dxy2[2 * 14 + 1], &dxy2[2 * 22]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)fem_compliance, enzyme_width, 2, enzyme_dup, &mesh, &dmesh, &dmesh2,
                               enzyme_dup, kappa, dkappa, dkappa2);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)fem_compliance, enzyme_dup, &mesh, &dmesh, enzyme_dup, kappa, dkappa);
  hunt_check("primal", r.primal, fem_compliance(&mesh, kappa));
  __enzyme_reverse((void *)fem_compliance, enzyme_dup, &mesh, &dmesh, enzyme_dup, kappa, dkappa, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  double dxy2[2 * NN] = {0}, dkappa2[NE] = {0};
  Mesh dmesh2 = {NN, NE, dxy2, tri, fixed};
  double *shad2[NP] = {&dkappa2[0], &dkappa2[13], &dkappa2[41], &dxy2[2 * 7], &dxy2[2 * 14 + 1], &dxy2[2 * 22]};
  __enzyme_autodiff_void((void *)fem_compliance, enzyme_width, 2, enzyme_dup, &mesh, &dmesh, &dmesh2, enzyme_dup,
                         kappa, dkappa, dkappa2);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
  for (int q = 0; q < NP; q++) ad[q] = *shad2[q];
  hunt_check_vec("grad_lane2", ad, fd, NP);
#endif
  return hunt_finish();
}

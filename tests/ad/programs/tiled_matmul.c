#include "check.h"
#include <string.h>
/* Divide-and-conquer matrix multiply over heap-allocated matrix structs, written the plain C way: a
   constructor that mallocs the struct and its data (called with constant arguments only), quadrants
   memcpy'd row by row into fresh sub-matrices, eight recursive products per level (16 -> 8 -> 4 -> 2,
   recursion three levels deep) down to a triple-loop base case, results added back, everything freed
   before returning (one helper frees what another allocated), and a matrix header copied by struct
   assignment (a memcpy of a struct holding the data pointer).  Reverse mode (combined, batch of two
   directions, split) is checked against central differences and forward mode. */
typedef struct { int n, stride; double *data; } Mat;
extern int enzyme_width;
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff_void(void *, ...);

enum { N = 16, LEAF = 2 };

static Mat *mat_new(int n) {
  Mat *m = malloc(sizeof *m);
  m->n = n;
  m->stride = n;
  m->data = malloc((size_t)n * n * sizeof(double));
  return m;
}

static void mat_free(Mat *m) {
  free(m->data);
  free(m);
}

/* dst = quadrant (qi, qj) of src, one memcpy per row */
static void get_quadrant(Mat *dst, const Mat *src, int qi, int qj) {
  int h = dst->n;
  for (int i = 0; i < h; i++)
    memcpy(dst->data + (size_t)i * dst->stride, src->data + (size_t)(qi * h + i) * src->stride + qj * h,
           h * sizeof(double));
}

/* quadrant (qi, qj) of dst += q */
static void add_quadrant(Mat *dst, const Mat *q, int qi, int qj) {
  int h = q->n;
  for (int i = 0; i < h; i++)
    for (int j = 0; j < h; j++)
      dst->data[(size_t)(qi * h + i) * dst->stride + qj * h + j] += q->data[(size_t)i * q->stride + j];
}

/* C = A B */
static void matmul_rec(const Mat *A, const Mat *B, Mat *C) {
  int n = A->n;
  if (n <= LEAF) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += A->data[i * A->stride + k] * B->data[k * B->stride + j];
        C->data[i * C->stride + j] = s;
      }
    return;
  }
  int h = n / 2;
  Mat *a[2][2], *b[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      a[i][j] = mat_new(h);
      get_quadrant(a[i][j], A, i, j);
      b[i][j] = mat_new(h);
      get_quadrant(b[i][j], B, i, j);
    }
  memset(C->data, 0, sizeof(double) * n * C->stride);
  Mat *t = mat_new(h);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) {
        matmul_rec(a[i][k], b[k][j], t);
        add_quadrant(C, t, i, j);
      }
  mat_free(t);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      mat_free(a[i][j]);
      mat_free(b[i][j]);
    }
}

/* sum_ij w_ij (X Y)_ij^2 with w_ij = 1 + (i + 2j) / 64 */
double product_energy(double *x, double *y) {
  Mat X = {N, N, x};
  Mat *Y = malloc(sizeof *Y);
  *Y = (Mat){N, N, y};
  Mat *Xh = malloc(sizeof *Xh);
  *Xh = X;                                   /* a header copy: Xh->data is x */
  Mat *C = mat_new(N);
  matmul_rec(Xh, Y, C);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += (1 + (i + 2 * j) / 64.0) * C->data[i * N + j] * C->data[i * N + j];
  mat_free(C);
  free(Xh);
  free(Y);
  return s;
}

/* Plain triple loop for the oracle's central differences (independent of the recursion). */
static double energy_direct(const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double c = 0;
      for (int k = 0; k < N; k++) c += x[i * N + k] * y[k * N + j];
      s += (1 + (i + 2 * j) / 64.0) * c * c;
    }
  return s;
}

int main(void) {
  static double x[N * N], y[N * N], dx[N * N], dy[N * N], dx2[2][N * N], dy2[2][N * N];
  static double tx[N * N], ty[N * N], xs[N * N], ys[N * N];
  for (int i = 0; i < N * N; i++) {
    x[i] = sin(0.37 * i + 0.1) * 0.6;
    y[i] = cos(0.71 * i) * 0.5;
  }
  check("recursive product = triple loop", product_energy(x, y), energy_direct(x, y), 1e-12);
  __enzyme_autodiff((void *)product_energy, enzyme_dup, x, dx, enzyme_dup, y, dy);
  for (int i = 0; i < N * N; i += 37) {
    check("d/dx central", dx[i], CENTRAL(energy_direct(x, y), x[i], x[i]), 1e-6);
    check("d/dy central", dy[i], CENTRAL(energy_direct(x, y), y[i], y[i]), 1e-6);
  }
  /* forward mode along a direction: <grad, t> */
  for (int i = 0; i < N * N; i++) { tx[i] = cos(1.3 * i); ty[i] = sin(0.4 * i + 1); }
  double along = __enzyme_fwddiff((void *)product_energy, enzyme_dup, x, tx, enzyme_dup, y, ty);
  check("forward = <reverse, t>", along, dot(dx, tx, N * N) + dot(dy, ty, N * N), 1e-10);
  /* batch reverse: two directions of the return's adjoint (both 1) accumulate into two shadows each */
  __enzyme_autodiff_void((void *)product_energy, enzyme_width, 2, x, dx2[0], dx2[1], y, dy2[0], dy2[1]);
  for (int i = 0; i < N * N; i += 11) {
    check("batch direction 0 dx", dx2[0][i], dx[i], 1e-12);
    check("batch direction 1 dy", dy2[1][i], dy[i], 1e-12);
  }
  /* split mode: the caller overwrites the inputs between the sweeps; the tape keeps what the reverse needs */
  for (int i = 0; i < N * N; i++) { xs[i] = x[i]; ys[i] = y[i]; tx[i] = 0; ty[i] = 0; }
  aug_t r = __enzyme_augmentfwd((void *)product_energy, enzyme_dup, xs, tx, enzyme_dup, ys, ty);
  check("split primal", r.primal, energy_direct(x, y), 1e-12);
  for (int i = 0; i < N * N; i++) { xs[i] = -1; ys[i] = 2; }
  __enzyme_reverse((void *)product_energy, enzyme_dup, xs, tx, enzyme_dup, ys, ty, 0.5, r.tape);
  for (int i = 0; i < N * N; i += 13) {
    check("split dx", tx[i], 0.5 * dx[i], 1e-12);
    check("split dy", ty[i], 0.5 * dy[i], 1e-12);
  }
  return finish();
}

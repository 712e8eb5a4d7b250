#include "check.h"
#include <string.h>
/* Matrix structs {n, stride, data} handled two more ways a numerical code does it:
   - quadrant views made by copying the parent's header into a fresh heap struct (memcpy of a struct holding
     the data pointer) and moving its data pointer, recursing on the views (C += A B, 8 -> 4 -> 2);
   - Strassen's algorithm on matrices passed and returned by value: the recursive function returns a freshly
     allocated product in a struct, quadrant views are structs returned by value, quadrants are copied row by
     row with memcpy into contiguous temporaries, and every temporary is freed before returning.
   Reverse mode (combined, batch, split) is checked against central differences and forward mode. */
typedef struct { int n, stride; double *data; } Mat;
extern int enzyme_width;
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff_void(void *, ...);

enum { N = 8 };

/* ---- header-copy views ---- */
static void matmul_acc(const Mat *A, const Mat *B, Mat *C) {
  int n = A->n;
  if (n <= 2) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        for (int k = 0; k < n; k++) C->data[i * C->stride + j] += A->data[i * A->stride + k] * B->data[k * B->stride + j];
    return;
  }
  int h = n / 2;
  Mat *qa[4], *qb[4], *qc[4];
  for (int q = 0; q < 4; q++) {
    qa[q] = malloc(sizeof(Mat));
    memcpy(qa[q], A, sizeof(Mat));
    qb[q] = malloc(sizeof(Mat));
    memcpy(qb[q], B, sizeof(Mat));
    qc[q] = malloc(sizeof(Mat));
    memcpy(qc[q], C, sizeof(Mat));
    qa[q]->n = qb[q]->n = qc[q]->n = h;
    qa[q]->data += (size_t)(q / 2) * h * A->stride + (q % 2) * h;
    qb[q]->data += (size_t)(q / 2) * h * B->stride + (q % 2) * h;
    qc[q]->data += (size_t)(q / 2) * h * C->stride + (q % 2) * h;
  }
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      for (int k = 0; k < 2; k++) matmul_acc(qa[2 * i + k], qb[2 * k + j], qc[2 * i + j]);
  for (int q = 0; q < 4; q++) {
    free(qa[q]);
    free(qb[q]);
    free(qc[q]);
  }
}

double views_energy(double *x, double *y) {
  Mat A = {N, N, x}, B = {N, N, y}, C = {N, N, calloc(N * N, sizeof(double))};
  matmul_acc(&A, &B, &C);
  double s = 0;
  for (int i = 0; i < N * N; i++) s += C.data[i] * C.data[i] * (1 + 0.01 * i);
  free(C.data);
  return s;
}

/* ---- Strassen on structs by value ---- */
static Mat mat_alloc(int n) {
  Mat m = {n, n, malloc(sizeof(double) * n * n)};
  return m;
}

static Mat view(Mat m, int qi, int qj) {
  int h = m.n / 2;
  Mat v = {h, m.stride, m.data + (size_t)qi * h * m.stride + qj * h};
  return v;
}

static Mat copy_of(Mat src) {
  Mat dst = mat_alloc(src.n);
  for (int i = 0; i < src.n; i++) memcpy(dst.data + (size_t)i * dst.stride, src.data + (size_t)i * src.stride, sizeof(double) * src.n);
  return dst;
}

/* dst = a + s b */
static void axpy_into(Mat dst, Mat a, double s, Mat b) {
  for (int i = 0; i < a.n; i++)
    for (int j = 0; j < a.n; j++) dst.data[i * dst.stride + j] = a.data[i * a.stride + j] + s * b.data[i * b.stride + j];
}

static Mat strassen(Mat A, Mat B) {
  int n = A.n;
  Mat C = mat_alloc(n);
  if (n <= 2) {
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++) s += A.data[i * A.stride + k] * B.data[k * B.stride + j];
        C.data[i * C.stride + j] = s;
      }
    return C;
  }
  int h = n / 2;
  Mat a[4], b[4];
  for (int q = 0; q < 4; q++) {
    a[q] = copy_of(view(A, q / 2, q % 2));
    b[q] = copy_of(view(B, q / 2, q % 2));
  }
  Mat s = mat_alloc(h), t = mat_alloc(h), m[7];
  axpy_into(s, a[0], 1, a[3]); axpy_into(t, b[0], 1, b[3]); m[0] = strassen(s, t);
  axpy_into(s, a[2], 1, a[3]); m[1] = strassen(s, b[0]);
  axpy_into(t, b[1], -1, b[3]); m[2] = strassen(a[0], t);
  axpy_into(t, b[2], -1, b[0]); m[3] = strassen(a[3], t);
  axpy_into(s, a[0], 1, a[1]); m[4] = strassen(s, b[3]);
  axpy_into(s, a[2], -1, a[0]); axpy_into(t, b[0], 1, b[1]); m[5] = strassen(s, t);
  axpy_into(s, a[1], -1, a[3]); axpy_into(t, b[2], 1, b[3]); m[6] = strassen(s, t);
  Mat c11 = view(C, 0, 0), c12 = view(C, 0, 1), c21 = view(C, 1, 0), c22 = view(C, 1, 1);
  axpy_into(c11, m[0], 1, m[3]); axpy_into(c11, c11, -1, m[4]); axpy_into(c11, c11, 1, m[6]);
  axpy_into(c12, m[2], 1, m[4]);
  axpy_into(c21, m[1], 1, m[3]);
  axpy_into(c22, m[0], -1, m[1]); axpy_into(c22, c22, 1, m[2]); axpy_into(c22, c22, 1, m[5]);
  for (int k = 0; k < 7; k++) free(m[k].data);
  free(s.data);
  free(t.data);
  for (int q = 0; q < 4; q++) {
    free(a[q].data);
    free(b[q].data);
  }
  return C;
}

double strassen_energy(double *x, double *y) {
  Mat A = {N, N, x}, B = {N, N, y};
  Mat C = strassen(A, B);
  double s = 0;
  for (int i = 0; i < N * N; i++) s += C.data[i] * C.data[i] * (1 + 0.01 * i);
  free(C.data);
  return s;
}

/* The oracle for central differences: a plain triple loop. */
static double energy_direct(const double *x, const double *y) {
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double c = 0;
      for (int k = 0; k < N; k++) c += x[i * N + k] * y[k * N + j];
      s += c * c * (1 + 0.01 * (i * N + j));
    }
  return s;
}

/* always_inline: each __enzyme_* call must name its function once inlined (also at -O0) */
__attribute__((always_inline)) static inline void check_gradient(const char *name, double (*f)(double *, double *),
                                                                  double *x, double *y) {
  static double dx[N * N], dy[N * N], bx[2][N * N], by[2][N * N], tx[N * N], ty[N * N], xs[N * N], ys[N * N];
  char what[96];
  memset(dx, 0, sizeof dx);
  memset(dy, 0, sizeof dy);
  memset(bx, 0, sizeof bx);
  memset(by, 0, sizeof by);
  snprintf(what, sizeof what, "%s primal", name);
  check(what, f(x, y), energy_direct(x, y), 1e-12);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  for (int i = 0; i < N * N; i += 7) {
    snprintf(what, sizeof what, "%s d/dx[%d] central", name, i);
    check(what, dx[i], CENTRAL(energy_direct(x, y), x[i], x[i]), 1e-6);
    snprintf(what, sizeof what, "%s d/dy[%d] central", name, i);
    check(what, dy[i], CENTRAL(energy_direct(x, y), y[i], y[i]), 1e-6);
  }
  for (int i = 0; i < N * N; i++) { tx[i] = cos(1.3 * i); ty[i] = sin(0.4 * i + 1); }
  snprintf(what, sizeof what, "%s forward = <reverse, t>", name);
  check(what, __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, y, ty), dot(dx, tx, N * N) + dot(dy, ty, N * N), 1e-10);
  __enzyme_autodiff_void((void *)f, enzyme_width, 2, x, bx[0], bx[1], y, by[0], by[1]);
  for (int i = 0; i < N * N; i += 5) {
    snprintf(what, sizeof what, "%s batch dx[%d]", name, i);
    check(what, bx[1][i], dx[i], 1e-12);
    snprintf(what, sizeof what, "%s batch dy[%d]", name, i);
    check(what, by[0][i], dy[i], 1e-12);
  }
  for (int i = 0; i < N * N; i++) { xs[i] = x[i]; ys[i] = y[i]; tx[i] = 0; ty[i] = 0; }
  aug_t r = __enzyme_augmentfwd((void *)f, enzyme_dup, xs, tx, enzyme_dup, ys, ty);
  for (int i = 0; i < N * N; i++) { xs[i] = 3; ys[i] = -4; }  /* changed between the sweeps */
  __enzyme_reverse((void *)f, enzyme_dup, xs, tx, enzyme_dup, ys, ty, 2.0, r.tape);
  for (int i = 0; i < N * N; i += 9) {
    snprintf(what, sizeof what, "%s split dx[%d]", name, i);
    check(what, tx[i], 2 * dx[i], 1e-12);
    snprintf(what, sizeof what, "%s split dy[%d]", name, i);
    check(what, ty[i], 2 * dy[i], 1e-12);
  }
}

int main(void) {
  double x[N * N], y[N * N];
  for (int i = 0; i < N * N; i++) {
    x[i] = sin(0.3 * i + 0.1);
    y[i] = cos(0.7 * i) * 0.5;
  }
  check_gradient("views", views_energy, x, y);
  check_gradient("strassen", strassen_energy, x, y);
  return finish();
}

/* Shared pieces of the sparse-Jacobian test programs: a COO triplet list filled through
   __enzyme_todense pointers, and a check that sums it into a dense matrix. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

struct Entry { size_t row, col; double val; };

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed;
extern "C" void __enzyme_autodiff(void *, ...);
extern "C" void __enzyme_fwddiff(void *, ...);
#ifdef TODENSE_MAY_THROW /* declared without noexcept, C++ calls it with `invoke` */
extern "C" double *__enzyme_todense(void *, ...);
#else
extern "C" double *__enzyme_todense(void *, ...) noexcept;
#endif

/* A unit seed vector e_col: reading byte offset `off` gives 1 where off/8 == col. */
static double unit_load(int64_t off, size_t col) { return off / (int64_t)sizeof(double) == (int64_t)col ? 1.0 : 0.0; }
static void unit_store(double, int64_t, size_t) { fprintf(stderr, "store into a seed\n"); abort(); }

/* Column `col` of a Hessian: each write reports one contribution (reads give 0), summed later. */
static double column_load(int64_t, size_t, std::vector<Entry> *) { return 0.0; }
__attribute__((noinline)) static void report(size_t row, size_t col, double v, std::vector<Entry> *out) {
  out->push_back(Entry{row, col, v});
}
static void column_store(double v, int64_t off, size_t col, std::vector<Entry> *out) {
  if (v != 0.0) report((size_t)off / sizeof(double), col, v, out);
}

static int failures = 0;
static void check(const char *what, double got, double want, double tol) {
  int ok = fabs(got - want) <= tol * (1.0 + fabs(want));
  if (!ok) failures++;
  printf("%s %s: got %.12g want %.12g\n", ok ? "ok" : "FAIL", what, got, want);
}

/* Sum the triplets into a dense n x n matrix (row-major). */
static std::vector<double> densify(const std::vector<Entry> &t, size_t n) {
  std::vector<double> h(n * n, 0.0);
  for (const Entry &e : t) {
    if (e.row >= n || e.col >= n) { printf("FAIL entry (%zu, %zu) outside %zu x %zu\n", e.row, e.col, n, n); failures++; continue; }
    h[e.row * n + e.col] += e.val;
  }
  return h;
}

static int finish(void) {
  printf(failures ? "FAILED %d\n" : "ALL OK\n", failures);
  return failures != 0;
}

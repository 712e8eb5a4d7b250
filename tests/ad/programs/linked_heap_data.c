#include "check.h"
#include <string.h>
/* Heap data that holds pointers: a table of row pointers copied with memcpy and permuted, an index array
   copied with memcpy next to the active data, a struct {double, double *} returned by value, and a binary tree
   of malloc'd nodes built recursively, summed, and freed recursively (post-order, in another function than
   the one that allocated).  Checked against central differences, forward mode, batch and split reverse. */
extern int enzyme_width;
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff_void(void *, ...);

enum { N = 8 };

/* rows 0 and n-1 swapped, in a fresh copy of the table */
__attribute__((noinline)) double **swapped_rows(double **rows, int n) {
  double **p = malloc(n * sizeof *p);
  memcpy(p, rows, n * sizeof *p);
  double *t = p[0];
  p[0] = p[n - 1];
  p[n - 1] = t;
  return p;
}

double rows_energy(double *x, int n) {
  double **rows = malloc(n * sizeof *rows);
  for (int i = 0; i < n; i++) rows[i] = x + 2 * i;
  double **p = swapped_rows(rows, n);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * p[i][0] * p[i][1];
  free(p);
  free(rows);
  return s;
}

double permuted_products(double *x, int n) {
  int *perm = malloc(n * sizeof *perm), *copy = malloc(n * sizeof *copy);
  for (int i = 0; i < n; i++) perm[i] = (i * 3) % n;
  memcpy(copy, perm, n * sizeof *perm);
  double s = 0;
  for (int i = 0; i < n; i++) s += (i + 1) * x[copy[i]] * x[i];
  free(perm);
  free(copy);
  return s;
}

typedef struct { double scaled; double *at; } Pick;
__attribute__((noinline)) Pick pick(double *x, int i) {
  Pick r = {x[i] * 2, x + i};
  return r;
}
double picked(double *x) {
  Pick r = pick(x, 2);
  return r.scaled * r.at[1] + r.scaled * r.scaled;
}

typedef struct Node { double w; struct Node *left, *right; } Node;
static Node *build(const double *x, int lo, int hi) {
  if (lo >= hi) return NULL;
  int mid = (lo + hi) / 2;
  Node *node = malloc(sizeof *node);
  node->w = x[mid] * x[mid];
  node->left = build(x, lo, mid);
  node->right = build(x, mid + 1, hi);
  return node;
}
static double depth_weighted(const Node *t, int d) {
  return t ? t->w * d + sin(depth_weighted(t->left, d + 1)) + depth_weighted(t->right, d + 1) : 0;
}
static void release(Node *t) {
  if (!t) return;
  release(t->left);
  release(t->right);
  free(t);
}
double tree_energy(double *x) {
  Node *t = build(x, 0, N - 1);
  double s = depth_weighted(t, 1);
  release(t);
  return s;
}

int main(void) {
  double x0[N] = {0.5, -1, 2, 0.3, 1.1, -0.4, 0.9, 1.7}, x[N], dx[N] = {0}, t[N] = {1, 2, 3, 4, 5, 6, 7, 8};
  double b0[N], b1[N];
  memcpy(x, x0, sizeof x);

  __enzyme_autodiff((void *)rows_energy, enzyme_dup, x, dx, enzyme_const, 4);
  for (int i = 0; i < N; i++) check("row table central", dx[i], CENTRAL(rows_energy(x, 4), x[i], x[i]), 1e-6);
  check("row table forward", __enzyme_fwddiff((void *)rows_energy, enzyme_dup, x, t, enzyme_const, 4), dot(dx, t, N), 1e-12);
  memset(b0, 0, sizeof b0);
  memset(b1, 0, sizeof b1);
  __enzyme_autodiff_void((void *)rows_energy, enzyme_width, 2, x, b0, b1, enzyme_const, 4);
  for (int i = 0; i < N; i++) check("row table batch", b0[i] + b1[i], 2 * dx[i], 1e-12);

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)permuted_products, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("index copy central", dx[i], CENTRAL(permuted_products(x, N), x[i], x[i]), 1e-6);
  check("index copy forward", __enzyme_fwddiff((void *)permuted_products, enzyme_dup, x, t, enzyme_const, N), dot(dx, t, N), 1e-12);

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)picked, enzyme_dup, x, dx);
  check("struct by value d2", dx[2], 2 * x[3] + 8 * x[2], 1e-12);
  check("struct by value d3", dx[3], 2 * x[2], 1e-12);
  check("struct by value central", dx[2], CENTRAL(picked(x), x[2], x[2]), 1e-6);
  check("struct by value forward", __enzyme_fwddiff((void *)picked, enzyme_dup, x, t), dot(dx, t, N), 1e-12);

  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)tree_energy, enzyme_dup, x, dx);
  for (int i = 0; i < N; i++) check("tree central", dx[i], CENTRAL(tree_energy(x), x[i], x[i]), 1e-6);
  check("tree forward", __enzyme_fwddiff((void *)tree_energy, enzyme_dup, x, t), dot(dx, t, N), 1e-12);
  memset(b0, 0, sizeof b0);
  aug_t r = __enzyme_augmentfwd((void *)tree_energy, enzyme_dup, x, b0);
  check("tree split primal", r.primal, tree_energy(x0), 1e-14);
  for (int i = 0; i < N; i++) x[i] = 7;  /* changed between the sweeps */
  __enzyme_reverse((void *)tree_energy, enzyme_dup, x, b0, 3.0, r.tape);
  for (int i = 0; i < N; i++) check("tree split", b0[i], 3 * dx[i], 1e-12);
  return finish();
}

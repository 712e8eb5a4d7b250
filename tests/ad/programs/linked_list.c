#include "check.h"
/* Pointer chasing: a linked list whose shadow list mirrors it node by node (values active, tags inactive);
   a list built with malloc inside the differentiated function; irreducible control flow (goto into a loop). */
typedef struct Node { double v; struct Node *next; int tag; } Node;
double list_poly(const Node *n) { double s = 0, p = 1; while (n) { s += n->v * n->v * p; p *= n->v; n = n->next; } return s; }
double build_and_walk(const double *x, int n) {
  Node *head = NULL;
  for (int i = 0; i < n; i++) { Node *k = malloc(sizeof(Node)); k->v = exp(x[i]); k->tag = i; k->next = head; head = k; }
  double s = 0;
  int pos = 0;
  for (Node *k = head; k; k = k->next) s += k->v * (++pos);
  while (head) { Node *nx = head->next; free(head); head = nx; }
  return s;
}
double irreducible(double x, int k) {
  double s = x;
  int i = 0;  /* declared before the jump: jumping past a for-loop's own initialisation leaves i undefined */
  if (k & 1) goto inside;
  for (i = 0; i < 4; i++) {
    s = s * 1.1;
  inside:
    s = sin(s) + x;
  }
  return s;
}

int main(void) {
  Node n3 = {1.5, 0, 3}, n2 = {-0.5, &n3, 2}, n1 = {0.8, &n2, 1};
  Node d3 = {0, 0, 0}, d2 = {0, &d3, 0}, d1 = {0, &d2, 0};
  __enzyme_autodiff((void *)list_poly, enzyme_dup, &n1, &d1);
  /* s = a^2 + b^2 a + c^2 a b */
  double a = n1.v, b = n2.v, c = n3.v;
  check("list d/da", d1.v, 2 * a + b * b + c * c * b, 1e-12);
  check("list d/db", d2.v, 2 * b * a + c * c * a, 1e-12);
  check("list d/dc", d3.v, 2 * c * a * b, 1e-12);
  Node t3 = {1.0, 0, 0}, t2 = {0.0, &t3, 0}, t1 = {2.0, &t2, 0};
  check("list forward", __enzyme_fwddiff((void *)list_poly, enzyme_dup, &n1, &t1), 2 * d1.v + d3.v, 1e-12);
  enum { N = 4 };
  double x[N] = {0.1, -0.3, 0.5, 0.2}, dx[N] = {0};
  __enzyme_autodiff((void *)build_and_walk, enzyme_dup, x, dx, enzyme_const, N);
  for (int i = 0; i < N; i++) check("malloc'd list (reversed order)", dx[i], exp(x[i]) * (N - i), 1e-12);
  double v;
  for (int k = 0; k < 2; k++) {
    double r = __enzyme_autodiff((void *)irreducible, 0.7, enzyme_const, k);
    check("irreducible central", r, CENTRAL(irreducible(v, k), v, 0.7), 1e-6);
    check("irreducible forward", __enzyme_fwddiff((void *)irreducible, 0.7, 1.0, enzyme_const, k), r, 1e-12);
  }
  return finish();
}

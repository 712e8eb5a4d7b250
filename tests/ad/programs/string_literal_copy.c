/* A linked list of named parameters whose names are copied from string literals with memcpy: the
   literal is constant memory without a shadow, and the node it is copied into also holds a pointer,
   but a literal holds characters only, so the copy moves no pointer and needs no refusal.  Checked
   against the analytic derivative, central differences and forward mode. */
#include <string.h>
#include "check.h"

typedef struct Param {
  char name[16];
  double value;
  struct Param *next;
} Param;

__attribute__((noinline)) static Param *push(Param *head, int kind, double value) {
  Param *p = malloc(sizeof *p);
  if (kind == 0)
    memcpy(p->name, "stiffness", 10);
  else
    memcpy(p->name, "damping ratio", 14);
  p->value = value;
  p->next = head;
  return p;
}

static double lookup(const Param *p, const char *name) {
  for (; p; p = p->next)
    if (strcmp(p->name, name) == 0) return p->value;
  return 0;
}

/* Energy of a damped spring: k x^2 / 2 scaled by (1 + c^2). */
static double energy(const double *in) {
  Param *list = push(push(NULL, 0, in[0]), 1, in[1]);
  double k = lookup(list, "stiffness"), c = lookup(list, "damping ratio");
  double e = 0.5 * k * in[2] * in[2] * (1 + c * c);
  while (list) {
    Param *next = list->next;
    free(list);
    list = next;
  }
  return e;
}

int main(void) {
  double in[3] = {40.0, 0.3, 0.05}, grad[3] = {0}, dir[3] = {1.0, -2.0, 0.5};
  __enzyme_autodiff((void *)energy, in, grad);
  double tangent = __enzyme_fwddiff((void *)energy, in, dir);
  double k = in[0], c = in[1], x = in[2];
  check("dE/dk", grad[0], 0.5 * x * x * (1 + c * c), 1e-12);
  check("dE/dc", grad[1], k * x * x * c, 1e-12);
  check("dE/dx", grad[2], k * x * (1 + c * c), 1e-12);
  for (int i = 0; i < 3; i++) {
    char what[32];
    snprintf(what, sizeof what, "grad[%d] central", i);
    check(what, grad[i], CENTRAL(energy(in), in[i], in[i]), 1e-6);
  }
  check("forward = grad . dir", tangent, dot(grad, dir, 3), 1e-12);
  return finish();
}

#include "check.h"
#include <ctype.h>
#include <string.h>
/* A formula read from a string literal by a cursor kept in a struct next to a pointer to the active
   parameters: names copied byte by byte into a local buffer, numbers read with strtod(s, &end) and the
   cursor moved to the end pointer.  At -O0 forward mode dereferenced a null shadow: the literal's shadow
   and strtod's end pointer's shadow were null, and the tangent code reads through the cursor's shadow where
   the primal copies characters.  Sum over terms "k*name" of k * par[name]^2, against central differences. */
typedef struct {
  const char *s;
  const double *par;
} cursor;

static double term(cursor *c) {
  char *end;
  double k = strtod(c->s, &end);
  c->s = end;
  if (*c->s == '*') c->s++;
  char name[8];
  int n = 0;
  while (isalpha((unsigned char)*c->s) && n < 7) name[n++] = *c->s++;
  name[n] = '\0';
  double v = strcmp(name, "alpha") == 0 ? c->par[0] : strcmp(name, "beta") == 0 ? c->par[1] : c->par[2];
  return k * v * v;
}

double formula(const double *par) {
  cursor c = {"2.5*alpha + 0.75*beta + 1.5*gamma + 3*alpha", par};
  double sum = term(&c);
  while (*c.s) {
    while (*c.s == ' ' || *c.s == '+') c.s++;
    sum += term(&c);
  }
  return sum;
}

int main(void) {
  double par[3] = {1.25, -0.5, 2.0}, dpar[3] = {0};
  __enzyme_autodiff((void *)formula, enzyme_dup, par, dpar);
  for (int i = 0; i < 3; i++) {
    double t[3] = {0};
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void *)formula, enzyme_dup, par, t);
    double fd = CENTRAL(formula(par), par[i], par[i]);
    check("text cursor forward", fwd, fd, 1e-6);
    check("text cursor reverse", dpar[i], fd, 1e-6);
  }
  return finish();
}

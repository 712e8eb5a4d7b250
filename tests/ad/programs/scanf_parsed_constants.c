#include "check.h"
#include <string.h>
/* Values parsed from text inside differentiated code (sscanf, strtod, atof) are constants to derivatives, and
   sscanf's stores overwrite whatever derivative its destinations held: here k and g hold active values first,
   then sscanf replaces them.  A conversion that does not match leaves its destination (and its derivative)
   alone: `fail` keeps x[1].  Strings, chars and %n counts go to buffers without derivatives.  Reverse and
   forward mode are checked against the analytic gradient and central differences. */
static const char *TEXT = "2.5 3 0.25 name Z";

double parsed(const double *x) {
  double k = x[0] * x[0];
  double s = k;
  int n = 0, used = 0;
  float g = (float)x[1];
  char word[16], c;
  if (sscanf(TEXT, "%lf %d %f %15s %c%n", &k, &n, &g, word, &c, &used) != 5) return -1;
  double a = atof("1.5"), e;
  char *end;
  e = strtod("4.25 rest", &end);
  double fail = x[1];
  sscanf("abc", "%lf", &fail);
  double rest = x[0];
  sscanf(end, " %*s"); /* assignment suppressed: writes nothing */
  return s + k * x[1] + n * x[0] + g * x[1] * x[1] + a * e * x[0] + fail * fail + (used + c + word[0]) * rest;
}

int main(void) {
  double x[2] = {1.3, 0.7};
  double weight = strlen(TEXT) + 'Z' + 'n';
  double exact[2] = {2 * x[0] + 3 + 1.5 * 4.25 + weight, 2.5 + 2 * 0.25 * x[1] + 2 * x[1]};
  double d[2] = {0, 0};
  __enzyme_autodiff((void *)parsed, enzyme_dup, x, d);
  for (int i = 0; i < 2; i++) {
    double v[2] = {i == 0, i == 1}, p[2] = {x[0], x[1]};
    char what[32];
    snprintf(what, sizeof what, "reverse d%d", i);
    check(what, d[i], exact[i], 1e-12);
    snprintf(what, sizeof what, "forward d%d", i);
    check(what, __enzyme_fwddiff((void *)parsed, enzyme_dup, x, v), exact[i], 1e-12);
    snprintf(what, sizeof what, "central d%d", i);
    check(what, CENTRAL(parsed(p), p[i], x[i]), exact[i], 1e-6);
  }
  return finish();
}

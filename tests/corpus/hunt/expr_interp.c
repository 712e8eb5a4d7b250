#include "hunt.h"
#include <ctype.h>
/* Model fitting where the model is a formula typed by the user: a recursive-descent parser evaluates the
   expression string directly for each data point (numbers by strtod, identifiers x, a, b, c, functions sin,
   exp, log, sqrt by name, ^ for powers, unary minus), with the parameters in a struct the parser reads.
   Objective: the sum of squared residuals against synthetic data.  Inputs: the parameters a, b, c. */
typedef struct {
  const char *s;
  double x;
  const double *par;
  int error;
} Parser;

static double parse_expr(Parser *p);

static void skip(Parser *p) {
  while (*p->s == ' ') p->s++;
}

static double parse_primary(Parser *p) {
  skip(p);
  if (*p->s == '(') {
    p->s++;
    double v = parse_expr(p);
    skip(p);
    if (*p->s == ')') p->s++; else p->error = 1;
    return v;
  }
  if (*p->s == '-') {
    p->s++;
    return -parse_primary(p);
  }
  if (isdigit((unsigned char)*p->s) || *p->s == '.') {
    char *end;
    double v = strtod(p->s, &end);
    p->s = end;
    return v;
  }
  if (isalpha((unsigned char)*p->s)) {
    char name[8];
    int n = 0;
    while (isalpha((unsigned char)*p->s) && n < 7) name[n++] = *p->s++;
    name[n] = '\0';
    if (n == 1) {
      switch (name[0]) {
        case 'x': return p->x;
        case 'a': return p->par[0];
        case 'b': return p->par[1];
        case 'c': return p->par[2];
        default: p->error = 1; return 0.0;
      }
    }
    double arg = parse_primary(p);
    if (strcmp(name, "sin") == 0) return sin(arg);
    if (strcmp(name, "exp") == 0) return exp(arg);
    if (strcmp(name, "log") == 0) return log(arg);
    if (strcmp(name, "sqrt") == 0) return sqrt(arg);
    p->error = 1;
    return 0.0;
  }
  p->error = 1;
  return 0.0;
}

static double parse_power(Parser *p) {
  double base = parse_primary(p);
  skip(p);
  if (*p->s == '^') {
    p->s++;
    double e = parse_power(p);
    return pow(base, e);
  }
  return base;
}

static double parse_term(Parser *p) {
  double v = parse_power(p);
  for (;;) {
    skip(p);
    if (*p->s == '*') { p->s++; v *= parse_power(p); }
    else if (*p->s == '/') { p->s++; v /= parse_power(p); }
    else return v;
  }
}

static double parse_expr(Parser *p) {
  double v = parse_term(p);
  for (;;) {
    skip(p);
    if (*p->s == '+') { p->s++; v += parse_term(p); }
    else if (*p->s == '-') { p->s++; v -= parse_term(p); }
    else return v;
  }
}

static const char *model = "a * exp(-b * x) * sin(2.5 * x + c) + 0.1 * sqrt(x + a^2) - log(1 + b * x^2) / 3";

double misfit(const double *par, int npts) {
  double sse = 0.0;
  for (int i = 0; i < npts; i++) {
    double x = 0.15 * i;
    double data = 1.3 * exp(-0.4 * x) * sin(2.5 * x + 0.2) + 0.05 * cos(7.0 * x);
    Parser p = {model, x, par, 0};
    double y = parse_expr(&p);
    if (p.error) return NAN;
    sse += (y - data) * (y - data);
  }
  return sse;
}

static double par[3] = {1.1, 0.5, 0.3};

int main(void) {
  const int npts = 25;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(misfit(par, npts), par[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)misfit, enzyme_dup, par, dp, enzyme_const, npts);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)misfit, enzyme_dup, par, dp, enzyme_const, npts);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

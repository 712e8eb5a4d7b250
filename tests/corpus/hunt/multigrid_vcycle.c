#include "hunt.h"
/* Steady heat conduction -(k u')' = f on (0,1), u(0) = u(1) = 0, with k(x) = exp(a0 + a1 x) and
   f = b sin(pi x), solved by geometric multigrid: red-black Gauss-Seidel smoothing, full-weighting
   restriction, linear prolongation, a V-cycle recursing on the level index, coarse coefficients by
   averaging the fine face values.  Solver settings come from a configuration string parsed with strtok
   and atoi, as a code reading an input deck would.  Objective: the mean of u^2 plus u at x = 0.3.
   Inputs: a0, a1, b. */
#define MAXLEV 8

typedef struct {
  int n;         /* intervals; unknowns 1..n-1 */
  double h;
  double *k;     /* k[i]: face between nodes i and i+1 */
  double *u, *f, *r;
} Level;

typedef struct {
  int levels, pre, post, cycles;
} Settings;

static void read_settings(Settings *s) {
  char deck[] = "levels=4 pre=2 post=1 cycles=7";
  s->levels = 2; s->pre = 1; s->post = 1; s->cycles = 1;
  for (char *tok = strtok(deck, " "); tok; tok = strtok(NULL, " ")) {
    char *eq = strchr(tok, '=');
    if (!eq) continue;
    *eq = '\0';
    int v = atoi(eq + 1);
    if (strcmp(tok, "levels") == 0) s->levels = v;
    else if (strcmp(tok, "pre") == 0) s->pre = v;
    else if (strcmp(tok, "post") == 0) s->post = v;
    else if (strcmp(tok, "cycles") == 0) s->cycles = v;
  }
}

static void smooth(Level *g, int sweeps) {
  double h2 = g->h * g->h;
  for (int s = 0; s < sweeps; s++)
    for (int color = 0; color < 2; color++)
      for (int i = 1 + color; i < g->n; i += 2)
        g->u[i] = (g->f[i] * h2 + g->k[i] * g->u[i + 1] + g->k[i - 1] * g->u[i - 1]) / (g->k[i] + g->k[i - 1]);
}

static void residual(Level *g) {
  double h2 = g->h * g->h;
  g->r[0] = g->r[g->n] = 0.0;
  for (int i = 1; i < g->n; i++)
    g->r[i] = g->f[i] - (g->k[i - 1] * (g->u[i] - g->u[i - 1]) - g->k[i] * (g->u[i + 1] - g->u[i])) / h2;
}

static void vcycle(Level *lev, int l, int nlev, const Settings *s) {
  Level *g = &lev[l];
  if (l == nlev - 1 || g->n <= 2) {
    smooth(g, 30);
    return;
  }
  smooth(g, s->pre);
  residual(g);
  Level *c = &lev[l + 1];
  for (int j = 0; j <= c->n; j++) c->u[j] = 0.0;
  c->f[0] = c->f[c->n] = 0.0;
  for (int j = 1; j < c->n; j++) c->f[j] = 0.25 * g->r[2 * j - 1] + 0.5 * g->r[2 * j] + 0.25 * g->r[2 * j + 1];
  vcycle(lev, l + 1, nlev, s);
  for (int j = 0; j < c->n; j++) {
    g->u[2 * j] += c->u[j];
    g->u[2 * j + 1] += 0.5 * (c->u[j] + c->u[j + 1]);
  }
  smooth(g, s->post);
}

double conduction(const double *p, int n) {
  Settings s;
  read_settings(&s);
  if (s.levels > MAXLEV) s.levels = MAXLEV;
  Level lev[MAXLEV];
  int nlev = 0;
  for (int m = n; nlev < s.levels && m >= 2; m /= 2, nlev++) {
    lev[nlev].n = m;
    lev[nlev].h = 1.0 / m;
    lev[nlev].k = malloc(m * sizeof(double));
    lev[nlev].u = calloc(m + 1, sizeof(double));
    lev[nlev].f = calloc(m + 1, sizeof(double));
    lev[nlev].r = calloc(m + 1, sizeof(double));
  }
  for (int i = 0; i < n; i++) lev[0].k[i] = exp(p[0] + p[1] * (i + 0.5) / n);
  for (int l = 1; l < nlev; l++)
    for (int j = 0; j < lev[l].n; j++) lev[l].k[j] = 0.5 * (lev[l - 1].k[2 * j] + lev[l - 1].k[2 * j + 1]);
  for (int i = 1; i < n; i++) lev[0].f[i] = p[2] * sin(M_PI * i / n);
  for (int c = 0; c < s.cycles; c++) vcycle(lev, 0, nlev, &s);
  double msq = 0.0;
  for (int i = 1; i < n; i++) msq += lev[0].u[i] * lev[0].u[i];
  double x = 0.3 * n;
  int i0 = (int)x;
  double w = x - i0;
  double u03 = (1 - w) * lev[0].u[i0] + w * lev[0].u[i0 + 1];
  for (int l = 0; l < nlev; l++) {
    free(lev[l].k); free(lev[l].u); free(lev[l].f); free(lev[l].r);
  }
  return msq / n + u03;
}

static double p[3] = {0.2, -0.7, 3.0};

int main(void) {
  const int n = 64;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; q++) fd[q] = HUNT_FD(conduction(p, n), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)conduction, enzyme_dup, p, dp, enzyme_const, n);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; q++) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)conduction, enzyme_dup, p, dp, enzyme_const, n);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  return hunt_finish();
}

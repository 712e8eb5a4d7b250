#include "hunt.h"
/* A heat-exchanger model that reads its property table from text inside the computation, as
   configuration-driven engineering codes do: the table is a string parsed with strtok_r, strtod and
   sscanf into a struct with a flexible array member (`struct table { int n; double data[]; }`) grown
   with realloc, then used for piecewise-linear interpolation of conductivity versus temperature; a
   diagnostic line is formatted with snprintf from active values.  Objective: outlet temperature of a
   counter-flow exchanger marched in space, sensitive to the flow rates and a fouling factor. */
typedef struct {
  int n, cap;
  double data[]; /* pairs (T, k) */
} table;

static const char *PROPERTY_TEXT = "# T[K] k[W/mK]\n"
                                   "280 0.580\n300 0.610\n320 0.640\n340 0.660\n360 0.675\n380 0.685\n";

static table *parse_table(const char *text) {
  table *t = malloc(sizeof(table) + 4 * sizeof(double));
  t->n = 0; t->cap = 2;
  char *copy = strdup(text), *save = NULL;
  for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
    if (line[0] == '#') continue;
    char *end;
    double T = strtod(line, &end), k;
    if (sscanf(end, "%lf", &k) != 1) continue;
    if (t->n == t->cap) {
      t->cap *= 2;
      t = realloc(t, sizeof(table) + 2 * t->cap * sizeof(double));
    }
    t->data[2 * t->n] = T;
    t->data[2 * t->n + 1] = k;
    t->n++;
  }
  free(copy);
  return t;
}

static double interp(const table *t, double T) {
  if (T <= t->data[0]) return t->data[1];
  for (int i = 1; i < t->n; i++)
    if (T < t->data[2 * i]) {
      double w = (T - t->data[2 * i - 2]) / (t->data[2 * i] - t->data[2 * i - 2]);
      return (1 - w) * t->data[2 * i - 1] + w * t->data[2 * i + 1];
    }
  return t->data[2 * t->n - 1];
}

double exchanger(const double *flows, double fouling, int cells, char *report, size_t report_len) {
  table *props = parse_table(PROPERTY_TEXT);
  double hot = 370.0, cold = 285.0, dx = 1.0 / cells, cp = 4180.0;
  /* counter-flow by fixed-point sweeps: cold side marched backwards, hot side forwards */
  double *tc = malloc((cells + 1) * sizeof(double));
  for (int i = 0; i <= cells; i++) tc[i] = cold;
  double th = hot;
  for (int sweep = 0; sweep < 6; sweep++) {
    th = hot;
    double q_total = 0;
    double *qs = malloc(cells * sizeof(double));
    for (int i = 0; i < cells; i++) {
      double tm = 0.5 * (th + tc[i]);
      double u = 1.0 / (1.0 / (900.0 * interp(props, tm)) + fouling);
      double q = u * 0.4 * (th - tc[i]) * dx; /* 0.4 m^2: NTU about 1, far from saturation */
      qs[i] = q;
      th -= q / (flows[0] * cp);
      q_total += q;
    }
    tc[cells] = cold;
    for (int i = cells - 1; i >= 0; i--) tc[i] = tc[i + 1] + qs[i] / (flows[1] * cp);
    free(qs);
    if (report) snprintf(report, report_len, "sweep %d: duty %.3f W, hot out %.3f K", sweep, q_total, th);
  }
  double cold_out = tc[0];
  free(tc);
  free(props);
  return th + 0.5 * cold_out;
}

int main(void) {
  double flows[2] = {0.05, 0.08}, fouling = 2e-4;
  char report[128];
  enum { CELLS = 40 };
  double fd[3], ad[3];
  hunt_fd_step = 1e-6; /* linear interpolation has kinks at the table's temperatures */
  fd[0] = HUNT_FD(exchanger(flows, fouling, CELLS, report, sizeof report), flows[0]);
  fd[1] = HUNT_FD(exchanger(flows, fouling, CELLS, report, sizeof report), flows[1]);
  hunt_fd_step = 1e-4 * fouling;
  fd[2] = HUNT_FD(exchanger(flows, fouling, CELLS, report, sizeof report), fouling);
#ifdef MODE_REV
  double dflows[2] = {0};
  ad[2] = __enzyme_autodiff((void *)exchanger, enzyme_dup, flows, dflows, fouling, enzyme_const, CELLS, enzyme_const,
                            report, enzyme_const, sizeof report);
  ad[0] = dflows[0]; ad[1] = dflows[1];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < 3; k++) {
    double dflows[2] = {0};
    if (k < 2) dflows[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)exchanger, enzyme_dup, flows, dflows, fouling, k == 2 ? 1.0 : 0.0, enzyme_const,
                             CELLS, enzyme_const, report, enzyme_const, sizeof report);
  }
#endif
  puts(report);
  ad[0] *= flows[0]; fd[0] *= flows[0]; ad[1] *= flows[1]; fd[1] *= flows[1]; ad[2] *= fouling; fd[2] *= fouling;
  hunt_check_vec("grad", ad, fd, 3);
  return hunt_finish();
}

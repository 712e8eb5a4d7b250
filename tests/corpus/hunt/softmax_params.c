#include "hunt.h"
/* A two-layer classifier whose weights live in one flat parameter block (offsets into a single malloc'd
   array, as hand-written ML code does), tanh hidden layer, numerically stable log-softmax with fmax,
   mean cross-entropy plus an L2 penalty.  Inputs: the parameter block (dup). */
typedef struct { int in, hidden, out; } shape;

static inline size_t nparams(const shape *s) {
  return (size_t)s->hidden * s->in + s->hidden + (size_t)s->out * s->hidden + s->out;
}

double loss(const double *theta, const shape *s, const double *X, const int *labels, int nsamples, double l2) {
  const double *W1 = theta, *b1 = W1 + s->hidden * s->in;
  const double *W2 = b1 + s->hidden, *b2 = W2 + s->out * s->hidden;
  double *h = malloc(s->hidden * sizeof *h), *z = malloc(s->out * sizeof *z);
  double total = 0;
  for (int n = 0; n < nsamples; n++) {
    const double *x = X + (size_t)n * s->in;
    for (int j = 0; j < s->hidden; j++) {
      double a = b1[j];
      for (int i = 0; i < s->in; i++) a += W1[j * s->in + i] * x[i];
      h[j] = tanh(a);
    }
    double zmax = -INFINITY;
    for (int k = 0; k < s->out; k++) {
      double a = b2[k];
      for (int j = 0; j < s->hidden; j++) a += W2[k * s->hidden + j] * h[j];
      z[k] = a;
      zmax = fmax(zmax, a);
    }
    double sum = 0;
    for (int k = 0; k < s->out; k++) sum += exp(z[k] - zmax);
    total += -(z[labels[n]] - zmax - log(sum));
  }
  double reg = 0;
  for (size_t p = 0; p < nparams(s); p++) reg += theta[p] * theta[p];
  free(h); free(z);
  return total / nsamples + 0.5 * l2 * reg;
}

enum { NS = 12, NP = 7 };
int main(void) {
  shape s = {3, 5, 4};
  size_t np = nparams(&s);
  double *theta = malloc(np * sizeof *theta), X[NS * 3];
  int labels[NS];
  for (size_t p = 0; p < np; p++) theta[p] = 0.3 * sin(1.7 * p + 0.2);
  for (int n = 0; n < NS; n++) {
    labels[n] = (n * 7) % 4;
    for (int i = 0; i < 3; i++) X[n * 3 + i] = cos(0.9 * n + 1.3 * i);
  }
  const int probes[NP] = {0, 4, 15, 19, 22, 40, (int)np - 1};
  double fd[NP], ad[NP];
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(loss(theta, &s, X, labels, NS, 1e-3), theta[probes[k]]);
#ifdef MODE_REV
  double *dtheta = calloc(np, sizeof *dtheta);
  __enzyme_autodiff((void *)loss, enzyme_dup, theta, dtheta, enzyme_const, &s, enzyme_const, X, enzyme_const,
                    labels, enzyme_const, NS, enzyme_const, 1e-3);
  for (int k = 0; k < NP; k++) ad[k] = dtheta[probes[k]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  double *dtheta = calloc(np, sizeof *dtheta);
  for (int k = 0; k < NP; k++) {
    dtheta[probes[k]] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)loss, enzyme_dup, theta, dtheta, enzyme_const, &s, enzyme_const, X,
                             enzyme_const, labels, enzyme_const, NS, enzyme_const, 1e-3);
    dtheta[probes[k]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* A two-hidden-layer perceptron (tanh, ReLU) with softmax cross-entropy over a mini-batch.  The
   parameters live in one flat array; the loss builds layer views (structs of pointers into it).
   Loss includes L2 weight decay.  Inputs: all parameters (gradient), and the inputs of one sample. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef enum { ACT_TANH, ACT_RELU, ACT_NONE } Activation;
typedef struct {
  int in, out;
  const double *W, *b;
  Activation act;
} Layer;

static void layer_forward(const Layer *L, const double *x, double *y) {
  for (int o = 0; o < L->out; o++) {
    double z = L->b[o];
    for (int i = 0; i < L->in; i++) z += L->W[o * L->in + i] * x[i];
    switch (L->act) {
    case ACT_TANH: y[o] = tanh(z); break;
    case ACT_RELU: y[o] = z > 0 ? z : 0.0; break;
    default: y[o] = z;
    }
  }
}

static double log_softmax_xent(const double *logits, int n, int label) {
  double m = logits[0];
  for (int i = 1; i < n; i++) if (logits[i] > m) m = logits[i];
  double s = 0.0;
  for (int i = 0; i < n; i++) s += exp(logits[i] - m);
  return -(logits[label] - m - log(s));
}

enum { NIN = 4, NH1 = 8, NH2 = 6, NOUT = 3, NLAYER = 3 };
static const int SIZES[NLAYER + 1] = {NIN, NH1, NH2, NOUT};
static const Activation ACTS[NLAYER] = {ACT_TANH, ACT_RELU, ACT_NONE};

static int param_count(void) {
  int n = 0;
  for (int l = 0; l < NLAYER; l++) n += SIZES[l] * SIZES[l + 1] + SIZES[l + 1];
  return n;
}

double loss(const double *params, const double *X, const int *labels, int batch, double decay) {
  Layer layers[NLAYER];
  const double *p = params;
  for (int l = 0; l < NLAYER; l++) {
    layers[l] = (Layer){SIZES[l], SIZES[l + 1], p, p + SIZES[l] * SIZES[l + 1], ACTS[l]};
    p += SIZES[l] * SIZES[l + 1] + SIZES[l + 1];
  }
  double total = 0.0, a[NH1], bufb[NH1];
  for (int s = 0; s < batch; s++) {
    const double *in = X + s * NIN;
    double *cur = a, *nxt = bufb;
    memcpy(cur, in, sizeof(double) * NIN);
    for (int l = 0; l < NLAYER; l++) {
      layer_forward(&layers[l], cur, nxt);
      double *t = cur; cur = nxt; nxt = t;
    }
    total += log_softmax_xent(cur, NOUT, labels[s]);
  }
  double reg = 0.0;
  for (int l = 0; l < NLAYER; l++)
    for (int i = 0; i < layers[l].in * layers[l].out; i++) reg += layers[l].W[i] * layers[l].W[i];
  return total / batch + 0.5 * decay * reg;
}

enum { BATCH = 5, NPAR = NIN * NH1 + NH1 + NH1 * NH2 + NH2 + NH2 * NOUT + NOUT, NP = 8 };
static double params[NPAR], X[BATCH * NIN];
static int labels[BATCH] = {0, 2, 1, 1, 0};
static double decay = 1e-3;

int main(void) {
  if (param_count() != NPAR) return 2;
  for (int i = 0; i < NPAR; i++) params[i] = 0.5 * sin(1.7 * i + 0.3);
  for (int i = 0; i < BATCH * NIN; i++) X[i] = cos(0.9 * i);
  const int pp[NP - 2] = {0, 20, NIN * NH1 + 3, 60, NPAR - 5, NPAR - 1};
  double *prim[NP] = {&params[pp[0]], &params[pp[1]], &params[pp[2]], &params[pp[3]], &params[pp[4]],
                      &params[pp[5]], &X[1], &X[NIN + 2]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* ReLU kinks */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(loss(params, X, labels, BATCH, decay), *prim[q]);
  double dparams[NPAR] = {0}, dX[BATCH * NIN] = {0};
  double *shad[NP] = {&dparams[pp[0]], &dparams[pp[1]], &dparams[pp[2]], &dparams[pp[3]], &dparams[pp[4]],
                      &dparams[pp[5]], &dX[1], &dX[NIN + 2]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)loss, enzyme_dup, params, dparams, enzyme_dup, X, dX, enzyme_const, labels, enzyme_const,
                    BATCH, enzyme_const, decay);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)loss, enzyme_dup, params, dparams, enzyme_dup, X, dX, enzyme_const, labels,
                             enzyme_const, BATCH, enzyme_const, decay);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dparams2[NPAR] = {0}, dX2[BATCH * NIN] = {0};
  double *shad2[NP] = {&dparams2[pp[0]], &dparams2[pp[1]], &dparams2[pp[2]], &dparams2[pp[3]], &dparams2[pp[4]],
                       &dparams2[pp[5]], &dX2[1], &dX2[NIN + 2]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)loss, enzyme_width, 2, enzyme_dup, params, dparams, dparams2, enzyme_dup, X,
                               dX, dX2, enzyme_const, labels, enzyme_const, BATCH, enzyme_const, decay);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)loss, enzyme_dup, params, dparams, enzyme_dup, X, dX, enzyme_const, labels,
                                enzyme_const, BATCH, enzyme_const, decay);
  hunt_check("primal", r.primal, loss(params, X, labels, BATCH, decay));
  __enzyme_reverse((void *)loss, enzyme_dup, params, dparams, enzyme_dup, X, dX, enzyme_const, labels, enzyme_const,
                   BATCH, enzyme_const, decay, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCHREV
  double dparams2[NPAR] = {0}, dX2[BATCH * NIN] = {0};
  double *shad2[NP] = {&dparams2[pp[0]], &dparams2[pp[1]], &dparams2[pp[2]], &dparams2[pp[3]], &dparams2[pp[4]],
                       &dparams2[pp[5]], &dX2[1], &dX2[NIN + 2]};
  __enzyme_autodiff_void((void *)loss, enzyme_width, 2, enzyme_dup, params, dparams, dparams2, enzyme_dup, X, dX, dX2,
                         enzyme_const, labels, enzyme_const, BATCH, enzyme_const, decay);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
  for (int q = 0; q < NP; q++) ad[q] = *shad2[q];
  hunt_check_vec("grad_lane2", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* A single-layer LSTM sequence model for a univariate time series, as written in a from-scratch ML
   code: parameters in one struct of fixed-size 2-D arrays (W[4*H][D+H], b[4*H]), gates computed with
   a generic matvec, sigmoid through a static inline helper, tanh, hidden/cell state carried in local
   arrays and copied with memcpy each step, a linear read-out and a mean-squared loss.  The whole
   parameter struct is differentiated (one shadow struct). */
#define H 6
#define D 2

typedef struct {
  double W[4 * H][D + H];
  double b[4 * H];
  double wout[H];
  double bout;
} LSTMParams;

static inline double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static void matvec(int rows, int cols, const double *m, const double *v, const double *bias, double *out) {
  for (int r = 0; r < rows; r++) {
    double s = bias[r];
    for (int c = 0; c < cols; c++) s += m[r * cols + c] * v[c];
    out[r] = s;
  }
}

double lstm_loss(const LSTMParams *p, const double *inputs, const double *targets, int len) {
  double h[H] = {0}, c[H] = {0}, xh[D + H], gates[4 * H], loss = 0;
  for (int t = 0; t < len; t++) {
    memcpy(xh, inputs + t * D, D * sizeof(double));
    memcpy(xh + D, h, H * sizeof(double));
    matvec(4 * H, D + H, &p->W[0][0], xh, p->b, gates);
    for (int j = 0; j < H; j++) {
      double ig = sigmoid(gates[j]), fg = sigmoid(gates[H + j] + 1.0);
      double gg = tanh(gates[2 * H + j]), og = sigmoid(gates[3 * H + j]);
      c[j] = fg * c[j] + ig * gg;
      h[j] = og * tanh(c[j]);
    }
    double y = p->bout;
    for (int j = 0; j < H; j++) y += p->wout[j] * h[j];
    double e = y - targets[t];
    loss += e * e;
  }
  return loss / len;
}

enum { LEN = 24, NPROBE = 8 };
static LSTMParams params;
static double inputs[LEN * D], targets[LEN];

int main(void) {
  double *flat = (double *)&params;
  int np = sizeof params / sizeof(double);
  for (int i = 0; i < np; i++) flat[i] = 0.3 * sin(1.7 * i + 0.4);
  for (int t = 0; t < LEN; t++) {
    inputs[t * D] = sin(0.4 * t);
    inputs[t * D + 1] = cos(0.25 * t);
    targets[t] = sin(0.4 * (t + 1)) * 0.8;
  }
  const int probe[NPROBE] = {0, 7, 45, 100, 4 * H * (D + H) - 1, 4 * H * (D + H) + 3, np - 4, np - 1};
  double fd[NPROBE], ad[NPROBE];
  for (int k = 0; k < NPROBE; k++) fd[k] = HUNT_FD(lstm_loss(&params, inputs, targets, LEN), flat[probe[k]]);
#ifdef MODE_REV
  static LSTMParams dparams;
  __enzyme_autodiff((void *)lstm_loss, enzyme_dup, &params, &dparams, enzyme_const, inputs, enzyme_const, targets,
                    enzyme_const, LEN);
  for (int k = 0; k < NPROBE; k++) ad[k] = ((double *)&dparams)[probe[k]];
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NPROBE; k++) {
    static LSTMParams dparams;
    memset(&dparams, 0, sizeof dparams);
    ((double *)&dparams)[probe[k]] = 1;
    ad[k] = __enzyme_fwddiff((void *)lstm_loss, enzyme_dup, &params, &dparams, enzyme_const, inputs, enzyme_const,
                             targets, enzyme_const, LEN);
  }
#endif
  hunt_check_vec("grad", ad, fd, NPROBE);
  return hunt_finish();
}

/* ADBench's LSTM objective (Srajer, Kukelova, Fitzgibbon 2018), written the way its C reference is: l layers of
   b cells, a character sequence of c one-hot-like vectors of length b; the loss is the negative mean log
   softmax probability of each next character.  main_params holds per layer the weights then the biases of the
   forget, input, output gates and the cell change (2 * 4 * b); extra_params the input weights, output weights
   and output biases (3 * b).  The state (hidden then cell per layer) is copied, so the inputs stay unchanged. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static double logsumexp(const double *vect, int sz) {
  double sum = 0.0;
  for (int i = 0; i < sz; i++) sum += exp(vect[i]);
  sum += 2;
  return log(sum);
}

static void lstm_model(int hsize, const double *weight, const double *bias, double *hidden, double *cell,
                       const double *input) {
  double *gates = malloc(4 * hsize * sizeof(double));
  double *forget = &gates[0], *ingate = &gates[hsize], *outgate = &gates[2 * hsize], *change = &gates[3 * hsize];
  for (int i = 0; i < hsize; i++) {
    forget[i] = sigmoid(input[i] * weight[i] + bias[i]);
    ingate[i] = sigmoid(hidden[i] * weight[hsize + i] + bias[hsize + i]);
    outgate[i] = sigmoid(input[i] * weight[2 * hsize + i] + bias[2 * hsize + i]);
    change[i] = tanh(hidden[i] * weight[3 * hsize + i] + bias[3 * hsize + i]);
  }
  for (int i = 0; i < hsize; i++) cell[i] = cell[i] * forget[i] + ingate[i] * change[i];
  for (int i = 0; i < hsize; i++) hidden[i] = outgate[i] * tanh(cell[i]);
  free(gates);
}

static void lstm_predict(int l, int b, const double *w, const double *w2, double *s, const double *x, double *x2) {
  for (int i = 0; i < b; i++) x2[i] = x[i] * w2[i];
  const double *xp = x2;
  for (int i = 0; i <= 2 * l * b - 1; i += 2 * b) {
    lstm_model(b, &w[i * 4], &w[(i + b) * 4], &s[i], &s[i + b], xp);
    xp = &s[i];
  }
  for (int i = 0; i < b; i++) x2[i] = xp[i] * w2[b + i] + w2[2 * b + i];
}

void lstm_objective(int l, int c, int b, const double *main_params, const double *extra_params,
                    const double *state0, const double *sequence, double *loss) {
  double total = 0.0;
  int count = 0;
  const double *input = &sequence[0];
  double *state = malloc(2 * l * b * sizeof(double)), *ypred = malloc(b * sizeof(double)),
         *ynorm = malloc(b * sizeof(double));
  memcpy(state, state0, 2 * l * b * sizeof(double));
  for (int t = 0; t <= (c - 1) * b - 1; t += b) {
    lstm_predict(l, b, main_params, extra_params, state, input, ypred);
    double lse = logsumexp(ypred, b);
    for (int i = 0; i < b; i++) ynorm[i] = ypred[i] - lse;
    const double *goal = &sequence[t + b];
    for (int i = 0; i < b; i++) total += goal[i] * ynorm[i];
    count += b;
    input = goal;
  }
  *loss = -total / count;
  free(state); free(ypred); free(ynorm);
}

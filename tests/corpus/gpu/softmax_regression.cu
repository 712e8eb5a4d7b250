// Multinomial logistic regression, one thread per sample: logits = W x + b, a numerically stable
// log-sum-exp, the cross-entropy of the sample's label, and an L2 penalty scaled per sample.  The gradient
// with respect to W and b (shared by every thread: atomics into dW, db) in reverse mode; the loss's
// derivative along a direction in (W, b) in forward mode.  Both against central differences of the host loss.
#include "gpu_check.h"
#include <enzyme/enzyme.h>

constexpr int FEATURES = 12, CLASSES = 5;

__host__ __device__ double sample_loss(const double *W, const double *b, const double *x, int label, double lambda) {
  double logits[CLASSES], top = -1e300;
  for (int c = 0; c < CLASSES; c++) {
    double z = b[c];
    for (int f = 0; f < FEATURES; f++) z += W[c * FEATURES + f] * x[f];
    logits[c] = z;
    top = fmax(top, z);
  }
  double sum = 0.0;
  for (int c = 0; c < CLASSES; c++) sum += exp(logits[c] - top);
  double penalty = 0.0;
  for (int k = 0; k < CLASSES * FEATURES; k++) penalty += W[k] * W[k];
  return top + log(sum) - logits[label] + lambda * penalty;
}

__global__ void gradient(const double *W, double *dW, const double *b, double *db, const double *X, const int *y,
                         int n, double lambda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    __enzyme_autodiff((void *)sample_loss, enzyme_dup, W, dW, enzyme_dup, b, db, enzyme_const, X + i * FEATURES,
                      enzyme_const, y[i], enzyme_const, lambda);
}

__global__ void tangent(const double *W, const double *tW, const double *b, const double *tb, const double *X,
                        const int *y, double *out, int n, double lambda) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __enzyme_fwddiff((void *)sample_loss, enzyme_dup, W, tW, enzyme_dup, b, tb, enzyme_const,
                              X + i * FEATURES, enzyme_const, y[i], enzyme_const, lambda);
}

static double total(const std::vector<double> &W, const std::vector<double> &b, const std::vector<double> &X,
                    const std::vector<int> &y, double lambda) {
  double s = 0.0;
  for (size_t i = 0; i < y.size(); i++) s += sample_loss(W.data(), b.data(), &X[i * FEATURES], y[i], lambda);
  return s;
}

int main() {
  const int n = 4096;
  const double lambda = 1e-4;
  std::vector<double> W(CLASSES * FEATURES), b(CLASSES), X(n * FEATURES), tW(W.size()), tb(CLASSES);
  std::vector<int> y(n);
  for (size_t k = 0; k < W.size(); k++) { W[k] = 0.3 * sin(1.7 * k); tW[k] = cos(0.9 * k); }
  for (int c = 0; c < CLASSES; c++) { b[c] = 0.1 * c; tb[c] = 1.0 - 0.2 * c; }
  for (int i = 0; i < n; i++) {
    for (int f = 0; f < FEATURES; f++) X[i * FEATURES + f] = sin(0.37 * i + 1.3 * f);
    y[i] = (i * 7 + 3) % CLASSES;
  }
  double *d_W = to_device(W), *d_b = to_device(b), *d_X = to_device(X), *d_tW = to_device(tW), *d_tb = to_device(tb);
  int *d_y = to_device(y);
  double *d_dW = to_device(std::vector<double>(W.size())), *d_db = to_device(std::vector<double>(CLASSES));
  double *d_out = to_device(std::vector<double>(n));
  gradient<<<(n + 127) / 128, 128>>>(d_W, d_dW, d_b, d_db, d_X, d_y, n, lambda);
  tangent<<<(n + 127) / 128, 128>>>(d_W, d_tW, d_b, d_tb, d_X, d_y, d_out, n, lambda);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> dW = to_host(d_dW, W.size()), db = to_host(d_db, CLASSES), out = to_host(d_out, n);
  double worst = 0.0, h = 1e-6;
  for (size_t k = 0; k < W.size(); k += 4) {
    std::vector<double> p = W, m = W;
    p[k] += h; m[k] -= h;
    worst = fmax(worst, rel_err(dW[k], (total(p, b, X, y, lambda) - total(m, b, X, y, lambda)) / (2 * h)));
  }
  for (int c = 0; c < CLASSES; c++) {
    std::vector<double> p = b, m = b;
    p[c] += h; m[c] -= h;
    worst = fmax(worst, rel_err(db[c], (total(W, p, X, y, lambda) - total(W, m, X, y, lambda)) / (2 * h)));
  }
  std::vector<double> pW = W, mW = W, pb = b, mb = b;
  for (size_t k = 0; k < W.size(); k++) { pW[k] += h * tW[k]; mW[k] -= h * tW[k]; }
  for (int c = 0; c < CLASSES; c++) { pb[c] += h * tb[c]; mb[c] -= h * tb[c]; }
  double sum = 0.0;
  for (double v : out) sum += v;
  worst = fmax(worst, rel_err(sum, (total(pW, pb, X, y, lambda) - total(mW, mb, X, y, lambda)) / (2 * h)));
  return verdict("softmax_regression", worst, 1e-5);
}

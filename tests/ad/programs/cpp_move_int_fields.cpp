#include "check.h"
// Layers {int in, out; std::vector<double> w, b;} built by emplace_back into a std::vector: at -O0 the implicit
// move constructor moves the two int fields as one i64, typed as integers from the class's declaration.
#include <cmath>
#include <vector>

class Layer {
 public:
  Layer(int in, int out, const double *p) : in_(in), out_(out), w_(p, p + in * out), b_(p + in * out, p + in * out + out) {}
  std::vector<double> operator()(const std::vector<double> &x) const {
    std::vector<double> y(out_);
    for (int o = 0; o < out_; ++o) {
      double z = b_[o];
      for (int i = 0; i < in_; ++i) z += w_[o * in_ + i] * x[i];
      y[o] = std::tanh(z);
    }
    return y;
  }

 private:
  int in_, out_;
  std::vector<double> w_, b_;
};

extern "C" double net(const double *p) {
  std::vector<Layer> layers;
  layers.emplace_back(2, 3, p);
  layers.emplace_back(3, 1, p + 9);
  std::vector<double> h{0.5, -1.5};
  for (const Layer &l : layers) h = l(h);
  return h[0] * h[0];
}

int main() {
  enum { NP = 13 };
  double p[NP], dp[NP] = {0};
  for (int k = 0; k < NP; ++k) p[k] = 0.3 * std::sin(1.3 * k + 0.2);
  __enzyme_autodiff((void *)net, p, dp);
  for (int k = 0; k < NP; ++k) {
    check("moved layers reverse vs central", dp[k], CENTRAL(net(p), p[k], p[k]), 1e-6);
    double t[NP] = {0};
    t[k] = 1.0;
    check("moved layers forward vs reverse", __enzyme_fwddiff((void *)net, p, t), dp[k], 1e-10);
  }
  return finish();
}

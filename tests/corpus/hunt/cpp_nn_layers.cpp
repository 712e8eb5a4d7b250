#include "hunt.h"
/* A small regression network written as a C++ layer hierarchy: an abstract Layer with a virtual
   forward(), Dense / Tanh / Softplus / LayerNorm subclasses, the model a std::vector<std::unique_ptr<Layer>>
   built from a spec with std::make_unique, weights viewed from one flat parameter array.  Objective: mean
   squared error on a synthetic data set plus weight decay.  Inputs: all parameters. */
#include <cmath>
#include <memory>
#include <numeric>
#include <vector>

class Layer {
 public:
  virtual ~Layer() = default;
  virtual void forward(const std::vector<double>& in, std::vector<double>& out) const = 0;
  virtual std::size_t params() const { return 0; }
};

class Dense : public Layer {
 public:
  Dense(std::size_t nin, std::size_t nout, const double* w) : nin_(nin), nout_(nout), w_(w) {}
  void forward(const std::vector<double>& in, std::vector<double>& out) const override {
    out.assign(nout_, 0.0);
    for (std::size_t o = 0; o < nout_; ++o) {
      double z = w_[nout_ * nin_ + o];  // bias after the weight matrix
      for (std::size_t i = 0; i < nin_; ++i) z += w_[o * nin_ + i] * in[i];
      out[o] = z;
    }
  }
  std::size_t params() const override { return nout_ * nin_ + nout_; }

 private:
  std::size_t nin_, nout_;
  const double* w_;
};

class Tanh : public Layer {
 public:
  void forward(const std::vector<double>& in, std::vector<double>& out) const override {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = std::tanh(in[i]);
  }
};

class Softplus : public Layer {
 public:
  void forward(const std::vector<double>& in, std::vector<double>& out) const override {
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = std::log1p(std::exp(in[i]));
  }
};

class LayerNorm : public Layer {
 public:
  void forward(const std::vector<double>& in, std::vector<double>& out) const override {
    const double n = static_cast<double>(in.size());
    double mean = std::accumulate(in.begin(), in.end(), 0.0) / n;
    double var = 0.0;
    for (double v : in) var += (v - mean) * (v - mean);
    var /= n;
    out.resize(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) out[i] = (in[i] - mean) / std::sqrt(var + 1e-5);
  }
};

enum LayerKind { DENSE, TANH, SOFTPLUS, NORM };
struct Spec { LayerKind kind; int nin, nout; };
static const Spec spec[] = {{DENSE, 2, 6}, {TANH, 0, 0}, {DENSE, 6, 5}, {NORM, 0, 0},
                            {SOFTPLUS, 0, 0}, {DENSE, 5, 1}};
static const int NPARAM = 2 * 6 + 6 + 6 * 5 + 5 + 5 * 1 + 1;

static std::vector<std::unique_ptr<Layer>> build(const double* theta) {
  std::vector<std::unique_ptr<Layer>> net;
  std::size_t offset = 0;
  for (const Spec& s : spec) {
    switch (s.kind) {
      case DENSE: net.push_back(std::make_unique<Dense>(s.nin, s.nout, theta + offset)); break;
      case TANH: net.push_back(std::make_unique<Tanh>()); break;
      case SOFTPLUS: net.push_back(std::make_unique<Softplus>()); break;
      case NORM: net.push_back(std::make_unique<LayerNorm>()); break;
    }
    offset += net.back()->params();
  }
  return net;
}

extern "C" double nn_loss(const double* theta, int nsamples) {
  auto net = build(theta);
  double loss = 0.0;
  std::vector<double> a, b;
  for (int s = 0; s < nsamples; ++s) {
    double x0 = -1.0 + 2.0 * s / (nsamples - 1), x1 = std::sin(3.0 * s);
    double target = x0 * x0 - 0.5 * x1 + 0.2;
    a = {x0, x1};
    for (const auto& layer : net) {
      layer->forward(a, b);
      std::swap(a, b);
    }
    loss += (a[0] - target) * (a[0] - target);
  }
  double decay = 0.0;
  for (int i = 0; i < NPARAM; ++i) decay += theta[i] * theta[i];
  return loss / nsamples + 1e-3 * decay;
}

static double theta[NPARAM];

int main() {
  for (int i = 0; i < NPARAM; ++i) theta[i] = 0.5 * std::sin(0.7 * i + 0.3) + 0.1 * std::cos(2.3 * i);
  const int ns = 9;
  double fd[NPARAM], dtheta[NPARAM] = {0};
  for (int q = 0; q < NPARAM; ++q) fd[q] = HUNT_FD(nn_loss(theta, ns), theta[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)nn_loss, enzyme_dup, theta, dtheta, enzyme_const, ns);
  hunt_check_vec("grad", dtheta, fd, NPARAM);
#endif
#ifdef MODE_FWD
  const int picks[6] = {0, 7, 17, 30, 48, NPARAM - 1};
  double ad[6], fd6[6];
  for (int k = 0; k < 6; ++k) {
    dtheta[picks[k]] = 1.0;
    ad[k] = __enzyme_fwddiff((void*)nn_loss, enzyme_dup, theta, dtheta, enzyme_const, ns);
    dtheta[picks[k]] = 0.0;
    fd6[k] = fd[picks[k]];
  }
  hunt_check_vec("grad_picked", ad, fd6, 6);
#endif
  return hunt_finish();
}

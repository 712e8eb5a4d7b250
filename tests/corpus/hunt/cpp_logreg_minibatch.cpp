#include "hunt.h"
/* Credit-scoring style logistic regression trained by minibatch SGD with momentum: a `Dataset` class
   holding a std::vector<Sample> (features in std::array<double, 4>, an int label, a std::string id built
   with std::to_string), feature standardization from std::accumulate means and variances, a shuffled
   order fixed by std::stable_sort on a hash key, minibatches as index ranges, the link and loss as
   std::function members of a `Model` class, std::inner_product for the scores, L2 weight decay, and the
   validation log-loss at the end.  Derivative of the validation loss with respect to the initial weights,
   the learning rate and the decay (a hyper-gradient through training).
   Inputs: five initial weights (bias last), learning rate, L2 decay. */
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

constexpr int NF = 4;

struct Sample {
  std::string id;
  std::array<double, NF> x;
  int label;
};

class Dataset {
 public:
  Dataset(int n, unsigned seed) {
    unsigned state = seed;
    auto uniform = [&state]() {
      state = state * 1664525u + 1013904223u;
      return (state >> 8) * (1.0 / 16777216.0);
    };
    for (int i = 0; i < n; ++i) {
      Sample s;
      s.id = "applicant-" + std::to_string(1000 + i);
      s.x = {30 + 40 * uniform(), 1e4 * (1 + 4 * uniform()), 10 * uniform(), uniform()};
      const double z = 0.04 * (s.x[0] - 50) + 3e-4 * (s.x[1] - 3e4) - 0.5 * (s.x[2] - 5) + 2 * s.x[3] - 0.5;
      s.label = uniform() < 1 / (1 + std::exp(-z)) ? 1 : 0;
      samples_.push_back(s);
    }
  }
  void standardize() {
    for (int f = 0; f < NF; ++f) {
      const double mean = std::accumulate(samples_.begin(), samples_.end(), 0.0,
                                          [f](double a, const Sample &s) { return a + s.x[f]; }) / samples_.size();
      const double var = std::accumulate(samples_.begin(), samples_.end(), 0.0, [f, mean](double a, const Sample &s) {
        return a + (s.x[f] - mean) * (s.x[f] - mean);
      }) / samples_.size();
      for (Sample &s : samples_) s.x[f] = (s.x[f] - mean) / std::sqrt(var);
    }
  }
  std::size_t size() const { return samples_.size(); }
  const Sample &operator[](std::size_t i) const { return samples_[i]; }
  std::vector<std::size_t> shuffled_order() const {
    std::vector<std::size_t> order(samples_.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [](std::size_t a, std::size_t b) {
      return (a * 2654435761u) % 97 < (b * 2654435761u) % 97;
    });
    return order;
  }

 private:
  std::vector<Sample> samples_;
};

class Model {
 public:
  Model(const double *w0) {
    std::copy(w0, w0 + NF, w_.begin());
    b_ = w0[NF];
  }
  double score(const std::array<double, NF> &x) const { return std::inner_product(x.begin(), x.end(), w_.begin(), b_); }
  double predict(const std::array<double, NF> &x) const { return link(score(x)); }

  void sgd_epoch(const Dataset &data, const std::vector<std::size_t> &order, std::size_t batch, double lr, double decay) {
    for (std::size_t start = 0; start < order.size(); start += batch) {
      const std::size_t stop = std::min(order.size(), start + batch);
      std::array<double, NF> g{};
      double gb = 0.0;
      for (std::size_t k = start; k < stop; ++k) {
        const Sample &s = data[order[k]];
        const double err = predict(s.x) - s.label;
        for (int f = 0; f < NF; ++f) g[f] += err * s.x[f];
        gb += err;
      }
      const double scale = 1.0 / (stop - start);
      for (int f = 0; f < NF; ++f) {
        vel_[f] = 0.9 * vel_[f] + scale * g[f] + decay * w_[f];
        w_[f] -= lr * vel_[f];
      }
      vel_b_ = 0.9 * vel_b_ + scale * gb;
      b_ -= lr * vel_b_;
    }
  }

  double log_loss(const Dataset &data) const {
    double total = 0.0;
    for (std::size_t i = 0; i < data.size(); ++i) total += loss(score(data[i].x), data[i].label);
    return total / data.size();
  }

  std::function<double(double)> link = [](double z) { return 1.0 / (1.0 + std::exp(-z)); };
  std::function<double(double, int)> loss = [](double z, int y) {
    // log(1 + exp(-z)) for y = 1, log(1 + exp(z)) for y = 0, written stably
    const double m = y ? -z : z;
    return std::max(m, 0.0) + std::log1p(std::exp(-std::fabs(m)));
  };

 private:
  std::array<double, NF> w_{}, vel_{};
  double b_ = 0.0, vel_b_ = 0.0;
};

static std::string training_log;

struct Grad2 {
  double lr, decay;
};
extern "C" Grad2 __enzyme_autodiff_g2(void *, ...);  // two active scalars come back as a struct

extern "C" double validation_loss(const double *w0, double lr, double decay, int epochs) {
  if (epochs < 1) throw std::invalid_argument("epochs = " + std::to_string(epochs));
  Dataset train(120, 7u), valid(60, 99u);
  train.standardize();
  valid.standardize();
  const std::vector<std::size_t> order = train.shuffled_order();
  Model model(w0);
  std::ostringstream log;
  for (int e = 0; e < epochs; ++e) {
    model.sgd_epoch(train, order, 16, lr, decay);
    log << "epoch " << e << " ";
  }
  training_log = log.str() + "first id " + train[order.front()].id;
  return model.log_loss(valid);
}

int main() {
  double p[7] = {0.1, -0.2, 0.05, 0.3, 0.0, 0.2, 0.01};
  const int epochs = 5;
  enum { NP = 7 };
  double fd[NP], ad[NP], dw[5] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(validation_loss(p, p[5], p[6], epochs), p[k]);
  printf("validation loss %.10g (%s)\n", validation_loss(p, p[5], p[6], epochs), training_log.c_str());
#ifdef MODE_REV
  Grad2 g = __enzyme_autodiff_g2((void *)validation_loss, enzyme_dup, p, dw, p[5], p[6], enzyme_const, epochs);
  for (int k = 0; k < 5; ++k) ad[k] = dw[k];
  ad[5] = g.lr;
  ad[6] = g.decay;
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    if (k < 5) dw[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)validation_loss, enzyme_dup, p, dw, p[5], k == 5 ? 1.0 : 0.0, p[6],
                             k == 6 ? 1.0 : 0.0, enzyme_const, epochs);
    if (k < 5) dw[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Neural ODE: a tiny multilayer perceptron class (`Dense` layers with weights in std::vector<double>,
   an `MLP` built from a layer-size list with std::vector<Dense>, tanh hidden activation through a
   function pointer member, a static evaluation counter) as the vector field dy/dt = f(y) of a 2-D
   state, integrated by a generic RK4 template taking the field as a std::function, a trajectory of
   std::array<double, 2> states, and a mean squared error against samples of a damped oscillator by
   std::inner_product.  Derivative of the loss with respect to every network
   parameter (2-8-2: 42 weights and biases). */
#include <array>
#include <cmath>
#include <functional>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

using State = std::array<double, 2>;

class Dense {
 public:
  Dense(int in, int out, const double *params, double (*act)(double))
      : in_(in), out_(out), w_(params, params + in * out), b_(params + in * out, params + in * out + out), act_(act) {}
  static int parameter_count(int in, int out) { return in * out + out; }
  std::vector<double> operator()(const std::vector<double> &x) const {
    if (static_cast<int>(x.size()) != in_) throw std::length_error("layer input of size " + std::to_string(x.size()));
    std::vector<double> y(out_);
    for (int o = 0; o < out_; ++o) {
      const double z = std::inner_product(x.begin(), x.end(), w_.begin() + o * in_, b_[o]);
      y[o] = act_ ? act_(z) : z;
    }
    return y;
  }

 private:
  int in_, out_;
  std::vector<double> w_, b_;
  double (*act_)(double);
};

static double tanh_act(double z) { return std::tanh(z); }

class MLP {
 public:
  static long evaluations;
  MLP(const std::vector<int> &sizes, const double *params) {
    const double *p = params;
    for (std::size_t l = 0; l + 1 < sizes.size(); ++l) {
      const bool last = l + 2 == sizes.size();
      layers_.emplace_back(sizes[l], sizes[l + 1], p, last ? nullptr : &tanh_act);
      p += Dense::parameter_count(sizes[l], sizes[l + 1]);
    }
  }
  State operator()(const State &y) const {
    ++evaluations;
    std::vector<double> h(y.begin(), y.end());
    for (const Dense &layer : layers_) h = layer(h);
    return {h[0], h[1]};
  }

 private:
  std::vector<Dense> layers_;
};
long MLP::evaluations = 0;

template <typename Field>
static State rk4_step(const Field &f, const State &y, double h) {
  auto axpy = [](const State &a, double s, const State &b) { return State{a[0] + s * b[0], a[1] + s * b[1]}; };
  const State k1 = f(y), k2 = f(axpy(y, h / 2, k1)), k3 = f(axpy(y, h / 2, k2)), k4 = f(axpy(y, h, k3));
  return {y[0] + h / 6 * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]), y[1] + h / 6 * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1])};
}

static std::vector<State> integrate(const std::function<State(const State &)> &field, State y0, double t_end, int n) {
  std::vector<State> traj{y0};
  const double h = t_end / n;
  for (int i = 0; i < n; ++i) traj.push_back(rk4_step(field, traj.back(), h));
  return traj;
}

extern "C" double node_loss(const double *params, int nsteps) {
  const MLP net({2, 8, 2}, params);
  const std::function<State(const State &)> field = [&net](const State &y) { return net(y); };
  const double t_end = 3.0;
  const std::vector<State> traj = integrate(field, {1.0, 0.0}, t_end, nsteps);
  std::vector<double> err;
  err.reserve(traj.size() * 2);
  for (std::size_t i = 0; i < traj.size(); ++i) {
    const double t = t_end * i / nsteps;
    const State ref{std::exp(-0.2 * t) * std::cos(1.5 * t), -std::exp(-0.2 * t) * (0.2 * std::cos(1.5 * t) + 1.5 * std::sin(1.5 * t))};
    err.push_back(traj[i][0] - ref[0]);
    err.push_back(traj[i][1] - ref[1]);
  }
  return std::inner_product(err.begin(), err.end(), err.begin(), 0.0) / err.size();
}

int main() {
  enum { NP = 2 * 8 + 8 + 8 * 2 + 2 };
  double theta[NP];
  for (int k = 0; k < NP; ++k) theta[k] = 0.4 * std::sin(1.7 * k + 0.3) + 0.1 * std::cos(0.37 * k * k);
  const int nsteps = 30;
  double fd[NP], ad[NP], dtheta[NP] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(node_loss(theta, nsteps), theta[k]);
  printf("loss %.10g after %ld field evaluations\n", node_loss(theta, nsteps), MLP::evaluations);
#ifdef MODE_REV
  __enzyme_autodiff((void *)node_loss, enzyme_dup, theta, dtheta, enzyme_const, nsteps);
  for (int k = 0; k < NP; ++k) ad[k] = dtheta[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dtheta[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)node_loss, enzyme_dup, theta, dtheta, enzyme_const, nsteps);
    dtheta[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

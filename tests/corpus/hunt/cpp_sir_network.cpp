#include "hunt.h"
/* Network SIR epidemic (individual-based mean field): a contact network of households and workplaces
   built as a std::set<std::pair<int, int>> of undirected edges (duplicates dropped), converted to
   adjacency lists std::vector<std::vector<int>>, nodes as a std::vector<NodeState> of {S, I, R}
   probabilities, community names and per-community vaccination coverage in a std::map<std::string, double>,
   Heun steps of the infection pressure over neighbours, daily incidence cumulated with std::partial_sum,
   the epidemic peak from std::max_element, an `Epidemic` class with a static step counter.
   Objective: attack rate plus peak prevalence plus a late-incidence term.
   Inputs: transmissibility beta, recovery rate gamma, and the three coverages. */
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct NodeState {
  double S = 1.0, I = 0.0, R = 0.0;
};

class ContactNetwork {
 public:
  ContactNetwork(int n_nodes, int household) : n_(n_nodes) {
    std::set<std::pair<int, int>> edges;
    auto add = [&edges](int a, int b) {
      if (a == b) return;
      edges.insert({std::min(a, b), std::max(a, b)});
    };
    for (int h = 0; h < n_nodes; h += household)
      for (int i = h; i < std::min(h + household, n_nodes); ++i)
        for (int j = i + 1; j < std::min(h + household, n_nodes); ++j) add(i, j);
    for (int i = 0; i < n_nodes; ++i) {  // workplace ties: a deterministic pseudo-random pattern
      add(i, (7 * i + 3) % n_nodes);
      add(i, (13 * i + 5) % n_nodes);
    }
    adj_.assign(n_nodes, {});
    for (const auto &[a, b] : edges) {
      adj_[a].push_back(b);
      adj_[b].push_back(a);
    }
    n_edges_ = edges.size();
  }
  int size() const { return n_; }
  std::size_t edges() const { return n_edges_; }
  const std::vector<int> &neighbours(int i) const { return adj_[i]; }
  std::string community_of(int i) const {
    static const char *names[] = {"north", "centre", "south"};
    return names[(3 * i) / n_];
  }

 private:
  int n_;
  std::size_t n_edges_ = 0;
  std::vector<std::vector<int>> adj_;
};

class Epidemic {
 public:
  static long steps_taken;
  Epidemic(const ContactNetwork &net, double beta, double gamma) : net_(net), beta_(beta), gamma_(gamma) {}

  std::vector<NodeState> derivative(const std::vector<NodeState> &x) const {
    std::vector<NodeState> dx(x.size());
    for (int i = 0; i < net_.size(); ++i) {
      double pressure = 0.0;
      for (int j : net_.neighbours(i)) pressure += x[j].I;
      const double infection = beta_ * x[i].S * pressure;
      dx[i].S = -infection;
      dx[i].I = infection - gamma_ * x[i].I;
      dx[i].R = gamma_ * x[i].I;
    }
    return dx;
  }

  void heun(std::vector<NodeState> &x, double h) const {
    const std::vector<NodeState> k1 = derivative(x);
    std::vector<NodeState> pred(x);
    for (std::size_t i = 0; i < x.size(); ++i) {
      pred[i].S += h * k1[i].S;
      pred[i].I += h * k1[i].I;
      pred[i].R += h * k1[i].R;
    }
    const std::vector<NodeState> k2 = derivative(pred);
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i].S += 0.5 * h * (k1[i].S + k2[i].S);
      x[i].I += 0.5 * h * (k1[i].I + k2[i].I);
      x[i].R += 0.5 * h * (k1[i].R + k2[i].R);
    }
    ++steps_taken;
  }

 private:
  const ContactNetwork &net_;
  double beta_, gamma_;
};
long Epidemic::steps_taken = 0;

static std::string summary;

extern "C" double epidemic_cost(const double *theta, int days) {
  if (days <= 0) throw std::invalid_argument("days must be positive, got " + std::to_string(days));
  const double beta = theta[0], gamma = theta[1];
  const double *coverage = theta + 2;
  const ContactNetwork net(60, 4);
  std::map<std::string, double> vacc{{"north", coverage[0]}, {"centre", coverage[1]}, {"south", coverage[2]}};
  std::vector<NodeState> x(net.size());
  for (int i = 0; i < net.size(); ++i) {
    const double v = vacc.at(net.community_of(i));
    x[i].R = v;  // vaccinated: immune
    x[i].S = 1.0 - v;
  }
  for (int seed : {5, 31}) {
    x[seed].I = 0.05 * x[seed].S;
    x[seed].S -= x[seed].I;
  }
  const Epidemic model(net, beta, gamma);
  const int substeps = 4;
  std::vector<double> prevalence, incidence;
  double prev_susceptible = 0.0;
  for (const NodeState &s : x) prev_susceptible += s.S;
  for (int d = 0; d < days; ++d) {
    for (int k = 0; k < substeps; ++k) model.heun(x, 1.0 / substeps);
    const double I = std::accumulate(x.begin(), x.end(), 0.0, [](double a, const NodeState &s) { return a + s.I; });
    const double S = std::accumulate(x.begin(), x.end(), 0.0, [](double a, const NodeState &s) { return a + s.S; });
    prevalence.push_back(I / net.size());
    incidence.push_back((prev_susceptible - S) / net.size());
    prev_susceptible = S;
  }
  std::vector<double> cumulative(incidence.size());
  std::partial_sum(incidence.begin(), incidence.end(), cumulative.begin());
  const auto peak = std::max_element(prevalence.begin(), prevalence.end());
  double late = 0.0;
  for (std::size_t d = incidence.size() / 2; d < incidence.size(); ++d) late += incidence[d] * incidence[d];
  std::ostringstream os;
  os << net.edges() << " edges, peak on day " << (peak - prevalence.begin()) << ", attack " << cumulative.back();
  summary = os.str();
  return cumulative.back() + 2.0 * *peak + 50.0 * late;
}

int main() {
  double theta[5] = {0.09, 0.2, 0.3, 0.15, 0.45};
  const int days = 40;
  enum { NP = 5 };
  double fd[NP], ad[NP], dtheta[NP] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(epidemic_cost(theta, days), theta[k]);
  printf("cost %.10g: %s (%ld steps)\n", epidemic_cost(theta, days), summary.c_str(), Epidemic::steps_taken);
#ifdef MODE_REV
  __enzyme_autodiff((void *)epidemic_cost, enzyme_dup, theta, dtheta, enzyme_const, days);
  for (int k = 0; k < NP; ++k) ad[k] = dtheta[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dtheta[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)epidemic_cost, enzyme_dup, theta, dtheta, enzyme_const, days);
    dtheta[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

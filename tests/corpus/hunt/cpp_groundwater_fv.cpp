#include "hunt.h"
/* Steady confined aquifer by cell-centred finite volumes: a `Grid` class (nx, ny, spacing, a
   std::vector<double> of cell conductivities and heads, operator()(i, j) accessors, const and non-const),
   hydraulic-conductivity zones looked up in a std::map<int, double> from a zone pattern, harmonic-mean face
   transmissivities, fixed-head river cells on the west and east sides, areal recharge, pumping wells in a
   std::vector<Well> located by (i, j), SOR sweeps until the largest head change is below a tolerance
   (break), observation-well misfit plus the river leakage budget.  Wells outside the grid throw.
   Inputs: the log-conductivity of four zones, the recharge rate and two pumping rates. */
#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

struct Well {
  std::string name;
  int i, j;
  double rate;  // m^3/day, positive = extraction
};

class Grid {
 public:
  Grid(int nx, int ny, double dx) : nx_(nx), ny_(ny), dx_(dx), k_(nx * ny, 1.0), h_(nx * ny, 0.0) {}
  int nx() const { return nx_; }
  int ny() const { return ny_; }
  double dx() const { return dx_; }
  double &head(int i, int j) { return h_[j * nx_ + i]; }
  double head(int i, int j) const { return h_[j * nx_ + i]; }
  double &conductivity(int i, int j) { return k_[j * nx_ + i]; }
  double conductivity(int i, int j) const { return k_[j * nx_ + i]; }
  bool inside(int i, int j) const { return i >= 0 && j >= 0 && i < nx_ && j < ny_; }
  double face(int i, int j, int i2, int j2) const {  // harmonic mean transmissivity (unit thickness)
    const double a = conductivity(i, j), b = conductivity(i2, j2);
    return 2.0 * a * b / (a + b);
  }

 private:
  int nx_, ny_;
  double dx_;
  std::vector<double> k_, h_;
};

static int zone_of(int i, int j, int nx, int ny) { return (i < nx / 2 ? 0 : 1) + (j < ny / 2 ? 0 : 2); }

static std::string solver_log;

extern "C" double aquifer_objective(const double *p, int nx, int ny) {
  Grid g(nx, ny, 50.0);
  std::map<int, double> zone_k;
  for (int z = 0; z < 4; ++z) zone_k[z] = std::exp(p[z]);
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) g.conductivity(i, j) = zone_k.at(zone_of(i, j, nx, ny));
  const double recharge = p[4];
  std::vector<Well> wells{{"PW-1", nx / 3, ny / 2, p[5]}, {"PW-2", 2 * nx / 3, ny / 3, p[6]}};
  for (const Well &w : wells)
    if (!g.inside(w.i, w.j)) throw std::out_of_range("well " + w.name + " outside the grid");
  const double h_west = 20.0, h_east = 12.0;
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) g.head(i, j) = h_west + (h_east - h_west) * i / (nx - 1.0);
  std::vector<double> source(nx * ny, recharge * g.dx() * g.dx());
  for (const Well &w : wells) source[w.j * nx + w.i] -= w.rate;
  const double omega = 1.6, tol = 1e-13;
  int sweep = 0;
  for (; sweep < 5000; ++sweep) {
    double change = 0.0;
    for (int j = 0; j < ny; ++j)
      for (int i = 1; i < nx - 1; ++i) {  // columns 0 and nx-1 are rivers (fixed head)
        double diag = 0.0, off = 0.0;
        const int di[4] = {-1, 1, 0, 0}, dj[4] = {0, 0, -1, 1};
        for (int n = 0; n < 4; ++n) {
          const int i2 = i + di[n], j2 = j + dj[n];
          if (!g.inside(i2, j2)) continue;  // no-flow north and south
          const double t = g.face(i, j, i2, j2);
          diag += t;
          off += t * g.head(i2, j2);
        }
        const double gs = (off + source[j * nx + i]) / diag;
        const double updated = g.head(i, j) + omega * (gs - g.head(i, j));
        change = std::max(change, std::fabs(updated - g.head(i, j)));
        g.head(i, j) = updated;
      }
    if (change < tol) break;
  }
  const std::vector<std::pair<int, int>> observation{{2, 1}, {5, 4}, {8, 6}, {nx - 3, ny - 2}};
  const double observed[4] = {18.6, 16.0, 14.3, 13.2};
  double misfit = 0.0;
  for (std::size_t o = 0; o < observation.size(); ++o) {
    const auto &[i, j] = observation[o];
    misfit += (g.head(i, j) - observed[o]) * (g.head(i, j) - observed[o]);
  }
  double leakage = 0.0;  // flow into the east river
  for (int j = 0; j < ny; ++j) leakage += g.face(nx - 2, j, nx - 1, j) * (g.head(nx - 2, j) - g.head(nx - 1, j));
  std::ostringstream os;
  os << "SOR converged in " << sweep << " sweeps, leakage " << leakage;
  solver_log = os.str();
  return misfit + 1e-4 * leakage;
}

int main() {
  double p[7] = {std::log(2.0), std::log(5.0), std::log(1.2), std::log(3.0), 4e-4, 120.0, 80.0};
  const int nx = 12, ny = 8;
  enum { NP = 7 };
  double fd[NP], ad[NP], dp[NP] = {0};
  for (int k = 0; k < NP; ++k) fd[k] = HUNT_FD(aquifer_objective(p, nx, ny), p[k]);
  printf("objective %.10g: %s\n", aquifer_objective(p, nx, ny), solver_log.c_str());
#ifdef MODE_REV
  __enzyme_autodiff((void *)aquifer_objective, enzyme_dup, p, dp, enzyme_const, nx, enzyme_const, ny);
  for (int k = 0; k < NP; ++k) ad[k] = dp[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; ++k) {
    dp[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)aquifer_objective, enzyme_dup, p, dp, enzyme_const, nx, enzyme_const, ny);
    dp[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "check.h"
// A file-scope std::vector<double> table filled before the derivative call and read inside it (its automatic
// shadow is a zeroed block like the table's, not a vector with null pointers), a std::vector<int> of indices
// grown by push_back (libstdc++'s __copy_m<int> at -O0), and records {std::string; std::array<double, 3>; int}
// pushed into a vector: the copy of the fields after the string's union is typed from the record's declaration.
#include <array>
#include <string>
#include <vector>

static std::vector<double> weights;

struct Sample {
  std::string id;
  std::array<double, 3> x;
  int label;
};

extern "C" double score(const double *theta, int n) {
  std::vector<int> picked;
  for (int i = 0; i < n; ++i)
    if (i % 2 == 0 || i == n - 1) picked.push_back(i);
  std::vector<Sample> samples;
  for (int i : picked) {
    Sample s;
    s.id = "sample-" + std::to_string(i);
    s.x = {theta[0] * i, theta[1] + i, theta[2] * theta[0]};
    s.label = i % 3;
    samples.push_back(s);
  }
  double total = 0;
  for (const Sample &s : samples)
    total += weights[s.label] * (s.x[0] * s.x[1] + s.x[2]) + 0.01 * s.id.size() * s.x[1];
  return total;
}

int main() {
  weights = {0.5, -1.25, 2.0};
  enum { N = 7 };
  double th[3] = {0.8, -0.3, 1.7}, dth[3] = {0};
  __enzyme_autodiff((void *)score, th, dth, enzyme_const, (int)N);
  for (int i = 0; i < 3; ++i) {
    check("records reverse vs central", dth[i], CENTRAL(score(th, N), th[i], th[i]), 1e-6);
    double t[3] = {0};
    t[i] = 1.0;
    check("records forward vs reverse", __enzyme_fwddiff((void *)score, th, t, enzyme_const, (int)N), dth[i], 1e-10);
  }
  return finish();
}

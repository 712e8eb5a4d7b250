// A moving window in a std::deque<double> (its map of node pointers grows: std::copy of pointers, a size_t
// copied through std::max at -O0), peaks kept in a std::vector<double> (relocated as it grows), and a log line
// built in a std::ostringstream and moved into a file-scope std::string (the characters' pointer stored where no
// shadow is, merged in a phi with the string's own buffer) -- issue 11.  Checked against central differences,
// reverse and forward.
#include "check.h"
#include <deque>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

static std::string last_log;

extern "C" double window_energy(const double *p, int nsamples) {
  std::deque<double> buf;
  std::vector<double> peaks;
  std::ostringstream log;
  double smooth = 0.0, energy = 0.0, prev = 0.0, prev2 = 0.0;
  for (int n = 0; n < nsamples; ++n) {
    double raw = p[2] * std::exp(-p[0] * 0.05 * n) * std::cos(p[1] * 0.05 * n);
    buf.push_back(raw);
    if (buf.size() > 5) buf.pop_front();
    double avg = std::accumulate(buf.begin(), buf.end(), 0.0) / buf.size();
    smooth = 0.6 * smooth + 0.4 * avg;
    energy += smooth * smooth;
    if (n >= 2 && prev > prev2 && prev > smooth) peaks.push_back(prev);
    prev2 = prev;
    prev = smooth;
    if (n % 25 == 0) {
      log.str("");
      log << "n=" << n << " smooth=" << smooth << " peaks=" << peaks.size();
      last_log = log.str();
    }
  }
  return energy + (peaks.empty() ? 0.0 : std::accumulate(peaks.begin(), peaks.end(), 0.0) / peaks.size());
}

int main() {
  const int ns = 120;
  double p[3] = {0.2, 2.5, 1.1}, dp[3] = {0, 0, 0};
  __enzyme_autodiff((void *)window_energy, enzyme_dup, p, dp, enzyme_const, ns);
  for (int q = 0; q < 3; ++q) {
    double fd = CENTRAL(window_energy(p, ns), p[q], p[q]);
    check("reverse", dp[q], fd, 1e-6);
    double t[3] = {0, 0, 0};
    t[q] = 1.0;
    check("forward", __enzyme_fwddiff((void *)window_energy, enzyme_dup, p, t, enzyme_const, ns), dp[q], 1e-10);
  }
  printf("last log: %s\n", last_log.c_str());
  return finish();
}

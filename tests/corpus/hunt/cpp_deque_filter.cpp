#include "hunt.h"
/* Online signal processing of a simulated sensor: samples from a damped oscillator (parameters: damping,
   frequency, gain) pass through a moving-average window kept in a std::deque (push_back / pop_front), an
   exponential smoother, and a peak detector; a std::ostringstream builds a log line with the running values
   every so often (as code that reports progress does).  Objective: the energy of the filtered signal plus
   the mean of the detected peaks.  Inputs: damping, frequency, gain. */
#include <cmath>
#include <deque>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

static std::string last_log;

extern "C" double filtered_energy(const double* p, int nsamples) {
  const double zeta = p[0], omega = p[1], gain = p[2];
  const std::size_t window = 7;
  std::deque<double> buf;
  std::vector<double> peaks;
  double smooth = 0.0, energy = 0.0, prev = 0.0, prev2 = 0.0;
  std::ostringstream log;
  for (int n = 0; n < nsamples; ++n) {
    double t = 0.05 * n;
    double raw = gain * std::exp(-zeta * omega * t) * std::cos(omega * std::sqrt(1.0 - zeta * zeta) * t) +
                 0.05 * std::sin(13.0 * t);
    buf.push_back(raw);
    if (buf.size() > window) buf.pop_front();
    double avg = std::accumulate(buf.begin(), buf.end(), 0.0) / buf.size();
    smooth = 0.7 * smooth + 0.3 * avg;
    energy += smooth * smooth * 0.05;
    if (n >= 2 && prev > prev2 && prev > smooth) peaks.push_back(prev);
    prev2 = prev;
    prev = smooth;
    if (n % 40 == 0) {
      log.str("");
      log << "t=" << t << " avg=" << avg << " smooth=" << smooth << " peaks=" << peaks.size();
      last_log = log.str();
    }
  }
  double peak_mean = peaks.empty() ? 0.0 : std::accumulate(peaks.begin(), peaks.end(), 0.0) / peaks.size();
  return energy + peak_mean;
}

static double p[3] = {0.15, 3.0, 1.2};

int main() {
  const int ns = 160;
  double fd[3], ad[3], dp[3] = {0};
  for (int q = 0; q < 3; ++q) fd[q] = HUNT_FD(filtered_energy(p, ns), p[q]);
#ifdef MODE_REV
  __enzyme_autodiff((void*)filtered_energy, enzyme_dup, p, dp, enzyme_const, ns);
  hunt_check_vec("grad", dp, fd, 3);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3; ++q) {
    dp[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void*)filtered_energy, enzyme_dup, p, dp, enzyme_const, ns);
    dp[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 3);
#endif
  (void)ad;
  printf("%s\n", last_log.c_str());
  return hunt_finish();
}

#include "check.h"
/* Records {double time; int kind; int id; int lane} popped in time order from a std::priority_queue with
   std::greater, the amounts in a std::vector indexed by the record's id.  Each pop moves the heap's last
   record out in two parts (at -O3 the time by a load, the other 16 bytes -- three ints and the tail padding
   -- through a 16-byte stack temporary that is only copied into and out of).  Was refused in reverse mode
   at -O3: the temporary's bytes had no type.  Checked against central differences in both modes. */
#include <functional>
#include <queue>
#include <vector>

struct Arrival {
  double time;
  int kind, id, lane;
  bool operator>(const Arrival& o) const { return time > o.time; }
};

extern "C" double drain(const double* p, int n) {
  std::priority_queue<Arrival, std::vector<Arrival>, std::greater<Arrival>> q;
  std::vector<double> amount;
  for (int i = 0; i < n; ++i) {
    q.push({(i * 5 % n) + 0.1 * p[0] * i, i % 3, i, i % 2});
    amount.push_back(p[1] * (1.0 + 0.2 * i));
  }
  double level = 0.0, last = 0.0;
  while (!q.empty()) {
    Arrival a = q.top();
    q.pop();
    level = level * (1.0 - 0.1 * (a.time - last)) + (a.kind == 2 ? 2.0 : 1.0 + a.lane) * amount[a.id];
    last = a.time;
  }
  return level;
}

int main() {
  const int n = 11;
  double p[2] = {0.3, 1.7};
  double dp[2] = {0, 0};
  __enzyme_autodiff((void*)drain, enzyme_dup, p, dp, enzyme_const, n);
  for (int i = 0; i < 2; ++i) {
    double t[2] = {0, 0};
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void*)drain, enzyme_dup, p, t, enzyme_const, n);
    double fd = CENTRAL(drain(p, n), p[i], p[i]);
    check("priority_queue reverse", dp[i], fd, 1e-6);
    check("priority_queue forward", fwd, fd, 1e-6);
  }
  return finish();
}

#include "check.h"
#include <string>
#include <unordered_map>
/* Named parameters in a std::unordered_map keyed by std::string, filled inside the differentiated function:
   each insertion moves the key string into a new node: a short key's buffer is copied with its run-time length
   beside the node's double (the code for a long key, moving its heap pointer and its capacity as integers, is
   differentiated too, not run).  Keys of 1, 7, 12 and 15 characters (the longest kept in the string itself). */
using Params = std::unordered_map<std::string, double>;

static double model(Params &p, double t) {
  return p["a"] * t * t + p["bravo_x"] * t + p["fifteen_chars__"] * p["a"]
         + p["twelve_chars"] * t * t * t;
}

double loss(const double *theta, int n) {
  Params p;
  p["a"] = theta[0];
  p["bravo_x"] = theta[1];
  p["fifteen_chars__"] = theta[2];
  p["twelve_chars"] = theta[3];
  p["bravo_x"] *= p["fifteen_chars__"];  // a value read and written through the map
  double s = 0;
  for (int i = 0; i < n; ++i) {
    double r = model(p, 0.1 * i) - 0.5 * i;
    s += r * r;
  }
  return s;
}

int main() {
  double th[4] = {0.7, -1.2, 0.4, 0.3}, dth[4] = {0, 0, 0, 0};
  const int n = 6;
  __enzyme_autodiff((void *)loss, enzyme_dup, th, dth, enzyme_const, n);
  for (int i = 0; i < 4; ++i) {
    double t[4] = {0, 0, 0, 0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)loss, enzyme_dup, th, t, enzyme_const, n), dth[i], 1e-10);
    double q[4] = {0.7, -1.2, 0.4, 0.3};
    check("central", CENTRAL(loss(q, n), q[i], th[i]), dth[i], 1e-6);
  }
  return finish();
}

#include "check.h"
#include <algorithm>
#include <vector>
/* Samples sorted by a key with std::sort and a lambda comparator (the records, a double key, a weight
   and an int tag, are swapped and moved by the sort), then a trapezoid integral over the sorted keys.
   The order does not change under the small perturbations of the finite differences. */
struct Sample {
  double key;
  double weight;
  int tag;
};

double sorted_integral(const double *keys, const double *weights, int n) {
  std::vector<Sample> s(n);
  for (int i = 0; i < n; ++i) s[i] = Sample{keys[i], weights[i], i};
  std::sort(s.begin(), s.end(), [](const Sample &a, const Sample &b) { return a.key < b.key; });
  double area = 0;
  for (int i = 0; i + 1 < n; ++i) {
    double h = s[i + 1].key - s[i].key;
    double bias = (s[i].tag % 2 == 0) ? 1.0 : 1.5;
    area += 0.5 * h * (s[i].weight * s[i].weight + bias * s[i + 1].weight);
  }
  return area;
}

int main() {
  const int n = 20;  // more than 16: std::sort's introsort loop, not only its insertion sort
  double k[n], w[n], dk[n], dw[n];
  for (int i = 0; i < n; ++i) {
    k[i] = (double)((i * 7) % n) + 0.01 * i;
    w[i] = 1.0 + 0.1 * i;
    dk[i] = dw[i] = 0;
  }
  __enzyme_autodiff((void *)sorted_integral, enzyme_dup, k, dk, enzyme_dup, w, dw, enzyme_const, n);
  for (int i = 0; i < n; ++i) {
    double tk[n] = {0}, tw[n] = {0};
    tk[i] = 1;
    check("forward key", __enzyme_fwddiff((void *)sorted_integral, enzyme_dup, k, tk, enzyme_dup, w, tw,
                                          enzyme_const, n), dk[i], 1e-10);
    double q[n];
    for (int j = 0; j < n; ++j) q[j] = k[j];
    check("central key", CENTRAL(sorted_integral(q, w, n), q[i], k[i]), dk[i], 1e-6);
    for (int j = 0; j < n; ++j) q[j] = w[j];
    check("central weight", CENTRAL(sorted_integral(k, q, n), q[i], w[i]), dw[i], 1e-6);
  }
  return finish();
}

#include "check.h"
#include <cmath>
#include <vector>
/* Forward split mode in C++: std::vector's iterator methods and constructors are calls of functions with a
   body (not inlined at -O0), void ones among them; the vector's primal pointer is null in the split call.
   Checked against __enzyme_fwddiff on a copy and against central differences. */
template <typename RT, typename... Args> RT __enzyme_augmentfwd(Args...);
template <typename RT, typename... Args> RT __enzyme_fwdsplit(Args...);
struct aug_t { void *tape; double primal; };

/* The norm of v, then v scaled in place by its norm. */
double normalize(std::vector<double> &v) {
  double s = 0;
  for (auto it = v.begin(); it != v.end(); ++it) s += *it * *it;
  double n = std::sqrt(s);
  for (double &x : v) x /= n;
  return n;
}

static double normalize_of(const std::vector<double> &v0, size_t k, double vk) {
  std::vector<double> v = v0;
  v[k] = vk;
  return normalize(v);
}

int main() {
  const std::vector<double> v0 = {3, -4, 1.5, 0.5};
  const std::vector<double> dv0 = {1, 0.5, -2, 3};
  std::vector<double> v = v0, dv = dv0, v2 = v0, dv2 = dv0;
  double ref = __enzyme_fwddiff((void *)normalize, &v2, &dv2);
  aug_t a = __enzyme_augmentfwd<aug_t>((void *)normalize, &v, (std::vector<double> *)nullptr);
  check("primal", a.primal, normalize_of(v0, 0, v0[0]), 1e-15);
  std::vector<double> *none = nullptr;
  double got = __enzyme_fwdsplit<double>((void *)normalize, none, &dv, a.tape);
  check("split vs fwddiff", got, ref, 1e-15);
  for (size_t i = 0; i < v0.size(); i++) check("tangent of v as fwddiff writes it", dv[i], dv2[i], 1e-15);
  double fd = 0, x = 0;
  for (size_t k = 0; k < v0.size(); k++) fd += dv0[k] * CENTRAL(normalize_of(v0, k, x), x, v0[k]);
  check("split vs central differences", got, fd, 1e-7);
  if (failures) return 1;
  printf("ALL OK\n");
  return 0;
}

// A simulation step that reports as it goes, the way research code does: a short std::string label,
// std::cout, std::wcout, a locale and a std::hash of a name copied from a string literal (constant
// memory, characters only) into a std::string.  None of that text carries a derivative (libstdc++'s character
// machinery is known inactive), so both modes must give the plain derivative, checked against central
// differences.  (Strings long enough to live on the heap, and string streams, are refused at -O1 and
// above for now: the inlined std::string code stores the buffer's address into the string object.)
#include <functional>
#include <iostream>
#include <locale>
#include <string>
#include "check.h"

static int reports = 0;

__attribute__((noinline)) static void report(const std::string &what, double value) {
  if (what.compare(0, 3, "dbg") != 0) reports++;
  std::cout << what << " = " << value << std::endl;
}

static double step(double *x, int n) {
  std::string label = "energy";
  double e = 0;
  for (int i = 0; i < n; i++) e += 0.5 * x[i] * x[i] + sin(x[i]);
  report(label, e);
  std::wcout << L"w" << 1 << std::flush;
  std::string channel("energy_channel");  // which output channel: a hash, never a derivative
  if (std::hash<std::string>()(channel) % 3 == 7) e = 0;
  std::wcout.imbue(std::locale());
  return e * e;
}

int main() {
  enum { N = 4 };
  double x[N] = {0.3, -1.1, 2.0, 0.7}, grad[N] = {0}, dir[N] = {1, 0.5, -0.25, 2};
  __enzyme_autodiff((void *)step, enzyme_dup, x, grad, enzyme_const, N);
  double tangent = __enzyme_fwddiff((void *)step, enzyme_dup, x, dir, enzyme_const, N);
  double e = 0;
  for (int i = 0; i < N; i++) e += 0.5 * x[i] * x[i] + sin(x[i]);
  for (int i = 0; i < N; i++) {
    char what[32];
    snprintf(what, sizeof what, "grad[%d]", i);
    check(what, grad[i], 2 * e * (x[i] + cos(x[i])), 1e-12);
    snprintf(what, sizeof what, "grad[%d] central", i);
    check(what, grad[i], CENTRAL(step(x, N), x[i], x[i]), 1e-6);
  }
  check("forward = grad . dir", tangent, dot(grad, dir, N), 1e-12);
  check("reports were made", reports > 0, 1, 0);
  return finish();
}

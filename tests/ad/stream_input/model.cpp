// A model that reads its coefficients from text and binary input inside the differentiated function, the
// way a configuration-driven solver does: operator>> into a double and a float, istream::read of raw
// doubles, get(buf, n, delim), get(char&) and ignore().  (The texts are short enough for std::string's in-place
// buffer: heap-allocated strings and streams over them are refused at -O1 and above for now.)  What the stream stores carries no derivative and
// overwrites the derivative the destination held: `w` starts as a copy of x[0] and is then read from the
// stream, so it contributes nothing; `raw` starts active and a read of 16 bytes finds only 8, so raw[0]
// becomes a constant while raw[1] (not reached by the short read) keeps its derivative.  Checked in both
// modes against the analytic derivative and central differences.
#include <cstring>
#include <sstream>
#include <string>
#include "check.h"


static double model(double *x) {
  std::stringstream text("3.5 2.25 7.5 ab|");  // short: the strings stay in place (SSO)
  double a = 0, w = x[0];
  float b = 0;
  text >> a >> w >> b;  // a = 3.5, w = 2.25 (no longer x[0]), b = 7.5
  char sep = 0, label[8] = {0};
  text.ignore();                           // the blank before "ab"
  text.get(label, sizeof label, '|');      // "ab"
  text.get(sep);                           // '|'
  std::stringstream bin;
  double quarter = 0.25;
  bin.write(reinterpret_cast<const char *>(&quarter), sizeof quarter);  // one double, 8 bytes
  double raw[2] = {3 * x[1], x[1] * x[1]};
  bin.read(reinterpret_cast<char *>(raw), 2 * sizeof(double));  // a short read: 8 of the 16 bytes
  double scale = (label[0] == 'a' && std::strlen(label) == 2 && sep == '|') ? 1.0 : 2.0;
  return a * x[0] * x[0] + w * x[1] + scale * raw[0] * x[0] + raw[1] * x[2] + (double)b;
}

int main() {
  enum { N = 3 };
  double x[N] = {0.7, -1.3, 2.1}, grad[N] = {0}, dir[N] = {1.0, -0.5, 0.25};
  __enzyme_autodiff((void *)model, enzyme_dup, x, grad);
  double tangent = __enzyme_fwddiff((void *)model, enzyme_dup, x, dir);
  // raw[0] = 0.25 from the stream; raw[1] = x1^2 survives the short read.
  double expected[N] = {2 * 3.5 * x[0] + 0.25, 2.25 + 2 * x[1] * x[2], x[1] * x[1]};
  check("value", model(x), 3.5 * 0.49 + 2.25 * -1.3 + 0.25 * 0.7 + 1.69 * 2.1 + 7.5, 1e-12);
  for (int i = 0; i < N; i++) {
    char what[40];
    snprintf(what, sizeof what, "grad[%d]", i);
    check(what, grad[i], expected[i], 1e-12);
    snprintf(what, sizeof what, "grad[%d] central", i);
    check(what, grad[i], CENTRAL(model(x), x[i], x[i]), 1e-6);
  }
  check("forward = grad . dir", tangent, dot(grad, dir, N), 1e-12);
  return finish();
}

#include "check.h"
// std::string and std::ostringstream inside differentiated code: a std::map<std::string, double> built from an
// initializer list (a one-character key is copied as one byte), keys from a table of string literals (short and
// longer than 15 characters), an ostringstream (its constructor stores the VTT's vtable addresses into the
// stream) whose str() is move-assigned to a file-scope std::string (which gets no shadow).
#include <map>
#include <sstream>
#include <string>

static std::string last_log;
static const char *names[] = {"a", "bb", "a-key-longer-than-fifteen-characters"};

extern "C" double weigh(const double *x, int n) {
  std::map<std::string, double> m{{"alpha", x[0]}, {"b", x[1]}};
  for (int i = 0; i < n; ++i) {
    const std::string key = names[i % 3];
    m[key] += x[i] * x[i];
  }
  double s = 0;
  for (const auto &[k, v] : m) s += v * v * (1.0 + 0.1 * k.size());
  std::ostringstream os;
  os << "s=" << s << " keys=" << m.size();
  last_log = os.str();
  return s;
}

int main() {
  enum { N = 5 };
  double x[N] = {0.3, -0.7, 1.1, 0.4, -0.2}, dx[N] = {0};
  __enzyme_autodiff((void *)weigh, x, dx, enzyme_const, (int)N);
  for (int i = 0; i < N; ++i) {
    double fd = CENTRAL(weigh(x, N), x[i], x[i]);
    check("string keys reverse vs central", dx[i], fd, 1e-6);
    double t[N] = {0};
    t[i] = 1.0;
    check("string keys forward vs reverse", __enzyme_fwddiff((void *)weigh, x, t, enzyme_const, (int)N), dx[i], 1e-10);
  }
  check("log line written", last_log.rfind("s=", 0) == 0 ? 1.0 : 0.0, 1.0, 0.0);
  return finish();
}

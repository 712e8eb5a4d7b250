// C++ as it is written with OpenMP: std::vector buffers, a lambda called from the parallel body, a
// reduction; the whole loss differentiated with respect to the vector (both modes).
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>
extern "C" {
extern int enzyme_dup, enzyme_const;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
}

double loss(const std::vector<double> &x) {
  std::vector<double> y(x.size());
  auto response = [](double v) { return std::exp(-v * v) + std::sin(v); };
#pragma omp parallel for
  for (long i = 0; i < (long)x.size(); i++) y[i] = response(x[i]) * x[i];
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (long i = 0; i < (long)y.size(); i++) s += y[i] * y[i];
  return s;
}

int main() {
  const int n = 17;
  std::vector<double> x(n), dx(n, 0.0);
  for (int i = 0; i < n; i++) x[i] = 0.1 * i - 0.7;
  __enzyme_autodiff((void *)loss, enzyme_dup, &x, &dx);
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double h = 1e-6;
    std::vector<double> xp = x, xm = x, t(n, 0.0);
    xp[i] += h;
    xm[i] -= h;
    double fd = (loss(xp) - loss(xm)) / (2 * h);
    t[i] = 1;
    double fwd = __enzyme_fwddiff((void *)loss, enzyme_dup, &x, &t);
    for (double got : {dx[i], fwd})
      if (std::fabs(fd - got) > 1e-6 * (1 + std::fabs(fd))) {
        bad++;
        std::printf("MISMATCH [%d]: got %.15g expected %.15g\n", i, got, fd);
      }
  }
  std::printf(bad ? "FAILED %d\n" : "ALL OK\n", bad);
  return bad != 0;
}

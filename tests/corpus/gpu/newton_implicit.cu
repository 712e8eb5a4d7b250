// Stiff chemistry, one cell per thread: backward Euler on a two-species Robertson-like system, each step
// solved by Newton's method to a tolerance (a data-dependent number of iterations), so the reverse sweep's
// tape grows step by step.  Sensitivities of the final product concentration to the rate constants, in
// reverse mode (enzyme_out on k1, k2) and in forward mode (a tangent in k1), against central differences.
#include "gpu_check.h"
#include <enzyme/enzyme.h>

struct RateGradient { double dk1, dk2; };
extern __device__ RateGradient __enzyme_autodiff_rates(void *, ...);

__host__ __device__ double integrate(double k1, double k2, double a0, int steps) {
  double a = a0, b = 0.0, dt = 0.05;
  for (int s = 0; s < steps; s++) {
    // Solve a' - a + dt*(k1 a^2) = 0 and b' = b + dt*(k1 a'^2 - k2 b') for a', b'.
    double x = a;
    for (int it = 0; it < 50; it++) {
      double f = x - a + dt * k1 * x * x;
      double df = 1.0 + 2.0 * dt * k1 * x;
      double step = f / df;
      x -= step;
      if (fabs(step) < 1e-14 * (1.0 + fabs(x))) break;
    }
    a = x;
    b = (b + dt * k1 * a * a) / (1.0 + dt * k2);
  }
  return b;
}

__global__ void sensitivities(const double *k1, const double *k2, const double *a0, double *dk1, double *dk2,
                              double *tk1, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  RateGradient g = __enzyme_autodiff_rates((void *)integrate, enzyme_out, k1[i], enzyme_out, k2[i],
                                           enzyme_const, a0[i], enzyme_const, steps);
  dk1[i] = g.dk1;
  dk2[i] = g.dk2;
  tk1[i] = __enzyme_fwddiff((void *)integrate, enzyme_dup, k1[i], 1.0, enzyme_const, k2[i], enzyme_const, a0[i],
                            enzyme_const, steps);
}

int main() {
  const int n = 2048, steps = 120;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 30));
  std::vector<double> k1(n), k2(n), a0(n);
  for (int i = 0; i < n; i++) { k1[i] = 0.5 + 3.0 * i / n; k2[i] = 0.2 + 0.1 * sin(0.3 * i); a0[i] = 1.0 + 0.5 * cos(0.1 * i); }
  double *d1 = to_device(k1), *d2 = to_device(k2), *da = to_device(a0);
  double *g1 = to_device(std::vector<double>(n)), *g2 = to_device(std::vector<double>(n)), *t1 = to_device(std::vector<double>(n));
  sensitivities<<<(n + 127) / 128, 128>>>(d1, d2, da, g1, g2, t1, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> h1 = to_host(g1, n), h2 = to_host(g2, n), ht = to_host(t1, n);
  double worst = 0.0, h = 1e-6;
  for (int i = 0; i < n; i += 7) {
    double f1 = (integrate(k1[i] + h, k2[i], a0[i], steps) - integrate(k1[i] - h, k2[i], a0[i], steps)) / (2 * h);
    double f2 = (integrate(k1[i], k2[i] + h, a0[i], steps) - integrate(k1[i], k2[i] - h, a0[i], steps)) / (2 * h);
    worst = fmax(worst, fmax(rel_err(h1[i], f1), fmax(rel_err(h2[i], f2), rel_err(ht[i], f1))));
  }
  return verdict("newton_implicit", worst);
}

// Explicit 1-D heat conduction on a rod split into blocks: each block holds its segment in shared memory,
// steps it `steps` times with __syncthreads() between the reads of the neighbours and the writes (ends held
// at zero), and returns the segment's thermal energy weighted by a sensor profile.  Reverse mode gives the
// sensitivity of that reading to the initial temperatures and to the per-cell conductivities, through the
// barriers inside the time loop.  Checked against central differences of a host copy of the same scheme.
#include "gpu_check.h"
#include <enzyme/enzyme.h>

constexpr int CELLS = 64;

__device__ double step_segment(const double *u0, const double *kappa, double *u, int steps) {
  int t = threadIdx.x;
  u[t] = u0[t];
  __syncthreads();
  for (int s = 0; s < steps; s++) {
    double left = t > 0 ? u[t - 1] : 0.0, right = t < CELLS - 1 ? u[t + 1] : 0.0;
    double next = u[t] + 0.2 * kappa[t] * (left - 2.0 * u[t] + right);
    __syncthreads();
    u[t] = next;
    __syncthreads();
  }
  double w = exp(-0.01 * (t - 20) * (t - 20));
  return w * u[t] * u[t];
}

__global__ void sensitivity(const double *u0, double *du0, const double *kappa, double *dkappa, int steps) {
  __shared__ double u[CELLS], du[CELLS];
  du[threadIdx.x] = 0.0;
  __syncthreads();
  int base = blockIdx.x * CELLS;
  __enzyme_autodiff((void *)step_segment, enzyme_dup, u0 + base, du0 + base, enzyme_dup, kappa + base,
                    dkappa + base, enzyme_dup, u, du, enzyme_const, steps);
}

static double reading(const double *u0, const double *kappa, int steps) {
  double u[CELLS], next[CELLS], total = 0.0;
  for (int t = 0; t < CELLS; t++) u[t] = u0[t];
  for (int s = 0; s < steps; s++) {
    for (int t = 0; t < CELLS; t++) {
      double left = t > 0 ? u[t - 1] : 0.0, right = t < CELLS - 1 ? u[t + 1] : 0.0;
      next[t] = u[t] + 0.2 * kappa[t] * (left - 2.0 * u[t] + right);
    }
    for (int t = 0; t < CELLS; t++) u[t] = next[t];
  }
  for (int t = 0; t < CELLS; t++) total += exp(-0.01 * (t - 20) * (t - 20)) * u[t] * u[t];
  return total;
}

int main() {
  const int blocks = 16, n = blocks * CELLS, steps = 40;
  std::vector<double> u0(n), kappa(n);
  for (int i = 0; i < n; i++) { u0[i] = sin(0.05 * i) + 0.3; kappa[i] = 0.8 + 0.2 * cos(0.11 * i); }
  double *d_u0 = to_device(u0), *d_k = to_device(kappa);
  double *g_u0 = to_device(std::vector<double>(n)), *g_k = to_device(std::vector<double>(n));
  sensitivity<<<blocks, CELLS>>>(d_u0, g_u0, d_k, g_k, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<double> du0 = to_host(g_u0, n), dk = to_host(g_k, n);
  double worst = 0.0, h = 1e-6;
  for (int b = 0; b < blocks; b += 5)
    for (int t = 0; t < CELLS; t += 3) {
      int i = b * CELLS + t;
      std::vector<double> p = u0, m = u0;
      p[i] += h; m[i] -= h;
      double fd = (reading(&p[b * CELLS], &kappa[b * CELLS], steps) - reading(&m[b * CELLS], &kappa[b * CELLS], steps)) / (2 * h);
      worst = fmax(worst, rel_err(du0[i], fd));
      p = kappa; m = kappa;
      p[i] += h; m[i] -= h;
      fd = (reading(&u0[b * CELLS], &p[b * CELLS], steps) - reading(&u0[b * CELLS], &m[b * CELLS], steps)) / (2 * h);
      worst = fmax(worst, rel_err(dk[i], fd));
    }
  return verdict("block_heat", worst);
}

// GPU benchmark kernels (benchmarks/bench_gpu.py): gradient time over primal time on the device.
//   stencil: out[i] = (u[i-1] - 2u[i] + u[i+1])^2 / 2 + k * cos(u[i]) per thread; gradient: du (atomics:
//            three threads add into each du[i]).
//   ode:     per thread, `steps` RK4 steps of a damped nonlinear oscillator; gradient with respect to the
//            thread's two parameters (reverse mode through the device tape).
// Prints one line per kernel: "<name> primal_us gradient_us ratio max_rel_err".
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
#include <enzyme/enzyme.h>

#define CHECK(call)                                                                             \
  do {                                                                                          \
    cudaError_t status_ = (call);                                                               \
    if (status_ != cudaSuccess) {                                                               \
      fprintf(stderr, "CUDA error: %s (%s, line %d)\n", cudaGetErrorString(status_), #call, __LINE__); \
      exit(2);                                                                                  \
    }                                                                                           \
  } while (0)

__host__ __device__ double stencil(const double *u, int i, int n) {
  double left = i > 0 ? u[i - 1] : 0.0, right = i + 1 < n ? u[i + 1] : 0.0;
  double lap = left - 2.0 * u[i] + right;
  return 0.5 * lap * lap + 0.1 * cos(u[i]);
}

__host__ __device__ void rhs(double a, double b, double x, double v, double *dx, double *dv) {
  *dx = v;
  *dv = -a * x - b * v - 0.1 * x * x * x;
}

__host__ __device__ double ode(double a, double b, int steps) {
  double x = 1.0, v = 0.0, h = 0.01;
  for (int s = 0; s < steps; s++) {
    double k1x, k1v, k2x, k2v, k3x, k3v, k4x, k4v;
    rhs(a, b, x, v, &k1x, &k1v);
    rhs(a, b, x + 0.5 * h * k1x, v + 0.5 * h * k1v, &k2x, &k2v);
    rhs(a, b, x + 0.5 * h * k2x, v + 0.5 * h * k2v, &k3x, &k3v);
    rhs(a, b, x + h * k3x, v + h * k3v, &k4x, &k4v);
    x += h / 6.0 * (k1x + 2 * k2x + 2 * k3x + k4x);
    v += h / 6.0 * (k1v + 2 * k2v + 2 * k3v + k4v);
  }
  return x * x + v * v;
}

typedef struct { double da, db; } Pair;
extern __device__ Pair __enzyme_autodiff_pair(void *, ...);

__global__ void stencil_primal(const double *u, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = stencil(u, i, n);
}
__global__ void stencil_gradient(const double *u, double *du, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff((void *)stencil, enzyme_dup, u, du, enzyme_const, i, enzyme_const, n);
}
__global__ void ode_primal(const double *a, const double *b, double *out, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = ode(a[i], b[i], steps);
}
__global__ void ode_gradient(const double *a, const double *b, double *da, double *db, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Pair g = __enzyme_autodiff_pair((void *)ode, a[i], b[i], enzyme_const, steps);
    da[i] = g.da;
    db[i] = g.db;
  }
}

template <class Launch> static double time_us(Launch launch, int repeats) {
  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  launch();  // warm-up
  CHECK(cudaDeviceSynchronize());
  std::vector<float> times;
  for (int r = 0; r < repeats; r++) {
    CHECK(cudaEventRecord(start));
    launch();
    CHECK(cudaEventRecord(stop));
    CHECK(cudaEventSynchronize(stop));
    CHECK(cudaGetLastError());
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return 1000.0 * times[times.size() / 2];
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1 << 22, m = argc > 2 ? atoi(argv[2]) : 1 << 14;
  int steps = argc > 3 ? atoi(argv[3]) : 200, repeats = 11, threads = 256;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 31));
  std::vector<double> u(n), a(m), b(m);
  for (int i = 0; i < n; i++) u[i] = sin(0.001 * i);
  for (int i = 0; i < m; i++) { a[i] = 1.0 + 0.0001 * i; b[i] = 0.1 + 0.00001 * i; }
  double *d_u, *d_du, *d_out, *d_a, *d_b, *d_da, *d_db, *d_o;
  CHECK(cudaMalloc(&d_u, n * sizeof(double)));
  CHECK(cudaMalloc(&d_du, n * sizeof(double)));
  CHECK(cudaMalloc(&d_out, n * sizeof(double)));
  CHECK(cudaMalloc(&d_a, m * sizeof(double)));
  CHECK(cudaMalloc(&d_b, m * sizeof(double)));
  CHECK(cudaMalloc(&d_da, m * sizeof(double)));
  CHECK(cudaMalloc(&d_db, m * sizeof(double)));
  CHECK(cudaMalloc(&d_o, m * sizeof(double)));
  CHECK(cudaMemcpy(d_u, u.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_a, a.data(), m * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), m * sizeof(double), cudaMemcpyHostToDevice));
  int gn = (n + threads - 1) / threads, gm = (m + threads - 1) / threads;

  double sp = time_us([&] { stencil_primal<<<gn, threads>>>(d_u, d_out, n); }, repeats);
  double sg = time_us([&] {
    cudaMemsetAsync(d_du, 0, n * sizeof(double));
    stencil_gradient<<<gn, threads>>>(d_u, d_du, n);
  }, repeats);
  std::vector<double> du(n);
  CHECK(cudaMemcpy(du.data(), d_du, n * sizeof(double), cudaMemcpyDeviceToHost));
  double err_s = 0.0, h = 1e-6;
  for (int j = 1; j < n; j += n / 17) {  // d(sum_i stencil_i)/du_j: only i in j-1..j+1 depend on u_j
    double fd = 0.0, keep = u[j];
    for (int i = std::max(0, j - 1); i <= std::min(n - 1, j + 1); i++) {
      u[j] = keep + h; double p = stencil(u.data(), i, n);
      u[j] = keep - h; double q = stencil(u.data(), i, n);
      u[j] = keep; fd += (p - q) / (2 * h);
    }
    err_s = std::max(err_s, fabs(du[j] - fd) / std::max(1.0, fabs(fd)));
  }
  printf("stencil n=%d %.1f %.1f %.2f %.2g\n", n, sp, sg, sg / sp, err_s);

  double op = time_us([&] { ode_primal<<<gm, threads>>>(d_a, d_b, d_o, m, steps); }, repeats);
  double og = time_us([&] { ode_gradient<<<gm, threads>>>(d_a, d_b, d_da, d_db, m, steps); }, repeats);
  std::vector<double> da(m), db(m);
  CHECK(cudaMemcpy(da.data(), d_da, m * sizeof(double), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(db.data(), d_db, m * sizeof(double), cudaMemcpyDeviceToHost));
  double err_o = 0.0;
  for (int i = 0; i < m; i += m / 13) {
    double fa = (ode(a[i] + h, b[i], steps) - ode(a[i] - h, b[i], steps)) / (2 * h);
    double fb = (ode(a[i], b[i] + h, steps) - ode(a[i], b[i] - h, steps)) / (2 * h);
    err_o = std::max(err_o, std::max(fabs(da[i] - fa) / std::max(1.0, fabs(fa)), fabs(db[i] - fb) / std::max(1.0, fabs(fb))));
  }
  printf("ode m=%d steps=%d %.1f %.1f %.2f %.2g\n", m, steps, op, og, og / op, err_o);
  return err_s < 1e-5 && err_o < 1e-5 ? 0 : 1;
}

// The device-code features of docs/gpu.md, each checked against an independent oracle on the host.
//
//   enzyme-c++ -O2 device_features.cu -o device_features
//   ./device_features            -> one line per check, "ok" and exit 0 on a machine with an NVIDIA GPU;
//                                   "CUDA error: ..." and exit 2 without one.
//   ./device_features overflow   -> a tape that outgrows a 1 MB device heap must stop the kernel with an
//                                   error (or, if it fits after all, give the right numbers): never a wrong one.
//   ./device_features quick      -> every check but long_ode (for compute-sanitizer's racecheck and memcheck).
//
//   block      reverse mode through __syncthreads and shared memory: each thread reads its neighbour's
//              value, so its adjoint comes back through the shadow of the shared array (analytic oracle);
//   deposit    reverse mode of atomicAdd into a histogram shared by all threads (analytic oracle);
//   smooth     forward mode with duplicated arrays (tangent of a stencil, finite differences);
//   math       reverse mode of libdevice functions (pow, log1p, tanh, atan2, sqrt, cbrt, erf, expm1, hypot);
//   long_ode   reverse mode with a long per-thread tape (65536 threads x 400 steps) in device malloc memory.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>
#include <enzyme/enzyme.h>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t status_ = (call);                                                                      \
    if (status_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "CUDA error: %s (%s, line %d)\n", cudaGetErrorString(status_), #call, __LINE__); \
      return 2;                                                                                        \
    }                                                                                                  \
  } while (0)

constexpr int BLOCK = 128;

// Each thread squares its value into shared memory, waits for the block, and multiplies its
// neighbour's square by its own value: v_t = x_{t+1}^2 x_t (indices modulo the block).
__device__ double block_energy(const double *x, double *s) {
  int t = threadIdx.x;
  s[t] = x[t] * x[t];
  __syncthreads();
  return s[(t + 1) % blockDim.x] * x[t];
}

__global__ void grad_block(const double *x, double *dx) {
  __shared__ double s[BLOCK], ds[BLOCK];
  ds[threadIdx.x] = 0.0;
  __syncthreads();
  int base = blockIdx.x * blockDim.x;
  __enzyme_autodiff((void *)block_energy, enzyme_dup, x + base, dx + base, enzyme_dup, s, ds);
}

// A Gaussian-weighted histogram deposit, as in particle-in-cell codes.
__host__ __device__ double weight(double x) { return exp(-x * x) * x; }

__device__ void deposit(const double *x, double *hist, int bins) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&hist[t % bins], weight(x[t]));
}

__global__ void grad_deposit(const double *x, double *dx, double *hist, double *dhist, int bins) {
  __enzyme_autodiff((void *)deposit, enzyme_dup, x, dx, enzyme_dup, hist, dhist, enzyme_const, bins);
}

__host__ __device__ double smooth_point(const double *u, int i) {
  return 0.25 * u[i - 1] + 0.5 * u[i] * u[i] + 0.25 * sin(u[i + 1]);
}

__device__ void smooth(const double *u, double *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i > 0 && i < n - 1) v[i] = smooth_point(u, i);
}

__global__ void tangent_smooth(const double *u, const double *tu, double *v, double *tv, int n) {
  __enzyme_fwddiff((void *)smooth, enzyme_dup, u, tu, enzyme_dup, v, tv, enzyme_const, n);
}

__host__ __device__ double math_mix(double x) {
  return pow(x, 2.5) + log1p(x) + tanh(x) + atan2(x, 1.0 + x) + sqrt(x) + cbrt(x) + erf(x) + expm1(-x) +
         hypot(x, 2.0);
}

__global__ void grad_math(const double *x, double *dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = __enzyme_autodiff((void *)math_mix, enzyme_out, x[i]);
}

// A damped oscillator by symplectic Euler: the reverse sweep needs every step's state (the tape).
__host__ __device__ double oscillator(double k, double c, int steps) {
  double q = 1.0, p = 0.0, dt = 0.01;
  for (int i = 0; i < steps; i++) {
    p -= dt * (k * sin(q) + c * p * fabs(p));
    q += dt * p;
  }
  return q * q + p;
}

__global__ void grad_oscillator(const double *k, double *dk, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dk[i] = __enzyme_autodiff((void *)oscillator, enzyme_out, k[i], enzyme_const, 0.3, enzyme_const, steps);
}

static double relative_error(double got, double want) { return fabs(got - want) / fmax(1.0, fabs(want)); }

static bool report(const char *name, double worst) {
  printf("%-9s largest relative error %.3g %s\n", name, worst, worst < 1e-5 ? "ok" : "WRONG");
  return worst < 1e-5;
}

template <class T> static T *device_copy(const std::vector<T> &host) {
  T *d = nullptr;
  if (cudaMalloc(&d, host.size() * sizeof(T)) != cudaSuccess) return nullptr;
  cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}

template <class T> static std::vector<T> host_copy(const T *d, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static int overflow() {
  // 1 MB of device heap for 65536 threads of 2000 steps: the tapes cannot all fit.
  const int n = 65536, steps = 2000;
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 20));
  std::vector<double> k(n, 1.5);
  double *d_k = device_copy(k), *d_dk = device_copy(std::vector<double>(n, 0.0));
  grad_oscillator<<<n / BLOCK, BLOCK>>>(d_k, d_dk, n, steps);
  cudaError_t status = cudaDeviceSynchronize();
  if (status != cudaSuccess) {
    printf("overflow: the kernel stopped with \"%s\": ok\n", cudaGetErrorString(status));
    return 0;
  }
  std::vector<double> dk = host_copy(d_dk, n);
  const double h = 1e-6;
  double fd = (oscillator(1.5 + h, 0.3, steps) - oscillator(1.5 - h, 0.3, steps)) / (2 * h), worst = 0.0;
  for (double g : dk) worst = fmax(worst, relative_error(g, fd));
  printf("overflow: no error, every tape fitted; ");
  return report("overflow", worst) ? 0 : 1;
}

int main(int argc, char **argv) {
  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  if (argc > 1 && strcmp(argv[1], "overflow") == 0) return overflow();
  // The device heap holds the tapes; its size can only change before the first kernel that uses malloc.
  CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, (size_t)1 << 31));
  bool good = true;
  const double h = 1e-6;

  {  // block: dx_t = x_{t+1}^2 + 2 x_t x_{t-1}
    const int n = 4 * BLOCK;
    std::vector<double> x(n);
    for (int i = 0; i < n; i++) x[i] = 0.5 + 0.37 * sin(1.3 * i);
    double *d_x = device_copy(x), *d_dx = device_copy(std::vector<double>(n, 0.0));
    grad_block<<<n / BLOCK, BLOCK>>>(d_x, d_dx);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> dx = host_copy(d_dx, n);
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
      int b = i / BLOCK * BLOCK, t = i % BLOCK;
      double next = x[b + (t + 1) % BLOCK], prev = x[b + (t + BLOCK - 1) % BLOCK];
      worst = fmax(worst, relative_error(dx[i], next * next + 2.0 * x[i] * prev));
    }
    good &= report("block", worst);
  }
  {  // deposit: dx_t = dhist[t % bins] * weight'(x_t); the histogram itself is the sum of weights
    const int n = 8 * BLOCK, bins = 7;
    std::vector<double> x(n), seed(bins);
    for (int i = 0; i < n; i++) x[i] = -1.5 + 3.0 * i / n;
    for (int b = 0; b < bins; b++) seed[b] = 1.0 + 0.25 * b;
    double *d_x = device_copy(x), *d_dx = device_copy(std::vector<double>(n, 0.0));
    double *d_hist = device_copy(std::vector<double>(bins, 0.0)), *d_dhist = device_copy(seed);
    grad_deposit<<<n / BLOCK, BLOCK>>>(d_x, d_dx, d_hist, d_dhist, bins);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> dx = host_copy(d_dx, n), hist = host_copy(d_hist, bins);
    std::vector<double> want(bins, 0.0);
    double worst = 0.0;
    for (int i = 0; i < n; i++) {
      want[i % bins] += weight(x[i]);
      double d = exp(-x[i] * x[i]) * (1.0 - 2.0 * x[i] * x[i]);
      worst = fmax(worst, relative_error(dx[i], seed[i % bins] * d));
    }
    for (int b = 0; b < bins; b++) worst = fmax(worst, relative_error(hist[b], want[b]));
    good &= report("deposit", worst);
  }
  {  // smooth: tangent in direction tu against central differences of the stencil
    const int n = 1000;
    std::vector<double> u(n), tu(n);
    for (int i = 0; i < n; i++) { u[i] = cos(0.01 * i); tu[i] = 1.0 + 0.5 * sin(0.07 * i); }
    double *d_u = device_copy(u), *d_tu = device_copy(tu);
    double *d_v = device_copy(std::vector<double>(n, 0.0)), *d_tv = device_copy(std::vector<double>(n, 0.0));
    tangent_smooth<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(d_u, d_tu, d_v, d_tv, n);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> tv = host_copy(d_tv, n), plus(n), minus(n);
    for (int i = 0; i < n; i++) { plus[i] = u[i] + h * tu[i]; minus[i] = u[i] - h * tu[i]; }
    double worst = 0.0;
    for (int i = 1; i < n - 1; i++)
      worst = fmax(worst, relative_error(tv[i], (smooth_point(plus.data(), i) - smooth_point(minus.data(), i)) / (2 * h)));
    good &= report("smooth", worst);
  }
  {  // math: libdevice functions against central differences of the host libm
    const int n = 1024;
    std::vector<double> x(n);
    for (int i = 0; i < n; i++) x[i] = 0.05 + 3.0 * i / n;
    double *d_x = device_copy(x), *d_dx = device_copy(std::vector<double>(n, 0.0));
    grad_math<<<n / BLOCK, BLOCK>>>(d_x, d_dx, n);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> dx = host_copy(d_dx, n);
    double worst = 0.0;
    for (int i = 0; i < n; i++)
      worst = fmax(worst, relative_error(dx[i], (math_mix(x[i] + h) - math_mix(x[i] - h)) / (2 * h)));
    good &= report("math", worst);
  }
  bool quick = argc > 1 && strcmp(argv[1], "quick") == 0;
  if (!quick) {  // long_ode: 65536 per-thread tapes of 400 steps in device malloc memory
    const int n = 65536, steps = 400;
    std::vector<double> k(n);
    for (int i = 0; i < n; i++) k[i] = 0.5 + 2.0 * i / n;
    double *d_k = device_copy(k), *d_dk = device_copy(std::vector<double>(n, 0.0));
    grad_oscillator<<<n / BLOCK, BLOCK>>>(d_k, d_dk, n, steps);
    CHECK(cudaDeviceSynchronize());
    std::vector<double> dk = host_copy(d_dk, n);
    double worst = 0.0;
    for (int i = 0; i < n; i += 97)
      worst = fmax(worst, relative_error(dk[i], (oscillator(k[i] + h, 0.3, steps) - oscillator(k[i] - h, 0.3, steps)) / (2 * h)));
    good &= report("long_ode", worst);
  }
  printf("%s\n", good ? "ok: every device check agrees" : "WRONG: a device check disagrees");
  return good ? 0 : 1;
}

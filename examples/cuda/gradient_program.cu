// A CUDA program whose kernels differentiate __device__ functions, checked against finite differences.
//
//   enzyme-c++ -O2 gradient_program.cu -o gradient_program        (or the CMake target gradient_program)
//   ./gradient_program            -> "ok ..." and exit 0 on a machine with an NVIDIA GPU;
//                                    "CUDA error: ..." and exit 2 without one.
//
// Three kernels, one thread per data point:
//   grad_shared   reverse mode; every thread reads the same weights w, so their adjoints dw are summed over
//                 all threads (pyenzyme accumulates them with atomics in device code);
//   grad_ode      reverse mode through a time-stepping loop (an explicit ODE integrator): its reverse sweep
//                 needs the states of every step, kept on a per-thread tape in device memory;
//   tangent_ode   forward mode of the same integrator.
// The functions are __host__ __device__, so the host computes the finite differences with the same code.
#include <cmath>
#include <cstdio>
#include <cuda_runtime.h>
#include <enzyme/enzyme.h>

__host__ __device__ double weighted(const double *w, double x) { return w[0] * x * x + sin(w[1] * x) + w[2] * exp(-x); }

__host__ __device__ double ode(double k, double y0, int steps) {
  double y = y0, dt = 0.01;
  for (int i = 0; i < steps; i++) y += dt * (-k * y * y + cos(i * dt));
  return y;
}

__global__ void grad_shared(const double *w, double *dw, const double *x, double *dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dx[i] = __enzyme_autodiff((void *)weighted, enzyme_dup, w, dw, enzyme_out, x[i]);
}

__global__ void grad_ode(const double *k, const double *y0, double *dk, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dk[i] = __enzyme_autodiff((void *)ode, enzyme_out, k[i], enzyme_const, y0[i], enzyme_const, steps);
}

__global__ void tangent_ode(const double *k, const double *y0, double *tk, int n, int steps) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tk[i] = __enzyme_fwddiff((void *)ode, k[i], 1.0, enzyme_const, y0[i], enzyme_const, steps);
}

#define CHECK(call)                                                                          \
  do {                                                                                       \
    cudaError_t status_ = (call);                                                            \
    if (status_ != cudaSuccess) {                                                            \
      fprintf(stderr, "CUDA error: %s (%s, line %d)\n", cudaGetErrorString(status_), #call, __LINE__); \
      return 2;                                                                              \
    }                                                                                        \
  } while (0)

static double relative_error(double got, double want) { return fabs(got - want) / fmax(1.0, fabs(want)); }

int main() {
  const int n = 256, steps = 100;
  const double h = 1e-6;
  double w[3] = {0.7, -1.3, 0.4}, x[n], k[n], y0[n];
  for (int i = 0; i < n; i++) {
    x[i] = -1.0 + 2.0 * i / n;
    k[i] = 0.5 + 0.01 * i;
    y0[i] = 1.0 + 0.001 * i;
  }
  double *d_w, *d_dw, *d_x, *d_dx, *d_k, *d_y0, *d_dk, *d_tk;
  CHECK(cudaMalloc(&d_w, sizeof w));
  CHECK(cudaMalloc(&d_dw, sizeof w));
  CHECK(cudaMalloc(&d_x, sizeof x));
  CHECK(cudaMalloc(&d_dx, sizeof x));
  CHECK(cudaMalloc(&d_k, sizeof k));
  CHECK(cudaMalloc(&d_y0, sizeof y0));
  CHECK(cudaMalloc(&d_dk, sizeof k));
  CHECK(cudaMalloc(&d_tk, sizeof k));
  CHECK(cudaMemcpy(d_w, w, sizeof w, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_dw, 0, sizeof w));
  CHECK(cudaMemcpy(d_x, x, sizeof x, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_k, k, sizeof k, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_y0, y0, sizeof y0, cudaMemcpyHostToDevice));
  grad_shared<<<(n + 127) / 128, 128>>>(d_w, d_dw, d_x, d_dx, n);
  CHECK(cudaGetLastError());
  grad_ode<<<(n + 127) / 128, 128>>>(d_k, d_y0, d_dk, n, steps);
  CHECK(cudaGetLastError());
  tangent_ode<<<(n + 127) / 128, 128>>>(d_k, d_y0, d_tk, n, steps);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  double dw[3], dx[n], dk[n], tk[n];
  CHECK(cudaMemcpy(dw, d_dw, sizeof dw, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dx, d_dx, sizeof dx, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(dk, d_dk, sizeof dk, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(tk, d_tk, sizeof tk, cudaMemcpyDeviceToHost));

  double worst = 0.0;
  for (int j = 0; j < 3; j++) {  // d/dw_j of the sum over all points
    double plus[3] = {w[0], w[1], w[2]}, minus[3] = {w[0], w[1], w[2]}, fd = 0.0;
    plus[j] += h;
    minus[j] -= h;
    for (int i = 0; i < n; i++) fd += (weighted(plus, x[i]) - weighted(minus, x[i])) / (2 * h);
    worst = fmax(worst, relative_error(dw[j], fd));
  }
  for (int i = 0; i < n; i++) {
    double fd_x = (weighted(w, x[i] + h) - weighted(w, x[i] - h)) / (2 * h);
    double fd_k = (ode(k[i] + h, y0[i], steps) - ode(k[i] - h, y0[i], steps)) / (2 * h);
    worst = fmax(worst, relative_error(dx[i], fd_x));
    worst = fmax(worst, relative_error(dk[i], fd_k));
    worst = fmax(worst, relative_error(tk[i], fd_k));
  }
  printf("%s: largest relative error against finite differences %.3g (dw = %.6f %.6f %.6f, dk[0] = %.6f)\n",
         worst < 1e-5 ? "ok" : "WRONG", worst, dw[0], dw[1], dw[2], dk[0]);
  return worst < 1e-5 ? 0 : 1;
}

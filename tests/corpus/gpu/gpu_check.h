// Shared by the GPU corpus programs: error checks, device copies, central differences on the host.
#pragma once
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>

#define CHECK(call)                                                                                    \
  do {                                                                                                 \
    cudaError_t status_ = (call);                                                                      \
    if (status_ != cudaSuccess) {                                                                      \
      fprintf(stderr, "CUDA error: %s (%s, line %d)\n", cudaGetErrorString(status_), #call, __LINE__); \
      exit(2);                                                                                         \
    }                                                                                                  \
  } while (0)

template <class T> T *to_device(const std::vector<T> &host) {
  T *d = nullptr;
  CHECK(cudaMalloc(&d, host.size() * sizeof(T) + 1));
  CHECK(cudaMemcpy(d, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <class T> std::vector<T> to_host(const T *d, size_t n) {
  std::vector<T> host(n);
  CHECK(cudaMemcpy(host.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return host;
}

inline double rel_err(double got, double want) { return std::fabs(got - want) / std::fmax(1.0, std::fabs(want)); }

// Prints the program's verdict and returns its exit status.
inline int verdict(const char *name, double worst, double tol = 1e-6) {
  bool ok = worst < tol && !std::isnan(worst);
  printf("%s: %s, largest relative error %.3g\n", name, ok ? "ok" : "WRONG", worst);
  return ok ? 0 : 1;
}

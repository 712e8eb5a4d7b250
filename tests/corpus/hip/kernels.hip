// HIP device code for AMDGPU: kernels calling device functions, shared
// memory, atomics and ocml math (sqrt, sin).
#include <hip/hip_runtime.h>

__device__ double radial(double r2, double eps) { return sqrt(r2 + eps) * sin(r2); }

__global__ void axpy(int n, double a, const double *x, double *y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + radial(y[i] * y[i], 1e-9);
}

__global__ void reduce(const double *x, int n, double *out) {
    __shared__ double partial[128];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    partial[tid] = i < n ? x[i] : 0.0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, partial[0]);
}

__global__ void count_positive(const float *x, int n, unsigned *count) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && sqrtf(fabsf(x[i])) > 1.0f) atomicAdd(count, 1u);
}

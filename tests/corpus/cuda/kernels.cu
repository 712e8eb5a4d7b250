// CUDA device code: __global__ kernels calling __device__ functions, shared
// memory, atomics, warp shuffles and libdevice math (sqrt, sin, exp).
#include <cuda_runtime.h>

struct Particle {
    double pos[3];
    double mass;
};

__device__ double potential(double r2, double softening) { return -1.0 / sqrt(r2 + softening * softening); }

__device__ float smooth_step(float x) { return sinf(x) * __expf(-x) + sqrtf(fabsf(x)); }

__global__ void saxpy(int n, float a, const float *__restrict__ x, float *__restrict__ y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + smooth_step(y[i]);
}

__global__ void energy(const Particle *p, int n, double softening, double *total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    double e = 0;
    for (int j = 0; j < n; ++j) {
        if (j == i) continue;
        double r2 = 0;
        for (int k = 0; k < 3; ++k) {
            double d = p[i].pos[k] - p[j].pos[k];
            r2 += d * d;
        }
        e += p[i].mass * p[j].mass * potential(r2, softening) + sin(r2);
    }
    atomicAdd(total, 0.5 * e);
}

__global__ void block_sum(const double *x, int n, double *out) {
    __shared__ double partial[256];
    int tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + tid;
    partial[tid] = i < n ? x[i] : 0.0;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 32; s >>= 1) {
        if (tid < s) partial[tid] += partial[tid + s];
        __syncthreads();
    }
    double v = partial[tid];
    if (tid < 32) {
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffffu, v, offset);
        if (tid == 0) atomicAdd(out, v);
    }
}

__global__ void histogram(const int *keys, int n, unsigned *bins, int nbins) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int b = keys[i] % nbins;
        atomicAdd(&bins[b < 0 ? -b : b], 1u);
        atomicMax(&bins[0], static_cast<unsigned>(keys[i]));
    }
}

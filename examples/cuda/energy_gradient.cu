// Device code differentiated on the GPU side: each thread computes the derivative of a
// __device__ function with __enzyme_autodiff.  Built to PTX by enzyme_add_differentiable();
// running it needs a GPU and a host program that loads the PTX (or Python: docs/gpu.md); see
// gradient_program.cu for a whole CUDA program.  No markers: the double argument is active by
// default (<enzyme/enzyme.h> markers work in device code too).
extern __device__ double __enzyme_autodiff(void *, ...);

__device__ double energy(double x) { return 3.0 * x * x + x * x * x; }

// dx[i] = d energy / d x at x[i] = 6 x[i] + 3 x[i]^2.
extern "C" __global__ void energy_gradient(const double *x, double *dx, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    dx[i] = __enzyme_autodiff((void *)energy, x[i]);
  }
}

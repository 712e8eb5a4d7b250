// Lennard-Jones cluster energy with a smooth cutoff, one thread per atom: each thread sums its pair
// energies with every other atom (an array of structs in global memory, read by all threads), so the
// adjoints of the positions are accumulated by many threads at once.  Forces = -dE/dx in reverse mode,
// the directional derivative along a displacement field in forward mode; both against central differences
// of the host energy.
#include "gpu_check.h"
#include <enzyme/enzyme.h>

struct Atom { double x, y, z; int species; };

__host__ __device__ double pair_energy(const Atom &a, const Atom &b) {
  const double sigma[2] = {1.0, 1.2}, cutoff = 3.0;
  double s = 0.5 * (sigma[a.species] + sigma[b.species]);
  double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  double r2 = dx * dx + dy * dy + dz * dz;
  if (r2 > cutoff * cutoff) return 0.0;
  double sr6 = pow(s * s / r2, 3);
  double taper = 1.0 - r2 / (cutoff * cutoff);
  return 4.0 * (sr6 * sr6 - sr6) * taper * taper;
}

__host__ __device__ double atom_energy(const Atom *atoms, int i, int n) {
  double e = 0.0;
  for (int j = 0; j < n; j++)
    if (j != i) e += 0.5 * pair_energy(atoms[i], atoms[j]);
  return e;
}

__global__ void forces(const Atom *atoms, Atom *datoms, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) __enzyme_autodiff((void *)atom_energy, enzyme_dup, atoms, datoms, enzyme_const, i, enzyme_const, n);
}

__global__ void directional(const Atom *atoms, const Atom *dir, double *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = __enzyme_fwddiff((void *)atom_energy, enzyme_dup, atoms, dir, enzyme_const, i, enzyme_const, n);
}

static double total(const std::vector<Atom> &atoms) {
  double e = 0.0;
  for (int i = 0; i < (int)atoms.size(); i++) e += atom_energy(atoms.data(), i, atoms.size());
  return e;
}

int main() {
  const int side = 6, n = side * side * side;
  std::vector<Atom> atoms(n), dir(n);
  for (int i = 0; i < n; i++) {
    atoms[i] = {1.1 * (i % side) + 0.05 * sin(i), 1.1 * (i / side % side) + 0.05 * cos(2.0 * i),
                1.1 * (i / (side * side)) + 0.04 * sin(3.0 * i), i % 3 == 0};
    dir[i] = {sin(0.7 * i), cos(0.3 * i), 0.5, atoms[i].species};
  }
  Atom *d_atoms = to_device(atoms), *d_grad = to_device(std::vector<Atom>(n)), *d_dir = to_device(dir);
  double *d_out = to_device(std::vector<double>(n));
  forces<<<(n + 63) / 64, 64>>>(d_atoms, d_grad, n);
  directional<<<(n + 63) / 64, 64>>>(d_atoms, d_dir, d_out, n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::vector<Atom> grad = to_host(d_grad, n);
  std::vector<double> out = to_host(d_out, n);
  double worst = 0.0, h = 1e-6;
  for (int i = 0; i < n; i += 11) {
    for (int c = 0; c < 3; c++) {
      std::vector<Atom> p = atoms, m = atoms;
      double *pc = &p[i].x + c, *mc = &m[i].x + c;
      *pc += h; *mc -= h;
      double fd = (total(p) - total(m)) / (2 * h), got = (&grad[i].x)[c];
      worst = fmax(worst, rel_err(got, fd));
    }
  }
  std::vector<Atom> p = atoms, m = atoms;
  for (int i = 0; i < n; i++) {
    p[i].x += h * dir[i].x; p[i].y += h * dir[i].y; p[i].z += h * dir[i].z;
    m[i].x -= h * dir[i].x; m[i].y -= h * dir[i].y; m[i].z -= h * dir[i].z;
  }
  double sum = 0.0;
  for (double v : out) sum += v;
  worst = fmax(worst, rel_err(sum, (total(p) - total(m)) / (2 * h)));
  return verdict("lj_cluster", worst, 1e-5);
}

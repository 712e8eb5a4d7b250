#include "check.h"
#include <immintrin.h>
/* Hand-vectorized numerical kernels with SSE2/AVX intrinsics, as performance code writes them:
   a clipped (ReLU-like) residual with _mm_max_pd/_mm_min_pd and _mm_sqrt_pd.  clang keeps
   max/min as llvm.x86.* calls at every level; sqrt and arithmetic become plain IR.  The AVX/FMA
   kernel lives in a target("avx,fma") function: its derivatives inherit those target features (or
   the backend could not lower their 256-bit intrinsics); it is run where the CPU has AVX and FMA. */
enum { N = 8 };

double clipped_residual(const double *x, const double *y) {
  __m128d acc = _mm_setzero_pd(), lo = _mm_set1_pd(-0.5), hi = _mm_set1_pd(1.5);
  for (int i = 0; i < N; i += 2) {
    __m128d a = _mm_loadu_pd(x + i), b = _mm_loadu_pd(y + i);
    __m128d r = _mm_sub_pd(_mm_mul_pd(a, a), b);
    r = _mm_min_pd(_mm_max_pd(r, lo), hi);                 /* clamp */
    acc = _mm_add_pd(acc, _mm_mul_pd(r, _mm_sqrt_pd(_mm_add_pd(_mm_mul_pd(a, a), _mm_set1_pd(1.0)))));
  }
  double out[2];
  _mm_storeu_pd(out, acc);
  return out[0] + out[1];
}

__attribute__((target("avx,fma"))) double soft_clip_energy(const double *x, const double *y) {
  __m256d acc = _mm256_setzero_pd(), lo = _mm256_set1_pd(-1.0), hi = _mm256_set1_pd(2.0);
  for (int i = 0; i < N; i += 4) {
    __m256d a = _mm256_loadu_pd(x + i), b = _mm256_loadu_pd(y + i);
    __m256d r = _mm256_fmadd_pd(a, b, _mm256_set1_pd(0.25));   /* a*b + 0.25 */
    r = _mm256_min_pd(_mm256_max_pd(r, lo), hi);
    acc = _mm256_fmadd_pd(r, r, acc);
  }
  double out[4];
  _mm256_storeu_pd(out, acc);
  return out[0] + out[1] + out[2] + out[3];
}

static double clip_at(const double *x, const double *y, int i, double v) {
  double xx[N];
  for (int k = 0; k < N; k++) xx[k] = x[k];
  xx[i] = v;
  return clipped_residual(xx, y);
}
int main(void) {
  double x[N] = {0.3, -0.8, 1.1, 0.05, -0.45, 0.9, 1.4, -1.2}, y[N] = {0.1, 0.2, -0.3, 0.6, 0.0, 1.9, 0.4, 0.7};
  double dx[N] = {0}, dy[N] = {0}, v;
  __enzyme_autodiff((void *)clipped_residual, enzyme_dup, x, dx, enzyme_dup, y, dy);
  for (int i = 0; i < N; i++) {
    check("d clip/dx", dx[i], CENTRAL(clip_at(x, y, i, v), v, x[i]), 1e-6);
    double t[N] = {0};
    t[i] = 1;
    check("forward d clip/dx", __enzyme_fwddiff((void *)clipped_residual, enzyme_dup, x, t, enzyme_const, y), dx[i], 1e-10);
  }
  if (__builtin_cpu_supports("avx") && __builtin_cpu_supports("fma")) {
    double ex[N] = {0}, ey[N] = {0}, u[N];
    __enzyme_autodiff((void *)soft_clip_energy, enzyme_dup, x, ex, enzyme_dup, y, ey);
    for (int i = 0; i < N; i++) {
      for (int k = 0; k < N; k++) u[k] = x[k];
      check("d soft clip/dx", ex[i], CENTRAL(soft_clip_energy(u, y), u[i], x[i]), 1e-6);
      double t[N] = {0};
      t[i] = 1;
      check("forward d soft clip/dx", __enzyme_fwddiff((void *)soft_clip_energy, enzyme_dup, x, t, enzyme_const, y),
            ex[i], 1e-10);
    }
  } else {
    printf("note: no AVX/FMA on this CPU; the AVX kernel's derivatives were built, not run\n");
  }
  return finish();
}

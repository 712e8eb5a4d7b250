#include "check.h"
#include <immintrin.h>
/* Hand-vectorized numerical kernels with SSE2/AVX intrinsics, as performance code writes them:
   a clipped (ReLU-like) residual with _mm_max_pd/_mm_min_pd and _mm_sqrt_pd.  clang keeps
   max/min as llvm.x86.* calls at every level; sqrt and arithmetic become plain IR.  (AVX kernels
   in a target("avx") function: the generated derivatives do not inherit the function's
   target-features yet, so the backend cannot lower their 256-bit intrinsics.) */
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
  return finish();
}

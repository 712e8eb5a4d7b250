#include <immintrin.h>
#include "hunt.h"
/* Hand-vectorised kernels as performance-minded C is written: 64-byte aligned buffers from
   posix_memalign and aligned_alloc, SSE2 intrinsics (_mm_load_pd, _mm_mul_pd, _mm_add_pd, horizontal sum
   by _mm_unpackhi_pd) for a matrix-vector product and a 3-point smoothing stencil, and an AVX2/FMA
   version of the dot product selected at run time with __builtin_cpu_supports (function attributes,
   no global -mavx2).  Objective: a ridge-regression loss on smoothed features. */
typedef struct { double a, l; } two;
two __enzyme_autodiff_two(void *, ...);

static double dot_sse2(const double *a, const double *b, int n) {
  __m128d acc = _mm_setzero_pd();
  int i = 0;
  for (; i + 2 <= n; i += 2) acc = _mm_add_pd(acc, _mm_mul_pd(_mm_load_pd(a + i), _mm_load_pd(b + i)));
  double s = _mm_cvtsd_f64(_mm_add_sd(acc, _mm_unpackhi_pd(acc, acc)));
  for (; i < n; i++) s += a[i] * b[i];
  return s;
}

__attribute__((target("avx2,fma"))) static double dot_avx2(const double *a, const double *b, int n) {
  __m256d acc = _mm256_setzero_pd();
  int i = 0;
  for (; i + 4 <= n; i += 4) acc = _mm256_fmadd_pd(_mm256_load_pd(a + i), _mm256_load_pd(b + i), acc);
  __m128d lo = _mm256_castpd256_pd128(acc), hi = _mm256_extractf128_pd(acc, 1);
  __m128d s2 = _mm_add_pd(lo, hi);
  double s = _mm_cvtsd_f64(_mm_add_sd(s2, _mm_unpackhi_pd(s2, s2)));
  for (; i < n; i++) s += a[i] * b[i];
  return s;
}

static void smooth_sse2(const double *x, double *y, int n, double alpha) {
  __m128d wa = _mm_set1_pd(alpha), wc = _mm_set1_pd(1 - 2 * alpha);
  y[0] = x[0];
  y[n - 1] = x[n - 1];
  int i = 1;
  for (; i + 2 <= n - 1; i += 2) {
    __m128d l = _mm_loadu_pd(x + i - 1), c = _mm_loadu_pd(x + i), r = _mm_loadu_pd(x + i + 1);
    _mm_storeu_pd(y + i, _mm_add_pd(_mm_mul_pd(wc, c), _mm_mul_pd(wa, _mm_add_pd(l, r))));
  }
  for (; i < n - 1; i++) y[i] = (1 - 2 * alpha) * x[i] + alpha * (x[i - 1] + x[i + 1]);
}

double ridge_loss(const double *w, const double *features, const double *target, int m, int n, double alpha,
                  double lambda) {
  int use_avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  double *row = NULL;
  if (posix_memalign((void **)&row, 64, n * sizeof(double)) != 0) return NAN;
  double *wa = aligned_alloc(64, ((n * sizeof(double) + 63) / 64) * 64);
  memcpy(wa, w, n * sizeof(double));
  double loss = 0;
  for (int i = 0; i < m; i++) {
    smooth_sse2(features + (size_t)i * n, row, n, alpha);
    double pred = use_avx2 ? dot_avx2(row, wa, n) : dot_sse2(row, wa, n);
    double r = pred - target[i];
    loss += r * r;
  }
  loss += lambda * dot_sse2(wa, wa, n);
  free(row);
  free(wa);
  return loss / m;
}

enum { M = 12, NF = 18 };
static double *feat, w[NF], target[M];

int main(void) {
  feat = aligned_alloc(64, M * NF * sizeof(double));
  for (int i = 0; i < M; i++) {
    for (int j = 0; j < NF; j++) feat[i * NF + j] = sin(0.3 * i + 0.7 * j) + 0.1 * j;
    target[i] = cos(0.5 * i);
  }
  for (int j = 0; j < NF; j++) w[j] = 0.1 * cos(j);
  double alpha = 0.2, lambda = 0.05;
  double fd[NF + 2], ad[NF + 2];
  for (int j = 0; j < NF; j++) fd[j] = HUNT_FD(ridge_loss(w, feat, target, M, NF, alpha, lambda), w[j]);
  fd[NF] = HUNT_FD(ridge_loss(w, feat, target, M, NF, alpha, lambda), alpha);
  fd[NF + 1] = HUNT_FD(ridge_loss(w, feat, target, M, NF, alpha, lambda), lambda);
#ifdef MODE_REV
  double dw[NF] = {0};
  two g = __enzyme_autodiff_two((void *)ridge_loss, enzyme_dup, w, dw, enzyme_const, feat, enzyme_const, target, enzyme_const, M,
                enzyme_const, NF, alpha, lambda);
  for (int j = 0; j < NF; j++) ad[j] = dw[j];
  ad[NF] = g.a; ad[NF + 1] = g.l;
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NF + 2; k++) {
    double dw[NF] = {0};
    if (k < NF) dw[k] = 1;
    ad[k] = __enzyme_fwddiff((void *)ridge_loss, enzyme_dup, w, dw, enzyme_const, feat, enzyme_const, target,
                             enzyme_const, M, enzyme_const, NF, alpha, k == NF ? 1.0 : 0.0, lambda,
                             k == NF + 1 ? 1.0 : 0.0);
  }
#endif
  hunt_check_vec("grad", ad, fd, NF + 2);
  free(feat);
  return hunt_finish();
}

#include "hunt.h"
#include <complex.h>
/* Recursive radix-2 FFT on C99 double complex (even/odd split into malloc'd buffers, cexp twiddles),
   a Hann window, and a spectral objective: the log of a weighted power spectrum.  Input: the real
   signal. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

static void fft(double complex *x, int n) {
  if (n == 1) return;
  double complex *even = malloc(sizeof(double complex) * n / 2), *odd = malloc(sizeof(double complex) * n / 2);
  for (int k = 0; k < n / 2; k++) { even[k] = x[2 * k]; odd[k] = x[2 * k + 1]; }
  fft(even, n / 2);
  fft(odd, n / 2);
  for (int k = 0; k < n / 2; k++) {
    double complex t = cexp(-2.0 * I * M_PI * k / n) * odd[k];
    x[k] = even[k] + t;
    x[k + n / 2] = even[k] - t;
  }
  free(even);
  free(odd);
}

double spectral_objective(const double *signal, int n) {
  double complex *buf = malloc(sizeof(double complex) * n);
  for (int i = 0; i < n; i++) {
    double w = 0.5 - 0.5 * cos(2 * M_PI * i / (n - 1));
    buf[i] = w * signal[i];
  }
  fft(buf, n);
  double p = 0.0;
  for (int k = 1; k < n / 2; k++) p += (1.0 + k) * (creal(buf[k]) * creal(buf[k]) + cimag(buf[k]) * cimag(buf[k]));
  p += cabs(buf[0]);
  free(buf);
  return log(p);
}

enum { N = 32, NP = 6 };
static double sig[N];

int main(void) {
  for (int i = 0; i < N; i++) sig[i] = sin(0.7 * i) + 0.5 * cos(2.3 * i + 0.4) + 0.3;
  const int idx[NP] = {0, 3, 8, 15, 22, 31};
  double fd[NP], ad[NP];
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(spectral_objective(sig, N), sig[idx[q]]);
  double dsig[N] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)spectral_objective, enzyme_dup, sig, dsig, enzyme_const, N);
  for (int q = 0; q < NP; q++) ad[q] = dsig[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    dsig[idx[q]] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)spectral_objective, enzyme_dup, sig, dsig, enzyme_const, N);
    dsig[idx[q]] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dsig2[N] = {0};
  for (int q = 0; q < NP; q += 2) {
    dsig[idx[q]] = 1.0; dsig2[idx[q + 1]] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)spectral_objective, enzyme_width, 2, enzyme_dup, sig, dsig, dsig2, enzyme_const,
                               N);
    dsig[idx[q]] = 0.0; dsig2[idx[q + 1]] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)spectral_objective, enzyme_dup, sig, dsig, enzyme_const, N);
  hunt_check("primal", r.primal, spectral_objective(sig, N));
  __enzyme_reverse((void *)spectral_objective, enzyme_dup, sig, dsig, enzyme_const, N, 1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = dsig[idx[q]];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* Guards people write around singular operations, evaluated exactly at the guarded point and next
   to it: a reciprocal guarded by y != 0, a normalisation guarded by a zero norm, a softening switch,
   x*log(x) entropy with 0 log 0 = 0, a clamped division in a flux limiter ratio, and a safe
   inverse distance in a pair loop over coincident particles.  The derivative of the program is
   finite everywhere here (each guard returns a constant or a smooth branch). */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);

double guarded(const double *v, int n) {
  double s = 0.0;
  /* entropy with the 0 log 0 convention */
  for (int i = 0; i < n; i++) s += v[i] > 0.0 ? -v[i] * log(v[i]) : 0.0;
  /* guarded reciprocal */
  for (int i = 0; i < n; i++) {
    double inv = v[i] != 0.0 ? 1.0 / v[i] : 0.0;
    s += 0.01 * inv * inv * v[(i + 1) % n];
  }
  /* normalisation of the vector, skipped for a zero vector */
  double nrm2 = 0.0;
  for (int i = 0; i < n; i++) nrm2 += v[i] * v[i];
  double scale = nrm2 > 0.0 ? 1.0 / sqrt(nrm2) : 0.0;
  s += scale * v[0];
  /* limiter ratio r = a/b with r = 0 when b == 0 */
  for (int i = 1; i + 1 < n; i++) {
    double a = v[i] - v[i - 1], b = v[i + 1] - v[i];
    double r = b == 0.0 ? 0.0 : a / b;
    s += 0.1 * (r + fabs(r)) / (1.0 + fabs(r));
  }
  /* inverse distances with coincident points skipped */
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++) {
      double d = v[i] - v[j];
      double r2 = d * d;
      s += r2 > 0.0 ? 0.001 / sqrt(r2) : 0.0;
    }
  return s;
}

enum { N = 6 };
/* zeros, a repeated value (coincident points, b == 0) and ordinary values */
static double v[N] = {0.0, 0.4, 0.4, 0.9, 0.0, 1.3};

int main(void) {
  /* one-sided checks would be needed at the guarded points themselves, so finite differences are
     taken only for the ordinary components; the guarded ones must at least be finite and equal
     between modes. */
  const int ordinary[2] = {3, 5};
  double fd[2], ad[2];
  hunt_fd_step = 1e-7;
  for (int k = 0; k < 2; k++) fd[k] = HUNT_FD(guarded(v, N), v[ordinary[k]]);
  double dv[N] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)guarded, enzyme_dup, v, dv, enzyme_const, N);
  for (int k = 0; k < 2; k++) ad[k] = dv[ordinary[k]];
  hunt_check_vec("grad", ad, fd, 2);
  for (int i = 0; i < N; i++) {
    printf("D all %d %.17g\n", i, dv[i]);
    if (!isfinite(dv[i])) { printf("MISMATCH non-finite derivative dv[%d] = %g\n", i, dv[i]); hunt_failures++; }
  }
#endif
#ifdef MODE_FWD
  for (int i = 0; i < N; i++) {
    dv[i] = 1.0;
    double d = __enzyme_fwddiff((void *)guarded, enzyme_dup, v, dv, enzyme_const, N);
    dv[i] = 0.0;
    printf("D all %d %.17g\n", i, d);
    if (!isfinite(d)) { printf("MISMATCH non-finite derivative d/dv[%d] = %g\n", i, d); hunt_failures++; }
    if (i == ordinary[0]) ad[0] = d;
    if (i == ordinary[1]) ad[1] = d;
  }
  hunt_check_vec("grad", ad, fd, 2);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)guarded, enzyme_dup, v, dv, enzyme_const, N);
  __enzyme_reverse((void *)guarded, enzyme_dup, v, dv, enzyme_const, N, 1.0, r.tape);
  for (int k = 0; k < 2; k++) ad[k] = dv[ordinary[k]];
  hunt_check_vec("grad", ad, fd, 2);
  for (int i = 0; i < N; i++) {
    printf("D all %d %.17g\n", i, dv[i]);
    if (!isfinite(dv[i])) { printf("MISMATCH non-finite derivative dv[%d] = %g\n", i, dv[i]); hunt_failures++; }
  }
#endif
  return hunt_finish();
}

/* Per-thread state the way C libraries keep it: a thread-local workspace with an initializer, a
   zero-initialized call counter and a per-thread random generator. */
#include <math.h>
#include <stdint.h>

static _Thread_local double workspace[8] = {1, 2, 3, 4, 5, 6, 7, 8};
_Thread_local long tls_calls_made;
static _Thread_local uint64_t rng_state = 88172645463325252ull;

void tls_fill(double v) {
  for (int i = 0; i < 8; i++) workspace[i] = v + i;
  tls_calls_made++;
}

double tls_sum(void) {
  double s = 0;
  for (int i = 0; i < 8; i++) s += workspace[i];
  tls_calls_made++;
  return s;
}

long tls_calls(void) { return tls_calls_made; }

/* xorshift64: the same sequence in every thread that starts it. */
uint64_t tls_random(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* An objective that counts its evaluations in thread-local state. */
double counted_energy(const double *x, int n) {
  tls_calls_made++;
  double s = 0;
  for (int i = 0; i < n; i++) s += sin(x[i]) * x[i];
  return s * s;
}

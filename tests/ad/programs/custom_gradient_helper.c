/* The functions with registered gradients live in another translation unit, like a library's. noinline: the
   preoptimization before AD would otherwise inline them into their callers (the registrations do not stop it
   yet), and the rules would never be called. */
__attribute__((noinline)) double weighted_sum(double x, const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += v[i];
  return x * s;
}
__attribute__((noinline)) void scale_into(double a, const double *in, double *out, int n) {
  for (int i = 0; i < n; i++) out[i] = a * in[i];
}
__attribute__((noinline)) double noisy_constant(double x) { return 2.0 * x; }

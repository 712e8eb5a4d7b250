/* A todense pointer made inside the differentiated function, its load function reading active data: the
   engine would have to differentiate through the load function, which only exists after lowering. */
#include <stdint.h>
extern int enzyme_dup;
extern "C" double __enzyme_autodiff(void *, ...);
extern "C" double *__enzyme_todense(void *, ...) noexcept;
static double view_load(int64_t off, const double *x) { return x[off / 8]; }
static void view_store(double, int64_t, const double *) {}
double f(const double *x) {
  double *v = __enzyme_todense((void *)view_load, (void *)view_store, x);
  return v[0] * v[1];
}
int main() {
  double x[2] = {3, 4}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  return dx[0] == 4 ? 0 : 1;
}

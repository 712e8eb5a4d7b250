/* A todense pointer read and written in a form other than an accumulation (p[k] = 2 * p[k]): whether
   the load function sees the written values depends on what the optimizer forwarded, so it is refused. */
#include <stdint.h>
extern "C" double *__enzyme_todense(void *, ...) noexcept;
static double buffer[4] = {1, 2, 3, 4};
static double get(int64_t off) { return buffer[off / 8]; }
static void put(double v, int64_t off) { buffer[off / 8] = v; }
__attribute__((noinline)) void twice(double *p, int n) {
  for (int i = 0; i < n; i++) p[i] = 2 * p[i];
}
int main() {
  double *p = __enzyme_todense((void *)get, (void *)put);
  twice(p, 4);
  return buffer[3] == 8 ? 0 : 1;
}

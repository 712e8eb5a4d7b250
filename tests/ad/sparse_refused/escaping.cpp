/* A todense pointer stored into memory: its later uses cannot be followed, so it is refused. */
#include <stdint.h>
extern "C" double *__enzyme_todense(void *, ...) noexcept;
static double get(int64_t off) { return (double)off; }
static void put(double, int64_t) {}
double *volatile slot;
int main() {
  slot = __enzyme_todense((void *)get, (void *)put);
  return slot[1] == 8.0 ? 0 : 1;
}

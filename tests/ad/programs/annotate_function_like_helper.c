#include <math.h>
/* A "vendor" log1p: its own series for small arguments (code pyenzyme would otherwise differentiate as is);
   annotate_function_like.c declares it function_like log1p. */
__attribute__((noinline)) double vendor_log1p(double x) {
  if (fabs(x) > 0.25) return log(1 + x);
  double term = x, sum = 0;
  for (int k = 1; k < 40; k++) {
    sum += (k % 2 ? term : -term) / k;
    term *= x;
  }
  return sum;
}

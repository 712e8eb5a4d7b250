#include <math.h>
/* Defined in a file of its own, without the attribute: annotate_inactive.c declares it inactive.
   noinline, as for any function with a registered rule: calls here must stay calls. */
__attribute__((noinline))
double measurement_noise(double t) { return 0.05 * sin(1e3 * t) + 0.01 * cos(7e2 * t); }

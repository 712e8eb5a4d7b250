#include "check.h"
#include <stdint.h>
#include <string.h>
/* enzyme_function_like("exp") and upstream's __enzyme_function_like table: fast approximations that are
   differentiated with the rule of the function they stand for, which takes the approximation's own result
   where it uses the result (exp' = exp), as upstream's rules do.  A tabulated exponential (its own
   derivative would be the slope of a table segment), a square root made from the bits (integer code the
   engine could not follow), and an external routine only declared here.  Checked against those rules in
   reverse, forward, split and batch mode. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_autodiff_v2(void *, ...);

enum { TABLE = 64 };
static double exp_table[TABLE + 1];   /* exp on [-4, 0] in steps of 1/16 */

static void fill_table(void) {
  for (int i = 0; i <= TABLE; i++) exp_table[i] = exp(-4.0 + i / 16.0);
}

__attribute__((enzyme_function_like("exp"))) double table_exp(double x) {
  double u = (x + 4.0) * 16.0;
  int i = (int)u;
  if (i < 0) i = 0;
  if (i >= TABLE) i = TABLE - 1;
  double w = u - i;
  return (1 - w) * exp_table[i] + w * exp_table[i + 1];
}

double bit_sqrt(double x) {
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b = (b >> 1) + (1023ULL << 51);
  double y;
  memcpy(&y, &b, sizeof y);
  for (int i = 0; i < 6; i++) y = 0.5 * (y + x / y);
  return y;
}
void *__enzyme_function_like[2] = {(void *)bit_sqrt, (void *)"sqrt"};

/* Defined in annotate_function_like_helper.c (think: a vendor math library). */
__attribute__((enzyme_function_like("log1p"))) double vendor_log1p(double x);

double energy(double x, double s) {
  return table_exp(-x * x) * bit_sqrt(1 + s * x * x) + vendor_log1p(s * x);
}

int main(void) {
  fill_table();
  double x = 0.7, s = 0.3;   /* s * x < 0.25: the series branch of vendor_log1p */
  double e = table_exp(-x * x), q = sqrt(1 + s * x * x);
  double dx = -2 * x * e * q + e * s * x / q + s / (1 + s * x);
  double ds = e * x * x / (2 * q) + x / (1 + s * x);
  /* The table's own slope differs from exp' = exp: the checks below tell the rule from the code. */
  int i = (int)((-x * x + 4.0) * 16.0);
  double slope = (exp_table[i + 1] - exp_table[i]) * 16.0;
  check("table slope differs from its value", fabs(slope - e) > 1e-3, 1, 0);
  check("reverse", __enzyme_autodiff((void *)energy, x, enzyme_const, s), dx, 1e-12);
  check("forward", __enzyme_fwddiff((void *)energy, x, 1.0, enzyme_const, s), dx, 1e-12);
  check("forward ds", __enzyme_fwddiff((void *)energy, x, 0.0, s, 1.0), ds, 1e-12);
  aug_t aug = __enzyme_augmentfwd((void *)energy, x, enzyme_const, s);
  check("split", __enzyme_reverse((void *)energy, x, enzyme_const, s, 1.0, aug.tape), dx, 1e-12);
  v2 both = __enzyme_autodiff_v2((void *)energy, enzyme_width, 2, x, enzyme_const, s);
  check("batch reverse 0", both.d[0], dx, 1e-12);
  check("batch reverse 1", both.d[1], dx, 1e-12);
  return finish();
}

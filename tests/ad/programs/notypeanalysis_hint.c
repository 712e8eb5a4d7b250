#include "check.h"
/* enzyme_notypeanalysis on a global whose union members are used as a pointer and as an integer: accepted
   as a hint (pyenzyme's type analysis refuses what conflicting uses would make ambiguous rather than
   guessing, so there is nothing to switch off); the derivative through the other operations is checked
   against central differences. */
union slot {
  long bits;
  double *where;
};

__attribute__((enzyme_notypeanalysis)) static union slot log_slot;

static double ratio(double x, double y) {
  double r = x / y;
  *log_slot.where = x * r;      /* a side record through the pointer member */
  return r * r + (double)(log_slot.bits != 0);
}

int main(void) {
  static double record[1];
  log_slot.where = record;
  double x = 1.7, y = 0.6, p;
  double dx = __enzyme_autodiff((void *)ratio, x, enzyme_const, y);
  check("d ratio / dx", dx, CENTRAL(ratio(p, y), p, x), 1e-6);
  check("analytic", dx, 2 * x / (y * y), 1e-12);
  return finish();
}

#include "check.h"
#include <string.h>
/* Upstream's gradient-logging hook (test/Integration/ReverseMode/logger.cpp): a program that defines
   enzymeLogGrad gets it called by every reverse sweep, once per active floating-point operation, with that
   operation's adjoint.  The adjoints are checked against the chain rule by hand, in combined, split and
   batch reverse mode; forward mode has no adjoints and calls nothing. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
v2 __enzyme_autodiff_v2(void *, ...);

enum { MAX_LOG = 32 };
static int calls = 0;
static double grads[MAX_LOG];
static char opcodes[MAX_LOG][8], functions[MAX_LOG][8];

void enzymeLogGrad(double grad, const char *opcode, const char *callee, const char *module, const char *function,
                   unsigned block, unsigned inst) {
  (void)callee, (void)module, (void)block, (void)inst;
  if (calls < MAX_LOG) {
    grads[calls] = grad;
    strncpy(opcodes[calls], opcode, 7);
    strncpy(functions[calls], function, 7);
  }
  calls++;
}

double fun(double x) {
  double v1 = x * 3;
  double v2 = 1 - v1;
  double v3 = x * x;
  double v4 = v2 / v3;
  double v5 = v3 + v4;
  return v5;
}

/* The adjoints, in the order the reverse sweep meets the operations: v5, v4, v3 (complete once v4 has
   added its share), v2, v1. */
static void check_log(const char *mode, int first, double x, double seed) {
  double v2 = 1 - 3 * x, v3 = x * x;
  double expect[5] = {seed, seed, seed * (1 - v2 / (v3 * v3)), seed / v3, -seed / v3};
  const char *ops[5] = {"fadd", "fdiv", "fmul", "fsub", "fmul"};
  for (int i = 0; i < 5; i++) {
    check(mode, grads[first + i], expect[i], 1e-13);
    check(ops[i], strcmp(opcodes[first + i], ops[i]) == 0 && strcmp(functions[first + i], "fun") == 0, 1, 0);
  }
}

int main(void) {
  double x = 2.0, grad = 2 * x - (2 - 3 * x) / (x * x * x);
  check("gradient", __enzyme_autodiff((void *)fun, x), grad, 1e-12);
  check("one call per operation", calls, 5, 0);
  check_log("combined", 0, x, 1.0);

  aug_t aug = __enzyme_augmentfwd((void *)fun, x);
  check("split gradient", __enzyme_reverse((void *)fun, x, 0.5, aug.tape), 0.5 * grad, 1e-12);
  check("split calls", calls, 10, 0);
  check_log("split", 5, x, 0.5);

  v2 both = __enzyme_autodiff_v2((void *)fun, enzyme_width, 2, x);
  check("batch gradient", both.d[0] + both.d[1], 2 * grad, 1e-12);
  check("batch calls: one per operation and direction", calls, 20, 0);

  check("forward gradient", __enzyme_fwddiff((void *)fun, x, 1.0), grad, 1e-12);
  check("forward calls nothing", calls, 20, 0);
  return finish();
}

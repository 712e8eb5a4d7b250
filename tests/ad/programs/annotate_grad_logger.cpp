#include "check.h"
#include <cmath>
#include <cstring>
/* Upstream's logger test (test/Integration/ReverseMode/logger.cpp) with its fuller hook: the primal result
   and operands come along with the adjoint.  C++, the hook not extern "C", as upstream writes it. */
static int calls = 0;
static double results[8], adjoints[8], operand0[8], operand1[8];
static unsigned operand_counts[8];
static char callees[8][8];

void enzymeLogGrad(double res, double grad, const char *opcodeName, const char *calleeName, const char *moduleName,
                   const char *functionName, unsigned blockIdx, unsigned instIdx, unsigned numOperands,
                   double *operands) {
  (void)opcodeName, (void)moduleName, (void)functionName, (void)blockIdx, (void)instIdx;
  if (calls < 8) {
    results[calls] = res;
    adjoints[calls] = grad;
    operand_counts[calls] = numOperands;
    operand0[calls] = operands[0];
    operand1[calls] = numOperands > 1 ? operands[1] : 0;
    std::strncpy(callees[calls], calleeName, 7);
  }
  ++calls;
}

double fun(double x) {
  double v1 = std::sin(x);     // a call with a rule: logged with its callee
  double v2 = v1 * x;
  return v2;
}

int main() {
  double x = 0.6;
  double g = __enzyme_autodiff((void *)fun, x);
  check("gradient", g, std::cos(x) * x + std::sin(x), 1e-12);
  check("calls", calls, 2, 0);
  // v2 = v1 * x first: adjoint 1, operands (sin x, x); then v1 = sin(x): adjoint x, operand x.
  check("v2 result", results[0], std::sin(x) * x, 1e-15);
  check("v2 adjoint", adjoints[0], 1.0, 1e-15);
  check("v2 operands", operand_counts[0], 2, 0);
  // The optimizer may swap a product's operands: compare them as a pair.
  check("v2 operands' sum", operand0[0] + operand1[0], std::sin(x) + x, 1e-15);
  check("v2 operands' product", operand0[0] * operand1[0], std::sin(x) * x, 1e-15);
  check("sin result", results[1], std::sin(x), 1e-15);
  check("sin adjoint", adjoints[1], x, 1e-15);
  check("sin operand", operand0[1], x, 1e-15);
  check("sin callee", std::strcmp(callees[1], "sin"), 0, 0);
  return finish();
}

#include "hunt.h"
/* C driver for ridge.rs: gradient of the validation/marginal-likelihood objective of kernel ridge
   regression with respect to the three log-hyperparameters and to the training inputs. */
#include <stddef.h>
double ridge_objective(const double *hyper, const double *train, size_t ntrain, const double *valid, size_t nvalid);

enum { NT = 12, NV = 7 };
static double hyper[3] = {-1.0, 0.2, -3.0}, train[3 * NT], valid[3 * NV];

static double f(double a, double b) { return sin(3 * a) * cos(2 * b) + 0.3 * a * b; }

int main(void) {
  for (int i = 0; i < NT; i++) {
    double a = 0.9 * sin(1.7 * i + 0.3), b = 0.8 * cos(2.3 * i);
    train[3 * i] = a; train[3 * i + 1] = b; train[3 * i + 2] = f(a, b) + 0.02 * sin(7.0 * i);
  }
  for (int i = 0; i < NV; i++) {
    double a = 0.7 * cos(1.1 * i), b = 0.6 * sin(0.9 * i + 1);
    valid[3 * i] = a; valid[3 * i + 1] = b; valid[3 * i + 2] = f(a, b);
  }
  enum { NQ = 3 + 4 };
  double *prim[NQ] = {&hyper[0], &hyper[1], &hyper[2], &train[0], &train[4], &train[3 * 5 + 2], &train[3 * NT - 3]};
  double fd[NQ], ad[NQ];
  for (int q = 0; q < NQ; q++) fd[q] = HUNT_FD(ridge_objective(hyper, train, NT, valid, NV), *prim[q]);
#ifdef MODE_REV
  double dh[3] = {0}, dt[3 * NT] = {0};
  __enzyme_autodiff((void *)ridge_objective, enzyme_dup, hyper, dh, enzyme_dup, train, dt, enzyme_const, (size_t)NT,
                    enzyme_const, valid, enzyme_const, (size_t)NV);
  double *shad[NQ] = {&dh[0], &dh[1], &dh[2], &dt[0], &dt[4], &dt[3 * 5 + 2], &dt[3 * NT - 3]};
  for (int q = 0; q < NQ; q++) ad[q] = *shad[q];
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NQ; q++) {
    double dh[3] = {0}, dt[3 * NT] = {0};
    double *shad[NQ] = {&dh[0], &dh[1], &dh[2], &dt[0], &dt[4], &dt[3 * 5 + 2], &dt[3 * NT - 3]};
    *shad[q] = 1;
    ad[q] = __enzyme_fwddiff((void *)ridge_objective, enzyme_dup, hyper, dh, enzyme_dup, train, dt, enzyme_const,
                             (size_t)NT, enzyme_const, valid, enzyme_const, (size_t)NV);
  }
#endif
  hunt_check_vec("grad", ad, fd, NQ);
  return hunt_finish();
}

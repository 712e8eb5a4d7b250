#include <stdio.h>
extern int enzyme_dup, enzyme_const;
float __enzyme_autodiff(void *, ...);
float energy4(const float *x, int n);
int main(void) {
  float x[3] = {0.5f, -1.0f, 2.0f}, dx[3] = {0, 0, 0};
  __enzyme_autodiff((void *)energy4, enzyme_dup, x, dx, enzyme_const, 3);
  printf("%g %g %g\n", dx[0], dx[1], dx[2]);
  return 0;
}

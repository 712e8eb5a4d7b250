/* Forward mode with an enzyme_dupnoneed output that the function reads back after writing: the primal
   writes are left out (the caller passes no buffer), so that read would see memory never written. */
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const;
extern void __enzyme_fwddiff(void *, ...);
__attribute__((noinline)) double peek(volatile double *y, int i) { return y[i]; }
void model(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++) y[i] = x[i] * x[i];
  for (int i = 1; i < n; i++) y[i] += 0.5 * peek(y, i - 1);
}
int main(void) {
  double x[3] = {1, 2, 3}, dx[3] = {1, 0, 0}, dy[3] = {0};
  __enzyme_fwddiff((void *)model, enzyme_dup, x, dx, enzyme_dupnoneed, (double *)0, dy, enzyme_const, 3);
  return dy[0] == 2.0 ? 0 : 1;
}

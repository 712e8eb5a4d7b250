#include "check.h"
#include <stdint.h>
/* A small handle table as C code keeps one: each slot holds the address of a coefficient block as an
   integer (uintptr_t, the way some libraries hide pointers in opaque handles), and the blocks are reached
   again through the handles.  The integer stored into a slot is the address of memory with a shadow: the
   slot's shadow must receive the shadow's address. */
typedef struct {
  uintptr_t handle; /* a double[2] block */
  int owner;
} slot;

double handle_table_energy(double *coeff, int n) {
  slot table[8];
  for (int i = 0; i < n; i++) {
    table[n - 1 - i].handle = (uintptr_t)(coeff + 2 * i);
    table[n - 1 - i].owner = i;
  }
  double e = 0;
  for (int i = 0; i < n; i++) {
    double *block = (double *)table[i].handle;
    e += block[0] * block[1] * (table[i].owner + 1) + block[0] * block[0];
  }
  return e;
}

int main(void) {
  enum { N = 4 };
  double c[2 * N], dc[2 * N];
  for (int i = 0; i < 2 * N; i++) {
    c[i] = 0.5 + 0.25 * i;
    dc[i] = 0;
  }
  __enzyme_autodiff((void *)handle_table_energy, enzyme_dup, c, dc, enzyme_const, N);
  for (int i = 0; i < 2 * N; i++) {
    int b = i / 2;
    double expected = (i % 2 == 0) ? c[i + 1] * (b + 1) + 2 * c[i] : c[i - 1] * (b + 1);
    check("reverse", dc[i], expected, 1e-12);
    double t[2 * N] = {0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)handle_table_energy, enzyme_dup, c, t, enzyme_const, N), expected, 1e-12);
    double q[2 * N];
    for (int j = 0; j < 2 * N; j++) q[j] = c[j];
    check("central", CENTRAL(handle_table_energy(q, N), q[i], c[i]), expected, 1e-6);
  }
  return finish();
}

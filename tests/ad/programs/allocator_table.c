/* A library that takes its memory from an allocator table (a struct holding the allocation function,
   malloc by default) and hands work buffers out of a helper: the helper returns what the indirect call
   returned, so it is an allocator wrapper whose blocks need shadows (the dispatcher's wrapper of malloc
   is made after the first look at the helper).  Checked against the analytic derivative, central
   differences and forward mode. */
#include "check.h"

typedef struct {
  int blocks_in_use;
  void *(*allocate)(size_t);
} AllocatorTable;

AllocatorTable system_allocator = {0, malloc};

__attribute__((noinline)) static double *work_buffer(int n) {
  return (double *)system_allocator.allocate(n * sizeof(double));
}

/* A scalar staged through one buffer element.  The buffers belong to the allocator's arena, released
   with the whole arena (here: when the program ends), so the function does not free them. */
static double staged_cube(double s) {
  double *m = work_buffer(1);
  *m = s;
  return m[0] * m[0] * m[0];
}

int main(void) {
  CHECK_SCALAR("staged cube", staged_cube, 1.3, 3 * 1.3 * 1.3);
  return finish();
}

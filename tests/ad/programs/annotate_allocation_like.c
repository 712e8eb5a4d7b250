#include "check.h"
#include <string.h>
/* Upstream's __enzyme_allocation_like table: scratch blocks come from a pool with a free list, not malloc.
   {allocator, index of its size argument, the deallocator's arguments as allocator argument indices (-1:
   the block), deallocator}.  Each shadow block comes from the same pool, zeroed (the pool never zeroes its
   blocks), and goes back to it through the deallocator.  Checked against the analytic gradient in reverse,
   forward, split and batch mode, and the pool's count of live blocks is back to zero afterwards. */
typedef struct { void *tape; double primal; } aug_t;
typedef struct { double d[2]; } v2;
extern int enzyme_width;
aug_t __enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
void __enzyme_autodiff_void(void *, ...);

enum { BLOCK = 256, BLOCKS = 64, N = 4 };
struct pool { char *next; void *free_list; int live; };
static char storage[BLOCKS * BLOCK];
static struct pool scratch = {storage, 0, 0};

__attribute__((noinline)) void *pool_alloc(struct pool *p, size_t n) {
  if (n > BLOCK) abort();
  p->live++;
  if (p->free_list) {
    void *b = p->free_list;
    p->free_list = *(void **)b;
    return b;
  }
  void *b = p->next;
  p->next += BLOCK;
  return b;
}
__attribute__((noinline)) void pool_free(struct pool *p, void *b) {
  *(void **)b = p->free_list;
  p->free_list = b;
  p->live--;
}
void *__enzyme_allocation_like[4] = {(void *)pool_alloc, (void *)1, (void *)"0,-1", (void *)pool_free};

double smooth_norm(const double *x, int n) {
  double *w = pool_alloc(&scratch, n * sizeof(double));
  for (int i = 0; i < n; i++) w[i] = x[i] * x[i] + 0.1;
  double s = 0;
  for (int i = 0; i < n; i++) s += sqrt(w[i]);
  pool_free(&scratch, w);
  return s;
}

int main(void) {
  memset(storage, 0xAB, sizeof storage);
  double x[N] = {0.3, -1.2, 2.0, 0.05}, expect[N];
  for (int i = 0; i < N; i++) expect[i] = x[i] / sqrt(x[i] * x[i] + 0.1);

  double dx[N] = {0};
  __enzyme_autodiff((void *)smooth_norm, x, dx, N);
  for (int i = 0; i < N; i++) check("reverse", dx[i], expect[i], 1e-12);
  check("reverse released", scratch.live, 0, 0);

  for (int i = 0; i < N; i++) {
    double t[N] = {0};
    t[i] = 1;
    check("forward", __enzyme_fwddiff((void *)smooth_norm, x, t, N), expect[i], 1e-12);
  }
  check("forward released", scratch.live, 0, 0);

  double sx[N] = {0};
  aug_t aug = __enzyme_augmentfwd((void *)smooth_norm, x, sx, N);
  __enzyme_reverse((void *)smooth_norm, x, sx, N, 1.0, aug.tape);
  for (int i = 0; i < N; i++) check("split", sx[i], expect[i], 1e-12);
  check("split released", scratch.live, 0, 0);

  double g1[N] = {0}, g2[N] = {0};
  __enzyme_autodiff_void((void *)smooth_norm, enzyme_width, 2, x, g1, g2, N);
  for (int i = 0; i < N; i++) {
    check("batch reverse 0", g1[i], expect[i], 1e-12);
    check("batch reverse 1", g2[i], expect[i], 1e-12);
  }
  check("batch released", scratch.live, 0, 0);
  return finish();
}

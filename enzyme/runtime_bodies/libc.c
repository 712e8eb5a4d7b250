/* Differentiable bodies of C library functions that move user data in ways only their code shows.
 *
 * qsort (and glibc's qsort_r, whose comparator also takes a context argument) permutes the elements of its
 * array: the derivative must permute the elements' tangents (forward mode) and send the adjoints back to where
 * each element came from (reverse mode).  pyenzyme differentiates a call of qsort as a call of
 * __pyenzyme_body_qsort below (qsort_r: __pyenzyme_body_qsort_r, bsearch: __pyenzyme_body_bsearch); the
 * program itself keeps calling the C library.  The body is a heapsort that moves whole elements with memcpy
 * (so the engine moves their derivatives with them, typed by what the caller stores in the array) and
 * compares them with the caller's comparator.  Elements that compare equal may end up in another order than
 * the C library's (qsort does not promise one either).
 */
#include <stdlib.h>
#include <string.h>

typedef int (*compare_fn)(const void *, const void *);
typedef int (*compare_r_fn)(const void *, const void *, void *);

static void swap_elements(char *a, char *b, size_t size, char *tmp) {
  memcpy(tmp, a, size);
  memcpy(a, b, size);
  memcpy(b, tmp, size);
}

/* Restores the max-heap below root in base[0, n). */
static void sift_down(char *base, size_t root, size_t n, size_t size, compare_fn cmp, char *tmp) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size) < 0) child++;
    if (cmp(base + root * size, base + child * size) >= 0) return;
    swap_elements(base + root * size, base + child * size, size, tmp);
    root = child;
  }
}

__attribute__((weak)) void __pyenzyme_body_qsort(void *array, size_t n, size_t size, compare_fn cmp) {
  char *base = array;
  if (n < 2 || size == 0) return;
  char *tmp = malloc(size);
  for (size_t k = n / 2; k-- > 0;) sift_down(base, k, n, size, cmp, tmp);
  for (size_t end = n - 1; end > 0; end--) {
    swap_elements(base, base + end * size, size, tmp);
    sift_down(base, 0, end, size, cmp, tmp);
  }
  free(tmp);
}

/* The same for glibc's qsort_r, whose comparator also takes the caller's context argument. */
static void sift_down_r(char *base, size_t root, size_t n, size_t size, compare_r_fn cmp, void *arg, char *tmp) {
  for (;;) {
    size_t child = 2 * root + 1;
    if (child >= n) return;
    if (child + 1 < n && cmp(base + child * size, base + (child + 1) * size, arg) < 0) child++;
    if (cmp(base + root * size, base + child * size, arg) >= 0) return;
    swap_elements(base + root * size, base + child * size, size, tmp);
    root = child;
  }
}

__attribute__((weak)) void __pyenzyme_body_qsort_r(void *array, size_t n, size_t size, compare_r_fn cmp, void *arg) {
  char *base = array;
  if (n < 2 || size == 0) return;
  char *tmp = malloc(size);
  for (size_t k = n / 2; k-- > 0;) sift_down_r(base, k, n, size, cmp, arg, tmp);
  for (size_t end = n - 1; end > 0; end--) {
    swap_elements(base, base + end * size, size, tmp);
    sift_down_r(base, 0, end, size, cmp, arg, tmp);
  }
  free(tmp);
}

/* bsearch returns a pointer into the caller's array (or null): the derivative's pointer is the same element
   of the array's shadow, which the body's address arithmetic gives.  The comparator only reads.  (glibc
   inlines bsearch when optimizing; at -O0 it is a call.) */
__attribute__((weak)) void *__pyenzyme_body_bsearch(const void *key, const void *array, size_t n, size_t size,
                                                    compare_fn cmp) {
  const char *base = array;
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const char *elem = base + mid * size;
    int c = cmp(key, elem);
    if (c < 0)
      hi = mid;
    else if (c > 0)
      lo = mid + 1;
    else
      return (void *)elem;
  }
  return 0;
}

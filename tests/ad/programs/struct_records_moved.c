/* Records mixing doubles with integers moved whole (were refused: "realloc of a buffer accessed as several
   types", "type analysis cannot tell which copied bytes"): the declared struct type and the accesses give
   each record's float fields, and the reverse sweep moves their adjoints record by record.  Derivatives
   against central differences, reverse and forward. */
#include <string.h>
#include "check.h"

struct item { double v; long k; };

/* realloc of a buffer of {double, long} records, filled after the growth */
double grown(double *x, int n) {
  struct item *b = malloc(sizeof(struct item));
  b[0].v = x[0]; b[0].k = 1;
  b = realloc(b, n * sizeof(struct item));
  for (int i = 1; i < n; i++) { b[i].v = x[i] * b[i - 1].v; b[i].k = b[i - 1].k + i; }
  double s = b[n - 1].v * b[n - 1].k;
  free(b);
  return s;
}

struct rec { long id; double v; };
struct list { struct rec *data; long len, cap; };

__attribute__((noinline)) static void push(struct list *l, struct rec it) {
  if (l->len == l->cap) { l->cap = l->cap ? 2 * l->cap : 2; l->data = realloc(l->data, l->cap * sizeof(struct rec)); }
  l->data[l->len++] = it;
}

/* a growable array whose address lives in a struct, elements copied in whole */
double listed(double *x, int n) {
  struct list l = {0, 0, 0};
  for (int i = 0; i < n; i++) push(&l, (struct rec){i + 1, x[i] * x[i]});
  double s = 0;
  for (long i = 0; i < l.len; i++) s += l.data[i].v * l.data[i].id;
  free(l.data);
  return s;
}

typedef struct { double v; int tag; float w; } Item;

/* w is only copied here; the caller reads it afterwards */
__attribute__((noinline)) static double copy_items(Item *dst, const Item *src, int n) {
  memcpy(dst, src, n * sizeof(Item));
  double s = 0;
  for (int i = 0; i < n; i++) s += dst[i].v * (double)dst[i].tag;
  return s;
}

double copied(double *x, int n) {
  Item src[4], dst[4];
  for (int i = 0; i < n; i++) { src[i].v = x[i]; src[i].tag = i + 1; src[i].w = (float)(x[i] * 0.5); }
  double s = copy_items(dst, src, n);
  for (int i = 0; i < n; i++) s += 3.0 * dst[i].w;
  return s;
}

#define CHECK_GRADIENT(name, f, x, n, hrel, tol) do { double _g[8] = {0}, _dx[8] = {0}; char _w[64]; \
  __enzyme_autodiff((void *)f, enzyme_dup, x, _g, enzyme_const, n); \
  for (int _k = 0; _k < (n); _k++) { \
    double _fd = CENTRAL_H(f(x, n), x[_k], x[_k], hrel); \
    snprintf(_w, sizeof _w, "%s reverse d%d", name, _k); check(_w, _g[_k], _fd, tol); \
    _dx[_k] = 1.0; snprintf(_w, sizeof _w, "%s forward d%d", name, _k); \
    check(_w, __enzyme_fwddiff((void *)f, enzyme_dup, x, _dx, enzyme_const, n), _fd, tol); _dx[_k] = 0.0; \
  } } while (0)

int main(void) {
  double x[4] = {0.9, 1.1, -0.7, 1.3};
  CHECK_GRADIENT("grown", grown, x, 4, 1e-6, 1e-6);
  CHECK_GRADIENT("listed", listed, x, 4, 1e-6, 1e-6);
  double y[4] = {0.5, 0.25, -0.75, 1.5}; /* linear in y; a wide step keeps float rounding out of the FD */
  CHECK_GRADIENT("copied", copied, y, 4, 1e-2, 1e-4);
  return finish();
}

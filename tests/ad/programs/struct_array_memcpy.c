#include "check.h"
#include <string.h>
/* An array of tagged samples {double v; long tag;} copied whole with memcpy (variable length) before a
   weighted sum: the copy's adjoints move per record, doubles only. */
typedef struct {
  double v;
  long tag;
} Item;

double weighted(Item *dst, const Item *src, int n) {
  memcpy(dst, src, n * sizeof(Item));
  double s = 0;
  for (int i = 0; i < n; i++) s += dst[i].v * dst[i].v * (double)dst[i].tag;
  return s;
}

enum { N = 5 };
static void init(Item *it) {
  for (int i = 0; i < N; i++) it[i] = (Item){0.5 + 0.3 * i, i + 1};
}

int main(void) {
  Item src[N], dsrc[N], dst[N], ddst[N];
  init(src);
  memset(dsrc, 0, sizeof dsrc);
  memset(ddst, 0, sizeof ddst);
  __enzyme_autodiff((void *)weighted, enzyme_dup, dst, ddst, enzyme_dup, src, dsrc, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    check("reverse", dsrc[k].v, 2 * src[k].v * src[k].tag, 1e-12);
    check("tag untouched", (double)dsrc[k].tag, 0.0, 0.0);
    Item t[N], z[N], q[N];
    memset(t, 0, sizeof t);
    memset(z, 0, sizeof z);
    t[k].v = 1;
    check("forward", __enzyme_fwddiff((void *)weighted, enzyme_dup, dst, z, enzyme_dup, src, t, enzyme_const, N),
          dsrc[k].v, 1e-12);
    double x = 0;
    check("central", CENTRAL((init(q), q[k].v = x, weighted(dst, q, N)), x, src[k].v), dsrc[k].v, 1e-6);
  }
  return finish();
}

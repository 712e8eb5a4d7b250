/* Index ranges carried in structs, split recursively: the integer fields are only copied from struct to struct
   (one by one and by struct assignment) and compared, never used as integers in a way that types them; at -O0,
   where clang emits no TBAA, their declared types say they hold no floats (field_tags.py). */
#include "check.h"
#include <stdlib.h>

typedef struct {
  long lo, hi;      /* rows [lo, hi) */
  long clo, chi;    /* columns [clo, chi) */
  double *data;     /* 8 x 8, row-major */
} Window;

typedef struct {
  long start, end;
  double *data;
} Span;

static double span_sum(Span *s) {
  if (s->end - s->start > 1) {
    Span *rest = malloc(sizeof(Span));
    rest->data = s->data;
    rest->start = s->start + 1;
    rest->end = s->end;         /* copied, never used as an integer here */
    double first = s->data[s->start] * s->data[s->start];
    double r = span_sum(rest);
    free(rest);
    return first + r;
  }
  return s->data[s->start] * s->data[s->start];
}

static double window_sum(Window *w) {
  if (w->hi - w->lo > 2 || w->chi - w->clo > 2) {
    Window *a = malloc(sizeof(Window)), *b = malloc(sizeof(Window));
    *a = *w;
    *b = *w;
    if (w->hi - w->lo >= w->chi - w->clo) {
      long mid = w->lo + (w->hi - w->lo) / 2;
      a->hi = mid;
      b->lo = mid;
    } else {
      long mid = w->clo + (w->chi - w->clo) / 2;
      a->chi = mid;
      b->clo = mid;
    }
    double s = window_sum(a) + window_sum(b);
    free(a);
    free(b);
    return s;
  }
  double s = 0;
  for (long r = w->lo; r < w->hi; r++)
    for (long c = w->clo; c < w->chi; c++)
      s += sin(w->data[r * 8 + c]) * (double)(r + 1);
  return s;
}

double spans(double *x) {
  Span s = {0, 8, x};
  return span_sum(&s);
}

double windows(double *x) {
  Window w = {0, 8, 0, 8, x};
  return window_sum(&w);
}

int main(void) {
  double x[64], dx[64], v[64];
  for (int i = 0; i < 64; i++) x[i] = 0.1 * i - 2.0;
  for (int i = 0; i < 64; i++) dx[i] = 0;
  __enzyme_autodiff((void *)spans, enzyme_dup, x, dx);
  for (int i = 0; i < 8; i++) check("span analytic", dx[i], 2 * x[i], 1e-12);
  for (int i = 8; i < 64; i++) check("span untouched", dx[i], 0, 0);
  for (int i = 0; i < 64; i++) dx[i] = 0;
  __enzyme_autodiff((void *)windows, enzyme_dup, x, dx);
  for (int i = 0; i < 64; i += 5) {
    double t[64] = {0};
    t[i] = 1;
    check("window analytic", dx[i], cos(x[i]) * (i / 8 + 1), 1e-12);
    check("window forward", __enzyme_fwddiff((void *)windows, enzyme_dup, x, t), dx[i], 1e-12);
    for (int k = 0; k < 64; k++) v[k] = x[k];
    check("window central", CENTRAL(windows(v), v[i], x[i]), dx[i], 1e-6);
  }
  return finish();
}

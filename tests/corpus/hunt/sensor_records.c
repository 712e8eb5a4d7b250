#include "hunt.h"
/* Calibration of a sensor network from logged records {float gain; double reading; short channel; char ok;
   double weight}: records are read into a ring buffer of structs, the oldest half discarded by memmove of
   the remaining records to the front, the buffer grown with realloc, a struct array reset with memset
   between passes, and the valid records filtered into a calloc'd array by struct assignment.  Objective:
   weighted least-squares misfit of a linear calibration.  Inputs: offset, scale, and the readings. */
typedef struct {
  float gain;
  double reading;
  short channel;
  char ok;
  double weight;
} Record;

typedef struct { Record *r; int n, cap; } Log;

static void log_push(Log *lg, Record rec) {
  if (lg->n == lg->cap) {
    lg->cap = lg->cap ? lg->cap * 2 : 3;
    lg->r = realloc(lg->r, lg->cap * sizeof(Record));
  }
  lg->r[lg->n++] = rec;
}

static void log_drop_front(Log *lg, int k) {
  memmove(lg->r, lg->r + k, (lg->n - k) * sizeof(Record));
  lg->n -= k;
}

double calib_misfit(const double *cal, const double *readings, int nr) {
  Log lg = {NULL, 0, 0};
  double misfit = 0.0;
  Record *good = calloc(nr, sizeof(Record));
  for (int pass = 0; pass < 2; pass++) {
    for (int i = 0; i < nr; i++) {
      Record rec;
      rec.gain = 1.0f + 0.01f * (float)(i % 4);
      rec.reading = readings[i] * (1.0 + 0.1 * pass);
      rec.channel = (short)(i % 3);
      rec.ok = (i % 5) != 3;
      rec.weight = 1.0 / (1.0 + 0.05 * i) + 0.1 * readings[i] * readings[i];
      log_push(&lg, rec);
    }
    log_drop_front(&lg, lg.n / 2);
    int ng = 0;
    memset(good, 0, nr * sizeof(Record));
    for (int i = 0; i < lg.n; i++)
      if (lg.r[i].ok) good[ng++] = lg.r[i];
    for (int i = 0; i < ng; i++) {
      double truth = 0.5 * good[i].channel + 0.2 * i;
      double pred = cal[0] + cal[1] * good[i].gain * good[i].reading;
      misfit += good[i].weight * (pred - truth) * (pred - truth);
    }
  }
  free(good);
  free(lg.r);
  return misfit;
}

enum { NR = 9 };
static double cal[2] = {0.1, 0.9}, readings[NR];

int main(void) {
  for (int i = 0; i < NR; i++) readings[i] = 0.4 * i + 0.2 * sin(i);
  double fd[2 + NR], ad[2 + NR];
  for (int q = 0; q < 2; q++) fd[q] = HUNT_FD(calib_misfit(cal, readings, NR), cal[q]);
  for (int q = 0; q < NR; q++) fd[2 + q] = HUNT_FD(calib_misfit(cal, readings, NR), readings[q]);
  double dcal[2] = {0}, dread[NR] = {0};
#ifdef MODE_REV
  __enzyme_autodiff((void *)calib_misfit, enzyme_dup, cal, dcal, enzyme_dup, readings, dread, enzyme_const, NR);
  for (int q = 0; q < 2; q++) ad[q] = dcal[q];
  for (int q = 0; q < NR; q++) ad[2 + q] = dread[q];
  hunt_check_vec("grad", ad, fd, 2 + NR);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 2 + NR; q++) {
    if (q < 2) dcal[q] = 1.0; else dread[q - 2] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)calib_misfit, enzyme_dup, cal, dcal, enzyme_dup, readings, dread, enzyme_const, NR);
    if (q < 2) dcal[q] = 0.0; else dread[q - 2] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, 2 + NR);
#endif
  return hunt_finish();
}

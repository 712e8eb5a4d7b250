/* <enzyme/checkpoint_schedule.h>: the arithmetic of checkpointing schedules (pyenzyme).
 *
 * What a schedule's name and budget mean, in plain C with no dependencies, as upstream Enzyme defines them
 * (so that loop annotations, Enzyme-MLIR and the schemes of <enzyme/checkpoint.h> agree):
 *
 *   the budget is the number of checkpoints that live through the reverse sweep: the slots of a binomial
 *   schedule, the segments of a periodic one; 0 or less asks for the default, floor(sqrt(n)) slots (at
 *   least 2) or segments of floor(sqrt(n)) steps.
 */
#ifndef PYENZYME_CHECKPOINT_SCHEDULE_H
#define PYENZYME_CHECKPOINT_SCHEDULE_H

#include <stddef.h>
#include <stdint.h>

/* Schedules, by the values loop annotations use. */
enum {
  ENZYME_CKPT_SCHEDULE_NONE = 0,
  ENZYME_CKPT_SCHEDULE_PERIODIC = 1,  /* segments whose starts are kept */
  ENZYME_CKPT_SCHEDULE_REVOLVE = 2,   /* Griewank and Walther's binomial checkpointing */
  ENZYME_CKPT_SCHEDULE_STORE_ALL = 3, /* every step's state */
  ENZYME_CKPT_SCHEDULE_BINOMIAL = 4   /* Enzyme-MLIR's binomial schedule, a stack of slots */
};

/* The actions a scheme gives the driver (see <enzyme/checkpoint.h>). */
enum {
  ENZYME_CKPT_NONE = 0,
  ENZYME_CKPT_STORE = 1,
  ENZYME_CKPT_RESTORE = 2,
  ENZYME_CKPT_FORWARD = 3,
  ENZYME_CKPT_FIRSTUTURN = 4,
  ENZYME_CKPT_UTURN = 5,
  ENZYME_CKPT_ERROR = 6,
  ENZYME_CKPT_DONE = 7
};

/* The schedule named by the first `len` characters of `name` ("none", "periodic" or its older name
 * "regular", "revolve", "store_all", "binomial"), or -1. */
static inline int64_t enzyme_ckpt_schedule_from_name(const char *name, size_t len) {
  static const char *const names[] = {"none", "periodic", "regular", "revolve", "store_all", "binomial"};
  static const int64_t values[] = {ENZYME_CKPT_SCHEDULE_NONE,    ENZYME_CKPT_SCHEDULE_PERIODIC,
                                   ENZYME_CKPT_SCHEDULE_PERIODIC, ENZYME_CKPT_SCHEDULE_REVOLVE,
                                   ENZYME_CKPT_SCHEDULE_STORE_ALL, ENZYME_CKPT_SCHEDULE_BINOMIAL};
  size_t i, k;
  for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
    const char *candidate = names[i];
    for (k = 0; k < len && candidate[k] != '\0' && candidate[k] == name[k]; k++)
      ;
    if (k == len && candidate[k] == '\0')
      return values[i];
  }
  return -1;
}

/* floor(sqrt(n)); 0 for n <= 0. */
static inline int64_t enzyme_ckpt_isqrt(int64_t n) {
  int64_t r = 0;
  while (n > 0 && r + 1 <= n / (r + 1))
    r++;
  return r;
}

/* How many steps to advance from a checkpoint with n steps left to reverse and s slots left to place.
 * With t the fewest repetitions that s slots allow for n steps (the smallest t with C(s + t, s) >= n), every
 * advance in [n - C(s - 1 + t, s - 1), C(s + t - 1, s)] keeps t; this is the middle of that window, within
 * [1, n - 1], leaving at least one step for each of the other s - 1 slots.  One slot advances all n steps. */
static inline int64_t enzyme_ckpt_binomial_progress(int64_t n, int64_t s) {
  int64_t t, beta, low, high, mid;
  if (n <= 1)
    return n < 0 ? 0 : n;
  if (s <= 1)
    return n;
  /* beta = C(s + t, t), grown one t at a time (each quotient is exact). */
  for (t = 0, beta = 1; beta < n;) {
    t++;
    beta = beta * (s + t) / t;
  }
  low = n - beta * s / (s + t); /* C(s + t - 1, t) = beta * s / (s + t) */
  high = beta * t / (s + t);    /* C(s + t - 1, t - 1) */
  if (low < 1)
    low = 1;
  if (high > n - 1)
    high = n - 1;
  mid = (low + high) / 2;
  if (mid > n - (s - 1))
    mid = n - (s - 1);
  return mid < 1 ? 1 : mid;
}

/* The slots a binomial schedule of n steps uses for `budget`: the default if it is not positive, never more
 * than the steps, at least one. */
static inline int64_t enzyme_ckpt_binomial_slots(int64_t n, int64_t budget) {
  if (budget <= 0) {
    budget = enzyme_ckpt_isqrt(n);
    if (budget < 2)
      budget = 2;
  }
  if (budget > n)
    budget = n;
  return budget < 1 ? 1 : budget;
}

/* A periodic schedule of n steps: `outer` segments of `inner` steps, then one of `trailing` steps if they do
 * not divide n.  `inner` is n / budget rounded up (at most `budget` segments), or floor(sqrt(n)). */
typedef struct EnzymeCkptPeriodicSplit {
  int64_t inner;
  int64_t outer;
  int64_t trailing;
} EnzymeCkptPeriodicSplit;

static inline EnzymeCkptPeriodicSplit enzyme_ckpt_periodic_split(int64_t n, int64_t budget) {
  EnzymeCkptPeriodicSplit s = {1, 0, 0};
  if (n <= 0)
    return s;
  s.inner = budget > 0 ? (n + budget - 1) / budget : enzyme_ckpt_isqrt(n);
  if (s.inner < 1)
    s.inner = 1;
  s.outer = n / s.inner;
  s.trailing = n % s.inner;
  return s;
}

/* The number of segments, the trailing one included. */
static inline int64_t enzyme_ckpt_periodic_segments(EnzymeCkptPeriodicSplit s) {
  return s.outer + (s.trailing > 0 ? 1 : 0);
}

/* The first step of segment k, and its length. */
static inline int64_t enzyme_ckpt_periodic_start(EnzymeCkptPeriodicSplit s, int64_t k) { return k * s.inner; }

static inline int64_t enzyme_ckpt_periodic_length(EnzymeCkptPeriodicSplit s, int64_t k) {
  return k < s.outer ? s.inner : s.trailing;
}

#endif /* PYENZYME_CHECKPOINT_SCHEDULE_H */

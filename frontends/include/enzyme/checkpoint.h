/* <enzyme/checkpoint.h>: checkpointed loops in reverse mode (pyenzyme).
 *
 *   __enzyme_checkpoint_for((void *)step, start, n,
 *                           enzyme_scheme, &scheme, data,
 *                           [enzyme_checkpoint_region, ptr, bytes,]...
 *                           args...);
 *
 * runs  for (int64_t i = start; i < start + n; i++) step(i, args...);  and
 *
 *   __enzyme_checkpoint_while((void *)step, enzyme_scheme, &scheme, data, [regions...] args...);
 *
 * runs  int64_t i = 0; while (step(i++, args...));  Forward mode differentiates them as the plain loops.  In
 * reverse mode the steps are not taped: the scheme (a table of functions, below) tells pyenzyme's driver
 * which states to keep in its slots, which steps to run again from a kept state, and when to differentiate a
 * step; a step is differentiated by running its augmented and reverse sweeps together, so one step's tape
 * lives at a time.  A snapshot holds the regions named with enzyme_checkpoint_region and every mutable
 * global the step reads or writes; a step that writes through an argument no region names is refused.
 * What the step only reads through its other arguments must not change between the loop and the end of
 * the gradient's reverse sweep (the steps run again read it): a write into it after the loop, in the loop's
 * function or in its callers, is refused, and a write pyenzyme cannot place (through a loaded pointer, an
 * indirect call) gives a warning; name such memory as a region if it may change.
 *
 * The scheme answers next_action with one action at a time (steps counted from 0; step j is called with
 * i = start + j):
 *
 *   ENZYME_CKPT_STORE      the state is the one before step `iteration`: keep it in slot `cpnum`
 *   ENZYME_CKPT_RESTORE    bring back slot `cpnum`, the state before step `iteration`
 *   ENZYME_CKPT_FORWARD    run steps startiteration .. iteration-1 (no derivative)
 *   ENZYME_CKPT_FIRSTUTURN the state is the one before the last step (iteration - 1 = n - 1); the forward
 *                          sweep ends there: the driver keeps that state in slot -2 and runs the last step
 *   ENZYME_CKPT_UTURN      the state is the one before step iteration - 1: differentiate that step
 *   ENZYME_CKPT_DONE       every step was differentiated (the first action when n = 0)
 *
 * store/restore must also accept the driver's own slots -2 (the state before the last step) and -1 (the
 * state the reverse sweep starts from, restored at the end, so the primal state is left as the forward sweep
 * left it).  A while loop's scheme gets nsteps = -1 in init and the number of steps through set_nsteps once
 * the loop has ended, and then goes on from the final state.
 *
 * Reference schemes, used as  enzyme_scheme, &EnzymeCkptRevolve, &config  (an EnzymeCkptConfig):
 *
 *   EnzymeCkptRevolve   binomial checkpointing with config.snapshots slots (enzyme_ckpt_binomial_slots: by
 *                       default floor(sqrt(n)), at least 2): the states kept never exceed that many, and
 *                       each step is run again about as few times as that many slots allow;
 *   EnzymeCkptBinomial  Enzyme-MLIR's binomial schedule with as many slots (a stack of slots);
 *   EnzymeCkptPeriodic  at most config.snapshots segments (enzyme_ckpt_periodic_split): the start of each
 *                       is kept, and when a segment is reversed the state before each of its steps;
 *   EnzymeCkptStoreAll  the state before every step (one segment); the scheme for while loops.
 *
 * Snapshots are kept in memory, or, with config.spill_dir, in files there once the slots in memory would
 * exceed config.mem_budget bytes.  config.stats, when set, receives the counts of the schedule.
 */
#ifndef PYENZYME_CHECKPOINT_H
#define PYENZYME_CHECKPOINT_H

#include "checkpoint_schedule.h"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ENZYME_CKPT_ABI_VERSION 1

/* The action flags and the schedules' arithmetic are in <enzyme/checkpoint_schedule.h>. */

typedef struct EnzymeCkptAction {
  int32_t flag;
  int64_t iteration;
  int64_t startiteration;
  int64_t cpnum;
} EnzymeCkptAction;

struct EnzymeCkptCallbacks;

/* One piece of memory a snapshot holds (pyenzyme's driver sets ptr and bytes; the other fields are 0). */
typedef struct EnzymeCkptRegion {
  void *ptr;
  uint64_t bytes;
  uint32_t addrspace;
  uint32_t flags;
  void *shadow;
  const struct EnzymeCkptCallbacks *callbacks;
} EnzymeCkptRegion;

typedef struct EnzymeCheckpointScheme {
  uint32_t version; /* ENZYME_CKPT_ABI_VERSION */
  void *(*init)(void *data, int64_t nsteps, uint64_t snapshot_bytes);
  void (*next_action)(void *state, EnzymeCkptAction *out);
  void (*store)(void *state, int64_t slot, int64_t step, const EnzymeCkptRegion *regions, uint64_t nregions);
  void (*restore)(void *state, int64_t slot, int64_t step, const EnzymeCkptRegion *regions,
                  uint64_t nregions);
  void (*set_nsteps)(void *state, int64_t nsteps); /* while loops */
  void (*finalize)(void *state);
  /* Not used by pyenzyme's driver (a scheme must have store and restore): */
  void (*save_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*load_state)(void *state, int64_t slot, int64_t step, void *env);
  void (*set_paths)(void *state, const int64_t *paths, uint64_t len);
} EnzymeCheckpointScheme;

extern int enzyme_scheme;
extern int enzyme_checkpoint_region;

void __enzyme_checkpoint_for(void *step, int64_t start, int64_t n, ...);
void __enzyme_checkpoint_while(void *step, ...);

typedef struct EnzymeCkptStats {
  int64_t forward_steps; /* steps run without a derivative */
  int64_t taped_steps;   /* steps differentiated (each once) */
  int64_t stores;
  int64_t restores;
  int64_t max_slots;  /* slots that held a snapshot */
  uint64_t max_bytes; /* their bytes */
} EnzymeCkptStats;

typedef struct EnzymeCkptConfig {
  int64_t snapshots;     /* Revolve: slots; Periodic: segments */
  int verbose;           /* 1: a summary on stderr; 2: every action too */
  const char *spill_dir; /* NULL: snapshots in memory */
  uint64_t mem_budget;   /* with spill_dir: bytes of slots kept in memory */
  EnzymeCkptStats *stats;
} EnzymeCkptConfig;

/* ---- the slots of the reference schemes ---- */

typedef struct enzyme_ckpt_slots {
  const EnzymeCkptConfig *config;
  uint64_t bytes;  /* of one snapshot */
  int64_t count;   /* entries of buf: slot s is entry s + 2 */
  void **buf;      /* NULL: empty; else the snapshot, or for a slot in a file its name */
  EnzymeCkptStats stats;
} enzyme_ckpt_slots;

static inline void enzyme_ckpt_abort(const char *what) {
  fprintf(stderr, "enzyme/checkpoint.h: %s\n", what);
  abort();
}

static inline int enzyme_ckpt_spilled(const enzyme_ckpt_slots *s, int64_t entry) {
  return s->config->spill_dir != NULL && (uint64_t)entry * s->bytes >= s->config->mem_budget;
}

/* Opens the file of entry e for writing; its name is made (unique: opened with "x") at the first store. */
static inline FILE *enzyme_ckpt_file_out(enzyme_ckpt_slots *s, int64_t e) {
  static unsigned long serial = 0;
  size_t len = strlen(s->config->spill_dir) + 64;
  FILE *f;
  if (s->buf[e])
    return fopen((const char *)s->buf[e], "wb");
  s->buf[e] = malloc(len);
  for (;;) {
    snprintf((char *)s->buf[e], len, "%s/pyenzyme_ckpt_%p_%lu_%lld", s->config->spill_dir, (void *)s,
             serial++, (long long)e);
    f = fopen((const char *)s->buf[e], "wbx");
    if (f || serial > 1000000)
      return f;
  }
}

static inline void enzyme_ckpt_put(enzyme_ckpt_slots *s, int64_t slot, const EnzymeCkptRegion *r, uint64_t nr) {
  int64_t e = slot + 2;
  uint64_t k, off = 0;
  int fresh;
  if (slot < -2)
    enzyme_ckpt_abort("store into a slot below -2");
  if (e >= s->count) {
    int64_t n = s->count ? 2 * s->count : 8, k2;
    while (n <= e)
      n *= 2;
    s->buf = (void **)realloc(s->buf, (size_t)n * sizeof(void *));
    for (k2 = s->count; k2 < n; k2++)
      s->buf[k2] = NULL;
    s->count = n;
  }
  fresh = s->buf[e] == NULL;
  for (k = 0; k < nr; k++)
    if (r[k].addrspace != 0)
      enzyme_ckpt_abort("snapshots of memory outside address space 0 are not supported");
  if (enzyme_ckpt_spilled(s, e)) {
    FILE *f = enzyme_ckpt_file_out(s, e);
    if (!f)
      enzyme_ckpt_abort("cannot write a snapshot file in spill_dir");
    for (k = 0; k < nr; k++)
      if (fwrite(r[k].ptr, 1, (size_t)r[k].bytes, f) != r[k].bytes)
        enzyme_ckpt_abort("short write of a snapshot file");
    fclose(f);
  } else {
    if (!s->buf[e])
      s->buf[e] = malloc(s->bytes ? (size_t)s->bytes : 1);
    for (k = 0; k < nr; k++) {
      memcpy((char *)s->buf[e] + off, r[k].ptr, (size_t)r[k].bytes);
      off += r[k].bytes;
    }
  }
  if (slot < 0)
    return;
  s->stats.stores++;
  if (fresh) {
    s->stats.max_slots++;
    s->stats.max_bytes += s->bytes;
  }
}

static inline void enzyme_ckpt_get(enzyme_ckpt_slots *s, int64_t slot, const EnzymeCkptRegion *r, uint64_t nr) {
  int64_t e = slot + 2;
  uint64_t k, off = 0;
  if (slot < -2 || e >= s->count || !s->buf[e])
    enzyme_ckpt_abort("restore of a slot that holds no snapshot");
  if (enzyme_ckpt_spilled(s, e)) {
    FILE *f = fopen((const char *)s->buf[e], "rb");
    if (!f)
      enzyme_ckpt_abort("cannot read a snapshot file in spill_dir");
    for (k = 0; k < nr; k++)
      if (fread(r[k].ptr, 1, (size_t)r[k].bytes, f) != r[k].bytes)
        enzyme_ckpt_abort("short read of a snapshot file");
    fclose(f);
  } else {
    for (k = 0; k < nr; k++) {
      memcpy(r[k].ptr, (char *)s->buf[e] + off, (size_t)r[k].bytes);
      off += r[k].bytes;
    }
  }
  if (slot >= 0)
    s->stats.restores++;
}

static inline void enzyme_ckpt_slots_done(enzyme_ckpt_slots *s) {
  int64_t e;
  const EnzymeCkptConfig *c = s->config;
  for (e = 0; e < s->count; e++) {
    if (!s->buf[e])
      continue;
    if (enzyme_ckpt_spilled(s, e))
      remove((const char *)s->buf[e]);
    free(s->buf[e]);
  }
  free(s->buf);
  s->buf = NULL;
  s->count = 0;
  if (c->verbose > 0)
    fprintf(stderr,
            "enzyme checkpoint: %lld steps run forward, %lld differentiated, %lld stores, %lld restores, "
            "%lld slots (%llu bytes)\n",
            (long long)s->stats.forward_steps, (long long)s->stats.taped_steps, (long long)s->stats.stores,
            (long long)s->stats.restores, (long long)s->stats.max_slots,
            (unsigned long long)s->stats.max_bytes);
  if (c->stats)
    *c->stats = s->stats;
}

/* Counts an action the scheme gives, and prints it with verbose = 2. */
static inline void enzyme_ckpt_count(enzyme_ckpt_slots *s, const EnzymeCkptAction *a) {
  static const char *const names[] = {"none", "store", "restore", "forward", "firstuturn", "uturn", "error",
                                      "done"};
  if (a->flag == ENZYME_CKPT_FORWARD)
    s->stats.forward_steps += a->iteration - a->startiteration;
  else if (a->flag == ENZYME_CKPT_FIRSTUTURN || a->flag == ENZYME_CKPT_UTURN)
    s->stats.taped_steps++;
  if (s->config->verbose > 1)
    fprintf(stderr, "enzyme checkpoint: %s %lld %lld %lld\n",
            a->flag >= 0 && a->flag <= 7 ? names[a->flag] : "?", (long long)a->iteration,
            (long long)a->startiteration, (long long)a->cpnum);
}

static inline void enzyme_ckpt_set(EnzymeCkptAction *a, int32_t flag, int64_t iteration, int64_t start,
                                   int64_t slot) {
  a->flag = flag;
  a->iteration = iteration;
  a->startiteration = start;
  a->cpnum = slot;
}

/* ---- Revolve: recursive binomial checkpointing ----
 *
 * To reverse steps [a, b) with the state before a in slot k and `free` more slots: with no free slot, each
 * step is reached again from slot k; else the state before m is kept in slot k + 1, [m, b) is reversed with
 * one slot less, then [a, m) with as many.  m is placed so that both parts fit the fewest repetitions r that
 * c = free + 1 slots allow for b - a steps: (c + r choose c) >= b - a.  The recursion is walked lazily on a
 * stack of at most `snapshots` frames. */

typedef struct enzyme_ckpt_frame {
  int64_t a, b, k, free, m, j;
  int first, pc;
} enzyme_ckpt_frame;

typedef struct enzyme_ckpt_revolve {
  enzyme_ckpt_slots slots;
  int64_t n, snaps, depth;
  int started;
  enzyme_ckpt_frame *stack;
} enzyme_ckpt_revolve;

/* (c + r choose c), saturating at INT64_MAX / 4. */
static inline int64_t enzyme_ckpt_beta(int64_t c, int64_t r) {
  int64_t v = 1, i;
  for (i = 1; i <= r; i++) {
    if (v > (INT64_MAX / 4) / (c + i))
      return INT64_MAX / 4;
    v = v * (c + i) / i;
  }
  return v;
}

static inline int64_t enzyme_ckpt_split(int64_t a, int64_t b, int64_t c) {
  int64_t l = b - a, r = 0, d;
  while (enzyme_ckpt_beta(c, r) < l)
    r++;
  d = l - enzyme_ckpt_beta(c - 1, r);
  if (d < 1)
    d = 1;
  if (r > 0 && d > enzyme_ckpt_beta(c, r - 1))
    d = enzyme_ckpt_beta(c, r - 1);
  if (d > l - 1)
    d = l - 1;
  if (d < 1)
    d = 1;
  return a + d;
}

static inline void *enzyme_ckpt_revolve_init(void *data, int64_t nsteps, uint64_t bytes) {
  enzyme_ckpt_revolve *s;
  if (nsteps < 0)
    enzyme_ckpt_abort("EnzymeCkptRevolve needs the number of steps (use EnzymeCkptStoreAll for while loops)");
  s = (enzyme_ckpt_revolve *)calloc(1, sizeof(*s));
  s->slots.config = (const EnzymeCkptConfig *)data;
  s->slots.bytes = bytes;
  s->n = nsteps;
  s->snaps = enzyme_ckpt_binomial_slots(nsteps, s->slots.config->snapshots);
  s->stack = (enzyme_ckpt_frame *)calloc((size_t)s->snaps + 1, sizeof(enzyme_ckpt_frame));
  return s;
}

static inline void enzyme_ckpt_push_frame(enzyme_ckpt_revolve *s, int64_t a, int64_t b, int64_t k,
                                          int64_t free_slots, int first) {
  enzyme_ckpt_frame *f = &s->stack[s->depth++];
  memset(f, 0, sizeof(*f));
  f->a = a;
  f->b = b;
  f->k = k;
  f->free = free_slots;
  f->first = first;
}

static inline void enzyme_ckpt_revolve_next(void *state, EnzymeCkptAction *out) {
  enzyme_ckpt_revolve *s = (enzyme_ckpt_revolve *)state;
  if (!s->started) {
    s->started = 1;
    if (s->n == 0) {
      enzyme_ckpt_set(out, ENZYME_CKPT_DONE, 0, 0, -1);
      enzyme_ckpt_count(&s->slots, out);
      return;
    }
    enzyme_ckpt_push_frame(s, 0, s->n, 0, s->snaps - 1, 1);
    if (s->n > 1) {
      enzyme_ckpt_set(out, ENZYME_CKPT_STORE, 0, 0, 0);
      enzyme_ckpt_count(&s->slots, out);
      return;
    }
  }
  for (;;) {
    enzyme_ckpt_frame *f;
    if (s->depth == 0) {
      enzyme_ckpt_set(out, ENZYME_CKPT_DONE, 0, 0, -1);
      break;
    }
    f = &s->stack[s->depth - 1];
    if (f->pc == 0) {
      if (f->b - f->a == 1) {
        enzyme_ckpt_set(out, f->first ? ENZYME_CKPT_FIRSTUTURN : ENZYME_CKPT_UTURN, f->b, f->a, f->k);
        s->depth--;
        break;
      }
      if (f->free == 0) {
        f->j = f->b - 1;
        f->pc = 10;
        continue;
      }
      f->m = enzyme_ckpt_split(f->a, f->b, f->free + 1);
      f->pc = 1;
      enzyme_ckpt_set(out, ENZYME_CKPT_FORWARD, f->m, f->a, f->k);
      break;
    } else if (f->pc == 1) {
      f->pc = 2;
      enzyme_ckpt_set(out, ENZYME_CKPT_STORE, f->m, f->m, f->k + 1);
      break;
    } else if (f->pc == 2) {
      f->pc = 3;
      enzyme_ckpt_push_frame(s, f->m, f->b, f->k + 1, f->free - 1, f->first);
      continue;
    } else if (f->pc == 3) {
      /* [m, b) is reversed: on to [a, m), from slot k. */
      f->pc = 0;
      f->b = f->m;
      f->first = 0;
      enzyme_ckpt_set(out, ENZYME_CKPT_RESTORE, f->a, f->a, f->k);
      break;
    } else if (f->pc == 10) { /* no free slot: each step from slot k, last first */
      if (f->j < f->a) {
        s->depth--;
        continue;
      }
      f->pc = 11;
      if (f->j != f->b - 1) {
        enzyme_ckpt_set(out, ENZYME_CKPT_RESTORE, f->a, f->a, f->k);
        break;
      }
    } else if (f->pc == 11) {
      f->pc = 12;
      if (f->j > f->a) {
        enzyme_ckpt_set(out, ENZYME_CKPT_FORWARD, f->j, f->a, f->k);
        break;
      }
    } else {
      enzyme_ckpt_set(out, f->first && f->j == f->b - 1 ? ENZYME_CKPT_FIRSTUTURN : ENZYME_CKPT_UTURN,
                      f->j + 1, f->j, f->k);
      f->j--;
      f->pc = 10;
      break;
    }
  }
  enzyme_ckpt_count(&s->slots, out);
}

static inline void enzyme_ckpt_revolve_store(void *state, int64_t slot, int64_t step,
                                             const EnzymeCkptRegion *r, uint64_t nr) {
  (void)step;
  enzyme_ckpt_put(&((enzyme_ckpt_revolve *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_revolve_restore(void *state, int64_t slot, int64_t step,
                                               const EnzymeCkptRegion *r, uint64_t nr) {
  (void)step;
  enzyme_ckpt_get(&((enzyme_ckpt_revolve *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_revolve_finalize(void *state) {
  enzyme_ckpt_revolve *s = (enzyme_ckpt_revolve *)state;
  enzyme_ckpt_slots_done(&s->slots);
  free(s->stack);
  free(s);
}

static const EnzymeCheckpointScheme EnzymeCkptRevolve = {
    ENZYME_CKPT_ABI_VERSION, enzyme_ckpt_revolve_init, enzyme_ckpt_revolve_next, enzyme_ckpt_revolve_store,
    enzyme_ckpt_revolve_restore, NULL, enzyme_ckpt_revolve_finalize, NULL, NULL, NULL};

/* ---- Binomial: Enzyme-MLIR's schedule, a stack of slots ----
 *
 * The forward sweep keeps slot k at the step it reaches and advances enzyme_ckpt_binomial_progress(steps
 * left, slots left) steps, until the advances reach the end (the last one stops a step short: the driver's
 * first turn runs the last step).  To reverse step cur - 1 it brings back the top slot and runs forward to
 * cur - 1 the same way, keeping a slot at each step an advance starts from (the top slot holds the first);
 * the slots so placed are the stack from then on, and a top slot at cur - 1 itself is dropped after its
 * turn.  The actions of one turn are made at a time. */

typedef struct enzyme_ckpt_binomial {
  enzyme_ckpt_slots slots;
  int64_t n, budget, depth, cur; /* depth: slots on the stack; cur: the steps not yet reversed */
  int64_t *at;                   /* the step each slot holds */
  EnzymeCkptAction *queue;
  int64_t len, next;
} enzyme_ckpt_binomial;

static inline void enzyme_ckpt_binomial_queue(enzyme_ckpt_binomial *s, int32_t flag, int64_t iteration,
                                              int64_t start, int64_t slot) {
  enzyme_ckpt_set(&s->queue[s->len++], flag, iteration, start, slot);
}

/* Queue the advances from step q (the current state) towards `end`, placing slots k, k+1, ...; the last
 * advance stops a step short of `end`.  The forward sweep (`turn` 0) goes on while a step is left; a turn
 * while two are (the step before `end` is the one it reverses), and its first slot, the top of the stack,
 * holds q already.  Returns the next free slot. */
static inline int64_t enzyme_ckpt_binomial_advance(enzyme_ckpt_binomial *s, int64_t k, int64_t q, int64_t end,
                                                   int turn) {
  int64_t first = k;
  while (turn ? q + 1 < end : q < end) {
    int64_t left = end - q, free_slots = s->budget - k, to, stop;
    if (free_slots > left)
      free_slots = left;
    if (!turn || k != first)
      enzyme_ckpt_binomial_queue(s, ENZYME_CKPT_STORE, q, q, k);
    s->at[k] = q;
    to = q + enzyme_ckpt_binomial_progress(left, free_slots);
    stop = to == end ? end - 1 : to;
    if (stop > q)
      enzyme_ckpt_binomial_queue(s, ENZYME_CKPT_FORWARD, stop, q, k);
    q = to;
    k++;
  }
  return k;
}

/* Queue the reversal of step cur - 1. */
static inline void enzyme_ckpt_binomial_turn(enzyme_ckpt_binomial *s, int first) {
  int64_t top = s->depth - 1;
  enzyme_ckpt_binomial_queue(s, ENZYME_CKPT_RESTORE, s->at[top], s->at[top], top);
  s->depth = enzyme_ckpt_binomial_advance(s, top, s->at[top], s->cur, 1);
  enzyme_ckpt_binomial_queue(s, first ? ENZYME_CKPT_FIRSTUTURN : ENZYME_CKPT_UTURN, s->cur, s->cur - 1, 0);
  s->cur--;
}

static inline void *enzyme_ckpt_binomial_init(void *data, int64_t nsteps, uint64_t bytes) {
  enzyme_ckpt_binomial *s;
  if (nsteps < 0)
    enzyme_ckpt_abort("EnzymeCkptBinomial needs the number of steps (use EnzymeCkptStoreAll for while loops)");
  s = (enzyme_ckpt_binomial *)calloc(1, sizeof(*s));
  s->slots.config = (const EnzymeCkptConfig *)data;
  s->slots.bytes = bytes;
  s->n = s->cur = nsteps;
  s->budget = enzyme_ckpt_binomial_slots(nsteps, s->slots.config->snapshots);
  s->at = (int64_t *)calloc((size_t)s->budget + 1, sizeof(int64_t));
  s->queue = (EnzymeCkptAction *)calloc(4 * (size_t)s->budget + 8, sizeof(EnzymeCkptAction));
  if (nsteps == 0) {
    enzyme_ckpt_binomial_queue(s, ENZYME_CKPT_DONE, 0, 0, -1);
    return s;
  }
  s->depth = enzyme_ckpt_binomial_advance(s, 0, 0, nsteps, 0); /* the forward sweep */
  enzyme_ckpt_binomial_turn(s, 1);
  return s;
}

static inline void enzyme_ckpt_binomial_next(void *state, EnzymeCkptAction *out) {
  enzyme_ckpt_binomial *s = (enzyme_ckpt_binomial *)state;
  if (s->next == s->len) {
    s->len = s->next = 0;
    if (s->cur == 0)
      enzyme_ckpt_binomial_queue(s, ENZYME_CKPT_DONE, 0, 0, -1);
    else
      enzyme_ckpt_binomial_turn(s, 0);
  }
  *out = s->queue[s->next++];
  enzyme_ckpt_count(&s->slots, out);
}

static inline void enzyme_ckpt_binomial_store(void *state, int64_t slot, int64_t step, const EnzymeCkptRegion *r,
                                              uint64_t nr) {
  (void)step;
  enzyme_ckpt_put(&((enzyme_ckpt_binomial *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_binomial_restore(void *state, int64_t slot, int64_t step,
                                                const EnzymeCkptRegion *r, uint64_t nr) {
  (void)step;
  enzyme_ckpt_get(&((enzyme_ckpt_binomial *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_binomial_finalize(void *state) {
  enzyme_ckpt_binomial *s = (enzyme_ckpt_binomial *)state;
  enzyme_ckpt_slots_done(&s->slots);
  free(s->at);
  free(s->queue);
  free(s);
}

static const EnzymeCheckpointScheme EnzymeCkptBinomial = {
    ENZYME_CKPT_ABI_VERSION, enzyme_ckpt_binomial_init, enzyme_ckpt_binomial_next, enzyme_ckpt_binomial_store,
    enzyme_ckpt_binomial_restore, NULL, enzyme_ckpt_binomial_finalize, NULL, NULL, NULL};

/* ---- Periodic: at most K segments (enzyme_ckpt_periodic_split) ----
 *
 * The forward sweep keeps the start of segments 0 .. K-2 in slots 0 .. K-2 and goes through the last
 * segment keeping the state before each of its steps.  A segment is reversed from the states before each
 * of its steps: its start is in slot k, the others in slots K, K+1, ...  shared by all segments.  A while
 * loop (StoreAll) keeps the state before every step in slot j while it runs. */

typedef struct enzyme_ckpt_periodic {
  enzyme_ckpt_slots slots;
  EnzymeCkptPeriodicSplit split;
  int64_t n, segs;
  int64_t seg;   /* the segment being reversed */
  int64_t phase; /* position in the segment's actions */
  int online;    /* a while loop still running */
  int back;      /* a while loop has ended: bring back the state before its last step first */
  int64_t pos;   /* while loops: the next step */
} enzyme_ckpt_periodic;

static inline int64_t enzyme_ckpt_seg_start(const enzyme_ckpt_periodic *p, int64_t k) {
  return k >= p->segs ? p->n : enzyme_ckpt_periodic_start(p->split, k);
}

static inline int64_t enzyme_ckpt_seg_slot(const enzyme_ckpt_periodic *p, int64_t k, int64_t j) {
  int64_t s = enzyme_ckpt_seg_start(p, k);
  return j == s ? k : p->segs + (j - s - 1);
}

static inline void *enzyme_ckpt_periodic_init_segments(void *data, int64_t nsteps, uint64_t bytes,
                                                       int64_t segs) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)calloc(1, sizeof(*p));
  p->slots.config = (const EnzymeCkptConfig *)data;
  p->slots.bytes = bytes;
  p->n = nsteps;
  if (nsteps < 0) {
    p->online = 1;
    p->segs = 1;
    return p;
  }
  p->split = enzyme_ckpt_periodic_split(nsteps, segs);
  p->segs = enzyme_ckpt_periodic_segments(p->split);
  if (p->segs < 1)
    p->segs = 1;
  p->seg = -1; /* the forward sweep's segment starts first */
  return p;
}

static inline void *enzyme_ckpt_periodic_init(void *data, int64_t nsteps, uint64_t bytes) {
  if (nsteps < 0)
    enzyme_ckpt_abort("EnzymeCkptPeriodic needs the number of steps (use EnzymeCkptStoreAll for while loops)");
  return enzyme_ckpt_periodic_init_segments(data, nsteps, bytes,
                                            ((const EnzymeCkptConfig *)data)->snapshots);
}

static inline void *enzyme_ckpt_store_all_init(void *data, int64_t nsteps, uint64_t bytes) {
  return enzyme_ckpt_periodic_init_segments(data, nsteps, bytes, 1);
}

static inline void enzyme_ckpt_periodic_set_nsteps(void *state, int64_t nsteps) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  p->online = 0;
  p->n = nsteps;
  p->split = enzyme_ckpt_periodic_split(nsteps, 1);
  p->segs = 1;
  p->seg = 0;
  /* Every step's state is kept already: go back to the last one, then turn. */
  p->phase = 2 * (nsteps - 1);
  p->back = nsteps > 0;
}

static inline void enzyme_ckpt_periodic_next(void *state, EnzymeCkptAction *out) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  if (p->online) {
    if (p->phase == 0) {
      enzyme_ckpt_set(out, ENZYME_CKPT_STORE, p->pos, p->pos, p->pos);
      p->phase = 1;
    } else {
      enzyme_ckpt_set(out, ENZYME_CKPT_FORWARD, p->pos + 1, p->pos, p->pos);
      p->pos++;
      p->phase = 0;
    }
  } else if (p->n == 0) {
    enzyme_ckpt_set(out, ENZYME_CKPT_DONE, 0, 0, -1);
  } else if (p->back) {
    p->back = 0;
    enzyme_ckpt_set(out, ENZYME_CKPT_RESTORE, p->n - 1, p->n - 1, p->n - 1);
  } else if (p->seg < 0) {
    /* the forward sweep: STORE and FORWARD over segments 0 .. K-2 */
    int64_t k = p->phase / 2;
    if (k < p->segs - 1) {
      int64_t s = enzyme_ckpt_seg_start(p, k), e = enzyme_ckpt_seg_start(p, k + 1);
      if (p->phase % 2 == 0)
        enzyme_ckpt_set(out, ENZYME_CKPT_STORE, s, s, k);
      else
        enzyme_ckpt_set(out, ENZYME_CKPT_FORWARD, e, s, k);
      p->phase++;
    } else {
      p->seg = p->segs - 1;
      p->phase = 0;
      enzyme_ckpt_periodic_next(state, out);
      return;
    }
  } else {
    /* Reversing segment seg: phases 0 .. 2L-3 store and run its steps but the last, phase 2L-2 turns the
     * last step, then for each earlier step j: a restore and a turn.  Segments before the last begin with
     * the restore of their start (phase -1). */
    int64_t k = p->seg, s = enzyme_ckpt_seg_start(p, k), e = enzyme_ckpt_seg_start(p, k + 1);
    int64_t len = e - s, ph = p->phase;
    int first = k == p->segs - 1;
    if (ph < 2 * (len - 1)) {
      int64_t j = s + ph / 2;
      if (ph % 2 == 0) {
        if (j == s && !first) { /* its start is in slot k already */
          p->phase++;
          enzyme_ckpt_periodic_next(state, out);
          return;
        }
        enzyme_ckpt_set(out, ENZYME_CKPT_STORE, j, j, enzyme_ckpt_seg_slot(p, k, j));
      } else {
        enzyme_ckpt_set(out, ENZYME_CKPT_FORWARD, j + 1, j, enzyme_ckpt_seg_slot(p, k, j));
      }
      p->phase++;
    } else if (ph == 2 * (len - 1)) {
      enzyme_ckpt_set(out, first ? ENZYME_CKPT_FIRSTUTURN : ENZYME_CKPT_UTURN, e, e - 1,
                      enzyme_ckpt_seg_slot(p, k, e - 1));
      p->phase++;
    } else {
      /* phase 2(len-1) + 1 + 2t: restore step e-2-t, then turn it */
      int64_t t = (ph - 2 * (len - 1) - 1) / 2, j = e - 2 - t;
      if (j < s) {
        if (k == 0) {
          enzyme_ckpt_set(out, ENZYME_CKPT_DONE, 0, 0, -1);
        } else {
          int64_t sp = enzyme_ckpt_seg_start(p, k - 1);
          p->seg = k - 1;
          p->phase = 0;
          enzyme_ckpt_set(out, ENZYME_CKPT_RESTORE, sp, sp, k - 1);
        }
      } else if ((ph - 2 * (len - 1) - 1) % 2 == 0) {
        enzyme_ckpt_set(out, ENZYME_CKPT_RESTORE, j, j, enzyme_ckpt_seg_slot(p, k, j));
        p->phase++;
      } else {
        enzyme_ckpt_set(out, ENZYME_CKPT_UTURN, j + 1, j, enzyme_ckpt_seg_slot(p, k, j));
        p->phase++;
      }
    }
  }
  enzyme_ckpt_count(&p->slots, out);
}

static inline void enzyme_ckpt_periodic_store(void *state, int64_t slot, int64_t step, const EnzymeCkptRegion *r,
                                              uint64_t nr) {
  (void)step;
  enzyme_ckpt_put(&((enzyme_ckpt_periodic *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_periodic_restore(void *state, int64_t slot, int64_t step,
                                                const EnzymeCkptRegion *r, uint64_t nr) {
  (void)step;
  enzyme_ckpt_get(&((enzyme_ckpt_periodic *)state)->slots, slot, r, nr);
}

static inline void enzyme_ckpt_periodic_finalize(void *state) {
  enzyme_ckpt_periodic *p = (enzyme_ckpt_periodic *)state;
  enzyme_ckpt_slots_done(&p->slots);
  free(p);
}

static const EnzymeCheckpointScheme EnzymeCkptPeriodic = {
    ENZYME_CKPT_ABI_VERSION, enzyme_ckpt_periodic_init, enzyme_ckpt_periodic_next, enzyme_ckpt_periodic_store,
    enzyme_ckpt_periodic_restore, NULL, enzyme_ckpt_periodic_finalize, NULL, NULL, NULL};

static const EnzymeCheckpointScheme EnzymeCkptStoreAll = {
    ENZYME_CKPT_ABI_VERSION, enzyme_ckpt_store_all_init, enzyme_ckpt_periodic_next, enzyme_ckpt_periodic_store,
    enzyme_ckpt_periodic_restore, enzyme_ckpt_periodic_set_nsteps, enzyme_ckpt_periodic_finalize, NULL, NULL,
    NULL};

#ifdef __cplusplus
}
#endif

#endif /* PYENZYME_CHECKPOINT_H */

/* pyenzyme's driver of checkpointed loops (<enzyme/checkpoint.h>, enzyme.ad.checkpoint).
 *
 * The reverse mode of a loop written with __enzyme_checkpoint_for / __enzyme_checkpoint_while is two calls of
 * this driver: __pyenzyme_ckpt_forward in the augmented sweep and __pyenzyme_ckpt_reverse in the reverse
 * sweep.  The scheme the program passes (a table of function pointers) decides the schedule; the driver
 * carries out its actions:
 *
 *   STORE k / RESTORE k   copy the snapshot regions into / out of the scheme's slot k
 *   FORWARD a..b          run steps a, ..., b-1 (primal only, no tape)
 *   FIRSTUTURN            (forward sweep) keep the state before the last step in slot -2, run the last step
 *   UTURN b               (reverse sweep) the state is the one before step b-1: run that step's augmented
 *                         and reverse sweeps, its tape freed right after
 *   DONE                  the schedule is complete
 *
 * The reverse sweep first keeps the state the forward sweep left in slot -1, restores slot -2 and
 * differentiates the last step, then follows the scheme; at DONE it restores slot -1, so the primal state is
 * as the forward sweep left it.  The generated code passes the step as two thunks over an environment (the
 * step's arguments and their shadows): primal(env, i) runs step i and returns whether to go on (while loops),
 * turn(env, i) runs its derivative.  Linked (weak) into modules that use the entry points.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { NONE = 0, STORE = 1, RESTORE = 2, FORWARD = 3, FIRSTUTURN = 4, UTURN = 5, ERROR = 6, DONE = 7 };

typedef struct {
  int32_t flag;
  int64_t iteration;
  int64_t startiteration;
  int64_t cpnum;
} ckpt_action;

/* The region record the schemes read (pointer, bytes, address space, flags, shadow, callbacks). */
typedef struct {
  void *ptr;
  uint64_t bytes;
  uint32_t addrspace;
  uint32_t flags;
  void *shadow;
  const void *callbacks;
} ckpt_region;

typedef void (*slot_fn)(void *, int64_t, int64_t, const ckpt_region *, uint64_t);

typedef struct {
  uint32_t version;
  void *(*init)(void *, int64_t, uint64_t);
  void (*next_action)(void *, ckpt_action *);
  slot_fn store;
  slot_fn restore;
  void (*set_nsteps)(void *, int64_t);
  void (*finalize)(void *);
  void (*save_state)(void *, int64_t, int64_t, void *);
  void (*load_state)(void *, int64_t, int64_t, void *);
  void (*set_paths)(void *, const int64_t *, uint64_t);
} ckpt_scheme;

typedef struct {
  void *ptr;
  int64_t bytes;
} ckpt_pair;

typedef int64_t (*primal_fn)(void *env, int64_t i);
typedef void (*turn_fn)(void *env, int64_t i);

typedef struct {
  const ckpt_scheme *vt;
  void *state;
  ckpt_region *regions;
  uint64_t nregions;
  int64_t start, n;
  int turned;
} ckpt_run;

static void ckpt_fail(const char *msg) {
  fprintf(stderr, "pyenzyme: checkpointed loop: %s\n", msg);
  abort();
}

static void ckpt_slot(ckpt_run *r, slot_fn f, int64_t slot, int64_t step) {
  f(r->state, slot, step, r->regions, r->nregions);
}

__attribute__((weak)) void *__pyenzyme_ckpt_forward(const ckpt_scheme *vt, void *data, int64_t start,
                                                    int64_t n, const ckpt_pair *pairs, int64_t npairs,
                                                    void *env, primal_fn primal) {
  ckpt_run *r;
  uint64_t bytes = 0;
  int64_t k;
  int online = n < 0; /* a while loop still running */
  if (!vt)
    ckpt_fail("the scheme is null");
  if (vt->version != 1)
    ckpt_fail("the scheme's version is not 1 (ENZYME_CKPT_ABI_VERSION)");
  if (!vt->init || !vt->next_action || !vt->finalize)
    ckpt_fail("the scheme has no init, next_action or finalize");
  if (!vt->store || !vt->restore)
    ckpt_fail("schemes without store/restore (save_state/load_state only) are not supported");
  r = (ckpt_run *)calloc(1, sizeof(*r));
  r->vt = vt;
  r->start = start;
  r->n = n;
  r->nregions = (uint64_t)npairs;
  r->regions = (ckpt_region *)calloc(npairs ? (size_t)npairs : 1, sizeof(ckpt_region));
  for (k = 0; k < npairs; k++) {
    if (pairs[k].bytes < 0)
      ckpt_fail("a region has a negative size");
    r->regions[k].ptr = pairs[k].ptr;
    r->regions[k].bytes = (uint64_t)pairs[k].bytes;
    bytes += (uint64_t)pairs[k].bytes;
  }
  r->state = vt->init(data, n, bytes);
  for (;;) {
    ckpt_action a = {NONE, 0, 0, 0};
    vt->next_action(r->state, &a);
    switch (a.flag) {
    case STORE:
      ckpt_slot(r, vt->store, a.cpnum, a.iteration);
      break;
    case RESTORE:
      ckpt_slot(r, vt->restore, a.cpnum, a.iteration);
      break;
    case FORWARD: {
      int64_t j;
      for (j = a.startiteration; j < a.iteration; j++) {
        int64_t more = primal(env, start + j);
        if (online && !more) { /* the while loop ended after step j */
          online = 0;
          r->n = j + 1;
          if (!vt->set_nsteps)
            ckpt_fail("the scheme has no set_nsteps, which a while loop needs");
          vt->set_nsteps(r->state, r->n);
          break;
        }
      }
      break;
    }
    case FIRSTUTURN:
      if (online || r->n <= 0)
        ckpt_fail("the scheme turned before the loop ended");
      if (a.iteration != r->n)
        ckpt_fail("the scheme's first turn is not at the last step");
      ckpt_slot(r, vt->store, -2, r->n - 1);
      primal(env, start + r->n - 1);
      r->turned = 1;
      return r;
    case DONE:
      if (online || r->n != 0)
        ckpt_fail("the scheme was done before turning");
      return r;
    default:
      ckpt_fail("the scheme gave no action, or an action the forward sweep cannot take");
    }
  }
}

__attribute__((weak)) void __pyenzyme_ckpt_reverse(void *handle, void *env, primal_fn primal, turn_fn turn) {
  ckpt_run *r = (ckpt_run *)handle;
  const ckpt_scheme *vt = r->vt;
  if (r->turned) {
    int64_t remaining = r->n - 1;
    ckpt_slot(r, vt->store, -1, r->n);
    ckpt_slot(r, vt->restore, -2, r->n - 1);
    turn(env, r->start + r->n - 1);
    for (;;) {
      ckpt_action a = {NONE, 0, 0, 0};
      int done = 0;
      vt->next_action(r->state, &a);
      switch (a.flag) {
      case STORE:
        ckpt_slot(r, vt->store, a.cpnum, a.iteration);
        break;
      case RESTORE:
        ckpt_slot(r, vt->restore, a.cpnum, a.iteration);
        break;
      case FORWARD: {
        int64_t j;
        for (j = a.startiteration; j < a.iteration; j++)
          primal(env, r->start + j);
        break;
      }
      case UTURN:
        if (a.iteration < 1 || a.iteration > r->n)
          ckpt_fail("the scheme turned at a step outside the loop");
        turn(env, r->start + a.iteration - 1);
        remaining--;
        break;
      case DONE:
        done = 1;
        break;
      default:
        ckpt_fail("the scheme gave no action, or an action the reverse sweep cannot take");
      }
      if (done)
        break;
    }
    if (remaining != 0)
      ckpt_fail("the scheme did not differentiate every step exactly once");
    ckpt_slot(r, vt->restore, -1, r->n);
  }
  vt->finalize(r->state);
  free(r->regions);
  free(r);
}

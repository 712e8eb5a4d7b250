/* The reference schemes of <enzyme/checkpoint.h>, replayed on a model of the driver (no derivative): for
   every number of steps up to 70 and budgets 0 (the default) to 9, each STORE is of the current state, each
   RESTORE brings back the state its slot holds, each FORWARD starts from the current state, every step is
   turned exactly once, last first (the first turn at the forward sweep's end), from the state before it;
   Revolve and Binomial keep at most enzyme_ckpt_binomial_slots(n, budget) slots, Periodic at most its
   segments plus the longest segment's steps.  While loops (StoreAll) too.  Prints ALL OK. */
#include <enzyme/checkpoint.h>
#include <stdio.h>

static int replay(const char *name, const EnzymeCheckpointScheme *vt, int64_t n, int64_t budget, int online) {
  EnzymeCkptStats stats;
  EnzymeCkptConfig config = {budget, 0, NULL, 0, &stats};
  int64_t state = 0, next = n;
  EnzymeCkptRegion region = {&state, sizeof(state), 0, 0, NULL, NULL};
  void *st = vt->init(&config, online ? -1 : n, sizeof(state));
  int first_done = 0;
  for (;;) {
    EnzymeCkptAction a;
    vt->next_action(st, &a);
    if (a.flag == ENZYME_CKPT_DONE)
      break;
    switch (a.flag) {
    case ENZYME_CKPT_STORE:
      if (a.iteration != state)
        return printf("%s n=%lld b=%lld: store of step %lld at %lld\n", name, (long long)n, (long long)budget,
                      (long long)a.iteration, (long long)state), 1;
      vt->store(st, a.cpnum, a.iteration, &region, 1);
      break;
    case ENZYME_CKPT_RESTORE:
      vt->restore(st, a.cpnum, a.iteration, &region, 1);
      if (state != a.iteration)
        return printf("%s n=%lld b=%lld: restore gave %lld, not %lld\n", name, (long long)n, (long long)budget,
                      (long long)state, (long long)a.iteration), 1;
      break;
    case ENZYME_CKPT_FORWARD:
      if (a.startiteration != state || a.iteration < state)
        return printf("%s n=%lld b=%lld: forward %lld..%lld at %lld\n", name, (long long)n, (long long)budget,
                      (long long)a.startiteration, (long long)a.iteration, (long long)state), 1;
      while (state < a.iteration) {
        state++;
        if (online && state == n) { /* the while loop ends after step n - 1 */
          vt->set_nsteps(st, n);
          online = 0;
          break;
        }
      }
      break;
    case ENZYME_CKPT_FIRSTUTURN:
    case ENZYME_CKPT_UTURN:
      if ((a.flag == ENZYME_CKPT_FIRSTUTURN) != !first_done || a.iteration != next || state != next - 1)
        return printf("%s n=%lld b=%lld: turn %d of step %lld at %lld, expected step %lld\n", name, (long long)n,
                      (long long)budget, (int)a.flag, (long long)a.iteration - 1, (long long)state,
                      (long long)next - 1), 1;
      if (!first_done) { /* the driver's slots -2 and -1 */
        vt->store(st, -2, n - 1, &region, 1);
        state = n;
        vt->store(st, -1, n, &region, 1);
        vt->restore(st, -2, n - 1, &region, 1);
        first_done = 1;
      }
      state = -1; /* the turn ran the step: the state is the one after it, which the schedule must not use */
      next--;
      break;
    default:
      return printf("%s n=%lld b=%lld: action %d\n", name, (long long)n, (long long)budget, (int)a.flag), 1;
    }
  }
  vt->finalize(st);
  if (next != 0 || stats.taped_steps != n)
    return printf("%s n=%lld b=%lld: %lld steps not turned\n", name, (long long)n, (long long)budget,
                  (long long)next), 1;
  if ((vt == &EnzymeCkptRevolve || vt == &EnzymeCkptBinomial) && stats.max_slots > enzyme_ckpt_binomial_slots(n, budget))
    return printf("%s n=%lld b=%lld: %lld slots\n", name, (long long)n, (long long)budget,
                  (long long)stats.max_slots), 1;
  if (vt == &EnzymeCkptPeriodic) {
    EnzymeCkptPeriodicSplit s = enzyme_ckpt_periodic_split(n, budget);
    if (stats.max_slots > enzyme_ckpt_periodic_segments(s) + s.inner)
      return printf("%s n=%lld b=%lld: %lld slots\n", name, (long long)n, (long long)budget,
                    (long long)stats.max_slots), 1;
  }
  return 0;
}

int main(void) {
  int failures = 0;
  for (int64_t n = 0; n <= 70; n++)
    for (int64_t b = 0; b <= 9; b++) {
      failures += replay("revolve", &EnzymeCkptRevolve, n, b, 0);
      failures += replay("binomial", &EnzymeCkptBinomial, n, b, 0);
      failures += replay("periodic", &EnzymeCkptPeriodic, n, b, 0);
      failures += replay("store all", &EnzymeCkptStoreAll, n, b, 0);
      if (n > 0)
        failures += replay("store all, while", &EnzymeCkptStoreAll, n, b, 1);
      if (failures > 10)
        return 1;
    }
  /* The schedules' arithmetic at a few points. */
  failures += enzyme_ckpt_binomial_progress(10, 3) != 4 || enzyme_ckpt_binomial_progress(7, 1) != 7 ||
              enzyme_ckpt_isqrt(48) != 6 || enzyme_ckpt_isqrt(49) != 7 ||
              enzyme_ckpt_schedule_from_name("regular", 7) != ENZYME_CKPT_SCHEDULE_PERIODIC ||
              enzyme_ckpt_schedule_from_name("binomial,2", 8) != ENZYME_CKPT_SCHEDULE_BINOMIAL ||
              enzyme_ckpt_schedule_from_name("revolv", 6) != -1 || enzyme_ckpt_periodic_split(37, 3).inner != 13;
  printf(failures ? "FAILED\n" : "ALL OK\n");
  return failures != 0;
}

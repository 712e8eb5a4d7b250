/* Memory of a checkpointed loop's gradient: `tape_memory plain|revolve|periodic` differentiates 2000 steps of
   a nonlinear diffusion on 512 cells, plainly (every step's tape kept) or through __enzyme_checkpoint_for
   (one step's tape at a time, plus the snapshots), and prints the peak resident memory in KiB and the
   gradient's entries 0, 100 and 511. */
#include <enzyme/checkpoint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { N = 512, STEPS = 2000 };
extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);

__attribute__((noinline)) static void step(int64_t i, double *u) {
  double next[N];
  for (int k = 0; k < N; k++) {
    double lap = u[(k + 1) % N] - 2 * u[k] + u[(k + N - 1) % N];
    next[k] = u[k] + 0.1 * lap + 0.001 * sin(u[k] * u[k] + 0.001 * (double)i);
  }
  memcpy(u, next, sizeof(next));
}

static double loss(const double *u) {
  double s = 0;
  for (int k = 0; k < N; k++) s += u[k] * u[k];
  return s;
}

static double plain(double *u) {
  for (int64_t i = 0; i < STEPS; i++) step(i, u);
  return loss(u);
}

static double checkpointed(double *u, const EnzymeCheckpointScheme *scheme, EnzymeCkptConfig *config) {
  __enzyme_checkpoint_for((void *)step, 0, STEPS, enzyme_scheme, scheme, config, enzyme_checkpoint_region, u,
                          (int64_t)sizeof(double) * N, u);
  return loss(u);
}

/* The peak resident memory of this program (VmHWM: ru_maxrss would include the parent's before exec). */
static long peak_kib(void) {
  char line[256];
  long kib = -1;
  FILE *f = fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof(line), f))
    if (sscanf(line, "VmHWM: %ld", &kib) == 1)
      break;
  fclose(f);
  return kib;
}

int main(int argc, char **argv) {
  static double u[N], du[N];
  EnzymeCkptConfig config = {strcmp(argc > 1 ? argv[1] : "", "periodic") == 0 ? 45 : 10, 0, NULL, 0, NULL};
  for (int k = 0; k < N; k++) u[k] = 1.0 + 0.3 * sin(0.05 * k);
  if (argc > 1 && strcmp(argv[1], "plain") == 0)
    __enzyme_autodiff((void *)plain, enzyme_dup, u, du);
  else
    __enzyme_autodiff((void *)checkpointed, enzyme_dup, u, du, enzyme_const,
                      argc > 1 && strcmp(argv[1], "periodic") == 0 ? &EnzymeCkptPeriodic : &EnzymeCkptRevolve,
                      enzyme_const, &config);
  printf("%ld %.17g %.17g %.17g\n", peak_kib(), du[0], du[100], du[511]);
  return 0;
}

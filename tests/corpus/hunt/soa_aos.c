#include "hunt.h"
/* Array-of-structs to struct-of-arrays and back, as done before a vectorised kernel: bodies
   {int id; double pos[2]; float charge; double mass;} read from an input array (memcpy of n records),
   grown with realloc when a second batch arrives, converted to SoA arrays, a pairwise Coulomb-like
   potential computed on the SoA arrays, written back into the records, and the records reordered by
   a stable insertion sort that swaps whole structs through a temporary (memcpy).  Objective: the
   potential plus a weighted sum of the reordered masses.  Inputs: the positions and masses. */
typedef struct {
  int id;
  double pos[2];
  float charge;
  double mass;
} Body;

typedef struct { double *x, *y, *q, *m; int n; } Soa;

static Soa to_soa(const Body *b, int n) {
  Soa s = {malloc(n * sizeof(double)), malloc(n * sizeof(double)), malloc(n * sizeof(double)),
           malloc(n * sizeof(double)), n};
  for (int i = 0; i < n; i++) {
    s.x[i] = b[i].pos[0]; s.y[i] = b[i].pos[1]; s.q[i] = b[i].charge; s.m[i] = b[i].mass;
  }
  return s;
}

static void from_soa(Body *b, const Soa *s) {
  for (int i = 0; i < s->n; i++) { b[i].pos[0] = s->x[i]; b[i].pos[1] = s->y[i]; b[i].mass = s->m[i]; }
}

static void sort_by_x(Body *b, int n) {
  for (int i = 1; i < n; i++) {
    Body key;
    memcpy(&key, &b[i], sizeof(Body));
    int j = i - 1;
    while (j >= 0 && b[j].pos[0] > key.pos[0]) {
      memcpy(&b[j + 1], &b[j], sizeof(Body));
      j--;
    }
    memcpy(&b[j + 1], &key, sizeof(Body));
  }
}

double bodies_potential(const Body *in, int n1, int n2) {
  Body *b = malloc(n1 * sizeof(Body));
  memcpy(b, in, n1 * sizeof(Body));
  b = realloc(b, (n1 + n2) * sizeof(Body));
  memcpy(b + n1, in + n1, n2 * sizeof(Body));
  int n = n1 + n2;
  Soa s = to_soa(b, n);
  double phi = 0.0;
  for (int i = 0; i < n; i++) {
    for (int j = i + 1; j < n; j++) {
      double dx = s.x[i] - s.x[j], dy = s.y[i] - s.y[j];
      phi += s.q[i] * s.q[j] / sqrt(dx * dx + dy * dy + 0.01);
    }
    s.m[i] *= 1.0 + 0.1 * s.x[i];
    s.x[i] += 0.05 * s.y[i];
  }
  from_soa(b, &s);
  sort_by_x(b, n);
  double w = 0.0;
  for (int i = 0; i < n; i++) w += (i + 1) * b[i].mass + 0.01 * b[i].id * b[i].pos[1];
  free(s.x); free(s.y); free(s.q); free(s.m); free(b);
  return phi + w;
}

enum { N1 = 4, N2 = 3, N = N1 + N2 };
static Body bodies[N];

int main(void) {
  for (int i = 0; i < N; i++) {
    bodies[i].id = i;
    bodies[i].pos[0] = cos(1.7 * i) * (1.0 + 0.2 * i);
    bodies[i].pos[1] = sin(1.3 * i);
    bodies[i].charge = (float)(i % 2 ? 1.0 : -0.5);
    bodies[i].mass = 1.0 + 0.3 * i;
  }
  double fd[3 * N], ad[3 * N];
  for (int i = 0; i < N; i++) {
    fd[3 * i] = HUNT_FD(bodies_potential(bodies, N1, N2), bodies[i].pos[0]);
    fd[3 * i + 1] = HUNT_FD(bodies_potential(bodies, N1, N2), bodies[i].pos[1]);
    fd[3 * i + 2] = HUNT_FD(bodies_potential(bodies, N1, N2), bodies[i].mass);
  }
  Body db[N];
#ifdef MODE_REV
  memset(db, 0, sizeof db);
  __enzyme_autodiff((void *)bodies_potential, enzyme_dup, bodies, db, enzyme_const, N1, enzyme_const, N2);
  for (int i = 0; i < N; i++) { ad[3 * i] = db[i].pos[0]; ad[3 * i + 1] = db[i].pos[1]; ad[3 * i + 2] = db[i].mass; }
  hunt_check_vec("grad", ad, fd, 3 * N);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < 3 * N; q++) {
    memset(db, 0, sizeof db);
    if (q % 3 == 2) db[q / 3].mass = 1.0; else db[q / 3].pos[q % 3] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)bodies_potential, enzyme_dup, bodies, db, enzyme_const, N1, enzyme_const, N2);
  }
  hunt_check_vec("grad", ad, fd, 3 * N);
#endif
  return hunt_finish();
}

#include "hunt.h"
/* 2-D Barnes-Hut: a quadtree of malloc'd nodes built by recursive insertion, centres of mass
   accumulated bottom-up, forces by a recursive walk with the opening criterion size/d < theta, the
   tree freed recursively.  Objective: potential-like energy sum m_i * phi_i.  Inputs: positions and
   masses. */
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);

typedef struct Node {
  double cx, cy, half;   /* square centre and half width */
  double mass, mx, my;   /* total mass and mass-weighted position */
  int body;              /* leaf body index, -1 if empty or internal */
  struct Node *child[4];
} Node;

static Node *node_new(double cx, double cy, double half) {
  Node *n = calloc(1, sizeof(Node));
  n->cx = cx; n->cy = cy; n->half = half; n->body = -1;
  return n;
}

static int quadrant(const Node *n, double x, double y) { return (x >= n->cx) + 2 * (y >= n->cy); }

static void insert(Node *n, const double *pos, const double *m, int i, int depth) {
  if (n->mass == 0.0 && n->body < 0 && !n->child[0] && !n->child[1] && !n->child[2] && !n->child[3]) {
    n->body = i;
  } else {
    if (n->body >= 0 && depth < 40) { /* split the leaf */
      int old = n->body;
      n->body = -1;
      int q = quadrant(n, pos[2 * old], pos[2 * old + 1]);
      double h = n->half / 2;
      n->child[q] = node_new(n->cx + (q & 1 ? h : -h), n->cy + (q & 2 ? h : -h), h);
      insert(n->child[q], pos, m, old, depth + 1);
    }
    int q = quadrant(n, pos[2 * i], pos[2 * i + 1]);
    if (!n->child[q]) {
      double h = n->half / 2;
      n->child[q] = node_new(n->cx + (q & 1 ? h : -h), n->cy + (q & 2 ? h : -h), h);
    }
    insert(n->child[q], pos, m, i, depth + 1);
  }
  n->mass += m[i];
  n->mx += m[i] * pos[2 * i];
  n->my += m[i] * pos[2 * i + 1];
}

static double potential_at(const Node *n, const double *pos, int i, double theta, double eps2) {
  if (!n || n->mass == 0.0 || n->body == i) return 0.0;
  double comx = n->mx / n->mass, comy = n->my / n->mass;
  double dx = comx - pos[2 * i], dy = comy - pos[2 * i + 1];
  double d2 = dx * dx + dy * dy + eps2;
  int leaf = n->body >= 0;
  if (leaf || 2 * n->half < theta * sqrt(d2)) return -n->mass / sqrt(d2);
  double s = 0.0;
  for (int q = 0; q < 4; q++) s += potential_at(n->child[q], pos, i, theta, eps2);
  return s;
}

static void tree_free(Node *n) {
  if (!n) return;
  for (int q = 0; q < 4; q++) tree_free(n->child[q]);
  free(n);
}

double bh_energy(const double *pos, const double *m, int n, double theta) {
  Node *root = node_new(0.0, 0.0, 2.0);
  for (int i = 0; i < n; i++) insert(root, pos, m, i, 0);
  double e = 0.0;
  for (int i = 0; i < n; i++) e += m[i] * potential_at(root, pos, i, theta, 1e-4);
  tree_free(root);
  return 0.5 * e;
}

enum { N = 24, NP = 6 };
static double pos[2 * N], m[N];

int main(void) {
  unsigned s = 7u;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u; pos[2 * i] = 1.8 * ((s >> 8) % 10000) / 10000.0 - 0.9;
    s = s * 1664525u + 1013904223u; pos[2 * i + 1] = 1.8 * ((s >> 8) % 10000) / 10000.0 - 0.9;
    m[i] = 0.5 + 0.05 * i;
  }
  double theta = 0.6;
  double *prim[NP] = {&pos[0], &pos[7], &pos[20], &pos[2 * N - 1], &m[0], &m[13]};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-7; /* the tree shape and the opening decisions are piecewise constant */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(bh_energy(pos, m, N, theta), *prim[q]);
  double dpos[2 * N] = {0}, dm[N] = {0};
  double *shad[NP] = {&dpos[0], &dpos[7], &dpos[20], &dpos[2 * N - 1], &dm[0], &dm[13]};
#ifdef MODE_REV
  __enzyme_autodiff((void *)bh_energy, enzyme_dup, pos, dpos, enzyme_dup, m, dm, enzyme_const, N, enzyme_const, theta);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    *shad[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)bh_energy, enzyme_dup, pos, dpos, enzyme_dup, m, dm, enzyme_const, N,
                             enzyme_const, theta);
    *shad[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dpos2[2 * N] = {0}, dm2[N] = {0};
  double *shad2[NP] = {&dpos2[0], &dpos2[7], &dpos2[20], &dpos2[2 * N - 1], &dm2[0], &dm2[13]};
  for (int q = 0; q < NP; q += 2) {
    *shad[q] = 1.0; *shad2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)bh_energy, enzyme_width, 2, enzyme_dup, pos, dpos, dpos2, enzyme_dup, m, dm, dm2,
                               enzyme_const, N, enzyme_const, theta);
    *shad[q] = 0.0; *shad2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)bh_energy, enzyme_dup, pos, dpos, enzyme_dup, m, dm, enzyme_const, N,
                                enzyme_const, theta);
  hunt_check("primal", r.primal, bh_energy(pos, m, N, theta));
  __enzyme_reverse((void *)bh_energy, enzyme_dup, pos, dpos, enzyme_dup, m, dm, enzyme_const, N, enzyme_const, theta,
                   1.0, r.tape);
  for (int q = 0; q < NP; q++) ad[q] = *shad[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

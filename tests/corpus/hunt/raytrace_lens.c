#include "hunt.h"
/* Sequential ray trace through a thick biconvex singlet: vector helpers returning structs by value, a
   ray-sphere intersection returning a hit record {int hit; double t; vec3 p, n;} by value, vector Snell
   refraction with a total-internal-reflection flag, rays that miss skipped with continue.  The merit is
   the RMS spot radius on a paraxial image plane plus the chief-ray height of an off-axis fan.  Inputs:
   the two radii of curvature, the thickness, the refractive index and the image distance. */
#include <stdbool.h>

typedef struct { double x, y, z; } vec3;
typedef struct { vec3 o, d; } ray;
typedef struct { int hit; double t; vec3 p, n; } hit_t;
typedef struct { double z0, R; } surface;  /* sphere vertex on the axis at z0, signed radius R */

static inline vec3 v3(double x, double y, double z) { vec3 r = {x, y, z}; return r; }
static inline vec3 add(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 sub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 scale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline double dot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec3 normalize(vec3 a) { return scale(a, 1.0 / sqrt(dot(a, a))); }

static hit_t intersect(ray r, surface s) {
  hit_t h = {0, 0.0, {0, 0, 0}, {0, 0, 0}};
  vec3 c = v3(0, 0, s.z0 + s.R);
  vec3 oc = sub(r.o, c);
  double b = dot(oc, r.d), cc = dot(oc, oc) - s.R * s.R;
  double disc = b * b - cc;
  if (disc < 0) return h;
  double sq = sqrt(disc);
  /* the cap facing the incoming ray: nearer root for a convex (R > 0) surface, farther for concave */
  double t = s.R > 0 ? -b - sq : -b + sq;
  if (t <= 1e-12) return h;
  h.hit = 1;
  h.t = t;
  h.p = add(r.o, scale(r.d, t));
  h.n = normalize(sub(h.p, c));
  if (dot(h.n, r.d) > 0) h.n = scale(h.n, -1.0);
  return h;
}

static bool refract(vec3 d, vec3 n, double eta, vec3 *out) {
  double cosi = -dot(n, d);
  double k = 1.0 - eta * eta * (1.0 - cosi * cosi);
  if (k < 0) return false;
  *out = normalize(add(scale(d, eta), scale(n, eta * cosi - sqrt(k))));
  return true;
}

static vec3 to_plane(ray r, double z) {
  double t = (z - r.o.z) / r.d.z;
  return add(r.o, scale(r.d, t));
}

double spot_merit(const double *lens, double image_z, int nrays) {
  double R1 = lens[0], R2 = lens[1], thick = lens[2], nglass = lens[3];
  surface front = {0.0, R1}, back = {thick, R2};
  double aperture = 0.35 * fabs(R1);
  double sum2 = 0, cx = 0, cy = 0;
  int traced = 0, lost = 0;
  for (int i = 0; i < nrays; i++) {
    double hy = aperture * (2.0 * (i + 0.5) / nrays - 1.0);
    double hx = 0.3 * aperture * sin(2.4 * i);
    ray r = {v3(hx, hy, -5.0), v3(0, 0, 1)};
    hit_t h1 = intersect(r, front);
    if (!h1.hit) { lost++; continue; }
    vec3 d1;
    if (!refract(r.d, h1.n, 1.0 / nglass, &d1)) { lost++; continue; }
    ray inside = {h1.p, d1};
    hit_t h2 = intersect(inside, back);
    if (!h2.hit) { lost++; continue; }
    vec3 d2;
    if (!refract(d1, h2.n, nglass, &d2)) { lost++; continue; }
    ray outr = {h2.p, d2};
    vec3 p = to_plane(outr, image_z);
    sum2 += p.x * p.x + p.y * p.y;
    cx += p.x;
    cy += p.y;
    traced++;
  }
  if (lost) printf("%d rays lost\n", lost);
  cx /= traced;
  cy /= traced;
  double rms = sqrt(sum2 / traced - cx * cx - cy * cy);
  /* off-axis chief ray through the front vertex */
  ray chief = {v3(0, -0.5, -5.0), normalize(v3(0, 0.1, 1))};
  hit_t hc = intersect(chief, front);
  vec3 dc;
  double height = 0;
  if (hc.hit && refract(chief.d, hc.n, 1.0 / nglass, &dc)) {
    hit_t hc2 = intersect((ray){hc.p, dc}, back);
    vec3 dc2;
    if (hc2.hit && refract(dc, hc2.n, nglass, &dc2)) height = to_plane((ray){hc2.p, dc2}, image_z).y;
  }
  return rms + 0.05 * height * height;
}

int main(void) {
  double lens[4] = {20.0, -25.0, 3.0, 1.5168}, image_z = 22.0;
  int nrays = 21;
  enum { NP = 5 };
  double *prim[NP] = {&lens[0], &lens[1], &lens[2], &lens[3], &image_z};
  double fd[NP], ad[NP], dlens[4] = {0};
  for (int k = 0; k < NP; k++) fd[k] = HUNT_FD(spot_merit(lens, image_z, nrays), *prim[k]);
#ifdef MODE_REV
  ad[4] = __enzyme_autodiff((void *)spot_merit, enzyme_dup, lens, dlens, image_z, enzyme_const, nrays);
  for (int k = 0; k < 4; k++) ad[k] = dlens[k];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NP; k++) {
    if (k < 4) dlens[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)spot_merit, enzyme_dup, lens, dlens, image_z, k == 4 ? 1.0 : 0.0, enzyme_const,
                             nrays);
    if (k < 4) dlens[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

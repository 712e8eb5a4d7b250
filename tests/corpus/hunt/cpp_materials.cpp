#include "hunt.h"
/* C++17 polymorphism in a 1-D nonlinear bar: an abstract Material with virtual stress/tangent,
   LinearElastic / NeoHookean / Plasticity-like (smooth saturation) subclasses owned through
   std::unique_ptr in a std::vector, created by a factory from a material id per element.  Newton
   iterations solve for the nodal displacements under an end load.  Objective: end displacement.
   Inputs: the material parameters (one array) and the load. */
#include <cmath>
#include <memory>
#include <vector>

extern "C" {
typedef struct { void *tape; double primal; } aug_t;
aug_t __enzyme_augmentfwd(void *, ...);
double __enzyme_reverse(void *, ...);
typedef struct { double d[2]; } v2;
v2 __enzyme_fwddiff_v2(void *, ...);
}

class Material {
 public:
  virtual ~Material() = default;
  virtual double stress(double strain) const = 0;
  virtual double tangent(double strain) const = 0;
};

class LinearElastic final : public Material {
 public:
  explicit LinearElastic(double E) : E_(E) {}
  double stress(double e) const override { return E_ * e; }
  double tangent(double) const override { return E_; }
 private:
  double E_;
};

class NeoHookean final : public Material {
 public:
  explicit NeoHookean(double mu) : mu_(mu) {}
  double stress(double e) const override { double l = 1.0 + e; return mu_ * (l - 1.0 / (l * l)); }
  double tangent(double e) const override { double l = 1.0 + e; return mu_ * (1.0 + 2.0 / (l * l * l)); }
 private:
  double mu_;
};

class Saturating final : public Material {
 public:
  Saturating(double E, double sy) : E_(E), sy_(sy) {}
  double stress(double e) const override { return sy_ * std::tanh(E_ * e / sy_); }
  double tangent(double e) const override { double c = std::cosh(E_ * e / sy_); return E_ / (c * c); }
 private:
  double E_, sy_;
};

static std::unique_ptr<Material> make_material(int id, const double *p) {
  switch (id) {
  case 0: return std::make_unique<LinearElastic>(p[0]);
  case 1: return std::make_unique<NeoHookean>(p[1]);
  default: return std::make_unique<Saturating>(p[2], p[3]);
  }
}

/* A chain of n bars in series, fixed at the left, load at the right: the force in every bar equals
   the load, so each bar's strain solves stress(e) = load by Newton; the end displacement is the
   sum of strains times lengths. */
extern "C" double end_displacement(const double *params, const int *ids, int n, double load) {
  std::vector<std::unique_ptr<Material>> bars;
  bars.reserve(n);
  for (int i = 0; i < n; ++i) bars.push_back(make_material(ids[i], params));
  double u = 0.0;
  for (int i = 0; i < n; ++i) {
    double e = 0.0;
    for (int it = 0; it < 50; ++it) {
      double r = bars[i]->stress(e) - load;
      double de = r / bars[i]->tangent(e);
      e -= de;
      if (std::abs(de) < 1e-14) break;
    }
    u += (1.0 + 0.1 * i) * e;
  }
  return u;
}

int main() {
  double params[4] = {200.0, 80.0, 150.0, 3.0}, load = 2.0;
  int ids[6] = {0, 1, 2, 2, 1, 0};
  enum { NP = 5 };
  double *prim[NP] = {&params[0], &params[1], &params[2], &params[3], &load};
  double fd[NP], ad[NP];
  hunt_fd_step = 1e-6; /* Newton's stopping test */
  for (int q = 0; q < NP; q++) fd[q] = HUNT_FD(end_displacement(params, ids, 6, load), *prim[q]);
  double dparams[4] = {0};
#ifdef MODE_REV
  ad[4] = __enzyme_autodiff((void *)end_displacement, enzyme_dup, params, dparams, enzyme_const, ids, enzyme_const, 6,
                            load);
  for (int q = 0; q < 4; q++) ad[q] = dparams[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_FWD
  for (int q = 0; q < NP; q++) {
    if (q < 4) dparams[q] = 1.0;
    ad[q] = __enzyme_fwddiff((void *)end_displacement, enzyme_dup, params, dparams, enzyme_const, ids, enzyme_const, 6,
                             load, q == 4 ? 1.0 : 0.0);
    if (q < 4) dparams[q] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NP);
#endif
#ifdef MODE_BATCH
  double dp2[4] = {0};
  for (int q = 0; q < 4; q += 2) {
    dparams[q] = 1.0; dp2[q + 1] = 1.0;
    v2 t = __enzyme_fwddiff_v2((void *)end_displacement, enzyme_width, 2, enzyme_dup, params, dparams, dp2,
                               enzyme_const, ids, enzyme_const, 6, load, 0.0, 0.0);
    dparams[q] = 0.0; dp2[q + 1] = 0.0;
    ad[q] = t.d[0]; ad[q + 1] = t.d[1];
  }
  hunt_check_vec("grad", ad, fd, 4);
#endif
#ifdef MODE_SPLIT
  aug_t r = __enzyme_augmentfwd((void *)end_displacement, enzyme_dup, params, dparams, enzyme_const, ids, enzyme_const,
                                6, load);
  hunt_check("primal", r.primal, end_displacement(params, ids, 6, load));
  ad[4] = __enzyme_reverse((void *)end_displacement, enzyme_dup, params, dparams, enzyme_const, ids, enzyme_const, 6,
                           load, 1.0, r.tape);
  for (int q = 0; q < 4; q++) ad[q] = dparams[q];
  hunt_check_vec("grad", ad, fd, NP);
#endif
  return hunt_finish();
}

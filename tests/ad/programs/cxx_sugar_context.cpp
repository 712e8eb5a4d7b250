// Global shadows through the C++ interface: enzyme::context, enzyme::shadow, enzyme::zero_shadows and
// enzyme::autodiff<Mode>(ctx, f, ...).  A model's parameters live in globals (a namespace-scope array and a
// static member); reverse mode accumulates their adjoints in the context's shadows, forward mode reads their
// tangents from there, and a second context keeps shadows of its own.  Checked against central differences.
#include "check.h"

#include <enzyme/enzyme>

double weights[2] = {0.7, -0.2};
struct Material {
  static double stiffness;
};
double Material::stiffness = 3.0;

static double response(double x) { return Material::stiffness * tanh(weights[0] * x + weights[1]) * x; }

int main() {
  double x = 0.9, p;
  enzyme::context ctx;
  double *dw = *enzyme::shadow(ctx, weights);  // a pointer to the shadow array
  double *dk = enzyme::shadow(ctx, Material::stiffness);
  enzyme::zero_shadows(ctx);
  auto r = enzyme::autodiff<enzyme::Reverse>(ctx, response, enzyme::Active<double>(x));
  check("dx", enzyme::get<0>(enzyme::get<0>(r)), CENTRAL(response(p), p, x), 1e-6);
  check("dw0", dw[0], CENTRAL(response(x), weights[0], weights[0]), 1e-6);
  check("dw1", dw[1], CENTRAL(response(x), weights[1], weights[1]), 1e-6);
  check("dk", *dk, CENTRAL(response(x), Material::stiffness, Material::stiffness), 1e-6);

  enzyme::zero_shadows(ctx);
  *dk = 1.0;
  auto t = enzyme::autodiff<enzyme::Forward>(ctx, response, enzyme::Duplicated<double>(x, 0.0));
  check("tangent along stiffness", enzyme::get<0>(t), CENTRAL(response(x), Material::stiffness,
                                                                Material::stiffness), 1e-6);

  enzyme::context other;
  auto r2 = enzyme::autodiff<enzyme::Reverse>(other, response, enzyme::Active<double>(x));
  check("other context: dk", *enzyme::shadow(other, Material::stiffness),
        CENTRAL(response(x), Material::stiffness, Material::stiffness), 1e-6);
  check("other context: dx", enzyme::get<0>(enzyme::get<0>(r2)), CENTRAL(response(p), p, x), 1e-6);
  check("first context untouched", *dk, 1.0, 0.0);
  return finish();
}

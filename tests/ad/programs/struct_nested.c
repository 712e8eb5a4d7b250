#include "check.h"
/* Nested structs: a struct holding an array of inner structs and a pointer to another struct. */
typedef struct { double w[2]; double b; } Neuron;
typedef struct { double scale; int active; } Config;
typedef struct { int n; Neuron cells[3]; Config *cfg; double out; } Layer;
double forward_pass(Layer *L, const double *in) {
  double s = 0;
  for (int i = 0; i < L->n; i++) {
    Neuron *c = &L->cells[i];
    double z = c->w[0] * in[0] + c->w[1] * in[1] + c->b;
    s += tanh(z) * L->cfg->scale;
  }
  L->out = s;   /* written and then read back through the struct */
  return L->out * L->out;
}

int main(void) {
  Config cfg = {1.3, 1}, dcfg = {0, 0};
  Layer L = {3, {{{0.5, -0.2}, 0.1}, {{-0.3, 0.8}, 0.0}, {{1.0, 0.4}, -0.5}}, &cfg, 0}, dL = {0};
  dL.cfg = &dcfg;
  double in[2] = {0.7, -1.1}, din[2] = {0};
  __enzyme_autodiff((void *)forward_pass, enzyme_dup, &L, &dL, enzyme_dup, in, din);
  double s = L.out;
  for (int i = 0; i < 3; i++) {
    Neuron *c = &L.cells[i];
    double z = c->w[0] * in[0] + c->w[1] * in[1] + c->b, dz = 2 * s * cfg.scale * (1 - tanh(z) * tanh(z));
    check("dw0", dL.cells[i].w[0], dz * in[0], 1e-12);
    check("dw1", dL.cells[i].w[1], dz * in[1], 1e-12);
    check("db", dL.cells[i].b, dz, 1e-12);
  }
  check("dscale via pointer member", dcfg.scale, 2 * s * s / cfg.scale, 1e-12);
  check("din0 central", din[0], CENTRAL(forward_pass(&L, in), in[0], in[0]), 1e-6);
  check("din1 central", din[1], CENTRAL(forward_pass(&L, in), in[1], in[1]), 1e-6);
  check("dout shadow consumed", dL.out, 0.0, 0.0);
  Layer tL = L, tdL = {0};
  Config tcfg = {1.0, 0};
  tdL.cfg = &tcfg;
  double zin[2] = {0, 0};
  check("forward along scale", __enzyme_fwddiff((void *)forward_pass, enzyme_dup, &tL, &tdL, enzyme_dup, in, zin), dcfg.scale, 1e-12);
  return finish();
}

#include "hunt.h"
/* HBV-style conceptual rainfall-runoff model: parameters looked up by name in a
   std::map<std::string, double> built from the calibration vector, a snow routine (degree-day melt and
   refreezing limited with std::clamp), a soil-moisture routine with a power-law recharge and an
   evapotranspiration cap by std::min, upper and lower response reservoirs with std::max percolation
   limits, and a triangular routing filter.  Objective: one minus the Nash-Sutcliffe efficiency.
   Inputs: the calibration parameters. */
#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

struct Forcing {
  double precip, temp, pet;
};

static std::vector<Forcing> synthetic_forcing(int ndays) {
  std::vector<Forcing> f(ndays);
  for (int d = 0; d < ndays; ++d) {
    const double season = std::sin(2 * M_PI * (d - 80) / 365.0);
    f[d].temp = 4.0 + 9.0 * season + 3.0 * std::sin(1.9 * d);
    f[d].precip = std::max(0.0, 3.0 + 4.0 * std::sin(0.7 * d + 1.0) + 2.0 * std::cos(2.3 * d));
    f[d].pet = std::max(0.2, 1.5 + 1.3 * season);
  }
  return f;
}

static const char *const PARAM_NAMES[] = {"TT", "CFMAX", "FC", "LP", "BETA", "K0", "K1", "K2", "UZL", "PERC"};
constexpr int NPARAM = sizeof(PARAM_NAMES) / sizeof(PARAM_NAMES[0]);

extern "C" double hbv_loss(const double *theta, const double *q_obs, int ndays) {
  std::map<std::string, double> par;
  for (int i = 0; i < NPARAM; ++i) par[PARAM_NAMES[i]] = theta[i];
  const double TT = par["TT"], CFMAX = par["CFMAX"], FC = par["FC"], LP = par["LP"], BETA = par["BETA"];
  const double K0 = par.at("K0"), K1 = par.at("K1"), K2 = par.at("K2"), UZL = par.at("UZL"), PERC = par.at("PERC");
  const double CFR = 0.05, CWH = 0.1;
  const std::vector<Forcing> forcing = synthetic_forcing(ndays);
  double snow = 0, liquid = 0, sm = 0.5 * FC, suz = 5.0, slz = 10.0;
  std::vector<double> q_sim(ndays, 0.0);
  const double weights[3] = {0.25, 0.5, 0.25};
  std::vector<double> qgen(ndays + 2, 0.0);
  for (int d = 0; d < ndays; ++d) {
    const Forcing &f = forcing[d];
    double rain = f.temp > TT ? f.precip : 0.0;
    snow += f.temp > TT ? 0.0 : f.precip;
    const double melt = std::clamp(CFMAX * (f.temp - TT), 0.0, snow);
    snow -= melt;
    liquid += melt;
    const double refreeze = std::clamp(CFR * CFMAX * (TT - f.temp), 0.0, liquid);
    snow += refreeze;
    liquid -= refreeze;
    const double excess = std::max(liquid - CWH * snow, 0.0);
    liquid -= excess;
    const double inflow = rain + excess;
    const double recharge = inflow * std::pow(std::min(sm / FC, 1.0), BETA);
    sm += inflow - recharge;
    const double et = f.pet * std::min(sm / (LP * FC), 1.0);
    sm = std::max(sm - et, 0.0);
    suz += recharge;
    const double perc = std::min(PERC, suz);
    suz -= perc;
    slz += perc;
    const double q0 = K0 * std::max(suz - UZL, 0.0);
    const double q1 = K1 * suz;
    const double q2 = K2 * slz;
    suz -= q0 + q1;
    slz -= q2;
    for (int j = 0; j < 3; ++j) qgen[d + j] += weights[j] * (q0 + q1 + q2);
    q_sim[d] = qgen[d];
  }
  double mean = 0;
  for (int d = 0; d < ndays; ++d) mean += q_obs[d];
  mean /= ndays;
  double num = 0, den = 0;
  for (int d = 30; d < ndays; ++d) {  // warm-up period excluded
    num += (q_sim[d] - q_obs[d]) * (q_sim[d] - q_obs[d]);
    den += (q_obs[d] - mean) * (q_obs[d] - mean);
  }
  return num / den;
}

int main() {
  enum { NDAYS = 240 };
  double theta[NPARAM] = {0.3, 3.1, 210.0, 0.72, 2.1, 0.18, 0.09, 0.03, 18.5, 1.3};
  double q_obs[NDAYS];
  for (int d = 0; d < NDAYS; ++d) q_obs[d] = 1.5 + std::sin(0.05 * d) + 0.4 * std::sin(0.9 * d) * std::sin(0.9 * d);
  hunt_fd_step = 1e-6;
  hunt_rtol = 1e-4;
  double fd[NPARAM], ad[NPARAM], dtheta[NPARAM] = {0};
  for (int k = 0; k < NPARAM; ++k) fd[k] = HUNT_FD(hbv_loss(theta, q_obs, NDAYS), theta[k]);
#ifdef MODE_REV
  __enzyme_autodiff((void *)hbv_loss, enzyme_dup, theta, dtheta, enzyme_const, q_obs, enzyme_const, NDAYS);
  for (int k = 0; k < NPARAM; ++k) ad[k] = dtheta[k];
  hunt_check_vec("grad", ad, fd, NPARAM);
#endif
#ifdef MODE_FWD
  for (int k = 0; k < NPARAM; ++k) {
    dtheta[k] = 1.0;
    ad[k] = __enzyme_fwddiff((void *)hbv_loss, enzyme_dup, theta, dtheta, enzyme_const, q_obs, enzyme_const, NDAYS);
    dtheta[k] = 0.0;
  }
  hunt_check_vec("grad", ad, fd, NPARAM);
#endif
  return hunt_finish();
}

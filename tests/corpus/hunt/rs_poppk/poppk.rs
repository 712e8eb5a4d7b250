//! Population pharmacokinetics: a one-compartment model with first-order absorption, allometric weight
//! scaling and a log-normal random effect on clearance, fitted by the first-order conditional estimation
//! (FOCE) objective with a Laplace term.  Flat C data rows are grouped per subject in a `BTreeMap` (`entry`
//! / `or_insert_with`); each subject's random effect is the mode of its conditional objective found by a
//! Gauss-Newton iteration (`Result` with `?`, `ok_or`); the model is a trait implemented by a struct, the
//! parameters come from a slice by pattern matching, and the sums are iterator chains.

use std::collections::BTreeMap;
use std::convert::TryFrom;

#[derive(Debug, Clone, Copy)]
struct Observation {
    time: f64,
    conc: f64,
}

#[derive(Debug)]
struct Subject {
    dose: f64,
    weight: f64,
    obs: Vec<Observation>,
}

#[derive(Debug)]
enum FitError {
    BadParameters,
    NotConverged { subject: u32, iterations: usize },
    NonPositiveCurvature(u32),
}

#[derive(Debug, Clone, Copy)]
struct Theta {
    cl: f64,
    v: f64,
    ka: f64,
    omega: f64,
    sigma: f64,
}

impl TryFrom<&[f64]> for Theta {
    type Error = FitError;
    fn try_from(p: &[f64]) -> Result<Self, FitError> {
        match *p {
            [cl, v, ka, omega, sigma] if cl > 0.0 && v > 0.0 && ka > 0.0 && omega > 0.0 && sigma > 0.0 => {
                Ok(Theta { cl, v, ka, omega, sigma })
            }
            _ => Err(FitError::BadParameters),
        }
    }
}

trait PkModel {
    /// Concentration and its derivative with respect to the elimination rate constant.
    fn conc(&self, dose: f64, t: f64) -> (f64, f64);
    fn elimination(&self) -> f64;
}

struct OneCompartmentOral {
    cl: f64,
    v: f64,
    ka: f64,
}

impl PkModel for OneCompartmentOral {
    fn conc(&self, dose: f64, t: f64) -> (f64, f64) {
        let k = self.elimination();
        let a = dose * self.ka / (self.v * (self.ka - k));
        let shape = (-k * t).exp() - (-self.ka * t).exp();
        let dshape = -t * (-k * t).exp();
        (a * shape, a * (shape / (self.ka - k) + dshape))
    }

    fn elimination(&self) -> f64 {
        self.cl / self.v
    }
}

fn individual(theta: &Theta, s: &Subject, eta: f64) -> OneCompartmentOral {
    let size = s.weight / 70.0;
    OneCompartmentOral { cl: theta.cl * size.powf(0.75) * eta.exp(), v: theta.v * size, ka: theta.ka }
}

/// Conditional objective of one subject (proportional error on the log scale), its gradient in eta and
/// the Gauss-Newton (expected) curvature.
fn conditional(theta: &Theta, s: &Subject, eta: f64) -> (f64, f64, f64) {
    let model = individual(theta, s, eta);
    let k = model.elimination();
    let (mut obj, mut grad, mut curv) = (0.5 * (eta / theta.omega).powi(2), eta / theta.omega.powi(2),
                                         1.0 / theta.omega.powi(2));
    for o in &s.obs {
        let (c, dc_dk) = model.conc(s.dose, o.time);
        let dlog_deta = dc_dk * k / c; // dk/deta = k
        let r = (o.conc.ln() - c.ln()) / theta.sigma;
        obj += 0.5 * r * r + theta.sigma.ln();
        grad -= r / theta.sigma * dlog_deta;
        curv += (dlog_deta / theta.sigma).powi(2);
    }
    (obj, grad, curv)
}

fn conditional_mode(theta: &Theta, id: u32, s: &Subject) -> Result<(f64, f64), FitError> {
    let mut eta = 0.0;
    for _ in 0..200 {
        let (_, g, h) = conditional(theta, s, eta);
        if h <= 0.0 {
            return Err(FitError::NonPositiveCurvature(id));
        }
        let step = (-g / h).clamp(-0.5, 0.5);
        eta += step;
        if step.abs() < 1e-12 {
            let (_, _, h) = conditional(theta, s, eta);
            return Ok((eta, h));
        }
    }
    Err(FitError::NotConverged { subject: id, iterations: 200 })
}

fn foce_objective(theta: &Theta, subjects: &BTreeMap<u32, Subject>) -> Result<f64, FitError> {
    subjects.iter().try_fold(0.0, |total, (&id, s)| {
        let (eta, curvature) = conditional_mode(theta, id, s)?;
        let (obj, _, _) = conditional(theta, s, eta);
        Ok(total + 2.0 * obj + curvature.ln() + 2.0 * theta.omega.ln())
    })
}

fn group_subjects(ids: &[u32], times: &[f64], concs: &[f64], doses: &[(u32, f64, f64)]) -> BTreeMap<u32, Subject> {
    let mut subjects = BTreeMap::new();
    for &(id, dose, weight) in doses {
        subjects.insert(id, Subject { dose, weight, obs: Vec::new() });
    }
    for ((&id, &time), &conc) in ids.iter().zip(times).zip(concs) {
        subjects
            .entry(id)
            .or_insert_with(|| Subject { dose: 100.0, weight: 70.0, obs: Vec::new() })
            .obs
            .push(Observation { time, conc });
    }
    subjects
}

/// -2 log-likelihood (FOCE with the Laplace term) of a population data set.
///
/// # Safety
/// `params` holds 5 values (CL, V, ka, omega, sigma); `ids`, `times`, `concs` hold `nobs` values; `subj_id`,
/// `subj_dose`, `subj_weight` hold `nsubj` values.
#[no_mangle]
pub unsafe extern "C" fn poppk_objective(params: *const f64, ids: *const u32, times: *const f64, concs: *const f64,
                                         nobs: usize, subj_id: *const u32, subj_dose: *const f64,
                                         subj_weight: *const f64, nsubj: usize) -> f64 {
    let params = std::slice::from_raw_parts(params, 5);
    let doses: Vec<(u32, f64, f64)> = (0..nsubj).map(|i| (*subj_id.add(i), *subj_dose.add(i), *subj_weight.add(i))).collect();
    let subjects = group_subjects(std::slice::from_raw_parts(ids, nobs), std::slice::from_raw_parts(times, nobs),
                                  std::slice::from_raw_parts(concs, nobs), &doses);
    let result = Theta::try_from(params).and_then(|theta| foce_objective(&theta, &subjects));
    match result {
        Ok(ofv) => ofv,
        Err(e) => {
            eprintln!("poppk_objective: {e:?}");
            f64::NAN
        }
    }
}

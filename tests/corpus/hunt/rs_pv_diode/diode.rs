//! Single-diode model of a photovoltaic module fitted to measured I-V curves: a parameter struct with
//! temperature and irradiance translation, a trait for I-V models with a default Newton solve of the
//! implicit diode equation (a damped step with `clamp`, `Result` with a custom error, `?` through the
//! collection of a whole curve), the maximum power point by `fold(f64::NEG_INFINITY, f64::max)`, the
//! curve's area by `windows(2)`, and curves built from flat C arrays with `chunks`.

use std::fmt;

const BOLTZMANN_OVER_Q: f64 = 8.617333262e-5; // V/K
const T_REF: f64 = 298.15;
const G_REF: f64 = 1000.0;
const CELLS_IN_SERIES: f64 = 60.0;
const BANDGAP_EV: f64 = 1.12;

#[derive(Debug)]
pub enum SolveError {
    NoConvergence { voltage: f64, iterations: usize },
    NonPhysical(&'static str),
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::NoConvergence { voltage, iterations } => {
                write!(f, "no convergence at V = {voltage:.3} after {iterations} iterations")
            }
            SolveError::NonPhysical(what) => write!(f, "non-physical parameter: {what}"),
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub struct Conditions {
    pub temperature: f64,
    pub irradiance: f64,
}

#[derive(Debug, Clone, Copy)]
pub struct SingleDiode {
    photo_current: f64,
    saturation_current: f64,
    ideality: f64,
    series_resistance: f64,
    shunt_resistance: f64,
    thermal_voltage: f64,
}

impl SingleDiode {
    /// Reference parameters (at 25 C and 1000 W/m2) translated to the given conditions (De Soto style).
    pub fn at(reference: &[f64], cond: Conditions) -> Result<Self, SolveError> {
        let [iph, ln_i0, n, rs, rsh] = match reference {
            [a, b, c, d, e] => [*a, *b, *c, *d, *e],
            _ => return Err(SolveError::NonPhysical("expected five parameters")),
        };
        if n <= 0.0 || rsh <= 0.0 {
            return Err(SolveError::NonPhysical("ideality and shunt resistance must be positive"));
        }
        let t = cond.temperature;
        let vt = n * CELLS_IN_SERIES * BOLTZMANN_OVER_Q * t;
        let i0 = ln_i0.exp() * (t / T_REF).powi(3) * (BANDGAP_EV / (n * BOLTZMANN_OVER_Q) * (1.0 / T_REF - 1.0 / t)).exp();
        let iph_t = iph * cond.irradiance / G_REF * (1.0 + 4.0e-4 * (t - T_REF));
        Ok(SingleDiode {
            photo_current: iph_t,
            saturation_current: i0,
            ideality: n,
            series_resistance: rs,
            shunt_resistance: rsh * G_REF / cond.irradiance,
            thermal_voltage: vt,
        })
    }
}

pub trait IvModel {
    /// Residual of the implicit equation for the current and its derivative with respect to the current.
    fn residual(&self, voltage: f64, current: f64) -> (f64, f64);
    fn short_circuit_guess(&self) -> f64;

    fn current(&self, voltage: f64) -> Result<f64, SolveError> {
        let mut i = self.short_circuit_guess();
        for iteration in 0..100 {
            let (f, df) = self.residual(voltage, i);
            let step = (-f / df).clamp(-2.0, 2.0);
            i += step;
            if step.abs() < 1e-13 * (1.0 + i.abs()) {
                return Ok(i);
            }
            if !i.is_finite() {
                return Err(SolveError::NoConvergence { voltage, iterations: iteration });
            }
        }
        Err(SolveError::NoConvergence { voltage, iterations: 100 })
    }
}

impl IvModel for SingleDiode {
    fn residual(&self, v: f64, i: f64) -> (f64, f64) {
        let vd = v + i * self.series_resistance;
        let e = (vd / self.thermal_voltage).exp();
        let f = self.photo_current - self.saturation_current * (e - 1.0) - vd / self.shunt_resistance - i;
        let df = -self.saturation_current * e * self.series_resistance / self.thermal_voltage
            - self.series_resistance / self.shunt_resistance
            - 1.0;
        (f, df)
    }

    fn short_circuit_guess(&self) -> f64 {
        self.photo_current
    }
}

pub struct Curve<'a> {
    pub cond: Conditions,
    pub voltage: &'a [f64],
    pub current: &'a [f64],
}

pub struct FitReport {
    pub sse: f64,
    pub max_power: Vec<f64>,
    pub energy_proxy: f64,
}

pub fn fit_report<M: IvModel>(make: impl Fn(Conditions) -> Result<M, SolveError>, curves: &[Curve])
    -> Result<FitReport, SolveError> {
    let mut report = FitReport { sse: 0.0, max_power: Vec::with_capacity(curves.len()), energy_proxy: 0.0 };
    for curve in curves {
        let model = make(curve.cond)?;
        let predicted = curve.voltage.iter().map(|&v| model.current(v)).collect::<Result<Vec<f64>, _>>()?;
        report.sse += predicted.iter().zip(curve.current).map(|(p, m)| (p - m).powi(2)).sum::<f64>();
        let pmax = curve.voltage.iter().zip(&predicted).map(|(v, i)| v * i).fold(f64::NEG_INFINITY, f64::max);
        report.max_power.push(pmax);
        report.energy_proxy += curve
            .voltage
            .windows(2)
            .zip(predicted.windows(2))
            .map(|(v, i)| 0.5 * (v[1] - v[0]) * (i[0] + i[1]))
            .sum::<f64>();
    }
    Ok(report)
}

/// Objective of a fit: squared current residuals, plus terms on the predicted maximum power.
///
/// # Safety
/// `params` holds 5 values; `voltage` and `current` hold `ncurves * npts` values; `temps` and `irrad` hold
/// `ncurves` values.
#[no_mangle]
pub unsafe extern "C" fn pv_objective(params: *const f64, voltage: *const f64, current: *const f64, npts: usize,
                                      temps: *const f64, irrad: *const f64, ncurves: usize) -> f64 {
    let params = std::slice::from_raw_parts(params, 5);
    let voltage = std::slice::from_raw_parts(voltage, npts * ncurves);
    let current = std::slice::from_raw_parts(current, npts * ncurves);
    let temps = std::slice::from_raw_parts(temps, ncurves);
    let irrad = std::slice::from_raw_parts(irrad, ncurves);
    let curves: Vec<Curve> = voltage
        .chunks(npts)
        .zip(current.chunks(npts))
        .zip(temps.iter().zip(irrad))
        .map(|((v, i), (&t, &g))| Curve { cond: Conditions { temperature: t, irradiance: g }, voltage: v, current: i })
        .collect();
    match fit_report(|cond| SingleDiode::at(params, cond), &curves) {
        Ok(report) => {
            let rated = 250.0;
            let pmax_penalty: f64 = report.max_power.iter().map(|p| ((p - rated) / rated).powi(2)).sum();
            report.sse + 0.5 * pmax_penalty + 1e-3 * report.energy_proxy
        }
        Err(e) => {
            eprintln!("pv_objective: {e}");
            f64::NAN
        }
    }
}

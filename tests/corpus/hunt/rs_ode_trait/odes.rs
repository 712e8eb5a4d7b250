//! A small ODE crate in idiomatic Rust, called from C for parameter estimation: the right-hand side is a
//! trait object (`Box<dyn Rhs>`) chosen at run time, the integrator is a struct owning its stage
//! buffers (`Vec<f64>`), classic RK4 and Cash-Karp adaptive steps behind an enum, state updates with
//! `iter_mut().zip()`, the error norm with `fold`, `Option<f64>` for a step suggestion, and observations
//! matched by `iter().position()`.  Models: a damped driven pendulum and the Brusselator.

pub trait Rhs {
    fn dim(&self) -> usize;
    fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]);
}

struct Pendulum {
    damping: f64,
    omega2: f64,
    drive: f64,
}

impl Rhs for Pendulum {
    fn dim(&self) -> usize {
        2
    }
    fn eval(&self, t: f64, y: &[f64], dy: &mut [f64]) {
        dy[0] = y[1];
        dy[1] = -self.damping * y[1] - self.omega2 * y[0].sin() + self.drive * (0.8 * t).cos();
    }
}

struct Brusselator {
    a: f64,
    b: f64,
}

impl Rhs for Brusselator {
    fn dim(&self) -> usize {
        2
    }
    fn eval(&self, _t: f64, y: &[f64], dy: &mut [f64]) {
        let (u, v) = (y[0], y[1]);
        dy[0] = self.a + u * u * v - (self.b + 1.0) * u;
        dy[1] = self.b * u - u * u * v;
    }
}

enum Method {
    Rk4 { h: f64 },
    CashKarp { rtol: f64, atol: f64 },
}

struct Integrator {
    rhs: Box<dyn Rhs>,
    k: Vec<Vec<f64>>,
    tmp: Vec<f64>,
    next_h: Option<f64>,
}

const CK_A: [[f64; 5]; 6] = [
    [0.0, 0.0, 0.0, 0.0, 0.0],
    [0.2, 0.0, 0.0, 0.0, 0.0],
    [3.0 / 40.0, 9.0 / 40.0, 0.0, 0.0, 0.0],
    [0.3, -0.9, 1.2, 0.0, 0.0],
    [-11.0 / 54.0, 2.5, -70.0 / 27.0, 35.0 / 27.0, 0.0],
    [1631.0 / 55296.0, 175.0 / 512.0, 575.0 / 13824.0, 44275.0 / 110592.0, 253.0 / 4096.0],
];
const CK_C: [f64; 6] = [0.0, 0.2, 0.3, 0.6, 1.0, 0.875];
const CK_B5: [f64; 6] = [37.0 / 378.0, 0.0, 250.0 / 621.0, 125.0 / 594.0, 0.0, 512.0 / 1771.0];
const CK_B4: [f64; 6] = [2825.0 / 27648.0, 0.0, 18575.0 / 48384.0, 13525.0 / 55296.0, 277.0 / 14336.0, 0.25];

impl Integrator {
    fn new(rhs: Box<dyn Rhs>) -> Self {
        let n = rhs.dim();
        Integrator { rhs, k: vec![vec![0.0; n]; 6], tmp: vec![0.0; n], next_h: None }
    }

    fn rk4_step(&mut self, t: f64, y: &mut [f64], h: f64) {
        let n = y.len();
        self.rhs.eval(t, y, &mut self.k[0]);
        for (stage, c) in [(1usize, 0.5), (2, 0.5), (3, 1.0)] {
            let (prev, rest) = self.k.split_at_mut(stage);
            for i in 0..n {
                self.tmp[i] = y[i] + c * h * prev[stage - 1][i];
            }
            self.rhs.eval(t + c * h, &self.tmp, &mut rest[0]);
        }
        for (i, yi) in y.iter_mut().enumerate() {
            *yi += h / 6.0 * (self.k[0][i] + 2.0 * self.k[1][i] + 2.0 * self.k[2][i] + self.k[3][i]);
        }
    }

    /// One attempted Cash-Karp step; returns the scaled error norm and leaves the 5th-order
    /// solution in `tmp`.
    fn ck_attempt(&mut self, t: f64, y: &[f64], h: f64, rtol: f64, atol: f64) -> f64 {
        let n = y.len();
        for s in 0..6 {
            let mut stage_y = y.to_vec();
            for (j, a) in CK_A[s].iter().enumerate().take(s) {
                for i in 0..n {
                    stage_y[i] += h * a * self.k[j][i];
                }
            }
            self.rhs.eval(t + CK_C[s] * h, &stage_y, &mut self.k[s]);
        }
        let mut err2 = 0.0;
        for i in 0..n {
            let y5 = y[i] + h * (0..6).map(|s| CK_B5[s] * self.k[s][i]).sum::<f64>();
            let y4 = y[i] + h * (0..6).map(|s| CK_B4[s] * self.k[s][i]).sum::<f64>();
            self.tmp[i] = y5;
            let sc = atol + rtol * y[i].abs().max(y5.abs());
            err2 += ((y5 - y4) / sc).powi(2);
        }
        (err2 / n as f64).sqrt()
    }

    fn integrate(&mut self, method: &Method, t0: f64, t1: f64, y: &mut [f64]) {
        match *method {
            Method::Rk4 { h } => {
                let steps = ((t1 - t0) / h).ceil().max(1.0) as usize;
                let hh = (t1 - t0) / steps as f64;
                for s in 0..steps {
                    self.rk4_step(t0 + s as f64 * hh, y, hh);
                }
            }
            Method::CashKarp { rtol, atol } => {
                let mut t = t0;
                let mut h = self.next_h.unwrap_or(0.05).min(t1 - t0);
                while t < t1 {
                    let last = t + h >= t1;
                    if last {
                        h = t1 - t;
                    }
                    let err = self.ck_attempt(t, y, h, rtol, atol);
                    let factor = (0.9 * err.powf(-0.2)).clamp(0.2, 5.0);
                    if err <= 1.0 {
                        t = if last { t1 } else { t + h };
                        y.copy_from_slice(&self.tmp);
                        if !last {
                            self.next_h = Some(h * factor);
                        }
                    }
                    h *= factor;
                }
            }
        }
    }
}

/// # Safety
/// `theta` holds 3 model parameters, `y0` the 2 initial values, `tobs`/`yobs` `nobs` observation times and
/// first-component values.  `model` 0: pendulum, 1: Brusselator; `adaptive` selects Cash-Karp.
#[no_mangle]
pub unsafe extern "C" fn ode_misfit(theta: *const f64, y0: *const f64, tobs: *const f64, yobs: *const f64,
                                    nobs: usize, model: i32, adaptive: i32) -> f64 {
    let theta = std::slice::from_raw_parts(theta, 3);
    let tobs = std::slice::from_raw_parts(tobs, nobs);
    let yobs = std::slice::from_raw_parts(yobs, nobs);
    let rhs: Box<dyn Rhs> = match model {
        0 => Box::new(Pendulum { damping: theta[0], omega2: theta[1], drive: theta[2] }),
        _ => Box::new(Brusselator { a: theta[0], b: theta[1] + theta[2] }),
    };
    let method = if adaptive != 0 { Method::CashKarp { rtol: 1e-9, atol: 1e-11 } } else { Method::Rk4 { h: 0.02 } };
    let mut solver = Integrator::new(rhs);
    let mut y = std::slice::from_raw_parts(y0, 2).to_vec();
    let mut t = 0.0;
    let mut track = Vec::with_capacity(nobs);
    for &tk in tobs {
        solver.integrate(&method, t, tk, &mut y);
        t = tk;
        track.push(y[0]);
    }
    let misfit = track.iter().zip(yobs).map(|(m, o)| (m - o).powi(2)).fold(0.0, |a, b| a + b);
    // penalty on the largest excursion after the first observation at or past t = 2
    let late = tobs.iter().position(|&tk| tk >= 2.0).unwrap_or(0);
    let peak = track[late..].iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    misfit + 0.01 * peak.powi(2) + 0.001 * y.iter().map(|v| v * v).sum::<f64>().ln_1p()
}

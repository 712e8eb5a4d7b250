//! Kalman filter for GPS tracking of a vehicle: a small dense `Mat` type (`Vec<f64>` storage, `Index`,
//! `Mul`, `Add`, `Sub` on references, transpose), a motion-model trait with an associated constant,
//! the filter generic over it, fixes with outages as `Option<[f64; 2]>` from NaN-marked C arrays
//! (`chunks_exact`), the innovation log-likelihood, a normalized-innovation-squared consistency monitor
//! over a sliding `VecDeque` window, and the final speed by `hypot`.

use std::collections::VecDeque;
use std::ops::{Add, Index, IndexMut, Mul, Sub};

#[derive(Clone, Debug)]
pub struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Mat {
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Mat { rows, cols, data: vec![0.0; rows * cols] }
    }

    pub fn identity(n: usize) -> Self {
        let mut m = Mat::zeros(n, n);
        (0..n).for_each(|i| m[(i, i)] = 1.0);
        m
    }

    pub fn from_rows(rows: &[&[f64]]) -> Self {
        let cols = rows[0].len();
        Mat { rows: rows.len(), cols, data: rows.iter().flat_map(|r| r.iter().copied()).collect() }
    }

    pub fn t(&self) -> Mat {
        let mut m = Mat::zeros(self.cols, self.rows);
        for i in 0..self.rows {
            for j in 0..self.cols {
                m[(j, i)] = self[(i, j)];
            }
        }
        m
    }

    pub fn scale(&self, s: f64) -> Mat {
        Mat { rows: self.rows, cols: self.cols, data: self.data.iter().map(|x| x * s).collect() }
    }

    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        self.data.chunks(self.cols).map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect()
    }

    /// Inverse and determinant of a 2x2 matrix.
    pub fn inverse2(&self) -> Option<(Mat, f64)> {
        let det = self[(0, 0)] * self[(1, 1)] - self[(0, 1)] * self[(1, 0)];
        if det.abs() < 1e-300 {
            return None;
        }
        let inv = Mat::from_rows(&[&[self[(1, 1)], -self[(0, 1)]], &[-self[(1, 0)], self[(0, 0)]]]).scale(1.0 / det);
        Some((inv, det))
    }
}

impl Index<(usize, usize)> for Mat {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.data[i * self.cols + j]
    }
}

impl IndexMut<(usize, usize)> for Mat {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        &mut self.data[i * self.cols + j]
    }
}

impl Mul for &Mat {
    type Output = Mat;
    fn mul(self, rhs: &Mat) -> Mat {
        assert_eq!(self.cols, rhs.rows, "shape mismatch");
        let mut out = Mat::zeros(self.rows, rhs.cols);
        for i in 0..self.rows {
            for k in 0..self.cols {
                let a = self[(i, k)];
                for j in 0..rhs.cols {
                    out[(i, j)] += a * rhs[(k, j)];
                }
            }
        }
        out
    }
}

impl Add for &Mat {
    type Output = Mat;
    fn add(self, rhs: &Mat) -> Mat {
        Mat { rows: self.rows, cols: self.cols, data: self.data.iter().zip(&rhs.data).map(|(a, b)| a + b).collect() }
    }
}

impl Sub for &Mat {
    type Output = Mat;
    fn sub(self, rhs: &Mat) -> Mat {
        Mat { rows: self.rows, cols: self.cols, data: self.data.iter().zip(&rhs.data).map(|(a, b)| a - b).collect() }
    }
}

pub trait MotionModel {
    const DIM: usize;
    fn transition(&self, dt: f64) -> Mat;
    fn process_noise(&self, dt: f64) -> Mat;
}

/// Nearly-constant-velocity model in the plane, white acceleration of spectral density `q`.
pub struct ConstantVelocity {
    pub q: f64,
}

impl MotionModel for ConstantVelocity {
    const DIM: usize = 4;

    fn transition(&self, dt: f64) -> Mat {
        let mut f = Mat::identity(Self::DIM);
        f[(0, 2)] = dt;
        f[(1, 3)] = dt;
        f
    }

    fn process_noise(&self, dt: f64) -> Mat {
        let (a, b, c) = (dt.powi(3) / 3.0, dt.powi(2) / 2.0, dt);
        Mat::from_rows(&[&[a, 0.0, b, 0.0], &[0.0, a, 0.0, b], &[b, 0.0, c, 0.0], &[0.0, b, 0.0, c]]).scale(self.q)
    }
}

pub struct KalmanFilter<M: MotionModel> {
    model: M,
    x: Vec<f64>,
    p: Mat,
    h: Mat,
    r: Mat,
    pub log_likelihood: f64,
    nis_window: VecDeque<f64>,
    pub nis_penalty: f64,
}

impl<M: MotionModel> KalmanFilter<M> {
    pub fn new(model: M, x0: Vec<f64>, p0: f64, sigma_gps: f64) -> Self {
        let h = Mat::from_rows(&[&[1.0, 0.0, 0.0, 0.0], &[0.0, 1.0, 0.0, 0.0]]);
        KalmanFilter {
            model,
            x: x0,
            p: Mat::identity(M::DIM).scale(p0),
            h,
            r: Mat::identity(2).scale(sigma_gps * sigma_gps),
            log_likelihood: 0.0,
            nis_window: VecDeque::with_capacity(6),
            nis_penalty: 0.0,
        }
    }

    pub fn predict(&mut self, dt: f64) {
        let f = self.model.transition(dt);
        self.x = f.mul_vec(&self.x);
        self.p = &(&(&f * &self.p) * &f.t()) + &self.model.process_noise(dt);
    }

    pub fn update(&mut self, z: [f64; 2]) -> Option<f64> {
        let predicted = self.h.mul_vec(&self.x);
        let nu: Vec<f64> = z.iter().zip(&predicted).map(|(a, b)| a - b).collect();
        let pht = &self.p * &self.h.t();
        let s = &(&self.h * &pht) + &self.r;
        let (s_inv, det) = s.inverse2()?;
        let gain = &pht * &s_inv;
        let correction = gain.mul_vec(&nu);
        self.x.iter_mut().zip(&correction).for_each(|(x, dx)| *x += dx);
        let kh = &gain * &self.h;
        self.p = &(&Mat::identity(M::DIM) - &kh) * &self.p;
        let nis: f64 = nu.iter().zip(s_inv.mul_vec(&nu)).map(|(a, b)| a * b).sum();
        self.log_likelihood -= 0.5 * (det.ln() + nis + 2.0 * (2.0 * std::f64::consts::PI).ln());
        if self.nis_window.len() == 5 {
            self.nis_window.pop_front();
        }
        self.nis_window.push_back(nis);
        let mean = self.nis_window.iter().sum::<f64>() / self.nis_window.len() as f64;
        self.nis_penalty += (mean - 2.0).powi(2);
        Some(nis)
    }

    pub fn speed(&self) -> f64 {
        self.x[2].hypot(self.x[3])
    }
}

/// Negative log-likelihood of GPS fixes (NaN marks an outage) under the filter, plus consistency and
/// final-speed terms.
///
/// # Safety
/// `params` holds 5 values (q, sigma_gps, vx0, vy0, p0); `fixes` holds `2 * nfix` values.
#[no_mangle]
pub unsafe extern "C" fn gps_track_objective(params: *const f64, fixes: *const f64, nfix: usize, dt: f64,
                                             speed_ref: f64) -> f64 {
    let p = std::slice::from_raw_parts(params, 5);
    let fixes: Vec<Option<[f64; 2]>> = std::slice::from_raw_parts(fixes, 2 * nfix)
        .chunks_exact(2)
        .map(|c| if c[0].is_nan() || c[1].is_nan() { None } else { Some([c[0], c[1]]) })
        .collect();
    let first = match fixes.iter().flatten().next() {
        Some(z) => *z,
        None => return f64::NAN,
    };
    let mut kf = KalmanFilter::new(ConstantVelocity { q: p[0] }, vec![first[0], first[1], p[2], p[3]], p[4], p[1]);
    let mut skipped = 0usize;
    for fix in fixes.iter().skip(1) {
        kf.predict(dt);
        match fix {
            Some(z) => {
                if kf.update(*z).is_none() {
                    return f64::NAN;
                }
            }
            None => skipped += 1,
        }
    }
    let speed_err = kf.speed() - speed_ref;
    -kf.log_likelihood + 0.01 * kf.nis_penalty + 0.5 * speed_err * speed_err + 0.0 * skipped as f64
}

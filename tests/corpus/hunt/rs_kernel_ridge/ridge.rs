//! Kernel ridge regression with hyperparameter tuning, in idiomatic Rust called from C: a small dense
//! matrix type with `Index<(usize, usize)>`/`IndexMut`, `Mul` for matrix-matrix and matrix-vector
//! products, a Cholesky factorization returning `Option` (None when the matrix is not positive
//! definite, handled with a jitter retry), Gram matrices built from a kernel closure passed as a generic
//! `F: Fn(&[f64], &[f64]) -> f64`, and training points as `Vec<Sample>`.  Objective: validation error of
//! the fitted model (weighted by `f64::hypot` distance) plus the log marginal likelihood term (log-determinant from the Cholesky diagonal).

use std::ops::{Index, IndexMut, Mul};

#[derive(Clone, Debug)]
pub struct Matrix {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Matrix {
    fn zeros(rows: usize, cols: usize) -> Self {
        Matrix { rows, cols, data: vec![0.0; rows * cols] }
    }

    fn from_fn<G: Fn(usize, usize) -> f64>(rows: usize, cols: usize, g: G) -> Self {
        let mut m = Matrix::zeros(rows, cols);
        for i in 0..rows {
            for j in 0..cols {
                m[(i, j)] = g(i, j);
            }
        }
        m
    }

    fn transpose(&self) -> Matrix {
        Matrix::from_fn(self.cols, self.rows, |i, j| self[(j, i)])
    }

    /// Lower-triangular L with L L^T = self, or None if a pivot is not positive.
    fn cholesky(&self) -> Option<Matrix> {
        let n = self.rows;
        let mut l = Matrix::zeros(n, n);
        for j in 0..n {
            let s: f64 = (0..j).map(|k| l[(j, k)].powi(2)).sum();
            let d = self[(j, j)] - s;
            if d <= 0.0 {
                return None;
            }
            l[(j, j)] = d.sqrt();
            for i in j + 1..n {
                let s: f64 = (0..j).map(|k| l[(i, k)] * l[(j, k)]).sum();
                l[(i, j)] = (self[(i, j)] - s) / l[(j, j)];
            }
        }
        Some(l)
    }
}

impl Index<(usize, usize)> for Matrix {
    type Output = f64;
    fn index(&self, (i, j): (usize, usize)) -> &f64 {
        &self.data[i * self.cols + j]
    }
}

impl IndexMut<(usize, usize)> for Matrix {
    fn index_mut(&mut self, (i, j): (usize, usize)) -> &mut f64 {
        &mut self.data[i * self.cols + j]
    }
}

impl Mul<&Matrix> for &Matrix {
    type Output = Matrix;
    fn mul(self, rhs: &Matrix) -> Matrix {
        assert_eq!(self.cols, rhs.rows);
        Matrix::from_fn(self.rows, rhs.cols, |i, j| (0..self.cols).map(|k| self[(i, k)] * rhs[(k, j)]).sum())
    }
}

impl Mul<&[f64]> for &Matrix {
    type Output = Vec<f64>;
    fn mul(self, v: &[f64]) -> Vec<f64> {
        self.data.chunks(self.cols).map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect()
    }
}

struct Sample {
    x: [f64; 2],
    y: f64,
}

fn gram<F: Fn(&[f64], &[f64]) -> f64>(a: &[Sample], b: &[Sample], kernel: &F) -> Matrix {
    Matrix::from_fn(a.len(), b.len(), |i, j| kernel(&a[i].x, &b[j].x))
}

/// Solves L L^T x = b by forward and back substitution.
fn chol_solve(l: &Matrix, b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut z = b.to_vec();
    for i in 0..n {
        let s: f64 = (0..i).map(|k| l[(i, k)] * z[k]).sum();
        z[i] = (z[i] - s) / l[(i, i)];
    }
    let lt = l.transpose();
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|k| lt[(i, k)] * z[k]).sum();
        z[i] = (z[i] - s) / lt[(i, i)];
    }
    z
}

fn to_samples(xy: &[f64]) -> Vec<Sample> {
    xy.chunks_exact(3).map(|c| Sample { x: [c[0], c[1]], y: c[2] }).collect()
}

/// # Safety
/// `hyper` holds 3 values (log length scale, log signal variance, log noise); `train` and `valid` hold
/// (x1, x2, y) triples, `ntrain` and `nvalid` of them.
#[no_mangle]
pub unsafe extern "C" fn ridge_objective(hyper: *const f64, train: *const f64, ntrain: usize, valid: *const f64,
                                         nvalid: usize) -> f64 {
    let hyper = std::slice::from_raw_parts(hyper, 3);
    let train = to_samples(std::slice::from_raw_parts(train, 3 * ntrain));
    let valid = to_samples(std::slice::from_raw_parts(valid, 3 * nvalid));
    let (ell, sf2, noise) = (hyper[0].exp(), hyper[1].exp(), hyper[2].exp());
    let kernel = |a: &[f64], b: &[f64]| {
        let d2 = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2)) / (ell * ell);
        sf2 * (1.0 + d2 / (2.0 * 1.5)).powf(-1.5)       // rational quadratic, alpha = 1.5
    };
    let mut k = gram(&train, &train, &kernel);
    for i in 0..train.len() {
        k[(i, i)] += noise;
    }
    let mut jitter = 0.0;
    let l = loop {
        match k.cholesky() {
            Some(l) => break l,
            None => {
                jitter = if jitter == 0.0 { 1e-10 } else { jitter * 10.0 };
                for i in 0..train.len() {
                    k[(i, i)] += jitter;
                }
            }
        }
    };
    let y: Vec<f64> = train.iter().map(|s| s.y).collect();
    let alpha = chol_solve(&l, &y);
    let kv = gram(&valid, &train, &kernel);
    let pred = &kv * alpha.as_slice();
    // validation points far from the data centre count less
    let weight = |s: &Sample| 1.0 / (1.0 + (s.x[0] - 0.1).hypot(s.x[1] + 0.2));
    let err: f64 = pred.iter().zip(valid.iter()).map(|(p, s)| weight(s) * (p - s.y).powi(2)).sum::<f64>()
        / valid.len() as f64;
    let logdet: f64 = 2.0 * (0..train.len()).map(|i| l[(i, i)].ln()).sum::<f64>();
    let fit: f64 = y.iter().zip(&alpha).fold(0.0, |acc, (a, b)| acc + a * b);
    // a consistency check people leave in: K alpha should reproduce y
    let resid = &k * alpha.as_slice();
    let worst = resid.iter().zip(&y).map(|(r, yy)| (r - yy).abs()).fold(0.0f64, f64::max);
    debug_assert!(worst < 1e-6);
    let ktk = &kv.transpose() * &kv;
    err + 0.5 * (fit + logdet) / train.len() as f64 + 1e-4 * ktk[(0, 0)]
}

//! Age-structured fish stock assessment written as a population ecologist writes Rust: a Leslie-type
//! projection matrix as `Vec<Vec<f64>>` (no ndarray), survival clamped with `f64::clamp`, fishing
//! selectivity chosen per age class by `match` with guards, the yearly projection as a custom struct
//! implementing `Iterator`, the equilibrium age distribution from `(I - A) n = r` solved by Gaussian
//! elimination with back substitution over `iter().rev()`, and a robust (median-of-residuals, by
//! `sort_by(|a, b| a.partial_cmp(b).unwrap())`) plus least-squares catch misfit.

type Matrix = Vec<Vec<f64>>;

fn selectivity(age: usize, a50: f64, slope: f64) -> f64 {
    match age {
        0 => 0.0,
        a if (a as f64) < a50 - 2.0 => 0.05,
        a if a >= 8 => 1.0,
        a => 1.0 / (1.0 + (-slope * (a as f64 - a50)).exp()),
    }
}

fn projection_matrix(fecundity: &[f64], nat_mort: f64, fishing: f64, a50: f64, slope: f64) -> Matrix {
    let n = fecundity.len();
    let mut a = vec![vec![0.0; n]; n];
    for (j, f) in fecundity.iter().enumerate() {
        a[0][j] = *f;
    }
    for age in 0..n - 1 {
        let z = nat_mort + fishing * selectivity(age, a50, slope);
        a[age + 1][age] = (-z).exp().clamp(0.01, 0.95);
    }
    a[n - 1][n - 1] = 0.5 * a[n - 1][n - 2]; // plus group
    a
}

fn mat_vec(a: &Matrix, x: &[f64]) -> Vec<f64> {
    a.iter().map(|row| row.iter().zip(x).map(|(r, v)| r * v).sum()).collect()
}

/// Years of projection: yields (numbers at age, catch) each year.
struct Projection<'a> {
    a: &'a Matrix,
    numbers: Vec<f64>,
    harvest: Vec<f64>,
    year: usize,
    years: usize,
}

impl<'a> Iterator for Projection<'a> {
    type Item = (Vec<f64>, f64);
    fn next(&mut self) -> Option<Self::Item> {
        if self.year >= self.years {
            return None;
        }
        self.year += 1;
        let next = mat_vec(self.a, &self.numbers);
        let catch: f64 = self.numbers.iter().zip(&self.harvest).map(|(n, h)| n * h).sum();
        // density dependence on recruits (Beverton-Holt)
        let mut next = next;
        next[0] /= 1.0 + 0.002 * next[0];
        self.numbers = next.clone();
        Some((next, catch))
    }
}

fn solve(mut a: Matrix, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for k in 0..n {
        let p = (k..n).max_by(|&i, &j| a[i][k].abs().partial_cmp(&a[j][k].abs()).unwrap()).unwrap();
        a.swap(k, p);
        b.swap(k, p);
        for i in k + 1..n {
            let f = a[i][k] / a[k][k];
            for j in k..n {
                a[i][j] -= f * a[k][j];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = vec![0.0; n];
    for i in (0..n).rev() {
        let s: f64 = (i + 1..n).map(|j| a[i][j] * x[j]).sum();
        x[i] = (b[i] - s) / a[i][i];
    }
    x
}

/// # Safety
/// `params` holds 5 values (natural mortality, fishing mortality, selectivity a50 and slope, fecundity
/// scale), `catches` `years` observed catches.
#[no_mangle]
pub unsafe extern "C" fn stock_objective(params: *const f64, catches: *const f64, years: usize) -> f64 {
    let p = std::slice::from_raw_parts(params, 5);
    let obs = std::slice::from_raw_parts(catches, years);
    let nages = 10;
    let fecundity: Vec<f64> = (0..nages).map(|a| if a < 2 { 0.0 } else { p[4] * (a as f64).sqrt() }).collect();
    let a = projection_matrix(&fecundity, p[0], p[1], p[2], p[3]);
    let harvest: Vec<f64> = (0..nages)
        .map(|age| {
            let f = p[1] * selectivity(age, p[2], p[3]);
            let z = p[0] + f;
            f / z * (1.0 - (-z).exp())
        })
        .collect();
    // equilibrium distribution under a constant recruitment of 100 (no fecundity feedback)
    let mut i_minus_a: Matrix = a.iter().map(|row| row.iter().map(|v| -v).collect()).collect();
    for (k, row) in i_minus_a.iter_mut().enumerate() {
        row[k] += 1.0;
        if k == 0 {
            row.iter_mut().for_each(|v| *v = 0.0);
            row[0] = 1.0;
        }
    }
    let mut rhs = vec![0.0; nages];
    rhs[0] = 100.0;
    let start = solve(i_minus_a, rhs);
    let proj = Projection { a: &a, numbers: start, harvest, year: 0, years };
    let mut residuals: Vec<f64> = proj.zip(obs).map(|((_, c), o)| (c / o).ln()).collect();
    let ls: f64 = residuals.iter().map(|r| r * r).sum();
    residuals.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = if residuals.len() % 2 == 1 {
        residuals[residuals.len() / 2]
    } else {
        0.5 * (residuals[residuals.len() / 2 - 1] + residuals[residuals.len() / 2])
    };
    ls + median * median
}

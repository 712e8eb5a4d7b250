//! Rust moves of records holding a `Vec`: matrices `{rows, cols, data: Vec<f64>}` built by a constructor into a
//! stack slot and then moved (a 40-byte `memcpy`) into the fields of a filter struct, one from constant rows
//! and one from the active inputs (tests/api/test_rust_struct_moves.py).

pub struct Mat {
    rows: usize,
    cols: usize,
    data: Vec<f64>,
}

impl Mat {
    #[inline(never)]
    pub fn from_rows(rows: &[&[f64]]) -> Mat {
        let cols = rows[0].len();
        Mat { rows: rows.len(), cols, data: rows.iter().flat_map(|r| r.iter().copied()).collect() }
    }

    pub fn identity(n: usize) -> Mat {
        let mut data = vec![0.0; n * n];
        for i in 0..n {
            data[i * n + i] = 1.0;
        }
        Mat { rows: n, cols: n, data }
    }

    pub fn scale(mut self, s: f64) -> Mat {
        self.data.iter_mut().for_each(|v| *v *= s);
        self
    }

    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        (0..self.rows).map(|i| (0..self.cols).map(|j| self.data[i * self.cols + j] * v[j]).sum()).collect()
    }
}

pub struct Filter {
    gain: f64,
    x: Vec<f64>,
    p: Mat,
    h: Mat,
    a: Mat,
    scale: f64,
}

impl Filter {
    pub fn new(gain: f64, x: Vec<f64>, a: Mat) -> Filter {
        let h = Mat::from_rows(&[&[1.0, 0.0, 2.0], &[0.0, 1.0, -1.0]]);
        Filter { gain, x, p: Mat::identity(3).scale(gain), h, a, scale: 0.5 }
    }

    pub fn step(&mut self) {
        let px = self.p.mul_vec(&self.x);
        self.x = px.iter().zip(&self.x).map(|(u, v)| 0.5 * (u + v)).collect();
        self.p = Mat::identity(3).scale(self.gain * 0.9);
    }

    pub fn energy(&self, x: &[f64]) -> f64 {
        let hx: Vec<f64> = self.h.mul_vec(x).iter().zip(&self.x).map(|(u, v)| u + v).collect();
        let ax = self.a.mul_vec(x);
        self.scale * hx.iter().zip(&ax).map(|(p, q)| p * q + (self.gain * q).sin()).sum::<f64>()
    }
}

/// # Safety
/// `x` holds `n` >= 3 values.
#[no_mangle]
pub unsafe extern "C" fn moved_energy(x: *const f64, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let a = Mat::from_rows(&[&[x[0], x[1], 0.5], &[x[2], 1.0, x[0]]]);
    let mut f = Filter::new(x[1] * 0.3 + 1.0, x[..3].to_vec(), a);
    let mut total = 0.0;
    for _ in 0..3 {
        f.step();
        total += f.energy(&x[..3]);
    }
    total
}

//! A matrix built from rows given as `&[&[f64]]` (flattened with `flat_map`), once from constant rows and once
//! from rows holding the active inputs (tests/api/test_rust_rows_matrix.py).

pub struct Mat {
    cols: usize,
    data: Vec<f64>,
}

impl Mat {
    #[inline(never)]
    pub fn from_rows(rows: &[&[f64]]) -> Mat {
        let cols = rows[0].len();
        Mat { cols, data: rows.iter().flat_map(|r| r.iter().copied()).collect() }
    }

    pub fn mul_vec(&self, v: &[f64]) -> Vec<f64> {
        self.data.chunks(self.cols).map(|row| row.iter().zip(v).map(|(a, b)| a * b).sum()).collect()
    }
}

/// # Safety
/// `x` holds `n` >= 3 values.
#[no_mangle]
pub unsafe extern "C" fn rows_energy(x: *const f64, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let h = Mat::from_rows(&[&[1.0, 0.0, 2.0], &[0.0, 1.0, -1.0]]);
    let a = Mat::from_rows(&[&[x[0], x[1], 0.5], &[x[2], 1.0, x[0]]]);
    let hx = h.mul_vec(&x[..3]);
    let ax = a.mul_vec(&x[..3]);
    hx.iter().zip(&ax).map(|(p, q)| p * q + q.sin()).sum()
}

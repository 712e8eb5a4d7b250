//! A soil column model exposed to C as an opaque handle (the usual Rust-from-C pattern):
//! `column_new` returns `Box::into_raw(Box<Column>)`, `column_step` advances it, `column_free` takes the
//! box back.  Hydraulic functions come from Fortran (`vg_layer`).  Infiltration by an explicit
//! mixed-form Richards scheme on a coarse grid with a clamped time step.

extern "C" {
    fn vg_layer(n: i32, h: *const f64, alpha: f64, nvg: f64, ksat: f64, theta_r: f64, theta_s: f64, k: *mut f64,
                theta: *mut f64);
}

pub struct Column {
    h: Vec<f64>,
    k: Vec<f64>,
    theta: Vec<f64>,
    dz: f64,
    soil: [f64; 5],
    drained: f64,
}

impl Column {
    fn hydraulics(&mut self) {
        let [alpha, nvg, ksat, tr, ts] = self.soil;
        unsafe {
            vg_layer(self.h.len() as i32, self.h.as_ptr(), alpha, nvg, ksat, tr, ts, self.k.as_mut_ptr(),
                     self.theta.as_mut_ptr());
        }
    }

    fn capacity(&self, h: f64) -> f64 {
        // specific moisture capacity by a central difference of the retention curve (what many codes do)
        let [alpha, nvg, _, tr, ts] = self.soil;
        let se = |hh: f64| if hh < 0.0 { (1.0 + (alpha * hh.abs()).powf(nvg)).powf(-(1.0 - 1.0 / nvg)) } else { 1.0 };
        let eps = 1e-3;
        ((ts - tr) * (se(h + eps) - se(h - eps)) / (2.0 * eps)).max(1e-4)
    }
}

/// # Safety
/// `soil` holds 5 parameters (alpha, n, Ks, theta_r, theta_s); `h0` holds `n` initial heads.
#[no_mangle]
pub unsafe extern "C" fn column_new(n: usize, h0: *const f64, soil: *const f64, dz: f64) -> *mut Column {
    let h = std::slice::from_raw_parts(h0, n).to_vec();
    let s = std::slice::from_raw_parts(soil, 5);
    let c = Column { h, k: vec![0.0; n], theta: vec![0.0; n], dz, soil: [s[0], s[1], s[2], s[3], s[4]], drained: 0.0 };
    Box::into_raw(Box::new(c))
}

/// # Safety
/// `col` comes from `column_new`.
#[no_mangle]
pub unsafe extern "C" fn column_step(col: *mut Column, rain: f64, dt: f64) -> f64 {
    let c = &mut *col;
    c.hydraulics();
    let n = c.h.len();
    let mut q = vec![0.0; n + 1]; // downward flux at faces, face 0 is the surface
    q[0] = -rain.min(c.k[0]);
    for i in 1..n {
        let kf = (c.k[i - 1] * c.k[i]).sqrt();
        q[i] = -kf * ((c.h[i - 1] - c.h[i]) / c.dz + 1.0);
    }
    q[n] = -c.k[n - 1]; // free drainage
    let dt = dt.clamp(1e-4, 0.05);
    for i in 0..n {
        let dh = dt * (q[i] - q[i + 1]) / (c.dz * c.capacity(c.h[i]));
        c.h[i] -= dh;
    }
    c.drained -= q[n] * dt;
    c.theta.iter().sum::<f64>() * c.dz
}

/// # Safety
/// `col` comes from `column_new`; returns the drained depth.
#[no_mangle]
pub unsafe extern "C" fn column_free(col: *mut Column) -> f64 {
    let c = Box::from_raw(col);
    c.drained
}

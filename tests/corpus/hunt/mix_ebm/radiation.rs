//! Radiation terms of the energy-balance model in Rust: insolation by the second Legendre
//! polynomial, a smooth ice-albedo feedback (tanh ramp around the freezing line), linearized outgoing
//! longwave radiation A + B T, all as iterator chains over the latitude bands.

#[repr(C)]
pub struct RadParams {
    pub solar: f64,
    pub a_olr: f64,
    pub b_olr: f64,
    pub alpha_ice: f64,
    pub alpha_warm: f64,
    pub t_ice: f64,
}

fn insolation(x: f64, s0: f64) -> f64 {
    let p2 = 0.5 * (3.0 * x * x - 1.0);
    0.25 * s0 * (1.0 - 0.482 * p2)
}

/// # Safety
/// `temp` and `net` hold `n` values; `par` points to one `RadParams`.
#[no_mangle]
pub unsafe extern "C" fn net_radiation(n: usize, temp: *const f64, par: *const RadParams, net: *mut f64) -> f64 {
    let temp = std::slice::from_raw_parts(temp, n);
    let net = std::slice::from_raw_parts_mut(net, n);
    let p = &*par;
    let dx = 1.0 / n as f64;
    let mut ice_area = 0.0;
    for ((i, t), out) in temp.iter().enumerate().zip(net.iter_mut()) {
        let x = (i as f64 + 0.5) * dx;
        let ramp = 0.5 * (1.0 + ((p.t_ice - t) / 2.0).tanh());
        let albedo = p.alpha_warm + (p.alpha_ice - p.alpha_warm) * ramp;
        ice_area += ramp * dx;
        *out = insolation(x, p.solar) * (1.0 - albedo) - (p.a_olr + p.b_olr * t);
    }
    ice_area
}

//! A first-order decay chain A -> B -> C integrated with explicit Euler; the rate constants come from the
//! `rates` crate.  The objective is the final amount of B.
mod chain;

#[no_mangle]
pub extern "C" fn final_b(params: *const f64, temperature: f64, steps: i32) -> f64 {
    let p = unsafe { std::slice::from_raw_parts(params, 4) };
    let k1 = rates::arrhenius(p[0], p[1], temperature);
    let k2 = rates::arrhenius(p[2], p[3], temperature);
    chain::integrate(k1, k2, steps as usize).1
}

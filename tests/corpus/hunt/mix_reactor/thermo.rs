//! Rust part of the mixed-language reactor model: NASA-style polynomial heat capacities per species,
//! mixed by mole fraction with iterator chains.

const CP_COEF: [[f64; 3]; 4] = [
    [29.0, 2.0e-3, -1.0e-6],
    [31.5, 4.5e-3, -2.0e-6],
    [35.0, 6.0e-3, -3.0e-6],
    [40.0, 8.0e-3, -4.5e-6],
];

fn species_cp(coef: &[f64; 3], t: f64) -> f64 {
    coef.iter().enumerate().map(|(p, c)| c * t.powi(p as i32)).sum()
}

/// Molar heat capacity of the mixture, J/(mol K).
///
/// # Safety
/// `conc` holds `n` concentrations (n at most 4).
#[no_mangle]
pub unsafe extern "C" fn mixture_cp(t: f64, conc: *const f64, n: usize) -> f64 {
    let conc = std::slice::from_raw_parts(conc, n);
    let total: f64 = conc.iter().sum();
    conc.iter().zip(CP_COEF.iter()).map(|(c, coef)| c / total * species_cp(coef, t)).sum()
}

//! Rust cost function for the kinetics fit: a robust (Cauchy) loss per species with per-species scales,
//! predictions and observations as flat row-major arrays walked with `chunks_exact` and `zip`, a species
//! weighting picked by `match` on a scheme code, and a mass-balance penalty by `fold`.

#[derive(Clone, Copy)]
enum Weighting {
    Uniform,
    InverseRange,
}

fn cauchy(r: f64, c: f64) -> f64 {
    0.5 * c * c * (1.0 + (r / c).powi(2)).ln()
}

fn species_scales(obs: &[f64], nspec: usize, weighting: Weighting) -> Vec<f64> {
    (0..nspec)
        .map(|s| match weighting {
            Weighting::Uniform => 1.0,
            Weighting::InverseRange => {
                let (lo, hi) = obs
                    .chunks_exact(nspec)
                    .map(|row| row[s])
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)));
                1.0 / (hi - lo).max(1e-3)
            }
        })
        .collect()
}

/// Robust misfit of predicted concentrations, plus a penalty on the drift of total atom count (A + B + 2 C
/// + 2 D + 2 E as monomers) from its initial value.
///
/// # Safety
/// `pred` and `obs` hold `nobs * nspec` values.
#[no_mangle]
pub unsafe extern "C" fn kinetics_cost(pred: *const f64, obs: *const f64, nobs: usize, nspec: usize, scheme: i32)
    -> f64 {
    let pred = std::slice::from_raw_parts(pred, nobs * nspec);
    let obs = std::slice::from_raw_parts(obs, nobs * nspec);
    let weighting = match scheme {
        0 => Weighting::Uniform,
        _ => Weighting::InverseRange,
    };
    let scales = species_scales(obs, nspec, weighting);
    let misfit: f64 = pred
        .chunks_exact(nspec)
        .zip(obs.chunks_exact(nspec))
        .map(|(p, o)| p.iter().zip(o).zip(&scales).map(|((p, o), w)| cauchy(w * (p - o), 0.5)).sum::<f64>())
        .sum();
    let monomers = |row: &[f64]| row.iter().zip([1.0, 1.0, 2.0, 2.0, 2.0]).map(|(c, m)| c * m).sum::<f64>();
    let first = monomers(&pred[..nspec]);
    let drift = pred.chunks_exact(nspec).fold(0.0, |acc, row| acc + (monomers(row) - first).powi(2));
    misfit + 1e3 * drift
}

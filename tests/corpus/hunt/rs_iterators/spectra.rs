//! Spectral line fitting in idiomatic Rust, called from C: the model is a sum of Lorentzian peaks on a
//! polynomial baseline.  Peaks are collected into a Vec grown by push from parameter chunks
//! (`chunks_exact`), the model is evaluated with iterator chains (map / zip / fold / sum / enumerate),
//! closures capturing the peak list, `f64::powi`, `f64::hypot`, and a Huber loss chosen with `match`.
//! Objective: the robust misfit plus a smoothness penalty over `windows(3)`.

#[derive(Clone, Copy)]
struct Peak {
    center: f64,
    width: f64,
    height: f64,
}

enum Loss {
    Squared,
    Huber(f64),
}

fn loss_value(kind: &Loss, r: f64) -> f64 {
    match *kind {
        Loss::Squared => r * r,
        Loss::Huber(delta) => {
            if r.abs() <= delta {
                0.5 * r * r
            } else {
                delta * (r.abs() - 0.5 * delta)
            }
        }
    }
}

fn build_peaks(params: &[f64]) -> Vec<Peak> {
    let mut peaks = Vec::new();
    for c in params.chunks_exact(3) {
        peaks.push(Peak { center: c[0], width: c[1].abs() + 1e-3, height: c[2] });
    }
    peaks
}

/// # Safety
/// `params` holds `npar` values (3 per peak, then 3 baseline coefficients); `x` and `y` hold `m` values.
#[no_mangle]
pub unsafe extern "C" fn spectrum_misfit(params: *const f64, npar: usize, x: *const f64, y: *const f64, m: usize) -> f64 {
    let params = std::slice::from_raw_parts(params, npar);
    let x = std::slice::from_raw_parts(x, m);
    let y = std::slice::from_raw_parts(y, m);
    let (peak_par, base) = params.split_at(npar - 3);
    let peaks = build_peaks(peak_par);
    let model = |xi: f64| -> f64 {
        let lines: f64 = peaks
            .iter()
            .map(|p| p.height / (1.0 + ((xi - p.center) / p.width).powi(2)))
            .sum();
        let baseline = base.iter().enumerate().fold(0.0, |acc, (k, b)| acc + b * xi.powi(k as i32));
        lines + baseline
    };
    let predicted: Vec<f64> = x.iter().map(|&xi| model(xi)).collect();
    let loss = Loss::Huber(0.3);
    let misfit: f64 = predicted.iter().zip(y.iter()).map(|(p, o)| loss_value(&loss, p - o)).sum();
    let roughness: f64 = predicted
        .windows(3)
        .map(|w| (w[0] - 2.0 * w[1] + w[2]).hypot(1e-3))
        .fold(0.0, |a, b| a + b);
    misfit / m as f64 + 0.01 * roughness + 0.001 * loss_value(&Loss::Squared, peaks.len() as f64)
}

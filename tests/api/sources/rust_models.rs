//! Rust numerical code written the ordinary way: structs owning Vec fields, slices and their windows/chunks,
//! iterator chains, extend_from_slice and collect, Vec growth inside a time loop.

/// A 1-D bar discretised into elements: node positions and per-element stiffness, both owned Vecs.
struct Bar {
    nodes: Vec<f64>,
    stiffness: Vec<f64>,
}

impl Bar {
    fn new(lengths: &[f64], k0: f64) -> Bar {
        let mut nodes = Vec::with_capacity(1);
        nodes.push(0.0);
        for l in lengths {
            let last = *nodes.last().unwrap();
            nodes.push(last + l);
        }
        let stiffness = lengths.iter().map(|l| k0 / l).collect();
        Bar { nodes, stiffness }
    }

    /// Strain energy when node i moves by u[i] (u[0] = 0, clamped).
    fn energy(&self, u: &[f64]) -> f64 {
        u.windows(2).zip(&self.stiffness).map(|(w, k)| 0.5 * k * (w[1] - w[0]).powi(2)).sum()
    }
}

/// Total potential energy of a clamped bar under a tip load, at a displacement field found by a few steps of
/// gradient descent; `x` holds the element lengths followed by the tip load.
#[no_mangle]
pub extern "C" fn bar_potential(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let (lengths, load) = (&x[..n - 1], x[n - 1]);
    let bar = Bar::new(lengths, 2.0);
    let mut u = vec![0.0; bar.nodes.len()];
    for _ in 0..40 {
        let mut grad = vec![0.0; u.len()];
        for (e, k) in bar.stiffness.iter().enumerate() {
            let f = k * (u[e + 1] - u[e]);
            grad[e] -= f;
            grad[e + 1] += f;
        }
        *grad.last_mut().unwrap() -= load;
        for (ui, gi) in u.iter_mut().zip(&grad).skip(1) {
            *ui -= 0.05 * gi;
        }
    }
    let tip = *bar.nodes.last().unwrap();
    bar.energy(&u) - load * u[u.len() - 1] + 0.01 * tip * tip
}

/// A signal smoothed by a moving average over chunks, its history grown sample by sample with
/// extend_from_slice, and a weighted misfit over the history.
#[no_mangle]
pub extern "C" fn smoothed_misfit(p: *const f64, n: usize) -> f64 {
    let p = unsafe { std::slice::from_raw_parts(p, n) };
    let mut history: Vec<f64> = Vec::new();
    let mut state = p.to_vec();
    for step in 0..6 {
        let averaged: Vec<f64> = state.chunks(2).map(|c| c.iter().sum::<f64>() / c.len() as f64).collect();
        for (s, a) in state.iter_mut().zip(averaged.iter().flat_map(|a| [*a, *a])) {
            *s = 0.7 * *s + 0.3 * a + 0.01 * step as f64;
        }
        history.extend_from_slice(&state);
    }
    history.iter().enumerate().map(|(i, h)| (1.0 + 0.1 * (i % 3) as f64) * (h - 0.2).powi(2)).sum::<f64>()
        / history.len() as f64
}

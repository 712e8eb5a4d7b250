//! Bead-spring filament hanging in a viscous fluid, in idiomatic Rust called from C: beads are a
//! `Vec<Bead>` built from coordinate pairs with `chunks_exact(2)`, stretching and bending forces from
//! `windows(2)`/`windows(3)`, soft-core repulsion between all pairs with `f64::hypot`, `exp` and
//! `powi`, an external field passed as a generic closure `F: Fn(&Bead) -> [f64; 2]`, damped velocity
//! Verlet, and diagnostics using `Option` (`iter().max_by`, `find`, `map_or`).  Objective: tip
//! position misfit, a log-barrier on the bending energy, and the deepest bead below a floor.

#[derive(Clone, Copy, Debug, Default)]
struct Bead {
    x: [f64; 2],
    v: [f64; 2],
    f: [f64; 2],
    m: f64,
}

struct Params {
    k_stretch: f64,
    k_bend: f64,
    rest: f64,
    eps: f64,
    sigma: f64,
    drag: f64,
}

fn forces<F: Fn(&Bead) -> [f64; 2]>(beads: &mut [Bead], p: &Params, external: &F) -> f64 {
    for b in beads.iter_mut() {
        b.f = external(b);
        b.f[0] -= p.drag * b.v[0];
        b.f[1] -= p.drag * b.v[1];
    }
    let n = beads.len();
    let mut energy = 0.0;
    // stretching: indices of consecutive pairs from windows over the index range
    let idx: Vec<usize> = (0..n).collect();
    for w in idx.windows(2) {
        let (i, j) = (w[0], w[1]);
        let d = [beads[j].x[0] - beads[i].x[0], beads[j].x[1] - beads[i].x[1]];
        let len = d[0].hypot(d[1]);
        let stretch = len - p.rest;
        energy += 0.5 * p.k_stretch * stretch.powi(2);
        for c in 0..2 {
            let fc = p.k_stretch * stretch * d[c] / len;
            beads[i].f[c] += fc;
            beads[j].f[c] -= fc;
        }
    }
    // bending: discrete curvature x_{i-1} - 2 x_i + x_{i+1}
    for w in idx.windows(3) {
        let curv: Vec<f64> = (0..2).map(|c| beads[w[0]].x[c] - 2.0 * beads[w[1]].x[c] + beads[w[2]].x[c]).collect();
        energy += 0.5 * p.k_bend * curv.iter().map(|q| q * q).sum::<f64>();
        for c in 0..2 {
            beads[w[0]].f[c] -= p.k_bend * curv[c];
            beads[w[1]].f[c] += 2.0 * p.k_bend * curv[c];
            beads[w[2]].f[c] -= p.k_bend * curv[c];
        }
    }
    // soft-core repulsion between non-neighbours
    for i in 0..n {
        for j in i + 2..n {
            let dx = beads[j].x[0] - beads[i].x[0];
            let dy = beads[j].x[1] - beads[i].x[1];
            let r = dx.hypot(dy);
            let e = p.eps * (-(r / p.sigma).powi(2)).exp();
            energy += e;
            let g = 2.0 * e * r / (p.sigma * p.sigma); // -dE/dr
            beads[i].f[0] -= g * dx / r;
            beads[i].f[1] -= g * dy / r;
            beads[j].f[0] += g * dx / r;
            beads[j].f[1] += g * dy / r;
        }
    }
    energy
}

fn relax<F: Fn(&Bead) -> [f64; 2]>(beads: &mut Vec<Bead>, p: &Params, external: F, dt: f64, steps: usize) -> f64 {
    let mut energy = forces(beads, p, &external);
    for _ in 0..steps {
        for b in beads.iter_mut().skip(1) {
            // bead 0 is pinned
            for c in 0..2 {
                b.v[c] += 0.5 * dt * b.f[c] / b.m;
                b.x[c] += dt * b.v[c];
            }
        }
        energy = forces(beads, p, &external);
        for b in beads.iter_mut().skip(1) {
            for c in 0..2 {
                b.v[c] += 0.5 * dt * b.f[c] / b.m;
            }
        }
    }
    energy
}

/// # Safety
/// `coords` holds 2 `nbeads` initial coordinates, `phys` 7 parameters (stretch and bend stiffness, rest
/// length, repulsion strength and range, drag, gravity), `target` the 2 tip coordinates.
#[no_mangle]
pub unsafe extern "C" fn filament_objective(coords: *const f64, nbeads: usize, phys: *const f64,
                                            target: *const f64, steps: usize) -> f64 {
    let coords = std::slice::from_raw_parts(coords, 2 * nbeads);
    let phys = std::slice::from_raw_parts(phys, 7);
    let target = std::slice::from_raw_parts(target, 2);
    let mut beads: Vec<Bead> = coords
        .chunks_exact(2)
        .enumerate()
        .map(|(i, c)| Bead { x: [c[0], c[1]], m: 1.0 + 0.1 * i as f64, ..Default::default() })
        .collect();
    let p = Params { k_stretch: phys[0], k_bend: phys[1], rest: phys[2], eps: phys[3], sigma: phys[4], drag: phys[5] };
    let g = phys[6];
    let flow = 0.3;
    let bending = relax(&mut beads, &p, |b: &Bead| [flow * b.m * (0.5 * b.x[1]).exp(), -g * b.m], 0.01, steps);
    let tip = beads.last().map_or([0.0, 0.0], |b| b.x);
    let misfit = (tip[0] - target[0]).powi(2) + (tip[1] - target[1]).powi(2);
    let lowest = beads.iter().map(|b| b.x[1]).max_by(|a, b| b.partial_cmp(a).unwrap()).unwrap_or(0.0);
    let floor = -2.0;
    let below = beads.iter().find(|b| b.x[1] < floor).map_or(0.0, |b| (floor - b.x[1]).powi(2));
    misfit - 0.01 * (1.0 + bending).ln() + 0.05 * lowest.exp() + below
}

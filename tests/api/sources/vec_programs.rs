//! Rust written as people write it: a particle simulation pushing into a Vec, an iterator-map-sum loss,
//! and a closure-based integrator.

#[derive(Clone, Copy)]
struct Particle { x: f64, v: f64 }

/// Particles built by push (Vec growth), stepped with a spring force; returns the final energy.
#[no_mangle]
pub extern "C" fn particle_energy(x0: *const f64, n: usize) -> f64 {
    let x0 = unsafe { std::slice::from_raw_parts(x0, n) };
    let mut ps: Vec<Particle> = Vec::new();
    for &x in x0 {
        ps.push(Particle { x, v: 0.0 });
    }
    let dt = 0.01;
    for _ in 0..20 {
        for p in ps.iter_mut() {
            let f = -4.0 * p.x - 0.1 * p.x * p.x * p.x;
            p.v += dt * f;
            p.x += dt * p.v;
        }
    }
    ps.iter().map(|p| 0.5 * p.v * p.v + 2.0 * p.x * p.x).sum()
}

/// Least-squares loss of a line through data: iterator chains with zip, map and sum.
#[no_mangle]
pub extern "C" fn line_loss(theta: *const f64, n: usize) -> f64 {
    let theta = unsafe { std::slice::from_raw_parts(theta, 2) };
    let xs: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
    let ys: Vec<f64> = xs.iter().map(|x| (3.0 * x).sin()).collect();
    xs.iter().zip(ys.iter()).map(|(x, y)| { let r = theta[0] * x + theta[1] - y; r * r }).sum::<f64>() / n as f64
}

fn rk4<F: Fn(f64, f64) -> f64>(f: F, y0: f64, t1: f64, steps: usize) -> f64 {
    let h = t1 / steps as f64;
    let (mut t, mut y) = (0.0, y0);
    for _ in 0..steps {
        let k1 = f(t, y);
        let k2 = f(t + h / 2.0, y + h / 2.0 * k1);
        let k3 = f(t + h / 2.0, y + h / 2.0 * k2);
        let k4 = f(t + h, y + h * k3);
        y += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
        t += h;
    }
    y
}

/// A closure capturing the parameters, integrated with RK4; the trajectory is kept in a growing Vec.
#[no_mangle]
pub extern "C" fn decay_fit(p: *const f64, n: usize) -> f64 {
    let p = unsafe { std::slice::from_raw_parts(p, n) };
    let (k, c) = (p[0], p[1]);
    let rhs = |t: f64, y: f64| -k * y + c * (t).cos();
    let mut traj = Vec::with_capacity(1);
    for s in 1..=5 {
        traj.push(rk4(&rhs, 1.0, 0.2 * s as f64, 10 * s));
    }
    traj.iter().enumerate().map(|(i, y)| (y - 0.5 / (i + 1) as f64).powi(2)).sum()
}

trait Model {
    fn rate(&self, y: &[f64], dy: &mut [f64]);
}

struct Decay {
    k: f64,
}

struct Exchange {
    a: f64,
    b: f64,
}

impl Model for Decay {
    fn rate(&self, y: &[f64], dy: &mut [f64]) {
        for (d, v) in dy.iter_mut().zip(y) {
            *d = -self.k * v;
        }
    }
}

impl Model for Exchange {
    fn rate(&self, y: &[f64], dy: &mut [f64]) {
        dy[0] = -self.a * y[0] + self.b * y[1];
        dy[1] = self.a * y[0] - self.b * y[1];
    }
}

/// A model behind `Box<dyn Model>` picked at run time (neither type has anything to drop, so the vtables'
/// drop slots are null and the box's drop is a guarded call through null), Heun steps with stage buffers
/// from `vec![vec![0.0; n]; 2]` (clones of a `Vec<f64>` of run-time length, copied with memcpy).
#[no_mangle]
pub extern "C" fn boxed_model_fit(p: *const f64, n: usize) -> f64 {
    let p = unsafe { std::slice::from_raw_parts(p, n) };
    let model: Box<dyn Model> = if n == 2 { Box::new(Exchange { a: p[0], b: p[1] }) } else { Box::new(Decay { k: p[0] }) };
    let mut y = vec![0.5; n];
    y[0] = 1.0;
    let mut k = vec![vec![0.0; n]; 2];
    let mut tmp = vec![0.0; n];
    let h = 0.05;
    for _ in 0..20 {
        model.rate(&y, &mut k[0]);
        for i in 0..n {
            tmp[i] = y[i] + h * k[0][i];
        }
        model.rate(&tmp, &mut k[1]);
        for i in 0..n {
            y[i] += 0.5 * h * (k[0][i] + k[1][i]);
        }
    }
    y.iter().map(|v| v * v).sum::<f64>() + 1e-3 * p.iter().map(|q| q * q).sum::<f64>()
}

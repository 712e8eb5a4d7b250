//! Lumped RC thermal model of a small building (rooms, walls, a slab) as a building-physics group
//! writes it in Rust: element kinds behind a generic trait with associated constants
//! (`const TERMINALS`, `const LOSSY`), heat injections per node in a `HashMap<usize, f64>`, heaters
//! sharing one energy meter through `Rc<RefCell<Meter>>`, the state and its rate stored in one buffer
//! and separated with `split_at_mut`, explicit RK2 stepping, and an objective of comfort deviation plus
//! metered energy.
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

trait Element {
    const TERMINALS: usize;
    const LOSSY: bool;
    fn nodes(&self) -> [usize; 2];
    fn flow(&self, temps: &[f64], t: f64) -> f64; // heat flow from node 0 to node 1 (or into node 0)
}

struct Conductance {
    a: usize,
    b: usize,
    ua: f64,
}

impl Element for Conductance {
    const TERMINALS: usize = 2;
    const LOSSY: bool = false;
    fn nodes(&self) -> [usize; 2] {
        [self.a, self.b]
    }
    fn flow(&self, temps: &[f64], _t: f64) -> f64 {
        self.ua * (temps[self.a] - temps[self.b])
    }
}

struct Ambient {
    node: usize,
    ua: f64,
    mean: f64,
    swing: f64,
}

impl Element for Ambient {
    const TERMINALS: usize = 1;
    const LOSSY: bool = true;
    fn nodes(&self) -> [usize; 2] {
        [self.node, usize::MAX]
    }
    fn flow(&self, temps: &[f64], t: f64) -> f64 {
        let outside = self.mean + self.swing * (2.0 * std::f64::consts::PI * t / 24.0).cos();
        self.ua * (temps[self.node] - outside)
    }
}

#[derive(Default)]
struct Meter {
    energy: f64,
    peak: f64,
}

struct Heater {
    node: usize,
    gain: f64,
    setpoint: f64,
    meter: Rc<RefCell<Meter>>,
}

impl Heater {
    fn power(&self, temps: &[f64], dt: f64, record: bool) -> f64 {
        // smooth proportional controller (softplus keeps it differentiable and non-negative)
        let e = self.gain * (self.setpoint - temps[self.node]);
        let q = (1.0 + e.exp()).ln();
        if record {
            let mut m = self.meter.borrow_mut();
            m.energy += q * dt;
            m.peak = m.peak.max(q);
        }
        q
    }
}

fn accumulate<E: Element>(elements: &[E], temps: &[f64], t: f64, inflow: &mut HashMap<usize, f64>) {
    for el in elements {
        let q = el.flow(temps, t);
        let [a, b] = el.nodes();
        *inflow.entry(a).or_insert(0.0) -= q;
        if E::TERMINALS == 2 && !E::LOSSY {
            *inflow.entry(b).or_insert(0.0) += q;
        }
    }
}

struct Building {
    caps: Vec<f64>,
    walls: Vec<Conductance>,
    outside: Vec<Ambient>,
    heaters: Vec<Heater>,
}

impl Building {
    fn rates(&self, temps: &[f64], t: f64, dt: f64, record: bool, rate: &mut [f64]) {
        let mut inflow: HashMap<usize, f64> = HashMap::new();
        accumulate(&self.walls, temps, t, &mut inflow);
        accumulate(&self.outside, temps, t, &mut inflow);
        for h in &self.heaters {
            *inflow.entry(h.node).or_insert(0.0) += h.power(temps, dt, record);
        }
        for (i, r) in rate.iter_mut().enumerate() {
            *r = inflow.get(&i).copied().unwrap_or(0.0) / self.caps[i];
        }
    }
}

/// # Safety
/// `params` holds 6 values (wall, window and slab conductances, heater gain, setpoint, slab capacity).
#[no_mangle]
pub unsafe extern "C" fn building_objective(params: *const f64, hours: usize, comfort: f64) -> f64 {
    let p = std::slice::from_raw_parts(params, 6);
    let meter = Rc::new(RefCell::new(Meter::default()));
    // nodes: 0 living room, 1 bedroom, 2 wall mass, 3 slab
    let b = Building {
        caps: vec![2.0, 1.5, 8.0, p[5]],
        walls: vec![
            Conductance { a: 0, b: 1, ua: 0.8 },
            Conductance { a: 0, b: 2, ua: p[0] },
            Conductance { a: 1, b: 2, ua: 0.7 * p[0] },
            Conductance { a: 0, b: 3, ua: p[2] },
        ],
        outside: vec![
            Ambient { node: 2, ua: 0.4, mean: 5.0, swing: 4.0 },
            Ambient { node: 0, ua: p[1], mean: 5.0, swing: 4.0 },
            Ambient { node: 1, ua: 0.5 * p[1], mean: 5.0, swing: 4.0 },
        ],
        heaters: vec![
            Heater { node: 0, gain: p[3], setpoint: p[4], meter: Rc::clone(&meter) },
            Heater { node: 1, gain: 0.8 * p[3], setpoint: p[4] - 1.0, meter: Rc::clone(&meter) },
        ],
    };
    let n = b.caps.len();
    let mut buffer = vec![0.0; 3 * n];
    let (state, work) = buffer.split_at_mut(n);
    let (k1, mid) = work.split_at_mut(n);
    state.copy_from_slice(&[18.0, 17.0, 12.0, 15.0]);
    let dt = 0.05;
    let steps = (hours as f64 / dt) as usize;
    let mut discomfort = 0.0;
    for s in 0..steps {
        let t = s as f64 * dt;
        b.rates(state, t, dt, false, k1);
        for i in 0..n {
            mid[i] = state[i] + 0.5 * dt * k1[i];
        }
        b.rates(mid, t + 0.5 * dt, dt, true, k1);
        for i in 0..n {
            state[i] += dt * k1[i];
        }
        discomfort += dt * state[..2].iter().map(|x| (x - comfort).powi(2)).sum::<f64>();
    }
    let m = meter.borrow();
    discomfort + 0.05 * m.energy + 0.01 * m.peak
}

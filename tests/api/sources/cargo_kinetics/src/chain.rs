pub fn integrate(k1: f64, k2: f64, steps: usize) -> (f64, f64) {
    let dt = 1.0 / steps as f64;
    let (mut a, mut b) = (1.0, 0.0);
    for _ in 0..steps {
        let (da, db) = (-k1 * a, k1 * a - k2 * b);
        a += dt * da;
        b += dt * db;
    }
    (a, b)
}

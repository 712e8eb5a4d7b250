//! Scratch buffers the way Rust code makes them: `vec![0.0; n]` (a zeroed allocation, or a dangling
//! non-null pointer when n == 0) filled in a loop and reduced, next to the `.collect()` form.

/// sum_i w_i x_i^2 with w_i = 1 + i mod 3, through a zeroed scratch vector.
#[no_mangle]
pub extern "C" fn weighted_energy(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut buf = vec![0.0; n];
    for i in 0..n {
        buf[i] = (1 + i % 3) as f64 * x[i] * x[i];
    }
    buf.iter().sum()
}

/// The same energy with the buffer built by an iterator.
#[no_mangle]
pub extern "C" fn weighted_energy_collect(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let buf: Vec<f64> = x.iter().enumerate().map(|(i, v)| (1 + i % 3) as f64 * v * v).collect();
    buf.iter().sum()
}

/// Prefix sums of sin(x) in a zeroed buffer, then sum_k s_k^2 (every x_i reaches the later s_k).
#[no_mangle]
pub extern "C" fn prefix_energy(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut s = vec![0.0; n];
    let mut acc = 0.0;
    for i in 0..n {
        acc += x[i].sin();
        s[i] = acc;
    }
    s.iter().map(|v| v * v).sum()
}

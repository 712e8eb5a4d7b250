//! Rust kernels (std: Vec, iterators, f64 math) behind `extern "C"`.
use std::slice;

#[no_mangle]
pub extern "C" fn rs_weighted_norm(x: *const f64, n: i64, w: f64) -> f64 {
    let x = unsafe { slice::from_raw_parts(x, n as usize) };
    x.iter().fold(0.0, |acc, &xi| acc + w * xi * xi + xi.sin() * (-xi.abs()).exp()).sqrt()
}

#[no_mangle]
pub extern "C" fn rs_axpy(y: *mut f64, x: *const f64, n: i64, a: f64) {
    let (y, x) = unsafe { (slice::from_raw_parts_mut(y, n as usize), slice::from_raw_parts(x, n as usize)) };
    for (i, (yi, &xi)) in y.iter_mut().zip(x).enumerate() {
        *yi = a * xi + *yi / (1.0 + i as f64);
    }
}

#[no_mangle]
pub extern "C" fn rs_prefix_max(out: *mut f64, x: *const f64, n: i64) -> f64 {
    let (out, x) = unsafe { (slice::from_raw_parts_mut(out, n as usize), slice::from_raw_parts(x, n as usize)) };
    let sums: Vec<f64> = x.iter().scan(0.0, |acc, &xi| { *acc += xi; Some(*acc) }).collect();
    let mut best = f64::NEG_INFINITY;
    for (o, &s) in out.iter_mut().zip(&sums) {
        best = best.max(s);
        *o = best * (s.abs() + 1.0).powf(0.25);
    }
    best
}

//! Statistics for the C driver, using Rust's std (iterators, format!, println!).
use std::slice;

fn view<'a>(x: *const f64, n: usize) -> &'a [f64] {
    unsafe { slice::from_raw_parts(x, n) }
}

#[no_mangle]
pub extern "C" fn rs_mean(x: *const f64, n: usize) -> f64 {
    let x = view(x, n);
    x.iter().sum::<f64>() / x.len() as f64
}

#[no_mangle]
pub extern "C" fn rs_stddev(x: *const f64, n: usize) -> f64 {
    let mean = rs_mean(x, n);
    let x = view(x, n);
    (x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / x.len() as f64).sqrt()
}

#[no_mangle]
pub extern "C" fn rs_describe(x: *const f64, n: usize) -> usize {
    let x = view(x, n);
    let max = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let text = format!("rust: {} values, max {:.6}, sorted {:?}", x.len(), max, {
        let mut v: Vec<f64> = x.to_vec();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v.iter().map(|v| format!("{v:.3}")).collect::<Vec<_>>()
    });
    println!("{text}");
    text.len()
}

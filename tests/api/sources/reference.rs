//! The functions of the Enzyme.jl reference examples, in Rust (prefix rs_).

#[no_mangle]
pub extern "C" fn rs_prod2(x: *const f64) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, 2) };
    x[0] * x[1]
}

#[no_mangle]
pub extern "C" fn rs_mixed(a: f64, b: *const f64, c: i32, d: f64) -> f64 {
    let b = unsafe { std::slice::from_raw_parts(b, 2) };
    a * (b[0] * b[0] + b[1] * b[1]).sqrt() + (c as f64).powi(2) * d * d
}

#[no_mangle]
pub extern "C" fn rs_square(x: f64) -> f64 {
    x * x
}

#[no_mangle]
pub extern "C" fn rs_vecf(x: *const f64, y: *mut f64) {
    let (x, y) = unsafe { (std::slice::from_raw_parts(x, 2), std::slice::from_raw_parts_mut(y, 2)) };
    y[0] = x[0] * x[1];
    y[1] = x[1];
}

#[no_mangle]
pub extern "C" fn rs_split(a: *mut f64, v: f64) -> f64 {
    let a = unsafe { &mut *a };
    let res = *a * v;
    *a = 0.0;
    res
}

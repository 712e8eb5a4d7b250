//! sum of x_i^3 / 3, callable from C as rust_cubes(x, n).

#[no_mangle]
pub extern "C" fn rust_cubes(x: *const f64, n: i32) -> f64 {
    let values = unsafe { core::slice::from_raw_parts(x, n as usize) };
    values.iter().map(|v| v * v * v / 3.0).sum()
}

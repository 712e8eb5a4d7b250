//! y[i] = a * x[i] for i < n, callable from C as scale(a, x, y, n).
//! Raw pointers and wrapping arithmetic: nothing here can panic, so the bitcode
//! needs nothing from Rust's std at any optimization level.

/// # Safety
/// `x` and `y` must point to `n` valid `f64`s each.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn scale(a: f64, x: *const f64, y: *mut f64, n: usize) {
    let mut i: usize = 0;
    while i < n {
        unsafe { *y.wrapping_add(i) = a * *x.wrapping_add(i) };
        i = i.wrapping_add(1);
    }
}

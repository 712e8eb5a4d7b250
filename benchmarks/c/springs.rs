//! A Rust kernel: the energy of a chain of n 2-D masses joined by springs of rest length 1, plus a soft
//! repulsion between every pair (an O(n^2) loop).  Called from C as springs_energy(x, n), x = [x0, y0, x1, ...].
//! no_std and raw-pointer reads: the object links into a C program without Rust's runtime.
#![no_std]

extern "C" {
    fn sqrt(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

unsafe fn at(x: *const f64, k: usize) -> f64 {
    *x.add(k)
}

unsafe fn spring(dx: f64, dy: f64) -> f64 {
    let len = sqrt(dx * dx + dy * dy);
    (len - 1.0) * (len - 1.0)
}

#[no_mangle]
pub unsafe extern "C" fn springs_energy(x: *const f64, n: usize) -> f64 {
    let mut e = 0.0;
    for i in 1..n {
        e += spring(at(x, 2 * i) - at(x, 2 * i - 2), at(x, 2 * i + 1) - at(x, 2 * i - 1));
    }
    for i in 0..n {
        for j in i + 1..n {
            let (dx, dy) = (at(x, 2 * j) - at(x, 2 * i), at(x, 2 * j + 1) - at(x, 2 * i + 1));
            e += 0.01 * exp(-(dx * dx + dy * dy));
        }
    }
    e
}

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {}
}

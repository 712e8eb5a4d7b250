//! Rust thread-locals: `thread_local!` with a const initializer, a lazily initialized value with a
//! destructor, and std's own (HashMap's RandomState keys live in a thread-local of std).
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

thread_local! {
    static CALLS: Cell<u64> = const { Cell::new(0) };
    static HISTORY: RefCell<Vec<f64>> = RefCell::new(Vec::new());
}

#[no_mangle]
pub extern "C" fn rs_record(x: f64) -> f64 {
    CALLS.with(|c| c.set(c.get() + 1));
    HISTORY.with(|h| {
        let mut h = h.borrow_mut();
        h.push(x);
        h.iter().sum()
    })
}

#[no_mangle]
pub extern "C" fn rs_calls() -> u64 {
    CALLS.with(|c| c.get())
}

/// sum_i c_i x_i^2 where c_i counts the values sharing x_i's unit bin.
#[no_mangle]
pub extern "C" fn rs_binned_energy(x: *const f64, n: usize) -> f64 {
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let mut counts: HashMap<i64, usize> = HashMap::new();
    for &v in x {
        *counts.entry(v.floor() as i64).or_insert(0) += 1;
    }
    x.iter().map(|&v| counts[&(v.floor() as i64)] as f64 * v * v).sum()
}

/// An objective that counts its evaluations in a thread-local.
#[no_mangle]
pub extern "C" fn rs_counted_energy(x: *const f64, n: usize) -> f64 {
    CALLS.with(|c| c.set(c.get() + 1));
    let x = unsafe { std::slice::from_raw_parts(x, n) };
    let s: f64 = x.iter().map(|v| v.sin() * v).sum();
    s * s
}

//! `std::collections::HashMap` built and read inside differentiated code (tests/api/test_rust_hashmap.py):
//! parameters by name (`HashMap<&str, f64>`, or by `u8` id), per-node sums (`HashMap<usize, f64>` through `entry().or_insert`),
//! a struct value (`HashMap<u32, Spring>`), and removals followed by insertions, so the table reuses deleted
//! slots.

use std::collections::HashMap;

#[derive(Clone, Copy)]
struct Spring {
    k: f64,
    rest: f64,
}

/// # Safety
/// `x` holds `n` values, `n >= 4`.
#[no_mangle]
pub unsafe extern "C" fn hashmap_energy(x: *const f64, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let mut params: HashMap<&str, f64> = HashMap::new();
    params.insert("stiffness", 1.5 * x[0]);
    params.insert("damping", x[1] * x[1]);
    params.insert("offset", 0.25 + x[2]);

    let mut per_node: HashMap<usize, f64> = HashMap::new();
    for (i, &v) in x.iter().enumerate() {
        *per_node.entry(i % 3).or_insert(0.0) += v.sin() * params["stiffness"];
    }
    let mut springs: HashMap<u32, Spring> = HashMap::new();
    for (i, w) in x.windows(2).enumerate() {
        springs.insert(i as u32, Spring { k: params["damping"] + w[0], rest: w[1] - params["offset"] });
    }
    // Remove and reinsert: deleted slots are reused.
    for i in 0..(n as u32 - 1) {
        if i % 2 == 0 {
            if let Some(s) = springs.remove(&i) {
                springs.insert(i + 100, Spring { k: s.k * 1.1, rest: s.rest });
            }
        }
    }
    let mut e = 0.0;
    for node in 0..3 {
        e += per_node.get(&node).copied().unwrap_or(0.0).powi(2);
    }
    let mut keys: Vec<u32> = springs.keys().copied().collect();
    keys.sort();
    for k in keys {
        let s = springs[&k];
        e += 0.5 * s.k * (s.rest - 0.1 * k as f64).powi(2);
    }
    e
}

/// The same with `u8` parameter ids in place of names.
/// # Safety
/// `x` holds `n` values, `n >= 4`.
#[no_mangle]
pub unsafe extern "C" fn hashmap_energy_ids(x: *const f64, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let mut params: HashMap<u8, f64> = HashMap::new();
    params.insert(b's', 1.5 * x[0]);
    params.insert(b'd', x[1] * x[1]);
    params.insert(b'o', 0.25 + x[2]);

    let mut per_node: HashMap<usize, f64> = HashMap::new();
    for (i, &v) in x.iter().enumerate() {
        *per_node.entry(i % 3).or_insert(0.0) += v.sin() * params[&b's'];
    }
    let mut springs: HashMap<u32, Spring> = HashMap::new();
    for (i, w) in x.windows(2).enumerate() {
        springs.insert(i as u32, Spring { k: params[&b'd'] + w[0], rest: w[1] - params[&b'o'] });
    }
    // Remove and reinsert: deleted slots are reused.
    for i in 0..(n as u32 - 1) {
        if i % 2 == 0 {
            if let Some(s) = springs.remove(&i) {
                springs.insert(i + 100, Spring { k: s.k * 1.1, rest: s.rest });
            }
        }
    }
    let mut e = 0.0;
    for node in 0..3 {
        e += per_node.get(&node).copied().unwrap_or(0.0).powi(2);
    }
    let mut keys: Vec<u32> = springs.keys().copied().collect();
    keys.sort();
    for k in keys {
        let s = springs[&k];
        e += 0.5 * s.k * (s.rest - 0.1 * k as f64).powi(2);
    }
    e
}

/// Per-node sums in a `HashMap<usize, f64>` (`entry().or_insert`, `get`): no removals.
///
/// # Safety
/// `x` holds `n` values.
#[no_mangle]
pub unsafe extern "C" fn node_sums(x: *const f64, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let mut per_node: HashMap<usize, f64> = HashMap::new();
    for (i, &v) in x.iter().enumerate() {
        *per_node.entry(i % 3).or_insert(0.0) += v.sin() * v;
        *per_node.entry(7 + i).or_insert(1.0) *= v;
    }
    let mut e = 0.0;
    for node in 0..(7 + n) {
        e += per_node.get(&node).copied().unwrap_or(0.0).powi(2);
    }
    e
}

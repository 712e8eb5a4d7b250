//! Rows grouped per `u32` id in a `BTreeMap` (`insert`, `entry().or_insert_with`), each group a struct holding a
//! `Vec<f64>` of active values (tests/api/test_rust_btree_groups.py).

use std::collections::BTreeMap;

struct Group {
    weight: f64,
    values: Vec<f64>,
}

/// # Safety
/// `x` holds `n` values, `ids` holds `n` ids.
#[no_mangle]
pub unsafe extern "C" fn grouped_energy(x: *const f64, ids: *const u32, n: usize) -> f64 {
    let x = std::slice::from_raw_parts(x, n);
    let ids = std::slice::from_raw_parts(ids, n);
    let mut groups: BTreeMap<u32, Group> = BTreeMap::new();
    groups.insert(ids[0], Group { weight: 2.0 * x[0], values: Vec::new() });
    for (&id, &v) in ids.iter().zip(x) {
        groups.entry(id).or_insert_with(|| Group { weight: 1.0, values: Vec::new() }).values.push(v);
    }
    groups.values().map(|g| g.weight * g.values.iter().map(|v| v.sin() * v).sum::<f64>()).sum()
}

//! A `no_std` crate (built with panic=abort): slices, iterators from core,
//! structs, enums with data, traits, generics and checked arithmetic.
#![no_std]

use core::panic::PanicInfo;

#[panic_handler]
fn on_panic(_info: &PanicInfo) -> ! {
    loop {}
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct Point {
    pub x: f64,
    pub y: f64,
    pub weight: i32,
}

pub enum Shape {
    Circle { r: f64 },
    Rect(f64, f64),
    Empty,
}

pub trait Area {
    fn area(&self) -> f64;
}

impl Area for Shape {
    fn area(&self) -> f64 {
        match *self {
            Shape::Circle { r } => core::f64::consts::PI * r * r,
            Shape::Rect(w, h) => w * h,
            Shape::Empty => 0.0,
        }
    }
}

fn total<T: Area>(items: &[T]) -> f64 {
    items.iter().map(Area::area).sum()
}

#[no_mangle]
pub extern "C" fn rs_dot(x: *const f64, y: *const f64, n: usize) -> f64 {
    let (x, y) = unsafe { (core::slice::from_raw_parts(x, n), core::slice::from_raw_parts(y, n)) };
    x.iter().zip(y).map(|(a, b)| a * b).sum()
}

#[no_mangle]
pub extern "C" fn rs_centroid(points: *const Point, n: usize, out: *mut Point) {
    let points = unsafe { core::slice::from_raw_parts(points, n) };
    let mut acc = Point { x: 0.0, y: 0.0, weight: 0 };
    for p in points {
        acc.x += p.x * f64::from(p.weight);
        acc.y += p.y * f64::from(p.weight);
        acc.weight = acc.weight.wrapping_add(p.weight);
    }
    if acc.weight != 0 {
        acc.x /= f64::from(acc.weight);
        acc.y /= f64::from(acc.weight);
    }
    unsafe { *out = acc };
}

#[no_mangle]
pub extern "C" fn rs_shapes(r: f64, w: f64, h: f64) -> f64 {
    total(&[Shape::Circle { r }, Shape::Rect(w, h), Shape::Empty])
}

#[no_mangle]
pub extern "C" fn rs_checked(a: i64, b: i64) -> i64 {
    match a.checked_mul(b) {
        Some(v) => v.saturating_add(a / b.max(1)),
        None => i64::MIN,
    }
}

#[no_mangle]
pub extern "C" fn rs_poly(x: f64, coeffs: *const f64, n: usize) -> f64 {
    let c = unsafe { core::slice::from_raw_parts(coeffs, n) };
    c.iter().rev().fold(0.0, |acc, &k| acc * x + k)
}

#[no_mangle]
pub extern "C" fn rs_index(values: *const u32, n: usize, i: usize) -> u32 {
    let values = unsafe { core::slice::from_raw_parts(values, n) };
    values[i] // bounds check: panics (aborts) when out of range
}

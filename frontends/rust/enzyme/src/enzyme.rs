//! Enzyme's C ABI for Rust, as understood by pyenzyme.
//!
//! The `__enzyme_*` functions are requests, not real functions: pyenzyme replaces
//! every call with a call to the generated derivative when it differentiates the
//! linked program (`enzyme_add_differentiable()` in CMake, or the `enzyme-cc`
//! wrappers).  Arguments after the function pointer are the primal arguments,
//! each optionally preceded by the *value* of an activity marker:
//!
//! ```ignore
//! use enzyme::{ffi, marker};
//! extern "C" fn f(x: *const f64, n: usize) -> f64 { /* ... */ }
//! unsafe { ffi::__enzyme_autodiff(f as *const _, marker::dup(), x.as_ptr(), dx.as_mut_ptr(), marker::constant(), n) };
//! ```
//!
//! The safe helpers below cover common shapes; they are `#[inline(always)]` so the
//! function pointer is a constant at each request once inlined, as pyenzyme needs.
//! The crate is `no_std`, so both std and `no_std` crates can use it.
#![no_std]

/// The raw entry points and markers (unsafe; see the crate documentation).
pub mod ffi {
    use core::ffi::{c_int, c_void};

    #[allow(non_upper_case_globals)]
    extern "C" {
        pub static enzyme_dup: c_int;
        pub static enzyme_dupnoneed: c_int;
        pub static enzyme_const: c_int;
        pub static enzyme_out: c_int;
        pub static enzyme_width: c_int;

        /// Reverse mode: accumulates adjoints into shadows, returns the adjoint of an `enzyme_out` argument.
        pub fn __enzyme_autodiff(f: *const c_void, ...) -> f64;
        /// Forward mode: returns the tangent of the result.
        pub fn __enzyme_fwddiff(f: *const c_void, ...) -> f64;
        /// Split reverse mode: the forward sweep; returns the tape.
        pub fn __enzyme_augmentfwd(f: *const c_void, ...) -> *mut c_void;
        /// Split reverse mode: the reverse sweep consuming (and freeing) the tape.
        pub fn __enzyme_reverse(f: *const c_void, ...) -> f64;
    }
}

/// The markers' values, to pass before an argument (reading a marker is what pyenzyme recognises).
pub mod marker {
    use core::ffi::c_int;

    /// The next two arguments are a primal and its shadow.
    #[inline(always)]
    pub fn dup() -> c_int {
        unsafe { super::ffi::enzyme_dup }
    }

    /// The next argument is constant (no derivative).
    #[inline(always)]
    pub fn constant() -> c_int {
        unsafe { super::ffi::enzyme_const }
    }

    /// The next argument is an active scalar whose adjoint is returned (reverse mode).
    #[inline(always)]
    pub fn out() -> c_int {
        unsafe { super::ffi::enzyme_out }
    }
}

/// d f / d x of a scalar function, by reverse mode.
#[inline(always)]
pub fn derivative(f: extern "C" fn(f64) -> f64, x: f64) -> f64 {
    unsafe { ffi::__enzyme_autodiff(f as *const _, marker::out(), x) }
}

/// The tangent of `f(x)` along `dx`, by forward mode.
#[inline(always)]
pub fn tangent(f: extern "C" fn(f64) -> f64, x: f64, dx: f64) -> f64 {
    unsafe { ffi::__enzyme_fwddiff(f as *const _, marker::dup(), x, dx) }
}

/// `dx += ∇f(x)` for `f(x.as_ptr(), x.len())`, by reverse mode.
///
/// # Panics
/// When `x` and `dx` differ in length.
#[inline(always)]
pub fn gradient(f: extern "C" fn(*const f64, usize) -> f64, x: &[f64], dx: &mut [f64]) {
    assert_eq!(x.len(), dx.len(), "enzyme::gradient: x and dx must have the same length");
    unsafe {
        ffi::__enzyme_autodiff(
            f as *const _, marker::dup(), x.as_ptr(), dx.as_mut_ptr(), marker::constant(), x.len(),
        );
    }
}
